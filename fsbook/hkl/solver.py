"""Active-set solver for disjunctive HKL (paper eqs. (1)–(9), Figure 1).

Problem (1): ``min_{w,b,ξ} ½ Ω(w)² + C 1ᵀξ`` with ``Ω(w) = Σ_v δ_v ||w_{D(v)}||_p``
and margin constraints ``y_i(Σ_v w_v ψ_v(x_i) + b) ≥ 1 − ξ_i`` (``y_i = ±1``; the
paper prints ``y ∈ {0, 1}`` and ``− b``).  Its dual is
``max_{α∈τ(y,C)} 1ᵀα − ½ Ω*(s(α))²`` with ``s_u(α) = Σ_i α_i y_i ψ_u(x_i)``.

Sample weights (``HKLProblem(..., sample_weight=s)``) make the loss ``C Σ_i s_i ξ_i``: the only
change to the dual is the box, ``τ(y, C s) = {0 ≤ α_i ≤ C s_i, yᵀα = 0}`` (per-sample costs, as
libsvm's weighted SVM).  The dual objective, ``Ω*``, the sufficiency condition (a function of
``s(α)`` alone) and the dual lower bound at ``κα`` (``κ ∈ [0, 1]`` keeps ``κα`` in any box
``[0, C s_i]``) are unchanged; the primal value of the certificate is the weighted one
(:meth:`HKLProblem.loss`), and every restricted solver solves the weighted restricted problem.

Dual norm.  With ``q = p/(p−1)`` and ``p̄ = q/2 = p/(2(p−1))``,

    Ω*(s)^q = max_{η∈Δ} F_s(η),   F_s(η) = Σ_u ζ_u(η) |s_u|^q,
    ζ_u(η) = (Σ_{v∈A(u)} δ_v^p η_v^{1−p})^{1/(1−p)},

and every ``η`` gives the decomposition ``s = Σ_v ξ^v``, ``ξ^v_u = s_u π_{vu}``,
``π_{vu} = δ_v^p η_v^{1−p} ζ_u^{p−1}``, whose block norms
``B_v = ||ξ^v||_q / δ_v`` satisfy ``B_v^q = ∂F_s/∂η_v`` and ``Ω*(s) ≤ max_v B_v``.

Reduced dual (8)–(9).  On an active (hull-closed) set ``A`` the solver minimises
``g(η) = max_α 1ᵀα − ½ (Σ_u ζ_u(η) a_u^{p̄})^{1/p̄}``, ``a_u = s_u²``, over the
simplex by entropic mirror descent; each evaluation of ``g`` is an SVM with the
precomputed kernel ``Σ_u σ_u K_u`` (``σ = ζ`` for ``p = 2``; for ``p < 2`` a
short fixed-point loop of SVMs, the analytic ℓ_p̄ multiple-kernel update).
By Danskin's theorem ``∂g/∂η_v = −(1/(2p̄)) H^{1/p̄−1} δ_v^p η_v^{−p}
Σ_{u∈D(v)} ζ_u^p a_u^{p̄}`` with ``H = Σ_u ζ_u a_u^{p̄}`` (the paper's garbled
sub-gradient).  ``η`` is kept above a floor ``eta_min`` so that every active
kernel keeps a (tiny) weight: the hinge-loss dual is not unique and the floor
makes the SVM pick a dual point with small ``s_u`` on the switched-off nodes.

Alternatively (``solve_active_set(..., solver="conic")``, :mod:`fsbook.hkl.primal`) the
restricted problem is solved in the primal, as one conic program on the node features ``Ψ``
(one interior-point solve per active set instead of one SVM per mirror-descent step); the
certificate below is computed from its ``(w, b, α)`` in the same way.  ``solver="working_set"``
(:func:`fsbook.hkl.primal.restricted_working_set`) solves the same conic program on the samples
near the margin of the previous iteration's solution (or of the previous ``C``'s, on a path), the
others fixed at ``α = 0`` or ``α = C`` and checked after the solve.  ``solver="variational"``
(``p = 2``; :func:`fsbook.hkl.variational.restricted_variational`) alternates a warm-started SVM
and the closed-form ``η`` of the variational form (4)–(7), started from the previous
iteration's (or ``C``'s) ``η`` and ``α``.

Sufficiency condition (chapter 5, after Bach 2009).  For a source ``t`` of
``A^c`` let

    Q(t) = Σ_{u⊇t} a_u / d(t,u)²,   d(t,u) = Σ_{t⊆v⊆u} δ_v = δ_t ∏_{i∈u∖t}(1 + ω_i).

Then ``Ω*(s)² ≤ max(Ω_A*(s)², max_{t∈sources(A^c)} Q(t))``, which gives a
certified lower bound on the dual of the *full* problem and hence a duality
gap; sources with ``Q(t) > Ω_A*(s)²`` violate the condition and are added.
"""
from __future__ import annotations

import time
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC

from fsbook.hkl import lattice
from fsbook.hkl._kernels import prefix_quadforms, source_quadforms, union_matrix
from fsbook.hkl.primal import restricted_conic, restricted_working_set
from fsbook.hkl.smo import clarabel_svm, ipm_svm, smo_svm
from fsbook.hkl.variational import restricted_variational

__all__ = ["HKLProblem", "RestrictedProblem", "solve_active_set", "source_scores",
           "source_group_scores", "source_scores_reference"]


