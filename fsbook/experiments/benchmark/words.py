"""The phrases of the benchmark chapter: methods, verdicts and tallies of claims put into words.

Small functions of the claims and tables that :mod:`fsbook.experiments.benchmark.facts` and its
parts (:mod:`~fsbook.experiments.benchmark.rank_facts`,
:mod:`~fsbook.experiments.benchmark.claim_facts`) turn into the sentences the chapter quotes.
"""
from __future__ import annotations

import numpy as np

from fsbook.claims import verdict_counts
from fsbook.report import describe_claim, format_p, join_words

#: the two classifiers and the tag of their glue keys
TAGS = (("linear SVM", "linear"), ("RBF SVM", "rbf"))
#: the method ``none`` in prose
ALL_FEATURES = "none (all features)"


def names(items, empty="no method"):
    """Methods in prose (``none`` as all features).

    Examples
    --------
    >>> from fsbook.experiments.benchmark.words import names
    >>> names(["MI", "none"]), names([])
    ('MI and none (all features)', 'no method')
    """
    return join_words([ALL_FEATURES if i == "none" else i for i in items], empty=empty)


def key(method):
    """A method's name in a glue key (``-`` → ``_``)."""
    return method.replace("-", "_")


def same(a, b):
    """Equal to rounding error."""
    return bool(np.isclose(a, b, rtol=1e-12, atol=1e-12))


def firsts(s, lowest=True):
    """The entries of ``s`` tied (to rounding error) at its lowest or highest value, in order.

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.experiments.benchmark.words import firsts
    >>> firsts(pd.Series({"a": 1.0, "b": 2.0, "c": 1.0})), firsts(pd.Series({"a": 1.0, "b": 2.0}), lowest=False)
    (['a', 'c'], ['b'])
    """
    target = s.min() if lowest else s.max()
    return [m for m in s.index if same(s[m], target)]


def tally(rows):
    """How a claim fares over its per-data-set rows, in words: the verdicts "no gain" and "below
    margin" (holds by less than the declared margin) are named where they occur.

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.experiments.benchmark.words import tally
    >>> tally(pd.DataFrame({"verdict": ["holds", "not separable"], "size": ["", ""]}))
    'holds on 1, fails on 0 and is not separable on 1 of 2 data sets'
    >>> tally(pd.DataFrame({"verdict": ["holds", "no gain", "not separable"], "size": ["below margin", "", ""]}))
    'holds on 1 (by less than its margin on 1), fails on 0, shows no gain on 1 and is not separable on 1 of 3 data sets'
    """
    c = verdict_counts(rows["verdict"])
    below = int((rows["size"] == "below margin").sum()) if "size" in rows else 0
    held = f"holds on {c['holds']}" + (f" (by less than its margin on {below})" if below else "")
    no_gain = f", shows no gain on {c['no gain']}" if c["no gain"] else ""
    return (f"{held}, fails on {c['fails']}{no_gain} and is not separable on "
            f"{c['not separable']} of {len(rows)} data sets")


def cases(rows, verdict, with_method=False):
    """The data sets whose claim has ``verdict``, with effect and adjusted p, in words."""
    sel = rows[rows.verdict == verdict]
    return join_words([f"{r.dataset} ({r.a + ', ' if with_method else ''}{r.effect:+.1f} points, "
                       f"{format_p(r.p_adj)})" for r in sel.itertuples()], empty="no data set")


def verdict_words(rows):
    """The verdicts of claims ``rows`` counted in words, "below margin" and "no gain" named.

    Examples
    --------
    >>> import pandas as pd
    >>> from fsbook.experiments.benchmark.words import verdict_words
    >>> verdict_words(pd.DataFrame({"verdict": ["holds", "holds", "no gain", "fails"],
    ...                             "size": ["below margin", "", "", ""]}))
    '2 hold (1 by less than its margin), 1 fails, 1 shows no gain within its margin and 0 are not separable'
    """
    c = verdict_counts(rows["verdict"])
    below = int((rows["size"] == "below margin").sum()) if "size" in rows else 0

    def n(v, one, many):
        return f"{c[v]} {one if c[v] == 1 else many}"

    held = n("holds", "holds", "hold") + (f" ({below} by less than its margin)" if below else "")
    return (f"{held}, {n('fails', 'fails', 'fail')}, {n('no gain', 'shows', 'show')} no gain within "
            f"{'its' if c['no gain'] == 1 else 'their'} margin and {n('not separable', 'is', 'are')} not separable")


def claim_words(row):
    """A claims row in prose; this page's claims are the book's own, so their direction is the claim's."""
    return describe_claim(row, decimals=1, units="points").replace("the paper's direction", "the claim's direction")
