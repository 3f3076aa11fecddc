"""Rank the features of a plain matrix by a cross-validated disjunctive HKL model.

* :class:`HKLRanker` -- a feature selector: booleanise (unless the input is 0/1), fit
  :class:`~fsbook.hkl.DisjunctiveHKLCV` (one-vs-rest beyond two classes), keep the ``k``
  features of largest score;
* :func:`hkl_feature_scores` -- the score of a feature: the ℓ2 norm of the weights of the
  selected disjunctions that involve it.

Chapter 7 (:mod:`fsbook.experiments.benchmark`) uses it as HKL's selector.
"""
from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn import config_context
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted

from fsbook._compat import Interval, StrOptions, check_sample_weight, fit_context
from fsbook._cost import check_cost
from fsbook._selection import N_FEATURES_CONSTRAINT, SupportSelectorMixin
from fsbook.decisions import top_k

__all__ = ["HKLRanker", "hkl_feature_scores"]

#: bytes of the dense block of columns booleanised at a time for a sparse ``X``
INDICATOR_BLOCK_BYTES = 1 << 23


#: the measured CPU seconds of default ``HKLRanker`` fits that calibrate
#: :func:`hkl_ranker_seconds`, ``(samples, indicators, models): seconds``: standard normal
#: columns at their quartiles (3 indicators per column; the classes' means apart along a tenth of
#: the columns, as in ``benchmarks/defaults.py``)
HKL_MEASURED = {(500, 90, 1): 4.7, (500, 90, 5): 8.3, (1000, 90, 1): 4.4, (500, 180, 1): 3.8,
                (1000, 180, 1): 8.2, (2000, 90, 1): 12.9, (2000, 300, 1): 25.1}
#: default fits that took more than a minute, with their CPU seconds: KEEL's vehicle (846 × 18,
#: 4 classes) and Libras movement (360 × 90, 15 classes)
HKL_OVER_A_MINUTE = {(846, 54, 4): 62.0, (360, 270, 15): 62.4}
#: the estimate's seconds at 1 000 samples, 90 indicators and one model, and its exponents in the
#: samples, the indicators and the models
HKL_SECONDS_AT_REFERENCE, HKL_SAMPLE_GROWTH, HKL_INDICATOR_GROWTH, HKL_MODEL_GROWTH = 15.0, 1.5, 0.0, 1.3


def _growth_words():
    """How :func:`hkl_ranker_seconds` grows, in the refusal's words (a factor of exponent 0 left
    out): ``samples^1.5 x models^1.3``."""
    factors = (("samples", HKL_SAMPLE_GROWTH), ("indicators", HKL_INDICATOR_GROWTH),
               ("models", HKL_MODEL_GROWTH))
    return " x ".join(f"{name}^{power:g}" for name, power in factors if power)


def hkl_ranker_seconds(n_samples, n_indicators, n_models):
    """Estimated CPU seconds of a default :class:`HKLRanker` fit.

    ``15 s × (n / 1000)^1.5 × models^1.3``.  The time depends on the data (how far the
    cross-validated path of ``C`` climbs, how many disjunctions it opens) as much as on the size,
    so the constants are set by measured fits: each fit of :data:`HKL_MEASURED` (all under a
    minute) is estimated below a minute, within a factor of 1 to 5.2, and each of
    :data:`HKL_OVER_A_MINUTE` (over a minute) above it.  The growth in the samples comes from 500 to
    2 000 samples; the measured fits show none in the indicators (90 to 300), so they do not
    enter; the slow real data sets (vehicle, Libras movement) set the constant and the growth in
    the models.

    Examples
    --------
    >>> round(hkl_ranker_seconds(500, 90, 5))          # measured: 8.3 s
    43
    >>> round(hkl_ranker_seconds(846, 54, 4))          # vehicle; measured: 62.0 s
    71
    >>> round(hkl_ranker_seconds(5000, 900, 5))        # beyond a minute: refused
    1359
    """
    return (HKL_SECONDS_AT_REFERENCE * (n_samples / 1000) ** HKL_SAMPLE_GROWTH
            * (n_indicators / 90) ** HKL_INDICATOR_GROWTH * n_models ** HKL_MODEL_GROWTH)