class HKLProblem:
    """Data and weights of one binary disjunctive-HKL problem.

    Node weights are ``δ_∅ = δ_top`` for the top node and ``δ_v = δ_node ∏_{i∈v} ω_i``
    for every other node (chapter 5, eq. (hkl-delta)).  The estimator uses ``ω_i = β ω'_i``
    and ``δ_node = μ/β``: ``δ_v = μ β^{|v|−1} ∏_{i∈v} ω'_i`` (the paper's ``β^{|v|−k}`` with
    ``k = 1``), a single feature costs ``μ``, the top node (a ridge penalty on all weights)
    ``δ_top``.  The sufficiency condition only involves the weights of non-empty nodes.

    Parameters
    ----------
    X : array-like or sparse (m, n), 0/1.
    y : array (m,), ±1.
    C : float
        Hinge-loss weight of (1).
    p : float in (1, 2]
    omega : array (n,), positive per-feature factors.
    delta_top : float
        Weight ``δ_∅`` of the top node.
    delta_node : float or None
        Factor ``δ_node`` of the non-empty nodes; ``None`` means ``delta_top``
        (``δ_v = δ_top ∏_{i∈v} ω_i`` on the whole lattice).
    svm_tol : float
        Tolerance of the inner SVM (libsvm's KKT tolerance).
    eta_min : float
        Floor of ``η`` in the mirror descent and, relative to the largest, of the
        kernel weights ``σ`` of the ``p < 2`` fixed-point loop.
    inner : {"auto", "smo", "ipm", "libsvm"}
        Inner SVM solver.  ``"auto"`` (default): the warm-started SMO of :mod:`fsbook.hkl.smo`
        for at most ``smo_budget`` steps, and when it has not converged by then, the interior
        point method :func:`fsbook.hkl.smo.ipm_svm` on the low-rank kernel (Clarabel's
        :func:`fsbook.hkl.smo.clarabel_svm` if its factorisation fails),
        which converges whatever ``C`` (large ``C`` makes SMO take millions of steps on the
        nearly separable low-rank kernels of a small active set).  ``"smo"``: SMO alone, up to
        ``svm_max_iter`` steps (the behaviour before the interior point fallback);
        ``"ipm"``: the interior point method alone; ``"libsvm"``: scikit-learn's libsvm (no
        warm start; reference).
    sample_weight : array-like of shape (m,) or None
        Positive per-sample weights ``s_i``: the loss of (1) is ``C Σ_i s_i ξ_i`` and the dual box
        ``0 ≤ α_i ≤ C s_i`` (``C s_i`` is sample ``i``'s cost, :meth:`costs`).  A sample of zero
        weight does not enter the problem: drop it (the estimators do).  ``None``: every sample
        weighs 1, computed as before weights existed (the same floating-point operations).
    smo_budget : int or None
        SMO steps before ``inner="auto"`` switches to the interior point method; ``None`` means
        ``20 m`` (a few hundredths of a second for ``m ≈ 10³``; warm-started SMO converges in far
        fewer steps along mirror descent).  Once SMO has exceeded its budget, the later SVMs
        at the same ``C`` go straight to the interior point method.
    svm_max_iter : int
        Cap on the iterations per inner SVM (a safeguard against a stall on a
        near-singular kernel).  A capped SVM returns a feasible but inexact ``α``:
        the certified gap stays a valid bound, it is only looser; the number of
        capped SVMs is reported as ``n_svm_capped`` in the result of
        :func:`solve_active_set`.
    """

    def __init__(self, X, y, C=1.0, p=2.0, omega=None, delta_top=1.0, svm_tol=1e-7,
                 eta_min=1e-6, svm_max_iter=10_000_000, delta_node=None, inner="auto",
                 smo_budget=None, sample_weight=None):
        self.X = sp.csr_matrix(X, dtype=np.float64)
        self.Xcsc = self.X.tocsc()
        self.y = np.asarray(y, dtype=np.float64)
        self.m, self.n = self.X.shape
        if sample_weight is not None:
            sample_weight = np.asarray(sample_weight, dtype=np.float64)
            if sample_weight.shape != (self.m,) or not np.all(np.isfinite(sample_weight)) \
                    or not np.all(sample_weight > 0):
                raise ValueError("sample_weight must be positive and finite, one per sample "
                                 "(drop the samples of zero weight)")
        self.sample_weight = sample_weight
        self.C = float(C)
        self.p = float(p)
        if not (1.0 < self.p <= 2.0):
            raise ValueError("p must be in (1, 2]")
        self.pbar = self.p / (2.0 * (self.p - 1.0))
        self.q = self.p / (self.p - 1.0)
        self.omega = np.asarray(omega if omega is not None else np.full(self.n, 2.0),
                                dtype=np.float64)
        if self.omega.shape != (self.n,) or not np.all(self.omega > 0):
            raise ValueError("omega must be a positive vector with one entry per feature")
        self.log_omega = np.log(self.omega)
        self.delta_top = float(delta_top)
        self.delta_node = self.delta_top if delta_node is None else float(delta_node)
        if not (self.delta_top > 0 and self.delta_node > 0):
            raise ValueError("delta_top and delta_node must be positive")
        if inner not in ("auto", "smo", "ipm", "libsvm"):
            raise ValueError("inner must be 'auto', 'smo', 'ipm' or 'libsvm'")
        self.inner = inner
        self.smo_budget = 20 * self.m if smo_budget is None else int(smo_budget)
        self.n_ipm = 0                # SVMs solved by the interior point method
        self.smo_failed_at = None     # the C at which SMO exceeded its budget (then: IPM only)
        self.alpha_warm = None        # last SVM dual solution (warm start of the next SMO)
        g = (1.0 + self.omega) ** -2.0
        self.lg = np.log1p(g)               # log(1 + h_k), h_k = (1 + ω_k)^{-2}
        self.lg_total = float(self.lg.sum())
        self.svm_tol = float(svm_tol)
        self.eta_min = float(eta_min)
        self.svm_max_iter = int(svm_max_iter)
        self._psi_cache = {}
        self._union = None            # R of all samples (union_rows), computed once
        self._groups = (None, None)   # the last active set and its source groups
        self.alternation_failed_at = None   # the C at which solver="variational" fell back

    #: largest number of samples for which :meth:`union_rows` keeps ``R`` of all samples
    #: (``m²`` doubles: 128 MiB at this size); above it, ``R`` is recomputed on every call
    UNION_CACHE_MAX = 4096

    def costs(self):
        """The per-sample costs ``C s_i``, the upper bounds of the dual box ``τ(y, C s)``: ``C``
        itself (a float) without sample weights, else an array of shape (m,)."""
        return self.C if self.sample_weight is None else self.C * self.sample_weight

    def loss(self, f):
        """``C Σ_i s_i max(0, 1 − y_i f_i)``: the loss term of (1) at the decision values ``f``."""
        xi = np.maximum(0.0, 1.0 - self.y * f)
        if self.sample_weight is None:
            return self.C * xi.sum()
        return self.C * float(self.sample_weight @ xi)

    def union_rows(self, rows):
        """``R_ij = ∏_{k∈x_i∪x_j}(1 + h_k)^{−1}`` (:func:`union_matrix`) for the samples ``rows``.

        ``R`` depends on the samples and ``ω`` only, not on ``C`` or the active set, so for up to
        :attr:`UNION_CACHE_MAX` samples it is computed once for all of them and sliced; the
        sufficiency check of every iteration (and every ``C`` of a path) reuses it.
        """
        if self.m > self.UNION_CACHE_MAX:
            return union_matrix(self.X[rows], self.lg)
        if self._union is None:
            self._union = union_matrix(self.X, self.lg)
        return self._union[np.ix_(rows, rows)]

    def source_groups(self, nodes):
        """:func:`fsbook.hkl.lattice.source_groups` of ``nodes``, kept for the last active set.

        The groups depend on the active set only; on a regularisation path the first iteration
        at a new ``C`` starts from the previous ``C``'s final active set and reuses them.
        """
        key = frozenset(nodes)
        if self._groups[0] != key:
            self._groups = (key, lattice.source_groups(nodes, self.n))
        return self._groups[1]

    def delta(self, nodes):
        """``δ_v`` for a list of nodes."""
        return np.array([self.delta_node * np.prod(self.omega[list(v)]) if v else self.delta_top
                         for v in nodes])

    def log_delta(self, v):
        """``log δ_v``."""
        if not v:
            return float(np.log(self.delta_top))
        return float(np.log(self.delta_node) + self.log_omega[list(v)].sum())

    def psi(self, nodes):
        """Sparse (m × k) matrix of ``ψ_v(x_i)`` (cached per node)."""
        miss = [v for v in nodes if v not in self._psi_cache]
        if miss:
            cols = lattice.node_indicator(self.Xcsc, miss, sparse=True)
            for j, v in enumerate(miss):      # the rows where ψ_v = 1
                self._psi_cache[v] = cols.indices[cols.indptr[j]:cols.indptr[j + 1]].copy()
        if not nodes:
            return sp.csr_matrix((self.m, 0))
        rows = [self._psi_cache[v] for v in nodes]
        indptr = np.concatenate([[0], np.cumsum([r.size for r in rows])])
        indices = np.concatenate(rows)
        return sp.csc_matrix((np.ones(indices.size), indices, indptr),
                             shape=(self.m, len(nodes))).tocsr()


