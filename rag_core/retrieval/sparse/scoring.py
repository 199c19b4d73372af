"""BM25 and TF-IDF formulas as small pure functions, picked by name.

Notation: ``N`` documents, ``df`` documents containing the term, ``tf`` the
term's count in the document, ``|d|`` the document length in terms, ``avgdl``
the mean document length, ``k1`` and ``b`` the BM25 parameters, and
``K = k1·(1 − b + b·|d|/avgdl)``.

Every function works on scalars and on numpy arrays alike. The variants follow
rank-bm25 0.2.2 (Dorian Brown, https://github.com/dorianbrown/rank_bm25), the
reference implementation this project checks against, including its
departures from the papers (noted per function). The ``lucene`` idf is the one
of Lucene's ``BM25Similarity`` as described by Kamphuis, de Vries, Boytsov &
Lin, "Which BM25 Do You Mean? A Large-Scale Reproducibility Study of Scoring
Variants", ECIR 2020.

A variant is a :class:`Bm25Variant`: an idf function over the whole df array
(Okapi's epsilon floor needs every idf) and a tf function, looked up by name in
:data:`BM25_VARIANTS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from rag_core.registry import Registry

FloatArray = NDArray[np.float64]


# ------------------------------------------------------------------- idf


def idf_okapi_raw(df: ArrayLike, n_docs: int) -> FloatArray:
    """Robertson–Spärck Jones idf as rank-bm25's ``BM25Okapi`` computes it.

    ``idf = ln((N − df + 0.5) / (df + 0.5))`` — 0 for a term in exactly half
    of the documents and negative above (see :func:`idf_okapi` for the floor).
    """
    df = np.asarray(df, dtype=np.float64)
    return np.log(n_docs - df + 0.5) - np.log(df + 0.5)


def idf_okapi(df: ArrayLike, n_docs: int, epsilon: float = 0.25) -> FloatArray:
    """rank-bm25 Okapi idf with its floor for negative values.

    ``idf = ln((N − df + 0.5)/(df + 0.5))``; every idf ``< 0`` is replaced by
    ``ε · mean(idf)``, the mean taken over the whole vocabulary *before*
    flooring (rank-bm25 ``BM25Okapi._calc_idf``). On a tiny corpus the mean
    itself can be ≤ 0, so the floor can be ≤ 0 too, and an idf of exactly 0
    stays 0: a document matching only such terms scores ≤ 0.

    Args:
        df: Document frequency of every vocabulary term (all of them: the floor
            depends on the mean).
        n_docs: ``N``.
        epsilon: ``ε``.
    """
    idf = idf_okapi_raw(df, n_docs)
    if idf.size == 0:
        return idf
    floor = epsilon * float(idf.mean())
    return np.where(idf < 0, floor, idf)


def idf_lucene(df: ArrayLike, n_docs: int) -> FloatArray:
    """Lucene idf ``ln(1 + (N − df + 0.5)/(df + 0.5))``, always > 0 (Kamphuis et al. 2020)."""
    df = np.asarray(df, dtype=np.float64)
    return np.log1p((n_docs - df + 0.5) / (df + 0.5))


def idf_bm25l(df: ArrayLike, n_docs: int) -> FloatArray:
    """BM25L idf as rank-bm25's ``BM25L`` computes it: ``ln(N + 1) − ln(df + 0.5)``.

    (Lv & Zhai 2011 write ``ln((N + 1)/(df + 0.5))``: the same value.)
    """
    df = np.asarray(df, dtype=np.float64)
    return np.log(n_docs + 1.0) - np.log(df + 0.5)


def idf_bm25plus(df: ArrayLike, n_docs: int) -> FloatArray:
    """BM25+ idf as rank-bm25's ``BM25Plus`` computes it: ``ln((N + 1)/df)``."""
    df = np.asarray(df, dtype=np.float64)
    return np.log((n_docs + 1.0) / df)


