"""Figures of the disjunctive-HKL chapters: the disjunction lattice and the nodes a fit visits.

:func:`lattice_positions` lays the ``2^n`` disjunctions of ``n`` variables out level by level
(level ``|v|``, every level spread over the full width); :func:`lattice_edges` lists the edges of
its Hasse diagram (``v → v ∪ {j}``); :func:`draw_lattice` draws it with the active nodes of a
fit and its selected ones marked.
"""
from __future__ import annotations

from fsbook.hkl import lattice

__all__ = ["lattice_positions", "lattice_edges", "draw_lattice"]


def lattice_positions(n):
    """Where each disjunction of ``n`` variables sits in the lattice's drawing.

    Parameters
    ----------
    n : int
        The number of variables.

    Returns
    -------
    dict of tuple to tuple of float
        ``{v: (x, y)}`` for every node ``v`` (a sorted tuple of variables, ``()`` the empty
        one): ``y = -|v|``, and the nodes of a level at ``x = (i + 0.5) / m``, ``i`` their rank
        in :func:`fsbook.hkl.lattice.enumerate_lattice`'s order and ``m`` the level's size.

    Examples
    --------
    >>> pos = lattice_positions(2)
    >>> pos[()], pos[(0,)], pos[(1,)], pos[(0, 1)]
    ((0.5, 0), (0.25, -1), (0.75, -1), (0.5, -2))
    """
    nodes = lattice.enumerate_lattice(n)
    pos = {}
    for k in range(n + 1):
        level = [v for v in nodes if len(v) == k]
        for i, v in enumerate(level):
            pos[v] = ((i + 0.5) / len(level), -k)
    return pos


def lattice_edges(n):
    """The edges of the Hasse diagram of the disjunctions of ``n`` variables.

    Parameters
    ----------
    n : int
        The number of variables.

    Returns
    -------
    list of tuple
        ``(v, u)`` with ``u = v ∪ {j}`` for every node ``v`` and variable ``j`` not in it, in
        :func:`fsbook.hkl.lattice.enumerate_lattice`'s order of ``v``, then ``j``:
        ``n · 2^(n-1)`` edges.

    Examples
    --------
    >>> lattice_edges(2)
    [((), (0,)), ((), (1,)), ((0,), (0, 1)), ((1,), (0, 1))]
    """
    return [(v, tuple(sorted(v + (j,)))) for v in lattice.enumerate_lattice(n)
            for j in range(n) if j not in v]


def draw_lattice(n, active, selected, codes, ax):
    """Hasse diagram of the ``2^n`` disjunctions: level ``|v|``, edges ``v → v ∪ {j}``.

    Every level is spread over the full width (:func:`lattice_positions`).  An edge between
    two active nodes is drawn thick and orange, the others thin and grey; an active node is an
    orange dot labelled with its disjunction (``∅`` for the empty node, the variables' codes
    joined by ``∨``), a selected one a larger red dot with a bold label; the nodes never visited
    are small grey dots.

    Parameters
    ----------
    n : int
        The number of variables.
    active : iterable of tuple
        The nodes the fit visited (its active set, the empty node included).
    selected : iterable of tuple
        The nodes of non-negligible weight, a subset of ``active``.
    codes : sequence of str
        A short label per variable.
    ax : matplotlib.axes.Axes
        Where to draw.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> ax = draw_lattice(2, [(), (0,)], [(0,)], "ab", ax)
    >>> sorted(t.get_text() for t in ax.texts), len(ax.lines), len(ax.collections)
    (['a', '∅'], 4, 4)
    >>> plt.close(fig)
    """
    pos = lattice_positions(n)
    active, selected = set(active), set(selected)
    for v, u in lattice_edges(n):
        on = v in active and u in active
        ax.plot(*zip(pos[v], pos[u]), color="C1" if on else "0.88",
                lw=1.8 if on else 0.4, zorder=2 if on else 1)
    for v in lattice.enumerate_lattice(n):
        x, yv = pos[v]
        if v in selected:
            ax.scatter(x, yv, s=170, color="C3", zorder=4, edgecolor="k", lw=0.6)
        elif v in active:
            ax.scatter(x, yv, s=110, color="C1", zorder=3, edgecolor="k", lw=0.4)
        else:
            ax.scatter(x, yv, s=10, color="0.65", zorder=3)
        if v in active:
            txt = "∅" if not v else "∨".join(codes[j] for j in v)
            ax.annotate(txt, (x, yv), xytext=(0, 10), textcoords="offset points", ha="center",
                        fontsize=9, zorder=5, fontweight="bold" if v in selected else "normal",
                        bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.85))
    ax.set_yticks([-k for k in range(n + 1)], [f"|v| = {k}" for k in range(n + 1)])
    ax.set_xticks([])
    ax.set_xlim(0, 1)
    ax.set_ylim(-n - 0.4, 0.6)
    for s in ("top", "right", "bottom"):
        ax.spines[s].set_visible(False)
    return ax