class RestrictedProblem:
    """Problem (1) restricted to a hull-closed active set: primal (2)–(3), dual (8)–(9).

    The reduced dual of the paper is ``min_{η∈Δ} g(η)`` (eq. (8)) with

        g(η) = max_{α∈τ(y,C)} 1ᵀα − ½ (Σ_{u∈A} ζ_u(η) (αᵀK_uα)^{p̄})^{1/p̄}      (eq. (9)),

    ``ζ_u(η) = (Σ_{v∈A(u)} δ_v^p η_v^{1−p})^{1/(1−p)}`` and ``p̄ = p/(2(p−1))``.
    :meth:`evaluate` solves the inner maximisation (9) at a given ``η`` (one SVM
    for ``p = 2``, a short fixed-point loop of SVMs for ``p < 2``) and returns
    ``g(η)`` with its gradient (Danskin's theorem; the paper's sub-gradient after
    eq. (9)); :meth:`primal` gives the objective of (2)–(3) at the recovered
    ``w``; :meth:`dual_norm` brackets the restricted dual norm ``Ω_A*(s)²``.

    Parameters
    ----------
    prob : HKLProblem
        Data, ``C``, ``p`` and node weights of the full problem (1).
    nodes : sequence of tuple
        The active set ``A`` (hull-closed, containing the top node ``()``);
        the order of ``nodes`` is the order of the coordinates of ``η``.

    Attributes
    ----------
    nodes : list of tuple
    Psi : scipy.sparse.csr_matrix, shape (m, len(nodes))
        ``ψ_u(x_i)``; the kernel of node ``u`` is ``K_u = ψ_u ψ_uᵀ``.
    d : ndarray, shape (len(nodes),)
        Node weights ``δ_u``.
    n_svm : int
        Number of SVMs solved so far.
    t_svm : float
        Time spent in the SVMs (seconds).

    Examples
    --------
    >>> import numpy as np
    >>> from fsbook.hkl import HKLProblem, RestrictedProblem, lattice
    >>> X = np.array([[1, 0], [0, 1], [1, 1], [0, 0]]); y = np.array([1., -1., 1., -1.])
    >>> red = RestrictedProblem(HKLProblem(X, y), lattice.hull([(0,), (1,)]))
    >>> ev = red.evaluate(np.full(3, 1 / 3))      # g(η), its gradient, the SVM solution
    >>> round(ev["g"], 4), ev["grad"].shape
    (3.8667, (3,))
    """

    def __init__(self, prob, nodes):
        self.prob = prob
        self.nodes = list(nodes)
        self.Psi = prob.psi(self.nodes)
        self.PsiT = self.Psi.T.tocsr()
        self.M = lattice.ancestor_matrix(self.nodes).astype(np.float64)   # M[u, v]: v ⊆ u
        self.MT = np.ascontiguousarray(self.M.T)
        # the operators of ζ(η) and of the dual-norm bound (:meth:`zeta`, :meth:`dual_norm`):
        # the dense M by default; :meth:`use_sparse_ancestors` swaps in sparse copies
        self._M_op, self._MT_op = self.M, self.MT
        self.d = prob.delta(self.nodes)
        self.dp = self.d ** prob.p
        self.sigma_warm = None
        self.n_svm = 0
        self.n_svm_capped = 0
        self.t_svm = 0.0

    def zeta(self, eta):
        """``ζ_u(η)`` of (9) and ``S_u = Σ_{v∈A(u)} δ_v^p η_v^{1−p}``."""
        p = self.prob.p
        S = self._M_op @ (self.dp * eta ** (1.0 - p))
        return S ** (1.0 / (1.0 - p)), S

    def use_sparse_ancestors(self):
        """Compute ``ζ(η)`` and the bounds of :meth:`dual_norm` with sparse copies of ``M``.

        ``M`` has ``Σ_u |A(u)|`` nonzeros (a node has few ancestors in an active set of short
        disjunctions) out of ``k²``; the fixed-point iteration of :meth:`dual_norm` makes two
        products with it per step.  Same values up to the order of the sums (rounding), so only
        ``solver="working_set"`` uses it; the other solvers keep the dense products
        of their stored results.
        """
        self._M_op = sp.csr_matrix(self.M)
        self._MT_op = sp.csr_matrix(self.MT)
        return self

    def _svm(self, sigma):
        """The SVM with kernel ``Σ_u σ_u K_u``: warm-started SMO (default) or libsvm."""
        prob = self.prob
        t0 = time.perf_counter()
        if prob.inner in ("auto", "smo", "ipm"):
            ok = False
            if prob.inner == "smo" or (prob.inner == "auto" and prob.smo_failed_at != prob.C):
                K = (self.Psi.multiply(sigma[None, :]) @ self.PsiT).toarray()
                cap = prob.svm_max_iter if prob.inner == "smo" else \
                    min(prob.smo_budget, prob.svm_max_iter)
                alpha, b, _, ok = smo_svm(K, prob.y, prob.costs(), alpha0=prob.alpha_warm,
                                          tol=prob.svm_tol, max_iter=cap)
                if not ok:
                    prob.smo_failed_at = prob.C
            if not ok and prob.inner != "smo":
                alpha_ipm, b_ipm, ok = ipm_svm(self.Psi, sigma, prob.y, prob.costs())
                if not ok:            # the Woodbury factorisation lost to rounding: Clarabel
                    alpha_ipm, b_ipm, ok = clarabel_svm(self.Psi, sigma, prob.y, prob.costs())
                prob.n_ipm += 1
                if ok or prob.inner == "ipm":
                    alpha, b = alpha_ipm, b_ipm
            prob.alpha_warm = alpha
            self.n_svm_capped += int(not ok)
            c = alpha * prob.y
        else:
            K = (self.Psi.multiply(sigma[None, :]) @ self.PsiT).toarray()
            svc = SVC(C=prob.C, kernel="precomputed", tol=prob.svm_tol,
                      max_iter=prob.svm_max_iter, cache_size=500)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                svc.fit(K, prob.y, sample_weight=prob.sample_weight)   # libsvm: C s_i
            self.n_svm_capped += int(svc.fit_status_ != 0)
            c = np.zeros(prob.m)
            # sklearn: decision = K @ dual_coef + intercept, positive side = classes_[1]
            sign = 1.0 if svc.classes_[1] > 0 else -1.0
            c[svc.support_] = sign * svc.dual_coef_.ravel()
            b = sign * float(svc.intercept_[0])
        self.n_svm += 1
        self.t_svm += time.perf_counter() - t0
        return c, b

    def evaluate(self, eta, max_fp=30):
        """Solve the inner problem (9) at ``η``.

        Parameters
        ----------
        eta : ndarray, shape (len(nodes),)
            A point of the simplex (positive entries).
        max_fp : int
            Maximum number of fixed-point (ℓ_p̄ multiple-kernel) steps for ``p < 2``.

        Returns
        -------
        dict
            ``g`` -- ``g(η)`` of (9); ``grad`` -- its gradient in ``η``;
            ``c`` -- ``α∘y``; ``b`` -- the intercept; ``s`` -- ``s_u = Σ_i c_i ψ_u(x_i)``;
            ``a`` -- ``s²`` (``= αᵀK_uα``); ``sigma`` -- the kernel weights of the
            SVM (``w = σ∘s``); ``zeta`` -- ``ζ(η)``; ``eta`` -- the input.
        """
        prob = self.prob
        p, pbar = prob.p, prob.pbar
        zeta, S = self.zeta(eta)
        if p == 2.0:
            c, b = self._svm(zeta)
            s = self.PsiT @ c
            a = s ** 2
            H = float(zeta @ a)
            sigma = zeta
            hval = H
        else:
            sigma = zeta if self.sigma_warm is None or len(self.sigma_warm) != len(zeta) \
                else self.sigma_warm
            # ℓ_p̄ multiple-kernel learning at fixed ζ: (Σ ζ a^p̄)^{1/p̄} = max Σ σ_u a_u over
            # {σ ≥ 0: Σ σ^r ζ^{1−r} ≤ 1}, r = p̄/(p̄−1).  Block-coordinate descent on the primal
            # min_σ min_w Σ w_u²/σ_u + hinge (Kloft et al.'s analytic update, monotone):
            # σ_u ∝ (w_u² ζ_u^{r−1})^{1/(r+1)}, w_u = σ_u s_u.
            r = pbar / (pbar - 1.0)
            zpos = np.maximum(zeta, 1e-300)
            sigma = sigma / (np.sum(sigma ** r * zpos ** (1.0 - r)) ** (1.0 / r))
            solved = False            # is (c, b) the SVM at the current σ?
            for _ in range(max_fp):
                c, b = self._svm(sigma)
                solved = True
                s = self.PsiT @ c
                a = s ** 2
                H = float(zeta @ a ** pbar)
                hval = H ** (1.0 / pbar) if H > 0 else 0.0
                gval = np.abs(c).sum() - 0.5 * hval         # ≤ g(η)
                svmval = np.abs(c).sum() - 0.5 * float(sigma @ a)   # ≥ g(η)
                if H <= 0 or svmval - gval <= 1e-7 * max(1.0, abs(gval)):
                    break
                new = (sigma ** 2 * a * zpos ** (r - 1.0)) ** (1.0 / (r + 1.0))
                # floor the weights like η (``eta_min``): the update drives σ_u → 0 on nodes
                # with small a_u, and kernels with weights ~1e-8 relative make the tol=1e-7
                # libsvm solve stall and never return (p = 1.5, seed 1, n = 7 in the tests).
                # σ stays feasible after the rescaling, so svmval ≥ g(η) ≥ gval still holds.
                new = np.maximum(new, prob.eta_min * new.max())
                sigma = new / (np.sum(new ** r * zpos ** (1.0 - r)) ** (1.0 / r))
                solved = False
            if not solved:            # max_fp reached after a σ update: the SVM at the final σ
                c, b = self._svm(sigma)
                s = self.PsiT @ c
                a = s ** 2
                H = float(zeta @ a ** pbar)
                hval = H ** (1.0 / pbar) if H > 0 else 0.0
            self.sigma_warm = sigma
        alpha = np.abs(c)
        g = float(alpha.sum() - 0.5 * hval)
        fac = (H ** (1.0 / pbar - 1.0) if H > 0 else 0.0) / (2.0 * pbar)
        grad = -fac * self.dp * eta ** (-p) * (self.MT @ (zeta ** p * a ** pbar))
        return dict(g=g, grad=grad, c=c, b=b, s=s, a=a, sigma=sigma, zeta=zeta, eta=eta)

    def primal(self, ev):
        """Primal objective (1) of ``w = σ ∘ s`` with the SVM's intercept (the loss weighted by
        the sample weights, :meth:`HKLProblem.loss`); returns (P, w, Ω(w))."""
        prob = self.prob
        w = ev["sigma"] * ev["s"]
        f = self.Psi @ w + ev["b"]
        omega = float(self.d @ (self.MT @ np.abs(w) ** prob.p) ** (1.0 / prob.p))
        return 0.5 * omega ** 2 + prob.loss(f), w, omega

    def dual_norm(self, s, eta0=None, max_iter=300, rtol=1e-7):
        """Bounds on ``Ω_A*(s)²``: (upper, lower, η).

        Maximises the concave ``F_s(η)`` over the simplex with the
        damped multiplicative update ``η_v ← η_v (B_v^q / F_s(η))^{1/q}``
        (``Σ_v η_v B_v^q = F_s`` by homogeneity; the undamped update
        oscillates); ``max_v B_v^q`` is an upper and ``F_s`` a lower bound of
        ``Ω_A*(s)^q`` at every iterate.
        """
        prob = self.prob
        p, q = prob.p, prob.q
        k = len(self.nodes)
        absq = np.abs(s) ** q
        if not np.any(absq > 0):
            return 0.0, 0.0, np.full(k, 1.0 / k)
        eta = np.full(k, 1.0 / k) if eta0 is None else 0.5 * eta0 / eta0.sum() + 0.5 / k
        up, lo = np.inf, 0.0
        for _ in range(max_iter):
            eta = np.maximum(eta, 1e-100)
            zeta, _ = self.zeta(eta)
            F = float(zeta @ absq)
            Bq = self.dp * eta ** (-p) * (self._MT_op @ (zeta ** p * absq))
            up = min(up, float(Bq.max()))
            lo = max(lo, F)
            if up <= lo * (1.0 + rtol):
                break
            eta = eta * (Bq / F) ** (1.0 / q)
            eta /= eta.sum()
        return up ** (2.0 / q), lo ** (2.0 / q), eta


