"""Term-count matrices of the text corpora (never the raw text).

Tokenisation, identical for every corpus: the text is lower-cased and the
tokens are the maximal runs of at least two letters (``TOKEN_PATTERN``: Unicode
letters, no digits, no underscore); an n-gram is n consecutive tokens of one
document (or sentence).  Counting uses scikit-learn's ``CountVectorizer``.
"""

from __future__ import annotations

import re
import tarfile
import zipfile
from pathlib import Path

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer

from fsbook.datasets._store import encode_strings, sparse_arrays

TOKEN_PATTERN = r"[^\W\d_]{2,}"
# n -> minimum number of documents (sentences) an n-gram must occur in
MOVIE_MIN_DF = {1: 2, 2: 2, 3: 2}
WEBTEXT_MIN_DF = {1: 2, 2: 2, 3: 2}
NEWS_MIN_DF = 2
WEBTEXT_SITES = ["firefox", "grail", "overheard", "pirates", "singles", "wine"]
WEBTEXT_ENCODING = "iso8859_2"  # the encoding NLTK's webtext reader declares
SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+")
_HAS_TOKEN = re.compile(TOKEN_PATTERN)


def count_matrix(texts, ngram=1, min_df=1):
    vec = CountVectorizer(lowercase=True, token_pattern=TOKEN_PATTERN, ngram_range=(ngram, ngram),
                          min_df=min_df, dtype=np.int32)
    X = vec.fit_transform(texts)
    vocab = vec.get_feature_names_out()
    return X, vocab


def parse_20newsgroups(src: Path, headers=True):
    """All 18,846 posts of the bydate split: counts over words in >= 2 posts (``headers=False``:
    each post without its header, the lines before its first blank line)."""
    docs = []
    with tarfile.open(src / "text/20newsgroups/20news-bydate.tar.gz", "r:gz") as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            parts = member.name.split("/")
            if len(parts) != 3 or not parts[0].startswith("20news-bydate-"):
                raise ValueError(f"unexpected member {member.name}")
            subset = parts[0].rsplit("-", 1)[1]
            text = tar.extractfile(member).read().decode("latin-1")
            if not headers:
                text = text.split("\n\n", 1)[-1]
            docs.append((0 if subset == "train" else 1, parts[1], int(parts[2]), text))
    docs.sort(key=lambda d: (d[0], d[1], d[2]))
    groups = sorted({d[1] for d in docs})
    X, vocab = count_matrix([d[3] for d in docs], 1, NEWS_MIN_DF)
    arrays = sparse_arrays("X_", X)
    arrays.update({
        "target": np.array([groups.index(d[1]) for d in docs], dtype=np.int8),
        "subset": np.array([d[0] for d in docs], dtype=np.int8),
        "post_id": np.array([d[2] for d in docs], dtype=np.int32),
        "vocabulary": encode_strings(vocab),
    })
    meta = {"target_names": groups, "notes": [
        f"{X.shape[0]} posts ({int((arrays['subset'] == 0).sum())} train, "
        f"{int((arrays['subset'] == 1).sum())} test), vocabulary of {X.shape[1]} words occurring "
        f"in at least {NEWS_MIN_DF} posts, {X.nnz} non-zero counts."]}
    return arrays, meta


def read_movie_reviews(src: Path):
    texts, target, ids = [], [], []
    with zipfile.ZipFile(src / "text/nltk_movie_reviews/movie_reviews.zip") as zf:
        names = sorted(n for n in zf.namelist() if n.endswith(".txt"))
        for name in names:
            _, label, fname = name.split("/")
            texts.append(zf.read(name).decode("ascii"))
            target.append({"neg": 0, "pos": 1}[label])
            ids.append(f"{label}/{fname[:-4]}")
    return texts, np.array(target, dtype=np.int8), ids


def parse_movie_reviews(src: Path, ngram: int, corpus=None):
    texts, target, ids = corpus if corpus is not None else read_movie_reviews(src)
    X, vocab = count_matrix(texts, ngram, MOVIE_MIN_DF[ngram])
    arrays = sparse_arrays("X_", X)
    arrays.update({"target": target, "vocabulary": encode_strings(vocab),
                   "doc_ids": encode_strings(ids)})
    meta = {"target_names": ["neg", "pos"], "notes": [
        f"{X.shape[0]} reviews, {X.shape[1]} distinct {ngram}-grams occurring in at least "
        f"{MOVIE_MIN_DF[ngram]} reviews, {X.nnz} non-zero counts."]}
    return arrays, meta


def webtext_sentences(src: Path):
    """Sentences of the six webtext files.

    Each line of a file is a unit, split further after ``.``, ``!`` or ``?``
    followed by white space (``SENTENCE_SPLIT``); units without any token
    (``TOKEN_PATTERN``) are dropped.
    """
    sents, site, line_no = [], [], []
    with zipfile.ZipFile(src / "text/nltk_webtext/webtext.zip") as zf:
        for k, name in enumerate(WEBTEXT_SITES):
            text = zf.read(f"webtext/{name}.txt").decode(WEBTEXT_ENCODING)
            for i, line in enumerate(text.splitlines(), start=1):
                for s in SENTENCE_SPLIT.split(line.strip()):
                    if _HAS_TOKEN.search(s.lower()):
                        sents.append(s)
                        site.append(k)
                        line_no.append(i)
    return sents, np.array(site, dtype=np.int8), np.array(line_no, dtype=np.int32)


def parse_webtext(src: Path, ngram: int, corpus=None):
    sents, site, line_no = corpus if corpus is not None else webtext_sentences(src)
    X, vocab = count_matrix(sents, ngram, WEBTEXT_MIN_DF[ngram])
    arrays = sparse_arrays("X_", X)
    arrays.update({"target": site, "line": line_no, "vocabulary": encode_strings(vocab)})
    empty = int((np.diff(X.indptr) == 0).sum())
    meta = {"target_names": WEBTEXT_SITES, "notes": [
        f"{X.shape[0]} sentences, {X.shape[1]} distinct {ngram}-grams occurring in at least "
        f"{WEBTEXT_MIN_DF[ngram]} sentences, {X.nnz} non-zero counts; {empty} sentences have "
        f"no retained {ngram}-gram (all-zero rows, kept so that every n uses the same sentences)."]}
    return arrays, meta
