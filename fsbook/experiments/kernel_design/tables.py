"""The protocol's tables: :func:`reduce` and one builder per table (Figures 1-3 as numbers, the
scores behind the plots, the learnt kernels' certificates, the chosen (γ1, γ2) and the
feature-selection check)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from fsbook.experiments.kernel_design.paper import (
    DATASETS,
    MIXTURES,
    PAPER_INDEX,
    PAPER_NAMES,
    SELECTION_DATASETS,
    SINGLES,
)
from fsbook.report import format_significant, format_value


def _pm(values, decimals=3):
    """``mean ± std``; ``undefined`` when a run has no value (an unbounded MMC problem), ``not
    stored`` when there is no run (a store read or built with ``--only``)."""
    v = np.asarray(values, dtype=float)
    if v.size == 0:
        return "not stored"
    if np.isnan(v).any():
        return "undefined"
    return f"{format_value(v.mean(), decimals)} ± {format_value(v.std(ddof=0), decimals)}"


#: violations below this are rounding of a feasible LP solution (HiGHS's feasibility tolerance is
#: 1e-7; the margin keeps noise such as 4e-11 or 1e-10 on the same side on every machine)
VIOLATION_FLOOR = 1e-6


def format_violation(v):
    """A dominance violation as the LP determines it: ``< 1e-06`` below :data:`VIOLATION_FLOOR`,
    else three significant digits.

    Examples
    --------
    >>> from fsbook.experiments.kernel_design.tables import format_violation
    >>> format_violation(4.3e-11), format_violation(959.84)
    ('< 1e-06', '960')
    """
    return f"< {VIOLATION_FLOOR:g}" if v < VIOLATION_FLOOR else format_significant(v, 3)

#: column names of the tables, by method
LABELS = {"full": "Mix Full Kernels", "weak": "Mix Weak Kernels",
          "weak_nonneg": "Mix Weak Kernels (α ≥ 0)", "mmc": "MMC (Xing et al.)", "nca": "NCA"}


def selection_runs(df, dataset, column):
    """One result column of the selection check on ``dataset`` as a (repetitions × folds) frame:
    index ``repeat`` (0 where the store has no repetitions, versions 2-5), columns ``split``;
    ``NaN`` where undefined (no feature kept).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame([{"method": "selection", "dataset": "wine", "repeat": r, "split": f,
    ...                     "acc_all": 0.9 + 0.01 * r} for r in range(2) for f in range(3)])
    >>> selection_runs(df, "wine", "acc_all").mean(axis=1).round(2).tolist()
    [0.9, 0.91]
    """
    g = df[(df.method == "selection") & (df.dataset == dataset)]
    repeat = g["repeat"].fillna(0).astype(int) if "repeat" in g else pd.Series(0, index=g.index)
    values = pd.to_numeric(g[column], errors="coerce").astype(float)
    return (pd.DataFrame({"repeat": repeat, "split": g["split"].astype(int), "value": values})
            .pivot(index="repeat", columns="split", values="value").sort_index())


def _selection_table(df):
    sel = df[df.method == "selection"]
    rows = []
    for d in SELECTION_DATASETS:
        g = sel[sel.dataset == d]
        if g.empty:
            continue
        kept, acc_all, acc_kept = (selection_runs(df, d, c).mean(axis=1, skipna=False)
                                   for c in ("n_kept", "acc_all", "acc_kept"))
        rows.append({"#": PAPER_INDEX[d], "dataset": PAPER_NAMES[d], "D": int(g["n_features"].iloc[0]),
                     "repetitions": int(kept.size), "folds": int(g["split"].nunique()),
                     "features kept": _pm(kept, 1),
                     "accuracy, all features": _pm(acc_all),
                     "accuracy, kept features": _pm(acc_kept),
                     "repetitions kept ≥ all": int((acc_kept >= acc_all).sum())})
    # the columns also when no data set of the check is there (a partial store)
    return pd.DataFrame(rows, columns=["#", "dataset", "D", "repetitions", "folds", "features kept",
                                       "accuracy, all features", "accuracy, kept features",
                                       "repetitions kept ≥ all"])


def _correct(outcome, n):
    """A stored outcome string as 1.0 (right) / 0.0 (wrong) per test sample; ``n`` NaNs for a
    fold whose SVM did not run (``None``: no feature kept)."""
    if not isinstance(outcome, str):          # None (or NaN in a frame)
        return np.full(n, np.nan)
    return np.array([c == "1" for c in outcome], dtype=float)


def selection_outcomes(df, dataset, repeat=0):
    """The selection check's test samples on ``dataset`` in one repetition's partition, pooled
    over its folds: one row per sample, with whether the SVM on all features (``all``) and on the
    kept features (``kept``) predicts it right (1.0 / 0.0; NaN where nothing was kept).

    Every sample of the data set is in exactly one test fold of a partition, so the rows are the
    data set's samples, each tested once by the models of its fold.

    Parameters
    ----------
    df : DataFrame
        The store's tasks, parameters and results in one row each (``method``, ``dataset``,
        ``split``, ``outcomes_all``, ``outcomes_kept``, version 5 on; ``repeat``, version 6 on).
    dataset : str
        A data set of :data:`SELECTION_DATASETS`.
    repeat : int, default 0
        The repetition (a store without repetitions holds repetition 0 only).

    Returns
    -------
    DataFrame with columns ``fold``, ``unit`` (``"fold:i"``, the ``i``-th test sample of the
    fold), ``all`` and ``kept``.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame([{"method": "selection", "dataset": "wine", "split": 0,
    ...                     "outcomes_all": "110", "outcomes_kept": "111"}])
    >>> selection_outcomes(df, "wine")[["unit", "all", "kept"]].values.tolist()
    [['0:0', 1.0, 1.0], ['0:1', 1.0, 1.0], ['0:2', 0.0, 1.0]]
    """
    sel = df[(df.method == "selection") & (df.dataset == dataset)]
    if "repeat" in sel:
        sel = sel[sel["repeat"].fillna(0).astype(int) == repeat]
    elif repeat:
        sel = sel.iloc[:0]
    sel = sel.sort_values("split")
    if "outcomes_all" not in sel.columns or not sel["outcomes_all"].map(lambda o: isinstance(o, str)).all():
        raise ValueError("the store holds no per-sample outcomes of the selection check: rerun the "
                         "protocol (version 5 on)")
    frames = []
    for fold, all_, kept in zip(sel["split"], sel["outcomes_all"], sel["outcomes_kept"]):
        n = len(all_)
        frames.append(pd.DataFrame({"fold": int(fold), "unit": [f"{int(fold)}:{i}" for i in range(n)],
                                    "all": _correct(all_, n), "kept": _correct(kept, n)}))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["fold", "unit", "all", "kept"])


def _column(rows, name):
    """A result column of some tasks; empty when no stored task has it (a run with ``--only``)."""
    return rows[name] if name in rows else pd.Series(dtype=float)


def _raw_scores(df):
    """Per data set the stored scores of every single kernel and method (arrays over the splits)."""
    raw = []
    for d in DATASETS:
        sub = df[df.dataset == d]
        if sub[sub.method == "singles"].empty:
            continue
        rec = {"index": PAPER_INDEX[d], "dataset": PAPER_NAMES[d]}
        for name in SINGLES:
            rec[name] = sub[sub.method == "singles"][name].to_numpy()
        for m, label in LABELS.items():
            rec[label] = sub[sub.method == m]["score"].to_numpy()
        raw.append(rec)
    return raw


def _scores_table(raw):
    """Long table of means and deviations over the splits (the numbers of the plots)."""
    cols = list(SINGLES) + list(LABELS.values())
    return pd.DataFrame([{"index": r["index"], "dataset": r["dataset"], "method": c,
                          "mean": float(np.mean(r[c])), "std": float(np.std(r[c])),
                          "n": int(len(r[c]))} for r in raw for c in cols])


def _figure_table(raw, cols):
    """Figure 1 or 3 as numbers: ``mean ± std`` of each column, one row per data set."""
    return pd.DataFrame([{"#": r["index"], "dataset": r["dataset"], **{c: _pm(r[c]) for c in cols}}
                         for r in raw])


def _figure2_table(df):
    """Figure 2: features the weak mixtures select, and full kernels the full mixture keeps."""
    sel = []
    for d in DATASETS:
        sub = df[(df.dataset == d) & (df.method != "selection")]
        if sub.empty:
            continue
        cv10 = sub[sub.method == "weak_cv10"]
        src = cv10 if not cv10.empty else sub[sub.method == "weak"]
        sel.append({"#": PAPER_INDEX[d], "dataset": PAPER_NAMES[d],
                    "D": int(sub["n_features"].iloc[0]),
                    "selected (weak)": _pm(_column(src, "n_selected"), 1),
                    "runs": int(len(src)),
                    "source": "10-fold CV" if not cv10.empty else "random splits",
                    "selected (weak, α ≥ 0)": _pm(_column(sub[sub.method == "weak_nonneg"], "n_selected"), 1),
                    "kernels with |α|>0.01 (full)": _pm(_column(sub[sub.method == "full"], "n_kernels"), 1)})
    return pd.DataFrame(sel)


def _psd_table(mix):
    """The learnt kernels of the final fits: PSD and dominant on their set S (worst case)."""
    return pd.DataFrame([{"variant": LABELS[v], "fits": int(len(g)),
                          "largest |S|": int(g["size_S"].max()),
                          "non-zero kernels": int((g["n_kernels"] > 0).sum()),
                          # both come from an LP solution fixed to HiGHS's tolerances (~1e-7):
                          # three digits are what the method determines
                          "min eigenvalue / max |K_ii|": format_value(
                              float(np.min(g["min_eig_S"] / np.maximum(g["max_abs_diag"], 1e-300))), 3),
                          "max dominance violation": format_violation(float(g["max_dominance_violation"].max()))}
                         # the number of cutting-plane rounds (stored per task as n_lp) is left out:
                         # which violated rows enter a round is decided by near-equal violations,
                         # and its mean moved between 5.7 and 5.8 from one numerical path to another
                         for v in MIXTURES for g in [mix[mix.method == v]] if not g.empty])


def _gammas_table(mix):
    """How often each (γ1, γ2) was chosen, per mixture."""
    if mix.empty:
        return pd.DataFrame(columns=["method", "gamma1", "gamma2", "count"])
    return mix.groupby(["method", "gamma1", "gamma2"]).size().rename("count").reset_index()


def reduce(params_list, results_list):
    """Tables ``figure1``, ``figure2``, ``figure3``, ``scores`` (numbers for plots), ``psd``,
    ``gammas``, ``selection``, one builder each."""
    df = pd.DataFrame([{**p, **r} for p, r in zip(params_list, results_list)])
    raw = _raw_scores(df)
    mix = df[df.method.isin(list(MIXTURES))]
    return {"figure1": _figure_table(raw, list(SINGLES) + [LABELS[m] for m in MIXTURES]),
            "figure2": _figure2_table(df),
            "figure3": _figure_table(raw, [LABELS[m] for m in ("weak", "weak_nonneg", "mmc", "nca")]),
            "scores": _scores_table(raw), "psd": _psd_table(mix), "gammas": _gammas_table(mix),
            "selection": _selection_table(df)}
