"""The benchmark chapter's figures: one panel per data set, a marker and a colour per selector."""
from __future__ import annotations

from fsbook.experiments.benchmark.paper import OWN_SIZE, RANK_K, methods

#: the selectors of the figures (every method but ``none``), each with a marker and a colour
SELECTORS = [m for m in methods() if m != "none"]
MARKERS = dict(zip(SELECTORS, "os^v<>DpP*"))
#: panels per row of a figure
NCOLS = 4
#: height (inches) kept below the panels for the legend
LEGEND_INCHES = 0.7


def colours():
    """The colour of each selector (matplotlib's ``tab10``)."""
    import matplotlib.pyplot as plt

    return dict(zip(SELECTORS, plt.get_cmap("tab10").colors))


def panels(n, height=2.7):
    """A figure with one panel per data set (``n`` of them, :data:`NCOLS` per row), the unused
    panels hidden and room for a legend below: ``(figure, list of n axes)``.

    Examples
    --------
    >>> from fsbook.experiments.benchmark.figures import panels
    >>> fig, axes = panels(5)
    >>> len(axes), sum(ax.get_visible() for ax in fig.axes)
    (5, 5)
    """
    import matplotlib.pyplot as plt

    rows = -(-n // NCOLS)
    fig, axes = plt.subplots(rows, NCOLS, figsize=(12, height * rows + LEGEND_INCHES), squeeze=False)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:n])


def log_x_axis(ax):
    """A log-scaled x axis with ticks at 1, 2 and 5 times the powers of ten, printed as plain numbers."""
    import matplotlib.ticker as mticker

    ax.set_xscale("log")
    ax.xaxis.set_major_locator(mticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(mticker.StrMethodFormatter("{x:g}"))
    ax.xaxis.set_minor_formatter(mticker.NullFormatter())


def legend_below(fig, axes):
    """One legend below the panels, each label once."""
    handles = {}
    for ax in axes:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    fig.legend(handles.values(), handles.keys(), loc="lower center", ncol=6, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, LEGEND_INCHES / fig.get_figheight(), 1, 1))


def _label_axes(axes, xlabel, ylabel):
    for ax in axes[-NCOLS:]:
        ax.set_xlabel(xlabel, fontsize=8)
    for ax in axes[::NCOLS]:
        ax.set_ylabel(ylabel, fontsize=8)


def plot_curves(curves, datasets, metric, label):
    """Figures 2 and 3: test accuracy against the number of kept features, one panel per data
    set; the own-size methods as black points, the classifier on all features dashed."""
    fig, axes = panels(len(datasets))
    colour = colours()
    for ax, ds in zip(axes, datasets):
        c = curves[curves.dataset == ds]
        for m in SELECTORS:
            cm = c[c.method == m]
            if cm.empty:                    # GeoRatio does not run on this data set
                continue
            if m in OWN_SIZE:
                ax.plot(cm["k_mean"], cm[metric], ls="none", marker=MARKERS[m], ms=8, color="black",
                        label=f"{m} (own k)")
            else:
                ax.plot(cm["k"], cm[metric], marker=MARKERS[m], ms=4, lw=1, color=colour[m], label=m)
        none = c[c.method == "none"][metric].iloc[0]
        ax.axhline(none, color="grey", ls="--", lw=1, label="none (all features)")
        log_x_axis(ax)
        ax.set_title(ds, fontsize=9)
        ax.tick_params(labelsize=8)
    _label_axes(axes, "features kept (log scale)", f"{label} accuracy (%)")
    legend_below(fig, axes)
    return fig


def plot_stability(stability, datasets):
    """Figure 4: Kuncheva's index of the kept sets against ``k``, one panel per data set."""
    fig, axes = panels(len(datasets))
    colour = colours()
    k_methods = [m for m in SELECTORS if m not in OWN_SIZE]
    for ax, ds in zip(axes, datasets):
        s = stability[(stability.dataset == ds) & stability.method.isin(k_methods)]
        for m in k_methods:
            sm = s[s.method == m]
            ax.plot(sm["k"], sm["kuncheva"], marker=MARKERS[m], ms=4, lw=1, color=colour[m], label=m)
        log_x_axis(ax)
        ax.set_ylim(-0.35, 1.05)
        ax.set_title(ds, fontsize=9)
        ax.tick_params(labelsize=8)
    _label_axes(axes, "features kept (log scale)", "Kuncheva index")
    legend_below(fig, axes)
    return fig


def plot_cost(accuracy_at_k, fit_time, datasets):
    """Figure 5: each selector's mean fit time against the RBF SVM's accuracy at :data:`RANK_K`."""
    import matplotlib.ticker as mticker

    at5 = accuracy_at_k[accuracy_at_k.method != "none"].merge(fit_time, on=["dataset", "method"])
    fig, axes = panels(len(datasets), 2.9)
    colour = colours()
    for ax, ds in zip(axes, datasets):
        for _, r in at5[at5.dataset == ds].iterrows():
            ax.scatter(r["fit_time"], r["acc_rbf"], marker=MARKERS[r["method"]], color=colour[r["method"]],
                       label=r["method"])
        ax.set_xscale("log")                                  # ticks at the powers of ten only
        ax.xaxis.set_minor_formatter(mticker.NullFormatter())
        ax.set_title(ds, fontsize=9)
        ax.tick_params(labelsize=8)
    _label_axes(axes, "selector fit time (s, log scale)", f"RBF SVM at k = {RANK_K} (%)")
    legend_below(fig, axes)
    return fig


def plot_wine_features(freq):
    """Figure 6: how often each selector keeps each wine feature (selectors × features)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 3.6))
    im = ax.imshow(freq.to_numpy(), cmap="Greys", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(freq.shape[1]), list(freq.columns), rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(len(freq)), freq.index, fontsize=8)
    fig.colorbar(im, ax=ax, label="fraction of folds kept", shrink=0.8)
    fig.tight_layout()
    return fig
