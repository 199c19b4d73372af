"""The Threshold page through ``AppTest``: render, sliders drive the live counts, apply to the
sidebar.

Counts on the page are checked against ``rag_core.evaluation.sweep`` run directly on
the same config and question set (what the ``sweep`` CLI prints).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.app import make_app, ok, plain
from helpers.paths import ROOT
from streamlit.testing.v1 import AppTest

from rag_core.config import PipelineConfig
from rag_core.evaluation import sweep, sweep_collect
from rag_core.formats.questions import load_questions
from rag_core.index import load_corpus_index

SETS = {
    name: load_questions(ROOT / "sample_corpus" / "questions" / f"{name}.jsonl")
    for name in ("en", "ko")
}


@pytest.fixture(scope="module")
def data_en():
    return sweep_collect.collect(PipelineConfig(), SETS["en"], load_corpus_index())


@pytest.fixture(autouse=True)
def env(monkeypatch, tmp_path):
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none")
    monkeypatch.setenv("RAG_INSPECTOR_DATA", str(tmp_path / "data"))


def make(entry: Path, query: dict[str, str] | None = None) -> AppTest:
    return make_app(entry, {"lang": "en", **(query or {})}, page="threshold")


def counts_on_page(at: AppTest) -> tuple[int, ...]:
    return tuple(int(m.value) for m in at.metric)


def expected(data, threshold, max_kept) -> tuple[int, ...]:
    c = sweep.counts_at(data, threshold, max_kept)
    return tuple(getattr(c, o) for o in sweep.OUTCOMES)


# ------------------------------------------------------------------------ render


@pytest.mark.parametrize(("lang", "title"), [("ko", "임계값"), ("en", "Threshold")])
def test_threshold_page_renders_with_the_default_config(entry, lang, title):
    at = make(entry, {"lang": lang})
    ok(at)
    assert [x.value for x in at.title] == [title]
    assert len(at.metric) == len(sweep.OUTCOMES)
    assert len(at.get("plotly_chart")) == 3  # the histograms, the sweep plot and risk–coverage


def test_a_threshold_slider_change_changes_the_counts(entry, data_en):
    at = make(entry)
    ok(at)
    assert at.session_state["thr.qset"] == "en"
    slider = at.slider(key="thr.t.score")  # no dense retrieval in the default config: sparse scores
    m = at.slider(key="thr.m").value
    assert counts_on_page(at) == expected(data_en, slider.value, m)
    before = counts_on_page(at)
    # a threshold near the top of the range refuses most queries
    high = slider.min + round((slider.max - slider.min) * 0.8 / slider.step) * slider.step
    at.slider(key="thr.t.score").set_value(high).run()
    ok(at)
    value = at.slider(key="thr.t.score").value
    assert counts_on_page(at) == expected(data_en, value, m)
    assert counts_on_page(at) != before


def test_risk_coverage_reports_the_current_operating_point(entry, data_en):
    at = make(entry)
    ok(at)
    value, m = at.slider(key="thr.t.score").value, at.slider(key="thr.m").value
    point = sweep.operating_point(data_en, value, m)
    cov, risk = point["coverage"], point["risk"]
    text = next(plain(x.value) for x in at.markdown if "Current setting" in plain(x.value))
    assert (
        f"{cov['k']}/{cov['n']} = {cov['rate']:.1%} [{cov['low']:.1%}, {cov['high']:.1%}]" in text
    )
    assert f"{risk['k']}/{risk['n']} = {risk['rate']:.1%}" in text
    assert (point["threshold"], point["max_kept"]) == (value, m)


def test_max_kept_and_no_threshold_drive_the_counts(entry, data_en):
    at = make(entry)
    t = at.slider(key="thr.t.score").value
    at.slider(key="thr.m").set_value(1).run()
    ok(at)
    assert counts_on_page(at) == expected(data_en, t, 1)
    at.toggle(key="thr.off").set_value(True).run()
    ok(at)
    got = counts_on_page(at)
    assert got == expected(data_en, None, 1)
    assert (
        got[sweep.OUTCOMES.index("bluffed")] == data_en.n_unanswerable
    )  # no threshold: every OOD query bluffs


def test_the_sweep_table_has_a_row_per_default_threshold(entry, data_en):
    at = make(entry)
    table = next(
        h.value for h in at.html if "answered, gold kept" in h.value and "<tbody>" in h.value
    )
    rows = table.split("<tbody>", 1)[1].count("<tr")
    assert rows == 1 + len(
        sweep.default_thresholds(data_en)
    )  # the no-threshold row, then the sweep
    at.text_input(key="thr.range").set_value("1:3:0.5").run()
    ok(at)
    table = next(
        h.value for h in at.html if "answered, gold kept" in h.value and "<tbody>" in h.value
    )
    assert table.split("<tbody>", 1)[1].count("<tr") == 1 + 5


def test_a_bad_range_is_a_message_and_the_default_sweep_stays(entry):
    at = make(entry)
    at.text_input(key="thr.range").set_value("0.8:0.4").run()
    assert not at.exception
    assert at.error and "0.8:0.4" in plain(at.error[0].value)
    assert len(at.get("plotly_chart")) == 3


def test_apply_puts_the_setting_into_the_sidebar_gate(entry):
    at = make(entry)
    at.slider(key="thr.m").set_value(2).run()
    t = at.slider(key="thr.t.score").value
    at.button(key="thr.apply").click().run()
    ok(at)
    gate = at.session_state["_cfg"].gate
    assert (gate.min_score, gate.max_distance, gate.max_kept) == (t, None, 2)
    assert at.query_params["gate.min_score"] == repr(t)
    assert any("sidebar's gate" in s.value for s in at.success)


def test_distance_without_dense_is_a_message_with_a_way_out(entry, monkeypatch):
    monkeypatch.setenv(
        "RAG_INSPECTOR_MODELS", "/no"
    )  # a path from the URL must lie in the allow-listed folder
    at = make(entry, {"retrieval.dense_model": "/no/such/model"})
    at.radio(key="thr.metric").set_value("distance").run()
    assert not at.exception
    assert any("metric = 'distance' needs dense retrieval" in plain(e.value) for e in at.error)
    at.button(key="thr.add_dense").click().run()
    assert not at.exception
    assert "dense" in at.session_state["retrieval.methods"]
    # the model is missing here: the page says so instead of failing
    at.radio(key="thr.metric").set_value("auto").run()
    assert not at.exception
    assert any("dense retrieval gave no cosine distances" in plain(c.value) for c in at.caption)
    assert len(at.metric) == len(sweep.OUTCOMES)


def test_another_set_gives_its_own_counts(entry):
    at = make(entry, {"lang": "en"})
    at.selectbox(key="thr.qset").set_value("ko").run()
    ok(at)
    data = sweep_collect.collect(PipelineConfig(), SETS["ko"], load_corpus_index())
    assert counts_on_page(at) == expected(
        data, at.slider(key="thr.t.score").value, at.slider(key="thr.m").value
    )


@pytest.mark.slow
def test_dense_distances_on_the_sample_set(entry):
    """Real embeddings: the histogram is over cosine distances and the counts match a direct
    sweep."""
    cfg = {"retrieval.methods": "bm25,dense"}
    at = make(entry, cfg)
    ok(at)
    assert at.session_state["thr.qset"] == "en"
    slider = at.slider(key="thr.t.distance")
    assert slider.step == 0.005
    data = sweep_collect.collect(
        PipelineConfig().with_overrides(cfg), SETS["en"], load_corpus_index()
    )
    assert data.metric == "distance"
    assert counts_on_page(at) == expected(data, slider.value, at.slider(key="thr.m").value)
