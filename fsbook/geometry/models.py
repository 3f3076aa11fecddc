"""Decision models of Section 4: linear + logistic regression on standardised f1-f6.

A feature set is predicted *optimal* iff the linear model predicts a positive
standardised accuracy **and** the logistic model predicts a probability
``≥ 0.5`` (Fig. 2, line 13 of the paper).

Table 2 of the paper (coefficients on z-scores of f1-f6)::

    Predictor  Logistic      Linear
    β0         -0.64063267   -1.039011e-12
    f1          0.15706603    .0
    f2          0.1327297     0
    f3         -0.03350878    09114375      <- garbled in the extraction
    f4         -0.15182902   -.01223389
    f5          0.19548473   -.0200644
    f6         -0.68787718    0

The linear f3 coefficient prints as ``09114375``: the digits are those of
``0.09114375`` with the decimal point (and possibly a minus sign) lost.  The
text says that every property has "a clear negative relationship" with
performance (Figure 1), so we read it as ``-0.09114375`` by default and keep
``+0.09114375`` as the alternative reading (``paper_model(f3_sign=+1)``); the
chapter reports how many decisions change between the two readings.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.special import expit
from sklearn.linear_model import LinearRegression, LogisticRegression

__all__ = ["GeometricModel", "paper_model", "fit_models", "PAPER_LOGISTIC", "PAPER_LINEAR",
           "F3_DIGITS"]

#: Table 2, logistic column: intercept, f1..f6
PAPER_LOGISTIC = (-0.64063267, (0.15706603, 0.1327297, -0.03350878, -0.15182902, 0.19548473,
                                -0.68787718))
#: the garbled linear f3 entry, magnitude only
F3_DIGITS = 0.09114375
#: Table 2, linear column with f3 left as NaN (garbled)
PAPER_LINEAR = (-1.039011e-12, (0.0, 0.0, np.nan, -0.01223389, -0.0200644, 0.0))


@dataclass
class GeometricModel:
    """Linear + logistic decision rule on standardised ratios.

    Attributes
    ----------
    lin_intercept, lin_coef : float, ndarray (6,)
        Linear model of the standardised accuracy.
    log_intercept, log_coef : float, ndarray (6,)
        Logistic model of P(optimal).
    name : str
    """
    lin_intercept: float
    lin_coef: np.ndarray
    log_intercept: float
    log_coef: np.ndarray
    name: str = "model"
    info: dict = field(default_factory=dict)

    def linear(self, Z):
        """Predicted standardised accuracy (Fig. 2, line 11).

        Parameters
        ----------
        Z : array-like of shape (n_sets, 6)
            z-scored ratios (within each binary classifier).

        Returns
        -------
        ndarray of shape (n_sets,)
        """
        return self.lin_intercept + np.asarray(Z) @ np.asarray(self.lin_coef)

    def probability(self, Z):
        """Predicted probability of being optimal (Fig. 2, line 12).

        Parameters
        ----------
        Z : array-like of shape (n_sets, 6)

        Returns
        -------
        ndarray of shape (n_sets,)
        """
        return expit(self.log_intercept + np.asarray(Z) @ np.asarray(self.log_coef))

    def predict(self, Z):
        """Fig. 2, line 13: ``lin_pred > 0 and log_pred >= .5``.

        Parameters
        ----------
        Z : array-like of shape (n_sets, 6)

        Returns
        -------
        ndarray of bool of shape (n_sets,)
        """
        return (self.linear(Z) > 0) & (self.probability(Z) >= 0.5)

    def coefficients(self):
        """Coefficients in the layout of Table 2.

        Returns
        -------
        dict
            ``{("logistic" | "linear", "β0" | "f1" … "f6"): value}``.
        """
        rows = {}
        for kind, b0, b in (("logistic", self.log_intercept, self.log_coef),
                            ("linear", self.lin_intercept, self.lin_coef)):
            rows[(kind, "β0")] = float(b0)
            for i, v in enumerate(b):
                rows[(kind, f"f{i + 1}")] = float(v)
        return rows


def paper_model(f3_sign=-1):
    """The published Table 2 model.

    Parameters
    ----------
    f3_sign : {-1, +1}, default=-1
        Reading of the garbled linear f3 coefficient (``09114375``).

    Returns
    -------
    GeometricModel
    """
    if f3_sign not in (-1, 1):
        raise ValueError("f3_sign must be -1 or +1")
    lin = np.array(PAPER_LINEAR[1], dtype=float)
    lin[2] = f3_sign * F3_DIGITS
    return GeometricModel(PAPER_LINEAR[0], lin, PAPER_LOGISTIC[0],
                          np.array(PAPER_LOGISTIC[1], dtype=float),
                          name=f"paper (f3 = {f3_sign * F3_DIGITS:+.8f})")


def _ols_aic(Z, t, cols):
    A = np.column_stack([np.ones(len(t))] + [Z[:, c] for c in cols])
    coef, *_ = np.linalg.lstsq(A, t, rcond=None)
    rss = float(np.sum((t - A @ coef) ** 2))
    n = len(t)
    return n * np.log(max(rss, 1e-300) / n) + 2 * (len(cols) + 1)


def _logit_aic(Z, lab, cols):
    if not cols:
        p = np.clip(lab.mean(), 1e-12, 1 - 1e-12)
        nll = -np.sum(lab * np.log(p) + (1 - lab) * np.log(1 - p))
        return 2 * nll + 2
    m = LogisticRegression(C=np.inf, max_iter=2000).fit(Z[:, cols], lab)
    p = np.clip(m.predict_proba(Z[:, cols])[:, 1], 1e-12, 1 - 1e-12)
    nll = -np.sum(lab * np.log(p) + (1 - lab) * np.log(1 - p))
    return 2 * nll + 2 * (len(cols) + 1)


def _forward_stepwise(aic, p):
    chosen, best = [], aic([])
    while True:
        trials = [(aic(chosen + [c]), c) for c in range(p) if c not in chosen]
        if not trials:
            return chosen
        val, c = min(trials)
        if val >= best:
            return sorted(chosen)
        best, chosen = val, chosen + [c]


def fit_models(Z, accuracy_z, optimal, *, stepwise=True, name="refit"):
    """Refit both models on a labelled training suite.

    Parameters
    ----------
    Z : ndarray (n_sets, 6)
        Standardised ratios (z-scores within each binary classifier).
    accuracy_z : ndarray (n_sets,)
        Standardised wrapper accuracy (target of the linear model).
    optimal : ndarray (n_sets,) bool
        Wrapper labels (target of the logistic model).
    stepwise : bool, default True
        Forward stepwise inclusion with AIC (as in the paper); predictors not
        selected get coefficient 0.  ``False`` fits all six.

    Returns
    -------
    GeometricModel
        ``info`` holds the selected predictors of each model.
    """
    Z = np.asarray(Z, dtype=float)
    t = np.asarray(accuracy_z, dtype=float)
    lab = np.asarray(optimal).astype(int)
    p = Z.shape[1]
    if np.unique(lab).size < 2:
        raise ValueError("the training labels contain a single class")
    if stepwise:
        lin_cols = _forward_stepwise(lambda c: _ols_aic(Z, t, c), p)
        log_cols = _forward_stepwise(lambda c: _logit_aic(Z, lab, c), p)
    else:
        lin_cols = log_cols = list(range(p))
    lin_coef, log_coef = np.zeros(p), np.zeros(p)
    lin_b0 = float(t.mean())
    if lin_cols:
        lr = LinearRegression().fit(Z[:, lin_cols], t)
        lin_coef[lin_cols], lin_b0 = lr.coef_, float(lr.intercept_)
    if log_cols:
        lg = LogisticRegression(C=np.inf, max_iter=2000).fit(Z[:, log_cols], lab)
        log_coef[log_cols], log_b0 = lg.coef_[0], float(lg.intercept_[0])
    else:
        q = lab.mean()
        log_b0 = float(np.log(q / (1 - q)))
    return GeometricModel(lin_b0, lin_coef, log_b0, log_coef, name=name,
                          info={"linear_predictors": [f"f{c + 1}" for c in lin_cols],
                                "logistic_predictors": [f"f{c + 1}" for c in log_cols]})
