"""Loaders of the compact, checksummed datasets under ``data/``.

``data/`` is built from the raw files of ``shared/data`` by
``python -m fsbook.datasets build --source ../shared/data`` and committed; a wheel built from the
repository ships it as ``fsbook/_data/data``.  Every loader verifies the file's sha256 and
raises :class:`DatasetError`, naming the file and the remedy that works where it runs
(``git checkout`` in a clone, reinstalling or ``FSBOOK_DATA_DIR`` for an installed package), if
it is missing or corrupted.  There is no fallback to synthetic data.  The data folder
(:func:`data_dir`) is ``$FSBOOK_DATA_DIR`` if set, else the copy installed with the package,
else the clone's ``data/`` (:mod:`fsbook.datasets._location`).
"""

from fsbook.datasets._catalog import list_datasets, load_by_name, paper_names, rule_consistency
from fsbook.datasets._loaders import (
                       load_20newsgroups,
                       load_arcene,
                       load_balance_scale,
                       load_boston,
                       load_breast_cancer,
                       load_breast_cancer_wisconsin,
                       load_colon,
                       load_dexter,
                       load_glass,
                       load_hepatitis,
                       load_ionosphere,
                       load_iris,
                       load_leukemia,
                       load_lymphoma,
                       load_lymphoma62,
                       load_madelon,
                       load_monks,
                       load_movie_reviews,
                       load_pima,
                       load_soybean_small,
                       load_tic_tac_toe,
                       load_transfusion,
                       load_vote,
                       load_wdbc,
                       load_webtext,
                       load_wine,
                       load_yale,
)
from fsbook.datasets._newsgroups import PAIR, load_atheism_religion, most_frequent_words, outer_folds
from fsbook.datasets._registry import BYDATE_PUBLISHED_COUNTS
from fsbook.datasets._store import REBUILD_COMMAND, DatasetError, data_dir, data_size_mb

__all__ = [
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
