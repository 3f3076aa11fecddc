"""Feature selection and kernel design via linear programming (Fung, Rosales & Rao, 2007).

- :class:`KernelDesign` -- the estimator (triplet supervision, metric-learn conventions).
- :class:`WeakKernelSelector` -- the weak-kernel LP as a scikit-learn feature selector
  (``fit(X, y)``, triplets from the labels).
- :mod:`base_kernels` -- full and weak (one-feature) base kernels, eqs. (1), (5).
- :mod:`lp` -- formulations (4) and (7): the full LP with auxiliary ``r_ij`` and the
  cutting-plane solver on the diagonal-dominance rows; the ``α ≥ 0`` LP (``psd="nonnegative"``).
- :mod:`colgen` -- the ``α ≥ 0`` LP by column generation over its kernels.
- :mod:`triplets` -- triplets from class labels (Section 3.1), validation, test triples.
"""
from fsbook.kernel_design.base_kernels import (
    KernelSpec,
    full_kernel_specs,
    kernel_groups,
    kernel_pair_differences,
    kernel_pairs,
    kernel_stack,
    weak_kernel_specs,
)
from fsbook.kernel_design.colgen import solve_nonnegative_colgen
from fsbook.kernel_design.estimator import KernelDesign
from fsbook.kernel_design.lp import (
    PSD_OPTIONS,
    LPResult,
    build_full_lp,
    build_nonnegative_lp,
    dominance_violation,
    lp_sizes,
    solve_cutting_plane,
    solve_full_lp,
    solve_nonnegative_lp,
    triplet_differences,
)
from fsbook.kernel_design.selector import WeakKernelSelector
from fsbook.kernel_design.triplets import (
    TripletError,
    check_triplets,
    paper_test_triples,
    triplets_from_labels,
)

__all__ = ["KernelDesign", "WeakKernelSelector", "KernelSpec", "kernel_pairs", "PSD_OPTIONS",
           "kernel_pair_differences", "solve_nonnegative_colgen",
           "build_nonnegative_lp", "solve_nonnegative_lp", "triplet_differences", "full_kernel_specs", "weak_kernel_specs", "kernel_groups",
           "kernel_stack", "LPResult", "build_full_lp", "lp_sizes", "solve_full_lp", "solve_cutting_plane",
           "dominance_violation", "TripletError", "check_triplets", "triplets_from_labels",
           "paper_test_triples"]
