"""The chapter's claims by table (:data:`CHAPTER_CLAIMS`) and the sentences it says about them
(:class:`ClaimPhrases`: which data sets have a verdict, each data set's effect, the verdict over
the data sets).
"""
from __future__ import annotations

import numpy as np

from fsbook.experiments.kernel_design.paper import PAPER_NAMES
from fsbook.report import describe_claim, format_p, join_words

#: the chapter's claims by table, in the order it shows them
CHAPTER_CLAIMS = {
    "Figure 1": ["weak mixture above the best single kernel",
                 "weak mixture (α ≥ 0, ours) above the best single kernel",
                 "full mixture above the best single kernel", "linear ≈ polynomial of degree 2"],
    "Figure 2": ["weak mixture keeps fewer than D features",
                 "weak mixture (α ≥ 0, ours) keeps fewer than D features"],
    "Figure 3": ["weak mixture above MMC", "weak mixture (α ≥ 0, ours) above MMC",
                 "full mixture above MMC (ours)"],
    "our additions": ["weak mixture (α ≥ 0) above the full mixture", "weak mixture (α ≥ 0) above NCA"],
    "selection check": ["the selector keeps fewer than D features",
                        "SVM accuracy on kept features ≈ on all features"],
}
W_, NN_, FULL_, LP_ = CHAPTER_CLAIMS["Figure 1"]
F2W, F2NN = CHAPTER_CLAIMS["Figure 2"]
F3W, F3NN, F3FULL = CHAPTER_CLAIMS["Figure 3"]
NN_FULL, NN_NCA = CHAPTER_CLAIMS["our additions"]
SEL_K, SEL_A = CHAPTER_CLAIMS["selection check"]
#: the "about the same" claims have no paper's direction: their effect is the first minus the second
AHEAD = {LP_: "with the linear kernel ahead", SEL_A: "with the kept features ahead"}


class ClaimPhrases:
    """Sentences about the claims of a :func:`~fsbook.experiments.kernel_design.claims.claims` table:
    which data sets have a verdict, each data set's effect, the verdict over the data sets.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"claim": ["c", "c", "c"], "dataset": ["iris", "wine", ""],
    ...                       "verdict": ["holds", "fails", "holds"], "counted": [True, True, False]})
    >>> p = ClaimPhrases(table)
    >>> p.where("c", "holds"), p.n_verdict("c", "fails"), p.n_verdict("c", "holds", counted=False)
    ('Iris', 1, 0)
    """

    def __init__(self, table):
        self.per = table[table["dataset"] != ""]
        self.over_rows = table[table["dataset"] == ""].set_index("claim")

    def rows_of(self, claim, verdict=None, counted=None):
        """The per-data-set rows of ``claim``, with ``verdict`` and counted or not, if given."""
        r = self.per[self.per["claim"] == claim]
        if verdict is not None:
            r = r[r["verdict"] == verdict]
        if counted is not None:
            r = r[r["counted"] == counted]
        return r

    def n_verdict(self, claim, verdict, counted=None):
        """How many data sets have ``verdict`` on ``claim``."""
        return len(self.rows_of(claim, verdict, counted))

    def where(self, claim, verdict, counted=None):
        """The names of the data sets with ``verdict`` on ``claim``, joined in words."""
        return join_words([PAPER_NAMES[d] for d in self.rows_of(claim, verdict, counted)["dataset"]])

    @staticmethod
    def directed(text, claim):
        """``text`` with "in the paper's direction" said for an "about the same" claim."""
        return text.replace("in the paper's direction", AHEAD[claim]) if claim in AHEAD else text

    def said(self, claim, dataset, decimals=3, units=""):
        """The verdict and effect of ``claim`` on ``dataset`` (:func:`fsbook.report.describe_claim`)."""
        row = self.per[(self.per["claim"] == claim) & (self.per["dataset"] == dataset)].iloc[0]
        return self.directed(describe_claim(row, decimals=decimals, units=units), claim)

    def each(self, claim, verdict, decimals=3, counted=None, units=""):
        """'Housing-Boston (+0.225 ± 0.044, …)' for the data sets with this verdict."""
        r = self.rows_of(claim, verdict, counted)
        return join_words([f"{PAPER_NAMES[d]} {self.said(claim, d, decimals, units)[len(verdict) + 1:]}"
                           for d in r["dataset"]])

    def over(self, claim):
        """The verdict over the data sets (Wilcoxon signed-rank), or why there is none, with the
        per-data-set verdicts."""
        r = self.over_rows.loc[claim]
        votes = r["note"].split("; ")[-1]
        n = int(r["n"])
        if n == 0:
            return "untestable: no data set counted"
        if not np.isfinite(float(r["p"])):
            return (f"untestable over the {n} data sets counted (a Wilcoxon test needs six); per data set "
                    f"it {votes}")
        return self.directed(f"{r['verdict']} over the {n} data sets counted (Wilcoxon signed-rank, "
                             f"{int(r['n_direction'])} of {n} in the paper's direction, {format_p(r['p_adj'])}; "
                             f"per data set: {votes})", claim)
