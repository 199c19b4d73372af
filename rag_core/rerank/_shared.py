"""Steps shared by the model rerankers (cross-encoder, LLM judge, MaxSim)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rag_core.rerank import Reranked
from rag_core.types import Chunk, Hit, Notice


def hit_chunks(hits: Sequence[Hit], chunks: Mapping[str, Chunk]) -> list[Chunk]:
    """The chunk of each hit, in hit order.

    Raises:
        ValueError: a hit names a chunk that ``chunks`` lacks.
    """
    out = []
    for h in hits:
        try:
            out.append(chunks[h.chunk_id])
        except KeyError:
            raise ValueError(
                f"chunk {h.chunk_id!r} of the hits is not in the chunk table"
            ) from None
    return out


def by_score(
    scores: Sequence[float], note: Callable[[float], Notice], info: Mapping[str, Any]
) -> Reranked:
    """The hits by ``scores``, best first (ties keep retrieval order), each noted by ``note``."""
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    return Reranked(
        order=tuple(order),
        scores=tuple(scores[i] for i in order),
        notes=tuple(note(scores[i]) for i in order),
        info=info,
    )
