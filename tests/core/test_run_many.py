"""``pipeline.run_many``: the Traces of ``run`` per question, with the per-config work done once."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from rag_core.config import PipelineConfig, preset
from rag_core.formats.questions import queries_of
from rag_core.index import load_corpus_index
from rag_core.pipeline import run, run_many

QUESTIONS = ["KV cache decode", "한라산의 높이", "what does E21 mean", "노루 한라산", "???"]
CONFIGS = [
    {"retrieval.analyzer": "unicode"},
    {"retrieval.methods": "bm25:char,tfidf:char", "retrieval.k": "3"},
    {
        "retrieval.methods": "bm25:auto,tfidf:unicode",
        "fusion.method": "rrf",
        "rerank.method": "mmr",
    },
    {"retrieval.bm25_variant": "plus", "rerank.method": "overlap", "rerank.shortlist": "2"},
    {"gate.min_score": "1.5", "gate.max_kept": "2"},
]


def untimed(trace):
    """A Trace without its timings (the only field two runs of one question may differ in)."""
    return replace(trace, timings_ms={})


@pytest.mark.parametrize("overrides", CONFIGS)
def test_run_many_equals_run_per_question(tiny_corpus, overrides):
    config = preset("C").with_overrides({"generation.model": "none", **overrides})
    ids = [f"q{i}" for i in range(len(QUESTIONS))]
    batched = list(run_many(config, QUESTIONS, tiny_corpus, query_ids=ids))
    single = [
        run(config, q, tiny_corpus, stop_after="gate", query_id=i)
        for q, i in zip(QUESTIONS, ids, strict=True)
    ]
    assert len(batched) == len(QUESTIONS)
    assert [untimed(t) for t in batched] == [untimed(t) for t in single]
    # the per-config work is done once: every Trace of the set shares it
    assert all(t.config is batched[0].config for t in batched)
    assert all(t.index_stamp is batched[0].index_stamp for t in batched)


def test_run_many_equals_run_on_the_sample_set():
    corpus = load_corpus_index()
    config = PipelineConfig().with_overrides(
        {
            "retrieval.methods": "bm25:auto,tfidf:char",
            "rerank.method": "overlap",
            "generation.model": "none",
        }
    )
    jobs = [(qid, text) for q in corpus.questions for qid, text in queries_of(q, "all")]
    assert len(jobs) > 50
    batched = run_many(config, [t for _, t in jobs], corpus, query_ids=[i for i, _ in jobs])
    for (qid, text), trace in zip(jobs, batched, strict=True):
        single = run(config, text, corpus, stop_after="gate", query_id=qid)
        assert untimed(trace) == untimed(single), qid


def test_prefetched_blocks_equal_run_and_raise_in_turn(tiny_corpus, monkeypatch):
    """Kernels run a block ahead (RunPlan.prefetch); across blocks, with a repeated question
    and an invalid one, every Trace equals run's, and the error comes at its question."""
    import rag_core.pipeline as pipeline

    monkeypatch.setattr(pipeline, "PREFETCH_BLOCK", 2)
    config = preset("C").with_overrides(
        {"generation.model": "none", "retrieval.methods": "bm25:unicode,tfidf:char"}
    )
    texts = ["KV cache decode", "KV cache decode", "한라산의 높이", "노루 한라산", "  ", "E21"]
    from rag_core.retrieval.sparse.bm25 import BM25Index

    searched = []
    kernel = BM25Index.search
    monkeypatch.setattr(
        BM25Index, "search", lambda self, q, k: searched.append(q) or kernel(self, q, k)
    )
    made = []
    with pytest.raises(ValueError, match="question is empty"):
        for trace in run_many(config, texts, tiny_corpus):
            made.append(trace)
    assert len(made) == 4  # the four before the empty one, from two blocks
    # BM25 ran in the prefetch only: once per distinct valid question of the three blocks
    assert searched == [
        ["kv", "cache", "decode"],
        ["한라산의", "높이"],
        ["노루", "한라산"],
        ["e21"],
    ]
    for text, trace in zip(texts, made, strict=False):
        assert untimed(trace) == untimed(run(config, text, tiny_corpus, stop_after="gate"))


def test_run_many_validates_like_run(tiny_corpus):
    config = preset("C").with_overrides({"generation.model": "none"})
    with pytest.raises(ValueError, match="question is empty"):
        list(run_many(config, ["KV cache", "   "], tiny_corpus))
    with pytest.raises(ValueError, match="1 ids for 2 questions"):
        list(run_many(config, ["KV cache", "decode"], tiny_corpus, query_ids=["a"]))
    with pytest.raises(ValueError, match="valid choices: gate, support"):
        list(run_many(config, ["KV cache"], tiny_corpus, stop_after="rerank"))
    assert list(run_many(config, [], tiny_corpus)) == []


def test_term_stats_records_equal_the_constructor():
    from rag_core.retrieval.sparse.postings import term_stats
    from rag_core.types import TermStat

    vocab = {"kv": 0, "cache": 1}
    df, idf = np.array([3, 1]), np.array([0.5, 2.0])
    got = term_stats(vocab, df, idf, ["kv", "cache", "kv", "gpu"])
    assert got == (
        TermStat("kv", 2, 3, 0.5),
        TermStat("cache", 1, 1, 2.0),
        TermStat("gpu", 1, 0, None),
    )
    assert got[2].unknown and not got[0].unknown
