"""Weka's attribute-subset selection as one scikit-learn selector.

``WekaSubsetSelector(evaluator, search)`` combines an evaluator (``"cfs"``, ``"consistency"``,
``"filtered"``) with a search (``"best_first"``, ``"greedy_stepwise"``, ``"linear_forward"``,
``"rank_search"``, ``"subset_size_forward"``): the fifteen configurations of the paper's Table 1.
Numeric columns are discretised by Fayyad–Irani MDL on the training data
(:mod:`fsbook.baselines.mdl`), nominal ones (``discrete_features``) are used as given, the search
runs, and the evaluator post-processes the result (CFS adds locally predictive attributes), as
Weka's ``AttributeSelection`` does.

Missing values (NaN) are accepted where Weka 3.9 accepts them with the same result: CFS (and the
filtered evaluator, CFS on the same rows) spreads their counts over the observed values
(``CfsSubsetEval``'s default ``missingSeparate = false``), as does the gain-ratio ranking of
``rank_search``; the consistency evaluator counts a missing value as a value of its own
(``ConsistencySubsetEval``); numeric columns are discretised on their observed values.  A missing
class is refused (Weka would drop the row: drop it before fitting).

Sparse ``X`` is refused with a message: the evaluators count over a table of nominal values,
every numeric column discretised into interval codes (a dense ``n × d`` table whatever the input).
"""
from __future__ import annotations

from numbers import Integral

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator

from fsbook._compat import Interval, StrOptions, fit_context
from fsbook._selection import SupportSelectorMixin
from fsbook.baselines.mdl import discretize
from fsbook.baselines.subset_evaluators import (
    CfsEvaluator,
    ConsistencyEvaluator,
    _class_tables,
    gain_ratio,
    spread_subsample,
)
from fsbook.baselines.subset_search import (
    best_first,
    greedy_stepwise,
    linear_forward_selection,
    rank_search,
    subset_size_forward_selection,
)

__all__ = ["WekaSubsetSelector", "EVALUATORS", "SEARCHES"]

EVALUATORS = ("cfs", "consistency", "filtered")
SEARCHES = ("best_first", "greedy_stepwise", "linear_forward", "rank_search", "subset_size_forward")


def gain_ratio_ranking(codes, levels, y, n_classes):
    """Weka's ``Ranker`` over ``GainRatioAttributeEval``: best first; ties in reverse index order
    (Weka sorts the merits ascending and reads the sorted list backwards)."""
    ratios = gain_ratio(_class_tables(codes, levels, y, n_classes))
    return np.argsort(ratios, kind="stable")[::-1]


