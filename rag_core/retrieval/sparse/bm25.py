"""BM25 over a precomputed weight matrix (the bm25s approach).

At build time every (term, document) pair gets its final weight
``idf(t) · tf_part(tf, |d|)`` (see :mod:`rag_core.retrieval.sparse.scoring`), stored
term-major; a query is then the sum of a few rows, each multiplied by the
term's query count. No Python loop runs per document.

Candidates: :meth:`BM25Index.top` returns only documents with score > 0 that
contain at least one query term. With the ``okapi`` variant on a tiny corpus
a term in half of the documents or more has idf ≤ 0 (rank-bm25's floor
``ε·mean idf`` can itself be ≤ 0), so a document matching only such terms
scores ≤ 0 and is *not* a candidate. With ``plus``, rank-bm25 gives every
document ``idf·δ`` per known query term even without the term; :meth:`scores`
reproduces that, but a document containing no query term is not a candidate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from rag_core.retrieval.sparse.postings import (
    Postings,
    SparseResult,
    build_postings,
    query_term_counts,
    term_stats,
    top_k,
)
from rag_core.retrieval.sparse.scoring import BM25_VARIANTS, Bm25Variant
from rag_core.types import TermStat


def _check_params(k1: float, b: float, delta: float, epsilon: float) -> None:
    for name, value, low, high in (
        ("k1", k1, 0.0, None),
        ("b", b, 0.0, 1.0),
        ("delta", delta, 0.0, None),
        ("epsilon", epsilon, 0.0, None),
    ):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not np.isfinite(value):
            raise ValueError(f"{name} = {value!r} must be a finite number")
        if value < low or (high is not None and value > high):
            bound = f">= {low}" if high is None else f"between {low} and {high}"
            raise ValueError(f"{name} = {value!r} is out of range; it must be {bound}")


@dataclass(frozen=True, eq=False)
class BM25Index:
    """A BM25 index over tokenised documents; build it with :meth:`build`."""

    variant: str
    k1: float
    b: float
    delta: float
    epsilon: float
    avgdl: float
    vocab: dict[str, int]
    indptr: NDArray[np.int64]
    docs: NDArray[np.int32]
    weights: NDArray[np.float64]
    df: NDArray[np.int64]
    idf: NDArray[np.float64]
    doc_len: NDArray[np.float64]
    unmatched: NDArray[np.float64]  # per term: what a doc without it still gets (BM25+: idf·δ)

    @classmethod
    def build(
        cls,
        token_lists: Sequence[Sequence[str]],
        *,
        variant: str = "lucene",
        k1: float = 1.2,
        b: float = 0.75,
        delta: float = 0.5,
        epsilon: float = 0.25,
    ) -> BM25Index:
        """Index ``token_lists`` (one list of terms per document).

        Args:
            token_lists: Analyzed documents, in document order.
            variant: One of ``okapi``, ``l``, ``plus``, ``lucene``.
            k1: Term-frequency saturation (>= 0).
            b: Length normalisation, 0..1.
            delta: δ of BM25L / BM25+ (ignored by the others).
            epsilon: ε of the Okapi idf floor (ignored by the others).

        Raises:
            ValueError: Unknown variant (lists the valid ones), bad parameter,
                no documents.
        """
        spec = BM25_VARIANTS.get(variant)
        _check_params(k1, b, delta, epsilon)
        post = build_postings(token_lists)
        return cls._from_postings(post, spec, float(k1), float(b), float(delta), float(epsilon))

    @classmethod
    def _from_postings(
        cls, post: Postings, spec: Bm25Variant, k1: float, b: float, delta: float, epsilon: float
    ) -> BM25Index:
        n_docs = post.n_docs
        total = float(post.doc_len.sum())
        # all-empty corpus: no postings, any positive avgdl keeps the formulas finite
        avgdl = total / n_docs if total > 0 else 1.0
        df = post.df
        idf = spec.idf(df.astype(np.float64), n_docs, epsilon)
        term_of = post.term_of_posting
        part = spec.matched(post.tf, post.doc_len[post.docs], avgdl, k1, b, delta)
        weights = idf[term_of] * part
        unmatched = idf * delta if spec.unmatched_tf_is_delta else np.zeros_like(idf)
        return cls(
            variant=spec.name,
            k1=k1,
            b=b,
            delta=delta,
            epsilon=epsilon,
            avgdl=avgdl,
            vocab=post.vocab,
            indptr=post.indptr,
            docs=post.docs,
            weights=weights,
            df=df,
            idf=idf,
            doc_len=post.doc_len,
            unmatched=unmatched,
        )

    # ------------------------------------------------------------ facts
    @property
    def n_docs(self) -> int:
        return int(self.doc_len.shape[0])

    @property
    def vocabulary_size(self) -> int:
        return len(self.vocab)

    @property
    def idf_form(self) -> str:
        """The formula in use, in words (shown in the analyzer view)."""
        return BM25_VARIANTS.get(self.variant).form

    @property
    def params(self) -> dict[str, float | str]:
        out: dict[str, float | str] = {"variant": self.variant, "k1": self.k1, "b": self.b}
        spec = BM25_VARIANTS.get(self.variant)
        if spec.uses_delta:
            out["delta"] = self.delta
        if self.variant == "okapi":
            out["epsilon"] = self.epsilon
        return out

    # ----------------------------------------------------------- scoring
    def _matched_scores(self, query_tokens: Sequence[str]) -> tuple[NDArray[np.float64], float]:
        """Sum of the query terms' rows (× query count), and the constant every doc gets."""
        _, known = query_term_counts(self.vocab, query_tokens)
        scores = np.zeros(self.n_docs, dtype=np.float64)
        constant = 0.0
        indptr, docs, weights = self.indptr, self.docs, self.weights
        for tid, qtf in known:
            start, end = indptr[tid], indptr[tid + 1]
            # a row lists each document once, so each document gets one addition
            # per term, in query order (np.add.at: unbuffered, no index copy)
            row = weights[start:end] if qtf == 1 else qtf * weights[start:end]
            np.add.at(scores, docs[start:end], row)
            constant += qtf * float(self.unmatched[tid])
        return scores, constant

    def scores(self, query_tokens: Sequence[str]) -> NDArray[np.float64]:
        """BM25 score of every document: ``Σ_{t in q} idf(t) · tf_part(t, d)``.

        A term repeated in the query counts once per repetition (rank-bm25).
        Unknown terms contribute 0.
        """
        scores, constant = self._matched_scores(query_tokens)
        if constant:
            scores += constant
        return scores

    def top(
        self, query_tokens: Sequence[str], k: int
    ) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
        """The ``k`` best candidates, ties by document order.

        A candidate contains at least one query term and scores > 0 (see the
        module docstring). No candidates gives two empty arrays.
        """
        found = self.search(query_tokens, k)
        return found.indices, found.scores

    def search(self, query_tokens: Sequence[str], k: int) -> SparseResult:
        """:meth:`top` plus the number of candidates, from one scoring pass."""
        matched, constant = self._matched_scores(query_tokens)
        cands = self._candidates(matched, constant)
        total = matched + constant if constant else matched
        idx, scores = top_k(total, cands, k)
        return SparseResult(idx, scores, int(np.count_nonzero(cands)))

    @staticmethod
    def _candidates(matched: NDArray[np.float64], constant: float) -> NDArray[np.bool_]:
        # BM25+ gives every doc the constant; only docs with a query term are candidates
        if not constant:
            return matched > 0
        return (matched > 0) & (matched + constant > 0)

    def candidates(self, query_tokens: Sequence[str]) -> NDArray[np.bool_]:
        """Which documents :meth:`top` may return (contain a query term, score > 0).

        Use ``candidates(q).sum()`` to count candidates: with ``plus``,
        ``(scores(q) > 0).sum()`` would count every document.
        """
        matched, constant = self._matched_scores(query_tokens)
        return self._candidates(matched, constant)

    def term_stats(self, query_tokens: Sequence[str]) -> tuple[TermStat, ...]:
        """Each distinct query term with its query count, df and the idf in use."""
        return term_stats(self.vocab, self.df, self.idf, query_tokens)
