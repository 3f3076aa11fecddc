"""A two-class C-SVM on a precomputed kernel, fitted by scikit-learn's libsvm without its per-call checks.

The face experiments of chapter 1 fit about 360 small SVMs per task (every C of a grid on every
inner fold, for several kernels), each on a Gram matrix of a few dozen images.  On such a
problem libsvm itself takes about 0.03 ms; :class:`sklearn.svm.SVC`'s ``fit`` and
``decision_function`` take about 0.6 ms, almost all of it in input validation (array checks,
data-frame detection), even with ``assume_finite`` and ``skip_parameter_validation``.
:class:`PrecomputedSVC` makes the same two calls into the libsvm that scikit-learn ships
(``sklearn.svm._libsvm``, imported through :mod:`fsbook._compat`: no other library exposes that
build) with the arguments ``SVC`` passes
for ``kernel="precomputed"`` and its defaults, and applies ``SVC``'s sign convention for two
classes, so its decision values are ``SVC``'s bit for bit (``tests/test_svc.py`` checks it on
random problems).  It checks only what the experiments can get wrong: shapes, two classes.

It is a private helper of the experiments, not an estimator: use :class:`sklearn.svm.SVC`.
"""
from __future__ import annotations

import numpy as np

from fsbook._compat import libsvm as _libsvm

__all__ = ["PrecomputedSVC"]

#: libsvm's C-SVC (``sklearn.svm._base.LIBSVM_IMPL.index("c_svc")``)
_C_SVC = 0
#: :class:`sklearn.svm.SVC`'s defaults that reach libsvm for a precomputed kernel
_DEFAULTS = {"nu": 0.5, "probability": 0, "degree": 3, "shrinking": 1, "tol": 1e-3, "cache_size": 200.0,
             "coef0": 0.0, "gamma": 0.0, "epsilon": 0.0, "max_iter": -1}


class PrecomputedSVC:
    """``SVC(kernel="precomputed", C=C)`` for two classes, without scikit-learn's input checks.

    Parameters
    ----------
    C : float
        The SVM's C (positive).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels, sorted (``SVC``'s ``classes_``).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.svm import SVC
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(12, 4)); y = np.repeat([0, 1], 6); X[y == 1] += 1.0
    >>> G = X @ X.T
    >>> fast = PrecomputedSVC(C=1.0).fit(G, y)
    >>> bool(np.array_equal(fast.decision_function(G), SVC(kernel="precomputed", C=1.0).fit(G, y).decision_function(G)))
    True
    >>> fast.predict(G[:3]).tolist()
    [0, 0, 0]
    """

    def __init__(self, C):
        if not C > 0:
            raise ValueError(f"C must be positive; got {C!r}")
        self.C = float(C)

    def fit(self, K, y):
        """Fit on the Gram matrix ``K`` (n, n) of the training points and their labels ``y`` (n,)."""
        K = np.ascontiguousarray(K, dtype=np.float64)
        y = np.asarray(y)
        if K.ndim != 2 or K.shape[0] != K.shape[1] or y.shape != (K.shape[0],):
            raise ValueError(f"K must be a square Gram matrix with one label per row; got K {K.shape}, y {y.shape}")
        self.classes_, codes = np.unique(y, return_inverse=True)
        if self.classes_.size != 2:
            raise ValueError(f"PrecomputedSVC fits two classes; got {self.classes_.size}")
        _libsvm.set_verbosity_wrap(0)             # libsvm's output is global and on by default (SVC: verbose=False)
        (self.support_, support_vectors, self._n_support, self._dual_coef, self._intercept,
         self._prob_a, self._prob_b, fit_status, _) = _libsvm.fit(
            K, codes.astype(np.float64), svm_type=_C_SVC, sample_weight=np.empty(0),
            class_weight=np.ones(2), kernel="precomputed", C=self.C, random_seed=0, **_DEFAULTS)
        if fit_status != 0:
            raise RuntimeError(f"libsvm did not converge (status {fit_status})")
        self._support_vectors = support_vectors
        self.n_train_ = K.shape[0]
        return self

    def decision_function(self, K):
        """Decision values of the points whose kernel rows against the training points are ``K``
        (m, n): positive for ``classes_[1]``, as :meth:`sklearn.svm.SVC.decision_function`."""
        K = np.ascontiguousarray(K, dtype=np.float64)
        if K.ndim != 2 or K.shape[1] != self.n_train_:
            raise ValueError(f"K must have one column per training point ({self.n_train_}); got {K.shape}")
        dec = _libsvm.decision_function(
            K, self.support_, self._support_vectors, self._n_support, self._dual_coef, self._intercept,
            self._prob_a, self._prob_b, svm_type=_C_SVC, kernel="precomputed", degree=_DEFAULTS["degree"],
            cache_size=_DEFAULTS["cache_size"], coef0=_DEFAULTS["coef0"], gamma=_DEFAULTS["gamma"])
        return -dec.ravel()          # libsvm's first class is classes_[0]: SVC's sign for two classes

    def predict(self, K):
        """Labels of the points with kernel rows ``K`` by libsvm's rule (``svm_predict_values``):
        ``classes_[0]`` where libsvm's decision value is positive, i.e. where this one (its
        negation) is negative; ``classes_[1]`` elsewhere, a zero included (``SVC.predict``)."""
        return self.classes_[(self.decision_function(K) >= 0).astype(int)]
