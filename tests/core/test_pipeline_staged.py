"""``run()`` in phases: ``stop_after="context"``, the listener's ``stages`` Trace, cancelling.

A page draws every model-free stage from the ``stages`` Trace while the answer is made, and
abandons a run by raising :class:`rag_core.pipeline.Cancelled` from its listener: nothing of
the abandoned run may be returned, cached or left locked.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers.fakes import StreamingGenerator

import rag_core.models as models
from rag_core.answer.generation import generation_store
from rag_core.config import PipelineConfig
from rag_core.models import ModelUnavailable
from rag_core.pipeline import STAGES_NOT_RUN_AFTER_CONTEXT, STOP_AFTER, Cancelled, run

QUESTION = "How does the KV cache grow?"


@pytest.fixture()
def fake(monkeypatch, tmp_path):
    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path / "cache"))

    def no_embedder(name, *a, **k):
        raise ModelUnavailable(name, "not in this test")

    gen = StreamingGenerator("The KV cache grows with every token [1].")
    monkeypatch.setattr(models, "get_embedder", no_embedder)
    monkeypatch.setattr(models, "get_generator", lambda name, *a, **k: gen)
    return gen


def _cfg(**over: str) -> PipelineConfig:
    base = {
        "retrieval.methods": "bm25",
        "retrieval.analyzer": "unicode",
        "generation.model": "fake",
        "generation.citations": "free",
    }
    return PipelineConfig().with_overrides({**base, **over})


def _same(a, b) -> None:
    """Two Traces equal but for their timings."""
    assert replace(a, timings_ms={}) == replace(b, timings_ms={})


def test_stop_after_context_builds_the_prompt_and_calls_no_model(tiny_corpus, fake):
    trace = run(_cfg(), QUESTION, tiny_corpus, stop_after="context")
    assert trace.context.status == "ok" and trace.context.input_ids
    assert trace.context.tokenizer and trace.context.tokenizer.startswith("fake")
    for stage in (trace.generation, trace.support):
        assert stage.status == "skipped"
        assert stage.notice is not None and stage.notice.code == STAGES_NOT_RUN_AFTER_CONTEXT
    assert fake.calls == 0
    assert "context" in trace.timings_ms and "generation" not in trace.timings_ms


def test_stop_after_names_its_choices(tiny_corpus):
    assert STOP_AFTER == ("gate", "context", "support")
    with pytest.raises(ValueError, match="gate, context, support"):
        run(_cfg(), QUESTION, tiny_corpus, stop_after="rerank")


def test_the_listener_gets_the_context_trace_before_the_model_is_called(tiny_corpus, fake):
    events: list[tuple[str, object]] = []

    def listener(kind, value):
        events.append((kind, value, fake.calls))

    full = run(_cfg(), QUESTION, tiny_corpus, listener=listener)
    kinds = [k for k, _, _ in events]
    assert kinds[:3] == ["preparing", "stages", "prompt"]
    assert kinds[3:] == ["text"] * len(kinds[3:]) and len(kinds) > 4
    assert events[0][1] == {"model": "fake", "once": False}
    staged, calls_then = events[1][1], events[1][2]
    assert calls_then == 0  # drawn before the model runs
    _same(staged, run(_cfg(), QUESTION, tiny_corpus, stop_after="context"))
    # the full Trace is the staged one plus the answer stages
    assert full.generation.status == "ok" and full.generation.answer == fake.answer
    _same(replace(full, generation=staged.generation, support=staged.support, gold=None),
          replace(staged, gold=None))  # fmt: skip
    assert "".join(v for k, v, _ in events if k == "text") == fake.answer


def test_no_stages_event_without_a_model_call(tiny_corpus, fake):
    events: list[str] = []
    run(
        _cfg(**{"generation.model": "none"}),
        QUESTION,
        tiny_corpus,
        listener=lambda k, v: events.append(k),
    )
    refused = _cfg(**{"gate.min_score": "1000"})
    run(refused, QUESTION, tiny_corpus, listener=lambda k, v: events.append(k))
    assert "stages" not in events and "text" not in events


def test_a_cancelled_run_returns_nothing_stores_nothing_and_frees_the_model(tiny_corpus, fake):
    seen: list[str] = []

    def listener(kind, value):
        if kind == "text":
            seen.append(value)
            if len(seen) == 2:
                raise Cancelled

    with pytest.raises(Cancelled):
        run(_cfg(), QUESTION, tiny_corpus, listener=listener)
    assert len(seen) == 2 and fake.words == 2  # stopped at the piece that raised
    assert not fake.lock.locked()
    assert generation_store(None).recent(10) == []  # the partial answer was not cached
    again = run(_cfg(), QUESTION, tiny_corpus)
    assert again.generation.status == "ok" and not again.generation.cached
    assert again.generation.answer == fake.answer and fake.calls == 2


def test_cancelled_is_not_an_exception_a_stage_would_swallow():
    assert not issubclass(Cancelled, Exception) and issubclass(Cancelled, BaseException)
