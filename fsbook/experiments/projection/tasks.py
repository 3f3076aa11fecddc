"""The protocol's tasks: :func:`make_tasks` and :func:`run_task`, which runs each task by its
part's function (:data:`PARTS`).

* ``boston`` (Table 1): one random run of 50 training and 456 test examples,
  :func:`~fsbook.experiments.projection.boston.boston_run`.
* ``yale`` (Tables 5-7): one (run, pair) face task,
  :func:`~fsbook.experiments.projection.yale.yale_task` on the run's Gram matrices
  (:func:`~fsbook.experiments.projection.yale.yale_grams`), at the paper's ρ.
* ``rho`` (the chapter's ρ sweep): the same on every ρ of
  :data:`~fsbook.experiments.projection.paper.YALE_RHOS`.

Each task's seeds come from its parameters (run and pair index), so the subsample's tasks
(``make_tasks(False)``) are exactly the corresponding tasks of the full protocol.  The live
checks of the face experiment run on the same splits
(:mod:`~fsbook.experiments.projection.yale_checks`).
"""

from fsbook.experiments.projection.boston import boston_data, boston_run
from fsbook.experiments.projection.paper import (
    RUNS,
    SWEEP,
    VERSION,
    YALE_K,
    YALE_PAIRS,
    YALE_RHO,
    YALE_RHOS,
    YALE_TIES,
)
from fsbook.experiments.projection.yale import yale_data, yale_run_grams, yale_seed, yale_task


def make_tasks(full):
    """Task parameters: ``{"part": "boston", "run"}``, ``{"part": "yale", "table", "run", "pair"}``
    and ``{"part": "rho", "run", "pair"}`` (the ρ sweep).  ``full=False`` is the chapter's
    subsample.  (The text tasks of Tables 2-4 are :mod:`fsbook.experiments.projection.text`'s.)

    Parameters
    ----------
    full : bool
        The paper's numbers of runs and every pair, rather than the chapter's subsample.

    Returns
    -------
    list of dict

    Examples
    --------
    >>> tasks = make_tasks(False)
    >>> len(tasks), tasks[0], tasks[100]
    (322, {'part': 'boston', 'run': 0}, {'part': 'yale', 'table': 'table5', 'run': 0, 'pair': [0, 1]})
    """
    runs = RUNS[full]
    yale_pairs = YALE_PAIRS if full else YALE_PAIRS[::3]
    tasks = [{"part": "boston", "run": r} for r in range(runs["boston"])]
    tasks += [{"part": "yale", "table": t, "run": r, "pair": list(p)}
              for t in YALE_K for r in range(runs["yale"]) for p in yale_pairs]
    tasks += [{"part": "rho", "run": SWEEP["run"], "pair": list(p)} for p in SWEEP["pairs"]]
    return tasks


def _run_boston(params):
    """One Boston run of Table 1 (:func:`boston_run`)."""
    X, y = boston_data()
    return boston_run(params["run"], X, y)


def _run_faces(params, k, rhos, name):
    """One (run, pair) face task: ``{name(key): {"cv_accuracy", "error", "C"}}`` (:func:`yale_task`,
    the tie rule of :data:`VERSION`)."""
    run, pair = params["run"], tuple(params["pair"])
    _, y = yale_data()
    is_train, grams = yale_run_grams(k, run, rhos)
    fits = yale_task(grams, y, is_train, pair, yale_seed(run, pair), tie=YALE_TIES[VERSION])
    return {key if isinstance(key, str) else name(key): {"cv_accuracy": acc, "error": err, "C": C}
            for key, (acc, err, C) in fits.items()}


def _run_yale(params):
    """One (run, pair) task of Tables 5-7, at the paper's ρ."""
    return _run_faces(params, YALE_K[params["table"]], (YALE_RHO,), lambda key: key[0])


def _run_rho(params):
    """One pair of the ρ sweep: Proj-R for every ρ of :data:`YALE_RHOS`, keyed ``Proj-R@ρ``."""
    return _run_faces(params, SWEEP["k"], tuple(YALE_RHOS), lambda key: f"{key[0]}@{key[1]:.0e}")


#: the function that runs a task of each part of :data:`PROTOCOL`
PARTS = {"boston": _run_boston, "yale": _run_yale, "rho": _run_rho}


def run_task(params):
    """Run one task of :data:`PROTOCOL` (see :func:`make_tasks`) by its part's function
    (:data:`PARTS`).

    Parameters
    ----------
    params : dict
        A task of :func:`make_tasks`; its ``part`` picks the function.

    Returns
    -------
    dict
        The part's result (a face task: per Gram matrix its test ``error``, CV accuracy and C).

    Examples
    --------
    >>> run_task({"part": "nope"})
    Traceback (most recent call last):
    ...
    ValueError: unknown part 'nope'; the parts are ['boston', 'rho', 'yale']
    >>> r = run_task({"part": "yale", "table": "table5", "run": 0, "pair": [0, 1]})
    >>> sorted(r)[:2], r["SVM-Kernel"]["error"]
    (['Proj-GDA', 'Proj-KPCA'], 0.25)
    """
    part = params.get("part")
    if part not in PARTS:
        raise ValueError(f"unknown part {part!r}; the parts are {sorted(PARTS)}")
    return PARTS[part](params)
