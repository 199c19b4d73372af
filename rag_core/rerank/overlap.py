"""The token-overlap baseline reranker.

``overlap(q, c) = |{w ∈ W(q) : w is a substring of lower(c.content)}| / |W(q)|``
where ``W(q)`` is the set of distinct words of the query under the
``unicode`` analyzer (lowercase ``\\w+``). Substring matching lets ``한라산``
match ``한라산은`` but not the other way round: a query word with a
particle (``한라산의``) matches nothing the document does not literally
contain. Order: overlap descending, then retrieval score descending, then
chunk order ``(doc_id, ordinal)``; equal overlaps are marked tied.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rag_core.rerank import Reranked, register_reranker
from rag_core.retrieval.sparse.analyzers import unicode_terms
from rag_core.types import Chunk, Hit
from rag_core.wording import declare, notice

#: A hit's note: how many of the question's words it holds, and which.
RERANK_OVERLAP = declare("rerank.overlap", "found", "words", "terms")
RERANK_OVERLAP_NONE = declare("rerank.overlap_none", "words")


def query_words(query: str) -> tuple[str, ...]:
    """Distinct lowercase ``\\w+`` words of the query, in order of first appearance."""
    return tuple(dict.fromkeys(unicode_terms(query)))


def overlap_fraction(words: Sequence[str], content: str) -> tuple[float, tuple[str, ...]]:
    """Share of ``words`` found as substrings of ``content.lower()``, and which.

    No words gives 0.0 (nothing can be matched).
    """
    if not words:
        return 0.0, ()
    text = content.lower()
    found = tuple(w for w in words if w in text)
    return len(found) / len(words), found


def _chunk(chunks: Mapping[str, Chunk], chunk_id: str) -> Chunk:
    try:
        return chunks[chunk_id]
    except KeyError:
        raise ValueError(f"chunk {chunk_id!r} of the hits is not in the chunk table") from None


@register_reranker("overlap", "token overlap (baseline)")
def rerank_overlap(
    query: str, hits: Sequence[Hit], chunks: Mapping[str, Chunk], **_: Any
) -> Reranked:
    """Order the hits by query-word overlap (see the module docstring)."""
    words = query_words(query)
    rows = []
    for i, h in enumerate(hits):
        c = _chunk(chunks, h.chunk_id)
        frac, found = overlap_fraction(words, c.content)
        rows.append((i, frac, found, h.score, c.doc_id, c.ordinal))
    rows.sort(key=lambda r: (-r[1], -r[3], r[4], r[5]))
    notes = tuple(
        notice(RERANK_OVERLAP, found=len(r[2]), words=len(words), terms=", ".join(r[2]))
        if r[2]
        else notice(RERANK_OVERLAP_NONE, words=len(words))
        for r in rows
    )
    return Reranked(
        order=tuple(r[0] for r in rows),
        scores=tuple(r[1] for r in rows),
        notes=notes,
        info={"query_words": list(words)},
    )
