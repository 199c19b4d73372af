"""The Trace's own parts: the chunk table of what the stages name, the gold at every stage."""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Mapping, Sequence

from ..gold.diagnosis import gold_view
from ..types import Chunk, ContextStage, GoldView, Needle, Question, RetrievalStage, Stages
from .plan import RunPlan


def referenced_chunks(
    plan: RunPlan,
    retrieval: RetrievalStage,
    context: ContextStage,
    gview: GoldView | None,
    extra: Mapping[str, Chunk],
    table: Mapping[str, Chunk],
) -> dict[str, Chunk]:
    """The Trace's chunk table: every chunk a retriever list, the fused list, the context or
    the gold view names, in chunking order (a run's extra chunks after the chunking's)."""
    chunking = plan.chunking
    referenced: set[str] = set()
    for lst in retrieval.lists:
        referenced.update(h.chunk_id for h in lst.hits)
    referenced.update(h.chunk_id for h in retrieval.hits)
    referenced.update(s.chunk_id for s in context.sources)
    if gview:
        for ids in gview.chunk_ids:
            referenced.update(ids)
    if extra:
        position: Mapping[str, int] = ChainMap(
            {cid: len(chunking.position) + i for i, cid in enumerate(extra)}, chunking.position
        )
        return {cid: table[cid] for cid in sorted(referenced, key=position.__getitem__)}
    # chunking order: sort the positions (ints) and read the chunks there
    cids, chunks = plan.chunk_ids, chunking.chunks
    return {cids[p]: chunks[p] for p in sorted(map(chunking.position.__getitem__, referenced))}


class WithExtra:
    """A chunk list for :func:`rag_core.gold.diagnosis.gold_view` (``.chunks``) with a run's
    extra chunks."""

    def __init__(self, chunks: tuple[Chunk, ...]) -> None:
        self.chunks = chunks


def gold_at_stages(
    plan: RunPlan,
    gold: Question | Sequence[Needle] | None,
    extra: Mapping[str, Chunk],
    stages: Stages,
) -> GoldView | None:
    """Where the question's gold needles are at each stage (None without gold)."""
    needles: tuple[Needle, ...] = ()
    if isinstance(gold, Question):
        needles = gold.needles
    elif gold:
        needles = tuple(gold)
    if not needles:
        return None
    chunking = plan.chunking
    gold_chunks = WithExtra(chunking.chunks + tuple(extra.values())) if extra else chunking
    return gold_view(needles, plan.corpus.docs, gold_chunks, stages)