def idf_tfidf_smooth(df: ArrayLike, n_docs: int) -> FloatArray:
    """scikit-learn's smooth idf ``ln((1 + N)/(1 + df)) + 1``
    (``TfidfTransformer(smooth_idf=True)``).

    As if one extra document contained every term once; the ``+ 1`` keeps a
    term that occurs in every document from being ignored entirely.
    """
    df = np.asarray(df, dtype=np.float64)
    return np.log((1.0 + n_docs) / (1.0 + df)) + 1.0


# -------------------------------------------------------------------- tf


def length_norm(doc_len: ArrayLike, avgdl: float, k1: float, b: float) -> FloatArray:
    """``K = k1 · (1 − b + b·|d|/avgdl)``, the length-normalised saturation constant."""
    doc_len = np.asarray(doc_len, dtype=np.float64)
    return k1 * (1.0 - b + b * doc_len / avgdl)


def tf_okapi(tf: ArrayLike, doc_len: ArrayLike, avgdl: float, k1: float, b: float) -> FloatArray:
    """Okapi/Lucene tf part ``tf·(k1 + 1)/(tf + K)`` (Robertson & Zaragoza 2009, eq. 3.1).

    0 when ``tf = 0``. Lucene ≥ 8 drops the constant ``(k1 + 1)`` factor
    (so do bm25s' ``lucene`` scores); it scales every score alike and leaves
    the ranking unchanged. We keep it, as Robertson & Zaragoza's formula does.
    """
    tf = np.asarray(tf, dtype=np.float64)
    return tf * (k1 + 1.0) / (tf + length_norm(doc_len, avgdl, k1, b))


def tf_bm25l(
    tf: ArrayLike, doc_len: ArrayLike, avgdl: float, k1: float, b: float, delta: float
) -> FloatArray:
    """BM25L tf part as rank-bm25 computes it (Lv & Zhai, CIKM 2011, "When documents are very long,
    BM25 fails!").

    ``ctd = tf / (1 − b + b·|d|/avgdl)``;
    ``part = tf · (k1 + 1)·(ctd + δ)/(k1 + ctd + δ)``.
    The paper's part has no leading ``tf`` factor (it is
    ``(k1 + 1)(ctd + δ)/(k1 + ctd + δ)`` for ``tf > 0`` and 0 otherwise);
    rank-bm25 multiplies by ``tf``, which we reproduce. 0 when ``tf = 0``.
    """
    tf = np.asarray(tf, dtype=np.float64)
    ctd = tf / (1.0 - b + b * np.asarray(doc_len, dtype=np.float64) / avgdl)
    return tf * (k1 + 1.0) * (ctd + delta) / (k1 + ctd + delta)


def tf_bm25plus_matched(
    tf: ArrayLike, doc_len: ArrayLike, avgdl: float, k1: float, b: float
) -> FloatArray:
    """The part of the BM25+ tf term that depends on ``tf``: ``tf·(k1 + 1)/(K + tf)``.

    BM25+ (Lv & Zhai, CIKM 2011, "Lower-bounding term frequency normalization")
    adds ``δ`` to it: ``part = δ + tf·(k1 + 1)/(K + tf)``. rank-bm25 adds the
    ``δ`` for *every* document, also those without the term, so each known
    query term gives every document at least ``idf·δ``; see
    :func:`tf_bm25plus`. The index stores this matched part and adds the
    constant ``Σ idf·δ`` per query.
    """
    return tf_okapi(tf, doc_len, avgdl, k1, b)


def tf_bm25plus(
    tf: ArrayLike, doc_len: ArrayLike, avgdl: float, k1: float, b: float, delta: float
) -> FloatArray:
    """BM25+ tf part as rank-bm25 computes it: ``δ + tf·(k1 + 1)/(K + tf)`` (``δ`` even when ``tf =
    0``)."""
    return delta + tf_bm25plus_matched(tf, doc_len, avgdl, k1, b)


