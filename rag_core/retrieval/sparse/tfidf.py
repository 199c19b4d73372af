"""TF-IDF with cosine scores, numerically equal to scikit-learn's ``TfidfVectorizer``.

Document vector: ``w(t, d) = tf(t, d) · idf(t)`` with raw counts
(``sublinear_tf=False``) and the smooth idf ``ln((1 + N)/(1 + df)) + 1``,
then L2-normalised. The query vector is built the same way from its known
terms (unknown terms are dropped, as ``TfidfVectorizer.transform`` does).
Score = cosine = dot product of the two unit vectors (Salton & Buckley 1988,
"Term-weighting approaches in automatic text retrieval"; scikit-learn's
``TfidfTransformer`` documentation gives this exact variant).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from rag_core.retrieval.sparse.postings import (
    SparseResult,
    build_postings,
    query_term_counts,
    term_stats,
    top_k,
)
from rag_core.retrieval.sparse.scoring import TFIDF_FORM, idf_tfidf_smooth, l2_normalise_rows
from rag_core.types import TermStat


@dataclass(frozen=True, eq=False)
class TfidfIndex:
    """L2-normalised TF-IDF document vectors, stored term-major."""

    vocab: dict[str, int]
    indptr: NDArray[np.int64]
    docs: NDArray[np.int32]
    weights: NDArray[np.float64]  # normalised w(t, d)
    df: NDArray[np.int64]
    idf: NDArray[np.float64]
    n_docs: int

    @classmethod
    def build(cls, token_lists: Sequence[Sequence[str]]) -> TfidfIndex:
        """Index ``token_lists`` (one list of terms per document).

        Raises:
            ValueError: No documents, or a document given as a bare string.
        """
        post = build_postings(token_lists)
        df = post.df
        idf = idf_tfidf_smooth(df, post.n_docs)
        raw = post.tf * idf[post.term_of_posting]
        weights = l2_normalise_rows(raw, post.docs.astype(np.intp), post.n_docs)
        return cls(
            vocab=post.vocab,
            indptr=post.indptr,
            docs=post.docs,
            weights=weights,
            df=df,
            idf=idf,
            n_docs=post.n_docs,
        )

    @property
    def vocabulary_size(self) -> int:
        return len(self.vocab)

    @property
    def idf_form(self) -> str:
        return TFIDF_FORM

    @property
    def params(self) -> dict[str, float | str]:
        return {"idf": "smooth", "norm": "l2", "sublinear_tf": "false"}

    def query_vector(self, query_tokens: Sequence[str]) -> list[tuple[int, float]]:
        """The query's unit vector as ``(term id, weight)`` over its known terms ([] if none)."""
        _, known = query_term_counts(self.vocab, query_tokens)
        raw = [(tid, qtf * float(self.idf[tid])) for tid, qtf in known]
        norm = math.sqrt(sum(w * w for _, w in raw))
        if norm == 0.0:
            return []
        return [(tid, w / norm) for tid, w in raw]

    def scores(self, query_tokens: Sequence[str]) -> NDArray[np.float64]:
        """Cosine between the query and every document (0 where they share no term)."""
        scores = np.zeros(self.n_docs, dtype=np.float64)
        for tid, qw in self.query_vector(query_tokens):
            start, end = self.indptr[tid], self.indptr[tid + 1]
            np.add.at(
                scores, self.docs[start:end], qw * self.weights[start:end]
            )  # one doc once per row
        return scores

    def top(
        self, query_tokens: Sequence[str], k: int
    ) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
        """The ``k`` best documents with cosine > 0, ties by document order."""
        found = self.search(query_tokens, k)
        return found.indices, found.scores

    def search(self, query_tokens: Sequence[str], k: int) -> SparseResult:
        """:meth:`top` plus the number of candidates, from one scoring pass."""
        scores = self.scores(query_tokens)
        cands = scores > 0
        idx, top_scores = top_k(scores, cands, k)
        return SparseResult(idx, top_scores, int(cands.sum()))

    def candidates(self, query_tokens: Sequence[str]) -> NDArray[np.bool_]:
        """Which documents :meth:`top` may return (cosine > 0)."""
        return self.scores(query_tokens) > 0

    def term_stats(self, query_tokens: Sequence[str]) -> tuple[TermStat, ...]:
        """Each distinct query term with its query count, df and smooth idf."""
        return term_stats(self.vocab, self.df, self.idf, query_tokens)

    def doc_vectors(self) -> sp.csr_matrix:
        """Documents × terms CSR matrix of the unit TF-IDF vectors (for MMR and similar)."""
        mat = sp.csr_matrix(
            (self.weights, self.docs, self.indptr), shape=(self.vocabulary_size, self.n_docs)
        )
        return mat.T.tocsr()
