"""Columnar hits (``rag_core.types.Hits``): the same Hits as tuples of ``Hit``, made lazily.

A stage's hits are stored by field and a ``Hit`` object is only made when one
is read; these tests check that nothing a caller can observe differs from a
tuple of hits built one by one (equality, slicing, ``+``, pickling, JSON), that
fields are read without making hits, and that rerank and the gate give the
hits the one-by-one rule (``dataclasses.replace`` per hit) gives.
"""

import copy
import json
import pickle
import random
from dataclasses import replace

import pytest

from rag_core.answer.gate import apply_gate
from rag_core.config import GateConfig
from rag_core.rerank import rerank, tie_flags
from rag_core.types import Chunk, Hit, Hits, LazyMapping, LazyTuple, dumps, hit_column, to_jsonable


def as_tuple(n=4):
    return tuple(
        Hit(f"c{i}", f"d{i // 2}", i + 1, 10.0 - i, distance=0.1 * i if i % 3 else None)
        for i in range(n)
    )


def as_columns(n=4):
    return Hits(
        n,
        {
            "chunk_id": lambda: [f"c{i}" for i in range(n)],
            "doc_id": [f"d{i // 2}" for i in range(n)],
            "rank": range(1, n + 1),
            "score": [10.0 - i for i in range(n)],
            "distance": [0.1 * i if i % 3 else None for i in range(n)],
        },
    )


def test_columns_equal_the_hits_built_one_by_one():
    cols, tup = as_columns(), as_tuple()
    assert cols == tup and tup == cols and cols == list(tup)
    assert len(cols) == 4 and cols[2] == tup[2] and cols[-1] == tup[-1]
    assert list(cols) == list(tup)
    assert cols[0].list_ranks == {} and cols[0].note == "" and cols[0].prev_rank is None
    assert cols != tup[:3] and cols != as_columns(3)


@pytest.mark.parametrize("part", [slice(1, 3), slice(None, None, -1), slice(0, 4, 2), slice(5, 9)])
def test_slices_are_hits_equal_to_tuple_slices(part):
    cols, tup = as_columns(), as_tuple()
    assert isinstance(cols[part], Hits)
    assert cols[part] == tup[part]
    assert list(hit_column(cols[part], "chunk_id")) == [h.chunk_id for h in tup[part]]


def test_concatenation_with_tuples_both_ways():
    cols, tup = as_columns(), as_tuple()
    assert cols + tup[:1] == tup + tup[:1]
    assert tup[:1] + cols == tup[:1] + tup
    assert () + cols == tup


def test_a_field_is_read_without_making_any_hit():
    def boom():
        raise RuntimeError("chunk ids read")

    hits = Hits(2, {"chunk_id": boom, "doc_id": ["a", "b"], "rank": [1, 2], "score": [2.0, 1.0]})
    assert hits.column("doc_id") == ["a", "b"]
    assert hits.column("tied") == [False, False]  # a field not given: Hit's default
    picked = hits.take([1, 0], note=["x", "y"])
    assert list(picked.column("score")) == [1.0, 2.0] and picked.column("note") == ["x", "y"]
    with pytest.raises(RuntimeError, match="chunk ids read"):
        list(picked)  # making the hits reads every field


def test_a_column_function_is_called_once():
    calls = []

    def scores():
        calls.append(1)
        return [3.0, 2.0, 1.0]

    hits = Hits(3, {"chunk_id": "abc", "doc_id": "xyz", "rank": range(1, 4), "score": scores})
    hits.column("score")
    list(hits.take([2, 1]))
    list(hits)
    assert calls == [1]


def test_take_reorders_and_replaces_fields_like_replace_per_hit():
    tup = as_tuple(6)
    positions = [4, 0, 5]
    got = as_columns(6).take(positions, rank=[1, 2, 3], note=lambda: ["p", "q", "r"])
    want = tuple(
        replace(tup[p], rank=r, note=n) for p, r, n in zip(positions, [1, 2, 3], "pqr", strict=True)
    )
    assert got == want
    # taking from taken hits composes
    assert got.take([2, 0]) == (want[2], want[0])
    # from Hit objects (no columns) too
    assert Hits.of(tup).take(positions, rank=[1, 2, 3], note=["p", "q", "r"]) == want


