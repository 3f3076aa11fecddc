"""Weka's ``LibSVM`` classifier with its default settings, as a scikit-learn estimator.

What Weka does to a data set before libsvm sees it (``weka.classifiers.functions.LibSVM``,
``buildClassifier``, default options ``-S 0 -K 2 -D 3 -G 0.0 -C 1.0 -E 0.001``, no ``-Z``):

1. ``ReplaceMissingValues`` (unsupervised): a missing value becomes the training mean of its
   numeric attribute or the training mode of its nominal attribute (the first most frequent
   value; an attribute with no observed value gets 0, respectively its first value);
2. ``NominalToBinary`` (unsupervised, defaults): a nominal attribute with more than two declared
   values becomes one 0/1 indicator per declared value, in place; one with at most two values
   stays one column (its code, 0 or 1); numeric attributes are kept unscaled (no ``-Z``);
3. libsvm's C-SVC with the RBF kernel ``exp(−γ‖u − v‖²)``, ``C = 1``, tolerance ``1e-3``,
   shrinking on, and ``γ = 1 / max_index`` where ``max_index`` is the largest (1-based) column
   holding a non-zero value in some training example (= the number of columns after step 2
   unless the last columns are zero on every training example).

scikit-learn's :class:`~sklearn.svm.SVC` wraps the same libsvm solver, so step 3 is ``SVC`` with
these settings; steps 1–2 are written here, in the few lines that state Weka's rules.  Step 1
equals scikit-learn's ``SimpleImputer`` (``"mean"`` on numeric and ``"most_frequent"`` on nominal
columns, ``keep_empty_features=True``; a test checks it), and
``OneHotEncoder(categories=<declared levels>, drop="if_binary")`` gives step 2's columns for
attributes of two or more declared values; it differs on an attribute with one declared value
(a column of ones, where Weka keeps its code, a column of zeros).  Checked against Weka's own
filters in ``tests/test_baselines_weka.py``.

Sparse ``X`` is refused with a message (both estimators): the filters are written for a dense
table (a missing value is a NaN cell, a nominal column a column of codes), the form in which the
paper's data reached Weka; ``X.toarray()`` densifies a sparse ``X`` that fits in memory.
"""
from __future__ import annotations

import math
from numbers import Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin, clone
from sklearn.svm import SVC
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from fsbook._compat import Interval, check_feature_names_in, fit_context

__all__ = ["WekaLibSVM", "WekaFilters", "weka_fill_values", "weka_nominal_to_binary", "libsvm_input",
           "SPARSE_SHARE"]


def _refuse_sparse(estimator, X):
    """TypeError for a sparse ``X``: Weka's two filters are reproduced on a dense table."""
    if sp.issparse(X):
        raise TypeError(
            f"{type(estimator).__name__} does not accept sparse X: it reproduces Weka's "
            "ReplaceMissingValues and NominalToBinary on a dense table (a missing value is a NaN "
            "cell, a nominal column a column of codes), as Weka's LibSVM ran on the paper's data; "
            "densify with X.toarray() if it fits in memory, or for sparse numeric data without "
            "missing values use sklearn.svm.SVC(kernel='rbf', gamma=1 / n_features), the same "
            "libsvm solver, which takes sparse X")


#: the largest share of non-zero cells at which :class:`WekaLibSVM` hands libsvm a sparse copy of
#: its filtered table (see :func:`libsvm_input`); a speed setting only, the fit being the same
SPARSE_SHARE = 0.1


def libsvm_input(Z):
    """The filtered table ``Z`` as :class:`WekaLibSVM` gives it to libsvm: a CSR copy when at most
    :data:`SPARSE_SHARE` of its cells are non-zero and every cell is an integer, else ``Z`` itself.

    libsvm computes an RBF kernel value from dot products (``‖u − v‖² = u·u + v·v − 2 u·v``), by
    BLAS over every column for a dense table and over the non-zeros for a sparse one.  On integer
    cells whose squares summed over a row stay below ``2**53`` every product and partial sum is an
    exact integer, so both give the same kernel values bit for bit, and so the same fit; the
    sparse one only skips the zeros (a 0/1 word table of 20 Newsgroups: fits 5.8 times, predictions
    11 times faster).  Real-valued cells keep the dense table, whose sums BLAS may order otherwise.

    Examples
    --------
    >>> import numpy as np
    >>> type(libsvm_input(np.eye(20))).__name__, type(libsvm_input(0.5 * np.eye(20))).__name__
    ('csr_matrix', 'ndarray')
    """
    if Z.size == 0 or np.count_nonzero(Z) > SPARSE_SHARE * Z.size or not _integer_exact(Z, headroom=1.0):
        return Z
    return sp.csr_matrix(Z)


