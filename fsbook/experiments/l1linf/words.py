"""The phrases of the l1/linf chapter: verdicts, tallies and lowest means put into words.

Small functions of the claims and tables that :mod:`fsbook.experiments.l1linf.facts` turns
into the sentences the chapter quotes.
"""
from __future__ import annotations

import numpy as np

from fsbook.decisions import RTOL
from fsbook.experiments.l1linf.paper import NAMES, TABLE1_K
from fsbook.report import format_value, join_words

#: how a sentence says each verdict ("HSFS lowest ... is not separable on wine")
VERBS = {"holds": "holds", "fails": "fails", "not separable": "is not separable"}


def pct(value):
    """A percentage as the chapter prints it: two decimals.

    Examples
    --------
    >>> pct(4.5833)
    '4.58'
    """
    return format_value(value, 2)


def versus(record):
    """HSFS against FOHSIC in words, from one data set's entry of the selection benchmark record.

    Examples
    --------
    >>> versus({"hsfs_over_fohsic": 0.5, "hsfs_seconds": 1.0, "fohsic_seconds": 2.0})
    '2.0 times faster than'
    >>> versus({"hsfs_over_fohsic": 4.76, "hsfs_seconds": 0.81, "fohsic_seconds": 0.17})
    '4.8 times slower than'
    """
    ratio = record["hsfs_over_fohsic"]
    if ratio < 1:
        return f"{record['fohsic_seconds'] / record['hsfs_seconds']:.1f} times faster than"
    return f"{ratio:.1f} times slower than" if ratio > 1 else "about as fast as"


def met(flag):
    """A floor of the benchmark record in words.

    Examples
    --------
    >>> met(True), met(False)
    ('met', 'not met')
    """
    return "met" if flag else "not met"


def where(rows, unit="data sets"):
    """The verdicts of per-data-set claim rows as a verb phrase.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"dataset": ["wine", "madelon", "dexter"],
    ...                      "verdict": ["not separable", "fails", "not separable"]})
    >>> where(rows)
    'fails on MADELON and is not separable on wine and DEXTER'
    >>> where(rows.assign(verdict="holds"))
    'holds on all 3 data sets'
    """
    parts = []
    for v in VERBS:
        names = [NAMES[d] for d in rows.loc[rows.verdict == v, "dataset"]]
        if len(names) == len(rows):
            return f"{VERBS[v]} on all {len(rows)} {unit}"
        if names:
            parts.append(f"{VERBS[v]} on {join_words(names)}")
    return " and ".join(parts) if len(parts) == 2 else "; ".join(parts)


def agree_words(rows):
    """The agreement of one method's means with the paper's printed ones, per data set.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"dataset": ["wine", "glass", "dexter"],
    ...                      "agreement": ["differs", "differs", "inconclusive"]})
    >>> agree_words(rows)
    'differs from it on wine and glass and is inconclusive on DEXTER'
    """
    parts = [f"{word} on {join_words([NAMES[d] for d in rows.loc[rows.agreement == v, 'dataset']])}"
             for v, word in (("agrees", "agrees with the paper's"), ("differs", "differs from it"),
                             ("inconclusive", "is inconclusive")) if (rows.agreement == v).any()]
    return join_words(parts)


def outcome(rows):
    """The verdicts of one hypothesis's explanation rows, per method and data set.

    Examples
    --------
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"a": ["HSFS, v", "LDFS, v"], "dataset": ["arcene", "wine"],
    ...                      "verdict": ["holds", "not separable"]})
    >>> outcome(rows)
    'holds for HSFS on ARCENE; is not separable for LDFS on wine'
    """
    parts = []
    for v in VERBS:
        names = [f"{r['a'].split(',')[0]} on {NAMES[r['dataset']]}" for _, r in rows[rows.verdict == v].iterrows()]
        if names:
            parts.append(f"{VERBS[v]} for {join_words(names)}")
    return "; ".join(parts)


def lowest(means, dataset):
    """The methods with the lowest mean in a column of ``means`` (equal within the decisions'
    tolerance :data:`fsbook.decisions.RTOL`).

    Examples
    --------
    >>> import pandas as pd
    >>> lowest(pd.DataFrame({"wine": [5.0, 5.0, 7.0]}, index=["A", "B", "C"]), "wine")
    ['A', 'B']
    """
    col = means[dataset]
    return list(means.index[np.isclose(col, col.min(), rtol=RTOL, atol=0)])


def lowest_means(curves, dataset):
    """Per k, the methods with the lowest mean error along one data set's curve (equal within
    the decisions' tolerance).

    Examples
    --------
    >>> import pandas as pd
    >>> c = pd.DataFrame({"dataset": "wine", "k": [1, 1, 2, 2], "method": ["A", "B", "A", "B"],
    ...                   "mean": [3.0, 4.0, 2.0, 2.0]})
    >>> lowest_means(c, "wine")
    {1: ['A'], 2: ['A', 'B']}
    """
    out = {}
    for k, g in curves[curves.dataset == dataset].groupby("k"):
        out[int(k)] = list(g.loc[np.isclose(g["mean"], g["mean"].min(), rtol=RTOL, atol=0), "method"])
    return out


def ks_where(points, dataset, verdict):
    """The k at which one data set's rows of ``points`` have ``verdict``, or "none".

    Examples
    --------
    >>> import pandas as pd
    >>> p = pd.DataFrame({"dataset": "madelon", "k": [2.0, 10.0], "verdict": ["fails", "fails"]})
    >>> ks_where(p, "madelon", "fails"), ks_where(p, "madelon", "holds")
    ('2, 10', 'none')
    """
    g = points[(points.dataset == dataset) & (points.verdict == verdict)]
    return ", ".join(str(int(k)) for k in g.k) or "none"


def stored_mean(errors, dataset, method, folds):
    """The mean stored error (%) of ``method`` on ``dataset`` at Table 1's k over ``folds``.

    Examples
    --------
    >>> import pandas as pd
    >>> e = pd.DataFrame({"dataset": "wine", "method": "HSFS", "k": 2, "fold": [0, 1, 2],
    ...                   "error": [3.0, 5.0, 10.0]})
    >>> float(stored_mean(e, "wine", "HSFS", [0, 1]))
    4.0
    """
    e = errors[(errors.dataset == dataset) & (errors.method == method)
               & (errors.k == TABLE1_K[dataset])].set_index("fold")
    return e.loc[list(folds), "error"].mean()
