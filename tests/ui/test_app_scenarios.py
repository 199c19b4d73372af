"""Scenario expectations: ``check_expectation`` on inline corpora, and every gallery card on the
shipped corpus."""

from __future__ import annotations

import pytest

from rag_core.config import PipelineConfig
from rag_core.index import CorpusIndex, load_corpus_index
from rag_core.pipeline import run
from rag_core.scenarios import EXPECT_KEYS, SCENARIOS, check_expectation
from rag_core.scenarios.checks import CHECKS, overlapping_hits
from rag_core.types import Document, LoadReport, Needle, Question

OFF = {"generation.model": "none"}
WORD = {
    **OFF,
    "retrieval.analyzer": "unicode",
}  # the analyzer of failure mode 3 (the default was unicode before auto)


def _corpus(*docs: tuple[str, str], questions=()) -> CorpusIndex:
    report = LoadReport(tuple(Document(doc_id=i, title=i, text=text) for i, text in docs))
    return CorpusIndex(report, name="inline", questions=questions)


@pytest.fixture(scope="module")
def jeju() -> tuple[CorpusIndex, Question]:
    q = Question(
        id="q1",
        lang="ko",
        question="한라산의 높이는?",
        needles=(Needle(doc_id="mountain", text="한라산은 높이가 1,947m이다."),),
    )
    corpus = _corpus(
        ("mountain", "한라산은 높이가 1,947m이다. 정상에는 백록담이 있다."),
        ("animals", "노루는 한라산 숲에 산다. 오소리와 족제비도 산다."),
        questions=(q,),
    )
    return corpus, q


def test_particle_question_zero_then_some_candidates(jeju):
    corpus, q = jeju
    word = run(PipelineConfig().with_overrides(WORD), q.question, corpus, gold=q)
    assert (
        check_expectation(
            word, {"zero_candidates": "bm25:unicode", "lost_at": "retrieval", "refused": True}
        )
        == []
    )
    char = run(
        PipelineConfig().with_overrides({**OFF, "retrieval.analyzer": "char"}),
        q.question,
        corpus,
        gold=q,
    )
    assert (
        check_expectation(
            char, {"some_candidates": "bm25:char", "top_doc": {"bm25:char": "mountain"}}
        )
        == []
    )


def test_default_auto_analyzer_finds_the_particle_question(jeju):
    """The new default analyses Hangul runs with Kiwi: '한라산의' meets '한라산은'."""
    corpus, q = jeju
    auto = run(PipelineConfig().with_overrides(OFF), q.question, corpus, gold=q)
    assert (
        check_expectation(
            auto, {"some_candidates": "bm25:auto", "top_doc": {"bm25:auto": "mountain"}}
        )
        == []
    )
    view = auto.retrieval.lists[0].analyzer_view
    assert [(run_, name) for run_, name, _terms in view.segments] == [
        ("한라산의", "kiwi"),
        ("높이는", "kiwi"),
    ]
    assert {t.term for t in view.terms} == {"한라산", "높이"}


def test_unmet_expectations_say_what_was_found(jeju):
    corpus, q = jeju
    word = run(PipelineConfig().with_overrides(WORD), q.question, corpus, gold=q)
    problems = check_expectation(
        word,
        {
            "some_candidates": "bm25:unicode",
            "zero_candidates": "bm25:char",
            "lost_at": "",
            "refused": False,
            "top_doc": {"bm25:unicode": "mountain"},
        },
    )
    assert problems == [
        "some_candidates: bm25:unicode has 0 hits",
        "zero_candidates: no retriever list named 'bm25:char' (have bm25:unicode)",
        "lost_at: expected '', got 'retrieval'",
        "refused: expected False, got True",
        "top_doc of bm25:unicode: expected 'mountain', got None",
    ]


def test_an_unknown_expectation_is_refused_with_the_valid_names(jeju):
    corpus, q = jeju
    trace = run(PipelineConfig().with_overrides(WORD), q.question, corpus, gold=q)
    with pytest.raises(ValueError) as err:
        check_expectation(trace, {"refused": True, "lost": "retrieval"})
    assert str(err.value) == (
        "unknown expectation 'lost'; valid choices: lost_at, refused, zero_candidates, "
        "some_candidates, destroyed, over_window, gold_over_window, overlapping_hits, "
        "gold_rank_at_most, gold_absent, top_doc, duplicates_dropped, numbers_in_no_source, "
        "question_cut"
    )
    assert CHECKS.names() == EXPECT_KEYS


def test_overlapping_hits_finds_shared_text():
    text = " ".join(f"zebra{i} stripes" for i in range(60))
    corpus = _corpus(("z", text))
    config = PipelineConfig().with_overrides(
        {
            **OFF,
            "chunker.strategy": "blind",
            "chunker.target": 120,
            "chunker.overlap": 60,
            "retrieval.k": 4,
        }
    )
    trace = run(config, "zebra stripes", corpus)
    pairs = overlapping_hits(trace)
    assert pairs
    for a, b in pairs:
        ca, cb = trace.chunks[a], trace.chunks[b]
        assert ca.start < cb.end and cb.start < ca.end
    plain = run(config.with_overrides({"chunker.overlap": 0}), "zebra stripes", corpus)
    assert overlapping_hits(plain) == []
    assert check_expectation(plain, {"overlapping_hits": False}) == []


@pytest.mark.slow
@pytest.mark.parametrize("s", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_every_card_shows_what_it_claims(s):
    """On the shipped corpus (dense scenarios load MiniLM); generation off — no card's claim
    needs it."""
    corpus = _shipped()
    q = {x.id: x for x in corpus.questions}[s.question_id]
    text = s.question_text(q)
    base = PipelineConfig().with_overrides(OFF)
    assert check_expectation(run(s.config(base), text, corpus, gold=q), s.expect) == []
    if s.compare is not None:
        assert check_expectation(run(s.config_b(base), text, corpus, gold=q), s.expect_b) == []


_CACHE: dict[str, CorpusIndex] = {}


def _shipped() -> CorpusIndex:
    if "sample" not in _CACHE:
        _CACHE["sample"] = load_corpus_index()
    return _CACHE["sample"]