def weka_fill_values(X, nominal):
    """Values that Weka's ``ReplaceMissingValues`` puts in place of NaN, column by column.

    Numeric columns: the mean of the observed values (0 if none).  Nominal columns (integer
    codes): the most frequent observed code, the smallest one on ties (0 if none).

    Examples
    --------
    >>> weka_fill_values(np.array([[1.0, 2.0], [np.nan, 0.0], [3.0, 0.0], [3.0, 2.0]]),
    ...                  np.array([False, True])).tolist()
    [2.3333333333333335, 0.0]
    """
    fill = np.zeros(X.shape[1])
    for j in range(X.shape[1]):
        seen = X[~np.isnan(X[:, j]), j]
        if seen.size == 0:
            continue
        if nominal[j]:
            fill[j] = np.bincount(seen.astype(np.int64)).argmax()   # first maximum
        else:
            fill[j] = seen.mean()
    return fill


def weka_nominal_to_binary(X, nominal, n_levels):
    """Weka's unsupervised ``NominalToBinary`` (defaults) of a matrix without missing values.

    Parameters
    ----------
    X : array (m, n); nominal columns hold codes ``0..n_levels[j]-1``
    nominal : bool array (n,)
    n_levels : int array (n,), the declared number of values of each nominal column

    Returns
    -------
    array (m, n'): a nominal column with ``L > 2`` values becomes ``L`` indicator columns in
    place; the other columns are copied

    Examples
    --------
    >>> weka_nominal_to_binary(np.array([[2.0, 1.0, 0.5]]), np.array([True, True, False]),
    ...                        np.array([3, 2, 0])).tolist()
    [[0.0, 0.0, 1.0, 1.0, 0.5]]
    """
    blocks = []
    for j in range(X.shape[1]):
        col = X[:, j]
        if nominal[j] and n_levels[j] > 2:
            codes = col.astype(np.int64)
            if np.any(codes != col) or codes.min() < 0 or codes.max() >= n_levels[j]:
                raise ValueError(f"column {j}: nominal codes must be integers in "
                                 f"0..{n_levels[j] - 1}")
            blocks.append((codes[:, None] == np.arange(n_levels[j])[None, :]).astype(np.float64))
        else:
            blocks.append(col[:, None])
    return np.hstack(blocks)


def _resolve_nominal(X, nominal, n_levels):
    """The boolean nominal mask and the declared number of levels of each column (``None``: all
    numeric; one more than the largest code seen)."""
    n = X.shape[1]
    nominal = np.zeros(n, dtype=bool) if nominal is None else np.asarray(nominal)
    if nominal.dtype != bool or nominal.shape != (n,):
        raise ValueError(f"nominal must be a boolean array of length {n}")
    if n_levels is None:
        top = np.max(np.where(np.isnan(X), -1.0, X), axis=0) if X.shape[0] else np.zeros(n)
        n_levels = np.where(nominal, top.astype(np.int64) + 1, 0)
    else:
        n_levels = np.asarray(n_levels, dtype=np.int64)
        if n_levels.shape != (n,):
            raise ValueError(f"n_levels must have length {n}")
    return nominal, n_levels


