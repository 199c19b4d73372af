"""The Evaluate page through ``AppTest``: render, the numbers of ``evaluate_config``, B with its
sign-test reading.

Generation off, a temporary label store. The figures the page shows are
checked against ``rag_core.evaluation.run`` run directly (what the ``eval`` CLI prints).
"""

from __future__ import annotations

import html as _html
import re
from pathlib import Path

import pytest
from helpers.app import html, make_app, ok, plain
from helpers.latin import latin_sentences
from helpers.paths import ROOT
from streamlit.testing.v1 import AppTest

from rag_core.config import PipelineConfig, preset
from rag_core.evaluation.run import compare_configs, evaluate_config
from rag_core.formats.questions import load_questions
from rag_core.index import load_corpus_index
from ui.evaluate.view import paired_reading
from ui.state import config_from_url

MANUAL = load_questions(ROOT / "sample_corpus" / "questions" / "manual.jsonl")


@pytest.fixture(scope="module")
def corpus():
    return load_corpus_index()


@pytest.fixture(autouse=True)
def env(monkeypatch, tmp_path):
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none")
    monkeypatch.setenv("RAG_INSPECTOR_DATA", str(tmp_path / "data"))


def make(entry: Path, query: dict[str, str] | None = None) -> AppTest:
    return make_app(entry, {"lang": "en", **(query or {})}, page="evaluate")


def cell(m) -> str:
    return f'{m.mean:.3f}</span><span class="ri-ci ri-num"> [{m.low:.3f}, {m.high:.3f}]'


def on_manual(at: AppTest, ks=(1, 4, 8)) -> AppTest:
    at.selectbox(key="eval.qset").set_value("manual").run()
    return at.multiselect(key="eval.ks").set_value(list(ks)).run()


# ------------------------------------------------------------------------ render


@pytest.mark.parametrize(("lang", "title"), [("ko", "평가"), ("en", "Evaluate")])
def test_evaluate_page_renders_with_the_default_config(entry, lang, title):
    at = make(entry, {"lang": lang})
    ok(at)
    assert [x.value for x in at.title] == [title]
    assert at.button(key="eval.run").label == (
        "평가 실행" if lang == "ko" else "Run the evaluation"
    )
    assert at.info  # "press Run": nothing is computed before it is asked for


def test_a_run_shows_the_metrics_of_evaluate_config_with_intervals(entry, corpus):
    at = on_manual(make(entry))
    at.button(key="eval.run").click().run()
    ok(at)
    want = evaluate_config(PipelineConfig(), MANUAL, corpus, ks=(1, 4, 8))
    page = html(at)
    for key in want.result.metrics:
        assert cell(want.result.means[key]) in page, key
    methods = {m.method for m in want.result.means.values() if m is not None}
    assert "bootstrap" in methods  # nDCG, RR, AP are graded
    assert any(
        "percentile bootstrap of the mean (2,000 resamples" in plain(c.value) for c in at.caption
    )
    assert any(
        f"{want.n_questions} questions, {want.n_queries} queries" in plain(c.value)
        for c in at.caption
    )
    assert [h.value for h in at.header][:3] == [
        "Summary",
        "Metrics (95% interval)",
        "Metric at k (95% interval band)",
    ]
    assert len(at.get("plotly_chart")) == 1
    labels = [b.label for b in at.get("download_button")]
    assert labels[:2] == ["Per-query CSV", "JSON (as the eval CLI)"] and "TREC run (A)" in labels


def test_with_b_the_sign_test_reading_is_shown(entry, corpus):
    at = on_manual(make(entry))
    at.radio(key="eval.b.mode").set_value("preset").run()
    at.selectbox(key="eval.b.preset").set_value("A").run()
    at.button(key="eval.run").click().run()
    ok(at)
    a = evaluate_config(PipelineConfig(), MANUAL, corpus, ks=(1, 4, 8))
    b = evaluate_config(preset("A"), MANUAL, corpus, ks=(1, 4, 8))
    cmp = compare_configs(a, b)
    page = html(at)
    for key, c in cmp.items():
        reading = paired_reading(c, "en")  # every metric: wins/losses/ties, p and the reading
        assert _html.escape(reading) in page, key
        assert cell(b.result.means[key]) in page, key
    headline = cmp["recall@8"]
    assert f"Recall@8: </strong>{_html.escape(paired_reading(headline, 'en'))}" in page
    assert "TREC run (B)" in [b_.label for b_ in at.get("download_button")]
    at.segmented_control(key="lang").set_value("ko").run()
    ok(at)
    assert _html.escape(paired_reading(headline, "ko")) in html(at)


def test_bad_json_for_b_is_a_message_and_a_still_runs(entry):
    at = on_manual(make(entry))
    at.radio(key="eval.b.mode").set_value("json").run()
    at.text_area(key="eval.b.json").set_value('{"retrieval": {"k": "many"').run()
    assert not at.exception
    assert any("config is not valid JSON" in plain(w.value) for w in at.warning)
    at.text_area(key="eval.b.json").set_value('{"retrieval": {"klingon": 1}}').run()
    assert any("unknown key(s) retrieval.klingon" in plain(w.value) for w in at.warning)
    at.button(key="eval.run").click().run()
    ok(at)
    assert "TREC run (B)" not in [b.label for b in at.get("download_button")]


