"""Where was the gold evidence lost? The Inspect page's verdict line.

For each gold needle we follow it through the stages and name the first one
that lost it. For a question with several needles the answer needs all of
them, so the verdict is the earliest loss over its needles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from ..types import Chunk, Document, GoldView, Hit, Needle, Notice, Stages
from ..wording import declare, english, notice
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

#: Why one needle was lost (``GoldView.needle_notices``).
GOLD_NOT_IN_DOCUMENT = declare("gold.not_in_document")
GOLD_CUT_BY_CHUNKING = declare("gold.cut_by_chunking")
GOLD_NOT_RETRIEVED = declare("gold.not_retrieved", "top")
GOLD_FUSED_OUT = declare("gold.fused_out", "found_by")
GOLD_RERANKED_OUT = declare("gold.reranked_out", "before", "after")
GOLD_NOT_KEPT = declare("gold.not_kept")
GOLD_SOURCE_DROPPED = declare("gold.source_dropped", "reason")
GOLD_CUT_BEFORE_NEEDLE = declare("gold.cut_before_needle")
GOLD_UNUSED = declare("gold.unused", "n")

#: The gate's code for a candidate beyond ``gate.max_kept`` (``rag_core.answer.gate``
#: declares it; the gate sits above this layer, so the code is named here as text).
_BEYOND_MAX_KEPT = "gate.beyond_max_kept"


def _best_rank(hits: Sequence[Hit], gold: set[str]) -> int | None:
    ranks = [h.rank for h in hits if h.chunk_id in gold]
    return min(ranks) if ranks else None


def gold_view(
    needles: Sequence[Needle],
    docs: Mapping[str, Document],
    chunking: ChunkList,
    stages: Stages,
) -> GoldView:
    """Follow every needle through the stages; see :data:`LOSSES`."""
    retrieval, context = stages.retrieval, stages.context
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
    stage_ranks["rerank"] = [_best_rank(stages.rerank.hits, set(ids)) for ids in chunk_ids]
    stage_ranks["gate"] = [_best_rank(stages.gate.kept, set(ids)) for ids in chunk_ids]
    source_n: list[int | None] = []
    for ids in chunk_ids:
        ns = [s.n for s in context.sources if s.chunk_id in ids and s.status != "dropped" and s.n]
        source_n.append(min(ns) if ns else None)
    stage_ranks["context"] = source_n

    losses: list[str] = []
    whys: list[Notice | None] = []
    explanations: list[str] = []
    for i, n in enumerate(needles):
        loss, why = _needle_loss(i, n, spans[i], chunk_ids[i], stage_ranks, stages)
        losses.append(loss)
        whys.append(why)
        if loss and why is not None:  # a loss always has its why
            explanations.append(f"needle {i + 1} ({n.text[:40]!r}…): {english(why)}")
    lost = [stage for stage in losses if stage]
    lost_at = min(lost, key=ORDER.index) if lost else ""
    if not lost:
        if stages.generation.status != "ok":
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
        needle_notices=tuple(whys),
    )


def _needle_loss(
    i: int,
    needle: Needle,
    span: tuple[int, int] | None,
    chunk_ids: Sequence[str],
    ranks: dict[str, list[int | None]],
    stages: Stages,
) -> tuple[str, Notice | None]:
    """The stage that lost needle ``i`` and why ("", None when it reached the answer)."""
    retrieval, rerank, gate, context = stages.retrieval, stages.rerank, stages.gate, stages.context
    generation, support = stages.generation, stages.support
    if span is None:
        return "corpus", notice(GOLD_NOT_IN_DOCUMENT)
    if not chunk_ids:
        return "chunking", notice(GOLD_CUT_BY_CHUNKING)
    in_lists = [k for k in ranks if k.startswith("retrieval:") and ranks[k][i] is not None]
    if not in_lists:
        return "retrieval", notice(GOLD_NOT_RETRIEVED, top=len(retrieval.hits) or "k")
    if retrieval.fused is not None and ranks["fusion"][i] is None:
        found_by = ", ".join(k.split(":", 1)[1] for k in in_lists)
        return "fusion", notice(GOLD_FUSED_OUT, found_by=found_by)
    if ranks["gate"][i] is None:
        gid = set(chunk_ids)
        notes = [h for h in gate.rejected if h.chunk_id in gid]
        if notes and all(h.notice is not None and h.notice.code == _BEYOND_MAX_KEPT for h in notes):
            before = min((h.prev_rank or h.rank) for h in notes)
            if gate.max_kept is not None and before <= gate.max_kept and rerank.method != "none":
                after = min(h.rank for h in notes)
                return "rerank", notice(GOLD_RERANKED_OUT, before=before, after=after)
        why = notes[0].notice if notes and notes[0].notice is not None else notice(GOLD_NOT_KEPT)
        return "gate", why
    if context.status == "skipped":
        return "", None
    if ranks["context"][i] is None:
        src = [s for s in context.sources if s.chunk_id in set(chunk_ids)]
        reason = src[0].reason if src else "not selected"
        return "context", notice(GOLD_SOURCE_DROPPED, reason=reason)
    if span is not None and not any(
        s.doc_id == needle.doc_id and s.start <= span[0] and span[1] <= s.start + len(s.quote)
        for s in context.sources
        if s.n is not None and s.status != "dropped"
    ):
        return "context", notice(GOLD_CUT_BEFORE_NEEDLE)
    if generation.status != "ok" or support.status != "ok":
        return "", None
    n = ranks["context"][i]
    supported = any(
        c.verdict in ("supported", "supported-elsewhere")
        and any(e.n == n and e.score > 0 for e in c.evidence)
        for c in support.claims
    )
    if not supported:
        return "answer", notice(GOLD_UNUSED, n=n)
    return "", None
