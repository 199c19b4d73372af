"""Baseline rerankers: none, overlap (ties visible), MMR; the registry contract."""

from __future__ import annotations

import re

import numpy as np
import pytest

from rag_core.config import RERANK_METHODS
from rag_core.rerank import RERANK_LABELS, RERANKERS, Reranked, rerank
from rag_core.rerank.mmr import mmr_order, tfidf_vectoriser
from rag_core.rerank.overlap import overlap_fraction, query_words
from rag_core.retrieval.runs import RUN_TEXT_UNAVAILABLE
from rag_core.types import Chunk, Hit, Notice
from rag_core.wording import english


def chunk(doc_id: str, ordinal: int, content: str) -> Chunk:
    cid = f"{doc_id}::t::{ordinal:04d}"
    return Chunk(
        chunk_id=cid,
        doc_id=doc_id,
        ordinal=ordinal,
        start=0,
        end=len(content),
        own_start=0,
        content=content,
        text=content,
    )


def ranked(chunks: list[Chunk], scores: list[float]) -> list[Hit]:
    return [
        Hit(chunk_id=c.chunk_id, doc_id=c.doc_id, rank=i, score=s)
        for i, (c, s) in enumerate(zip(chunks, scores, strict=True), start=1)
    ]


def table(chunks):
    return {c.chunk_id: c for c in chunks}


def order(out: list[Hit], chunks: list[Chunk]) -> list[int]:
    """Where each reranked hit's chunk stands in ``chunks`` (its index), in reranked order."""
    position = {c.chunk_id: i for i, c in enumerate(chunks)}
    return [position[h.chunk_id] for h in out]


def test_registered_names_are_config_choices():
    assert set(RERANKERS.names()) <= set(RERANK_METHODS)
    assert RERANKERS.names()[:3] == ("none", "overlap", "mmr")
    assert all(RERANK_LABELS[name] for name in RERANKERS.names())


def test_unknown_method():
    with pytest.raises(
        ValueError,
        match=re.escape("unknown rerank method 'bm42'; valid choices: none, overlap, mmr"),
    ):
        rerank("bm42", "q", [], {}, shortlist=5)


def test_none_keeps_order_and_records_previous_rank():
    cs = [chunk("a", 0, "x"), chunk("b", 0, "y")]
    out, info = rerank("none", "q", ranked(cs, [2.0, 1.0]), table(cs), shortlist=5)
    assert [h.chunk_id for h in out] == [c.chunk_id for c in cs]
    assert [(h.rank, h.prev_rank, h.retrieval_score, h.score) for h in out] == [
        (1, 1, 2.0, 2.0),
        (2, 2, 1.0, 1.0),
    ]
    assert info == {"method": "none", "shortlist": 5, "reranked": 2}


@pytest.mark.parametrize("shortlist", [1, 2, 3, 10])
def test_none_equals_an_identity_reranker_through_the_generic_path(monkeypatch, shortlist):
    """``none`` takes a shortcut (no reranker call); every field must come out as the
    generic path makes them for a reranker that returns the identity order."""
    from rag_core.rerank import rerank_none

    def identity(query, hits, chunks, **_):
        result = rerank_none(query, hits, chunks)
        return Reranked(order=tuple(result.order), scores=result.scores)

    monkeypatch.setitem(RERANKERS._entries, "identity-test", identity)
    cs = [chunk("a", 0, "x"), chunk("b", 0, "y"), chunk("c", 0, "z")]
    hits = ranked(cs, [2.0, 2.0, 1.0])
    from_run = Notice(RUN_TEXT_UNAVAILABLE, {})
    hits[2] = Hit(chunk_id=cs[2].chunk_id, doc_id="c", rank=3, score=1.0, notice=from_run)
    fast, fast_info = rerank("none", "q", hits, table(cs), shortlist=shortlist)
    slow, slow_info = rerank("identity-test", "q", hits, table(cs), shortlist=shortlist)
    assert list(fast) == list(slow)  # every Hit field: rank, score, prev_rank, tied, note, ...
    assert {**fast_info, "method": "x"} == {**slow_info, "method": "x"}
    assert fast[0].tied is (shortlist >= 2)


# ----------------------------------------------------------------- overlap


def test_query_words_and_fraction():
    assert query_words("KV cache, kv CACHE? prompt") == ("kv", "cache", "prompt")
    frac, found = overlap_fraction(("kv", "cache", "prompt"), "The KV-Cache grows")
    assert frac == 2 / 3 and found == ("kv", "cache")
    assert overlap_fraction((), "anything") == (0.0, ())


