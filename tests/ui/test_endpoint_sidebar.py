"""The sidebar's endpoint fields: the model picker filled from ``GET /v1/models``, an answer
from the user's server on Inspect with both prompt counts, and a down server shown as a
warning while the other stages render. The server is the tests' own (``helpers.openai_server``).
"""

from __future__ import annotations

import socket
import time

import pytest
from helpers.app import make_app, plain
from helpers.openai_server import ANSWER_PIECES, FakeOpenAI


@pytest.fixture()
def no_local_model(monkeypatch):
    """Sessions start with generation off (no bundled model is loaded by these tests)."""
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none;generation.citations=free")


def _plain_errors(at) -> list[str]:
    return [e.value for e in at.exception] + [e.value for e in at.error]


def test_listing_models_fills_the_picker_and_inspect_shows_the_servers_answer(
    entry, no_local_model
):
    with FakeOpenAI(models=("tiny", "big"), tokenize="vllm") as srv:
        at = make_app(entry, {"lang": "en"}, page="inspect")
        at.text_input(key="generation.endpoint").set_value(srv.url).run()
        at.button(key="side.endpoint.list_button").click().run()
        picker = at.selectbox(key="generation.model")
        labels = " | ".join(picker.options)  # AppTest shows the picker's labels
        assert "tiny · your server" in labels and "big · your server" in labels
        picker.set_value("openai:tiny").run()
        # (the support check may flag the fake answer's number: that is data, not a failure)
        assert not at.exception, [e.value for e in at.exception]
        captions = " ".join(c.value for c in at.caption)
        markdown = " ".join(m.value for m in at.markdown)
    text = plain(captions + " " + markdown)
    assert "prompt tokens: ours" in text and "(equal)" in text
    assert "".join(ANSWER_PIECES).split()[0] in text + " ".join(h.value for h in at.html)


def test_a_down_endpoint_is_a_warning_naming_it_and_the_page_still_renders(
    entry, no_local_model, monkeypatch
):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    monkeypatch.setenv("RAG_INSPECTOR_ENDPOINTS", url)  # a shared link may name it
    at = make_app(
        entry,
        {"lang": "en", "generation.model": "openai:tiny", "generation.endpoint": url},
        page="inspect",
    )
    assert not _plain_errors(at)
    assert at.selectbox(key="generation.model").value == "openai:tiny"
    warnings = " ".join(w.value for w in at.warning)
    assert "cannot be reached" in warnings and str(port) in warnings
    at.button(key="side.endpoint.list_button").click().run()
    assert any("could not list models" in w.value for w in at.warning)


def test_a_shared_link_to_an_unlisted_endpoint_is_refused_on_screen(
    entry, no_local_model, monkeypatch
):
    monkeypatch.delenv("RAG_INSPECTOR_ENDPOINTS", raising=False)
    at = make_app(
        entry,
        {"lang": "en", "generation.endpoint": "http://10.1.2.3:8000/v1"},
        page="inspect",
    )
    assert at.text_input(key="generation.endpoint").value == ""
    shown = " ".join(w.value for w in at.warning) + " ".join(i.value for i in at.info)
    assert "RAG_INSPECTOR_ENDPOINTS" in shown.replace("\\", "")


@pytest.mark.parametrize(("choice", "field"), [("gbnf", "grammar"), ("none", None)])
def test_the_grammar_picked_in_the_sidebar_is_the_field_sent(
    entry, monkeypatch, tmp_path, choice, field
):
    """Enforced citations through an endpoint: the sidebar's constrained-decoding choice is
    what the completion request carries (``none`` sends no grammar field at all)."""
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none;generation.citations=enforced")
    # a fresh generation cache: the key holds the server's URL, and a port an earlier run's
    # fake server had (in the user cache) would replay its answer without any request
    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path / "cache"))
    with FakeOpenAI(models=("tiny",), tokenize="vllm") as srv:
        at = make_app(entry, {"lang": "en"}, page="inspect")
        at.text_input(key="generation.endpoint").set_value(srv.url).run()
        picker = at.selectbox(key="generation.endpoint_grammar")
        assert "GBNF grammar (llama.cpp llama-server)" in " | ".join(picker.options)
        picker.set_value(choice).run()
        at.button(key="side.endpoint.list_button").click().run()
        assert at.selectbox(key="generation.model").value == "openai:tiny"
        assert not at.exception, [e.value for e in at.exception]
        # the request comes from the page's worker thread: wait for it a while, and if it
        # never comes, say what the server and the page saw
        deadline = time.monotonic() + 20
        while (
            not (sent := [r["body"] for r in srv.requests if r["path"].endswith("completions")])
            and time.monotonic() < deadline
        ):
            time.sleep(0.05)
        got = [r["path"] for r in srv.requests]
    said = [w.value for w in at.warning] + [e.value for e in at.error]
    assert sent, f"no completion request reached the server; it got {got}, the page said {said}"
    carried = {"grammar", "guided_regex", "structured_outputs"} & set(sent[-1])
    assert carried == ({field} if field else set())


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_server_refusing_the_grammar_is_named_as_the_reason_in_the_page_language(
    entry, monkeypatch, lang
):
    """The free-citations warning says what the endpoint did (refused the grammar), worded
    from the Trace's data, not the in-process reason ("needs a local transformers model")."""
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none;generation.citations=enforced")
    reports = {"/props": {"default_generation_settings": {}}}
    with FakeOpenAI(
        models=("tiny",), tokenize="vllm", reports=reports, fault="grammar_refused"
    ) as srv:
        at = make_app(entry, {"lang": lang}, page="inspect")
        at.text_input(key="generation.endpoint").set_value(srv.url).run()
        at.button(key="side.endpoint.list_button").click().run()
        assert not at.exception, [e.value for e in at.exception]
        warnings = [plain(w.value) for w in at.warning]
    wording = "문법을 거부해" if lang == "ko" else "refused the gbnf grammar"
    assert sum(wording in w and srv.url in w for w in warnings) == 1, warnings
    assert not any("transformers" in w for w in warnings), warnings


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ("default 120 s", "default 60 s", "keep-alive comments do not restart it")),
        ("ko", ("기본 120초", "기본 60초", "keep-alive 주석은 시계를 되돌리지 않습니다")),
    ],
)
def test_the_endpoint_help_states_how_long_a_page_can_wait(entry, no_local_model, lang, words):
    at = make_app(entry, {"lang": lang}, page="inspect")
    said = at.text_input(key="generation.endpoint").help
    assert all(w in said for w in words), said
    assert "120" in at.number_input(key="generation.total_timeout_s").help
    assert at.number_input(key="generation.total_timeout_s").value == 120.0
