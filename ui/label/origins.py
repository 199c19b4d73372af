"""The Label page's gold table and pooled candidates: where each gold item came from
(a shipped needle, a label, both), and which candidates of the pool hold it; no Streamlit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rag_core.config import ANALYZERS, RETRIEVAL_METHODS, VECTOR_METHODS
from rag_core.evaluation.pooling import DEFAULT_POOL_RETRIEVERS, Pool
from rag_core.gold.labels import Label
from rag_core.gold.relevance import locate, relevant_chunk_ids
from rag_core.gold.spans import labels_within
from rag_core.types import Chunk, Chunking, Document, Needle

from ..html import snippet
from .keys import K_LAB_POOL_DEPTH, K_LAB_POOL_ORDER, K_LAB_POOL_RETRIEVERS, K_LAB_POOL_SEED
from .view import Change, Msg, State

#: Retrievers the pool may use: every sparse method with every analyzer, and the dense one.
POOL_SPECS: tuple[str, ...] = (
    *(f"{m}:{a}" for m in RETRIEVAL_METHODS if m not in VECTOR_METHODS for a in ANALYZERS),
    "dense",
)


@dataclass(frozen=True)
class GoldRow:
    """A gold-table row: a gold span (needle, label or both) or a judged-not-relevant label."""

    origin: str  # needle | label | needle+label | zero
    doc_id: str
    span: tuple[int, int] | None  # None: the text is not in the corpus
    grade: int
    text: str


def gold_rows(
    gold: Sequence[Needle], labels: Sequence[Label], docs: Mapping[str, Document]
) -> tuple[GoldRow, ...]:
    """The gold spans as located in their documents, then grade-0 labels (judged not relevant)."""
    rows = [
        GoldRow(
            n.origin,
            n.doc_id,
            locate(docs[n.doc_id].text, n) if n.doc_id in docs else None,
            n.grade,
            n.text,
        )
        for n in gold
    ]
    rows += [
        GoldRow("zero", lab.doc_id, (lab.start, lab.end), 0, lab.text)
        for lab in labels
        if lab.grade == 0
    ]
    return tuple(rows)


def pool_defaults(state: State) -> Change:
    """The pool's retrievers start as ``rag_core.evaluation.pooling.DEFAULT_POOL_RETRIEVERS``."""
    if K_LAB_POOL_RETRIEVERS in state:
        return Change()
    return Change({K_LAB_POOL_RETRIEVERS: list(DEFAULT_POOL_RETRIEVERS)})


@dataclass(frozen=True)
class PoolRequest:
    """The pool settings the widgets hold."""

    retrievers: tuple[str, ...]
    depth: int
    order: str
    seed: int


def pool_request(state: State) -> PoolRequest:
    """Read the pool widgets (after they are drawn)."""
    return PoolRequest(
        tuple(state.get(K_LAB_POOL_RETRIEVERS) or ()),
        int(state[K_LAB_POOL_DEPTH]),
        state[K_LAB_POOL_ORDER],
        int(state[K_LAB_POOL_SEED]),
    )


def gold_origins(
    chunks: Sequence[Chunk], gold: Sequence[Needle], docs: Mapping[str, Document]
) -> dict[str, tuple[str, ...]]:
    """Chunk id → the origins of the gold spans it contains entirely, each once, in gold order.

    Containment is ``rag_core.gold.relevance.relevant_chunk_ids`` (the rule the
    qrels and the metrics use); chunks that contain no gold span are absent.
    """
    origins: dict[str, dict[str, None]] = {}
    for n, ids in zip(gold, relevant_chunk_ids(chunks, gold, docs), strict=True):
        for cid in ids:
            origins.setdefault(cid, {})[n.origin] = None
    return {cid: tuple(found) for cid, found in origins.items()}


@dataclass(frozen=True)
class PoolRow:
    """One pooled candidate: where the runs ranked it, its chunk, and what is judged inside it."""

    position: int
    best_rank: int
    runs: str  # "run#rank, …"
    chunk: Chunk
    origins: tuple[str, ...]  # gold origins it contains
    zeros: int  # grade-0 labels inside it

    @property
    def gold(self) -> bool:
        return bool(self.origins)


@dataclass(frozen=True)
class PoolView:
    """The pool table and the candidates the span picker offers (position → chunk)."""

    rows: tuple[PoolRow, ...]
    by_rank: bool
    candidates: dict[int, Chunk]
    #: Position → the text its selectbox option shows.
    options: dict[int, str]
    #: One warning per retriever that could not run.
    warnings: tuple[Msg, ...]
    facts: Msg | None


def pool_view(
    result: Pool | None,
    chunking: Chunking,
    gold: Sequence[Needle],
    labels: Sequence[Label],
    docs: Mapping[str, Document],
) -> PoolView:
    """Rows of the pooled candidates (none when the pool did not run)."""
    if result is None:
        return PoolView((), True, {}, {}, (), None)
    pooled = [chunking.by_id.get(e.item) or result.extra[e.item] for e in result.entries]
    origins = gold_origins(pooled, gold, docs)
    rows = tuple(
        PoolRow(
            e.position,
            e.best_rank,
            ", ".join(f"{n}#{r}" for n, r in e.ranks),
            c,
            origins.get(c.chunk_id, ()),
            sum(lab.grade == 0 for lab in labels_within(labels, c.doc_id, c.start, c.end)),
        )
        for e, c in zip(result.entries, pooled, strict=True)
    )
    facts = Msg(
        "lab.pool.facts",
        {
            "n": len(rows),
            "runs": len(result.runs),
            "depth": result.depth,
            "sig": result.chunker_signature,
        },
    )
    return PoolView(
        rows,
        result.order == "rank",
        {r.position: r.chunk for r in rows},
        {r.position: f"#{r.position} · {_chunk_option(r.chunk)}" for r in rows},
        tuple(Msg("lab.pool.unavailable", {"message": m}) for m in result.unavailable),
        facts,
    )


def _chunk_option(c: Chunk) -> str:
    return f"{c.doc_id} #{c.ordinal} · {snippet(c.content, 70)}"
