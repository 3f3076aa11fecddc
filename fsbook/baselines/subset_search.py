"""Weka's attribute-subset searches, with Weka 3.9's definitions and defaults.

Every search takes an evaluator (:mod:`fsbook.baselines.subset_evaluators`) and returns the
selected attribute indices (before the evaluator's post-processing).  Ties are broken the way
Weka's loops break them (candidates scanned in index order, or in ranking order for the linear
searches; strict comparisons), and the open list of best-first search keeps Weka's semantics:
at most ``max_stale`` entries, a new subset inserted after existing ones of equal merit.

* :func:`best_first` -- ``BestFirst`` (forward, ``-N 5``): expand the best open subset; stop after
  ``max_stale`` consecutive expansions without an improvement larger than 1e-5.
* :func:`greedy_stepwise` -- ``GreedyStepwise`` (forward): add the best attribute while the merit
  strictly increases.
* :func:`linear_forward_selection` -- ``LinearForwardSelection`` (Gütlein et al. 2009; defaults:
  rank the attributes by their single-attribute merit, keep the top ``k = 50`` (fixed set),
  best-first forward search over them with ``max_stale = 5``).
* :func:`rank_search` -- ``RankSearch`` (default ranker ``GainRatioAttributeEval``, step 1, start
  0): evaluate the top-1, top-2, … attributes of the ranking and keep the best prefix.
* :func:`subset_size_forward_selection` -- ``SubsetSizeForwardSelection`` (defaults: ``k = 50``
  fixed set, 5-fold CV for the subset size, set-size evaluator ``ClassifierSubsetEval`` with
  ``ZeroR``): hill-climbing linear forward selection on each training fold, the size with the best
  mean set-size merit on the test folds, then a forward selection forced to that size.
"""
from __future__ import annotations

import numpy as np
from sklearn.model_selection import StratifiedKFold

__all__ = ["best_first", "greedy_stepwise", "linear_forward_selection", "rank_search",
           "subset_size_forward_selection", "rank_by_merit", "forward_search", "weka_sort"]

_IMPROVE = 1e-5   # Weka's improvement margin in BestFirst / LFSMethods


def _merge_open(open_list, subsets, merits, max_size):
    """Weka's ``LinkedList2.addToList`` for a batch, in order (stable, truncated)."""
    entries = open_list + [(float(m), s) for s, m in zip(subsets, merits)]
    keys = np.array([-e[0] for e in entries])
    order = np.argsort(keys, kind="stable")[:max_size]
    return [entries[i] for i in order]


def forward_search(evaluator, order, max_stale, force_size=-1, start=()):
    """Weka's ``LFSMethods.forwardSearch`` (also ``BestFirst`` forward when ``order`` is 0..n−1).

    Parameters
    ----------
    evaluator : subset evaluator
    order : int array, the candidate attributes in scan order
    max_stale : int, 1 = hill climbing, > 1 = best first with an open list of that size
    force_size : int, -1 or the subset size to reach (hill climbing only)
    start : initial subset

    Returns
    -------
    best : tuple of indices, best_merit : float, best_of_size : dict size -> tuple
    """
    if force_size > 0 and max_stale > 1:
        raise ValueError("forcing the result size only works with max_stale = 1")
    order = np.asarray(order, dtype=np.int64)
    best = tuple(sorted(int(a) for a in start))
    best_merit = evaluator.merit(best)
    best_size = len(best)
    best_of_size = {}
    open_list = [(best_merit, best)] if max_stale > 1 else None
    stale = 0
    while stale < max_stale:
        improvement = False
        if max_stale > 1:
            if not open_list:
                break
            _, current = open_list.pop(0)
        else:
            current = best
        in_set = np.zeros(evaluator.n_features, dtype=bool)
        in_set[list(current)] = True
        cand = order[~in_set[order]]
        merits = evaluator.merits_add(np.array(current, dtype=np.int64), cand) if cand.size else []
        size = len(current) + 1
        for a, mer in zip(cand, merits):
            if (mer - best_merit > _IMPROVE) or (force_size >= size > best_size):
                improvement = True
                stale = 0
                best_merit = float(mer)
                best_size = size
                best = tuple(sorted(current + (int(a),)))
                best_of_size[size] = best
        if max_stale > 1:
            subsets = [tuple(sorted(current + (int(a),))) for a in cand]
            open_list = _merge_open(open_list, subsets, merits, max_stale)
        if not improvement or force_size == best_size:
            stale += 1
        if force_size > 0 and best_size == force_size:
            break
    return best, best_merit, best_of_size


