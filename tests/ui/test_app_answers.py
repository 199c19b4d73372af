"""The Evaluate page's answers section through ``AppTest``: metrics and loss stages, cancel,
fallback.

A fake generator (answers a fixed text) stands in for the model, so the page
logic is checked fast; ``tests/test_browser.py`` runs the real model.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import streamlit as st
from helpers.app import html, make_app, ok, plain
from helpers.fakes import CharGenerator
from helpers.openai_server import FakeOpenAI
from helpers.paths import ROOT
from streamlit.testing.v1 import AppTest

import ui.evaluate.answers_widgets as widgets
from rag_core.config import PipelineConfig
from rag_core.evaluation.answers import evaluate_answers
from rag_core.formats.questions import load_questions
from rag_core.index import load_corpus_index
from rag_core.models import ModelUnavailable

MANUAL = load_questions(ROOT / "sample_corpus" / "questions" / "manual.jsonl")


class ConstGenerator(CharGenerator):
    """Char-level fake generator; answers ``answer`` and can press Cancel after ``cancel_after``
    calls."""

    file_sha256 = "e" * 64

    def __init__(self, answer: str, cancel_after: int | None = None) -> None:
        self.answer, self.cancel_after, self.calls = answer, cancel_after, 0

    def generate_ids(self, ids, max_new_tokens):
        self.calls += 1
        if self.cancel_after is not None and self.calls >= self.cancel_after:
            st.session_state["eval.ans.cancel"] = True  # what the Cancel button's callback does
        return self.answer, [ord(c) for c in self.answer] + [0], 0.1


ANSWER = "Check the fluff filter [1]."


def install(monkeypatch, tmp_path, gen) -> None:
    import rag_core.models as models

    def no_embedder(name, *a, **k):
        raise ModelUnavailable(name, "not in this test")

    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(models, "get_generator", lambda name, *a, **k: gen)
    monkeypatch.setattr(models, "get_embedder", no_embedder)


@pytest.fixture(autouse=True)
def env(monkeypatch, tmp_path):
    monkeypatch.setenv("RAG_INSPECTOR_DATA", str(tmp_path / "data"))


def answers_on(entry: Path, n: int, lang: str = "en") -> AppTest:
    at = make_app(entry, {"lang": lang}, page="evaluate")
    ok(at)
    at.selectbox(key="eval.qset").set_value("manual").run()
    at.toggle(key="eval.answers").set_value(True).run()
    ok(at)
    at.number_input(key="eval.ans.n").set_value(n).run()
    return at


def test_answer_metrics_and_loss_stages_match_rag_core(entry, monkeypatch, tmp_path):
    monkeypatch.setenv("RAG_APP_SET", "generation.model=fake")
    gen = ConstGenerator(ANSWER)
    install(monkeypatch, tmp_path, gen)
    at = answers_on(entry, 3)
    at.button(key="eval.ans.run").click().run()
    ok(at)
    page = html(at)
    want = evaluate_answers(
        PipelineConfig().with_overrides({"generation.model": "fake"}),
        MANUAL[:3],
        load_corpus_index(),
    )
    s = want.summary
    ac = s["rates"]["answered_correctly"]
    assert "answered correctly" in page
    assert f"{ac['rate']:.3f}" in page and f"[{ac['low']:.3f}, {ac['high']:.3f}]" in page
    assert f"{ac['k']}/{ac['n']}" in page
    assert [c.key for c in at.get("plotly_chart")][:1] == ["eval.ans.funnel.A"]
    caption = next(plain(c.value) for c in at.caption if "failed answerable questions" in c.value)
    assert caption.startswith(
        f"{s['n_failed']} failed answerable questions = {s['n_failed']} losses"
    )
    assert want.result_hash in " ".join(plain(c.value) for c in at.caption)
    table = at.dataframe[0].value
    assert list(table["query"]) == [r.query_id for r in want.rows]
    assert all(a == ANSWER for a in table["answer"])


def test_cancel_mid_run_keeps_the_rows_done_labelled_partial(entry, monkeypatch, tmp_path):
    monkeypatch.setenv("RAG_APP_SET", "generation.model=fake")
    install(monkeypatch, tmp_path, ConstGenerator(ANSWER, cancel_after=2))
    at = answers_on(entry, 5)
    at.button(key="eval.ans.run").click().run()
    ok(at)
    warn = [plain(w.value) for w in at.warning if "cancelled" in w.value]
    assert warn and re.search(r"partial results \(\d of 5 questions\)", warn[0])
    done = int(re.search(r"\((\d) of 5", warn[0]).group(1))
    assert 1 <= done < 5
    assert len(at.dataframe[0].value) == done


def test_unavailable_generator_falls_back_to_retrieval_metrics(entry, monkeypatch):
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none")
    at = answers_on(entry, 3)
    at.button(key="eval.ans.run").click().run()
    ok(at)
    warn = " ".join(plain(w.value) for w in at.warning)
    assert (
        "the generator is unavailable (generation.model = none); showing retrieval metrics only"
        in warn
    )
    assert "retrieval metrics (no answers)" in " ".join(m.value for m in at.markdown)


def test_the_fallback_reason_is_worded_in_korean(entry, monkeypatch):
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none")
    at = answers_on(entry, 3, lang="ko")
    at.button(key="eval.ans.run").click().run()
    ok(at)
    warn = " ".join(plain(w.value) for w in at.warning)
    assert "생성기를 쓸 수 없어 (생성이 꺼져 있음 (generation.model = none))" in warn, warn


@pytest.mark.parametrize(
    ("lang", "wording"),
    [("ko", "인용이 자유 모드로 바뀌었습니다"), ("en", "so citations are free")],
)
def test_inspect_words_the_citation_fallback_in_the_page_language(
    entry, monkeypatch, tmp_path, lang, wording
):
    """Enforced citations with a generator that cannot constrain decoding: one warning, in the
    page language (read from the Trace's data, not from the core's English message)."""
    monkeypatch.setenv("RAG_APP_SET", "generation.model=fake")
    install(monkeypatch, tmp_path, ConstGenerator(ANSWER))
    at = make_app(entry, {"lang": lang})
    ok(at)
    warnings = [plain(w.value) for w in at.warning]
    assert sum(wording in w for w in warnings) == 1, warnings


# ------------------------------------------------- requests in flight (endpoint generators)


def spy_concurrency(monkeypatch) -> list[int]:
    seen: list[int] = []
    real = widgets.evaluate_answers

    def recording(*args, concurrency=1, **kwargs):
        seen.append(concurrency)
        return real(*args, concurrency=concurrency, **kwargs)

    monkeypatch.setattr(widgets, "evaluate_answers", recording)
    return seen


def run_in_flight(entry, n: int, conc: int):
    at = make_app(entry, {"lang": "en"}, page="evaluate")
    ok(at)
    at.selectbox(key="eval.qset").set_value("manual").run()
    at.toggle(key="eval.answers").set_value(True).run()
    ok(at)
    box = at.number_input(key="eval.ans.concurrency")
    assert box.value == 1 and "endpoint" in box.help
    at.number_input(key="eval.ans.n").set_value(n).run()
    at.number_input(key="eval.ans.concurrency").set_value(conc).run()
    at.button(key="eval.ans.run").click().run()
    ok(at)
    return at


def test_an_in_process_model_answers_one_at_a_time_whatever_the_setting(
    entry, monkeypatch, tmp_path
):
    monkeypatch.setenv("RAG_APP_SET", "generation.model=fake")
    install(monkeypatch, tmp_path, ConstGenerator(ANSWER))
    seen = spy_concurrency(monkeypatch)
    run_in_flight(entry, 2, 4)
    assert seen == [1]


def test_an_endpoint_gets_the_requests_in_flight_it_was_given(entry, monkeypatch, tmp_path):
    install(monkeypatch, tmp_path, ConstGenerator(ANSWER))
    seen = spy_concurrency(monkeypatch)
    with FakeOpenAI(tokenize="vllm") as srv:
        monkeypatch.setenv(
            "RAG_APP_SET",
            f"generation.model=openai:tiny;generation.endpoint={srv.url};generation.citations=free",
        )
        at = run_in_flight(entry, 3, 3)
        asked = [r for r in srv.requests if r["path"] == "/v1/completions"]
    assert seen == [3]
    assert len(asked) == 3 and srv.max_inflight >= 1
    assert not at.exception


def test_in_flight_is_one_for_in_process_and_bounded_for_endpoints():
    from rag_core.config import PipelineConfig

    local = PipelineConfig()
    remote = local.with_overrides(
        {"generation.model": "openai:m", "generation.endpoint": "http://127.0.0.1:9/v1"}
    )
    assert widgets.in_flight(local, 8) == 1
    assert widgets.in_flight(remote, 8) == 8
    assert widgets.in_flight(remote, 99) == 1 and widgets.in_flight(remote, None) == 1
