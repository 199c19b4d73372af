"""Rerankers: reorder the top ``shortlist`` hits of retrieval.

A reranker is a function registered in :data:`RERANKERS` (with its UI label in
:data:`RERANK_LABELS`) by :func:`register_reranker`::

    @register_reranker("my-method", "my method (what it does)")
    def my_method(query: str, hits: Sequence[Hit], chunks: Mapping[str, Chunk],
                  **params) -> Reranked: ...

It receives only the shortlisted hits (in retrieval order, a tuple of
:class:`rag_core.types.Hit`) and returns a
:class:`Reranked`: the new order as indices into those hits, the reranker's
score for each position, optional per-hit notes (notices: code and params,
worded by ``rag_core.wording``) and an info dict.
:func:`rerank` does the rest the same way for every method: hits beyond the
shortlist keep their order after the reranked ones, every output hit gets its
new ``rank``, ``prev_rank``, ``retrieval_score`` (its incoming score), the
reranker ``score``, and ``tied=True`` when its score equals a neighbour's.

Built in: ``none`` (identity), ``overlap`` (:mod:`.overlap`), ``mmr``
(:mod:`.mmr`). Model-based rerankers register themselves the same way from
their own modules; import such a module at the bottom of this file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rag_core.registry import Registry
from rag_core.types import Chunk, Hit, Notice
from rag_core.wording import declare, notice

#: The note of a hit below the shortlist (``Hit.notice``; ``Hit.note`` is its English).
RERANK_BEYOND_SHORTLIST = declare("rerank.beyond_shortlist")


@dataclass(frozen=True)
class Reranked:
    """What a reranker function returns for the shortlist it was given.

    Attributes:
        order: Indices into the given hits, best first (a permutation).
        scores: The reranker score of the hit at each position of ``order``.
        notes: Optional per-position notices (e.g. which query words matched); each hit's
            ``notice``, its English the hit's ``note``.
        info: Method facts for the trace (parameters, query words, ...).
    """

    order: tuple[int, ...]
    scores: tuple[float, ...]
    notes: tuple[Notice, ...] = ()
    info: Mapping[str, Any] = field(default_factory=dict)


RerankFn = Callable[..., Reranked]

RERANKERS: Registry[RerankFn] = Registry("rerank method")

#: method name -> human label shown in the UI (a method without one shows its name).
RERANK_LABELS: dict[str, str] = {}


def register_reranker(name: str, label: str) -> Callable[[RerankFn], RerankFn]:
    """Decorator: register a reranker function under ``name`` with its UI ``label``."""

    def deco(fn: RerankFn) -> RerankFn:
        RERANKERS.add(name, fn)
        RERANK_LABELS[name] = label
        return fn

    return deco


@register_reranker("none", "none (retrieval order)")
def rerank_none(query: str, hits: Sequence[Hit], chunks: Mapping[str, Chunk], **_: Any) -> Reranked:
    """Keep retrieval order; the score stays the retrieval score."""
    return Reranked(order=tuple(range(len(hits))), scores=tuple(h.score for h in hits))


def _check_result(method: str, result: Reranked, n: int) -> None:
    if sorted(result.order) != list(range(n)):
        raise ValueError(
            f"reranker {method!r} returned order {list(result.order)}, "
            f"which is not a permutation of the {n} shortlisted hits"
        )
    if len(result.scores) != n:
        raise ValueError(f"reranker {method!r} returned {len(result.scores)} scores for {n} hits")
    if result.notes and len(result.notes) != n:
        raise ValueError(f"reranker {method!r} returned {len(result.notes)} notes for {n} hits")


def rerank(
    method: str,
    query: str,
    hits: Sequence[Hit],
    chunks: Mapping[str, Chunk],
    *,
    shortlist: int,
    **params: Any,
) -> tuple[tuple[Hit, ...], dict[str, Any]]:
    """Rerank the first ``shortlist`` hits with ``method``; the rest follow unchanged.

    Args:
        method: A name in :data:`RERANKERS`.
        query: The question text.
        hits: Retrieval hits in rank order.
        chunks: chunk_id -> Chunk for (at least) the shortlisted hits.
        shortlist: How many of the top hits are reranked (>= 1).
        **params: Passed to the reranker (e.g. ``mmr_lambda``).

    Returns:
        ``(hits, info)``: all hits in their new order, ranks 1..n; ``info``
        holds ``method``, ``shortlist``, ``reranked`` (how many were) and the
        method's own facts.

    Raises:
        ValueError: Unknown method (lists the valid ones), bad ``shortlist``,
            a shortlisted chunk missing from ``chunks``, or a reranker that
            returns something other than a permutation.
    """
    fn = RERANKERS.get(method)
    if isinstance(shortlist, bool) or not isinstance(shortlist, int) or shortlist < 1:
        raise ValueError(f"shortlist = {shortlist!r} must be an integer >= 1")
    src = tuple(hits)
    n = len(src)
    n_short = min(shortlist, n)
    info: dict[str, Any] = {"method": method, "shortlist": shortlist, "reranked": n_short}
    short = src[:n_short]
    result = fn(query, short, chunks, **params)
    _check_result(method, result, n_short)
    info.update(result.info)

    # Every hit at its new rank, its retrieval rank and score kept as prev_rank and
    # retrieval_score; the reranked ones carry the reranker's score, a tie flag and
    # note; the rest follow in their order, noted.
    notes: Sequence[Notice | None] = result.notes or (None,) * n_short
    ties = tie_flags(result.scores)
    out = [
        _moved(short[i], rank, float(score), tied, note)
        for rank, (i, score, tied, note) in enumerate(
            zip(result.order, result.scores, ties, notes, strict=True), start=1
        )
    ]
    beyond = notice(RERANK_BEYOND_SHORTLIST)
    out += [
        _moved(h, rank, h.score, False, beyond) for rank, h in enumerate(src[n_short:], n_short + 1)
    ]
    return tuple(out), info


def _moved(hit: Hit, rank: int, score: float, tied: bool, why: Notice | None) -> Hit:
    """``hit`` at its reranked ``rank`` with its new ``score``; what retrieval gave it is kept
    as ``prev_rank`` and ``retrieval_score``. ``why`` is its note (None: the hit's own note
    stays)."""
    return Hit(
        hit.chunk_id,
        hit.doc_id,
        rank,
        score,
        distance=hit.distance,
        list_ranks=hit.list_ranks,
        contributions=hit.contributions,
        prev_rank=hit.rank,
        retrieval_score=hit.score,
        tied=tied,
        notice=hit.notice if why is None else why,
    )


def tie_flags(scores: Sequence[float]) -> list[bool]:
    """Per position, whether its score equals its left or its right neighbour's."""
    same_as_next = [a == b for a, b in zip(scores, scores[1:], strict=False)]
    return [
        bool(left or right)
        for left, right in zip([False, *same_as_next], [*same_as_next, False], strict=True)
    ][: len(scores)]


# Built-in rerankers register themselves on import (registry order: keep these lines in order).
# isort: off
from rag_core.rerank import overlap as _overlap  # noqa: E402,F401
from rag_core.rerank import mmr as _mmr  # noqa: E402,F401  (after overlap: registry order)

# isort: on

__all__ = [
    "RERANKERS",
    "RERANK_LABELS",
    "RerankFn",
    "Reranked",
    "register_reranker",
    "rerank",
]

# Model-backed rerankers (their models load lazily, on first use), in registry order.
# isort: off
from rag_core.rerank import maxsim as _maxsim  # noqa: E402,F401
from rag_core.rerank import llm_judge as _llm_judge  # noqa: E402,F401
from rag_core.rerank import cross_encoder as _cross_encoder  # noqa: E402,F401

# isort: on
