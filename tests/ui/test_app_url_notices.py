"""URL view state that cannot be honoured — ``lang``, ``corpus``, Lecture's ``step`` and an
unknown page — gets the notice the other parameters get (issue 27, item 6)."""

from __future__ import annotations

import pytest
from helpers.app import STAGE_HEADINGS_EN, make_app, plain
from helpers.paths import entry_point
from streamlit.testing.v1 import AppTest

from rag_core import modelnames
from ui.lecture.view import STEPS, step_honoured


@pytest.fixture(autouse=True)
def no_generation(monkeypatch):
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none")
    monkeypatch.delenv(modelnames.MODELS_ENV, raising=False)


def _asked(at: AppTest, prefix: str) -> list[str]:
    return [plain(w.value) for w in at.warning if plain(w.value).startswith(prefix)]


def test_unknown_language_is_shown_as_korean_with_a_notice(entry):
    at = make_app(entry, {"lang": "xx"})
    assert not at.exception
    assert at.session_state["_ctx"].lang == "ko"
    notices = _asked(at, "주소의 lang=xx")
    assert notices == ["주소의 lang=xx 은(는) 보여 줄 수 없어 대신 한국어 화면 을(를) 보여 줍니다."]


def test_unknown_corpus_is_shown_as_the_sample_with_a_notice(entry):
    at = make_app(entry, {"corpus": "nope", "lang": "en"})
    assert not at.exception
    assert at.session_state["_ctx"].corpus_key.startswith("sample:")
    assert _asked(at, "The address asked for corpus=") == [
        (
            "The address asked for corpus=nope, which cannot be shown; showing "
            "Bundled sample (Markdown/text) instead."
        )
    ]


def test_valid_language_and_corpus_get_no_notice(entry):
    at = make_app(entry, {"corpus": "sample", "lang": "en"})
    assert not at.exception
    assert not _asked(at, "The address asked for")


@pytest.mark.parametrize("asked", ["99", "abc", "0", "-1"])
def test_lecture_step_out_of_range_gets_one_notice(entry, asked):
    at = make_app(entry, {"step": asked, "lang": "en"}, page="lecture")
    assert not at.exception
    assert _asked(at, "The address asked for step=") == [
        (
            f"The address asked for step={asked}, which cannot be shown; showing "
            f"step {STEPS}/{STEPS} instead."
        )
    ]
    at.run()  # noticed once: the sidebar keeps the line until dismissed, the page adds none
    assert len(_asked(at, "The address asked for step=")) == 1


def test_lecture_step_in_range_gets_no_notice(entry):
    at = make_app(entry, {"step": "2", "lang": "en"}, page="lecture")
    assert not at.exception
    assert not _asked(at, "The address asked for")
    assert any("step 2/4" in m.value for m in at.markdown)


@pytest.mark.parametrize(
    ("value", "ok"), [("", True), ("1", True), (str(STEPS), True), ("5", False), ("x", False)]
)
def test_step_honoured(value, ok):
    assert step_honoured(value) is ok


def test_unknown_page_is_shown_as_inspect_with_a_notice(entry):
    (entry.parent / "nosuchpage.py").write_text("", encoding="utf-8")
    at = AppTest.from_file(str(entry), default_timeout=300)
    at.query_params.update({"lang": "en"})
    at.switch_page("nosuchpage.py")  # before the first run: the page is named by its file
    at.run()
    assert not at.exception
    (notice,) = _asked(at, "The address asked for the page “")  # AppTest names it by hash
    assert notice.endswith("”, which this app does not have; showing the Inspect page instead.")
    assert [h.value for h in at.header] == list(STAGE_HEADINGS_EN)  # Inspect is what runs


def test_known_page_gets_no_page_notice(entry):
    at = make_app(entry, {"lang": "en"}, page="chunks")
    assert not at.exception
    assert not _asked(at, "The address asked for the page")


KNOWN = {"h-inspect": "inspect", "h-chunks": "chunks"}


@pytest.mark.parametrize(
    ("asked_hash", "asked_name", "missing"),
    [
        (None, "nope", "nope"),  # a browser's first load of /nope
        ("", "chunks", None),
        ("", "", None),  # the bare address: the default page
        ("h-chunks", "", None),
        ("main", "", None),  # a page run on its own hands over to app.py
        ("0123456789abcdef", "", "0123456789ab"),
        ("0123456789abcdef", "old-page", "old-page"),
    ],
)
def test_unknown_page_of_a_request(asked_hash, asked_name, missing):
    assert entry_point().unknown_page(asked_hash, asked_name, "main", KNOWN) == missing


@pytest.mark.parametrize(
    ("params", "shown"),
    [
        ({"side": "c", "b": "retrieval.k=3"}, "A · failure"),
        ({"side": "b"}, "configuration A (the address names no configuration B)"),
    ],
    ids=["unknown-side", "b-without-a-b-config"],
)
def test_lecture_side_that_cannot_be_shown_gets_one_notice(entry, params, shown):
    at = make_app(entry, {**params, "lang": "en"}, page="lecture")
    assert not at.exception
    value = params["side"]
    assert _asked(at, "The address asked for side=") == [
        f"The address asked for side={value}, which cannot be shown; showing {shown} instead."
    ]
    at.run()
    assert len(_asked(at, "The address asked for side=")) == 1


@pytest.mark.parametrize("params", [{"side": "b", "b": "retrieval.k=3"}, {"side": "a"}])
def test_lecture_side_shown_as_asked_gets_no_notice(entry, params):
    at = make_app(entry, {**params, "lang": "en"}, page="lecture")
    assert not at.exception
    assert not _asked(at, "The address asked for")
