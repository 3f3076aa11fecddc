"""The numbers the chapter's prose quotes on Table 1 (Boston housing), from the store and the
claims: :func:`_table1_facts` (glued by :func:`fsbook.experiments.projection.facts.facts`).
"""

import warnings

import numpy as np
import pandas as pd
from sklearn.preprocessing import StandardScaler

from fsbook.claims import FAILS, HOLDS, NO_GAIN
from fsbook.experiments.projection.boston import boston_data
from fsbook.experiments.projection.paper import (
    GAINS,
    PAPER,
)
from fsbook.experiments.projection.words import (
    agreement_words,
    counts,
)
from fsbook.projection import ExhaustedSafePLS
from fsbook.report import (
    format_value,
    join_words,
    spaced,
)


def krylov_exhausted(run):
    """Whether PLS on ``run``'s standardised training sample (as in
    :func:`~fsbook.experiments.projection.boston.boston_run`) runs out of Krylov directions
    before 13 components."""
    X, y = boston_data()
    train = np.random.default_rng(run).permutation(len(y))[:50]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # scikit-learn: "y residual is constant" once exhausted
        return ExhaustedSafePLS(13).fit(StandardScaler().fit_transform(X[train]), y[train]).n_kept_ < 13


def _table1_facts(res, v, agree):
    t1, t1_pg, cl = res.tables["table1"], res.tables["table1_paper_grid"], v.claims
    C, P1 = v.by_claim, PAPER["table1"]
    boston_runs = [(p["run"], r) for p, r in zip(res.params, res.results) if p["part"] == "boston"]
    G1 = [f"{a} above {b}" for a, b in GAINS["table1"]]
    half = (cl.loc[cl["id"] == "table1", "ci_high"] - cl.loc[cl["id"] == "table1", "ci_low"]) / 2
    out = {"pp_boston_runs": spaced(len(boston_runs)),
           "pp_t1_fine": "; ".join(f"{c}, {v.described('table1', c)}" for c in G1),
           "pp_t1_paper_grid": v.grouped([("table1_paper_grid", c) for c in G1]),
           "pp_t1_resolution": f"the 95 % intervals of the 10 pairs of methods reach {format_value(half.min(), 2)} "
                               f"to {format_value(half.max(), 2)} points either side of the effect"}
    out.update({f"pp_t1_{m.replace('-', '_')}": format_value(t1.loc[m, "mean"], 2) for m in t1.index})
    trio = ["Proj-PCR above Ridge", "Proj-PLS above Ridge", "Proj-PLS above Proj-PCR"]
    out["pp_t1_tuned"] = _tuned_words(v, trio)
    ridge_pg = float(t1_pg.loc["Ridge", "mean"])
    out["pp_t1_ridge_paper_grid"] = format_value(ridge_pg, 2)
    out["pp_t1_ridge_grid_gain"] = format_value(float(t1.loc["Ridge", "mean"]) - ridge_pg, 2)
    above = cl[(cl["id"] == "table1_paper_grid") & (cl["b"] == "Ridge")]
    k_ridge = int((above["verdict"] == "holds").sum())
    out["pp_t1_ridge_last"] = (("its mean is the lowest of the five, as in the paper"
                                if t1_pg["mean"].idxmin() == "Ridge" else
                                "its mean is not the lowest of the five (the paper has it last)")
                               + f"; the paired tests separate it from {k_ridge or 'none'} of the {len(above)} others")
    out["pp_t1_orders_fine"] = counts(cl[cl["id"] == "table1"])
    out["pp_t1_orders_paper_grid"] = counts(cl[cl["id"] == "table1_paper_grid"])
    d1 = {m: int(t1.loc[m, "d"]) for m in ("PCR", "PLS", "Proj-PCR", "Proj-PLS")}
    out["pp_t1_d13"] = (f"Proj-PCR's best d is 13, where it is ridge with α/1001 (checked above): its difference to "
                        f"ridge on the fine grid, {v.described('table1', 'Proj-PCR above Ridge')}, comes from the "
                        "grid's offset and the CV, not from a projection. Its comparison with PCR is therefore one "
                        "of ridge with PCR") if d1["Proj-PCR"] == 13 else \
        f"Proj-PCR's best d is {d1['Proj-PCR']} (the paper's 4)"
    changed = [c for c in G1 if C.loc[("table1", c), "verdict"] != C.loc[("table1_paper_grid", c), "verdict"]]
    out["pp_t1_grid_changes"] = ("The α grid changes the verdict for " + join_words(changed)) if changed \
        else "The α grid changes none of the three verdicts"
    out.update({f"pp_t1_d_{m.replace('-', '_')}": str(d) for m, d in d1.items()})
    out["pp_t1_pls_vs_projpls"] = (f"Proj-PLS above PLS: {v.described('table1', 'Proj-PLS above PLS')}"
                                   + (f": PLS with {d1['PLS']} components is already a strongly regularised model "
                                      "at this sample size" if C.loc[("table1", "Proj-PLS above PLS"), "verdict"]
                                      == "fails" and d1["PLS"] <= 3 else ""))
    same13 = sum(np.isclose(o["PLS"]["13"], o["PCR"]["13"], rtol=1e-9, atol=0) for _, o in boston_runs)
    out["pp_t1_pls13"] = (f"its test R² equals PCR's at d = 13 (to a relative 1e-9) in {spaced(same13)} of the "
                          f"{spaced(len(boston_runs))} runs")
    out["pp_t1_exhausted"] = str(sum(krylov_exhausted(run) for run, _ in boston_runs))
    n_higher = int((t1["mean"] > pd.Series(P1["mean"])).sum())
    out["pp_t1_higher"] = "all five" if n_higher == 5 else f"{n_higher} of the five"
    d_t1 = t1["mean"] - pd.Series(P1["mean"])
    out["pp_t1_levels"] = (f"by {format_value(d_t1.min(), 2)} to {format_value(d_t1.max(), 2)} points"
                           if n_higher == 5 else
                           f"differences {format_value(d_t1.min(), 2)} to {format_value(d_t1.max(), 2)} points")
    out["pp_t1_agree"] = agreement_words(agree, ["table1"])
    return out


def _tuned_words(v, trio):
    """How the orders among three Table 1 models are decided: none separated (and those within
    the margin), or the claims by verdict."""
    if any(v.verdict("table1", c) in (HOLDS, FAILS) for c in trio):
        return "of the paper's orders among the three, " + v.by_verdict([(c, "table1", c) for c in trio], "for")
    same = [c for c in trio if v.verdict("table1", c) == NO_GAIN]
    return "the paired tests separate no two of the three" + (
        f", and {join_words(same)} {'shows' if len(same) == 1 else 'show'} no gain within the margin" if same else "")