def hkl_feature_scores(models, owner, n_features):
    """Score of each original feature in fitted disjunctive HKL models.

    ``score_j = sqrt(Σ_models Σ_{v ∈ disjunctions_, owner[v] ∋ j} w_v²)``: the ℓ2 norm of the
    weights ``coef_`` of the selected disjunctions ``v`` (over every model: one per class in a
    one-vs-rest fit) that contain at least one boolean indicator of feature ``j``.  A
    disjunction of two features counts fully for each; a feature no selected disjunction
    involves scores 0.

    Parameters
    ----------
    models : list of fitted DisjunctiveHKL or DisjunctiveHKLCV
    owner : array-like of int, shape (n_indicators,)
        The original feature of each boolean indicator the models were fitted on.
    n_features : int

    Returns
    -------
    ndarray of shape (n_features,)

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> m = SimpleNamespace(disjunctions_=[(0,), (1, 2)], coef_=[3.0, -4.0])
    >>> hkl_feature_scores([m], owner=[0, 1, 1], n_features=3).tolist()
    [3.0, 4.0, 0.0]
    """
    owner = np.asarray(owner, dtype=int)
    sq = np.zeros(n_features)
    for model in models:
        for v, w in zip(model.disjunctions_, model.coef_):
            sq[np.unique(owner[list(v)])] += float(w) ** 2
    return np.sqrt(sq)


