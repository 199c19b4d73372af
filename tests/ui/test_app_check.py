"""The "Check an answer" page through AppTest: pasted and uploaded answers, escaping."""

from __future__ import annotations

import json

import pytest
from helpers.app import html, make_app, ok

from ui.check import keys


@pytest.fixture(autouse=True)
def no_generation(monkeypatch):
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none;support.readings=false")


CONTEXT = "The bridge opened on April 18, 2019. It is 1,200 m long. <b>Bold</b> text stays text."


def test_pasted_answer_is_checked_claim_by_claim(entry):
    at = make_app(entry, {"lang": "en"}, page="check")
    ok(at)
    assert [x.value for x in at.title] == ["Check an answer"]
    assert at.info  # nothing entered yet: the page says what it needs
    at.text_input(key=keys.K_QUESTION).set_value("When did the bridge open?")
    at.text_area(key=keys.K_CONTEXTS).set_value(CONTEXT + "\n---\nCats purr.")
    at.text_area(key=keys.K_ANSWER).set_value(
        "Sure! The bridge opened on April 21, 2019 [1]. It is 1,200 m long [1]. <script>x</script>"
    )
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Flagged" in e.value for e in at.error)  # the contradicted date flags it
    body = html(at)
    assert "ri-v-not-a-claim" in body and "ri-v-contradicted" in body and "ri-v-supported" in body
    assert "<script>" not in body and "&lt;script&gt;" in body  # answer text escaped
    assert "<b>Bold</b>" not in body and "&lt;b&gt;Bold&lt;/b&gt;" in body  # context escaped
    at.radio(key=keys.K_CLAIM).set_value(2).run()  # the supported claim: its evidence is marked
    body = html(at)
    assert "ri-ev-best" in body and "ri-ev ri-v-supported" in body


def test_the_page_says_what_judged_the_claims_and_how_good_it_measured(entry):
    from rag_core.answer.support_head import load_head

    q = load_head().quality
    at = make_app(entry, {"lang": "en"}, page="check")
    at.text_area(key=keys.K_CONTEXTS).set_value(CONTEXT)
    at.text_area(key=keys.K_ANSWER).set_value("It is 1,200 m long [1].")
    at.run()
    line = next(c.value for c in at.caption if "RAGTruth dev" in c.value)
    assert "lexical features only" in line  # support.readings is off here
    assert f"F1 {q['F1']:.2f}" in line and f"AUROC {q['AUROC']:.2f}" in line
    assert f"about {q['red_wrong_in_10']:.0f} in 10" in line
    ko = make_app(entry, {"lang": "ko"}, page="check")
    ko.text_area(key=keys.K_CONTEXTS).set_value(CONTEXT)
    ko.text_area(key=keys.K_ANSWER).set_value("It is 1,200 m long [1].")
    ko.run()
    assert any("어휘 특징만" in c.value and f"F1 {q['F1']:.2f}" in c.value for c in ko.caption)


def test_min_p_slider_changes_the_verdicts(entry):
    at = make_app(entry, {"lang": "en"}, page="check")
    at.text_area(key=keys.K_CONTEXTS).set_value(CONTEXT)
    at.text_area(key=keys.K_ANSWER).set_value("It is 1,200 m long [1].")
    at.run()
    assert any("supported" in s.value for s in at.success)
    at.slider(key="support.min_p").set_value(1.0).run()
    ok_after = [e.value for e in at.error]
    assert any("Flagged" in v for v in ok_after)


def test_upload_mode_waits_for_a_file(entry):
    at = make_app(entry, {"lang": "en"}, page="check")
    at.radio[0].set_value("upload").run()
    ok(at)
    assert at.info  # no file yet: the page says what it needs


def test_uploaded_rows_keep_the_good_rows_and_name_the_bad_lines():
    from ui.check import view

    good = {"id": "a", "user_input": "q", "retrieved_contexts": ["Cats purr."], "response": "Hi."}
    data = (json.dumps(good) + "\n[1, 2]\n\n{oops\n").encode()
    rows, errors = view.uploaded_rows(data, "mine.jsonl")
    assert [r.id for r in rows] == ["a"] and rows[0].contexts == ("Cats purr.",)
    assert [(e.file, e.line) for e in errors] == [("mine.jsonl", 2), ("mine.jsonl", 4)]
    assert view.split_contexts("a\n---\nb\n----\n\n") == ("a", "b")
    assert view.pasted_row("q", "", "answer") is None


