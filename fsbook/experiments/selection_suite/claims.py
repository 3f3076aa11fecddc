"""Claims of the ``selection_suite`` protocol: each selector against all features.

Both read the tables of :func:`fsbook.experiments.selection_suite.tables.reduce`:

* :func:`claims_vs_none` -- per data set, each selector above ``none`` by the book's rule for
  repeated CV (:class:`fsbook.claims.Claim` with ``test="repeated_cv_t"``, unit
  ``"repetitions"``), Holm within each method's family of data sets;
* :func:`over_datasets_vs_none` -- per scope (:func:`scopes`: all data sets, each domain, each
  shape of :data:`SHAPES`), each selector above ``none`` over the scope's data sets by the
  Wilcoxon signed-rank test, Holm over the selectors of a scope.

The statistics that read these claims (:func:`~fsbook.experiments.selection_suite.analysis.which_selector`,
:func:`~fsbook.experiments.selection_suite.analysis.decided_counts`) are
:mod:`fsbook.experiments.selection_suite.analysis`'.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from fsbook.claims import Claim, claims_table, evaluate
from fsbook.experiments import benchmark as B
from fsbook.experiments.benchmark.paper import over_datasets_margin
from fsbook.experiments.selection_suite import paper
from fsbook.experiments.selection_suite.analysis import effects_vs_none, which_selector
from fsbook.experiments.selection_suite.paper import CLASSIFIERS, DOMAINS, METHODS
from fsbook.experiments.selection_suite.tasks import design

__all__ = ["SHAPES", "claims", "advice", "claims_vs_none", "over_datasets_vs_none", "scopes", "order_margins"]


def _fold_matrix(g, metric):
    """Accuracies of one method's folds as (repeats, folds)."""
    m = g.pivot_table(index="repeat", columns="fold", values=metric, aggfunc="first")
    if m.isna().any().any():
        raise ValueError("incomplete folds: every repetition needs every fold")
    return m.to_numpy(dtype=float)


def claims_vs_none(accuracy, folds, margins=None):
    """Per data set, classifier and selector: "``method`` above all features", decided on the
    paired test folds at the ranking size by the book's rule for repeated CV (the paired t-test
    over the repetition means, :func:`fsbook.claims.evaluate`), Holm within the family
    ``"<method> vs none (<classifier>)"`` (the data sets of one method and classifier).

    ``margins`` (``{data set: margin}`` in accuracy points,
    :func:`fsbook.experiments.selection_suite.claims.order_margins`) gives each claim its declared
    margin; without it the claims carry none.

    Returns a claims table (:data:`fsbook.claims.COLUMNS`) with ``dataset``, ``domain``,
    ``method`` and ``classifier`` columns.
    """
    margins = margins or {}
    at = accuracy[accuracy["rank_k"]][["dataset", "method", "k"]]
    f = folds.merge(at, on=["dataset", "method", "k"])
    rows = []
    for metric, label in CLASSIFIERS.items():
        for d, g in f.groupby("dataset", sort=False):
            base = g[g["method"] == "none"]
            if base.empty:
                continue
            b = _fold_matrix(base, metric)
            for m in [c for c in METHODS if c != "none" and c in set(g["method"])]:
                claim = Claim(f"{m} above all features ({label}): {d}", a=m, b="none", better="higher",
                              unit="repetitions", test="repeated_cv_t", table=f"{m} vs none ({label})", dataset=d,
                              margin=margins.get(d))
                row = evaluate(claim, _fold_matrix(g[g["method"] == m], metric), b)
                rows.append({**row, "dataset": d, "domain": g["domain"].iloc[0], "method": m,
                             "classifier": label})
    return claims_table(rows)

#: shapes of a data set, each a rule on its facts after subsampling (``n`` samples, ``d``
#: features a method sees, ``classes``); a data set can have several.  The factor 5 is the one
#: that gives each shape at least 9 of the suite's data sets, the fewest over which a Wilcoxon
#: test (smallest p 2/2^9) can pass Holm's first threshold among 9 selectors (0.05/9)
SHAPES = {
    "n ≪ d": ("at least five times more features than samples", lambda f: f["d"] >= 5 * f["n"]),
    "n ≫ d": ("at least five times more samples than features", lambda f: f["n"] >= 5 * f["d"]),
    "two classes": ("two classes", lambda f: f["classes"] == 2),
    "multiclass": ("three classes or more", lambda f: f["classes"] > 2),
}


def scopes(design):
    """The scopes the page decides in: ``"all"``, each domain, then each shape of :data:`SHAPES`.

    Parameters
    ----------
    design : DataFrame
        :func:`fsbook.experiments.selection_suite.paper`'s table (columns ``dataset``,
        ``domain``, ``n``, ``d``, ``classes``).

    Returns
    -------
    dict
        ``{scope: [data sets]}``, in that order, scopes without a data set left out.

    Examples
    --------
    >>> import pandas as pd
    >>> design = pd.DataFrame({"dataset": ["a", "b"], "domain": ["text", "image"],
    ...                        "n": [100, 5000], "d": [2000, 64], "classes": [2, 10]})
    >>> scopes(design)
    {'all': ['a', 'b'], 'image': ['b'], 'text': ['a'], 'n ≪ d': ['a'], 'n ≫ d': ['b'], 'two classes': ['a'], 'multiclass': ['b']}
    """
    out = {"all": design["dataset"].tolist()}
    for dom in DOMAINS:
        out[dom] = design.loc[design["domain"] == dom, "dataset"].tolist()
    for shape, (_, rule) in SHAPES.items():
        out[shape] = [r["dataset"] for _, r in design.iterrows() if rule(r)]
    return {k: v for k, v in out.items() if v}