def _dual_lower(alpha_sum, M2):
    """``max_{κ∈[0,1]} κ 1ᵀα − ½ κ² M²``: lower bound of the dual at the feasible ``κα``."""
    if M2 <= 0:
        return alpha_sum
    k = min(1.0, alpha_sum / M2)
    return k * alpha_sum - 0.5 * k * k * M2


def source_scores(prob, c, srcs, threshold=None):
    """``log Q(t)`` for every source ``t`` (closed form; eqs. (hkl-Qclosed), (hkl-Qparent)).

    ``Q(t) = δ_t^{−2} P_t (c∘z_a∘z_l)ᵀ R (c∘z_a∘z_l)`` for ``t = a ∪ {l}``,
    ``z_a = 1 − ψ_a``, ``P_t = ∏_{i∉t}(1 + h_i)``, ``R_ij = ∏_{k∈x_i∪x_j}(1 + h_k)^{−1}``,
    ``h_k = (1 + ω_k)^{−2}`` (eq. (hkl-Qclosed)); only support vectors (``c_i ≠ 0``) enter.
    The sources are grouped by their prefix ``a = t[:-1]`` and scored by
    :func:`source_group_scores`; :func:`source_scores_reference` is the straightforward
    version the tests compare with.

    Parameters
    ----------
    prob : HKLProblem
    c : ndarray of shape (m,)
        ``α ∘ y``.
    srcs : list of tuple
        Sources of the complement of the active set.
    threshold : float or None
        Pruning by the parent bound (eq. (hkl-Qparent)): ``D(a ∪ {l}) ⊆ D(a) ∖ {a}`` and
        ``d(a ∪ {l}, u) = ω_l/(1 + ω_l) · d(a, u)``, so
        ``Q(a ∪ {l}) ≤ ((1 + ω_l)/ω_l)² (Q(a) − a_a/δ_a²)`` with
        ``Q(a) = Σ_{u⊇a} a_u/d(a, u)²`` (one quadratic form per parent).  When this bound
        is at most ``threshold`` for every candidate of a parent, the bound itself is returned
        for them (a valid upper bound for the certificate, below the violation threshold)
        instead of the exact values.  ``None`` computes every ``Q(t)`` exactly.

    Returns
    -------
    ndarray of shape (len(srcs),)
        ``log Q(t)`` (or the log of its parent bound when pruned).
    """
    order = sorted(range(len(srcs)), key=lambda k: (len(srcs[k]), tuple(srcs[k])))
    groups, where = {}, []
    for k in order:
        t = tuple(srcs[k])
        groups.setdefault(t[:-1], []).append(t[-1])
        where.append(k)
    grouped = [(a, np.array(ls, dtype=np.int64)) for a, ls in groups.items()]
    out = np.empty(len(srcs))
    out[np.array(where, dtype=np.int64)] = source_group_scores(prob, c, grouped, threshold)
    return out


