"""Figures 1 and 3 of the geometric-ratios chapter, the timing of Figure 3's right panel and its
growth exponents."""
from __future__ import annotations

import time

import numpy as np
import pandas as pd
from scipy import stats

from fsbook.geometry import geometric_ratios, naive_geometric_ratios


def timing(X, y, dims, *, naive_max=None, repeats=1):
    """CPU time of :func:`geometric_ratios` and of the naive SVD method on the first ``d`` columns.

    Parameters
    ----------
    X : sparse matrix, y : array
    dims : sequence of int
    naive_max : int, optional
        Largest dimension at which the naive method is timed.
    repeats : int
        Our time is the minimum over ``repeats`` runs.

    Returns
    -------
    pandas.DataFrame
        ``dimension``, ``ours_s``, ``naive_s`` (NaN above ``naive_max``), ``agree``.
    """
    rows = []
    for d in dims:
        Xd = X[:, :d]
        t = []
        for _ in range(repeats):
            t0 = time.process_time()
            a = geometric_ratios(Xd, y)
            t.append(time.process_time() - t0)
        row = {"dimension": d, "ours_s": min(t), "naive_s": np.nan, "agree": None}
        if naive_max is None or d <= naive_max:
            t0 = time.process_time()
            b = naive_geometric_ratios(Xd, y)
            row["naive_s"] = time.process_time() - t0
            row["agree"] = bool(np.allclose(a, b))
        rows.append(row)
    return pd.DataFrame(rows)


def growth_fit(dims, seconds):
    """The growth exponent ``b`` of ``t ≈ e^a n^b``: least squares of log t on log n, with the
    slope's standard error and 95 % t interval (``n − 2`` degrees of freedom).

    Timings that are missing, zero or negative are left out; fewer than three points, or a
    single dimension, leave the exponent undefined (a ``ValueError``).

    Parameters
    ----------
    dims, seconds : array-like
        Sizes ``n`` and times ``t``, one per point.

    Returns
    -------
    dict
        ``exponent``, ``se``, ``ci_low``, ``ci_high``, ``intercept`` and ``n`` (points used).

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.experiments.geometry.figures import growth_fit
    >>> n = np.array([100.0, 200.0, 400.0, 800.0])
    >>> fit = growth_fit(n, 1e-6 * n ** 2 * np.array([1.0, 1.1, 0.9, 1.0]))
    >>> round(fit["exponent"], 3), fit["n"]
    (1.971, 4)
    """
    d, s = np.asarray(dims, float), np.asarray(seconds, float)
    if d.shape != s.shape or d.ndim != 1:
        raise ValueError(f"dims and seconds must be 1-D of one length, got {d.shape} and {s.shape}")
    ok = np.isfinite(d) & (d > 0) & np.isfinite(s) & (s > 0)
    if ok.sum() < 3 or np.ptp(d[ok]) == 0:
        raise ValueError(f"a growth exponent needs timings at three or more sizes, got {int(ok.sum())}")
    lr = stats.linregress(np.log(d[ok]), np.log(s[ok]))
    half = float(stats.t.ppf(0.975, ok.sum() - 2) * lr.stderr)
    return {"exponent": float(lr.slope), "se": float(lr.stderr), "ci_low": float(lr.slope) - half,
            "ci_high": float(lr.slope) + half, "intercept": float(lr.intercept), "n": int(ok.sum())}


def plot_figure1(suite, stats_table):
    """Figure 1: standardised f1-f6 against standardised performance with regression lines.

    ``suite`` is the reduced training suite: its ``f1_z`` column is the F1 score z-scored within
    (data set, classifier), the performance of f4.
    """
    import matplotlib.pyplot as plt
    if "f1_z" not in suite.columns:
        raise ValueError("plot_figure1 needs the training suite of reduce(), with its f1_z column")
    st = stats_table.set_index("ratio")
    fig, axes = plt.subplots(2, 3, figsize=(10, 6), sharey=True)
    f1z = suite["f1_z"].to_numpy()
    for i, ax in enumerate(axes.ravel()):
        z = suite[f"z{i + 1}"].to_numpy()
        t = f1z if i == 3 else suite["accuracy_z"].to_numpy()
        ax.scatter(z, t, s=8, alpha=0.4, c=np.where(suite["optimal"], "C1", "C0"))
        row = st.loc[f"f{i + 1}"]
        if np.isfinite(row["slope"]):
            xs = np.linspace(z.min(), z.max(), 2)
            ax.plot(xs, np.mean(t) + row["slope"] * (xs - np.mean(z)), "k-")
        ax.set_title(f"f{i + 1}: slope {row['slope']:+.2f}, p = {row['p']:.1g}", fontsize=9)
        ax.set_xlabel(f"z(f{i + 1})")
    axes[0, 0].set_ylabel("z(accuracy)")
    axes[1, 0].set_ylabel("z(accuracy); f4: z(F1)")
    fig.tight_layout()
    return fig