def test_b_from_a_shared_url(entry):
    url = "http://localhost:8501/inspect?retrieval.analyzer=char&lang=en&qid=ko-01"
    at = make(entry)
    at.radio(key="eval.b.mode").set_value("url").run()
    at.text_input(key="eval.b.url").set_value(url).run()
    ok(at)
    page = html(at)
    assert "retrieval.analyzer" in page and "char" in page
    assert config_from_url(url)[0] == PipelineConfig().with_overrides(
        {"retrieval.analyzer": "char"}
    )
    at.text_input(key="eval.b.url").set_value("retrieval.k=abc").run()
    assert not at.exception
    assert any("retrieval.k = 'abc' must be an integer" in plain(w.value) for w in at.warning)


def test_config_from_url_reads_whole_addresses_and_bare_query_strings():
    base = PipelineConfig()
    assert config_from_url("?retrieval.k=3")[0] == base.with_overrides({"retrieval.k": "3"})
    assert config_from_url("retrieval.k=3&retrieval.k=5")[0].retrieval.k == 5  # the last value wins
    assert config_from_url("http://h/evaluate?chunker.preset=E")[0] == preset("E")
    with pytest.raises(ValueError, match=re.escape("the URL is empty")):
        config_from_url("  ")


def test_no_k_is_a_message_and_settings_changes_mark_the_result_stale(entry):
    at = on_manual(make(entry))
    at.button(key="eval.run").click().run()
    at.multiselect(key="eval.ks").set_value([]).run()
    assert not at.exception
    assert at.button(key="eval.run").disabled
    assert any(w.value == "Choose at least one k." for w in at.warning)
    assert any(
        "belong to earlier settings" in i.value for i in at.info
    )  # the last result stays on the page
    assert "Recall@8" in html(at)


def test_a_question_opens_in_inspect(entry):
    at = on_manual(make(entry))
    at.button(key="eval.run").click().run()
    qid = at.selectbox(key="eval.q.open").options[3].split(" · ")[0]  # options are shown formatted
    at.selectbox(key="eval.q.open").set_value(qid).run()
    at.button(key="eval.q.inspect").click().run()
    ok(at)
    assert [x.value for x in at.title] == ["Inspect"]
    question_id, _, phrasing = qid.partition("#")
    assert (at.session_state["q.set"], at.session_state["q.id"]) == ("manual", question_id)
    assert at.session_state["q.phrasing"] == (int(phrasing) if phrasing else 0)


def test_labels_change_the_result_key(entry, corpus, tmp_path):
    """A label written to the store bumps its version: the cached result is not served again."""
    from rag_core.gold.relevance import locate
    from rag_core.gold.store import LabelStore

    at = on_manual(make(entry))
    at.button(key="eval.run").click().run()
    ok(at)
    q = MANUAL[0]
    n = q.needles[0]
    start, end = locate(corpus.docs[n.doc_id].text, n)
    LabelStore(tmp_path / "data" / "labels.sqlite3").add(
        "manual", q.id, n.doc_id, start, end, 0, text=n.text
    )
    at.run()
    assert any("belong to earlier settings" in i.value for i in at.info)
    at.button(key="eval.run").click().run()
    ok(at)
    assert not any("belong to earlier settings" in i.value for i in at.info)
    assert any("1 manual labels" in plain(c.value) for c in at.caption)


def test_a_second_run_comes_from_the_cache(entry):
    at = on_manual(make(entry))
    at.button(key="eval.run").click().run()
    ok(at)
    assert not any("from the cache" in plain(c.value) for c in at.caption)
    at.button(key="eval.run").click().run()
    ok(at)
    assert any(
        re.search(r"A from the cache \(computed in \d+\.\d\d s\)", plain(c.value))
        for c in at.caption
    )


def test_a_missing_model_is_a_message(entry, monkeypatch):
    monkeypatch.setenv(
        "RAG_INSPECTOR_MODELS", "/no"
    )  # a path from the URL must lie in the allow-listed folder
    at = on_manual(
        make(entry, {"retrieval.methods": "bm25,dense", "retrieval.dense_model": "/no/such/model"})
    )
    at.button(key="eval.run").click().run()
    assert not at.exception
    assert any(
        "A stage could not run as configured: dense:/no/such/model unavailable" in plain(w.value)
        for w in at.warning
    )
    assert "Recall@8" in html(at)  # BM25 still ranks: the rest of the page works
    # in Korean, the stage's reason is worded too (it was the core's English)
    at = on_manual(
        make(
            entry,
            {
                "lang": "ko",
                "retrieval.methods": "bm25,dense",
                "retrieval.dense_model": "/no/such/model",
            },
        )
    )
    at.button(key="eval.run").click().run()
    assert not at.exception
    shown = [plain(w.value) for w in at.warning if "설정대로 돌지 못한 단계" in plain(w.value)]
    assert shown and "dense:/no/such/model (상태 unavailable): " in shown[0], shown
    assert not latin_sentences(re.sub(r"'[^']*'|/\S+", "", shown[0])), shown
