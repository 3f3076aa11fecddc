"""The figures of the ``kernel_design`` chapter drawn from the store: :func:`score_bars`, the bars
of Figures 1 and 3.
"""
from __future__ import annotations

from fsbook.experiments.kernel_design.paper import DATASETS, PAPER_NAMES


def score_bars(scores, methods, width):
    """Mean ± std over the splits of the table ``scores``, one bar per method and data set."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(11, 4))
    mid = (len(methods) - 1) / 2
    for k, m in enumerate(methods):
        s = scores[scores.method == m].sort_values("index")
        ax.bar(s["index"] + (k - mid) * width, s["mean"], width, yerr=s["std"], capsize=2, label=m)
    present = sorted(scores["index"].unique())   # the data sets held whole
    names = [PAPER_NAMES[DATASETS[i - 1]].replace(" ", "\n", 1) for i in present]
    ax.set_xticks(present)
    ax.set_xticklabels([f"{i}\n{n}" for i, n in zip(present, names)], fontsize=8)
    ax.set_ylabel("fraction of test triples respected")
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig
