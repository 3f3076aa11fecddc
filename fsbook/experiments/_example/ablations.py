"""The template's ablations: the variants that explain a gap, a protocol of their own.

A real protocol's ablations rerun its tasks with one of the paper's settings in place of ours,
to find which setting explains a number that differs from the paper's
(:mod:`fsbook.experiments.l1linf.ablations`).  Here each task refits ridge on a stored task's
draw (the same seed) with α fixed at one value of :data:`FIXED_ALPHAS` instead of chosen by
leave-one-out CV, so the difference from the stored ridge is the choice of α alone.

The module declares ``PROTOCOL`` (``_example_ablations``): the registry finds it as the
package's ablations, and its store sits beside the package's.
"""
import pandas as pd
from sklearn.linear_model import Ridge

from fsbook.experiments._example.tasks import draw
from fsbook.experiments._example.tasks import make_tasks as protocol_tasks
from fsbook.experiments._runner import Protocol

__all__ = ["FIXED_ALPHAS", "PROTOCOL", "make_tasks", "reduce", "run_task"]

#: the fixed values of α, each a variant
FIXED_ALPHAS = (0.1, 10.0)


def make_tasks(full):
    """Every task of the protocol (:func:`~fsbook.experiments._example.tasks.make_tasks`) once
    per value of :data:`FIXED_ALPHAS`.

    Examples
    --------
    >>> len(make_tasks(False)), make_tasks(False)[0]
    (12, {'n': 30, 'p': 10, 'noise': 0.5, 'rep': 0, 'alpha': 0.1})
    """
    return [{**task, "alpha": alpha} for task in protocol_tasks(full) for alpha in FIXED_ALPHAS]


def run_task(params):
    """Test R² of ridge with the task's fixed ``alpha`` on the draw of the protocol's task.

    Examples
    --------
    >>> sorted(run_task({"n": 30, "p": 10, "noise": 2.0, "rep": 0, "alpha": 10.0}))
    ['Ridge']
    """
    X, y = draw({k: v for k, v in params.items() if k != "alpha"})
    n = params["n"]
    return {"Ridge": Ridge(alpha=params["alpha"]).fit(X[:n], y[:n]).score(X[n:], y[n:])}


def reduce(params_list, results_list):
    """``r2``: the mean test R² of ridge per noise level (rows) and fixed α (columns).

    Examples
    --------
    >>> reduce([{"noise": 0.5, "alpha": 0.1}], [{"Ridge": 0.9}])["r2"].to_dict("index")
    {0.5: {0.1: 0.9}}
    """
    df = pd.DataFrame([{**p, **r} for p, r in zip(params_list, results_list)])
    return {"r2": df.pivot_table(index="noise", columns="alpha", values="Ridge", aggfunc="mean")}


PROTOCOL = Protocol(name="_example_ablations", make_tasks=make_tasks, run_task=run_task, reduce=reduce,
                    version="1", description="ridge with α fixed (the template's ablations)")