class WekaSubsetSelector(SupportSelectorMixin, BaseEstimator):
    """Attribute-subset selection with Weka's evaluators and searches (Weka 3.9 defaults).

    Parameters
    ----------
    evaluator : {"cfs", "consistency", "filtered"}, default "cfs"
        ``CfsSubsetEval`` (locally predictive on), ``ConsistencySubsetEval``, or
        ``FilteredSubsetEval`` (CFS on the rows kept by ``SpreadSubsample``, spread 0 = all;
        Weka's ``FilteredSubsetEval`` does not forward ``postProcess``, so no locally predictive
        attributes are added: the subset the search found).
    search : {"best_first", "greedy_stepwise", "linear_forward", "rank_search",
        "subset_size_forward"}, default "best_first"
    discrete_features : bool or array of bool (n_features,), default False
        Columns to treat as nominal (not discretised); the others are numeric.
    max_stale : int, default 5
        Non-improving expansions allowed (BestFirst ``-N``, LinearForwardSelection ``-D``).
    n_used : int, default 50
        Top-ranked attributes used by the linear forward searches (``-K``).
    random_state : int, default 1
        Seed of the folds of ``subset_size_forward`` (Weka's ``-S 1``).

    Attributes
    ----------
    support_ : bool array (n_features_in_,)
    selected_ : int array, indices of the selected attributes
    merit_ : float, evaluator merit of the searched subset (before post-processing)
    n_features_in_, feature_names_in_ (if given)

    See Also
    --------
    fsbook.hkl.HKLRanker : disjunctive HKL as a feature selector, which Table 1 of [1]_ compares
        with these wrappers.
    fsbook.baselines.WekaLibSVM : Weka's default LibSVM, the "L2" classifier of the same table on
        all the attributes.

    References
    ----------
    .. [1] Non-parametric Max-margin Supervised Dimension Reduction with Disjunctive Features
       Learnt by Hierarchical Kernel Learning; authors and venue as given in the paper text
       ``shared/papers/hkl_disjunctive_dimension_reduction.txt``. ``references.bib``:
       ``hkl_disjunctive``. Its Table 1 runs the fifteen evaluator × search configurations.
    .. [2] Hall, M. A. (1999). Correlation-based Feature Selection for Machine Learning. PhD
       thesis, University of Waikato. ``references.bib``: ``hall1999cfs``.
    .. [3] Liu, H. and Setiono, R. (1996). A Probabilistic Approach to Feature Selection -- A
       Filter Solution. Proceedings of the 13th International Conference on Machine Learning,
       319-327. ``references.bib``: ``liu1996consistency``.
    .. [4] Gütlein, M., Frank, E., Hall, M. and Karwath, A. (2009). Large-scale attribute
       selection using wrappers. IEEE Symposium on Computational Intelligence and Data Mining,
       332-339. ``references.bib``: ``gutlein2009lfs``.
    .. [5] Fayyad, U. M. and Irani, K. B. (1993). Multi-Interval Discretization of
       Continuous-Valued Attributes for Classification Learning. Proceedings of the 13th
       International Joint Conference on Artificial Intelligence, 1022-1027.
       ``references.bib``: ``fayyad1993mdl``.
    .. [6] Hall, M., Frank, E., Holmes, G., Pfahringer, B., Reutemann, P. and Witten, I. H.
       (2009). The WEKA Data Mining Software: An Update. SIGKDD Explorations, 11(1), 10-18.
       ``references.bib``: ``hall2009weka``.

    Examples
    --------
    Two classes of 50 points in 8 dimensions; only columns 0 and 1 carry the class
    (:func:`fsbook.datasets.two_informative`):

    >>> import numpy as np
    >>> from fsbook.datasets import two_informative
    >>> X, y = two_informative()
    >>> from fsbook.baselines import WekaSubsetSelector
    >>> sel = WekaSubsetSelector(evaluator="cfs", search="best_first").fit(X, y)
    >>> sel.get_support(indices=True)
    array([0, 1])
    """

    _allow_nan = True
    _parameter_constraints = {
        "evaluator": [StrOptions(set(EVALUATORS))],
        "search": [StrOptions(set(SEARCHES))],
        "discrete_features": ["boolean", "array-like"],
        "max_stale": [Interval(Integral, 1, None, closed="left")],
        "n_used": [Interval(Integral, 1, None, closed="left")],
        "random_state": [Interval(Integral, 0, None, closed="left")],
    }

    def __init__(self, evaluator="cfs", search="best_first", discrete_features=False,
                 max_stale=5, n_used=50, random_state=1):
        self.evaluator = evaluator
        self.search = search
        self.discrete_features = discrete_features
        self.max_stale = max_stale
        self.n_used = n_used
        self.random_state = random_state

    def _discrete_mask(self, n):
        d = self.discrete_features
        if isinstance(d, (bool, np.bool_)):
            return np.full(n, bool(d))
        d = np.asarray(d)
        if d.dtype != bool or d.shape != (n,):
            raise ValueError(f"discrete_features must be a bool or a boolean array of length {n}")
        return d

    def _build(self, X, y, n_classes, discrete, rows):
        if self.evaluator == "filtered":
            rows = rows[spread_subsample(y[rows], 0.0, self.random_state)]
        codes, levels, _ = discretize(X[rows], y[rows], discrete)
        if self.evaluator == "consistency":
            return ConsistencyEvaluator(codes, levels, y[rows], n_classes)
        # FilteredSubsetEval does not pass postProcess on to its evaluator (Weka's source, every
        # stored version): no locally predictive attributes after the search
        return CfsEvaluator(codes, levels, y[rows], n_classes,
                            locally_predictive=self.evaluator == "cfs")

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Search the subset on ``(X, y)``; ``X`` may have missing values (NaN), ``y`` may not.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data (dense; NaN allowed).
        y : array-like of shape (n_samples,)
            Class labels (no missing value).

        Returns
        -------
        self : object
            The fitted estimator.
        """
        if sp.issparse(X):
            raise TypeError(
                f"{type(self).__name__} does not accept sparse X: Weka's evaluators count over a "
                "table of nominal values, every numeric column discretised (Fayyad-Irani MDL) into "
                "interval codes, a dense n x d table whatever the input; densify with X.toarray() "
                "if it fits in memory, or choose a selector that takes sparse X (the capability "
                "table, fsbook.capabilities.capability_table), e.g. Relief or HSFS")
        X, y_codes = self._validate_classes(X, y)
        discrete = self._discrete_mask(X.shape[1])
        n_classes = self.classes_.size
        rows = np.arange(X.shape[0])
        ev = self._build(X, y_codes, n_classes, discrete, rows)
        if self.search == "best_first":
            found = best_first(ev, self.max_stale)
        elif self.search == "greedy_stepwise":
            found = greedy_stepwise(ev)
        elif self.search == "linear_forward":
            found = linear_forward_selection(ev, self.n_used, self.max_stale)
        elif self.search == "rank_search":
            codes, levels, _ = discretize(X, y_codes, discrete)
            found = rank_search(ev, gain_ratio_ranking(codes, levels, y_codes, n_classes))
        else:
            found = subset_size_forward_selection(
                lambda r: self._build(X, y_codes, n_classes, discrete, r), X.shape[0], y_codes,
                n_used=self.n_used, random_state=self.random_state)
        self.merit_ = float(ev.merit(found))
        self.selected_ = ev.post_process(found)
        self.support_ = np.zeros(X.shape[1], dtype=bool)
        self.support_[self.selected_] = True
        return self
