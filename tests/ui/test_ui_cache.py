"""``ui.cache``: sessions asking for the same Trace at once share one pipeline run."""

from __future__ import annotations

import threading
import time

from rag_core.config import PipelineConfig
from rag_core.pipeline import run
from ui import cache


def test_concurrent_sessions_share_one_pipeline_run(tiny_corpus):
    calls: list[str] = []
    light = PipelineConfig().with_overrides(
        {"retrieval.methods": "bm25", "generation.model": "none"}
    )
    trace = run(light, "how tall is the tank?", tiny_corpus, stop_after="gate")

    def runner(config, question, corpus, **kw):
        calls.append(question)
        time.sleep(0.3)  # long enough for every other caller to arrive while it runs
        return trace

    key_parts = (tiny_corpus, "tiny:shared", PipelineConfig(), "how tall is the tank?", None)
    results: list[cache.TraceResult] = []
    start = threading.Barrier(8)

    def session() -> None:
        start.wait()
        results.append(cache.get_trace(*key_parts, runner=runner, slot=_NoSlot()))

    threads = [threading.Thread(target=session) for _ in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert calls == ["how tall is the tank?"]  # one run, not eight
    assert [r.trace for r in results] == [trace] * 8
    assert sum(not r.cached for r in results) == 1
    # a different question is its own run
    cache.get_trace(
        tiny_corpus,
        "tiny:shared",
        PipelineConfig(),
        "another question",
        None,
        runner=runner,
        slot=_NoSlot(),
    )
    assert calls == ["how tall is the tank?", "another question"]


class _NoSlot:
    """A progress slot that draws nothing (no script run in a unit test)."""

    def status(self, *a, **k):  # pragma: no cover - the runner reports no progress
        raise AssertionError("no progress expected")

    def empty(self) -> None:
        pass
