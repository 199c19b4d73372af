"""Postings shared by the sparse indexes: vocabulary, df, per-(term, doc) tf.

The matrix is stored term-major (CSR with one row per term, columns = docs),
so a query touches only its terms' rows: ``indices[indptr[t]:indptr[t+1]]``
are the documents containing term ``t`` (ascending, each once) and ``tf`` the
counts there. Building is vectorised (one dictionary pass to map terms to ids,
then numpy/scipy), as bm25s does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from rag_core.types import TermStat


@dataclass(frozen=True)
class Postings:
    """Term-major postings of a tokenised corpus.

    Attributes:
        vocab: term -> row id.
        indptr: row pointers (length ``V + 1``).
        docs: document ids of each posting (ascending within a row).
        tf: term frequency of each posting.
        doc_len: terms per document (with repetitions).
    """

    vocab: dict[str, int]
    indptr: NDArray[np.int64]
    docs: NDArray[np.int32]
    tf: NDArray[np.float64]
    doc_len: NDArray[np.float64]

    @property
    def n_docs(self) -> int:
        return int(self.doc_len.shape[0])

    @property
    def df(self) -> NDArray[np.int64]:
        """Document frequency per term id."""
        return np.diff(self.indptr)

    @property
    def term_of_posting(self) -> NDArray[np.intp]:
        """The term id of each posting (``np.repeat(arange(V), df)``)."""
        return np.repeat(np.arange(len(self.vocab)), self.df)


def build_postings(token_lists: Sequence[Sequence[str]]) -> Postings:
    """Count every term of every document.

    Args:
        token_lists: One list of terms per document (may be empty lists).

    Raises:
        ValueError: When there are no documents, or a document is a bare string
            (a common slip: it would be read as a list of characters).
    """
    n_docs = len(token_lists)
    if n_docs == 0:
        raise ValueError("cannot build a sparse index over 0 documents; give at least one")
    for i, toks in enumerate(token_lists):
        if isinstance(toks, str):
            raise ValueError(
                f"document {i} is a string, not a list of terms; run an analyzer first "
                "(rag_core.retrieval.sparse.analyze_many)"
            )
    lengths = np.fromiter(map(len, token_lists), dtype=np.int64, count=n_docs)
    total = int(lengths.sum())
    flat = list(chain.from_iterable(token_lists))
    # term ids in order of first appearance; map() keeps the per-token work in C
    vocab = {term: i for i, term in enumerate(dict.fromkeys(flat))}
    term_ids = np.fromiter(map(vocab.__getitem__, flat), dtype=np.int64, count=total)
    del flat
    doc_ids = np.repeat(np.arange(n_docs, dtype=np.int32), lengths)
    mat = sp.csr_matrix(
        (np.ones(total, dtype=np.float64), (term_ids, doc_ids)), shape=(len(vocab), n_docs)
    )
    mat.sum_duplicates()  # also sorts each row's doc ids
    return Postings(
        vocab=vocab,
        indptr=mat.indptr.astype(np.int64, copy=False),
        docs=mat.indices.astype(np.int32, copy=False),
        tf=mat.data,
        doc_len=lengths.astype(np.float64),
    )


def query_term_counts(
    vocab: dict[str, int], query_tokens: Sequence[str]
) -> tuple[list[tuple[str, int]], list[tuple[int, int]]]:
    """Distinct query terms with their counts, and the known ones as ``(term id, qtf)``.

    A term repeated in the query counts repeatedly (as rank-bm25's
    ``get_scores`` loops over the query). Order is first appearance.
    """
    if isinstance(query_tokens, str):
        raise ValueError(
            "query_tokens is a string, not a list of terms; run an analyzer first "
            "(rag_core.retrieval.sparse.get_analyzer)"
        )
    counts = Counter(query_tokens)
    known = [(vocab[t], c) for t, c in counts.items() if t in vocab]
    return list(counts.items()), known


def term_stats(
    vocab: dict[str, int],
    df: NDArray[np.int64],
    idf: NDArray[np.float64],
    query_tokens: Sequence[str],
) -> tuple[TermStat, ...]:
    """One :class:`TermStat` per distinct query term (df 0 and idf None when unknown)."""
    items, _ = query_term_counts(vocab, query_tokens)
    stats = []
    for term, qtf in items:
        tid = vocab.get(term)
        if tid is None:
            stats.append(TermStat(term, qtf, 0, None))
        else:
            stats.append(TermStat(term, qtf, int(df[tid]), float(idf[tid])))
    return tuple(stats)


#: Candidate counts up to this are ranked directly; above it a sampled lower
#: bound on the k-th best score first cuts the candidates down.
_DIRECT_TOP_K = 2048
#: Size of the strided sample that gives that lower bound.
_SAMPLE = 4096


class SparseResult(NamedTuple):
    """What a sparse index's ``search`` returns, from one scoring pass.

    Attributes:
        indices: row indices of the best documents (chunks), best first.
        scores: their scores, in the same order.
        n_candidates: how many documents could be returned at all (contain a
            query term and score > 0), whatever ``k``.
    """

    indices: NDArray[np.intp]
    scores: NDArray[np.float64]
    n_candidates: int


def top_k(
    scores: NDArray[np.float64], candidates: NDArray[np.bool_], k: int
) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
    """The ``k`` best candidates by score, ties broken by document order (stable).

    With many candidates, the ``k``-th best score of a strided sample of them
    is a lower bound ``t`` on the ``k``-th best score overall (the sample is a
    subset), so every member of the top ``k`` — ties at the cut included —
    has score ``>= t``; only those are ranked. The result is the same as a
    stable sort of all candidates, without the full sort (or a partition of
    every document, as ``numpy.argpartition`` top-k selection does).

    Args:
        scores: Score per document.
        candidates: Which documents may be returned.
        k: How many at most (``k >= 1``).

    Returns:
        ``(doc indices, scores)``, best first; shorter than ``k`` when there are
        fewer candidates, empty when there are none.
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ValueError(f"k = {k!r} must be an integer >= 1")
    n_cands = int(np.count_nonzero(candidates))
    if n_cands == 0:
        return np.empty(0, dtype=np.intp), np.empty(0, dtype=np.float64)
    if n_cands <= max(k, _DIRECT_TOP_K):
        idx = np.flatnonzero(candidates)
        vals = scores[idx]
    else:
        masked = np.where(candidates, scores, -np.inf)
        sample = masked[:: max(1, masked.size // _SAMPLE)]
        bound = -np.inf
        if sample.size >= k:
            bound = np.partition(sample, sample.size - k)[sample.size - k]
        if bound == -np.inf:  # fewer than k candidates sampled: the exact k-th best
            bound = np.partition(masked, masked.size - k)[masked.size - k]
        idx = np.flatnonzero(masked >= bound)
        vals = masked[idx]
    if idx.size > k:
        # k-th best value via a partial sort, then keep everything at least that
        # good so that ties at the cut are resolved by document order below.
        kth = -np.partition(-vals, k - 1)[k - 1]
        keep = vals >= kth
        idx, vals = idx[keep], vals[keep]
    order = np.lexsort((idx, -vals))[:k]
    return idx[order], vals[order]
