"""Loaders of the compact, checksummed datasets under ``data/``.

``data/`` is built from the raw files of ``shared/data`` by
``python -m fsbook.datasets build --source ../shared/data`` and committed; a wheel built from the
repository ships it as ``fsbook/_data/data``.  Every loader verifies the file's sha256 and
raises :class:`DatasetError`, naming the file and the remedy that works where it runs
(``git checkout`` in a clone, reinstalling or ``FSBOOK_DATA_DIR`` for an installed package), if
it is missing or corrupted.  There is no fallback to synthetic data.  The data folder
(:func:`data_dir`) is ``$FSBOOK_DATA_DIR`` if set, else the copy installed with the package,
else the clone's ``data/`` (:mod:`fsbook.datasets._location`).

One generator stands beside the loaders: :func:`two_informative`, the toy problem of the
estimators' Examples sections (two classes, two informative columns), never a stand-in for data.
"""

from fsbook.datasets import _newsgroups, _registry, _store
from fsbook.datasets._catalog import list_datasets, load_by_name, paper_names, rule_consistency
from fsbook.datasets._loaders import (
                       load_20newsgroups,
                       load_adenoma,
                       load_arcene,
                       load_balance_scale,
                       load_binary_alphadigits,
                       load_boston,
                       load_brain_tumor_2,
                       load_breast_cancer,
                       load_breast_cancer_wisconsin,
                       load_cnae9,
                       load_cns,
                       load_coil20,
                       load_colon,
                       load_dexter,
                       load_dlbcl,
                       load_glass,
                       load_glioma,
                       load_hepatitis,
                       load_ionosphere,
                       load_iris,
                       load_isolet_subset,
                       load_leukemia,
                       load_libras_movement,
                       load_lung_discrete,
                       load_lymphoma,
                       load_lymphoma62,
                       load_madelon,
                       load_mnist_subset,
                       load_monks,
                       load_movie_reviews,
                       load_msra25,
                       load_nci9,
                       load_optdigits,
                       load_orl,
                       load_pcmac,
                       load_pima,
                       load_prostate_ge,
                       load_satimage,
                       load_sonar,
                       load_soybean_small,
                       load_spambase,
                       load_splice,
                       load_texture,
                       load_tic_tac_toe,
                       load_tox_171,
                       load_transfusion,
                       load_tumors_9,
                       load_usps_subset,
                       load_vehicle,
                       load_vote,
                       load_warp_ar10p,
                       load_warp_pie10p,
                       load_wdbc,
                       load_webtext,
                       load_wine,
                       load_yale,
)
from fsbook.datasets._newsgroups import load_atheism_religion, most_frequent_words, outer_folds
from fsbook.datasets._store import DatasetError, data_dir, data_size_mb
from fsbook.datasets._suite import one_hot_bases
from fsbook.datasets._toy import two_informative

#: the two newsgroups of the binary task of chapters 1 and 6; ``y = 1`` is talk.religion.misc
PAIR = _newsgroups.PAIR
#: the command that rebuilds ``data/`` from the shared data sets (``make data`` runs it)
REBUILD_COMMAND = _store.REBUILD_COMMAND
#: the domains of the catalogue (``list_datasets().domain``) and what each stands for
DOMAINS = _registry.DOMAINS
#: the published per-group post counts (train, test) of 20 Newsgroups' bydate split (J. Rennie's
#: 20news-bydate), against which the reconstructed archive is checked
BYDATE_PUBLISHED_COUNTS = _registry.BYDATE_PUBLISHED_COUNTS

__all__ = [
    "two_informative",
    "load_20newsgroups",
    "load_arcene",
    "load_atheism_religion",
    "load_balance_scale",
    "load_boston",
    "load_breast_cancer",
    "load_breast_cancer_wisconsin",
    "load_colon",
    "load_dexter",
    "load_glass",
    "load_hepatitis",
    "load_ionosphere",
    "load_iris",
    "load_leukemia",
    "load_lymphoma",
    "load_lymphoma62",
    "load_madelon",
    "load_monks",
    "load_movie_reviews",
    "load_pima",
    "load_soybean_small",
    "load_tic_tac_toe",
    "load_transfusion",
    "load_vote",
    "load_wdbc",
    "load_webtext",
    "load_wine",
    "load_yale",
    "load_tumors_9",
    "load_adenoma",
    "load_brain_tumor_2",
    "load_cns",
    "load_dlbcl",
    "load_glioma",
    "load_prostate_ge",
    "load_tox_171",
    "load_nci9",
    "load_lung_discrete",
    "load_orl",
    "load_coil20",
    "load_warp_ar10p",
    "load_warp_pie10p",
    "load_usps_subset",
    "load_mnist_subset",
    "load_binary_alphadigits",
    "load_msra25",
    "load_isolet_subset",
    "load_pcmac",
    "load_cnae9",
    "load_sonar",
    "load_spambase",
    "load_libras_movement",
    "load_optdigits",
    "load_satimage",
    "load_vehicle",
    "load_texture",
    "load_splice",
    "one_hot_bases",
    "DOMAINS",
    "list_datasets",
    "most_frequent_words",
    "outer_folds",
    "PAIR",
    "load_by_name",
    "paper_names",
    "rule_consistency",
    "DatasetError",
    "REBUILD_COMMAND",
    "data_dir",
    "data_size_mb",
    "BYDATE_PUBLISHED_COUNTS",
]