# ---------------------------------------------------------------- tf-idf


def l2_normalise_rows(values: FloatArray, row_of: NDArray[np.intp], n_rows: int) -> FloatArray:
    """Divide each stored value by its row's Euclidean norm ``sqrt(Σ v²)`` (rows of norm 0 stay
    0)."""
    sq = np.bincount(row_of, weights=values * values, minlength=n_rows)
    norm = np.sqrt(sq)
    norm[norm == 0] = 1.0
    return values / norm[row_of]


# --------------------------------------------------------------- variants


@dataclass(frozen=True)
class Bm25Variant:
    """One BM25 variant: its idf over the vocabulary and its per-(term, doc) weight.

    ``idf(df, n_docs, epsilon)`` gets the df of the whole vocabulary.
    ``matched(tf, doc_len, avgdl, k1, b, delta)`` is the tf part for documents
    that contain the term (``tf ≥ 1``); ``unmatched_tf`` is the tf part a
    document *without* the term receives (``δ`` for rank-bm25's BM25+, else 0).
    ``form`` names the formula for the UI.
    """

    name: str
    idf: Callable[[FloatArray, int, float], FloatArray]
    matched: Callable[[FloatArray, FloatArray, float, float, float, float], FloatArray]
    uses_delta: bool
    unmatched_tf_is_delta: bool
    form: str


BM25_VARIANTS: Registry[Bm25Variant] = Registry("BM25 variant")

BM25_VARIANTS.add(
    "okapi",
    Bm25Variant(
        name="okapi",
        idf=lambda df, n, eps: idf_okapi(df, n, eps),
        matched=lambda tf, dl, avg, k1, b, delta: tf_okapi(tf, dl, avg, k1, b),
        uses_delta=False,
        unmatched_tf_is_delta=False,
        form="okapi (rank-bm25): idf = ln((N − df + 0.5)/(df + 0.5)), idf < 0 → "
        "ε·mean(idf); w(tf) = tf·(k1+1)/(tf + k1·(1 − b + b·|d|/avgdl))",
    ),
)
BM25_VARIANTS.add(
    "l",
    Bm25Variant(
        name="l",
        idf=lambda df, n, eps: idf_bm25l(df, n),
        matched=tf_bm25l,
        uses_delta=True,
        unmatched_tf_is_delta=False,
        form="BM25L (rank-bm25): idf = ln(N + 1) − ln(df + 0.5); ctd = tf/(1 − b + b·|d|/avgdl); "
        "w(tf) = tf·(k1+1)·(ctd + δ)/(k1 + ctd + δ)",
    ),
)
BM25_VARIANTS.add(
    "plus",
    Bm25Variant(
        name="plus",
        idf=lambda df, n, eps: idf_bm25plus(df, n),
        matched=lambda tf, dl, avg, k1, b, delta: tf_bm25plus_matched(tf, dl, avg, k1, b),
        uses_delta=True,
        unmatched_tf_is_delta=True,
        form="BM25+ (rank-bm25): idf = ln((N + 1)/df); w(tf) = δ + tf·(k1+1)/(tf + "
        "k1·(1 − b + b·|d|/avgdl)), w(0) = δ",
    ),
)
BM25_VARIANTS.add(
    "lucene",
    Bm25Variant(
        name="lucene",
        idf=lambda df, n, eps: idf_lucene(df, n),
        matched=lambda tf, dl, avg, k1, b, delta: tf_okapi(tf, dl, avg, k1, b),
        uses_delta=False,
        unmatched_tf_is_delta=False,
        form="lucene: idf = ln(1 + (N − df + 0.5)/(df + 0.5)); "
        "w(tf) = tf·(k1+1)/(tf + k1·(1 − b + b·|d|/avgdl))",
    ),
)


TFIDF_FORM = "tf-idf (scikit-learn): tf × (ln((1 + N)/(1 + df)) + 1), ‖row‖₂ = 1; score = cos(q, d)"
