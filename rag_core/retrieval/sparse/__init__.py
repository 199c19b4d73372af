"""Sparse retrieval: analyzers, BM25 variants, TF-IDF.

Every index answers the same small :class:`SparseIndex` protocol, so the
pipeline and the UI treat them alike::

    tokens = analyze_many("unicode", texts)
    index = build_sparse_index("bm25", tokens, variant="lucene", k1=1.2, b=0.75)
    idx, scores = index.top(get_analyzer("unicode")(query), k=8)
    found = index.search(get_analyzer("unicode")(query), k=8)  # + found.n_candidates
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from rag_core.retrieval.sparse.analyzers import (
    KIWI_CONTENT_TAGS,
    analyze_many,
    char_ngrams,
    get_analyzer,
)
from rag_core.retrieval.sparse.bm25 import BM25Index
from rag_core.retrieval.sparse.postings import SparseResult
from rag_core.retrieval.sparse.tfidf import TfidfIndex
from rag_core.types import TermStat

SPARSE_METHODS = ("bm25", "tfidf")


@runtime_checkable
class SparseIndex(Protocol):
    """What every sparse index offers."""

    @property
    def n_docs(self) -> int: ...

    @property
    def vocabulary_size(self) -> int: ...

    @property
    def idf_form(self) -> str: ...

    def scores(self, query_tokens: Sequence[str]) -> NDArray[np.float64]: ...

    def top(
        self, query_tokens: Sequence[str], k: int
    ) -> tuple[NDArray[np.intp], NDArray[np.float64]]: ...

    def candidates(self, query_tokens: Sequence[str]) -> NDArray[np.bool_]: ...

    def search(self, query_tokens: Sequence[str], k: int) -> SparseResult: ...

    def term_stats(self, query_tokens: Sequence[str]) -> tuple[TermStat, ...]: ...


def build_sparse_index(
    method: str, token_lists: Sequence[Sequence[str]], **params: Any
) -> SparseIndex:
    """Build a ``bm25`` or ``tfidf`` index over analyzed documents.

    Args:
        method: ``bm25`` or ``tfidf``.
        token_lists: One list of terms per document.
        **params: ``BM25Index.build`` keywords (``variant``, ``k1``, ``b``,
            ``delta``, ``epsilon``); ``tfidf`` takes none.

    Raises:
        ValueError: Unknown method, unknown or misplaced parameter.
    """
    if method == "bm25":
        allowed = {"variant", "k1", "b", "delta", "epsilon"}
        bad = sorted(set(params) - allowed)
        if bad:
            raise ValueError(
                f"unknown bm25 parameter(s) {', '.join(bad)}; valid: {', '.join(sorted(allowed))}"
            )
        return BM25Index.build(token_lists, **params)
    if method == "tfidf":
        if params:
            raise ValueError(f"tfidf takes no parameters, got {', '.join(sorted(params))}")
        return TfidfIndex.build(token_lists)
    raise ValueError(
        f"unknown sparse method {method!r}; valid choices: {', '.join(SPARSE_METHODS)}"
    )


__all__ = [
    "KIWI_CONTENT_TAGS",
    "SPARSE_METHODS",
    "BM25Index",
    "SparseIndex",
    "SparseResult",
    "TfidfIndex",
    "analyze_many",
    "build_sparse_index",
    "char_ngrams",
    "get_analyzer",
]
