"""A stage's hits: rerank and the gate against the one-by-one rule, a Trace's hits as plain data.

Rerank and the gate build each stage's hits as a tuple of ``Hit``; these tests check
them against the rule written per hit with ``dataclasses.replace``, and that a Trace
pickles and serialises to the same JSON.
"""

import json
import pickle
import random
from dataclasses import replace

import pytest

from rag_core.answer.gate import apply_gate
from rag_core.config import GateConfig
from rag_core.rerank import RERANK_BEYOND_SHORTLIST, rerank, tie_flags
from rag_core.types import Chunk, Hit, Notice, to_jsonable
from rag_core.wording import english

KEPT = Notice(RERANK_BEYOND_SHORTLIST, {})  # any coded note the gate must replace

# ------------------------------------------------- stages against the one-by-one rule


def _chunks(n):
    words = ["kv cache", "prompt", "kv", "cache prompt kv", "other", "kv kv"]
    return {
        f"c{i}": Chunk(f"c{i}", f"d{i}", 0, 0, 9, 0, words[i % 6], words[i % 6]) for i in range(n)
    }


def _by_hand(hits, order, scores, notes, shortlist):
    """The rerank rule written per hit with dataclasses.replace."""
    short, rest = list(hits[:shortlist]), list(hits[shortlist:])
    moved = [short[i] for i in order]
    ties = tie_flags(scores)
    out = [
        replace(
            h,
            rank=pos,
            score=float(s),
            prev_rank=h.rank,
            retrieval_score=h.score,
            tied=t,
            notice=why if why is not None else h.notice,
        )
        for pos, (h, s, t, why) in enumerate(
            zip(moved, scores, ties, notes or [None] * len(moved), strict=True), 1
        )
    ]
    beyond = Notice("rerank.beyond_shortlist", {})
    out += [
        replace(
            h,
            rank=len(out) + i,
            prev_rank=h.rank,
            retrieval_score=h.score,
            tied=False,
            notice=beyond,
        )
        for i, h in enumerate(rest, 1)
    ]
    return tuple(out)


@pytest.mark.parametrize("method", ["none", "overlap", "mmr"])
@pytest.mark.parametrize("shortlist", [1, 3, 6, 50])
def test_rerank_equals_the_one_by_one_rule(method, shortlist):
    from rag_core.rerank import RERANKERS

    rng = random.Random(shortlist)
    n = 6
    table = _chunks(n)
    scores = sorted((rng.choice([1.0, 2.0, 3.5]) for _ in range(n)), reverse=True)
    tup = tuple(Hit(f"c{i}", f"d{i}", i + 1, s) for i, s in enumerate(scores))
    out, info = rerank(method, "kv cache", tup, table, shortlist=shortlist)
    result = RERANKERS.get(method)("kv cache", list(tup[:shortlist]), table)
    want = _by_hand(tup, result.order, result.scores, result.notes, shortlist)
    assert out == want and isinstance(out, tuple)
    assert info["reranked"] == min(shortlist, n)


@pytest.mark.parametrize(
    "cfg",
    [
        GateConfig(),
        GateConfig(max_kept=2),
        GateConfig(min_score=2.0, max_kept=1),
        GateConfig(max_distance=0.25),
        GateConfig(max_distance=0.01),
    ],
)
def test_gate_keeps_hits_as_given_and_notes_each_rejected_one(cfg):
    tup = tuple(
        Hit(f"c{i}", "d", i + 1, 3.0 - i, distance=0.1 * (i + 1), notice=KEPT) for i in range(5)
    )
    got = apply_gate(tup, cfg)
    assert got.kept == tuple(h for h in tup if h.chunk_id in {k.chunk_id for k in got.kept})
    assert len(got.kept) + len(got.rejected) == len(tup)
    kept_ids = {h.chunk_id for h in got.kept}
    for h in got.rejected:
        assert h.chunk_id not in kept_ids and h.notice != KEPT and h.note == english(h.notice)


def test_a_trace_pickles_and_serialises_as_a_trace_of_tuples(tiny_corpus):
    from rag_core.config import PipelineConfig
    from rag_core.pipeline import run

    config = PipelineConfig().with_overrides({"generation.model": "none", "rerank.shortlist": "2"})
    trace = run(config, "kv cache", tiny_corpus)
    assert isinstance(trace.rerank.hits, tuple) and trace.rerank.hits
    back = pickle.loads(pickle.dumps(trace))
    assert back == trace and back.to_dict() == trace.to_dict()
    plain = json.loads(trace.to_json())
    assert plain["rerank"]["hits"] == [to_jsonable(h) for h in trace.rerank.hits]
    assert set(plain["chunks"]) >= {h.chunk_id for h in trace.retrieval.hits}


def test_a_reranker_without_its_model_keeps_retrieval_order_with_previous_ranks(
    tiny_corpus, monkeypatch
):
    from rag_core.config import PipelineConfig
    from rag_core.models import ModelUnavailable
    from rag_core.pipeline import run
    from rag_core.rerank import RERANKERS

    def no_model(*_, **__):
        raise ModelUnavailable("my-reranker", "no weights for this reranker here")

    monkeypatch.setitem(RERANKERS._entries, "overlap", no_model)
    config = PipelineConfig().with_overrides(
        {"generation.model": "none", "rerank.method": "overlap"}
    )
    trace = run(config, "kv cache", tiny_corpus)
    assert trace.rerank.status == "unavailable" and "no weights" in trace.rerank.message
    given = trace.retrieval.hits
    assert trace.rerank.hits == tuple(
        replace(h, prev_rank=h.rank, retrieval_score=h.score) for h in given
    )


def test_a_reranker_that_fails_otherwise_is_not_recorded_as_unavailable(tiny_corpus, monkeypatch):
    from rag_core.config import PipelineConfig
    from rag_core.pipeline import run
    from rag_core.rerank import RERANKERS

    def broken(*_, **__):
        raise RuntimeError("a bug in the reranker")

    monkeypatch.setitem(RERANKERS._entries, "overlap", broken)
    config = PipelineConfig().with_overrides(
        {"generation.model": "none", "rerank.method": "overlap"}
    )
    with pytest.raises(RuntimeError, match="^a bug in the reranker$"):
        run(config, "kv cache", tiny_corpus)