class WekaFilters(TransformerMixin, BaseEstimator):
    """Weka's ``ReplaceMissingValues`` then ``NominalToBinary``, the steps Weka's LibSVM runs
    before libsvm; their statistics come from ``fit``.

    Parameters
    ----------
    nominal : bool array (n_features,) or None, default None
        Nominal columns (integer codes); None = all numeric.
    n_levels : int array (n_features,) or None, default None
        Declared number of values of each nominal column; None = one more than the largest code
        seen in training.

    Attributes
    ----------
    fill_ : float array (n_features,), the values that replace NaN
    nominal_, n_levels_, n_features_in_

    See Also
    --------
    fsbook.baselines.WekaLibSVM : these filters followed by libsvm's RBF C-SVC.
    fsbook.baselines.WekaSubsetSelector : Weka's attribute-subset selection.

    References
    ----------
    .. [1] Hall, M., Frank, E., Holmes, G., Pfahringer, B., Reutemann, P. and Witten, I. H.
       (2009). The WEKA Data Mining Software: An Update. SIGKDD Explorations, 11(1), 10-18.
       ``references.bib``: ``hall2009weka``.

    Examples
    --------
    >>> X = np.array([[0.0, 1.0], [2.0, np.nan], [1.0, 3.0]])
    >>> WekaFilters(nominal=np.array([True, False])).fit_transform(X).tolist()
    [[1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 2.0], [0.0, 1.0, 0.0, 3.0]]

    The nominal column with three levels became three indicator columns, named as
    :class:`~sklearn.preprocessing.OneHotEncoder` names them:

    >>> WekaFilters(nominal=np.array([True, False])).fit(X).get_feature_names_out().tolist()
    ['x0_0', 'x0_1', 'x0_2', 'x1']
    """

    _parameter_constraints = {"nominal": ["array-like", None], "n_levels": ["array-like", None]}

    def __init__(self, nominal=None, n_levels=None):
        self.nominal = nominal
        self.n_levels = n_levels

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Learn the replacement values (mean or mode) and the levels of the nominal columns.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data (dense; NaN allowed).
        y : None
            Ignored.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        _refuse_sparse(self, X)
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan")
        self.nominal_, self.n_levels_ = _resolve_nominal(X, self.nominal, self.n_levels)
        self.fill_ = weka_fill_values(X, self.nominal_)
        return self

    def transform(self, X):
        """Replace NaN by the training values, then one-hot encode the nominal columns.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples (dense; NaN allowed).

        Returns
        -------
        ndarray of shape (n_samples, n_features_out)
            A nominal column with ``L > 2`` levels becomes ``L`` indicator columns in place; the
            other columns are copied.
        """
        check_is_fitted(self, "fill_")
        _refuse_sparse(self, X)
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan", reset=False)
        return weka_nominal_to_binary(np.where(np.isnan(X), self.fill_[None, :], X), self.nominal_,
                                      self.n_levels_)

    def get_feature_names_out(self, input_features=None):
        """Names of the output columns of :meth:`transform`.

        A numeric column, and a nominal one with at most two levels (``NominalToBinary`` keeps
        it as one column), keeps its input name; a nominal column ``f`` with ``L > 2`` levels
        becomes ``f_0, ..., f_{L-1}``, one indicator per code, in place (as
        :class:`~sklearn.preprocessing.OneHotEncoder` names its columns).

        Parameters
        ----------
        input_features : array-like of str or None, default=None
            Input feature names; default ``feature_names_in_`` if ``fit`` saw a DataFrame, else
            ``x0, x1, ...``.

        Returns
        -------
        ndarray of str objects, one per output column

        Examples
        --------
        >>> X = np.array([[0.0, 1.0, 1.0], [2.0, 0.0, 3.0], [1.0, 1.0, 2.0]])
        >>> filters = WekaFilters(nominal=np.array([True, True, False])).fit(X)
        >>> filters.get_feature_names_out(["colour", "binary", "size"]).tolist()
        ['colour_0', 'colour_1', 'colour_2', 'binary', 'size']
        >>> filters.transform(X).shape
        (3, 5)
        """
        check_is_fitted(self, "fill_")
        names = check_feature_names_in(self, input_features)
        out = []
        for name, nominal, levels in zip(names, self.nominal_, self.n_levels_):
            out += [f"{name}_{v}" for v in range(levels)] if nominal and levels > 2 else [name]
        return np.asarray(out, dtype=object)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags


