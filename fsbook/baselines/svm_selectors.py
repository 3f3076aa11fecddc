"""Linear-SVM selectors of the l1/linf chapter: ℓ1-SVM on a C path and SVM-RFE.

- :class:`L1SVMSelector` -- ``LinearSVC(penalty="l1")`` (Zhu et al. 2003's
  sparse SVM with scikit-learn's squared hinge) on a C path: from
  :func:`sklearn.svm.l1_min_c` (all weights zero) C grows by ``factor`` until
  at least ``k`` features have a non-zero weight (in any class), then C is
  bisected to hit ``k`` exactly; if no C gives exactly ``k``, the ``k``
  largest ``max_c |w_cj|`` at the smallest C with more than ``k`` are kept.
- :class:`SVMRFE` -- scikit-learn's :class:`~sklearn.feature_selection.RFE`
  around ``LinearSVC`` (Guyon et al. 2002), on unit-variance features.  By default each SVM is
  solved to a tight tolerance and the features a round removes are decided with
  :func:`fsbook.decisions.top_k`'s ties (:func:`elimination_order`), so that a last-bit rounding
  difference cannot change the selection.

Both scale features to unit standard deviation (no centring: sparse stays sparse).
"""
from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn import get_config
from sklearn.base import BaseEstimator
from sklearn.feature_selection import RFE
from sklearn.svm import LinearSVC, l1_min_c
from sklearn.utils import check_random_state

from fsbook._compat import Interval, StrOptions, check_sample_weight, fit_context
from fsbook._selection import N_FEATURES_CONSTRAINT, SupportSelectorMixin
from fsbook.decisions import top_k
from fsbook.l1linf.estimators import feature_scales

__all__ = ["L1SVMSelector", "SVMRFE"]


def elimination_order(svc):
    """RFE's importance of every remaining feature, as distinct ranks: ``d`` for the feature to
    keep first, ``1`` for the first to remove.

    The importance is ``Σ_c w_cj²`` (RFE's own, Guyon et al. 2002); importances within
    :data:`fsbook.decisions.RTOL` of one another are ties, broken by the smaller index
    (:func:`fsbook.decisions.top_k`), so RFE's ``argsort`` of these ranks removes the same
    features whatever the last bits of the weights.

    Parameters
    ----------
    svc : fitted linear model with ``coef_`` of shape (n_features,) or (n_classes, n_features)

    Returns
    -------
    ndarray of float, shape (n_features,)
        Ranks ``1 … d``; larger is kept longer.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> import numpy as np
    >>> svc = SimpleNamespace(coef_=np.array([[0.5, -1.0, 0.5 + 1e-16, 0.1]]))
    >>> elimination_order(svc).tolist()     # features 0 and 2 tie: 0 is kept longer
    [3.0, 4.0, 2.0, 1.0]
    """
    coef = np.atleast_2d(np.asarray(svc.coef_, dtype=float))
    importance = (coef ** 2).sum(axis=0)
    order = top_k(importance, importance.shape[0])
    ranks = np.empty(importance.shape[0])
    ranks[order] = np.arange(importance.shape[0], 0, -1, dtype=float)
    return ranks


def _l1_min_c(X, codes, sample_weight=None):
    """:func:`sklearn.svm.l1_min_c` (squared hinge, intercept) of ``X`` with row ``i``'s loss weighted
    by ``sample_weight[i]``: ``0.5 / max(|Yᵀ diag(w) [X, 1]|)`` over the classes' ±1 codings ``Y``, the
    smallest C at which the weighted ℓ1-SVM keeps a feature (for integer weights, ``l1_min_c`` of
    the repeated rows).  ``None``: scikit-learn's own ``l1_min_c``."""
    if sample_weight is None:
        return l1_min_c(X, codes, loss="squared_hinge")
    from sklearn.preprocessing import LabelBinarizer

    Yw = LabelBinarizer(neg_label=-1).fit_transform(codes).T * sample_weight
    den = max(float(np.max(np.abs(np.asarray(X.T @ Yw.T)))), float(np.max(np.abs(Yw.sum(axis=1)))))
    if den == 0.0:
        raise ValueError("Ill-posed l1_min_c calculation: l1 will always select zero coefficients "
                         "for this data")
    return 0.5 / den