def test_overlap_orders_by_fraction_then_score_then_chunk_order():
    cs = [
        chunk("d1", 0, "nothing relevant here"),
        chunk("d1", 1, "the kv cache stores keys"),
        chunk("d2", 0, "prompt cache and kv cache"),
        chunk("d0", 3, "a cache"),
    ]
    hits = ranked(cs, [4.0, 3.0, 2.0, 2.0])
    out, info = rerank("overlap", "kv cache prompt", hits, table(cs), shortlist=10)
    assert order(out, cs) == [2, 1, 3, 0]
    assert [h.score for h in out] == [3 / 3, 2 / 3, 1 / 3, 0 / 3]
    assert [h.prev_rank for h in out] == [3, 2, 4, 1]
    assert [h.retrieval_score for h in out] == [2.0, 3.0, 2.0, 4.0]
    assert not any(h.tied for h in out)
    assert info["query_words"] == ["kv", "cache", "prompt"]
    assert out[1].note == "overlap 2/3: kv, cache"


def test_overlap_ties_keep_retrieval_order_and_are_marked():
    cs = [chunk("a", 0, "kv cache"), chunk("a", 1, "cache kv"), chunk("b", 0, "kv")]
    hits = ranked(cs, [5.0, 4.0, 3.0])
    out, _ = rerank("overlap", "kv cache", hits, table(cs), shortlist=10)
    assert [h.chunk_id for h in out] == [c.chunk_id for c in cs]
    assert [h.tied for h in out] == [True, True, False]


def test_overlap_equal_scores_fall_back_to_chunk_order():
    cs = [chunk("b", 0, "kv"), chunk("a", 2, "kv"), chunk("a", 1, "kv")]
    hits = ranked(cs, [1.0, 1.0, 1.0])
    out, _ = rerank("overlap", "kv", hits, table(cs), shortlist=10)
    assert order(out, cs) == [2, 1, 0]


def test_overlap_korean_particle_all_zero_order_unchanged_all_tied():
    cs = [
        chunk("jeju", 0, "한라산은 제주도 한가운데 있다."),
        chunk("jeju", 1, "한라산을 오르는 길"),
        chunk("zoo", 0, "노루는 초식 동물이다."),
    ]
    hits = ranked(cs, [0.9, 0.5, 0.2])
    out, info = rerank("overlap", "한라산의 높이", hits, table(cs), shortlist=10)
    assert info["query_words"] == ["한라산의", "높이"]
    assert [h.score for h in out] == [0.0, 0.0, 0.0]
    assert [h.chunk_id for h in out] == [c.chunk_id for c in cs]
    assert all(h.tied for h in out)
    assert all(h.note == "overlap 0/2" for h in out)


def test_shortlist_only_the_top_is_reranked():
    cs = [chunk("a", i, text) for i, text in enumerate(["x", "kv", "y", "kv kv"])]
    hits = ranked(cs, [4.0, 3.0, 2.0, 1.0])
    out, info = rerank("overlap", "kv", hits, table(cs), shortlist=2)
    assert order(out, cs) == [1, 0, 2, 3]
    assert [h.rank for h in out] == [1, 2, 3, 4]
    assert (
        out[2].score == 2.0
        and out[2].prev_rank == 3
        and out[2].note.startswith("beyond the shortlist")
    )
    assert info["reranked"] == 2


def test_missing_chunk_and_bad_shortlist():
    cs = [chunk("a", 0, "x")]
    with pytest.raises(
        ValueError, match=re.escape("chunk 'zz' of the hits is not in the chunk table")
    ):
        rerank("overlap", "x", [Hit("zz", "z", 1, 1.0)], table(cs), shortlist=3)
    with pytest.raises(ValueError, match=re.escape("shortlist = 0 must be an integer >= 1")):
        rerank("overlap", "x", ranked(cs, [1.0]), table(cs), shortlist=0)


# --------------------------------------------------------------------- mmr


def test_mmr_order_by_hand():
    # q = e1; d0 = e1, d1 = e1 (duplicate of d0), d2 = (e1 + e2)/√2
    q = np.array([1.0, 0.0])
    vecs = {"d0": np.array([1.0, 0.0]), "d1": np.array([1.0, 0.0]), "d2": np.array([1.0, 1.0])}
    lam = 0.5
    order, scores = mmr_order(q, vecs, ["d0", "d1", "d2"], mmr_lambda=lam)
    s = 1 / np.sqrt(2)
    # step 1: d0 (relevance 1, tied with d1: the earlier wins); step 2 at λ = 0.5:
    # d1 gets λ·1 − (1−λ)·1 = 0 and d2 gets λ·s − (1−λ)·s = 0, a tie: the earlier (d1) wins
    assert order == [0, 1, 2]
    assert scores == pytest.approx([lam * 1, lam * 1 - (1 - lam) * 1, lam * s - (1 - lam) * s])
    order, scores = mmr_order(q, vecs, ["d0", "d1", "d2"], mmr_lambda=0.3)
    assert order == [0, 2, 1]  # more diversity: the duplicate drops to last
    assert scores[1] == pytest.approx(0.3 * s - 0.7 * s)


