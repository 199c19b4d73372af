"""Where was the gold evidence lost? The Inspect page's verdict line.

For each gold needle we follow it through the stages and name the first one
that lost it. For a question with several needles the answer needs all of
them, so the verdict is the earliest loss over its needles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from ..types import (
    Chunk,
    ContextStage,
    Document,
    GateStage,
    GenerationStage,
    GoldView,
    Hit,
    Needle,
    RerankStage,
    RetrievalStage,
    SupportStage,
)
from .relevance import locate, relevant_chunk_ids


class ChunkList(Protocol):
    """The chunks gold is looked for in: a :class:`~rag_core.types.Chunking`, or one plus
    extras."""

    @property
    def chunks(self) -> tuple[Chunk, ...]: ...


#: Stage names in pipeline order, with the verdict text for a loss there.
LOSSES: dict[str, str] = {
    "corpus": "not in corpus",
    "chunking": "destroyed by chunking",
    "retrieval": "not retrieved",
    "fusion": "fused out",
    "rerank": "reranked out",
    "gate": "gated",
    "context": "cut by the budget",
    "answer": "present but unused or contradicted by the answer",
}
ORDER = tuple(LOSSES)


#: The stages a needle's loss is read from, in pipeline order.
_Stages = tuple[RetrievalStage, RerankStage, GateStage, ContextStage, GenerationStage, SupportStage]


def _best_rank(hits: Sequence[Hit], gold: set[str]) -> int | None:
    ranks = [h.rank for h in hits if h.chunk_id in gold]
    return min(ranks) if ranks else None


def gold_view(
    needles: Sequence[Needle],
    docs: Mapping[str, Document],
    chunking: ChunkList,
    retrieval: RetrievalStage,
    rerank: RerankStage,
    gate: GateStage,
    context: ContextStage,
    generation: GenerationStage,
    support: SupportStage,
) -> GoldView:
    """Follow every needle through the stages; see :data:`LOSSES`."""
    spans: list[tuple[int, int] | None] = []
    for n in needles:
        doc = docs.get(n.doc_id)
        spans.append(locate(doc.text, n) if doc is not None else None)
    in_corpus = [sp is not None for sp in spans]
    chunk_ids = relevant_chunk_ids(chunking.chunks, needles, docs)
    stage_ranks: dict[str, list[int | None]] = {}
    for lst in retrieval.lists:
        stage_ranks[f"retrieval:{lst.name}"] = [_best_rank(lst.hits, set(ids)) for ids in chunk_ids]
    if retrieval.fused is not None:
        stage_ranks["fusion"] = [_best_rank(retrieval.fused.hits, set(ids)) for ids in chunk_ids]
    stage_ranks["rerank"] = [_best_rank(rerank.hits, set(ids)) for ids in chunk_ids]
    stage_ranks["gate"] = [_best_rank(gate.kept, set(ids)) for ids in chunk_ids]
    source_n: list[int | None] = []
    for ids in chunk_ids:
        ns = [s.n for s in context.sources if s.chunk_id in ids and s.status != "dropped" and s.n]
        source_n.append(min(ns) if ns else None)
    stage_ranks["context"] = source_n

    losses: list[str] = []
    reasons: list[str] = []
    explanations: list[str] = []
    stages: _Stages = (retrieval, rerank, gate, context, generation, support)
    for i, n in enumerate(needles):
        loss, why = _needle_loss(i, n, spans[i], chunk_ids[i], stage_ranks, stages)
        losses.append(loss)
        reasons.append(why)
        if loss:
            explanations.append(f"needle {i + 1} ({n.text[:40]!r}…): {why}")
    lost = [stage for stage in losses if stage]
    lost_at = min(lost, key=ORDER.index) if lost else ""
    if not lost:
        if generation.status != "ok":
            explanation = "the gold evidence reached the prompt; no answer was generated to check"
        else:
            explanation = "the gold evidence reached the prompt and a claim citing it is supported"
    else:
        explanation = "; ".join(explanations)
    return GoldView(
        needles=tuple(needles),
        in_corpus=tuple(in_corpus),
        chunk_ids=tuple(tuple(ids) for ids in chunk_ids),
        stage_ranks={k: tuple(v) for k, v in stage_ranks.items()},
        lost_at=lost_at,
        explanation=explanation,
        needle_losses=tuple(losses),
        needle_reasons=tuple(reasons),
    )


def _needle_loss(
    i: int,
    needle: Needle,
    span: tuple[int, int] | None,
    chunk_ids: Sequence[str],
    ranks: dict[str, list[int | None]],
    stages: _Stages,
) -> tuple[str, str]:
    retrieval, rerank, gate, context, generation, support = stages
    if span is None:
        return "corpus", "its text is not in the document"
    if not chunk_ids:
        return "chunking", "no chunk contains it whole (a boundary cut it)"
    in_lists = [k for k in ranks if k.startswith("retrieval:") and ranks[k][i] is not None]
    if not in_lists:
        return (
            "retrieval",
            f"no retriever ranked a chunk holding it in its top {len(retrieval.hits) or 'k'}",
        )
    if retrieval.fused is not None and ranks["fusion"][i] is None:
        return (
            "fusion",
            (
                f"found by {', '.join(k.split(':', 1)[1] for k in in_lists)} "
                "but not in the fused top k"
            ),
        )
    if ranks["gate"][i] is None:
        gid = set(chunk_ids)
        notes = [h for h in gate.rejected if h.chunk_id in gid]
        if notes and all("max kept" in h.note for h in notes):
            before = min((h.prev_rank or h.rank) for h in notes)
            if gate.max_kept is not None and before <= gate.max_kept and rerank.method != "none":
                return (
                    "rerank",
                    (
                        f"rank {before} before rerank, {min(h.rank for h in notes)} after: beyond "
                        "max kept"
                    ),
                )
        why = notes[0].note if notes else "not kept"
        return "gate", why
    if context.status == "skipped":
        return "", ""
    if ranks["context"][i] is None:
        src = [s for s in context.sources if s.chunk_id in set(chunk_ids)]
        reason = src[0].reason if src else "not selected"
        return "context", f"its source was dropped ({reason})"
    if span is not None and not any(
        s.doc_id == needle.doc_id and s.start <= span[0] and span[1] <= s.start + len(s.quote)
        for s in context.sources
        if s.n is not None and s.status != "dropped"
    ):
        return "context", "its source was cut before the needle (the model never saw it)"
    if generation.status != "ok" or support.status != "ok":
        return "", ""
    n = ranks["context"][i]
    supported = any(
        c.verdict in ("supported", "supported-elsewhere")
        and any(e.n == n and e.score > 0 for e in c.evidence)
        for c in support.claims
    )
    if not supported:
        return "answer", f"source [{n}] was in the prompt but no supported claim rests on it"
    return "", ""
