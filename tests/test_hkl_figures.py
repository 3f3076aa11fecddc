"""The disjunction lattice's drawing (chapter 5's figure): layout, edges and marks."""
import itertools

import matplotlib.pyplot as plt
import numpy as np
import pytest

from fsbook.experiments.hkl.figures import draw_lattice, lattice_edges, lattice_positions


def all_subsets(n):
    return [c for k in range(n + 1) for c in itertools.combinations(range(n), k)]


@pytest.mark.parametrize("n", [1, 3, 5])
def test_every_subset_has_its_own_place_on_its_level(n):
    pos = lattice_positions(n)
    assert set(pos) == set(all_subsets(n))
    assert all(y == -len(v) for v, (x, y) in pos.items())
    for k in range(n + 1):
        xs = sorted(x for v, (x, y) in pos.items() if len(v) == k)
        m = len(xs)
        assert np.allclose(xs, (np.arange(m) + 0.5) / m)      # spread evenly over the width


@pytest.mark.parametrize("n", [1, 3, 5])
def test_the_edges_are_the_covering_pairs(n):
    edges = lattice_edges(n)
    expected = {(v, u) for v in all_subsets(n) for u in all_subsets(n)
                if set(v) < set(u) and len(u) == len(v) + 1}
    assert len(edges) == len(set(edges)) == n * 2 ** (n - 1)
    assert set(edges) == expected


def test_the_drawing_labels_the_active_nodes_and_marks_the_selected_ones():
    fig, ax = plt.subplots()
    active, selected = [(), (0,), (2,), (0, 2)], [(0, 2)]
    draw_lattice(3, active, selected, "abc", ax)
    labels = {t.get_text(): t.get_fontweight() for t in ax.texts}
    assert labels == {"∅": "normal", "a": "normal", "c": "normal", "a∨c": "bold"}
    thick = [line for line in ax.lines if line.get_linewidth() == 1.8]
    # the edges inside the active set: ∅–a, ∅–c, a–ac, c–ac
    assert len(thick) == 4 and len(ax.lines) == 12
    sizes = sorted(float(c.get_sizes()[0]) for c in ax.collections)
    assert sizes == [10.0] * 4 + [110.0] * 3 + [170.0]
    plt.close(fig)