def source_group_scores(prob, c, groups, threshold=None):
    """``log Q(t)`` for the sources ``t = a + (l,)`` given as prefix groups ``(a, ls)``.

    As :func:`source_scores` (same values up to rounding), with the sources in the form of
    :func:`fsbook.hkl.lattice.source_groups`; the result is in the order of the groups read
    one after the other.  The single-feature sources (prefix ``()``) are scored by
    :func:`~fsbook.hkl._kernels.source_quadforms`; all other prefixes at once by
    :func:`~fsbook.hkl._kernels.prefix_quadforms` (their own quadratic forms ``c_aᵀ R c_a``,
    which the pruning needs, come out of the same matrix product).
    """
    sizes = np.array([len(ls) for _, ls in groups], dtype=np.int64)
    offsets = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(sizes)])
    out = np.full(int(offsets[-1]), -np.inf)
    sv = np.flatnonzero(c != 0)
    if sv.size == 0 or out.size == 0:
        return out
    Xsv = prob.X[sv]
    R = prob.union_rows(sv)
    Xcsc = Xsv.tocsc()
    Xcsc.sort_indices()
    csv = c[sv]
    # log Q(t) = log_const − Σ_{i∈t} (2 log ω_i + lg_i) + log(quadratic form), t ≠ ∅
    log_const = -2.0 * np.log(prob.delta_node) + prob.lg_total
    w_feat = 2.0 * prob.log_omega + prob.lg

    def log_scores(qf, a, ls):
        with np.errstate(divide="ignore"):
            logqf = np.where(qf > 0, np.log(np.where(qf > 0, qf, 1.0)), -np.inf)
        return log_const - float(w_feat[list(a)].sum()) - w_feat[ls] + logqf

    prefixed = []
    for g, (a, ls) in enumerate(groups):
        if a:
            prefixed.append(g)
        else:
            out[offsets[g]:offsets[g + 1]] = log_scores(source_quadforms(csv, R, Xcsc, ls), a, ls)
    if not prefixed:
        return out
    psi = lattice.node_indicator(Xcsc, [groups[g][0] for g in prefixed])
    CZ = csv[:, None] * (1.0 - psi)
    V = R @ CZ                                   # R c_a of every prefix, used twice below
    keep = list(range(len(prefixed)))            # columns of psi whose sources are scored
    if threshold is not None and threshold > 0:
        qa = np.einsum("ij,ij->j", CZ, V)
        s_a = csv @ psi
        keep = []
        for j, g in enumerate(prefixed):
            a, ls = groups[g]
            # strict descendants of a: Q(a) minus its own term s_a²/δ_a² (with a margin
            # against cancellation), so that an active a at the optimum can be pruned
            log_delta_a = prob.log_delta(a)
            Qa = np.exp(-2.0 * log_delta_a + prob.lg_total - float(prob.lg[list(a)].sum())) * qa[j]
            strict = max(Qa - s_a[j] ** 2 * np.exp(-2.0 * log_delta_a), 0.0) + 1e-9 * Qa
            logb = (np.log(strict) if strict > 0 else -np.inf) + 2.0 * np.log1p(1.0 / prob.omega[ls])
            if np.all(logb <= np.log(threshold)):
                out[offsets[g]:offsets[g + 1]] = logb
            else:
                keep.append(j)
    if keep:
        kept = [prefixed[j] for j in keep]
        _, qf = prefix_quadforms(csv, R, Xcsc, psi[:, keep], [groups[g][1] for g in kept],
                                 V=V[:, keep])
        pos = 0
        for g in kept:
            a, ls = groups[g]
            out[offsets[g]:offsets[g + 1]] = log_scores(qf[pos:pos + len(ls)], a, ls)
            pos += len(ls)
    return out