class WekaLibSVM(ClassifierMixin, BaseEstimator):
    """Weka's ``LibSVM`` with default options: impute, nominal to binary, RBF C-SVC (``C = 1``).

    Parameters
    ----------
    nominal : bool array (n_features,) or None, default None
        Nominal columns (integer codes); None = all numeric.
    n_levels : int array (n_features,) or None, default None
        Declared number of values of each nominal column (as in the ARFF header); None = one
        more than the largest code seen in training.
    C : float, default 1.0
    gamma : float or None, default None
        None = Weka's default ``1 / max_index`` (module docstring); a number fixes it (for a
        tuned row).

    Attributes
    ----------
    fill_ : float array (n_features,), the values that replace NaN
    gamma_ : float, the RBF width used
    svc_ : fitted :class:`~sklearn.svm.SVC`
    classes_, n_features_in_

    See Also
    --------
    fsbook.baselines.WekaFilters : the two filters alone, as a transformer.
    fsbook.baselines.WekaSubsetSelector : Weka's attribute-subset selection, the wrapper rows
        of Table 1 of [2]_ (where this classifier is the "L2" row on all the attributes).

    References
    ----------
    .. [1] Hall, M., Frank, E., Holmes, G., Pfahringer, B., Reutemann, P. and Witten, I. H.
       (2009). The WEKA Data Mining Software: An Update. SIGKDD Explorations, 11(1), 10-18.
       ``references.bib``: ``hall2009weka``.
    .. [2] Non-parametric Max-margin Supervised Dimension Reduction with Disjunctive Features
       Learnt by Hierarchical Kernel Learning; authors and venue as given in the paper text
       ``shared/papers/hkl_disjunctive_dimension_reduction.txt``. ``references.bib``:
       ``hkl_disjunctive``.
    .. [3] Chang, C.-C. and Lin, C.-J. (2011). LIBSVM: A library for support vector machines.
       ACM Transactions on Intelligent Systems and Technology (not in ``references.bib``).

    Examples
    --------
    >>> X = np.array([[0.0, 1.0], [1.0, np.nan], [0.0, 0.0], [1.0, 0.0]])
    >>> clf = WekaLibSVM(nominal=np.array([True, False])).fit(X, [0, 1, 0, 1])
    >>> clf.fill_.tolist(), clf.gamma_
    ([0.0, 0.3333333333333333], 0.5)
    """

    _parameter_constraints = {
        "nominal": ["array-like", None],
        "n_levels": ["array-like", None],
        "C": [Interval(Real, 0, None, closed="neither")],
        "gamma": [Interval(Real, 0, None, closed="neither"), None],
    }

    def __init__(self, nominal=None, n_levels=None, C=1.0, gamma=None):
        self.nominal = nominal
        self.n_levels = n_levels
        self.C = C
        self.gamma = gamma

    def _transform(self, X):
        X = np.where(np.isnan(X), self.fill_[None, :], X)
        return weka_nominal_to_binary(X, self.nominal_, self.n_levels_)

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit on ``(X, y)``; ``X`` may have missing values (NaN).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data (dense; NaN allowed).
        y : array-like of shape (n_samples,)
            Class labels.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        _refuse_sparse(self, X)
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_all_finite="allow-nan")
        check_classification_targets(y)
        self.nominal_, self.n_levels_ = _resolve_nominal(X, self.nominal, self.n_levels)
        self.fill_ = weka_fill_values(X, self.nominal_)
        Z = self._transform(X)
        if self.gamma is None:
            nonzero = np.flatnonzero((Z != 0).any(axis=0))
            self.gamma_ = 1.0 / (int(nonzero[-1]) + 1) if nonzero.size else 1.0
        else:
            self.gamma_ = float(self.gamma)
        self.svc_ = SVC(C=self.C, kernel="rbf", gamma=self.gamma_, tol=1e-3, shrinking=True)
        self.svc_.fit(libsvm_input(Z), y)       # sparse when that is the same fit, faster
        self.classes_ = self.svc_.classes_
        return self

    def decision_function(self, X):
        check_is_fitted(self, "svc_")
        _refuse_sparse(self, X)
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan", reset=False)
        return self.svc_.decision_function(self._transform(X))

    def predict(self, X):
        """Class labels of ``X`` after the training data's filters.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples (dense; NaN allowed).

        Returns
        -------
        ndarray of shape (n_samples,)
            Predicted labels.
        """
        check_is_fitted(self, "svc_")
        _refuse_sparse(self, X)
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan", reset=False)
        return self.svc_.predict(self._transform(X))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags


def _squared_distances(Z):
    """Every pair's ``‖u − v‖²`` of the rows of an integer table ``Z``, as libsvm forms them in
    training (``u·u + v·v − 2 u·v``): exact integers under :func:`_integer_exact`."""
    S = sp.csr_matrix(Z)
    square = np.asarray(S.multiply(S).sum(axis=1), dtype=np.float64).ravel()
    return (square[:, None] + square[None, :]) - 2.0 * (S @ S.T).toarray()


def _integer_exact(Z, headroom=4.0):
    """True when every cell of ``Z`` is an integer and ``headroom × max|z|² × columns < 2**53``:
    every sum of that many products of two cells is then an exact integer in float64 (1: a row's
    dot products, as :func:`libsvm_input` needs; 4: a squared distance ``‖u − v‖²`` and its
    partial sums, as :class:`SharedDistanceSearch` needs)."""
    if Z.size == 0:
        return False
    top = float(np.abs(Z).max())
    return headroom * top * top * Z.shape[1] < 2.0 ** 53 and np.array_equal(Z, np.rint(Z))


