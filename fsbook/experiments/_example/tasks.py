"""The template's tasks: which data, which splits, which models, and one function that runs a task.

Every random number comes from :func:`~fsbook.experiments.task_seed` of the task's parameters, so
a result is the same whatever the backend or the number of workers.
"""
import numpy as np
from sklearn.linear_model import LinearRegression, RidgeCV

from fsbook.experiments._example.paper import ALPHAS, N_FEATURES, N_SAMPLES, NOISE_LEVELS, REPETITIONS
from fsbook.experiments._runner import task_seed

__all__ = ["draw", "make_tasks", "run_task"]


def make_tasks(full):
    """``{"n", "p", "noise", "rep"}`` for every noise level × repetition (3 or 20).

    Parameters
    ----------
    full : bool
        The paper-sized protocol (20 repetitions) rather than the chapter's subsample (3).

    Returns
    -------
    list of dict
        One task per noise level of :data:`NOISE_LEVELS` and repetition.

    Examples
    --------
    >>> from fsbook.experiments._example.tasks import make_tasks
    >>> len(make_tasks(False)), len(make_tasks(True)), make_tasks(False)[0]
    (6, 40, {'n': 30, 'p': 10, 'noise': 0.5, 'rep': 0})
    """
    return [{"n": N_SAMPLES, "p": N_FEATURES, "noise": noise, "rep": rep}
            for noise in NOISE_LEVELS for rep in range(REPETITIONS[full])]


def draw(params):
    """One synthetic draw of a task: ``2n`` points ``X`` (the first ``n`` train, the rest test)
    and ``y = Xw + noise``, from the seed of the task's parameters (:func:`make_tasks`'s keys).

    Examples
    --------
    >>> X, y = draw({"n": 30, "p": 10, "noise": 2.0, "rep": 0})
    >>> X.shape, y.shape
    ((60, 10), (60,))
    """
    rng = np.random.default_rng(task_seed(params))
    n, p = params["n"], params["p"]
    w = rng.normal(size=p)
    X = rng.normal(size=(2 * n, p))
    return X, X @ w + params["noise"] * rng.normal(size=2 * n)


def run_task(params):
    """Test R² of OLS and of ridge (α by leave-one-out CV on :data:`ALPHAS`) on one synthetic
    draw, and the index of the chosen α.

    Parameters
    ----------
    params : dict
        A task of :func:`make_tasks`: ``n`` training (and as many test) points, ``p``
        features, the ``noise`` level and the repetition ``rep`` (with the rest, the seed).

    Returns
    -------
    dict
        ``OLS`` and ``Ridge`` (test R²), ``alpha`` (ridge's chosen α) and ``alpha_index`` (its
        index in :data:`ALPHAS`).

    Examples
    --------
    >>> from fsbook.experiments._example.tasks import run_task
    >>> r = run_task({"n": 30, "p": 10, "noise": 2.0, "rep": 0})
    >>> sorted(r), r["alpha"] in (0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0)
    (['OLS', 'Ridge', 'alpha', 'alpha_index'], True)
    """
    X, y = draw(params)
    n = params["n"]
    ols = LinearRegression().fit(X[:n], y[:n])
    ridge = RidgeCV(alphas=ALPHAS).fit(X[:n], y[:n])
    return {"OLS": ols.score(X[n:], y[n:]), "Ridge": ridge.score(X[n:], y[n:]), "alpha": ridge.alpha_,
            "alpha_index": ALPHAS.index(ridge.alpha_)}