def test_mmr_lambda_one_is_relevance_order():
    q = np.array([1.0, 0.2, 0.0])
    vecs = {
        "a": np.array([0.0, 1.0, 0.0]),
        "b": np.array([1.0, 0.0, 0.0]),
        "c": np.array([1.0, 1.0, 0.0]),
    }
    order, _ = mmr_order(q, vecs, ["a", "b", "c"], mmr_lambda=1.0)
    rel = {k: float(v @ q / np.linalg.norm(v) / np.linalg.norm(q)) for k, v in vecs.items()}
    assert [["a", "b", "c"][i] for i in order] == sorted(rel, key=rel.get, reverse=True)


def test_mmr_errors():
    with pytest.raises(
        ValueError, match=re.escape("mmr_lambda = 1.5 must be a number between 0 and 1")
    ):
        mmr_order(np.ones(2), {"a": np.ones(2)}, ["a"], mmr_lambda=1.5)
    with pytest.raises(ValueError, match=re.escape("no vector for chunk(s) 'b'")):
        mmr_order(np.ones(2), {"a": np.ones(2)}, ["a", "b"], mmr_lambda=0.5)


def test_mmr_reranker_demotes_a_duplicate_with_tfidf_vectors():
    cs = [
        chunk("a", 0, "kv cache stores keys and values"),
        chunk("a", 1, "kv cache stores keys and values"),  # exact duplicate
        chunk("b", 0, "prompt cache reuses a prefix of the kv cache"),
    ]
    hits = ranked(cs, [3.0, 2.9, 2.0])
    out, info = rerank("mmr", "kv cache", hits, table(cs), shortlist=10, mmr_lambda=0.3)
    assert [h.chunk_id for h in out][0] == cs[0].chunk_id
    assert [h.chunk_id for h in out][-1] == cs[1].chunk_id
    assert info["mmr_lambda"] == 0.3
    qv, vecs = tfidf_vectoriser("kv cache", cs)
    assert set(vecs) == {c.chunk_id for c in cs}
    assert qv.shape[1] == vecs[cs[0].chunk_id].shape[1]


def test_mmr_accepts_a_custom_vectoriser():
    cs = [chunk("a", 0, "one"), chunk("a", 1, "two")]

    def reversed_relevance(query, shortlist):
        return np.array([1.0, 0.0]), {
            cs[0].chunk_id: np.array([0.0, 1.0]),
            cs[1].chunk_id: np.array([1.0, 0.0]),
        }

    out, _ = rerank(
        "mmr",
        "q",
        ranked(cs, [2.0, 1.0]),
        table(cs),
        shortlist=5,
        mmr_lambda=1.0,
        vectoriser=reversed_relevance,
    )
    assert [h.chunk_id for h in out] == [cs[1].chunk_id, cs[0].chunk_id]


def test_registry_checks_what_a_new_reranker_returns(monkeypatch):
    name = "broken-test-method"

    def broken(query, hits, chunks, **_):
        return Reranked(order=(0, 0), scores=(1.0, 1.0))

    # registered for this test only (monkeypatch removes it afterwards)
    monkeypatch.setitem(RERANKERS._entries, name, broken)
    cs = [chunk("a", 0, "x"), chunk("a", 1, "y")]
    with pytest.raises(ValueError, match=re.escape(f"reranker '{name}' returned order [0, 0]")):
        rerank(name, "q", ranked(cs, [1.0, 0.5]), table(cs), shortlist=5)


def test_rerank_notes_are_notices_and_the_note_is_their_english():
    from rag_core.rerank import RERANK_BEYOND_SHORTLIST
    from rag_core.rerank.overlap import RERANK_OVERLAP, RERANK_OVERLAP_NONE
    from rag_core.types import Notice
    from ui.i18n import note_text

    cs = [chunk("a", i, text) for i, text in enumerate(["x", "kv cache", "y"])]
    out, _ = rerank("overlap", "kv cache", ranked(cs, [3.0, 2.0, 1.0]), table(cs), shortlist=2)
    assert [h.notice for h in out] == [
        Notice(RERANK_OVERLAP, {"found": 2, "words": 2, "terms": "kv, cache"}),
        Notice(RERANK_OVERLAP_NONE, {"words": 2}),
        Notice(RERANK_BEYOND_SHORTLIST, {}),
    ]
    assert [h.note for h in out] == [english(h.notice) for h in out]
    assert out[2].note == "beyond the shortlist: not reranked"
    assert note_text(out[2], "ko") != out[2].note and note_text(out[2], "en") == out[2].note
    # a reranker without notes (MMR) keeps each hit's own note and notice
    from_run = Notice(RUN_TEXT_UNAVAILABLE, {})
    noted = [Hit(c.chunk_id, c.doc_id, i, 1.0, notice=from_run) for i, c in enumerate(cs, 1)]
    again, _ = rerank("mmr", "kv cache", noted, table(cs), shortlist=3)
    assert all((h.note, h.notice) == (english(from_run), from_run) for h in again)
