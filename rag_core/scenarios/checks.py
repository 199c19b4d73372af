"""The expectation vocabulary of a scenario (``Scenario.expect``): one named check per key.

A check reads a ``Trace`` and returns what it does not meet of one expectation (empty: met).
To add an expectation: write its check here and register it under its key in :data:`CHECKS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..registry import Registry
from ..types import RetrieverList, Trace

#: ``check(trace, want)``: what the trace does not meet of one expectation (empty: met).
Check = Callable[[Trace, Any], list[str]]
#: The expectation checks by key, in the order :data:`EXPECT_KEYS` lists them.
CHECKS: Registry[Check] = Registry("expectation")


def check_expectation(trace: Trace, expect: Mapping[str, Any]) -> list[str]:
    """Messages for every part of ``expect`` the trace does not meet (empty = met).

    Raises:
        ValueError: A key is not an expectation (:data:`EXPECT_KEYS` lists the valid ones).
    """
    return [problem for key, want in expect.items() for problem in CHECKS.get(key)(trace, want)]


def _lists(trace: Trace) -> dict[str, RetrieverList]:
    return {lst.name: lst for lst in trace.retrieval.lists}


def _differs(key: str, want: Any, got: Any) -> list[str]:
    """``key: expected WANT, got GOT`` when they differ."""
    return [f"{key}: expected {want}, got {got}"] if got != want else []


@CHECKS.register("lost_at")
def _lost_at(trace: Trace, want: str) -> list[str]:
    """``GoldView.lost_at`` equals this ("" = gold reached the answer)."""
    lost = trace.gold.lost_at if trace.gold is not None else None
    return [f"lost_at: expected {want!r}, got {lost!r}"] if lost != want else []


@CHECKS.register("refused")
def _refused(trace: Trace, want: bool) -> list[str]:
    """The gate refused (bool)."""
    return _differs("refused", want, trace.gate.refused)


def _candidates(key: str, trace: Trace, want: str) -> list[str]:
    lists = _lists(trace)
    lst = lists.get(want)
    if lst is None:
        return [f"{key}: no retriever list named {want!r} (have {', '.join(lists)})"]
    if (key == "zero_candidates") != (len(lst.hits) == 0):
        return [f"{key}: {want} has {len(lst.hits)} hits"]
    return []


@CHECKS.register("zero_candidates")
def _zero_candidates(trace: Trace, want: str) -> list[str]:
    """The retriever list named (e.g. ``bm25:unicode``) has no hit."""
    return _candidates("zero_candidates", trace, want)


@CHECKS.register("some_candidates")
def _some_candidates(trace: Trace, want: str) -> list[str]:
    """The retriever list named has at least one hit."""
    return _candidates("some_candidates", trace, want)


@CHECKS.register("destroyed")
def _destroyed(trace: Trace, want: bool) -> list[str]:
    """Chunking destroyed at least one needle of this question (bool)."""
    gold = trace.gold
    ids = {n.doc_id for n in gold.needles} if gold is not None else set()
    texts = {n.text for n in gold.needles} if gold is not None else set()
    got = any(d.doc_id in ids and d.needle in texts for d in trace.chunking.destroyed)
    return _differs("destroyed", want, got)


@CHECKS.register("over_window")
def _over_window(trace: Trace, want: bool) -> list[str]:
    """At least one chunk exceeds the encoder window (bool)."""
    return _differs("over_window", want, bool(trace.chunking.over_window))


@CHECKS.register("gold_over_window")
def _gold_over_window(trace: Trace, want: bool) -> list[str]:
    """Some chunk holding a gold needle exceeds the encoder window (bool)."""
    over, gold = set(trace.chunking.over_window), trace.gold
    got = gold is not None and any(cid in over for ids in gold.chunk_ids for cid in ids)
    return _differs("gold_over_window", want, got)


@CHECKS.register("overlapping_hits")
def _overlapping_hits(trace: Trace, want: bool) -> list[str]:
    """Two ranked candidates (after rerank) share document text (bool)."""
    return _differs("overlapping_hits", want, bool(overlapping_hits(trace)))


@CHECKS.register("gold_rank_at_most")
def _gold_rank_at_most(trace: Trace, want: Mapping[str, int]) -> list[str]:
    """``{stage key of GoldView.stage_ranks: rank}``: gold at or above that rank."""
    problems = []
    for stage, rank in want.items():
        ranks = trace.gold.stage_ranks.get(stage) if trace.gold is not None else None
        best = min((r for r in ranks or () if r is not None), default=None)
        if best is None or best > rank:
            problems.append(f"gold rank at {stage}: expected <= {rank}, got {best}")
    return problems


@CHECKS.register("gold_absent")
def _gold_absent(trace: Trace, want: str) -> list[str]:
    """The stage key of ``GoldView.stage_ranks`` where no needle is ranked."""
    ranks = trace.gold.stage_ranks.get(want) if trace.gold is not None else None
    if ranks is None or any(r is not None for r in ranks):
        return [f"gold_absent: gold is ranked at {want} ({ranks})"]
    return []


@CHECKS.register("top_doc")
def _top_doc(trace: Trace, want: Mapping[str, str]) -> list[str]:
    """``{retriever list name: doc id of its rank-1 hit}``."""
    lists, problems = _lists(trace), []
    for name, doc_id in want.items():
        lst = lists.get(name)
        top = lst.hits[0].doc_id if lst is not None and lst.hits else None
        if top != doc_id:
            problems.append(f"top_doc of {name}: expected {doc_id!r}, got {top!r}")
    return problems


@CHECKS.register("duplicates_dropped")
def _duplicates_dropped(trace: Trace, want: bool) -> list[str]:
    """Some context source was dropped as a duplicate (bool)."""
    sources = trace.context.sources
    got = any(s.status == "dropped" and s.reason == "duplicate" for s in sources)
    return _differs("duplicates_dropped", want, got)


@CHECKS.register("numbers_in_no_source")
def _numbers_in_no_source(trace: Trace, want: bool) -> list[str]:
    """Some claim carries a number no source contains (bool)."""
    got = any(c.numbers_in_no_source for c in trace.support.claims)
    return _differs("numbers_in_no_source", want, got)


@CHECKS.register("question_cut")
def _question_cut(trace: Trace, want: bool) -> list[str]:
    """The budget cut into the question (bool)."""
    return _differs("question_cut", want, trace.context.question_cut)


#: What an expectation may state about a Trace (the names in :data:`CHECKS`, in order).
EXPECT_KEYS = CHECKS.names()


def overlapping_hits(trace: Trace) -> list[tuple[str, str]]:
    """Pairs of ranked candidates (``trace.rerank.hits``) from one document whose spans overlap.

    Two chunks overlap when ``a.start < b.end`` and ``b.start < a.end`` — the
    same document words counted twice, as overlap chunking produces.
    """
    chunks = [trace.chunks[h.chunk_id] for h in trace.rerank.hits if h.chunk_id in trace.chunks]
    return [
        (a.chunk_id, b.chunk_id)
        for i, a in enumerate(chunks)
        for b in chunks[i + 1 :]
        if a.doc_id == b.doc_id and a.start < b.end and b.start < a.end
    ]


__all__ = ["CHECKS", "EXPECT_KEYS", "Check", "check_expectation", "overlapping_hits"]
