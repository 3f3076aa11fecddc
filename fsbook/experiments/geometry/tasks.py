"""The geometric-ratios protocol's tasks: the problem of each task kind and its labelled suite.

:func:`make_tasks` lists the tasks of the quick subsample or of the paper-sized protocol;
:func:`run_task` builds one task's problem (:data:`PROBLEMS`), labels every (binary classifier,
feature set) pair with the all-subsets wrapper and computes the ratios f1-f6
(:func:`label_suite`), and measures what its kind adds (:data:`EXTRAS`).
"""
from __future__ import annotations

import time
from itertools import combinations

from fsbook.experiments.geometry.paper import PAPER, SEED, SETTINGS, UCI_SETS
from fsbook.experiments.geometry.problems import (
    WEBTEXT_SITES,
    add_random_columns,
    text_problem,
    uci_problem,
)
from fsbook.geometry import (
    RATIO_NAMES,
    GeometricFeatureSetSelector,
    all_subsets_wrapper,
    standardize_within,
)

__all__ = ["SUITE_COLUMNS", "PROBLEMS", "EXTRAS", "label_suite", "make_tasks", "run_task"]

SUITE_COLUMNS = ("split", "subset", "n_features", "accuracy", "accuracy_se", "f1_score",
                 "accuracy_z", "optimal", *RATIO_NAMES, *(f"z{i}" for i in range(1, 7)))


def label_suite(problem, *, cv=5, seed=0, binarize=0.0, n_jobs=None):
    """Wrapper labels and geometric ratios of every (classifier, set) of one problem.

    Parameters
    ----------
    problem : dict with ``X``, ``y``, ``groups``, ``group_names``
    cv, seed : int
        Folds and seed of the wrapper.
    binarize : float or None
        Representation of the points for the ratios and the SVM (``None``: the values).
    n_jobs : int, optional

    Returns
    -------
    pandas.DataFrame
        Wrapper columns (:func:`fsbook.geometry.all_subsets_wrapper`) joined with the raw
        ratios ``f1..f6`` and their within-classifier z-scores ``z1..z6``.
    """
    w = all_subsets_wrapper(problem["X"], problem["y"], problem["groups"], cv=cv,
                            random_state=seed, n_jobs=n_jobs, group_names=problem["group_names"],
                            binarize=binarize)
    sel = GeometricFeatureSetSelector(problem["groups"], group_names=problem["group_names"],
                                      binarize=binarize, n_jobs=n_jobs)
    r = sel.compute_ratios(problem["X"], problem["y"])
    df = w.merge(r[["split", "subset", *RATIO_NAMES]], on=["split", "subset"], validate="1:1")
    Z = standardize_within(df[list(RATIO_NAMES)].to_numpy(), df["split"].to_numpy())
    for i in range(6):
        df[f"z{i + 1}"] = Z[:, i]
    return df


def _train_problem(spec):
    return text_problem(spec["source"], rows=spec["rows"], cols=spec["cols"], seed=spec["seed"])


def _site_problem(params):
    """A five-site webtext set of one dimension (Table 5; Figure 3 when ``kind`` is ``growth``)."""
    train_rows = _train_problem(params["exclude"])["rows"]
    return text_problem("webtext", rows=5 * params["rows_per_class"], cols=params["dimension"],
                        seed=params["seed"], classes=params["sites"], exclude_rows=train_rows,
                        ordered=params["kind"] == "growth")


def _uci_problem(params):
    return uci_problem(params["name"], params["values"])


def _random_problem(params):
    return add_random_columns(_train_problem(params["base"]), params["fraction"],
                              seed=params["seed"])


#: the function that builds the problem of each task kind
PROBLEMS = {"train": _train_problem, "dimension": _site_problem, "growth": _site_problem,
            "uci": _uci_problem, "random": _random_problem}


