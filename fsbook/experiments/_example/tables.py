"""The template's tables: the reduction of the task results, one builder per table."""
import pandas as pd

__all__ = ["reduce", "runs"]


def runs(params_list, results_list):
    """One row per task: its parameters and results (the per-run values the claims pair).

    Parameters
    ----------
    params_list, results_list : list of dict
        Stored tasks and their results, in the same order.

    Returns
    -------
    pandas.DataFrame
        The parameters' and the results' fields as columns, one row per task.

    Examples
    --------
    >>> runs([{"noise": 0.5, "rep": 0}], [{"OLS": 0.8}]).to_dict("records")
    [{'noise': 0.5, 'rep': 0, 'OLS': 0.8}]
    """
    return pd.DataFrame([{**p, **r} for p, r in zip(params_list, results_list)])


def reduce(params_list, results_list):
    """Two tables: ``r2``, the mean test R² per noise level and model, and ``runs``, every run.

    Parameters
    ----------
    params_list, results_list : list of dict
        Stored tasks and their results (:func:`~fsbook.experiments._example.tasks.run_task`).

    Returns
    -------
    dict of str to pandas.DataFrame
        ``r2`` (noise level × model) and ``runs`` (:func:`runs`).

    Examples
    --------
    >>> from fsbook.experiments._example.tables import reduce
    >>> t = reduce([{"noise": 0.5, "rep": 0}], [{"OLS": 0.8, "Ridge": 0.9, "alpha": 1.0, "alpha_index": 3}])
    >>> t["r2"].to_dict("index")
    {0.5: {'OLS': 0.8, 'Ridge': 0.9}}
    """
    df = runs(params_list, results_list)
    return {"r2": df.groupby("noise")[["OLS", "Ridge"]].mean(), "runs": df}
