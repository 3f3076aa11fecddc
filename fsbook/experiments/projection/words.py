"""How the chapter words a verdict, a level or a store: the small phrase builders of
:mod:`fsbook.experiments.projection.facts`, each a function of a claims or agreement table.
"""

from fsbook.claims import verdict_counts
from fsbook.experiments.projection.paper import (
    NEWS_FRACS,
    ORDER_MARGINS,
    TABLE_NAMES,
    TEST_PREDICTIONS,
    YALE_K,
)
from fsbook.report import (
    VERDICT_VERB,
    VERDICT_VERB_PLURAL,
    describe_claim,
    format_significant,
    format_value,
    join_words,
    spaced,
)

#: the plural verb of each agreement verdict
AGREE_PLURAL = {"agrees": "agree", "differs": "differ", "inconclusive": "are inconclusive"}
#: the singular and plural verb of each claim verdict
VERB, PLURAL = VERDICT_VERB, VERDICT_VERB_PLURAL
#: how the prose names each table: the text tables by their fraction, the face tables by number
LABEL = {**{t: f"{int(f * 100)} %" for t, f in NEWS_FRACS.items()}, **{t: f"Table {t[-1]}" for t in YALE_K}}
#: what a part of the stores holds and the tables it feeds
PART = {"boston": ("Boston runs", "Table 1"), "20newsgroups": ("text tasks", "Tables 2–4"),
        "yale": ("face tasks", "Tables 5–7"), "rho": ("tasks of the ρ sweep", "beyond the paper")}


def agreement_words(agree, ids):
    """How many levels of the tables ``ids`` agree with the paper's, differ or are inconclusive.

    Parameters
    ----------
    agree : pandas.DataFrame
        Rows of :func:`~fsbook.experiments.projection.claims.paper_agreement` (``id``,
        ``agreement``, ``z``).
    ids : iterable of str

    Examples
    --------
    >>> import pandas as pd
    >>> a = pd.DataFrame({"id": ["t", "t", "u"], "agreement": ["differs", "agrees", "differs"],
    ...                   "z": [-4.62, 0.3, 9.91]})
    >>> agreement_words(a, ["t", "u"])
    '1 agree, 2 differ and 0 are inconclusive (those that differ by 4.6 to 9.9 combined standard errors)'
    >>> agreement_words(a, ["t"])
    '1 agree, 1 differ and 0 are inconclusive (those that differ by 4.6 to 4.6 combined standard errors)'
    """
    a = agree[agree["id"].isin(list(ids))]
    n = a["agreement"].value_counts()
    text = join_words(f"{n.get(v, 0)} {p}" for v, p in AGREE_PLURAL.items())
    z = a.loc[a["agreement"] == "differs", "z"].abs()
    return text + (f" (those that differ by {format_value(z.min(), 1)} to {format_value(z.max(), 1)} combined "
                   "standard errors)" if len(z) else "")


def part_words(parts, part):
    """'all 500 Boston runs (Table 1)' or '630 of the 57 000 text tasks (Tables 2–4)'.

    ``parts`` is indexed by part with the columns ``stored`` and ``in the protocol``
    (:func:`~fsbook.experiments.projection.facts.store_parts`).

    Examples
    --------
    >>> import pandas as pd
    >>> parts = pd.DataFrame({"stored": [500, 630, 0], "in the protocol": [500, 57000, 12]},
    ...                      index=["boston", "20newsgroups", "rho"])
    >>> [part_words(parts, p) for p in parts.index]     # doctest: +NORMALIZE_WHITESPACE
    ['all 500 Boston runs (Table 1)', '630 of the 57 000 text tasks (Tables 2–4)',
     'none of the 12 tasks of the ρ sweep (beyond the paper)']
    """
    stored, total = parts.loc[part, ["stored", "in the protocol"]]
    what, where = PART[part]
    share = "all" if stored == total else ("none of the" if stored == 0 else f"{spaced(stored)} of the")
    return f"{share} {spaced(total)} {what} ({where})"


