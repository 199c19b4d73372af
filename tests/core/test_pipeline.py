"""The one flow on a tiny corpus: retrieval, fusion, rerank, gate, Trace JSON."""

import json
import re

import pytest

from rag_core.config import PipelineConfig, preset
from rag_core.pipeline import run
from rag_core.pipeline.question import MAX_QUESTION_CHARS, validate_question
from rag_core.types import Needle

SPARSE = {"generation.model": "none"}


def cfg(**overrides):
    return preset("C").with_overrides({**SPARSE, **overrides})


def ids(hits):
    return [h.chunk_id.split("::")[0] + "#" + h.chunk_id[-1] for h in hits]


def test_particle_question_has_zero_word_candidates_and_char_candidates(tiny_corpus):
    word = run(
        cfg(**{"retrieval.analyzer": "unicode"}), "한라산의 높이", tiny_corpus, stop_after="gate"
    )
    lst = word.retrieval.lists[0]
    assert lst.hits == () and lst.n_candidates == 0
    assert lst.analyzer_view.zero_df_terms == ("한라산의", "높이")
    assert word.gate.refused and word.gate.reason == "no candidates: retrieval returned nothing"
    char = run(
        cfg(**{"retrieval.analyzer": "char"}), "한라산의 높이", tiny_corpus, stop_after="gate"
    )
    assert char.retrieval.lists[0].n_candidates > 0


def test_k_limits_every_list(tiny_corpus):
    t = run(
        cfg(**{"retrieval.methods": "bm25:char,tfidf:char", "retrieval.k": "2"}),
        "노루 한라산",
        tiny_corpus,
        stop_after="gate",
    )
    assert all(len(lst.hits) <= 2 for lst in t.retrieval.lists)
    assert t.retrieval.fused is not None and len(t.retrieval.fused.hits) <= 2
    fused = t.retrieval.fused.hits[0]
    assert set(fused.contributions) <= {"bm25:char", "tfidf:char"}
    assert fused.score == pytest.approx(sum(fused.contributions.values()))


def test_exact_code_ranks_first_with_bm25(tiny_corpus):
    t = run(
        cfg(**{"retrieval.analyzer": "unicode"}),
        "what does E21 mean",
        tiny_corpus,
        stop_after="gate",
    )
    top = t.chunks[t.retrieval.hits[0].chunk_id]
    assert "E21" in top.content


def test_gate_score_threshold_refuses_without_model(tiny_corpus):
    t = run(cfg(**{"gate.min_score": "1000"}), "KV cache", tiny_corpus)
    assert t.gate.refused
    assert t.context.status == "skipped" and t.generation.status == "skipped"
    assert t.generation.seconds is None and t.generation.input_tokens is None


def test_trace_serialises_to_json_with_every_stage(tiny_corpus):
    t = run(
        cfg(),
        "KV cache decode",
        tiny_corpus,
        gold=[Needle("kv", "The KV cache grows with every generated token.")],
    )
    data = json.loads(t.to_json())
    for key in (
        "question",
        "config",
        "index_stamp",
        "chunking",
        "retrieval",
        "rerank",
        "gate",
        "context",
        "generation",
        "support",
        "chunks",
        "timings_ms",
        "gold",
    ):
        assert key in data
    assert PipelineConfig.from_dict(data["config"]) == cfg()
    assert data["index_stamp"]["chunker_signature"] == "boundaries-t512"
    assert data["gold"]["chunk_ids"][0]
    for chunk in data["chunks"].values():
        assert chunk["content"] in t.chunks[chunk["chunk_id"]].text


def test_gold_lost_at_chunking_with_blind_cut(tiny_corpus):
    text = tiny_corpus.docs["jeju"].text
    needle = "해발 1,947m로 남한에서 가장 높은 산이다"
    at = text.index(needle)
    target = at + 10  # a blind cut 10 characters into the needle
    t = run(
        cfg(**{"chunker.strategy": "blind", "chunker.target": str(target)}),
        "한라산 높이",
        tiny_corpus,
        gold=[Needle("jeju", needle)],
        stop_after="gate",
    )
    assert t.gold.lost_at == "chunking"
    overlap = run(
        cfg(
            **{"chunker.strategy": "blind", "chunker.target": str(target), "chunker.overlap": "40"}
        ),
        "한라산 높이",
        tiny_corpus,
        gold=[Needle("jeju", needle)],
        stop_after="gate",
    )
    assert overlap.gold.lost_at != "chunking"


@pytest.mark.parametrize(
    "question, message",
    [
        ("", "the question is empty"),
        ("   \n ", "the question is empty"),
        (
            "x" * 20_000,
            (
                f"the question is 20,000 characters long; the limit is {MAX_QUESTION_CHARS:,} "
                "characters"
            ),
        ),
        (None, "the question must be text, not NoneType"),
    ],
)
def test_bad_questions_are_clear_errors(question, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        validate_question(question)


def test_unexpected_script_is_a_warning_not_an_error(tiny_corpus):
    t = run(cfg(), "Какая высота горы Халласан?", tiny_corpus, stop_after="gate")
    assert any("Cyrillic script" in w for w in t.warnings)
    assert t.retrieval.lists[0].hits == ()


def test_every_retrieval_method_has_one_driver():
    from rag_core.config import EXTERNAL_METHODS, RETRIEVAL_METHODS
    from rag_core.pipeline.retrievers import RETRIEVERS

    assert sorted(RETRIEVERS.names()) == sorted(RETRIEVAL_METHODS + EXTERNAL_METHODS)
    valid = "bm25, tfidf, dense, qdrant, run"
    with pytest.raises(ValueError, match=rf"unknown retriever 'bm26'; valid choices: {valid}$"):
        RETRIEVERS.get("bm26")
