"""Figures 1 and 3 of the geometric-ratios chapter and the timing of Figure 3's right panel."""
from __future__ import annotations

import time

import numpy as np
import pandas as pd

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


def growth_exponent(dims, seconds):
    """Slope of log(time) on log(dimension) (least squares)."""
    d, s = np.asarray(dims, float), np.asarray(seconds, float)
    ok = np.isfinite(s) & (s > 0)
    return float(np.polyfit(np.log(d[ok]), np.log(s[ok]), 1)[0])


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


def plot_figure3(fig3, timing_table, exp_ours, exp_naive):
    """Figure 3: accuracy, precision, recall and CPU time against the number of columns."""
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
    ax.loglog(timing_table["dimension"], timing_table["ours_s"], "o-",
              label=f"ours (slope {exp_ours:.2f})")
    ok = timing_table["naive_s"].notna()
    ax.loglog(timing_table.loc[ok, "dimension"], timing_table.loc[ok, "naive_s"], "s-",
              label=f"m + 2 SVDs (slope {exp_naive:.2f})")
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.set_title("CPU time, one classifier and set")
    ax.set_xlabel("number of columns")
    ax.set_ylabel("CPU seconds")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