def _scaled(X, sample_weight=None):
    s = feature_scales(X, sample_weight)
    return (X @ sp.diags(1.0 / s)).tocsr() if sp.issparse(X) else X / s


class L1SVMSelector(SupportSelectorMixin, BaseEstimator):
    """ℓ1-regularised linear SVM on a C path to exactly ``n_features_to_select`` features.

    Parameters
    ----------
    n_features_to_select : int, float in (0, 1] or None
    factor : float, default 2.0
        Growth of C along the path.
    max_bisect : int, default 20
    max_iter : int, default 5000
        Iterations of liblinear.
    tol : float, default 1e-4
        Stopping tolerance of liblinear (scikit-learn's default for ``LinearSVC``).  The book's
        protocols pass ``tol=1e-6``: on 5 000 × 300 (two classes, half the features to keep)
        that tolerance stops every fit of the path's large-C end at ``max_iter`` and the path
        takes over a minute of CPU, against about 7 s at 1e-4.
    random_state : int, RandomState instance or None, default 0
        Seed of liblinear's coordinate shuffling (passed to ``LinearSVC``); fix it for
        reproducible selections.

    Attributes
    ----------
    C_ : float, the C used
    coef_ : ndarray (n_classes or 1, n_features), the weights at ``C_``
    path_ : list of (C, number of non-zero features)
    exact_ : bool
    n_iter_ : int, liblinear iterations summed over the path
    support_ : boolean mask

    See Also
    --------
    fsbook.baselines.SVMRFE : recursive elimination by a linear SVM's weights.
    fsbook.baselines.StabilitySelection : the selection frequencies of this selector over
        half-size subsamples (its default estimator).

    Notes
    -----
    Sample weights.  ``fit`` takes ``sample_weight``: the squared hinge loss of every SVM on the
    path is weighted (``LinearSVC``'s per-sample ``C w_i``), the path starts at the weighted
    ``l1_min_c`` (the smallest C at which the weighted problem keeps a feature) and the features
    are scaled by their weighted standard deviation, so integer weights give the path of the
    repeated samples and a zero weight that of the samples without it (the fits agree to
    liblinear's tolerance, not bit for bit).  With
    ``sklearn.set_config(enable_metadata_routing=True)``, ``set_fit_request(sample_weight=True)``
    routes them from a Pipeline.

    References
    ----------
    .. [1] Zhu, J., Rosset, S., Hastie, T. and Tibshirani, R. (2003). 1-norm Support Vector
       Machines. Advances in Neural Information Processing Systems 16. ``references.bib``:
       ``zhu2003l1svm``.
    .. [2] Masaeli, M., Fung, G. and Dy, J. G. (2010). From Transformation-Based Dimensionality
       Reduction to Feature Selection. Proceedings of the 27th International Conference on
       Machine Learning (ICML). ``references.bib``: ``masaeli2010transformation``.
       The ℓ1-SVM baseline of its Table 1.

    Examples
    --------
    Two classes of 50 points in 8 dimensions; only columns 0 and 1 carry the class
    (:func:`fsbook.datasets.two_informative`):

    >>> import numpy as np
    >>> from fsbook.datasets import two_informative
    >>> X, y = two_informative()
    >>> from fsbook.baselines import L1SVMSelector
    >>> sel = L1SVMSelector(n_features_to_select=2, random_state=0).fit(X, y)
    >>> sel.get_support(indices=True)
    array([0, 1])
    """

    _sparse_input = "csr"
    _parameter_constraints = {
        "n_features_to_select": N_FEATURES_CONSTRAINT,
        "factor": [Interval(Real, 1, None, closed="neither")],
        "max_bisect": [Interval(Integral, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "random_state": ["random_state"],
    }

    def __init__(self, n_features_to_select=None, *, factor=2.0, max_bisect=20, max_iter=5000,
                 tol=1e-4, random_state=0):
        self.n_features_to_select = n_features_to_select
        self.factor = factor
        self.max_bisect = max_bisect
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state

    def _weights(self, X, y, C, seed, sample_weight=None):
        svc = LinearSVC(penalty="l1", dual=False, C=C, max_iter=self.max_iter, tol=self.tol,
                        random_state=seed)
        if sample_weight is None:
            svc.fit(X, y)
        else:
            if get_config()["enable_metadata_routing"]:
                svc.set_fit_request(sample_weight=True)
            svc.fit(X, y, sample_weight=sample_weight)
        self.n_iter_ += int(np.max(svc.n_iter_))
        w = np.abs(svc.coef_).max(axis=0)
        return svc.coef_, int((w > 0).sum())

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Run the C path (see module docstring).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights of the samples in the SVM's loss, the path's start and the
            features' scaling (see Notes); None weights every sample 1.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        X, codes = self._validate_classes(X, y)
        k = self._resolve_k(X.shape[1])
        # one integer seed for every fit along the path, so each fit shuffles alike
        seed = check_random_state(self.random_state).randint(np.iinfo(np.int32).max)
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, X, ensure_non_negative=True)
        Xs = _scaled(X, sample_weight)
        try:
            C = _l1_min_c(Xs, codes, sample_weight) * 1.01
        except ValueError as err:       # "Ill-posed l1_min_c calculation": X'y = 0
            raise ValueError(
                "L1SVMSelector: no feature is correlated with the labels (Xᵀy = 0 for the ±1 coding of "
                "every class, after scaling), so the ℓ1-SVM keeps no feature at any C and there is "
                "nothing to select; check X and y") from err
        self.n_iter_ = 0
        path = []
        lo = hi = None
        import warnings

        from sklearn.exceptions import ConvergenceWarning
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            for _ in range(60):
                coef, c = self._weights(Xs, codes, C, seed, sample_weight)
                path.append((C, c))
                if c >= k:
                    hi = (C, coef, c)
                    break
                lo = (C, coef, c)
                C *= self.factor
            if hi is not None and hi[2] != k and lo is not None:
                for _ in range(self.max_bisect):
                    C = float(np.sqrt(lo[0] * hi[0]))
                    coef, c = self._weights(Xs, codes, C, seed, sample_weight)
                    path.append((C, c))
                    if c < k:
                        lo = (C, coef, c)
                    else:
                        hi = (C, coef, c)
                        if c == k:
                            break
        if hi is None:
            hi = lo
        self.C_, self.coef_, count = hi
        self.exact_ = count == k
        self.path_ = path
        self._keep_top(np.abs(self.coef_).max(axis=0), k)
        return self


class SVMRFE(SupportSelectorMixin, BaseEstimator):
    """SVM recursive feature elimination (Guyon et al. 2002) via scikit-learn's RFE.

    Parameters
    ----------
    n_features_to_select : int, float in (0, 1] or None
    step : int or float, default 0.1
        Features removed per round (a fraction: of the remaining ones, as in RFE).
    C : float, default 1.0
        C of the linear SVM.
    solver : {"converged", "dual"}, default "converged"
        ``"converged"``: every SVM is solved to a tight tolerance, in the primal (liblinear's
        trust-region Newton, ``tol=1e-6``) when there are at least as many samples as features,
        else in the dual (coordinate descent, ``tol=1e-6``, up to 10⁵ passes), and each round
        removes the features of smallest weight with ties decided by
        :func:`elimination_order`.  ``"dual"``: liblinear's dual coordinate descent with its
        default tolerance and ``max_iter=10000`` (not always converged on noisy data such as
        MADELON) and RFE's own ``argsort``: the setting of the earlier stores.  On MADELON a
        one-ulp change of the data changes the latter's selections; the former's stay the same.
    random_state : int, RandomState instance or None, default 0
        Seed of liblinear's coordinate shuffling in the dual (the primal solve has no
        randomness).

    Attributes
    ----------
    ranking_ : RFE's ranking; support_ : boolean mask

    See Also
    --------
    fsbook.baselines.L1SVMSelector : an ℓ1-SVM on a ``C`` path to ``k`` features.

    Notes
    -----
    Sample weights.  ``fit`` takes ``sample_weight``: the hinge loss of every linear SVM is
    weighted (``LinearSVC``'s per-sample ``C w_i``) and the features are scaled by their weighted
    standard deviation, so integer weights give the objective of the repeated samples (liblinear
    shuffles the samples it visits, so the weights of the two fits agree to its tolerance,
    not bit for bit).  With ``sklearn.set_config(enable_metadata_routing=True)``,
    ``set_fit_request(sample_weight=True)`` routes them from a Pipeline.

    References
    ----------
    .. [1] Guyon, I., Weston, J., Barnhill, S. and Vapnik, V. (2002). Gene Selection for Cancer
       Classification using Support Vector Machines. Machine Learning, 46, 389-422.
       ``references.bib``: ``guyon2002rfe``.
    .. [2] Masaeli, M., Fung, G. and Dy, J. G. (2010). From Transformation-Based Dimensionality
       Reduction to Feature Selection. Proceedings of the 27th International Conference on
       Machine Learning (ICML). ``references.bib``: ``masaeli2010transformation``.
       A baseline of its Table 1.

    Examples
    --------
    Two classes of 50 points in 8 dimensions; only columns 0 and 1 carry the class
    (:func:`fsbook.datasets.two_informative`):

    >>> import numpy as np
    >>> from fsbook.datasets import two_informative
    >>> X, y = two_informative()
    >>> from fsbook.baselines import SVMRFE
    >>> sel = SVMRFE(n_features_to_select=2, random_state=0).fit(X, y)
    >>> sel.get_support(indices=True)
    array([0, 1])
    """

    _sparse_input = "csr"
    _parameter_constraints = {
        "n_features_to_select": N_FEATURES_CONSTRAINT,
        "step": [Interval(Integral, 1, None, closed="left"), Interval(Real, 0, 1, closed="neither")],
        "C": [Interval(Real, 0, None, closed="neither")],
        "solver": [StrOptions({"converged", "dual"})],
        "random_state": ["random_state"],
    }

    def __init__(self, n_features_to_select=None, *, step=0.1, C=1.0, solver="converged", random_state=0):
        self.n_features_to_select = n_features_to_select
        self.step = step
        self.C = C
        self.solver = solver
        self.random_state = random_state

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Eliminate features by the squared weights of a linear SVM.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights of the samples in the SVM's loss and the features' scaling
            (see Notes); None weights every sample 1.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        X, codes = self._validate_classes(X, y)
        k = self._resolve_k(X.shape[1])
        if self.solver == "converged":
            wide = X.shape[0] < X.shape[1]
            svc = LinearSVC(C=self.C, dual=wide, tol=1e-6, max_iter=100000 if wide else 10000,
                            random_state=self.random_state)
            getter = elimination_order
        else:
            svc = LinearSVC(C=self.C, max_iter=10000, random_state=self.random_state)
            getter = "auto"
        fit_params = {}
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, X, ensure_non_negative=True)
            fit_params = {"sample_weight": sample_weight}
            if get_config()["enable_metadata_routing"]:
                svc.set_fit_request(sample_weight=True)
        rfe = RFE(svc, n_features_to_select=k, step=self.step, importance_getter=getter)
        import warnings

        from sklearn.exceptions import ConvergenceWarning
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            rfe.fit(_scaled(X, sample_weight), codes, **fit_params)
        self.ranking_ = rfe.ranking_
        self.support_ = rfe.support_.copy()
        return self