class _RBFOnSquaredDistances(ClassifierMixin, BaseEstimator):
    """libsvm's RBF C-SVC on a table of squared distances (rows: samples, columns: training
    samples): ``SVC(kernel="precomputed")`` on ``exp(−γ D)``, each value through the C library's
    ``exp`` as libsvm computes its own."""

    def __init__(self, C=1.0, gamma=1.0):
        self.C = C
        self.gamma = gamma

    def _kernel(self, D):
        values, where = np.unique(D, return_inverse=True)
        g = float(self.gamma)
        return np.array([math.exp(-g * v) for v in values.tolist()])[where].reshape(D.shape)

    def fit(self, D, y):
        self.svc_ = SVC(C=self.C, kernel="precomputed", tol=1e-3, shrinking=True).fit(self._kernel(D), y)
        self.classes_ = self.svc_.classes_
        return self

    def predict(self, D):
        return self.svc_.predict(self._kernel(D))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = True
        return tags


class SharedDistanceSearch(ClassifierMixin, BaseEstimator):
    """A grid search over :class:`WekaLibSVM`'s ``C`` and ``γ`` that computes the filtered table's
    squared distances once instead of once per grid point and fold; the same search, faster.

    libsvm's RBF kernel is ``exp(−γ‖u − v‖²)``.  When Weka's filters do the same thing on every
    inner training part (no missing value, every nominal column's levels declared) and the
    filtered table holds integers (a 0/1 word table, say), every ``‖u − v‖²`` is an exact
    integer, so computing them once for all pairs and handing libsvm ``exp(−γ D)`` as a
    precomputed kernel gives it the kernel values it would compute, bit for bit, and so the same
    fits, scores and choice (a test checks ``cv_results_`` against the plain search).  Otherwise
    ``search`` runs as it is.  The chosen model is refitted as a :class:`WekaLibSVM` on ``X``, so
    predictions are the plain search's.

    Parameters
    ----------
    search : sklearn.model_selection.GridSearchCV
        An unfitted search whose estimator is a :class:`WekaLibSVM` and whose grid (one dict)
        names ``C`` and ``gamma`` only, e.g. from :func:`fsbook.model_selection.tuned_svm`.

    Attributes
    ----------
    search_ : the fitted search (on the squared distances when they are shared)
    shared_ : bool, whether the distances were shared
    best_params_, cv_results_, best_estimator_ (a fitted :class:`WekaLibSVM`), classes_

    Examples
    --------
    >>> from fsbook.model_selection import tuned_svm
    >>> rng = np.random.default_rng(0)
    >>> X = (rng.random((60, 30)) < 0.2).astype(float)
    >>> y = (X[:, :3].sum(axis=1) > 0).astype(int)
    >>> grid = {"C": [0.1, 10.0], "gamma": [0.01, 0.1]}
    >>> fast = SharedDistanceSearch(tuned_svm(WekaLibSVM(), grid, seed=0)).fit(X, y)
    >>> plain = tuned_svm(WekaLibSVM(), grid, seed=0).fit(X, y)
    >>> fast.shared_, fast.best_params_ == plain.best_params_
    (True, True)
    >>> bool(np.array_equal(fast.cv_results_["mean_test_score"], plain.cv_results_["mean_test_score"]))
    True
    """

    def __init__(self, search):
        self.search = search

    def _can_share(self, X):
        est, grid = self.search.estimator, self.search.param_grid
        if type(est) is not WekaLibSVM or not isinstance(grid, dict) or not set(grid) <= {"C", "gamma"}:
            return False
        gammas = grid.get("gamma", [est.gamma])
        fold_free = est.nominal is None or est.n_levels is not None
        return fold_free and None not in gammas and not np.isnan(X).any()

    def fit(self, X, y):
        """Run the search on ``(X, y)`` (as :meth:`WekaLibSVM.fit` takes them) and refit its
        choice as a :class:`WekaLibSVM`; returns ``self``."""
        _refuse_sparse(self, X)
        X = np.asarray(X, dtype=np.float64)
        est = self.search.estimator
        Z = WekaFilters(est.nominal, est.n_levels).fit_transform(X) if self._can_share(X) else None
        self.shared_ = Z is not None and _integer_exact(Z)
        if self.shared_:
            self.search_ = clone(self.search).set_params(estimator=_RBFOnSquaredDistances())
            self.search_.fit(_squared_distances(Z), y)
            self.best_estimator_ = clone(est).set_params(**self.search_.best_params_).fit(X, y)
        else:
            self.search_ = clone(self.search).fit(X, y)
            self.best_estimator_ = self.search_.best_estimator_
        self.best_params_, self.cv_results_ = self.search_.best_params_, self.search_.cv_results_
        self.classes_ = self.best_estimator_.classes_
        return self

    def predict(self, X):
        """Class labels of ``X`` (as :meth:`WekaLibSVM.predict` takes it) by the refitted choice."""
        check_is_fitted(self, "best_estimator_")
        return self.best_estimator_.predict(X)