def source_scores_reference(prob, c, srcs, threshold=None):
    """Reference for :func:`source_scores`: one parent at a time, one candidate at a time.

    The straightforward evaluation (kept for the tests and ``benchmarks/hkl.py``): for each
    parent ``a`` its own quadratic form, and for each candidate the double sum over ``S_l``
    (:func:`fsbook.hkl._kernels.source_quadforms`); ``R`` is recomputed on every call.
    Parameters, pruning rule and result are those of :func:`source_scores`.
    """
    sv = np.flatnonzero(c != 0)
    out = np.full(len(srcs), -np.inf)
    if sv.size == 0 or not srcs:
        return out
    Xsv = prob.X[sv]
    R = union_matrix(Xsv, prob.lg)
    Xcsc = Xsv.tocsc()
    Xcsc.sort_indices()
    csv = c[sv]
    groups = {}
    for k, t in enumerate(srcs):
        groups.setdefault(t[:-1], []).append(k)
    log_thr = np.log(threshold) if threshold is not None and threshold > 0 else None
    for parent, ks in groups.items():
        cand = np.array([srcs[k][-1] for k in ks])
        if parent:
            z = 1.0 - lattice.node_indicator(Xcsc, [parent])[:, 0]
            if log_thr is not None:
                cz = csv * z
                qa = float(cz @ R @ cz)
                om = prob.omega[cand]
                # strict descendants of a: Q(a) minus its own term s_a²/δ_a² (with a margin
                # against cancellation), so that an active a at the optimum can be pruned
                Qa = np.exp(-2.0 * prob.log_delta(parent) + prob.lg_total
                            - float(prob.lg[list(parent)].sum())) * qa
                s_a = float(csv @ (1.0 - z))
                strict = max(Qa - s_a ** 2 * np.exp(-2.0 * prob.log_delta(parent)), 0.0) \
                    + 1e-9 * Qa
                logb = (np.log(strict) if strict > 0 else -np.inf) + 2.0 * np.log1p(1.0 / om)
                if np.all(logb <= log_thr):
                    out[ks] = logb
                    continue
        else:
            z = np.ones(sv.size)
        qf = source_quadforms(csv * z, R, Xcsc, cand)
        for k, val in zip(ks, qf):
            t = srcs[k]
            logq = -2.0 * prob.log_delta(t) + prob.lg_total - float(prob.lg[list(t)].sum())
            out[k] = logq + np.log(val) if val > 0 else -np.inf
    return out


def _sources_at(groups, flat):
    """The sources at positions ``flat`` of the groups read one after the other."""
    offsets = np.cumsum([0] + [len(ls) for _, ls in groups])
    out = []
    for k in flat:
        g = int(np.searchsorted(offsets, k, side="right")) - 1
        out.append(groups[g][0] + (int(groups[g][1][k - offsets[g]]),))
    return out


def _reduced_gap(red, ev, eta_dn=None):
    P, w, omega = red.primal(ev)
    up, lo, eta_dn = red.dual_norm(ev["s"], ev["eta"] if eta_dn is None else eta_dn)
    return P, up, eta_dn, P - _dual_lower(np.abs(ev["c"]).sum(), up)


def _project(eta, eta_min):
    eta = eta / eta.sum()
    if eta_min > 0:
        for _ in range(5):
            low = eta < eta_min
            if not low.any():
                break
            eta = np.where(low, eta_min, eta)
            eta /= eta.sum()
    return eta


