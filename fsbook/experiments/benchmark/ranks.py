"""The benchmark's rank statistics over data sets: the data sets × methods score matrix at
:data:`~fsbook.experiments.benchmark.paper.RANK_K`, every method against the classifier on all
features (Demšar's comparison with a control, Holm), and the Friedman and Nemenyi tests, all on
:func:`~fsbook.experiments.benchmark.tables.reduce`'s ``accuracy_at_k`` table."""
from __future__ import annotations

import pandas as pd

from fsbook.experiments.benchmark.paper import CLASSIFIERS, methods
from fsbook.stats import average_ranks, critical_difference, friedman, holm_vs_control, nemenyi


def score_matrix(accuracy_at_k, metric):
    """Data sets × methods matrix of ``metric`` (``"acc_linear"`` or ``"acc_rbf"``) from the
    ``accuracy_at_k`` table, methods in the protocol's order.

    Parameters
    ----------
    accuracy_at_k : pandas.DataFrame
        :func:`~fsbook.experiments.benchmark.tables.reduce`'s ``accuracy_at_k`` table.
    metric : {"acc_linear", "acc_rbf"}
        The classifier.

    Returns
    -------
    pandas.DataFrame
        Data sets × methods.

    Examples
    --------
    >>> import pandas as pd
    >>> acc = pd.DataFrame({"dataset": ["a", "a", "b", "b"], "method": ["MI", "none", "MI", "none"],
    ...                     "acc_linear": [90.0, 95.0, 70.0, 80.0], "acc_rbf": [1.0, 2.0, 3.0, 4.0]})
    >>> score_matrix(acc, "acc_linear")
    method   none    MI
    dataset
    a        95.0  90.0
    b        80.0  70.0
    """
    if metric not in ("acc_linear", "acc_rbf"):
        raise ValueError(f"metric must be 'acc_linear' or 'acc_rbf', got {metric!r}")
    m = accuracy_at_k.pivot(index="dataset", columns="method", values=metric)
    return m[[c for c in methods() if c in m.columns]]


def versus_control(accuracy_at_k, control="none"):
    """Per classifier, every ranked method against ``control`` (default: the classifier on all
    features) by Demšar's comparison with a control (:func:`fsbook.stats.holm_vs_control`): average
    ranks over the data sets at :data:`RANK_K`, ``z``, two-sided p and Holm-adjusted p over the
    methods compared with the control, and which side of the control a method lies on.

    Parameters
    ----------
    accuracy_at_k : pandas.DataFrame
        :func:`~fsbook.experiments.benchmark.tables.reduce`'s ``accuracy_at_k`` table.
    control : str, default "none"
        The control method.

    Returns
    -------
    pandas.DataFrame
        One row per classifier and method: ``average rank``, ``rank of the control``, ``z``,
        ``p``, ``p (Holm)`` and ``side``.

    Examples
    --------
    >>> import pandas as pd
    >>> scores = [90.0, 85, 95, 70, 75, 80, 60, 55, 65]
    >>> acc = pd.DataFrame({"dataset": list("aaabbbccc"), "method": ["MI", "ReliefF", "none"] * 3,
    ...                     "acc_linear": scores, "acc_rbf": scores})
    >>> versus_control(acc)[["method", "average rank", "side"]].round(3).to_dict("records")[0]
    {'method': 'MI', 'average rank': 2.333, 'side': 'ranks below'}
    """
    rows = []
    for metric, label in CLASSIFIERS.items():
        s = score_matrix(accuracy_at_k, metric)
        control_rank = float(average_ranks(s)[control])
        for m, r in holm_vs_control(s, control).iterrows():
            side = "ranks below" if r["z"] > 0 else "ranks above" if r["z"] < 0 else "ties with"
            rows.append({"classifier": label, "method": m, "average rank": r["rank"],
                         "rank of the control": control_rank, "z": r["z"], "p": r["p"], "p (Holm)": r["p_holm"],
                         "side": side})
    return pd.DataFrame(rows)


def statistics(accuracy_at_k):
    """Per metric: number of data sets and methods, Friedman χ² and p-value, the Nemenyi
    critical difference at α = 0.05 and the pairs Nemenyi separates (p < 0.05), on the stored
    scores (near-equal scores are ties with the tolerance of :mod:`fsbook.decisions`; the printed
    rounding decides nothing).

    Parameters
    ----------
    accuracy_at_k : pandas.DataFrame
        :func:`~fsbook.experiments.benchmark.tables.reduce`'s ``accuracy_at_k`` table.

    Returns
    -------
    pandas.DataFrame
        One row per classifier: ``data sets``, ``methods``, ``Friedman chi2``, ``p-value``,
        ``CD (alpha=0.05)`` and ``pairs Nemenyi separates``.

    Examples
    --------
    >>> import pandas as pd
    >>> scores = [90.0, 85, 95, 70, 75, 80, 60, 55, 65]
    >>> acc = pd.DataFrame({"dataset": list("aaabbbccc"), "method": ["MI", "ReliefF", "none"] * 3,
    ...                     "acc_linear": scores, "acc_rbf": scores})
    >>> row = statistics(acc).iloc[0]
    >>> int(row["data sets"]), int(row["methods"]), round(float(row["Friedman chi2"]), 3)
    (3, 3, 4.667)
    >>> row["pairs Nemenyi separates"]
    'none'
    """
    rows = []
    for metric, label in (("acc_linear", "linear SVM"), ("acc_rbf", "RBF SVM")):
        s = score_matrix(accuracy_at_k, metric)
        chi2, p = friedman(s)
        pv = nemenyi(s)
        pairs = [f"{a} vs {b}" for i, a in enumerate(pv.index) for b in pv.columns[i + 1:] if pv.loc[a, b] < 0.05]
        rows.append({"classifier": label, "data sets": s.shape[0], "methods": s.shape[1], "Friedman chi2": chi2,
                     "p-value": p, "CD (alpha=0.05)": critical_difference(s.shape[1], s.shape[0]),
                     "pairs Nemenyi separates": ", ".join(pairs) if pairs else "none"})
    return pd.DataFrame(rows)
