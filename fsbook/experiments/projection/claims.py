"""The paper's claims on Tables 1 and 5-7 (the order of every pair of methods of a table) and
the agreement of each level it prints with ours, decided with :mod:`fsbook.claims`.

Every order claim carries its table's declared margin (:data:`~fsbook.experiments.projection.
paper.ORDER_MARGINS`, one test prediction of a run): :func:`order_claims` for the orders of
methods (Tables 2-4's too, through :func:`fsbook.experiments.projection.text.claims`),
:func:`with_margins` for a claims table built elsewhere (the choice of d).
"""

import functools

import numpy as np
import pandas as pd

from fsbook.claims import Claim, agreement, claims_table, evaluate
from fsbook.experiments.projection.boston import boston_data
from fsbook.experiments.projection.paper import (
    AGREEMENT_MARGIN,
    GAINS,
    ORDER_MARGINS,
    PAPER,
    PAPER_RUNS,
    TABLE_NAMES,
    YALE_K,
)
from fsbook.experiments.projection.tables import per_run
from fsbook.experiments.projection.yale import yale_data


@functools.lru_cache(maxsize=1)
def split_ratios():
    """``n_test / n_train`` of one split of each table, for the corrected resampled t-test
    (which decides no verdict of the book: :mod:`fsbook.calibration` compares it with the paired
    t on these designs).

    Table 1: 456 test and 50 training examples.  Tables 5-7: ``11 − k`` test and ``k`` training
    images per subject.

    Returns
    -------
    dict of str to float, keyed like :data:`TABLE_NAMES`.
    """
    n_boston = len(boston_data()[1])
    out = {"table1": (n_boston - 50) / 50, "table1_paper_grid": (n_boston - 50) / 50}
    per_subject = int(np.bincount(yale_data()[1]).min())
    out.update({t: (per_subject - k) / k for t, k in YALE_K.items()})
    return out


def order_claims(values_of, tables, paper, gains, margins=ORDER_MARGINS):
    """Claims table of the paper's order of every pair of methods of each table.

    For each table of ``tables`` (``{id: name}``) whose per-run values ``values_of(id)`` (runs
    × methods, or ``None``) are present and each pair of its methods whose printed values in the
    paper (``paper[id]``, ``{method: mean}``) differ, the claim is the paper's order
    ("Proj-KPCA below SVM-KPCA": a lower error; "Proj-PCR above PCR": a higher R², for the ids
    starting with ``table1``).  It is paired over runs and tested by the paired t-test
    (:mod:`fsbook.claims`, ``"paired_t"``): given the data set, the runs draw their splits (or
    their training samples) independently, so they are independent units and the test estimates
    the paper's quantity, the mean over the protocol's resampling of this data set.  One table is
    one Holm family: the paper's table asserts the order of every pair it prints.  Each claim
    carries its table's margin ``margins[id]`` (default :data:`~fsbook.experiments.projection.
    paper.ORDER_MARGINS`): it is labelled "below margin" when it holds by less, and shows "no gain"
    when its 90 % interval lies inside ±margin.

    Raises
    ------
    ValueError
        If a table of ``tables`` has no margin in ``margins``.

    Returns
    -------
    pandas.DataFrame
        The columns of :data:`fsbook.claims.COLUMNS` plus ``id`` (the table's key), ``gain``
        (whether ``(a, b)`` is in ``gains[id]``) and ``paper effect`` (the paper's difference,
        positive: its direction).

    Examples
    --------
    >>> vals = pd.DataFrame({"A": [1.0, 2.0, 1.5], "B": [3.0, 3.5, 3.0]})
    >>> c = order_claims(lambda t: vals, {"t": "T"}, {"t": {"A": 1.0, "B": 2.0}}, {"t": [("A", "B")]},
    ...                  margins={"t": 2.0})
    >>> c["claim"].tolist(), bool(c["gain"].iloc[0]), float(c["effect"].iloc[0]), int(c["n_direction"].iloc[0])
    (['A below B'], True, 1.6666666666666667, 3)
    >>> c["verdict"].iloc[0], c["size"].iloc[0], c["margin"].iloc[0]
    ('holds', 'below margin', 2.0)
    """
    missing = [t for t in tables if t not in margins]
    if missing:
        raise ValueError(f"no margin declared for the order claims of {missing}")
    rows = []
    for table, label in tables.items():
        values = values_of(table)
        if values is None:
            continue
        higher = table.startswith("table1")
        names = [m for m in paper[table] if m in values.columns]
        for i, m1 in enumerate(names):
            for m2 in names[i + 1:]:
                p1, p2 = paper[table][m1], paper[table][m2]
                if p1 == p2:
                    continue                                   # the paper asserts no order
                a, b = (m1, m2) if (p1 > p2) == higher else (m2, m1)
                claim = Claim(f"{a} {'above' if higher else 'below'} {b}", a=a, b=b,
                              better="higher" if higher else "lower", unit="runs", test="paired_t", table=label,
                              margin=margins[table])
                row = evaluate(claim, values[a].to_numpy(), values[b].to_numpy())
                row.update(id=table, gain=(a, b) in gains[table],
                           **{"paper effect": abs(paper[table][a] - paper[table][b])})
                rows.append(row)
    return claims_table(rows)


