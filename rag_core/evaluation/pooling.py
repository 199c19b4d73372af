"""TREC-style pooling: the candidates an annotator judges for one question.

The pool of a topic is the union of the top ``depth`` items of every
contributing run; items outside the pool are *not judged* (never "not
relevant"). This is how TREC builds its relevance judgements (Voorhees &
Harman, *TREC: Experiment and Evaluation in Information Retrieval*, MIT
Press 2005, ch. 2; pooling was proposed by Spärck Jones & van Rijsbergen,
"Report on the need for and provision of an ideal information retrieval
test collection", 1975).

Here a *run* is one retriever answering one phrasing of the question, and
an item is a chunk of the current chunking. :func:`pool` is pure (any runs,
any ids); :func:`pool_question` runs the retrievers and pools their lists.

Two orders: ``rank`` (best rank in any run first, then the number of runs
that found the item) shows where the systems agree; ``shuffle`` (seeded,
``random.Random(seed)``) hides the ranks so that the annotator is not
nudged by them, as TREC assessors see their pools.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..formats.questions import queries_of
from ..pipeline.retrieval import retrieve
from ..types import Chunk, Question

if TYPE_CHECKING:
    from ..config import PipelineConfig
    from ..index import CorpusIndex
    from ..retrieval.runs import ExternalRun

POOL_ORDERS: tuple[str, ...] = ("rank", "shuffle")
#: The pooled retrievers offered by default: word and character views of the
#: text, so that a Korean particle or an exact code still reaches the pool.
DEFAULT_POOL_RETRIEVERS: tuple[str, ...] = ("bm25:unicode", "bm25:char", "tfidf:char")


@dataclass(frozen=True)
class PoolEntry:
    """One pooled item.

    Attributes:
        item: the pooled id (a chunk id).
        position: 1-based position in the pool's order.
        best_rank: the best (smallest) rank any run gave the item.
        ranks: ``(run name, rank)`` for every run whose top ``depth`` holds it,
            in run order.
    """

    item: str
    position: int
    best_rank: int
    ranks: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Pool:
    """The pool of one question, with what went into it.

    ``runs`` maps a run name (``retriever@phrasing``) to its top ``depth``
    chunk ids; ``unavailable`` holds one message per retriever that could
    not run (a missing model), which contributed nothing. ``extra`` holds the
    pooled chunks an imported run names that the chunking lacks (whole
    documents, texts of another engine), by chunk id.
    """

    question_id: str
    entries: tuple[PoolEntry, ...]
    runs: dict[str, tuple[str, ...]]
    depth: int
    order: str
    seed: int
    chunker_signature: str
    unavailable: tuple[str, ...] = ()
    extra: Mapping[str, Chunk] = field(default_factory=dict)


def _check_depth(depth: Any) -> int:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"pool depth must be a positive integer; got {depth!r}")
    return depth


def _check_order(order: Any) -> str:
    if order not in POOL_ORDERS:
        raise ValueError(
            f"pool order = {order!r} is not valid; valid choices: {', '.join(POOL_ORDERS)}"
        )
    return order


def pool(
    runs: Mapping[str, Sequence[str]],
    depth: int,
    *,
    order: str = "rank",
    seed: int = 0,
) -> tuple[PoolEntry, ...]:
    """The union of the top ``depth`` items of every run.

        pool = ⋃_r top_depth(r)

    Args:
        runs: run name → ranked ids (best first). An id listed twice in one
            run counts at its first rank.
        depth: how many items of each run enter the pool (``d``).
        order: ``rank`` — by best rank, then by the number of runs holding
            the item (more first), then by the first run that holds it, then
            by id; ``shuffle`` — that list shuffled by ``random.Random(seed)``.
        seed: the shuffle's seed (the same runs and seed give the same order).

    Returns:
        The entries, ``position`` 1..n in the chosen order.
    """
    depth = _check_depth(depth)
    order = _check_order(order)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"pool seed must be an integer; got {seed!r}")
    ranks: dict[str, list[tuple[str, int]]] = {}
    first_run: dict[str, int] = {}
    for run_index, (name, ranking) in enumerate(runs.items()):
        if isinstance(ranking, (str, bytes)):
            raise ValueError(f"run {name!r} must be a list of ids, not a string")
        seen: set[str] = set()
        for rank, item in enumerate(list(ranking)[:depth], start=1):
            if item in seen:
                continue
            seen.add(item)
            ranks.setdefault(item, []).append((name, rank))
            first_run.setdefault(item, run_index)
    items = sorted(
        ranks,
        key=lambda i: (min(r for _, r in ranks[i]), -len(ranks[i]), first_run[i], i),
    )
    if order == "shuffle":
        random.Random(seed).shuffle(items)
    return tuple(
        PoolEntry(
            item=item,
            position=pos,
            best_rank=min(r for _, r in ranks[item]),
            ranks=tuple(ranks[item]),
        )
        for pos, item in enumerate(items, start=1)
    )


def pool_question(
    config: PipelineConfig,
    question: Question,
    corpus: CorpusIndex,
    *,
    retrievers: Sequence[str] = DEFAULT_POOL_RETRIEVERS,
    depth: int = 10,
    order: str = "rank",
    seed: int = 0,
    phrasings: str = "all",
    runs: Mapping[str, ExternalRun] | None = None,
) -> Pool:
    """Pool the top ``depth`` chunks of each retriever for each phrasing of ``question``.

    Args:
        config: a ``PipelineConfig``; its chunker and retrieval parameters
            (analyzer, BM25 variant, n-gram range, dense model) are used,
            with ``retrieval.methods`` replaced by ``retrievers``.
        question: the question (each phrasing is queried; see ``queries_of``).
        corpus: a ``CorpusIndex``.
        retrievers: method specs as in ``retrieval.methods`` (``bm25:char``,
            ``tfidf``, ``dense``…).
        depth, order, seed: see :func:`pool`.
        phrasings: ``all`` | ``question`` | an index (see ``queries_of``).
        runs: imported runs by tag; a ``run:TAG`` retriever pools ``runs[TAG]``
            at each phrasing's query id (``rag_core.retrieval.runs``).
    """
    depth = _check_depth(depth)
    order = _check_order(order)
    specs = tuple(retrievers)
    if not specs:
        raise ValueError("choose at least one retriever to pool")
    retrieval = replace(config.retrieval, methods=specs, k=depth)  # validates the specs
    cfg = replace(config, retrieval=retrieval)
    chunking = corpus.chunking(cfg.chunker)
    lists: dict[str, tuple[str, ...]] = {}
    unavailable: dict[str, str] = {}
    extra: dict[str, Chunk] = {}
    for qid, text in queries_of(question, phrasings):
        suffix = qid[len(question.id) :] or "#q"
        found = retrieve(cfg, text, corpus, runs=runs, query_id=qid)
        extra.update(found.extra)
        for lst in found.stage.lists:
            if lst.status != "ok":
                unavailable.setdefault(lst.name, lst.message or lst.status)
                continue
            lists[f"{lst.name}{suffix}"] = tuple(h.chunk_id for h in lst.hits[:depth])
    return Pool(
        question_id=question.id,
        entries=pool(lists, depth, order=order, seed=seed),
        runs=lists,
        depth=depth,
        order=order,
        seed=seed,
        chunker_signature=chunking.signature,
        unavailable=tuple(f"{name}: {msg}" for name, msg in unavailable.items()),
        extra=extra,
    )


__all__ = [
    "DEFAULT_POOL_RETRIEVERS",
    "POOL_ORDERS",
    "Pool",
    "PoolEntry",
    "pool",
    "pool_question",
]
