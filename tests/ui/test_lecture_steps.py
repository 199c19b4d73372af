"""The Lecture page step by step through ``AppTest``: the verdict line says only what the shown
steps have revealed, no answer or support verdict is visible before its step, and the A/B
toggle switches to the scenario's working baseline.

A char-level fake generator answers a fixed text (no model is loaded); the support check runs
without an embedder.
"""

from __future__ import annotations

import re

import pytest
from helpers.app import html, make_app, ok
from helpers.fakes import CharGenerator
from helpers.paths import ROOT

from rag_core.models import ModelUnavailable
from ui.i18n import TEXT, t

ANSWER = "Error E17 means the door latch did not close [1]. QUOKKA-ANSWER."


class Answers(CharGenerator):
    file_sha256 = "d" * 64

    def generate_ids(self, ids, max_new_tokens):
        return ANSWER, [ord(c) for c in ANSWER] + [0], 0.1


@pytest.fixture()
def fake_model(monkeypatch, tmp_path):
    import rag_core.models as models

    def no_embedder(name, *a, **k):
        raise ModelUnavailable(name, "not in this test")

    monkeypatch.setenv("RAG_INSPECTOR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("RAG_INSPECTOR_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("RAG_APP_SET", "generation.model=fake")
    monkeypatch.setattr(models, "get_generator", lambda name, *a, **k: Answers())
    monkeypatch.setattr(models, "get_embedder", no_embedder)


def _verdict(body: str) -> tuple[str, str]:
    m = re.search(r'class="ri-lec-verdict (\w+)" data-verdict="(\w+)" data-stage="(\w*)"', body)
    assert m, "no verdict line"
    return m.group(2), m.group(3)


def _open(entry, scenario: str):
    at = make_app(entry, {"lang": "en"}, page="scenarios")
    ok(at)
    at.button(key=f"scn.{scenario}.lecture").click().run()
    ok(at)
    at.switch_page(str(ROOT / "pages" / "lecture.py"))  # where the button went: stay there
    return at.run()


def test_nothing_is_told_before_its_step(entry, fake_model):
    at = _open(entry, "rerank-wrong-paragraph")
    claim_pickers = lambda: [s for s in at.selectbox if s.key.startswith("lec.claim.w")]  # noqa: E731
    seen = []
    for step in range(1, 5):
        body = html(at)
        assert f'data-step="{step}"' in body
        seen.append(_verdict(body))
        answer_shown = "QUOKKA-ANSWER" in body
        judged = "ri-claim ri-v-" in body.split('class="ri-lec-grid"')[1]
        assert answer_shown == (step >= 3), step
        assert judged == (step == 4), step  # claims coloured by verdict only at their step
        assert ("ri-mark ri-mark-" in body) == (step == 4), step  # the answer's own mark too
        assert bool(claim_pickers()) == (step == 4), step  # its labels carry the verdicts
        if step < 4:
            at.button(key="lec.next").click().run()
            ok(at)
    # the gold is lost among the candidates: told from step 1 on, the same at every step
    assert seen == [("lost", "rerank")] * 4
    assert "data-shown" in body and 'data-pane="claims" data-shown="1"' in body


def test_a_budget_loss_is_told_at_the_prompt_step(entry, fake_model):
    at = _open(entry, "budget-cut")
    first = _verdict(html(at))
    assert first[0] == "kept"  # step 1: the gate kept the gold; the budget is not shown yet
    assert t("lec.v.kept", "en", rank=4).split("(")[0] in html(at)
    at.button(key="lec.next").click().run()
    ok(at)
    assert _verdict(html(at)) == ("lost", "context")


def test_the_toggle_switches_to_the_working_baseline_and_back(entry, fake_model):
    at = _open(entry, "rerank-wrong-paragraph")
    toggle = at.get("button_group")
    assert toggle, "no A/B toggle"
    assert "side" not in at.query_params
    at.button(key="lec.all").click().run()
    ok(at)
    assert _verdict(html(at)) == ("lost", "rerank")
    seg = next(w for w in at.get("button_group") if w.key == "lec.side.w")
    seg.set_value("b").run()
    ok(at)
    assert at.query_params["side"] == "b"
    assert _verdict(html(at)) == ("sent", "context")
    seg = next(w for w in at.get("button_group") if w.key == "lec.side.w")
    seg.set_value("a").run()
    assert "side" not in at.query_params and _verdict(html(at)) == ("lost", "rerank")


class Counts(CharGenerator):
    """Answers with its prompt's length: each side's prompt gives its own claim."""

    file_sha256 = "c" * 64

    def generate_ids(self, ids, max_new_tokens):
        answer = f"The prompt holds {len(ids)} characters [1]."
        return answer, [ord(c) for c in answer] + [0], 0.1


def test_the_claim_picker_follows_the_side_shown(entry, fake_model, monkeypatch):
    import rag_core.models as models

    monkeypatch.setattr(models, "get_generator", lambda name, *a, **k: Counts())
    monkeypatch.setenv("RAG_APP_SET", "generation.model=counts")  # Traces of its own
    at = _open(entry, "rerank-wrong-paragraph")
    at.button(key="lec.all").click().run()
    ok(at)

    def picker():
        (box,) = [s for s in at.selectbox if s.key.startswith("lec.claim.w")]
        return box.key, list(box.options), box.index

    key_a, labels_a, value_a = picker()
    assert value_a == 0 and "characters" in labels_a[0]
    seg = next(w for w in at.get("button_group") if w.key == "lec.side.w")
    seg.set_value("b").run()
    ok(at)
    key_b, labels_b, value_b = picker()
    assert key_b != key_a and labels_b != labels_a and value_b == 0
    body = html(at)
    number_b = re.search(r"holds (\d+) characters", labels_b[0]).group(1)
    assert f"holds {number_b} characters" in body.split('class="ri-lec-grid"')[1]


@pytest.mark.slow  # the scenario loads MiniLM
def test_an_out_of_domain_question_carries_its_marker_from_the_first_step(
    entry, monkeypatch, tmp_path
):
    import rag_core.models as models

    monkeypatch.setenv("RAG_INSPECTOR_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("RAG_APP_SET", "generation.model=fake")
    monkeypatch.setattr(models, "get_generator", lambda name, *a, **k: Answers())
    at = _open(entry, "no-threshold")  # dense retrieval: the real embedder
    body = html(at)
    assert t("lec.should_refuse", "en") in body
    assert _verdict(body) == ("should_refuse", "gate")


# ------------------------------------------------------------ the view model, without a page


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_verdict_has_words_and_a_look(lang):
    from rag_core.evaluation.verdict import CANDIDATE_STAGES, Verdict
    from rag_core.types import Notice
    from ui.lecture.view import verdict_kind, verdict_text

    why = Notice("gold.source_dropped", {"reason": "budget"})
    cases = [Verdict("lost", stage, True, (why,)) for stage in (*CANDIDATE_STAGES, "context")]
    cases += [
        Verdict("question_cut", "context", True),
        Verdict("kept", "gate", True, rank=4),
        Verdict("sent", "context", True, source=2),
        Verdict("should_refuse", "gate", False, kept=3),
        Verdict("should_refuse", "answer", False, kept=3),
        Verdict("refused", "gate", False),
        Verdict("refused", "answer", False, kept=2),
        Verdict("no_gold", "", None),
    ]
    looks = {}
    for v in cases:
        text = verdict_text(v, lang)
        assert text and "{" not in text
        looks[v.kind] = verdict_kind(v)
    assert t("notice.gold.source_dropped", lang, reason="budget") in verdict_text(cases[0], lang)
    assert looks == {
        "lost": "lost",
        "question_cut": "lost",
        "should_refuse": "lost",
        "kept": "open",
        "sent": "ok",
        "refused": "ok",
        "no_gold": "none",
    }


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_answer_mark_has_words_and_green_is_kept_for_a_right_answer(lang):
    from rag_core.evaluation.answer_marks import ANSWER_MARKS
    from ui.html import CSS

    for mark in ANSWER_MARKS:
        assert f"mark.{mark}" in TEXT
        assert f".ri-mark-{mark}" in CSS
    green = "#dafbe1"
    rules = {r.split("{")[0]: r for r in CSS.replace("\n", "").split("}") if "{" in r}
    assert green in rules[".ri-mark-correct,.ri-mark-correct_refusal"]
    assert green not in rules[".ri-v-supported"]  # a faithful claim is not painted 'correct'