def over_datasets_vs_none(accuracy, design, metric="acc_rbf", margins=None):
    """Per scope (:func:`scopes`) and selector: "the selector above all features", decided over
    the scope's data sets where it ran by the Wilcoxon signed-rank test on the per-data-set
    differences (:func:`~fsbook.experiments.selection_suite.analysis.effects_vs_none`), with the
    Hodges–Lehmann effect and its exact 95 %
    interval (:func:`fsbook.claims.evaluate`); Holm over the selectors of a scope (one family per
    scope).  A scope of too few data sets for the test to reach p < 0.05 is untestable, never
    "no effect".

    ``margins`` (``{data set: margin}``, :func:`fsbook.experiments.selection_suite.claims.order_margins`)
    gives each row the margin :func:`fsbook.experiments.benchmark.over_datasets_margin` of the
    margins of the data sets it is decided over: a row that holds by less is "below margin"
    (the engine has no equivalence test over data sets, so none is "no gain").

    Returns
    -------
    DataFrame
        A claims table (:data:`fsbook.claims.COLUMNS`) with ``scope`` and ``method`` columns;
        ``a`` is the method, ``b`` is ``none``, ``n`` its data sets.
    """
    eff = effects_vs_none(accuracy, metric)
    rows = []
    for scope, sets in scopes(design).items():
        e = eff.reindex([s for s in sets if s in eff.index])
        for m in e.columns:
            ran = e[m].dropna()
            d = ran.to_numpy(dtype=float)
            if d.size == 0:
                continue
            margin = over_datasets_margin([margins[s] for s in ran.index]) if margins else None
            claim = Claim(f"{m} above all features ({scope})", a=m, b="none", better="higher", unit="data sets",
                          test="wilcoxon", table=f"selectors vs all features: {scope}", margin=margin)
            rows.append({**evaluate(claim, d, np.zeros_like(d), rtol=0.0), "scope": scope, "method": m})
    return claims_table(rows)


def order_margins(design):
    """The declared margin of every order claim on a data set, in accuracy points: one test
    prediction of a repetition, ``100 / n`` for the ``n`` samples the protocol uses
    (:func:`fsbook.experiments.benchmark.paper.order_margin`; each of :data:`REPEATS` repetitions of
    :data:`N_FOLDS`-fold CV tests every sample once, and the claims pair the repetition means).
    Declared from the design, before any verdict: 0.1 points on a data set subsampled to
    :data:`MAX_SAMPLES`, more on a smaller one.

    Parameters
    ----------
    design : DataFrame
        :func:`design`'s table (columns ``dataset`` and ``n``).

    Returns
    -------
    dict
        ``{data set: margin}``.

    Examples
    --------
    >>> import pandas as pd
    >>> order_margins(pd.DataFrame({"dataset": ["a", "b"], "n": [1000, 50]}))
    {'a': 0.1, 'b': 2.0}
    """
    return {d: B.paper.order_margin(int(n), "repetitions", paper.N_FOLDS)
            for d, n in zip(design["dataset"], design["n"])}


def claims(results, design=None):
    """Every comparison the page decides, on the stored folds: per data set, each selector above
    all features by the paired t over the repetition means (Holm within each selector's family of
    data sets, :func:`~fsbook.experiments.selection_suite.claims_vs_none`), then per scope (all data
    sets, each domain, each shape) each selector above all features over the scope's data sets by
    the Wilcoxon signed-rank test (Holm within the scope,
    :func:`~fsbook.experiments.selection_suite.over_datasets_vs_none`).  Every claim carries its
    declared margin (:func:`order_margins`; over data sets their Hodges–Lehmann estimate,
    :func:`fsbook.experiments.benchmark.over_datasets_margin`).

    Parameters
    ----------
    results : ProtocolResult
        The stored protocol (:func:`~fsbook.experiments.read_store`).
    design : DataFrame, optional
        The protocol's :func:`design`, when the caller has built it already (building it loads
        every data set); built here when omitted.

    Returns
    -------
    DataFrame
        A claims table with ``dataset``, ``domain``, ``method`` and ``scope`` columns (``scope``
        empty on per-data-set rows, ``dataset`` empty on the rows over data sets).
    """
    t = results.tables
    design = _given_or_built(design)
    margins = order_margins(design)
    per = claims_vs_none(t["accuracy"], t["folds"], margins).assign(scope="")
    over = over_datasets_vs_none(t["accuracy"], design, margins=margins).assign(dataset="", domain="")
    return pd.concat([per, over], ignore_index=True)


def _given_or_built(given_design):
    """``given_design``, or the protocol's :func:`design` when it is ``None``."""
    return design() if given_design is None else given_design


def advice(results, scopes=None, design=None):
    """The page's "which selector, when" table from the stored protocol
    (:func:`which_selector` over the decisions over data sets
    of :func:`claims`, :func:`~fsbook.experiments.selection_suite.over_datasets_vs_none`; the
    per-data-set claims, which it does not use, are not computed), indexed by scope; ``scopes``
    keeps those rows, in that order; ``design`` is the protocol's :func:`design` when the caller
    has built it (built here when omitted).

    Also ``advice(results).attrs["effects"]``: per scope and selector, the Hodges–Lehmann effect
    over data sets against all features (accuracy points), the order in which a user might try them.
    """
    design = _given_or_built(design)
    over = over_datasets_vs_none(results.tables["accuracy"], design, margins=order_margins(design))
    when = which_selector(over, results.tables["cost"]).set_index("scope")
    if scopes is not None:
        when = when.loc[list(scopes)]
    when.attrs["effects"] = over.pivot_table(index="method", columns="scope", values="effect", sort=False)
    return when

