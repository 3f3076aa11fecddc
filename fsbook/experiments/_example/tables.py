"""The template's tables: the reduction of the task results, one builder per table."""
import pandas as pd

__all__ = ["reduce", "runs"]


def runs(params_list, results_list):
    """One row per task: its parameters and results (the per-run values the claims pair)."""
    return pd.DataFrame([{**p, **r} for p, r in zip(params_list, results_list)])


def reduce(params_list, results_list):
    """Two tables: ``r2``, the mean test R² per noise level and model, and ``runs``, every run.

    Examples
    --------
    >>> from fsbook.experiments._example.tables import reduce
    >>> t = reduce([{"noise": 0.5, "rep": 0}], [{"OLS": 0.8, "Ridge": 0.9, "alpha": 1.0, "alpha_index": 3}])
    >>> t["r2"].to_dict("index")
    {0.5: {'OLS': 0.8, 'Ridge': 0.9}}
    """
    df = runs(params_list, results_list)
    return {"r2": df.groupby("noise")[["OLS", "Ridge"]].mean(), "runs": df}