def test_bad_columns_are_a_value_error_naming_the_fields():
    with pytest.raises(ValueError, match=r"missing \['doc_id'\], unknown \['bogus'\]"):
        Hits(1, {"chunk_id": ["a"], "rank": [1], "score": [1.0], "bogus": [0]})
    with pytest.raises(ValueError, match="valid fields: chunk_id"):
        as_columns().column("title")
    with pytest.raises(ValueError, match=r"Hits.take: unknown fields \['title'\]"):
        as_columns().take([0], title=["x"])
    with pytest.raises(ValueError, match="columns hold 3 hits, not 4"):
        list(Hits(4, {"chunk_id": "abc", "doc_id": "abc", "rank": [1, 2, 3], "score": [1] * 3}))


def test_of_keeps_hits_and_wraps_tuples():
    cols = as_columns()
    assert Hits.of(cols) is cols
    wrapped = Hits.of(as_tuple())
    assert wrapped == as_tuple() and wrapped.column("distance") == [h.distance for h in as_tuple()]


@pytest.mark.parametrize(
    "make", [as_columns, lambda: Hits.of(as_tuple()), lambda: as_columns()[1:]]
)
def test_pickle_copy_and_json_equal_the_tuple(make):
    hits = make()
    tup = tuple(hits)
    assert pickle.loads(pickle.dumps(hits)) == tup
    assert copy.deepcopy(hits) == tup and copy.copy(hits) == tup
    assert to_jsonable(hits) == to_jsonable(tup)
    assert json.loads(dumps(hits)) == json.loads(dumps(tup))


def test_lazy_tuple_and_mapping_make_once_compare_and_pickle_as_plain():
    calls = []
    lazy = LazyTuple(lambda: calls.append(1) or [1, 2])
    assert calls == []
    assert lazy == (1, 2) and lazy[1:] == (2,) and len(lazy) == 2 and calls == [1]
    assert pickle.loads(pickle.dumps(lazy)) == (1, 2)
    assert type(pickle.loads(pickle.dumps(lazy))) is tuple
    table = LazyMapping(lambda: calls.append(2) or {"a": 1})
    assert calls == [1]
    assert table == {"a": 1} and dict(table) == {"a": 1} and calls == [1, 2]
    assert type(pickle.loads(pickle.dumps(table))) is dict
    assert to_jsonable({"t": lazy, "m": table}) == {"t": [1, 2], "m": {"a": 1}}


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
            note=note,
        )
        for pos, (h, s, t, note) in enumerate(
            zip(moved, scores, ties, notes or [h.note for h in moved], strict=True), 1
        )
    ]
    out += [
        replace(
            h,
            rank=len(out) + i,
            prev_rank=h.rank,
            retrieval_score=h.score,
            tied=False,
            note="beyond the shortlist: not reranked",
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
    for given in (tup, Hits.of(tup)):
        out, info = rerank(method, "kv cache", given, table, shortlist=shortlist)
        result = RERANKERS.get(method)("kv cache", list(tup[:shortlist]), table)
        want = _by_hand(tup, result.order, result.scores, result.notes, shortlist)
        assert out == want
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
def test_gate_on_columns_equals_the_gate_on_tuples(cfg):
    tup = tuple(
        Hit(f"c{i}", "d", i + 1, 3.0 - i, distance=0.1 * (i + 1), note="kept?") for i in range(5)
    )
    got = apply_gate(Hits.of(tup).take(range(5)), cfg)
    want = apply_gate(tup, cfg)
    assert got == want
    assert [h.note for h in got.rejected] == [h.note for h in want.rejected]
    kept_ids = {h.chunk_id for h in got.kept}
    for h in got.rejected:
        assert h.chunk_id not in kept_ids and h.note != "kept?"


def test_a_trace_pickles_and_serialises_as_a_trace_of_tuples(tiny_corpus):
    from rag_core.config import PipelineConfig
    from rag_core.pipeline import run

    config = PipelineConfig().with_overrides({"generation.model": "none", "rerank.shortlist": "2"})
    trace = run(config, "kv cache", tiny_corpus)
    assert isinstance(trace.rerank.hits, Hits) and trace.rerank.hits
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