def claims(results):
    """The chapter's claims table for Tables 1 and 5-7: the paper's order of every pair of
    methods of each table, decided on the stored per-run results by :mod:`fsbook.claims`
    (:func:`order_claims`; Tables 2-4: :func:`fsbook.experiments.projection.text.claims`).

    The claims are paired over runs (:func:`per_run`; for the faces each run's average over its
    pairs, so the runs are the units) and tested by the paired t-test, Holm within each table; each
    carries its table's margin (:data:`~fsbook.experiments.projection.paper.ORDER_MARGINS`).

    Parameters
    ----------
    results : ProtocolResult
        ``read_store(PROTOCOL, allow_partial=True)`` (or any object with ``params`` and
        ``results``).

    Returns
    -------
    pandas.DataFrame
        :func:`order_claims`'s table, for the tables of :data:`TABLE_NAMES` present.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from fsbook.experiments.projection.paper import YALE_METHODS
    >>> task = lambda run, pair, e: ({"part": "yale", "table": "table5", "run": run, "pair": pair},
    ...                              {m: {"error": e if m == "Proj-OLap" else 0.25} for m in YALE_METHODS})
    >>> tasks = [task(r, p, 0.25 - 0.05 * (r + 1)) for r in range(3) for p in ([0, 1], [0, 2])]
    >>> store = SimpleNamespace(params=[p for p, _ in tasks], results=[r for _, r in tasks])
    >>> c = claims(store)
    >>> row = c[c["claim"] == "Proj-OLap below SVM-OLap"].iloc[0]
    >>> float(round(row["effect"], 6)), int(row["n"]), bool(row["gain"])   # 5, 10, 15 points: mean 10
    (10.0, 3, True)
    """
    paper = {t: PAPER["table1" if t.startswith("table1") else t]["mean"] for t in TABLE_NAMES}
    return order_claims(lambda t: per_run(results, t), TABLE_NAMES, paper, GAINS)


def with_margins(claims, margins=ORDER_MARGINS):
    """A claims table with each row's margin set to its table's (``margins[id]``, default
    :data:`~fsbook.experiments.projection.paper.ORDER_MARGINS`) and its verdict decided again
    (:func:`fsbook.claims.claims_table`: Holm within each family, as before).

    For the order claims built outside this package, such as the choice of d
    (:func:`fsbook.experiments.projection.text.topic_count_claims`).

    Parameters
    ----------
    claims : pandas.DataFrame
        A claims table with the column ``id`` (the table's key); may be empty.
    margins : dict
        ``{id: margin}`` in the metric's points.

    Raises
    ------
    ValueError
        If a row's table has no margin in ``margins``.

    Examples
    --------
    >>> from fsbook.claims import Claim, claims_table, evaluate
    >>> c = Claim("A below B", a="A", b="B", better="lower", unit="runs", test="paired_t", table="T")
    >>> rows = claims_table([dict(evaluate(c, [1.0, 1.0, 1.01, 1.0], [1.0, 1.01, 1.0, 1.0]), id="t")])
    >>> rows["verdict"].iloc[0], with_margins(rows, {"t": 0.1})["verdict"].iloc[0]
    ('not separable', 'no gain')
    """
    if not len(claims):
        return claims
    missing = sorted(set(claims["id"]) - set(margins))
    if missing:
        raise ValueError(f"no margin declared for the claims of {missing}")
    return claims_table(claims.assign(margin=claims["id"].map(margins)).to_dict("records"))