def block_words(table):
    """'our 2 runs of 35 pairs', and the stored tasks the block leaves out, of a table of
    :func:`~fsbook.experiments.projection.tables.runs_table`.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"runs": [2], "tasks per run": [35], "tasks stored": [80]})
    >>> block_words(t)
    'our 2 runs of 35 pairs (the largest complete block of runs × pairs of its 80 stored tasks)'
    >>> block_words(t.assign(runs=1, **{"tasks stored": 35}))
    'our 1 run of 35 pairs; one run: no standard error over runs'
    """
    runs, pairs, stored = (int(table[c].iloc[0]) for c in ("runs", "tasks per run", "tasks stored"))
    text = f"our {runs} run{'s' if runs > 1 else ''} of {pairs} pairs"
    if stored > runs * pairs:
        text += f" (the largest complete block of runs × pairs of its {spaced(stored)} stored tasks)"
    return text + ("; one run: no standard error over runs" if runs == 1 else "")


def where(table):
    """'at 2 %' for a text table, 'in Table 5' otherwise.

    >>> where("table2"), where("table1_paper_grid")
    ('at 2 %', "in Table 1 (paper's α grid)")
    """
    return f"at {LABEL[table]}" if table in NEWS_FRACS else f"in {TABLE_NAMES[table]}"


def counts(rows):
    """'4 hold (1 by less than its margin), 0 fail, 2 show no gain and 17 are not separable' of
    the claims ``rows`` (columns ``verdict`` and, optionally, ``size``).

    >>> import pandas as pd
    >>> counts(pd.DataFrame({"verdict": ["holds", "not separable", "holds", "no gain"],
    ...                      "size": ["", "", "below margin", ""]}))
    '2 hold (1 by less than its margin), 0 fail, 1 shows no gain and 1 is not separable'
    >>> counts(pd.DataFrame({"verdict": ["holds", "not separable", "not separable"]}))
    '1 holds, 0 fail, 0 show no gain and 2 are not separable'
    """
    n = verdict_counts(rows["verdict"])
    below = int((rows["size"] == "below margin").sum()) if "size" in rows else 0
    said = {v: f"{n[v]} {VERB[v] if n[v] == 1 else PLURAL[v]}" for v in n}
    held = said["holds"] + (f" ({below} by less than its margin)" if below else "")
    return f"{held}, {said['fails']}, {said['no gain']} and {said['not separable']}"


def margin_words(ids, margins=ORDER_MARGINS, predictions=TEST_PREDICTIONS):
    """The order claims' margin of each table of ``ids``, two significant digits, tables of equal
    margin together, with the test predictions a run makes.

    >>> margin_words(["table1", "table1_paper_grid", "table2", "table3"]).split("; ")  # doctest: +NORMALIZE_WHITESPACE
    ["0.22 points in Table 1 and Table 1 (paper's α grid), one of 456 test predictions a run",
     '0.0007 points in Table 2 and Table 3, one of 143 108 test predictions a run']
    """
    groups = {}
    for t in dict.fromkeys(ids):
        groups.setdefault((margins[t], predictions[t]), []).append(TABLE_NAMES.get(t, f"Table {t[-1]}"))
    return "; ".join(f"{format_significant(m, 2)} points in {join_words(names)}, one of {spaced(n)} test "
                     "predictions a run" for (m, n), names in groups.items())


