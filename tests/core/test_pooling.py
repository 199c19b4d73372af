"""TREC-style pooling and span helpers of the Label page (pure, plus one pool over a tiny
corpus)."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from rag_core.config import PipelineConfig
from rag_core.evaluation.pooling import pool, pool_question
from rag_core.gold.labels import Label
from rag_core.gold.spans import label_on, labels_within, occurrences, sentence_containing
from rag_core.pipeline.retrieval import retrieve
from rag_core.text import sentence_spans
from rag_core.types import Question

RUNS = {
    "bm25": ["a", "b", "c", "d"],
    "tfidf": ["c", "a", "e", "f"],
    "dense": ["g", "c", "a"],
}


def naive_pool(runs, depth):
    """Reference: the set union of every run's top ``depth``, each item's ranks."""
    out: dict[str, dict[str, int]] = {}
    for name, ranking in runs.items():
        for rank, item in enumerate(ranking[:depth], 1):
            out.setdefault(item, {}).setdefault(name, rank)
    return out


@pytest.mark.parametrize("depth", [1, 2, 3, 10])
def test_pool_is_the_union_of_each_runs_top_depth(depth):
    entries = pool(RUNS, depth)
    ref = naive_pool(RUNS, depth)
    assert {e.item for e in entries} == set(ref)
    for e in entries:
        assert dict(e.ranks) == ref[e.item]
        assert e.best_rank == min(ref[e.item].values())
    assert [e.position for e in entries] == list(range(1, len(entries) + 1))


def test_rank_order_best_rank_then_more_runs_then_first_run():
    entries = pool(RUNS, 3)
    # rank 1: a (bm25), c (tfidf), g (dense) — each found by: a 3 runs, c 3 runs, g 1 run;
    # a before c because bm25 (first run) holds a first.
    assert [e.item for e in entries] == ["a", "c", "g", "b", "e"]


def test_shuffle_is_seeded_and_a_permutation_of_the_rank_order():
    by_rank = [e.item for e in pool(RUNS, 4)]
    shuffled = [e.item for e in pool(RUNS, 4, order="shuffle", seed=7)]
    expected = list(by_rank)
    random.Random(7).shuffle(expected)
    assert shuffled == expected
    assert [
        e.item for e in pool(RUNS, 4, order="shuffle", seed=7)
    ] == shuffled  # same seed, same order
    assert sorted(shuffled) == sorted(by_rank)


def test_duplicates_in_one_run_count_once():
    entries = pool({"r": ["x", "x", "y"]}, 3)
    assert [(e.item, e.ranks) for e in entries] == [("x", (("r", 1),)), ("y", (("r", 3),))]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"depth": 0}, "pool depth must be a positive integer; got 0"),
        ({"depth": True}, "pool depth must be a positive integer; got True"),
        (
            {"depth": 2, "order": "random"},
            "pool order = 'random' is not valid; valid choices: rank, shuffle",
        ),
        ({"depth": 2, "seed": "1"}, "pool seed must be an integer; got '1'"),
    ],
)
def test_pool_validation(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        pool(RUNS, **kwargs)


def test_a_run_given_as_a_string_is_refused():
    with pytest.raises(ValueError, match=re.escape("run 'r' must be a list of ids, not a string")):
        pool({"r": "abc"}, 2)


def test_pool_question_pools_each_retriever_and_phrasing(tiny_corpus):
    q = Question(
        id="q1",
        lang="ko",
        question="한라산의 높이는?",
        phrasings=("한라산의 높이는?", "한라산 높이"),
    )
    config = PipelineConfig()
    result = pool_question(
        config, q, tiny_corpus, retrievers=("bm25:unicode", "bm25:char"), depth=2
    )
    assert set(result.runs) == {"bm25:unicode#0", "bm25:char#0", "bm25:unicode#1", "bm25:char#1"}
    # each run is exactly that retriever's top 2 for that phrasing
    for i, text in enumerate(q.phrasings):
        cfg = replace(
            config, retrieval=replace(config.retrieval, methods=("bm25:unicode", "bm25:char"), k=2)
        )
        stage = retrieve(cfg, text, tiny_corpus).stage
        for lst in stage.lists:
            assert result.runs[f"{lst.name}#{i}"] == tuple(h.chunk_id for h in lst.hits[:2])
    assert [e.item for e in result.entries] == [e.item for e in pool(result.runs, 2)]
    assert result.chunker_signature == config.chunker.signature
    assert result.unavailable == ()


def test_pool_question_reports_a_missing_model_and_pools_the_rest(tiny_corpus):
    q = Question(id="q1", lang="en", question="What does error E17 mean?")
    config = PipelineConfig().with_overrides({"retrieval.dense_model": "/no/such/model"})
    result = pool_question(config, q, tiny_corpus, retrievers=("bm25", "dense"), depth=3)
    assert list(result.runs) == ["bm25:auto#q"]  # bare 'bm25' uses the default analyzer (auto)
    assert len(result.unavailable) == 1 and result.unavailable[0].startswith(
        "dense:/no/such/model: "
    )
    assert result.entries


def test_pool_question_rejects_bad_retrievers(tiny_corpus):
    q = Question(id="q1", lang="en", question="E17")
    with pytest.raises(ValueError, match=re.escape("choose at least one retriever to pool")):
        pool_question(PipelineConfig(), q, tiny_corpus, retrievers=())
    with pytest.raises(
        ValueError,
        match=re.escape(
            "retrieval.methods (bm25:klingon) = 'klingon' is not valid; valid choices: auto, "
            "ascii, unicode"
        ),
    ):
        pool_question(PipelineConfig(), q, tiny_corpus, retrievers=("bm25:klingon",))


# ----------------------------------------------------------------------- spans


def test_occurrences_finds_every_one_overlapping_included():
    text = "aaa b aaa"
    assert occurrences(text, "aa") == ((0, 2), (1, 3), (6, 8), (7, 9))
    assert occurrences(text, "aa", limit=2) == ((0, 2), (1, 3))
    assert occurrences(text, "zz") == ()
    assert occurrences(text, "") == ()
    for s, e in occurrences(text, "aa"):
        assert text[s:e] == "aa"
    with pytest.raises(ValueError, match=re.escape("limit must be a positive integer; got 0")):
        occurrences(text, "a", limit=0)


def test_sentence_containing_uses_the_context_splitter():
    text = "First one. Second one here. Third."
    spans = sentence_spans(text)
    assert sentence_containing(text, 0) == 0
    assert sentence_containing(text, spans[1][0] + 3) == 1
    assert sentence_containing(text, spans[1][1]) == 2  # the space after sentence 2: the next one
    assert sentence_containing(text, len(text)) is None


def _label(doc, start, end, grade=1):
    return Label("id", "s", "q", doc, start, end, "x" * (end - start), grade, "", "", "t", 1, "add")


def test_labels_within_and_label_on():
    labs = [_label("d", 5, 10), _label("d", 0, 30), _label("e", 5, 10)]
    assert labels_within(labs, "d", 0, 12) == (labs[0],)
    assert labels_within(labs, "d", 0, 30) == (labs[0], labs[1])
    assert labels_within(labs, "d", 6, 30) == ()
    assert label_on(labs, "e", 5, 10) is labs[2]
    assert label_on(labs, "e", 5, 11) is None


def test_pool_question_pools_an_imported_run_with_its_outside_texts(tiny_corpus):
    from rag_core.retrieval.runs import parse_trec_run
    from ui.label.origins import pool_view

    q = Question(id="q1", lang="en", question="What does error E17 mean?")
    config = PipelineConfig()
    chunking = tiny_corpus.chunking(config.chunker)
    first = chunking.chunks[0].chunk_id
    runs = parse_trec_run([f"q1 Q0 {first} 1 9.0 prod", "q1 Q0 elsewhere 2 5.0 prod"])
    result = pool_question(
        config, q, tiny_corpus, retrievers=("bm25:unicode", "run:prod"), depth=3, runs=runs
    )
    assert result.runs["run:prod#q"] == (first, "ext::elsewhere")
    assert set(result.extra) == {"ext::elsewhere"}  # not a chunk of the chunking
    pooled = {e.item for e in result.entries}
    assert {first, "ext::elsewhere"} <= pooled
    assert pooled == {e.item for e in pool(result.runs, 3)}
    view = pool_view(result, chunking, (), (), tiny_corpus.docs)
    assert {r.chunk.chunk_id for r in view.rows} == pooled
    # without the run loaded the list is unavailable and the rest still pools
    alone = pool_question(config, q, tiny_corpus, retrievers=("bm25:unicode", "run:prod"), depth=3)
    assert list(alone.runs) == ["bm25:unicode#q"] and len(alone.unavailable) == 1
