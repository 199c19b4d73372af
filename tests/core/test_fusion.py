"""Fusion: RRF by formula, min-max, z-score, weighted, ties, union, errors."""

from __future__ import annotations

import math
import re

import pytest

from rag_core.config import FUSION_METHODS
from rag_core.retrieval.fusion import FUSERS, fuse, minmax_normalise, zscore_normalise
from rag_core.types import Hit


def hits(*pairs, distances=None):
    """Rank-ordered hits from (chunk_id, score) pairs."""
    return [
        Hit(
            chunk_id=c,
            doc_id=c.split("::")[0],
            rank=i,
            score=s,
            distance=None if distances is None else distances[i - 1],
        )
        for i, (c, s) in enumerate(pairs, start=1)
    ]


BM25 = hits(("d1::0", 9.0), ("d2::0", 7.0), ("d3::0", 3.0))
DENSE = hits(("d3::0", 0.9), ("d4::0", 0.8), ("d1::0", 0.5), distances=[0.1, 0.2, 0.5])


def by_id(result):
    return {h.chunk_id: h for h in result.hits}


def test_registry_matches_config():
    assert FUSERS.names() == FUSION_METHODS


def test_rrf_values_as_formulas():
    res = fuse([("bm25", BM25), ("dense", DENSE)], "rrf", k=10)
    got = by_id(res)
    assert got["d1::0"].score == pytest.approx(1 / (60 + 1) + 1 / (60 + 3))
    assert got["d3::0"].score == pytest.approx(1 / (60 + 3) + 1 / (60 + 1))
    assert got["d2::0"].score == pytest.approx(1 / (60 + 2))
    assert got["d4::0"].score == pytest.approx(1 / (60 + 2))
    assert got["d1::0"].list_ranks == {"bm25": 1, "dense": 3}
    assert got["d2::0"].list_ranks == {"bm25": 2}
    assert got["d1::0"].contributions == pytest.approx({"bm25": 1 / 61, "dense": 1 / 63})
    assert res.union == 4
    assert res.inputs == ("bm25", "dense")
    assert res.params == {"k": 10, "rrf_k": 60}
    assert [h.rank for h in res.hits] == [1, 2, 3, 4]


def test_rrf_ties_best_rank_then_list_order_then_chunk_id():
    res = fuse([("bm25", BM25), ("dense", DENSE)], "rrf", k=10)
    # d1 and d3 tie (1/61 + 1/63): both have best rank 1; d1 first appears in list 0, d3 also
    # in list 0 -> chunk_id decides; d2 and d4 tie (1/62): best rank 2 each; d2 is from list 0
    assert [h.chunk_id for h in res.hits] == ["d1::0", "d3::0", "d2::0", "d4::0"]
    swapped = fuse([("dense", DENSE), ("bm25", BM25)], "rrf", k=10)
    assert [h.chunk_id for h in swapped.hits] == ["d1::0", "d3::0", "d4::0", "d2::0"]


def test_rrf_custom_k_and_cut():
    res = fuse([("bm25", BM25), ("dense", DENSE)], "rrf", k=2, rrf_k=10)
    assert len(res.hits) == 2 and res.union == 4
    assert res.hits[0].score == pytest.approx(1 / 11 + 1 / 13)


def test_contributions_sum_to_score_for_every_method():
    for method in ("rrf", "minmax", "zscore", "weighted"):
        res = fuse([("bm25", BM25), ("dense", DENSE)], method, k=10, alpha=0.3)
        for h in res.hits:
            assert sum(h.contributions.values()) == pytest.approx(h.score, abs=0)
            assert set(h.contributions) == set(h.list_ranks)


def test_minmax():
    res = by_id(fuse([("bm25", BM25), ("dense", DENSE)], "minmax", k=10))
    assert res["d1::0"].score == pytest.approx((9 - 3) / (9 - 3) + (0.5 - 0.5) / (0.9 - 0.5))
    assert res["d3::0"].score == pytest.approx(0 + (0.9 - 0.5) / (0.9 - 0.5))
    assert res["d2::0"].score == pytest.approx((7 - 3) / (9 - 3))
    assert res["d4::0"].score == pytest.approx((0.8 - 0.5) / (0.9 - 0.5))
    assert minmax_normalise([2.0, 2.0]) == [1.0, 1.0]
    assert minmax_normalise([]) == []


def test_zscore():
    mean = (9 + 7 + 3) / 3
    std = math.sqrt(((9 - mean) ** 2 + (7 - mean) ** 2 + (3 - mean) ** 2) / 3)
    res = by_id(fuse([("bm25", BM25)], "zscore", k=10))
    assert res["d2::0"].score == pytest.approx((7 - mean) / std)
    assert zscore_normalise([4.0, 4.0, 4.0]) == [0.0, 0.0, 0.0]


def test_weighted():
    alpha = 0.3
    res = by_id(fuse([("bm25", BM25), ("dense", DENSE)], "weighted", k=10, alpha=alpha))
    assert res["d2::0"].score == pytest.approx(alpha * (7 - 3) / (9 - 3))
    assert res["d4::0"].score == pytest.approx((1 - alpha) * (0.8 - 0.5) / (0.9 - 0.5))
    assert res["d1::0"].contributions == pytest.approx({"bm25": alpha * 1.0, "dense": 0.0})


def test_weighted_needs_exactly_two_lists():
    third = hits(("d9::0", 1.0))
    with pytest.raises(
        ValueError,
        match=re.escape(
            "weighted fusion needs exactly 2 lists, got 3 (bm25, dense, tfidf); "
            "use rrf, minmax or zscore for another number of lists"
        ),
    ):
        fuse([("bm25", BM25), ("dense", DENSE), ("tfidf", third)], "weighted", k=5)


def test_distance_carried_over():
    res = by_id(fuse([("bm25", BM25), ("dense", DENSE)], "rrf", k=10))
    assert res["d1::0"].distance == 0.5
    assert res["d2::0"].distance is None
    assert res["d4::0"].doc_id == "d4"


def test_empty_lists_and_union():
    res = fuse([("bm25", []), ("dense", DENSE)], "rrf", k=5)
    assert res.union == 3
    assert [h.list_ranks for h in res.hits] == [{"dense": 1}, {"dense": 2}, {"dense": 3}]
    empty = fuse([("bm25", []), ("dense", [])], "minmax", k=5)
    assert empty.hits == () and empty.union == 0


def test_errors():
    with pytest.raises(
        ValueError,
        match=re.escape(
            "unknown fusion method 'borda'; valid choices: rrf, minmax, zscore, weighted"
        ),
    ):
        fuse([("bm25", BM25)], "borda", k=5)
    with pytest.raises(ValueError, match=re.escape("k = 0 must be an integer >= 1")):
        fuse([("bm25", BM25)], "rrf", k=0)
    with pytest.raises(ValueError, match=re.escape("list names must be distinct, got ['a', 'a']")):
        fuse([("a", BM25), ("a", DENSE)], "rrf", k=5)
    with pytest.raises(ValueError, match=re.escape("list 'a' holds chunk 'd1::0' twice")):
        fuse([("a", BM25 + BM25[:1])], "rrf", k=5)
    with pytest.raises(ValueError, match=re.escape("fusion needs at least one list of hits")):
        fuse([], "rrf", k=5)