def test_korean_page_checks_a_pasted_answer_and_words_bad_rows_in_korean(entry):
    at = make_app(entry, {"lang": "ko"}, page="check")
    ok(at)
    assert [x.value for x in at.title] == ["답변 검사"]
    at.text_area(key=keys.K_CONTEXTS).set_value("한라산은 해발 1,947m이다.")
    at.text_area(key=keys.K_ANSWER).set_value(
        "한라산은 해발 1,947m이다 [1]. 도움이 되었기를 바랍니다!"
    )
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("모든 주장이" in s.value for s in at.success)
    assert "ri-v-not-a-claim" in html(at)  # the pleasantry is greyed, never judged
    from ui.check import view
    from ui.i18n import notice_text

    _rows, errors = view.uploaded_rows(b'[1]\n{"contexts": ["x"]}\n', "x.jsonl")
    assert [notice_text(e.notice, "ko") for e in errors] == [
        "x.jsonl:1: 행은 JSON 객체여야 합니다 (list 아님)",
        "x.jsonl:2: 답변 없음: answer, response 중 하나가 문자열이어야 합니다",
    ]


def test_the_judge_toggle_without_a_generator_is_named_not_ignored(entry):
    from rag_core.answer.checkfile import JUDGE_NO_GENERATOR, SUPPORT_JUDGE_UNAVAILABLE
    from rag_core.config import PipelineConfig
    from ui.check import view

    judge, why = view.judge(PipelineConfig().with_overrides({"generation.model": "none"}))
    assert judge is None and why is not None and why.code == SUPPORT_JUDGE_UNAVAILABLE
    assert why.params["reason"].code == JUDGE_NO_GENERATOR
    at = make_app(entry, {"lang": "en", "support.judge": "true"}, page="check")
    at.text_area(key=keys.K_CONTEXTS).set_value(CONTEXT)
    at.text_area(key=keys.K_ANSWER).set_value("It is 1,200 m long [1].")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("judge 'none' is unavailable" in w.value for w in at.warning)
    assert any("supported" in s.value for s in at.success)  # checked without the judge


# ------------------------------------------------------- the input boundary (issue 38)


def test_an_upload_is_decoded_as_a_corpus_file_is():
    """Before: decoded as UTF-8 with errors="replace": a CP949 file was checked as mojibake
    ("Every claim is supported"), and a UTF-8 BOM made the first row unreadable."""
    from ui.check import view

    row = {"id": "ko", "contexts": ["한라산은 해발 1,947m이다."], "answer": "한라산은 1,947m [1]."}
    line = json.dumps(row, ensure_ascii=False) + "\n"
    for data in (line.encode("cp949"), b"\xef\xbb\xbf" + line.encode()):
        rows, errors = view.uploaded_rows(data, "mine.jsonl")
        assert not errors and [r.answer for r in rows] == [row["answer"]]


def test_pasting_a_thousand_contexts_is_one_refusal_not_a_four_minute_check(entry):
    """Before: 1,000 pasted contexts were checked in 233 s (the probe's machine)."""
    at = make_app(entry, {"lang": "en"}, page="check")
    at.text_area(key=keys.K_CONTEXTS).set_value("\n---\n".join(["Cats purr."] * 1000))
    at.text_area(key=keys.K_ANSWER).set_value("Cats purr [1].")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    said = " ".join(w.value for w in at.warning)
    assert "the row holds 1,000 contexts; the limit is 100" in said
    assert not at.success and not at.error and not at.info
    caps = " ".join(c.value for c in at.caption)
    assert "20,000 characters and 200 claims" in caps and "200,000 together" in caps


def test_the_context_separator_is_found_in_linear_time():
    """Before: ``^\\s*---+\\s*$`` ran from every start of a run of blank lines (40,000: 3 s)."""
    import time

    from ui.check import view

    blank = "a" + "\n" * 400_000 + "b"
    t0 = time.perf_counter()
    assert view.split_contexts(blank + "\n  ---\t\nc") == (blank, "c")
    assert time.perf_counter() - t0 < 1.0
