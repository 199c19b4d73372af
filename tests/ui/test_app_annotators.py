"""Two annotators through the pages (issue 41, ``AppTest``): blind labeling on Label, the review
that opens once an annotator has judged the question, the agreement view's figures (the
library's), an adjudication by button, and Evaluate's table per gold state."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.annotators import A, B, labeled_store
from helpers.app import html, make_app, ok, plain
from helpers.paths import ROOT
from streamlit.testing.v1 import AppTest

from rag_core.evaluation.agreement import agreement
from rag_core.formats.questions import load_questions
from rag_core.gold.store import LabelStore

EN = load_questions(ROOT / "sample_corpus" / "questions" / "en.jsonl")
pytestmark = pytest.mark.usefixtures("label_store")


def make(entry: Path, page: str = "label", **query: str) -> AppTest:
    return make_app(entry, {"lang": "en", "qset": "en", "qid": EN[0].id, **query}, page=page)


def named(at: AppTest, who: str) -> AppTest:
    return at.text_input(key="label.annotator").set_value(who).run()


def test_b_sees_no_grade_of_a_until_b_has_saved_then_reviews_side_by_side(entry, label_store):
    a = named(make(entry), "alice")
    a.radio(key="label.grade").set_value(3).run()
    a.text_input(key="label.note").set_value("alice-secret-note").run()
    a.button(key="label.save").click().run()
    ok(a)
    assert LabelStore(label_store).mine("alice")[0].grade == 3
    b = named(make(entry), "bob")
    ok(b)
    page = html(b) + " ".join(plain(m.value) for m in [*b.markdown, *b.caption])
    assert "alice" not in page and "alice-secret-note" not in page
    assert b.toggle(key="label.review").disabled  # blind until bob has judged
    assert b.button(key="label.save").label == "Save label"  # the span is not judged for bob
    b.radio(key="label.grade").set_value(1).run()
    b.button(key="label.save").click().run()
    ok(b)
    assert not b.toggle(key="label.review").disabled
    b.toggle(key="label.review").set_value(True).run()
    ok(b)
    review = html(b)
    assert "alice" in review and "bob" in review and "disagree" in review
    assert LabelStore(label_store).mine("alice")[0].grade == 3  # bob's save overwrote nothing


@pytest.fixture
def two(label_store, sample_corpus):
    store = LabelStore(label_store)
    judged = labeled_store(store, EN, sample_corpus.docs, "en")
    return store, judged


def test_the_agreement_view_shows_the_librarys_figures(entry, two):
    store, _ = two
    at = make(entry)
    at.segmented_control(key="label.view").set_value("agreement").run()
    ok(at)
    want = agreement(store.snapshot("en").own).pairs[0]
    shown = html(at)
    assert f"{A} × {B}" in shown
    for fig in (want.kappa, want.alpha, want.span_f1):
        assert f"{fig.value:.2f} [{fig.low:.2f}, {fig.high:.2f}]" in shown
    assert "Units that disagree" in shown


def test_one_adjudication_by_button_and_its_undo(entry, two):
    store, judged = two
    # the queue is in question, document and span order
    first = min(
        (j for j in judged if j.disagree), key=lambda j: (j.question_id, j.doc_id, j.a_span)
    )
    at = named(make(entry), "judge")
    at.segmented_control(key="label.view").set_value("adjudicate").run()
    ok(at)
    n = sum(j.disagree for j in judged)
    assert any(f"0 of {n} disagreements adjudicated" in plain(p.text) for p in at.get("progress"))
    at.button(key="label.adj.button.b").click().run()
    ok(at)
    (x,) = store.snapshot("en").adjudications
    want = (first.question_id, *first.b_span, first.b_grade)
    assert (x.question_id, x.start, x.end, x.grade) == want
    assert any(f"1 of {n} disagreements adjudicated" in plain(p.text) for p in at.get("progress"))
    at.button(key="label.adj.button.u").click().run()
    ok(at)
    assert store.snapshot("en").adjudications == ()


def test_evaluate_compares_the_configurations_per_gold_state(entry, two):
    store, _ = two
    at = make(entry, page="evaluate")
    at.button(key="eval.run").click().run(timeout=300)
    ok(at)
    at.multiselect(key="eval.st.presets").set_value(["A", "E"]).run()
    at.button(key="eval.st.run").click().run(timeout=300)
    ok(at)
    cmp = at.session_state["eval.st.result"]["cmp"]
    assert cmp.states == (f"annotator:{A}", f"annotator:{B}")
    assert cmp.configs == ("A", "preset A", "preset E")
    shown = html(at)
    for s in cmp.states:
        for c in cmp.configs:
            assert f"{cmp.means[s][c]:.3f} (#{cmp.rankings[s].index(c) + 1})" in shown
    (tau,) = cmp.tau.values()
    assert tau is not None and f"{tau:+.2f}" in shown