def level_range(ids, paper, ours, what):
    """'Our mean errors are 1.20–4.63 points lower than the paper's', over the methods of the
    tables ``ids`` (``paper[id]["mean"]`` and ``ours[id]["mean"]``, both ``{method: level}``).

    >>> paper = {"t": {"mean": {"A": 10.0, "B": 5.0}}}
    >>> level_range(["t"], paper, {"t": {"mean": {"A": 8.8, "B": 3.0}}}, "errors")
    "Our mean errors are 1.20–2.00 points lower than the paper's"
    >>> level_range(["t"], paper, {"t": {"mean": {"A": 11.0, "B": 3.0}}}, "errors")
    "Our mean errors differ from the paper's by -2.00 to 1.00 points"
    """
    diffs = [float(ours[t]["mean"][m]) - paper[t]["mean"][m] for t in ids for m in paper[t]["mean"]]
    if min(diffs) > 0:
        return (f"Our mean {what} are {format_value(min(diffs), 2)}–{format_value(max(diffs), 2)} points "
                "higher than the paper's")
    if max(diffs) < 0:
        return (f"Our mean {what} are {format_value(-max(diffs), 2)}–{format_value(-min(diffs), 2)} points "
                "lower than the paper's")
    return f"Our mean {what} differ from the paper's by {format_value(min(diffs), 2)} to {format_value(max(diffs), 2)} points"


class Verdicts:
    """The verdicts of a claims table, worded: ``Verdicts(cl)`` with the columns ``id``,
    ``claim``, ``a``, ``b``, ``verdict`` and, optionally, ``size`` (and those
    :func:`fsbook.report.describe_claim` reads).

    Examples
    --------
    >>> import pandas as pd
    >>> cl = pd.DataFrame({"id": ["t", "t", "u", "u"], "claim": ["A below B", "A below C", "A below B", "A below C"],
    ...                    "a": ["A", "A", "A", "A"], "b": ["B", "C", "B", "C"],
    ...                    "verdict": ["holds", "not separable", "holds", "no gain"],
    ...                    "size": ["", "", "below margin", ""]})
    >>> v = Verdicts(cl)
    >>> v.by_verdict([("T", "t", "A below B"), ("U", "u", "A below B"), ("T", "t", "A below C")])
    'holds in T; holds by less than its margin in U; is not separable in T'
    >>> v.grouped([("t", "A below B"), ("u", "A below C")])
    'A below B holds; A below C shows no gain'
    >>> v.pair_claim("t", "C", "A")
    'A below C'
    """

    def __init__(self, claims):
        self.claims = claims
        self.by_claim = claims.set_index(["id", "claim"])

    def verdict(self, table, text):
        """The verdict of the claim ``text`` of ``table``."""
        return self.by_claim.loc[(table, text), "verdict"]

    def label(self, table, text):
        """The verdict, with ", below margin" for a claim that holds by less than its margin."""
        row = self.by_claim.loc[(table, text)]
        size = row.get("size", "")
        return row["verdict"] + (f", {size}" if isinstance(size, str) and size else "")

    def described(self, table, text):
        """'holds (+0.23 points, 95 % CI [+0.16, +0.29], paired t, 341 of 500 runs in the
        paper's direction, p < 0.001)'."""
        return describe_claim(self.by_claim.loc[(table, text)], units="points")

    def by_verdict(self, items, prep="in"):
        """'holds in A and B; is not separable in C' from ``[(label, table id, claim)]``."""
        groups = {}
        for label, table, text in items:
            groups.setdefault(self.label(table, text), []).append(label)
        return "; ".join(f"{VERB[v]} {prep} {join_words(labels)}" for v, labels in groups.items())

    def grouped(self, items):
        """'A and B are not separable; C holds' from ``[(table id, claim)]``."""
        groups = {}
        for table, text in items:
            groups.setdefault(self.label(table, text), []).append(text)
        return "; ".join(f"{join_words(texts)} {VERB[v] if len(texts) == 1 else PLURAL[v]}"
                         for v, texts in groups.items())

    def pair_claim(self, table, m1, m2):
        """The claim of the pair {m1, m2} in a table, in the paper's direction."""
        cl = self.claims
        rows = cl[(cl["id"] == table) & (((cl["a"] == m1) & (cl["b"] == m2)) | ((cl["a"] == m2) & (cl["b"] == m1)))]
        return rows["claim"].iloc[0]
