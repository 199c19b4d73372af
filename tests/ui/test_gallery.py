"""The lecture gallery's readiness and background preparation (``ui.gallery``), on the tiny
inline corpus with a char-level fake generator: a side is unprepared (with its estimate) until
the preparer ran it once, then prepared (its answer replays, its Trace is in the Trace cache);
Scenarios and Lecture word the state in both languages."""

from __future__ import annotations

import pytest
from helpers.fakes import FakeGenerator

from rag_core.config import PipelineConfig
from rag_core.models import ModelUnavailable
from rag_core.scenarios import SCENARIOS, Scenario, ScenarioRun
from ui import cache, gallery, stream
from ui.i18n import t

TEXTS = {"ko": "x", "en": "x"}


@pytest.fixture()
def fake(monkeypatch, tmp_path):
    import rag_core.models as models

    gen = FakeGenerator("Error E17 means the door latch did not close [1].")
    gen.file_sha256 = "9" * 64
    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(models, "get_generator", lambda *a, **k: gen)

    def no_embedder(name, *a, **k):
        raise ModelUnavailable(name, "not in this test")

    monkeypatch.setattr(models, "get_embedder", no_embedder)
    return gen


def _preparer(corpus) -> gallery.Preparer:
    cfg = PipelineConfig().with_overrides({"chunker.preset": "C", "generation.model": "fake"})
    s = Scenario(
        id="e17", mode=1, title=TEXTS, explanation=TEXTS, look_at=TEXTS,
        question="What does error E17 mean?", compare={"context.instructions": "minimal"},
    )  # fmt: skip
    prep = gallery.Preparer(corpus, cfg)
    prep.runs = [ScenarioRun(s, "A", s.config(cfg)), ScenarioRun(s, "B", s.config_b(cfg))]
    return prep


def test_a_side_is_unprepared_until_the_preparer_ran_it(tiny_corpus, fake):
    prep = _preparer(tiny_corpus)
    prep.survey()
    assert [prep.states[("e17", side)].ready for side in "AB"] == [False, False]
    assert fake.calls == 0  # read off the prompts: no model call
    assert prep.prepare_one(prep.runs[0]) and fake.calls == 1
    assert prep.states[("e17", "A")] == gallery.Readiness(True)
    text = prep.runs[0].scenario.question_text()
    key = cache.trace_key(prep.key, prep.runs[0].config, text, None)
    assert cache.trace_store().get(key).generation.answer == fake.answer  # opens at once
    assert prep.states[("e17", "B")] == gallery.Readiness(False)  # no estimate: nothing timed
    prep.states.clear()
    prep.survey()
    state_b = prep.states[("e17", "B")]
    assert prep.states[("e17", "A")].ready
    assert not state_b.ready and state_b.seconds is not None  # the first answer calibrated it


def test_the_preparer_waits_for_an_idle_server(monkeypatch):
    waited = []
    idle = iter([0.0, 5.0, gallery.IDLE_S])
    monkeypatch.setattr(stream, "idle_seconds", lambda: next(idle))
    monkeypatch.setattr(gallery.time, "sleep", waited.append)
    gallery._wait_idle()
    assert waited == [gallery.IDLE_S, gallery.IDLE_S - 5.0]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_state_is_worded_with_each_sides_estimate(lang):
    r = gallery.Readiness
    assert gallery.readiness_words([("A", r(True)), ("B", r(True))], lang) == (
        "ready",
        t("gallery.ready", lang),
    )
    kind, text = gallery.readiness_words([("A", r(True)), ("B", r(False, 41.6))], lang)
    assert kind == "unready" and t("gallery.side_est", lang, side="B", seconds="42") in text
    kind, text = gallery.readiness_words([("A", r(False, None, running=True))], lang)
    assert kind == "running" and t("gallery.side_no_est", lang, side="A") in text


def test_without_a_preparer_nothing_is_said(monkeypatch):
    monkeypatch.setattr(gallery, "_PREPARER", {})
    assert gallery.status(SCENARIOS[0].id, "A") is None
    assert gallery.readiness_text(SCENARIOS[0], "en") is None
    monkeypatch.setenv(gallery.ENV, "0")
    assert gallery.start(lambda: pytest.fail("no corpus loaded"), PipelineConfig()) is None


def test_scenarios_and_lecture_mark_an_unprepared_side_with_its_estimate(entry, monkeypatch):
    import threading

    from helpers.app import make_app, ok, plain
    from helpers.paths import ROOT

    class Known:
        lock = threading.Lock()
        states = {
            (s.id, side): gallery.Readiness(side == "A" or s.id != "budget-cut", 41.6)
            for s in SCENARIOS
            for side in "AB"
        }

    monkeypatch.setenv("RAG_APP_SET", "generation.model=none")
    monkeypatch.setattr(gallery, "_PREPARER", {"preparer": Known()})
    at = make_app(entry, {"lang": "en"}, page="scenarios")
    ok(at)
    captions = [plain(c.value) for c in at.caption]
    assert sum(t("gallery.ready", "en") in c for c in captions) == len(SCENARIOS) - 1
    unready = t("gallery.unready", "en", sides=t("gallery.side_est", "en", side="B", seconds="42"))
    assert any(unready in c for c in captions)
    at.button(key="scn.budget-cut.lecture").click().run()
    at.switch_page(str(ROOT / "pages" / "lecture.py"))
    at.run()
    ok(at)
    assert any(t("lec.unready", "en", sides="B ≈ 42 s") in plain(c.value) for c in at.caption)
