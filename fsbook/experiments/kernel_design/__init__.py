"""Protocol of Fung, Rosales & Rao (2007), Section 3: Figures 1–3.

Tasks are ``{"dataset", "split", "method", ...}``:

* ``method="singles"``: fraction of test triples respected by the single kernels of Figure 1
  (Gaussian μ = 1 and 0.1, polynomial of degree 2, linear);
* ``method="full"`` / ``"weak"``: the mixtures of formulations (4) / (7), γ1, γ2 chosen by 2-fold
  CV on the training part (train on the triples of one half, score on test triples of the
  other half, both ways), refitted on all training triples; also the selected features
  (max |α_p| over a feature's kernels > 0.01, Figure 2) and the certificate of
  positive semidefiniteness on ``S``;
* ``method="weak_nonneg"``: the weak mixture with ``α ≥ 0`` in place of diagonal dominance
  (``psd="nonnegative"``, our departure from the paper), γ chosen the same way;
* ``method="mmc"``: Xing et al. (2002) given the same supervision as pairs (Figure 3);
* ``method="nca"``: the baseline a user would try, scikit-learn's neighbourhood components
  analysis trained on the labels of the training part (more supervision than the triples),
  triples ordered by Euclidean distance after the learnt map;
* ``method="selection"`` (datasets of :data:`SELECTION_DATASETS`): fold ``split`` of repetition
  ``repeat`` (of :data:`SELECTION_REPEATS`, version 6 on) of a stratified 5-fold CV; test accuracy of a linear SVM (C by 3-fold CV on the training fold) on
  all standardised features and on the features kept by
  :class:`~fsbook.kernel_design.WeakKernelSelector` (defaults, fitted on the training fold),
  and the test samples' outcomes under both SVMs (version 5 on);
* ``method="weak_cv10"`` (full protocol only): Figure 2's 10-fold CV count of selected
  features: the weak mixture (γ by 2-fold CV) trained on nine tenths of the data.

Every split: a random 0.85/0.15 partition (seed from dataset and split), features standardised
with the training part's mean and deviation, ``n_train`` training triples from the labels of the
training part, ``n_test`` test triples from the test part.  A test triple ``(a, b, c)`` with
``a, b`` in one class is respected when ``K(a, b) > K(a, c)`` and ``K(a, b) > K(b, c)`` (the
paper's "two points in the same class are more similar to each other than any of these points
to the third"); for MMC, with distances reversed.  Ties count as not respected.

:func:`weak_kernel_regimes` (not a protocol part) refits formulation (7) under other regimes (raw
features, other widths, dominance per triple, α ≥ 0) to find why it learns the zero kernel;
:func:`regime_claims` decides those hypotheses.  ``benchmarks/kernel_design.py --only regimes``
records its rows for the chapter.

:func:`claims` decides the chapter's claims on the stored per-split results (the plain paired
t-test over the splits or folds, the selection check's claims by the paired t over the means of its
repetitions of 5-fold CV, Holm within each figure; over the data sets the Wilcoxon
signed-rank test, in families of their own; "about the same" claims by the engine's equivalence
verdict, *no gain* within :data:`EQUIVALENCE_MARGIN`); :data:`PARTS` maps a task's ``method`` to the function that runs it, and
:func:`reduce` builds each table with its own builder.

Book subsample (``full=False``): 2 splits, 300 training triples, γ1, γ2 ∈ {1e-4, 1e-1};
full protocol: 10 splits, 1 500 triples, γ1, γ2 ∈ {1e-4, 1e-2, 1e-1, 1, 10, 100} and Figure 2's
10-fold CV.

The package holds one module per job: :mod:`~fsbook.experiments.kernel_design.paper` (the
paper's data sets, the settings, the tie rule, the version history),
:mod:`~fsbook.experiments.kernel_design.tasks` (data, splits, the parts and their model search),
:mod:`~fsbook.experiments.kernel_design.tables` (:func:`reduce`, one builder per table),
:mod:`~fsbook.experiments.kernel_design.claims` (the claim families),
:mod:`~fsbook.experiments.kernel_design.ablations` (the weak-kernel regimes),
:mod:`~fsbook.experiments.kernel_design.coverage` (the part of the store the chapter reads),
:mod:`~fsbook.experiments.kernel_design.phrases` (the chapter's claims and the sentences about them),
:mod:`~fsbook.experiments.kernel_design.figures` (the bars of Figures 1 and 3) and
:mod:`~fsbook.experiments.kernel_design.facts` (every number and verdict the chapter's prose
quotes).  The package's ``claims`` and ``facts`` are the functions of those names; import from
the modules by their full dotted path.
"""
from fsbook.experiments._runner import Protocol
from fsbook.experiments.kernel_design import (
                    ablations,
                    claims,
                    coverage,
                    facts,
                    figures,
                    paper,
                    phrases,
                    records,
                    tables,
                    tasks,
)

__all__ = ["PROTOCOL", "ablations", "claims", "coverage", "facts", "figures", "paper", "phrases", "records",
           "tables", "tasks"]

PROTOCOL = Protocol(name="kernel_design", make_tasks=tasks.make_tasks, run_task=tasks.run_task,
                    reduce=tables.reduce, claims=claims.claims, version=paper.VERSION,
                    description="Fung, Rosales & Rao (2007): Figures 1-3 "
                    "(relative-similarity triples, LP kernel mixtures incl. alpha >= 0, MMC, NCA) "
                    "and a feature-selection check")