def best_first(evaluator, max_stale=5):
    """Weka's ``BestFirst -D 1 -N max_stale`` (forward from the empty set)."""
    best, _, _ = forward_search(evaluator, np.arange(evaluator.n_features), max_stale)
    return np.array(best, dtype=np.int64)


def greedy_stepwise(evaluator):
    """Weka's ``GreedyStepwise`` (forward, not conservative): add the best while it improves."""
    current = np.zeros(0, dtype=np.int64)
    best_merit = evaluator.merit(current)
    in_set = np.zeros(evaluator.n_features, dtype=bool)
    while not in_set.all():
        cand = np.flatnonzero(~in_set)
        merits = evaluator.merits_add(current, cand)
        i = int(np.argmax(merits))                     # first maximum, Weka's strict '>' scan
        if not merits[i] > best_merit:
            break
        best_merit = float(merits[i])
        in_set[cand[i]] = True
        current = np.flatnonzero(in_set)
    return current


def weka_sort(values):
    """Positions of ``values`` in ascending order, equal values in the order Weka 3.9 leaves them.

    Weka's ``Utils.sort(double[])`` (since 3.7.10) is not stable: a quicksort with the
    median of the first, middle and last elements as pivot (moved next to the right end), a
    partition that stops on elements equal to the pivot, and explicit sorts of ranges of at most
    three elements.  Where attributes tie, the searches that rank them (``LFSMethods.rankAttributes``)
    see them in this order, so it is reproduced here step by step; no library sort leaves ties
    this way.  Checked against Weka's own ``Utils.sort`` in ``tests/test_baselines_weka.py``.

    Examples
    --------
    >>> weka_sort([1.0, 0.0, 1.0, 0.0, 1.0]).tolist()
    [1, 3, 0, 2, 4]
    """
    a = np.where(np.isnan(values), np.finfo(np.float64).max, np.asarray(values, dtype=np.float64))
    index = list(range(a.size))

    def cswap(i, j):
        if a[index[i]] > a[index[j]]:
            index[i], index[j] = index[j], index[i]

    stack = [(0, a.size - 1)]
    while stack:
        left, right = stack.pop()
        diff = right - left
        if diff <= 0:
            continue
        if diff == 1:
            cswap(left, right)
            continue
        if diff == 2:
            cswap(left, left + 1)
            cswap(left, right)
            cswap(left + 1, right)
            continue
        c = (left + right) // 2
        cswap(left, c)
        cswap(left, right)
        cswap(c, right)
        index[c], index[right - 1] = index[right - 1], index[c]
        pivot = a[index[right - 1]]
        lo, hi = left, right - 1
        while True:
            lo += 1
            while a[index[lo]] < pivot:
                lo += 1
            hi -= 1
            while a[index[hi]] > pivot:
                hi -= 1
            if lo >= hi:
                break
            index[lo], index[hi] = index[hi], index[lo]
        index[lo], index[right - 1] = index[right - 1], index[lo]
        stack.append((lo + 1, right))      # the order of the two calls does not matter:
        stack.append((left, lo - 1))       # they sort disjoint ranges
    return np.array(index, dtype=np.int64)


def rank_by_merit(evaluator):
    """Attributes by decreasing single-attribute merit (``LFSMethods.rankAttributes``).

    Weka sorts the negated merits with ``Utils.sort``, the class attribute (last) given
    ``Double.MAX_VALUE``; ties therefore come in :func:`weka_sort`'s order.
    """
    single = evaluator.merits_add(np.zeros(0, dtype=np.int64), np.arange(evaluator.n_features))
    keys = np.r_[-np.asarray(single, dtype=np.float64), np.finfo(np.float64).max]
    order = weka_sort(keys)
    return order[order != evaluator.n_features]


def linear_forward_selection(evaluator, n_used=50, max_stale=5, fixed_width=False):
    """Weka's ``LinearForwardSelection`` (forward, ranking on, fixed set by default).

    Fixed set: the candidates are the top ``n_used`` ranked attributes throughout.  Fixed width:
    ``k + |current subset|`` top attributes (Weka's ``incrementK``).
    """
    ranking = rank_by_merit(evaluator)
    k = min(n_used, evaluator.n_features)
    if not fixed_width:
        best, _, _ = forward_search(evaluator, ranking[:k], max_stale)
        return np.array(best, dtype=np.int64)
    best, _, _ = _fixed_width(evaluator, ranking, k, max_stale)
    return np.array(best, dtype=np.int64)


