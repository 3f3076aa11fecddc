"""The template's claims: the paper's claim at each noise level, decided on the paired runs."""
from fsbook.claims import Claim, claims_table, evaluate
from fsbook.experiments._example.paper import CLAIM

__all__ = ["FAMILY", "claims"]

#: the Holm family: the claims the paper makes in one table
FAMILY = "R² by noise level"


def claims(results):
    """One claim per noise level, "Ridge above OLS" on the test R², paired over the runs
    (the paired t over independent draws), Holm over the noise levels.

    Parameters
    ----------
    results : ProtocolResult
        The protocol's results (a store read back, or a live run).

    Returns
    -------
    DataFrame
        A claims table (:func:`fsbook.claims.claims_table`) with a ``noise`` column.

    Examples
    --------
    >>> from fsbook.experiments import run_protocol
    >>> from fsbook.experiments._example import PROTOCOL
    >>> table = claims(run_protocol(PROTOCOL, full=False, progress=False))
    >>> table["noise"].tolist()
    [0.5, 2.0]
    """
    rows = []
    for noise, g in results.tables["runs"].groupby("noise"):
        g = g.sort_values("rep")
        c = Claim(f"{CLAIM} at noise {noise:g}", a="Ridge", b="OLS", better="higher", unit="runs",
                  test="paired_t", table=FAMILY)
        rows.append({**evaluate(c, g["Ridge"], g["OLS"]), "noise": noise})
    return claims_table(rows)