def plot_figure3(fig3, timing_table, fits):
    """Figure 3: accuracy, precision, recall and CPU time against the number of columns.

    ``fig3`` is the reduced Figure 3 table (with the stored ``ratios CPU s`` of the whole
    selector), ``timing_table`` the kernels' timing (``dimension``, ``ours_s``, ``naive_s``)
    and ``fits`` the :func:`growth_fit` of each line: keys ``selector``, ``ours``, ``naive``."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    fig, axes = plt.subplots(1, 4, figsize=(13, 3.4))
    for ax, metric in zip(axes[:3], ("accuracy", "precision", "recall")):
        for m, style in (("published", "o-"), ("refitted", "s--")):
            ax.plot(fig3["columns"], fig3[f"{metric} ({m})"], style, label=f"{m} model")
        ax.set_title(metric)
        ax.set_xlabel("number of columns")
        ax.set_ylim(-0.05, 1.05)
    axes[0].legend(fontsize=8)
    ax = axes[3]
    ax.loglog(fig3["columns"], fig3["ratios CPU s"], "D-",
              label=f"whole selector (slope {fits['selector']['exponent']:.2f})")
    ax.loglog(timing_table["dimension"], timing_table["ours_s"], "o-",
              label=f"ours, 1 pair (slope {fits['ours']['exponent']:.2f})")
    ok = timing_table["naive_s"].notna()
    ax.loglog(timing_table.loc[ok, "dimension"], timing_table.loc[ok, "naive_s"], "s-",
              label=f"m + 2 SVDs, 1 pair (slope {fits['naive']['exponent']:.2f})")
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0,)))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.set_title("CPU time")
    ax.set_xlabel("number of columns")
    ax.set_ylabel("CPU seconds")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def growth_exponent_table(results, growth):
    """The growth exponents of the CPU time (Figure 3's right panel) as a captioned table.

    One row per line of the panel: the whole selector (all pairs of one set, the store's
    ``ratios CPU s``), our kernels and the paper's ``m + 2`` SVDs on one classifier and set (the
    benchmark record); each with its sizes, its times at the smallest and largest size and the
    :func:`growth_fit` exponent with its standard error and 95 % interval.

    Parameters
    ----------
    results : ProtocolResult
        The geometry store (:func:`fsbook.experiments.read_store`).
    growth : dict
        The benchmark record ``read_benchmark("geometry", "growth")``.

    Returns
    -------
    fsbook.report.Table
    """
    from fsbook.report import styled_table

    f3, g = results.tables["figure3"], growth["values"]
    fits = {"selector": growth_fit(f3["columns"], f3["ratios CPU s"]), **g["fits"]}
    sizes = {"selector": f3["columns"].tolist(), "ours": g["dimensions"],
             "naive": [d for d, s in zip(g["dimensions"], g["naive_s"]) if s is not None]}
    times = {"selector": f3["ratios CPU s"].tolist(), "ours": g["ours_s"],
             "naive": [s for s in g["naive_s"] if s is not None]}
    what = {"selector": (f"whole selector, all pairs of one set ({f3['columns'].min()}–"
                         f"{f3['columns'].max()} columns)", "store"),
            "ours": ("our kernels, one classifier and set", "benchmark record"),
            "naive": ("the paper's m + 2 SVDs, one classifier and set", "benchmark record")}
    table = pd.DataFrame([{
        "timed": what[k][0], "from": what[k][1], "sizes": len(sizes[k]),
        "CPU s at the smallest → largest n": f"{times[k][0]:.3g} → {times[k][-1]:.3g}",
        "exponent b": f"{fits[k]['exponent']:.3f}", "s.e.": f"{fits[k]['se']:.3f}",
        "95 % interval": f"{fits[k]['ci_low']:.3f} to {fits[k]['ci_high']:.3f}"}
        for k in ("selector", "ours", "naive")])
    machine = growth["machine"]
    return styled_table(table, "Growth exponents of the CPU time (slope of log t on log n). Store: as "
                        f"measured on {'; '.join(sorted({m['cpu'] for m in results.machines if m}))} "
                        f"when the store was built; benchmark record: {machine['cpu']} "
                        f"({machine['cores']} logical CPUs; {growth['date']}, commit {growth['commit']}), "
                        f"{g['repeats']}")
