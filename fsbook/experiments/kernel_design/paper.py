"""Fung, Rosales & Rao (2007), Section 3: the paper's data sets and names, the settings of the
protocol, the tie rule of its model search and its version history.

The paper's own exceptions (data sets on which Section 3.2 says a claim does not hold) are
:data:`fsbook.experiments.kernel_design.claims.PAPER_EXCEPTIONS`, beside the claims they qualify.
"""

#: the protocol's version, part of every task's store key (``Protocol(version=...)``):
#:
#: * ``"1"``: Figures 1-3 (single kernels, full and weak mixtures with γ1, γ2 by 2-fold CV, MMC;
#:   Figure 2 by 10-fold CV in the full protocol; glass stands in for Protein);
#: * ``"2"``: the weak mixture with α ≥ 0 (``weak_nonneg``), the NCA baseline and the
#:   feature-selection check (a linear SVM on the selector's features against all, 5 folds);
#: * ``"3"``: a triple is respected by a relative margin (:data:`fsbook.decisions.RTOL`), the
#:   (γ1, γ2) pair is chosen by :func:`fsbook.decisions.argbest` (:data:`TIE_RULE`), and the weak
#:   mixture's γ search skips the grid points where α = 0 is implied;
#: * ``"4"``: the full mixture's γ search skips them too
#:   (:data:`~fsbook.experiments.kernel_design.tasks.SKIP_IMPLIED_ZERO`);
#: * ``"5"``: each selection-check task also stores its test samples' outcomes under both SVMs
#:   (``outcomes_all``, ``outcomes_kept``), for the sign test on the partition's pooled samples;
#:   every other result is the version 4 one;
#: * ``"6"``: the selection check runs :data:`SELECTION_REPEATS` repetitions of stratified 5-fold
#:   CV (task key ``repeat``; repetition 0 is version 5's partition, its tasks recomputed equal),
#:   its claims decided by the paired t over the repetition means; the 630 other records are
#:   version 5's carried over (same params, results and timings, new keys).
VERSION = "6"
#: how the model searches break ties: cross-validated scores within
#: :data:`fsbook.decisions.SCORE_ATOL` are tied, and a tie goes to the first candidate in grid
#: order: the (γ1, γ2) pairs of the mixtures (γ1 outer, γ2 inner, each ascending; by
#: :func:`fsbook.decisions.argbest`) and the linear SVM's ``C`` of the selection check
#: (``tuned_svm(..., tie=TIE_RULE)``)
TIE_RULE = "first"

#: Table 1 of the paper, in its order; Protein (8) is not available, glass stands in for it
DATASETS = ["boston", "ionosphere", "iris", "wine", "balance_scale", "wdbc", "soybean_small",
            "glass", "pima"]
PAPER_NAMES = {"boston": "Housing-Boston", "ionosphere": "Ionosphere", "iris": "Iris",
               "wine": "Wine", "balance_scale": "Balance Scale", "wdbc": "Breast-Cancer Wisc.",
               "soybean_small": "Soybean Small", "glass": "Glass (for Protein)",
               "pima": "Pima Diabetes"}
PAPER_INDEX = {d: i + 1 for i, d in enumerate(DATASETS)}
SINGLES = {"Gauss mu=1": ("gaussian", 1.0), "Gauss mu=0.1": ("gaussian", 0.1),
           "Poly degree 2": ("polynomial", 2.0), "Linear": ("linear", 0.0)}
FULL_GRID = [1e-4, 1e-2, 1e-1, 1.0, 10.0, 100.0]
BOOK_GRID = [1e-4, 1e-1]
FULL_MU = (0.1, 1.0, 10.0, 100.0)
WEAK_MU = (1.0, 10.0, 100.0)
THRESHOLD = 0.01
#: mixture methods: (kernel family, how K^α is kept PSD)
MIXTURES = {"full": ("full", "dominance"), "weak": ("weak", "dominance"),
            "weak_nonneg": ("weak", "nonnegative")}
#: datasets of the feature-selection check (the three with the most features but soybean's 47 points)
SELECTION_DATASETS = ["ionosphere", "wdbc", "wine"]
#: independent repetitions of the selection check's stratified 5-fold CV, each partition seeded
#: from the data set and the repetition: the units of its claims are the repetition means
SELECTION_REPEATS = 10
SVM_C = [0.01, 0.1, 1.0, 10.0]