def _conic_restricted(red, eta, sol=None):
    """The restricted problem by :func:`fsbook.hkl.primal.restricted_conic`, in the form of
    :func:`_mirror_descent`'s result: (evaluation dict, P, ``Ω_A*(s)²`` bound, reduced gap, w, Ω(w)).

    ``P`` is the primal (2)–(3) at the conic solution ``(w, b)``, the reduced gap is ``P``
    minus the dual lower bound at ``α`` (:func:`_dual_lower` with the upper bound of
    ``Ω_A*(s)²``): both are evaluated here, not taken from the conic solver.  ``sol``: a
    solution computed otherwise (:func:`fsbook.hkl.primal.restricted_working_set`), evaluated
    in the same way.
    """
    prob = red.prob
    if sol is None:
        sol = restricted_conic(red)
    w, b = sol["w"], sol["b"]
    f = red.Psi @ w + b
    omega = float(red.d @ (red.MT @ np.abs(w) ** prob.p) ** (1.0 / prob.p))
    P = 0.5 * omega ** 2 + float(prob.loss(f))
    eta0 = eta if eta is not None and len(eta) == len(red.nodes) else None
    up, _, eta_dn = red.dual_norm(sol["s"], eta0)
    gapA = P - _dual_lower(np.abs(sol["c"]).sum(), up)
    eta_dn = _project(np.maximum(eta_dn, 1e-300), min(prob.eta_min, 0.1 / len(eta_dn)))
    zeta, _ = red.zeta(eta_dn)
    ev = dict(c=sol["c"], b=b, s=sol["s"], a=sol["s"] ** 2, sigma=zeta, zeta=zeta, eta=eta_dn,
              status=sol["status"], iterations=sol["iterations"], seconds=sol["seconds"])
    if "working_samples" in sol:
        ev.update(working_samples=sol["working_samples"], rounds=sol["rounds"])
    return ev, P, up, gapA, w, omega


def _mirror_descent(red, eta, tol, max_iter):
    """Entropic mirror descent on the (floored) simplex for (8), stopped on the reduced gap.

    Returns the last evaluation, the number of steps, the reduced gap and ``Ω_A*`` bound.
    """
    eta_min = min(red.prob.eta_min, 0.1 / len(eta))
    ev = red.evaluate(_project(eta, eta_min))
    step = 1.0
    eta_dn = None
    it = 0
    P, MA2, eta_dn, gapA = _reduced_gap(red, ev)
    for it in range(1, max_iter + 1):  # noqa: B007 (the count is read after the loop)
        if gapA <= tol * max(P, 1e-12):
            break
        grad = ev["grad"]
        scale = np.max(np.abs(grad))
        if not np.isfinite(scale) or scale == 0:
            break
        step = max(step, 1e-3)
        improved = False
        for _ in range(20):
            logeta = np.log(ev["eta"]) - step * grad / scale
            logeta -= logeta.max()
            new = _project(np.exp(logeta), eta_min)
            ev_new = red.evaluate(new)
            if ev_new["g"] < ev["g"] - 1e-13 * abs(ev["g"]):
                ev = ev_new
                step = min(step * 2.0, 100.0)
                improved = True
                break
            step *= 0.3
        if not improved:
            break
        P, MA2, eta_dn, gapA = _reduced_gap(red, ev, eta_dn)
    return ev, it, P, MA2, gapA


