"""``ui.stream``: the stages Trace drawn first, the answer streamed after, Stop and cancelling.

The script each test runs through ``AppTest`` swaps ``rag_core.pipeline.run`` for a fake that
speaks the listener protocol of the real one (``preparing``, ``stages``, ``prompt``, ``text``;
``Cancelled`` raised by the listener), so the page side is checked without a model.
``tests/core/test_pipeline_staged.py`` checks the real ``run()`` side of the protocol.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _script(action: str) -> None:
    """The AppTest script: ``action`` is ``follow`` (stream to the end), ``convert`` (the same
    after a one-time conversion), ``stop`` (press Stop after the stages), ``moved`` (the
    session asks for another Trace meanwhile) or ``end`` (a run that ends before the grace
    period: no streaming)."""
    import threading
    import time

    import streamlit as st

    import rag_core.pipeline as pl
    from rag_core.config import PipelineConfig
    from ui import cache, stream

    log: list[str] = []
    mid = threading.Event()

    class Stand(str):
        """A Trace stand-in that compares as its name and has what the page reads of a run's
        end (``ui.cache.cacheable``: no endpoint or Qdrant failure)."""

        generation = type("Gen", (), {"notice": None})()
        retrieval = type("Ret", (), {"lists": ()})()

    full, staged, gate = Stand("FULL"), Stand("STAGED"), Stand("GATE")

    def fake_run(
        config, question, corpus, *, gold=None, runs=None, progress=None, listener=None, **kw
    ):
        if kw.get("stop_after") == "gate":  # the model-free stages, drawn while converting
            return gate
        progress("chunking", 0.1)
        # "none" counts as loaded: only "convert" draws the stages to the gate first
        listener("preparing", {"model": "none", "once": action == "convert"})
        if action == "end":
            return full
        listener("stages", staged)
        listener("prompt", {"tokens": 931, "model_id": "m"})
        for i, piece in enumerate(("Hallasan ", "is ", "1,947 m ", "high ", "[1].")):
            if i == 2:
                mid.set()
            time.sleep(0.15)  # five pieces take longer than the grace period
            listener("text", piece)
            log.append(piece)
        return full

    real, pl.run = pl.run, fake_run
    try:
        cfg = PipelineConfig()
        res = stream.staged_trace(None, f"fake:{action}", cfg, "q?", None, "en")
        st.session_state.setdefault("drawn", []).append(res.trace)  # each run's first drawing
        out: dict[str, object] = {"first": res.trace, "pending": res.pending is not None}
        if res.pending is not None:
            if action == "stop":
                mid.wait(5)
                stream.stop(res.key)  # what the Stop button's callback does
            if action == "moved":  # the next page run asks for another Trace (a knob moved)
                mid.wait(5)
                stream.cancel_others({("another", "trace")})
                while res.pending.events.get(timeout=5)[0] != "done":
                    pass
            else:
                out["final"] = stream.follow(res.pending, "en", key="t.stop")
        key = cache.trace_key(f"fake:{action}", cfg, "q?", None)
        out["stored"] = cache.trace_store().get(key)
        out["locked"] = cache.trace_store().building(key).locked()
        out["log"] = list(log)
        again = stream.staged_trace(None, f"fake:{action}", cfg, "q?", None, "en")
        out["again"] = (again.trace, again.stopped, again.cached)
    finally:
        pl.run = real  # the module is shared with the rest of the test session
    st.session_state["out"] = out


def _run(action: str) -> AppTest:
    at = AppTest.from_function(_script, args=(action,), default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_stages_first_then_the_answer_streams_and_the_full_trace_is_kept():
    at = _run("follow")
    out = at.session_state["out"]
    # follow() reran the script once the full Trace was kept: the second run finds it cached
    assert out["first"] == "FULL" and out["again"] == ("FULL", False, True)
    assert out["stored"] == "FULL" and not out["locked"]


def test_while_the_generator_converts_the_stages_to_the_gate_are_drawn_first():
    """A one-time conversion: the page draws the model-free stages (``stop_after="gate"``) at
    once, reruns with the prompt's stages when the model is ready, then with the answer."""
    at = _run("convert")
    assert at.session_state["drawn"] == ["GATE", "STAGED", "FULL"]
    assert at.session_state["out"]["stored"] == "FULL"


def test_a_run_that_ends_at_once_is_drawn_once_complete():
    out = _run("end").session_state["out"]
    assert out["first"] == "FULL" and not out["pending"]
    assert out["stored"] == "FULL" and not out["locked"]


def test_stop_cancels_the_generation_keeps_the_stages_and_caches_nothing():
    out = _run("stop").session_state["out"]
    assert out["first"] == "STAGED" and out["pending"]
    assert out["final"] is None  # cancelled: no answer
    assert len(out["log"]) < 5  # the fake was stopped before its last piece
    assert out["stored"] is None and not out["locked"]  # nothing cached, the lock released
    assert out["again"] == ("STAGED", True, False)  # the page shows the stages, stopped


def test_asking_for_another_trace_cancels_the_running_generation():
    out = _run("moved").session_state["out"]
    assert out["first"] == "STAGED" and len(out["log"]) < 5
    assert out["stored"] is None and not out["locked"]
    assert out["again"] == ("STAGED", False, False)  # asked again: a fresh run streams