class HKLRanker(SupportSelectorMixin, BaseEstimator):
    """Keep the ``k`` features of largest weight in a cross-validated disjunctive HKL model.

    Boolean input (``boolean=True``) is used as it is (0/1 required).  Otherwise every column is
    booleanised as in chapters 5–6 (the paper's Tables 4–5 run HKL on booleanised expression and
    radar values): indicators ``x > t`` at the column's quartiles
    (:func:`fsbook.booleanize.quantile_thresholds`, ``n_bins`` bins), computed on the data
    ``fit`` sees, i.e. the training fold.  One :class:`~fsbook.hkl.DisjunctiveHKLCV` (``C`` by
    its data-driven path and the inner CV ``cv``, by default stratified 3-fold seeded with
    ``random_state``) is fitted, one per class (one-vs-rest, scikit-learn's ``OneVsRestClassifier``) for more than two
    classes.  The features are ranked by :func:`hkl_feature_scores`; ``support_`` keeps the
    ``k`` largest (:func:`fsbook.decisions.top_k`, near-ties to the smaller index) **among the
    features of positive score**: when the model involves fewer than ``k`` features, only those
    are kept (``n_used_`` of them), never a filler of zero-score features.

    ``X`` may be sparse (CSR or CSC).  0/1 input stays sparse; otherwise the quartiles and
    indicators are computed a block of columns at a time (each block densified, about
    :data:`INDICATOR_BLOCK_BYTES`), giving the indicators of the dense ``X`` as a sparse
    matrix (an indicator ``x > t`` with ``t < 0`` is 1 on the zeros of ``x``, so it is dense
    in effect).  HKL works on sparse 0/1 input; the result equals that of the dense ``X``.

    Cost.  HKL explores disjunctions of the boolean indicators with a cross-validated path of
    ``C`` and one model per class beyond two, and its time grows faster than the samples: on
    5 000 × 300 with 5 classes (900 indicators × 5 models) it is estimated at more than 20
    minutes.  ``fit`` estimates the time from the number of samples and of models
    (:func:`hkl_ranker_seconds`, calibrated on measured fits, :data:`HKL_MEASURED`: 5 to 8 s on
    500 × 30 with 2 or 5 classes, 25 s on 2 000 × 100, more than a minute on vehicle, 846 × 18
    with 4 classes, and on Libras movement, 360 × 90 with 15 classes)
    and raises a ``ValueError`` at once when it exceeds
    :data:`fsbook.LIMITS <fsbook._cost.LIMITS>` (a minute of CPU): use ``n_bins=2`` (one
    indicator per feature), fewer features or rows, or raise the limit with
    :func:`fsbook.cost_limits`.

    Parameters
    ----------
    n_features_to_select : int, float or None, default=None
        ``k`` (:func:`fsbook._selection.resolve_n_features`; None keeps half).
    boolean : bool, default=False
        Whether the input is 0/1 already.
    n_bins : int, default=4
        Quantile bins of the booleanisation of non-boolean input.
    tol : float, default=1e-3
        HKL's relative duality-gap tolerance (:class:`~fsbook.hkl.DisjunctiveHKL`).
    max_active : int or None, default=None
        Budget of HKL's active set (``None``: none; the fit runs to its certificate).
    max_add : int, default=200
        Most nodes added to the active set per iteration (:class:`~fsbook.hkl.DisjunctiveHKL`);
        larger values mean fewer, larger restricted problems on the way to the same certified
        optimum.
    solver : {"working_set", "conic", "mirror", "variational"}, default="working_set"
        HKL's restricted solver (:class:`~fsbook.hkl.DisjunctiveHKL`).
    random_state : int, default=0
        Seed of the inner CV folds.
    cv : int, cross-validation generator or iterable of (train, test) splits, default=3
        The inner cross-validation of :class:`~fsbook.hkl.DisjunctiveHKLCV` (an int: that many
        stratified folds, shuffled with ``random_state``).
    tie : {"two_class", "simplest"}, default="two_class"
        How the CV breaks ties in accuracy (:class:`~fsbook.hkl.DisjunctiveHKLCV`).

    Attributes
    ----------
    models_ : list of DisjunctiveHKLCV
        One model (two classes) or one per class.
    owner_ : ndarray of int
        The original feature of each boolean indicator.
    scores_ : ndarray of shape (n_features_in_,)
    n_used_ : int
        Features of positive score.
    support_ : ndarray of bool

    See Also
    --------
    fsbook.hkl.DisjunctiveHKLCV : the cross-validated model the features are ranked by.
    fsbook.hkl.DisjunctiveHKL : disjunctive HKL at a fixed ``C``.
    fsbook.baselines.WekaSubsetSelector : the wrapper selection HKL is compared with in Table 1.

    References
    ----------
    .. [1] Non-parametric Max-margin Supervised Dimension Reduction with Disjunctive Features
       Learnt by Hierarchical Kernel Learning; authors and venue as given in the paper text
       ``shared/papers/hkl_disjunctive_dimension_reduction.txt``. ``references.bib``:
       ``hkl_disjunctive``.
    .. [2] Bach, F. (2009). Exploring Large Feature Spaces with Hierarchical Multiple Kernel
       Learning. Advances in Neural Information Processing Systems 21 (NIPS).
       ``references.bib``: ``bach2009hkl``.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = (rng.random((90, 6)) < 0.4).astype(float)
    >>> y = (X[:, 1] + X[:, 4] > 0).astype(int)
    >>> from fsbook.hkl import HKLRanker
    >>> sel = HKLRanker(2, boolean=True).fit(X, y)
    >>> sel.get_support(indices=True).tolist()
    [1, 4]
    """

    _sparse_input = ("csr", "csc")
    _parameter_constraints = {
        "n_features_to_select": N_FEATURES_CONSTRAINT,
        "boolean": ["boolean"],
        "n_bins": [Interval(Integral, 2, None, closed="left")],
        "tol": [Interval(Real, 0, 1, closed="neither")],
        "max_active": [Interval(Integral, 1, None, closed="left"), None],
        "max_add": [Interval(Integral, 1, None, closed="left")],
        "solver": [StrOptions({"conic", "mirror", "working_set", "variational"})],
        "random_state": [Interval(Integral, 0, None, closed="left")],
        "cv": ["cv_object"],
        "tie": [StrOptions({"two_class", "simplest"})],
    }

    def __init__(self, n_features_to_select=None, *, boolean=False, n_bins=4, tol=1e-3,
                 max_active=None, max_add=200, solver="working_set", random_state=0, tie="two_class",
                 cv=3):
        self.n_features_to_select = n_features_to_select
        self.boolean = boolean
        self.n_bins = n_bins
        self.tol = tol
        self.max_active = max_active
        self.max_add = max_add
        self.solver = solver
        self.random_state = random_state
        self.tie = tie
        self.cv = cv

    def _indicators(self, X, sample_weight=None):
        from fsbook.booleanize import quantile_thresholds, threshold

        qkw = {} if sample_weight is None else {"sample_weight": sample_weight}

        n = X.shape[1]
        if self.boolean:
            if not np.isin(X.data if sp.issparse(X) else X, (0.0, 1.0)).all():
                raise ValueError("HKLRanker(boolean=True) needs 0/1 features")
            return (X.tocsr() if sp.issparse(X) else X), np.arange(n)
        if sp.issparse(X):                    # a block of columns at a time, dense within it
            X = X.tocsc()
            width = max(1, INDICATOR_BLOCK_BYTES // (8 * X.shape[0]))
            thresholds, blocks = [], []
            for start in range(0, n, width):
                block = X[:, start:start + width].toarray()
                ts = quantile_thresholds(block, self.n_bins, **qkw)
                if sum(len(t) for t in ts):
                    blocks.append(sp.csr_matrix(threshold(block, ts)[0].astype(np.float64)))
                thresholds += ts
            Xb = sp.hstack(blocks, format="csr") if blocks else sp.csr_matrix((X.shape[0], 0))
        else:
            thresholds = quantile_thresholds(X, self.n_bins, **qkw)
            Xb = threshold(X, thresholds)[0].astype(np.float64)
        owner = np.repeat(np.arange(n), [len(t) for t in thresholds])
        return Xb, owner

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Booleanise ``X`` if needed, fit HKL and rank the features.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data: 0/1 with ``boolean=True``, else booleanised at its quartiles.
        y : array-like of shape (n_samples,)
            Class labels (one-vs-rest beyond two classes).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights of the samples: the quartiles of the booleanisation are the
            weighted ones (:func:`fsbook.booleanize.quantile_thresholds`, row ``i`` counted
            ``s_i`` times) and every :class:`~fsbook.hkl.DisjunctiveHKLCV` is fitted with them
            (its hinge loss and its cross-validated choice of ``C``; see its Notes).  Integer
            weights give the ranking of the repeated samples when the inner folds are the same;
            a sample of zero weight enters neither the quartiles nor the loss, but still takes
            its place in the inner folds.  None weights every sample 1.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        from sklearn.multiclass import OneVsRestClassifier

        from fsbook.hkl import DisjunctiveHKLCV

        X, codes = self._validate_classes(X, y)
        n, d = X.shape
        n_indicators = d if self.boolean else (self.n_bins - 1) * d
        n_models = 1 if len(self.classes_) == 2 else len(self.classes_)
        check_cost("HKLRanker", f"{n} samples x {d} features, {len(self.classes_)} classes",
                   seconds=hkl_ranker_seconds(n, n_indicators, n_models),
                   why=f"a cross-validated disjunctive HKL model on up to {n_indicators} boolean "
                       f"indicators, {n_models} model(s) (one per class beyond two), grows as "
                       f"{_growth_words()}",
                   fix="fit on fewer rows (a subsample), use fewer indicators (n_bins=2: one per "
                       "feature; or select features first), or booleanised input with boolean=True")
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, X, dtype=np.float64,
                                                ensure_non_negative=True)
        Xb, self.owner_ = self._indicators(X, sample_weight)
        hkl = DisjunctiveHKLCV(cv=self.cv, random_state=self.random_state, tol=self.tol,
                               max_active=self.max_active, max_add=self.max_add, solver=self.solver,
                               binarize=None, tie=self.tie)
        with warnings.catch_warnings():
            # an uncertified fit (active-set budget reached) keeps its model; the scores use it
            warnings.simplefilter("ignore", ConvergenceWarning)
            if sample_weight is None and len(self.classes_) == 2:
                self.models_ = [hkl.fit(Xb, codes)]
            elif sample_weight is None:
                self.models_ = list(OneVsRestClassifier(hkl).fit(Xb, codes).estimators_)
            elif len(self.classes_) == 2:
                self.models_ = [hkl.fit(Xb, codes, sample_weight=sample_weight)]
            else:
                # one-vs-rest with the weights routed to every binary fit
                with config_context(enable_metadata_routing=True):
                    ovr = OneVsRestClassifier(hkl.set_fit_request(sample_weight=True))
                    self.models_ = list(ovr.fit(Xb, codes, sample_weight=sample_weight).estimators_)
        self.scores_ = hkl_feature_scores(self.models_, self.owner_, X.shape[1])
        self.n_used_ = int(np.count_nonzero(self.scores_ > 0))
        self.support_ = self.support_at(self._resolve_k(X.shape[1]))
        return self

    def support_at(self, k):
        """Mask of the ``min(k, n_used_)`` features of largest score (the fit's rule at ``k``)."""
        check_is_fitted(self, "scores_")
        mask = np.zeros(self.scores_.size, dtype=bool)
        mask[top_k(self.scores_, min(int(k), self.n_used_))] = True
        return mask