def _fixed_width(evaluator, ranking, k, max_stale):
    """Best-first LFS whose window is ``min(max(k_prev, k + |S|), n)`` top attributes."""
    best = ()
    best_merit = evaluator.merit(best)
    open_list = [(best_merit, best)]
    stale, this_k = 0, k
    while stale < max_stale and open_list:
        _, current = open_list.pop(0)
        this_k = min(max(this_k, k + len(current)), evaluator.n_features)
        order = ranking[:this_k]
        cand = np.array([a for a in order if a not in current], dtype=np.int64)
        merits = evaluator.merits_add(np.array(current, dtype=np.int64), cand) if cand.size else []
        improvement = False
        for a, mer in zip(cand, merits):
            if mer - best_merit > _IMPROVE:
                improvement, stale = True, 0
                best_merit, best = float(mer), tuple(sorted(current + (int(a),)))
        open_list = _merge_open(open_list, [tuple(sorted(current + (int(a),))) for a in cand],
                                merits, max_stale)
        if not improvement:
            stale += 1
    return best, best_merit, None


def rank_search(evaluator, ranking, step=1, start=0, threshold=0.0):
    """Weka's ``RankSearch``: the best prefix ``ranking[:i]`` (i = start+step, …) by subset merit.

    Parameters
    ----------
    evaluator : subset evaluator
    ranking : attributes from best to worst (Weka: ``Ranker`` over ``GainRatioAttributeEval``)
    """
    ranking = np.asarray(ranking, dtype=np.int64)
    best_merit, best = -np.inf, np.zeros(0, dtype=np.int64)
    merits = evaluator.merits_prefix(ranking) if hasattr(evaluator, "merits_prefix") else None
    i = start
    while i < ranking.size:
        i = min(i + step, ranking.size)
        mer = merits[i - 1] if merits is not None else evaluator.merit(ranking[:i])
        if mer - best_merit > threshold:
            best_merit, best = float(mer), ranking[:i]
    return np.sort(best)


def subset_size_forward_selection(build, m, y, n_used=50, n_folds=5, random_state=1,
                                  set_size_evaluator="zero_r"):
    """Weka's ``SubsetSizeForwardSelection``.

    Parameters
    ----------
    build : callable(rows) -> evaluator built on those rows of the training data
    m : int, number of training examples; y : their class codes
    set_size_evaluator : {"zero_r", "same"}
        ``"zero_r"`` is Weka's default ``ClassifierSubsetEval`` with ``ZeroR``: a classifier that
        ignores the attributes, so every subset size scores the same on the test folds and the
        first size (1) is chosen.  ``"same"`` scores the sizes with the subset evaluator itself,
        rebuilt on the test fold (the set-size evaluator Weka users commonly pick instead).

    The folds are stratified and shuffled with ``random_state`` (not Java's generator, so the
    folds differ from Weka's; with the default set-size evaluator the result does not depend on
    them unless no fold selects any attribute).
    """
    if set_size_evaluator not in ("zero_r", "same"):
        raise ValueError("set_size_evaluator must be 'zero_r' or 'same'")
    full = build(np.arange(m))
    ranking = rank_by_merit(full)
    k = min(n_used, full.n_features)
    order = ranking[:k]
    folds = list(StratifiedKFold(n_folds, shuffle=True, random_state=random_state).split(np.zeros(m), y))
    results = []
    for train, _ in folds:
        ev = build(train)
        best, _, of_size = forward_search(ev, order, 1)
        results.append([ev, best, of_size])
    max_size = max(len(r[1]) for r in results)
    for r in results:
        if len(r[1]) < max_size:
            best, _, of_size = forward_search(r[0], order, 1, force_size=max_size, start=r[1])
            r[2].update(of_size)
    final_size = -1
    if max_size > 0:
        avg = np.zeros(max_size + 1)
        for (_, test), r in zip(folds, results):
            ev_test = build(test) if set_size_evaluator == "same" else None
            for s in range(1, max_size + 1):
                subset = r[2].get(s, ())
                avg[s] += (ev_test.merit(subset) if ev_test is not None else 0.0) / n_folds
        for s in range(1, max_size + 1):
            if final_size == -1 or avg[s] > avg[final_size]:
                final_size = s
    best, _, _ = forward_search(full, order, 1, force_size=final_size)
    return np.array(best, dtype=np.int64)
