"""The template's facts: every number and verdict its page quotes, as glue keys to text."""
from fsbook.experiments._example.claims import claims
from fsbook.report import VERDICT_VERB, format_value, join_words

__all__ = ["facts"]


def facts(results):
    """Glue keys to text for the page that presents the template.

    Parameters
    ----------
    results : ProtocolResult

    Returns
    -------
    dict of str to str
        ``ex_n_tasks``, ``ex_n_runs`` (runs per noise level), ``ex_r2_low`` and ``ex_r2_high``
        (both models' mean R² at the lowest and the highest noise level), ``ex_verdicts`` (the
        verdict at each noise level).

    Examples
    --------
    >>> from fsbook.experiments import run_protocol
    >>> from fsbook.experiments._example import PROTOCOL
    >>> from fsbook.experiments._example.facts import facts
    >>> f = facts(run_protocol(PROTOCOL, full=False, progress=False))
    >>> f["ex_n_tasks"], f["ex_n_runs"]
    ('6', '3')
    """
    runs = results.tables["runs"]
    table = results.tables["r2"]
    out = {"ex_n_tasks": str(len(runs)),
           "ex_n_runs": str(int(runs.groupby("noise").size().min()))}
    for name, noise in (("low", table.index.min()), ("high", table.index.max())):
        row = table.loc[noise]
        out[f"ex_r2_{name}"] = (f"{format_value(row['Ridge'], 3)} for ridge against "
                                f"{format_value(row['OLS'], 3)} for least squares")
    verdicts = claims(results)
    out["ex_verdicts"] = "The claim " + join_words(
        [f"{VERDICT_VERB[v]} at noise {n:g}" for n, v in zip(verdicts["noise"], verdicts["verdict"])]) + "."
    return out