def task_problem(params):
    """The problem a task labels, built by its kind's function (:data:`PROBLEMS`).

    Parameters
    ----------
    params : dict
        A task of :func:`make_tasks` (its ``kind`` picks the builder).

    Returns
    -------
    dict
        The problem: ``X``, ``y``, ``groups`` (the feature types' columns) and what its builder
        adds.

    Examples
    --------
    >>> task = next(t for t in make_tasks(False) if t["kind"] == "uci")
    >>> p = task_problem(task)
    >>> p["X"].shape[0] == len(p["y"]), len(p["groups"]) > 0
    (True, True)
    >>> task_problem({"kind": "nope"})
    Traceback (most recent call last):
    ...
    ValueError: unknown task kind 'nope'; expected one of ['dimension', 'growth', 'random', 'train', 'uci']
    """
    kind = params["kind"]
    if kind not in PROBLEMS:
        raise ValueError(f"unknown task kind {kind!r}; expected one of {sorted(PROBLEMS)}")
    return PROBLEMS[kind](params)


def _ratios_cpu_seconds(problem):
    t0 = time.process_time()
    GeometricFeatureSetSelector(problem["groups"]).compute_ratios(problem["X"], problem["y"])
    return time.process_time() - t0


#: what a task of each kind measures besides the labelled suite
EXTRAS = {"growth": {"ratios_cpu_s": _ratios_cpu_seconds}}


def run_task(params):
    """Label one problem; returns its shape and the labelled suite (column lists).

    Parameters
    ----------
    params : dict
        A task of :func:`make_tasks`.

    Returns
    -------
    dict
        ``R``, ``C``, ``FT``, ``group_sizes``, ``suite`` (dict of columns
        :data:`SUITE_COLUMNS`) and, for ``growth`` tasks, ``ratios_cpu_s`` (CPU seconds of the
        selector's ratios for all pairs).
    """
    p = task_problem(params)
    binarize = None if params.get("values") == "real" else 0.0
    suite = label_suite(p, cv=params["cv"], seed=params["seed"], binarize=binarize)
    out = {"R": int(p["X"].shape[0]), "C": int(p["X"].shape[1]), "FT": len(p["groups"]),
           "group_sizes": [int(g.size) for g in p["groups"]],
           "suite": {c: suite[c].tolist() for c in SUITE_COLUMNS}}
    for key, measure in EXTRAS.get(params["kind"], {}).items():
        out[key] = measure(p)
    return out


def make_tasks(full):
    """Tasks of the quick subsample (``full=False``) or of the paper-sized protocol (the chapter's store).

    Parameters
    ----------
    full : bool

    Returns
    -------
    list of dict
        One task per problem: ``kind`` (:data:`PROBLEMS`' key), what its builder reads, ``seed``
        and ``cv``.

    Examples
    --------
    >>> tasks = make_tasks(False)
    >>> [t["kind"] for t in tasks][:4], tasks[0]["source"]
    (['train', 'train', 'train', 'dimension'], 'movies')
    """
    cfg = SETTINGS["full" if full else "chapter"]
    cv = cfg["cv"]
    train = {src: {"kind": "train", "source": src, "rows": cfg[src][0], "cols": cfg[src][1],
                   "seed": SEED, "cv": cv} for src in ("movies", "webtext", "news")}
    tasks = list(train.values())
    exclude = {k: v for k, v in train["webtext"].items() if k in ("source", "rows", "cols", "seed")}
    combos = list(combinations(WEBTEXT_SITES, 5))
    for i, d in enumerate(PAPER["table5"].index):
        if d in cfg["dims"]:
            tasks.append({"kind": "dimension", "dimension": int(d), "sites": list(combos[i % 6]),
                          "rows_per_class": cfg["dim_rows"], "seed": SEED + 100 + i,
                          "exclude": exclude, "cv": cv})
    for name, values in UCI_SETS:
        tasks.append({"kind": "uci", "name": name, "values": values, "seed": SEED, "cv": cv})
    tasks.append({"kind": "random", "base": exclude, "fraction": 0.25, "seed": SEED, "cv": cv})
    for d in cfg["growth"]:
        tasks.append({"kind": "growth", "dimension": int(d), "sites": list(combos[0]),
                      "rows_per_class": cfg["dim_rows"], "seed": SEED + 200,
                      "exclude": exclude, "cv": cv})
    return tasks