def solve_active_set(prob, tol=1e-3, max_active=200, max_add=10, max_iter=100,
                     md_max_iter=200, verbose=False, callback=None, nodes=None, eta=None,
                     solver="mirror", w=None, b=None):
    """Active-set algorithm of Figure 1 with the derived sufficiency condition.

    Parameters
    ----------
    prob : HKLProblem
    tol : float
        Relative duality-gap tolerance ε: stop when ``(P − D)/P ≤ tol`` where
        ``P`` is the primal (1) of the current ``w`` and ``D`` the certified
        lower bound of the full dual.
    max_active : int
        Cap on the number of active nodes (top excluded).
    max_add : int
        Cap on the number of violating sources added per iteration (the most
        violating first).
    callback : callable or None
        Called with ``(nodes, ev, record)`` after every active-set iteration.
    nodes, eta : list of tuple, ndarray or None
        Warm start (a regularisation path): a hull-closed initial active set starting with
        the top node ``()`` and its ``η``; default ``[()]`` and ``η = 1``.
    w, b : ndarray, float or None
        Warm start of the weights on ``nodes`` and the intercept (a regularisation path's
        previous solution), used by ``solver="working_set"`` and ``"variational"`` only.
    solver : {"mirror", "conic", "working_set", "variational"}
        How the restricted problem on the active set is solved.  ``"mirror"`` (the reference):
        entropic mirror descent on ``η`` for the reduced dual (8), one inner SVM (9) per
        evaluation.  ``"conic"``: the restricted primal (2)–(3) as one conic program on the
        node features ``Ψ`` (:func:`fsbook.hkl.primal.restricted_conic`, Clarabel); same
        certificate and sufficiency check.  ``"working_set"``: the same conic program on the
        samples near the margin of a warm start (the previous iteration's solution, padded with
        zeros for the nodes just added, or ``w``, ``b`` of the previous ``C``), the other
        samples fixed at ``α = 0`` or ``α = C`` and checked after the solve
        (:func:`fsbook.hkl.primal.restricted_working_set`); same optimum, same certificate
        (evaluated on all samples).  ``"variational"`` (``p = 2``): alternating minimisation of
        the variational form (4)–(7), a warm-started SVM (w-step) and ``η_v ∝ δ_v ||w_{D(v)}||``
        (η-step), started from ``η`` and the previous SVM's ``α``
        (:func:`fsbook.hkl.variational.restricted_variational`); same certificate.
    max_iter : int or None
        Cap on the active-set iterations; ``None``: no cap.
    max_active : int or None
        ``None``: no cap on the active set (the fit stops at the certificate, at ``max_iter``
        or when no node violates the condition).

    Returns
    -------
    dict with the active nodes, η, ``c = α∘y``, intercept ``b``, weights ``w``,
    the relative duality gap of the full problem, the history and timings, and
    ``stop_reason``: ``"certified"`` (gap ≤ tol), ``"max_active"``, ``"max_iter"`` or
    ``"stalled"`` (no violating source left while the gap is above tol: inexact restricted
    solves).  Every stop other than ``"certified"`` warns (``ConvergenceWarning``) with the gap.
    """
    if solver not in ("mirror", "conic", "working_set", "variational"):
        raise ValueError("solver must be 'mirror', 'conic', 'working_set' or 'variational', "
                         f"got {solver!r}")
    if solver == "variational" and prob.p != 2.0:
        raise ValueError("solver='variational' needs p = 2")
    if max_active is None:
        max_active = np.inf
    if max_iter is None:
        max_iter = np.iinfo(np.int64).max
    if nodes is None:
        nodes, eta = [()], np.ones(1)
    else:
        nodes = [tuple(v) for v in nodes]
        if not nodes or nodes[0] != () or not lattice.is_hull_closed(nodes):
            raise ValueError("a warm-start active set must be hull-closed and start with ()")
        eta = np.full(len(nodes), 1.0 / len(nodes)) if eta is None else \
            np.maximum(np.asarray(eta, dtype=np.float64), 1e-12)
        if eta.shape != (len(nodes),):
            raise ValueError("eta must have one entry per node")
        eta = eta / eta.sum()
    w_warm = None
    if solver in ("working_set", "variational") and w is not None:
        w_warm = np.asarray(w, dtype=np.float64)
        if w_warm.shape != (len(nodes),):
            raise ValueError("w must have one entry per node")
        b_warm = 0.0 if b is None else float(b)
    history = []
    times = dict(svm=0.0, mirror_descent=0.0, sufficiency=0.0)
    converged = False
    stop_reason = "max_iter"
    n_svm = n_svm_capped = n_conic_iter = 0
    for it in range(1, max_iter + 1):
        t0 = time.perf_counter()
        red = RestrictedProblem(prob, nodes)
        if solver in ("working_set", "variational"):
            red.use_sparse_ancestors()
        if solver == "mirror":
            ev, n_md, P, MA2, gapA = _mirror_descent(red, eta, tol / 2, md_max_iter)
            _, w, omega = red.primal(ev)
        else:
            sol = None
            if solver == "working_set":
                sol = restricted_working_set(red, w0=w_warm, b0=None if w_warm is None else b_warm)
            elif solver == "variational":
                sol = restricted_variational(red, eta0=eta, alpha0=prob.alpha_warm, w0=w_warm,
                                             b0=None if w_warm is None else b_warm)
                prob.alpha_warm = sol["alpha"]
            ev, P, MA2, gapA, w, omega = _conic_restricted(
                red, sol["eta"] if solver == "variational" else eta, sol)
            if solver in ("working_set", "variational"):   # the next iteration starts here
                w_warm, b_warm = w, ev["b"]
            n_md = 0
            red.t_svm = ev["seconds"]
            red.n_svm = 1
            n_conic_iter += ev["iterations"]
        eta = ev["eta"]
        t1 = time.perf_counter()
        groups = prob.source_groups(nodes)
        logQ = source_group_scores(prob, ev["c"], groups, threshold=MA2)
        t2 = time.perf_counter()
        times["svm"] += red.t_svm
        times["mirror_descent"] += t1 - t0 - red.t_svm
        times["sufficiency"] += t2 - t1
        n_svm += red.n_svm
        n_svm_capped += red.n_svm_capped
        logQmax = float(logQ.max()) if len(logQ) else -np.inf
        asum = np.abs(ev["c"]).sum()
        M2 = max(MA2, float(np.exp(min(logQmax, 700.0))))
        gap = P - _dual_lower(asum, M2)
        rel = gap / max(P, 1e-12)
        logMA2 = float(np.log(MA2)) if MA2 > 0 else -np.inf
        viol = np.flatnonzero(logQ > logMA2)
        rec = dict(iteration=it, n_active=len(nodes) - 1, primal=P, dual=P - gap, gap=rel,
                   gap_reduced=gapA / max(P, 1e-12), omega2=omega ** 2, dual_norm2_A=MA2,
                   max_Q=float(np.exp(min(logQmax, 700.0))), n_sources=len(logQ),
                   n_violating=int(viol.size), md_steps=n_md, n_svm=red.n_svm,
                   time=t2 - t0)
        if solver != "mirror":      # Clarabel's status and iterations of the restricted solve
            rec.update(conic_status=ev["status"], conic_iterations=ev["iterations"])
        if solver == "working_set":
            rec.update(working_samples=ev["working_samples"], working_set_rounds=ev["rounds"])
        history.append(rec)
        if callback is not None:
            callback(list(nodes), ev, rec)
        if verbose:
            print({k: (round(v, 6) if isinstance(v, float) else v) for k, v in rec.items()})
        if rel <= tol:
            converged = True
            stop_reason = "certified"
            break
        if viol.size == 0:
            if solver != "mirror" or n_md >= md_max_iter or gapA <= tol / 2 * max(P, 1e-12):
                stop_reason = "stalled"
                break          # no progress possible (inexact inner solves)
            continue
        if len(nodes) - 1 >= max_active:
            stop_reason = "max_active"
            break
        order = viol[np.argsort(-logQ[viol])][: max(1, min(max_add, max_active - len(nodes) + 1))]
        new_nodes = _sources_at(groups, order)
        fill = np.median(eta[eta > prob.eta_min * 10]) if np.any(eta > prob.eta_min * 10) \
            else 1.0
        eta = np.concatenate([eta, np.full(len(new_nodes), 0.5 * fill)])
        eta /= eta.sum()
        nodes = nodes + new_nodes
        if w_warm is not None:      # the new nodes start at zero weight
            w_warm = np.concatenate([w_warm, np.zeros(len(new_nodes))])
    if not converged:
        warnings.warn(f"disjunctive HKL stopped before the duality gap reached tol "
                      f"({stop_reason}: relative gap {history[-1]['gap']:.3g}, "
                      f"{len(nodes) - 1} active nodes)", ConvergenceWarning, stacklevel=2)
    return dict(nodes=nodes, eta=eta, c=ev["c"], b=ev["b"], w=w, sigma=ev["sigma"],
                zeta=ev["zeta"], primal=P, gap=history[-1]["gap"], history=history,
                n_iter=len(history), converged=converged, times=times, omega=omega,
                n_svm=n_svm, n_svm_capped=n_svm_capped, n_ipm=prob.n_ipm,
                stop_reason=stop_reason, solver=solver, n_conic_iter=n_conic_iter)
