"""Maximal Marginal Relevance (Carbonell & Goldstein, SIGIR 1998).

Greedy selection from the shortlist ``R``; with ``S`` the hits already picked::

    next = argmax_{d ∈ R \\ S} [ λ·sim(q, d) − (1 − λ)·max_{s ∈ S} sim(d, s) ]

``sim`` is cosine. ``λ = 1`` is pure relevance, ``λ = 0`` pure diversity.
The first pick has no ``S`` (the max term is 0). Ties go to the hit earlier in
retrieval order. The reported score of each hit is its marginal relevance at
the moment it was picked.

Vectors come from a *vectoriser* ``(query, chunks) -> (query_vec, {chunk_id: vec})``
so that dense embeddings can replace the TF-IDF vectors of
:func:`tfidf_vectoriser` (the default) without touching the selection.
Vectors may be numpy arrays or scipy sparse rows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from rag_core.rerank import Reranked, register_reranker
from rag_core.retrieval.sparse.analyzers import get_analyzer
from rag_core.retrieval.sparse.tfidf import TfidfIndex
from rag_core.types import Chunk, Hit

Vectoriser = Callable[[str, Sequence[Chunk]], tuple[Any, Mapping[str, Any]]]


def _stack(vectors: Sequence[Any]) -> NDArray[np.float64]:
    """Rows as one dense matrix, each row L2-normalised (zero rows stay zero)."""
    if any(sp.issparse(v) for v in vectors):
        mat = sp.vstack([sp.csr_matrix(v).reshape(1, -1) for v in vectors]).toarray()
    else:
        mat = np.vstack([np.asarray(v, dtype=np.float64).ravel() for v in vectors])
    mat = np.asarray(mat, dtype=np.float64)
    norm = np.linalg.norm(mat, axis=1, keepdims=True)
    norm[norm == 0] = 1.0
    return mat / norm


def mmr_order(
    query_vec: Any, vectors: Mapping[str, Any], ids: Sequence[str], *, mmr_lambda: float
) -> tuple[list[int], list[float]]:
    """Greedy MMR order of ``ids``.

    Args:
        query_vec: The query vector (array or sparse row).
        vectors: chunk_id -> vector, same space as ``query_vec``.
        ids: Candidate ids in retrieval order.
        mmr_lambda: λ in [0, 1].

    Returns:
        ``(order, scores)``: positions into ``ids`` in pick order, and each
        pick's marginal relevance ``λ·sim(q,d) − (1−λ)·max_{s∈S} sim(d,s)``.

    Raises:
        ValueError: λ outside [0, 1] or an id without a vector.
    """
    if (
        isinstance(mmr_lambda, bool)
        or not isinstance(mmr_lambda, (int, float))
        or not (0.0 <= mmr_lambda <= 1.0)
    ):
        raise ValueError(f"mmr_lambda = {mmr_lambda!r} must be a number between 0 and 1")
    n = len(ids)
    if n == 0:
        return [], []
    missing = [i for i in ids if i not in vectors]
    if missing:
        raise ValueError(f"no vector for chunk(s) {', '.join(map(repr, missing))}")
    mat = _stack([vectors[i] for i in ids] + [query_vec])
    docs, q = mat[:n], mat[n]
    rel = docs @ q
    pair = docs @ docs.T
    chosen: list[int] = []
    scores: list[float] = []
    left = np.ones(n, dtype=bool)
    max_sim = np.zeros(n)  # max similarity to anything already chosen
    for step in range(n):
        mr = mmr_lambda * rel - (1.0 - mmr_lambda) * (max_sim if step else 0.0)
        mr = np.where(left, mr, -np.inf)
        best = int(np.argmax(mr))  # first maximum = earliest in retrieval order
        chosen.append(best)
        scores.append(float(mr[best]))
        left[best] = False
        max_sim = np.maximum(max_sim, pair[:, best])
    return chosen, scores


def tfidf_vectoriser(
    query: str, chunks: Sequence[Chunk], *, analyzer: str = "unicode"
) -> tuple[sp.csr_matrix, dict[str, sp.csr_matrix]]:
    """TF-IDF unit vectors of the query and of each chunk's ``content``.

    The idf is fitted on the given chunks only (the shortlist), with the same
    smooth idf and L2 norm as :class:`~rag_core.retrieval.sparse.tfidf.TfidfIndex`.
    """
    analyze = get_analyzer(analyzer)
    index = TfidfIndex.build([analyze(c.content) for c in chunks])
    rows = index.doc_vectors()
    qv = index.query_vector(analyze(query))
    qrow = sp.csr_matrix(
        ([w for _, w in qv], ([0] * len(qv), [t for t, _ in qv])),
        shape=(1, index.vocabulary_size),
    )
    return qrow, {c.chunk_id: rows[i] for i, c in enumerate(chunks)}


@register_reranker("mmr", "MMR (relevance − redundancy)")
def rerank_mmr(
    query: str,
    hits: Sequence[Hit],
    chunks: Mapping[str, Chunk],
    *,
    mmr_lambda: float = 0.7,
    vectoriser: Vectoriser | None = None,
    **_: Any,
) -> Reranked:
    """MMR over the shortlist; vectors from ``vectoriser`` (TF-IDF by default)."""
    if not hits:
        return Reranked(order=(), scores=(), info={"mmr_lambda": mmr_lambda})
    try:
        shortlist = [chunks[h.chunk_id] for h in hits]
    except KeyError as exc:
        raise ValueError(f"chunk {exc.args[0]!r} of the hits is not in the chunk table") from None
    vec = vectoriser or tfidf_vectoriser
    qvec, vectors = vec(query, shortlist)
    order, scores = mmr_order(qvec, vectors, [h.chunk_id for h in hits], mmr_lambda=mmr_lambda)
    return Reranked(
        order=tuple(order),
        scores=tuple(scores),
        info={
            "mmr_lambda": mmr_lambda,
            "vectors": "tf-idf (unicode, fitted on the shortlist)"
            if vectoriser is None
            else getattr(vectoriser, "__name__", "custom"),
        },
    )