def paper_agreement(values_of, tables, paper, paper_runs, margin=AGREEMENT_MARGIN):
    """Whether each level the paper prints agrees with ours: :func:`fsbook.claims.agreement` of
    our per-run values of a method with the paper's mean, with the paper's printed standard error
    (``paper[id]["se"]``; where it prints none, ours scaled to its number of runs,
    ``paper_runs[id]``).

    Parameters
    ----------
    values_of : callable
        ``values_of(id)``: runs × methods (our per-run values, :func:`per_run`), or ``None``.
    tables : dict
        ``{id: name}`` of the tables to compare.
    paper : dict
        ``{id: {"mean": {method: value}, "se": {method: value}}}`` (:data:`PAPER`).
    paper_runs : dict
        ``{id: the paper's number of runs}``.
    margin : float
        :data:`AGREEMENT_MARGIN` by default.

    Returns
    -------
    pandas.DataFrame
        One row per (table, method): ``id``, ``table``, ``method``, ``paper se`` and the keys of
        :func:`fsbook.claims.agreement` (``ours``, ``paper``, ``diff``, ``se``, ``ci_low``,
        ``ci_high``, ``z``, ``agreement``), and ``margin``.

    Examples
    --------
    >>> vals = pd.DataFrame({"A": [10.0, 10.4, 9.8, 10.2], "B": [14.0, 14.2, 13.8, 14.1]})
    >>> paper = {"t": {"mean": {"A": 10.1, "B": 12.0}, "se": {"A": 0.1, "B": 0.1}}}
    >>> paper_agreement(lambda t: vals, {"t": "T"}, paper, {"t": 4})["agreement"].tolist()
    ['agrees', 'differs']
    """
    rows = []
    for table, label in tables.items():
        values = values_of(table)
        if values is None:
            continue
        for method, mean in paper[table]["mean"].items():
            if method not in values.columns:
                continue
            se = paper[table].get("se", {}).get(method)
            r = agreement(values[method].to_numpy(dtype=float), mean, margin=margin, paper_se=se,
                          paper_n=paper_runs[table])
            rows.append({"id": table, "table": label, "method": method, "paper se": se, **r, "margin": margin})
    return pd.DataFrame(rows)


def agreement_table(results, margin=AGREEMENT_MARGIN):
    """:func:`paper_agreement` for the levels of Tables 1 (fine α grid, each model at its best d)
    and 5-7 that the paper prints, on the stored per-run results (:func:`per_run`).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from fsbook.experiments.projection.paper import YALE_METHODS
    >>> task = lambda run, pair: ({"part": "yale", "table": "table5", "run": run, "pair": pair},
    ...                           {m: {"error": 0.16 + 0.002 * run} for m in YALE_METHODS})
    >>> tasks = [task(r, p) for r in range(4) for p in ([0, 1], [0, 2])]
    >>> store = SimpleNamespace(params=[p for p, _ in tasks], results=[r for _, r in tasks])
    >>> a = agreement_table(store).set_index("method")
    >>> a.loc["SVM-Kernel", "agreement"], a.loc["SVM-OLap", "agreement"]      # 16.3 % against 16.17 and 8.58
    ('agrees', 'differs')
    """
    tables = {t: TABLE_NAMES[t] for t in PAPER_RUNS}
    return paper_agreement(lambda t: per_run(results, t), tables, PAPER, PAPER_RUNS, margin)


def equal_errors(results, a, b):
    """``(equal, stored)``: the stored face tasks (Tables 5-7) in which ``a`` and ``b`` have
    exactly the same test error, and all stored face tasks."""
    face = [r for p, r in zip(results.params, results.results) if p["part"] == "yale"]
    return sum(r[a]["error"] == r[b]["error"] for r in face), len(face)
