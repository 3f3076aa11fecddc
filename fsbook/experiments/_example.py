"""A minimal protocol: the template for new protocols and the runner's test case.

Ridge against ordinary least squares on synthetic linear data with ``n`` examples, ``p``
features and noise level ``noise``, repeated ``rep`` times; the test R² of both models is
averaged per noise level, with the index of ridge's α in its grid (a discrete result).  Every
random number comes from :func:`task_seed` of the task's
parameters, so the table is the same whatever the backend or the number of workers.
"""

import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression, RidgeCV

from fsbook.experiments._runner import Protocol, task_seed


def make_tasks(full):
    """``{"n", "p", "noise", "rep"}`` for 2 noise levels × (3 or 20) repetitions."""
    reps = 20 if full else 3
    return [{"n": 30, "p": 10, "noise": noise, "rep": rep} for noise in (0.5, 2.0) for rep in range(reps)]


#: ridge's α grid: exact decimal literals
ALPHAS = [0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0]


def run_task(params):
    """Test R² of OLS and of ridge (α by leave-one-out CV on :data:`ALPHAS`) on one synthetic
    draw, and the index of the chosen α."""
    rng = np.random.default_rng(task_seed(params))
    n, p = params["n"], params["p"]
    w = rng.normal(size=p)
    X = rng.normal(size=(2 * n, p))
    y = X @ w + params["noise"] * rng.normal(size=2 * n)
    ols = LinearRegression().fit(X[:n], y[:n])
    ridge = RidgeCV(alphas=ALPHAS).fit(X[:n], y[:n])
    return {"OLS": ols.score(X[n:], y[n:]), "Ridge": ridge.score(X[n:], y[n:]), "alpha": ridge.alpha_,
            "alpha_index": ALPHAS.index(ridge.alpha_)}


def reduce(params_list, results_list):
    """One table: mean test R² per noise level and model."""
    df = pd.DataFrame([{**p, **r} for p, r in zip(params_list, results_list)])
    table = df.groupby("noise")[["OLS", "Ridge"]].mean()
    return {"r2": table}


PROTOCOL = Protocol(name="_example", make_tasks=make_tasks, run_task=run_task, reduce=reduce,
                    version="2", description="OLS vs ridge on synthetic data (runner template)")
