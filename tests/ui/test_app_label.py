"""The Label page through ``AppTest``: render, label/change/undo through the page, import, store
path.

Every test gets its own label store (``RAG_INSPECTOR_DATA`` = a temporary
directory) and generation off. The page runs through a wrapper entry that
executes the real ``app.py`` (see tests/test_app_pages.py for why).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.app import html, make_app, ok, plain
from helpers.paths import ROOT
from streamlit.testing.v1 import AppTest

from rag_core.config import PipelineConfig
from rag_core.evaluation.pooling import DEFAULT_POOL_RETRIEVERS, pool_question
from rag_core.formats.questions import load_questions
from rag_core.gold.labels import label_id_for
from rag_core.gold.relevance import locate
from rag_core.gold.store import LabelStore

EN = load_questions(ROOT / "sample_corpus" / "questions" / "en.jsonl")


#: Every test gets its own label store and generation off (``label_store`` in tests/conftest.py).
pytestmark = pytest.mark.usefixtures("label_store")


def make(entry: Path, query: dict[str, str] | None = None) -> AppTest:
    # the page opens on the en set's first question (the app's own first question is en-emb-01)
    return make_app(
        entry, {"lang": "en", "qset": "en", "qid": EN[0].id, **(query or {})}, page="label"
    )


def named(at: AppTest, annotator: str = "tester") -> AppTest:
    return at.text_input(key="label.annotator").set_value(annotator).run()


# ------------------------------------------------------------------------ render


@pytest.mark.parametrize(("lang", "title"), [("ko", "라벨링"), ("en", "Label")])
def test_label_page_renders_with_the_default_config(entry, label_store, lang, title):
    at = make(entry, {"lang": lang})
    ok(at)
    assert [x.value for x in at.title] == [title]
    assert any(str(label_store) in plain(m.value) for m in at.markdown)  # the store path is shown
    assert at.button(key="label.save").disabled  # no annotator yet: nothing can be saved
    assert "ri-doc" in html(at)  # a document excerpt is open on the first pooled candidate


# -------------------------------------------------------------------- labeling


def test_a_label_added_through_the_page_is_in_the_store(entry, label_store, sample_corpus):
    at = named(make(entry))
    ok(at)
    at.button(key="label.save").click().run()
    ok(at)
    labels = LabelStore(label_store).current()
    assert len(labels) == 1
    lab = labels[0]
    qset, qid = at.session_state["label.qset"], at.session_state["label.qid"]
    assert (qset, qid) == ("en", EN[0].id)
    assert (lab.question_set, lab.question_id, lab.annotator, lab.grade, lab.kind) == (
        qset,
        qid,
        "tester",
        1,
        "add",
    )
    # the span is the first candidate of the pool the page shows, as a chunk
    result = pool_question(
        PipelineConfig(), EN[0], sample_corpus, retrievers=DEFAULT_POOL_RETRIEVERS, depth=10
    )
    chunk = sample_corpus.chunking(PipelineConfig().chunker).by_id[result.entries[0].item]
    assert (lab.doc_id, lab.start, lab.end, lab.text) == (
        chunk.doc_id,
        chunk.start,
        chunk.end,
        chunk.content,
    )
    assert any(
        f"Saved: characters {chunk.start}–{chunk.end}, grade 1." in plain(s.value)
        for s in at.success
    )
    # the question now counts as judged, and the history says who did it
    assert [plain(p.proto.text) for p in at.get("progress")] == [f"en: 1 of {len(EN)} judged"]
    assert "tester" in html(at)


def test_change_and_undo_through_the_page(entry, label_store):
    at = named(make(entry))
    at.button(key="label.save").click().run()
    store = LabelStore(label_store)
    assert at.button(key="label.save").label == "Change label"
    at.radio(key="label.grade").set_value(3).run()
    at.button(key="label.save").click().run()
    ok(at)
    (lab,) = store.current()
    assert (lab.grade, lab.kind) == (3, "change")
    at.button(key="label.undo_this").click().run()
    ok(at)
    (lab,) = store.current()
    assert (lab.grade, lab.kind) == (1, "add")
    at.button(key="label.undo_this").click().run()
    ok(at)
    assert store.current() == ()  # back to not judged, and the whole story is kept
    assert [e.kind for e in store.history()] == ["add", "change", "undo", "undo"]
    assert at.button(key="label.save").label == "Save label"
    assert any("not judged" in plain(c.value) for c in at.caption)


def test_someone_elses_label_cannot_be_undone_by_me(entry, label_store):
    """Blind labeling: bob does not see alice's label on the span (it is not his), so there is
    nothing of his to undo there; "undo my last action" refuses, and alice's label stays."""
    at = named(make(entry), "alice")
    at.button(key="label.save").click().run()
    named(at, "bob")
    assert at.button(key="label.undo_this").disabled
    at.button(key="label.undo_mine").click().run()
    assert not at.exception
    assert any("nothing to undo for annotator 'bob'" in plain(e.value) for e in at.error)
    assert len(LabelStore(label_store).mine("alice")) == 1


def test_a_range_found_by_its_text_labels_the_needle(entry, label_store, sample_corpus):
    q = EN[0]
    needle = q.needles[0]
    at = named(make(entry))
    at.selectbox(key="label.doc").set_value(needle.doc_id).run()
    at.radio(key="label.mode").set_value("range").run()
    at.text_input(key="label.find").set_value(needle.text).run()
    ok(at)
    start, end = locate(sample_corpus.docs[needle.doc_id].text, needle)
    assert (at.number_input(key="label.start").value, at.number_input(key="label.end").value) == (
        start,
        end,
    )
    at.radio(key="label.grade").set_value(2).run()
    at.text_input(key="label.note").set_value("the exact sentence").run()
    at.button(key="label.save").click().run()
    ok(at)
    (lab,) = LabelStore(label_store).current()
    assert (lab.doc_id, lab.start, lab.end, lab.text, lab.grade, lab.note) == (
        needle.doc_id,
        start,
        end,
        needle.text,
        2,
        "the exact sentence",
    )
    # the gold table now marks the needle as overridden by a label
    assert "ri-o-needle-label" in html(at) and "needle+label" in html(at)


def test_a_bad_character_range_is_a_message_not_a_label(entry, label_store):
    at = named(make(entry))
    at.radio(key="label.mode").set_value("range").run()
    at.number_input(key="label.start").set_value(50).run()
    at.number_input(key="label.end").set_value(10).run()
    assert not at.exception
    assert any("Span 50–10 cannot be labeled" in plain(e.value) for e in at.error)
    assert at.button(key="label.save").disabled
    assert LabelStore(label_store).current() == ()


def test_the_page_and_the_sidebar_pick_the_same_question(entry):
    at = make(entry)
    second = EN[1].id
    at.selectbox(key="label.qid").set_value(second).run()
    ok(at)
    assert at.session_state["q.id"] == second
    assert at.query_params["qid"] == second
    at.selectbox(key="q.id").set_value(EN[2].id).run()  # and the other way round
    ok(at)
    assert at.session_state["label.qid"] == EN[2].id


def test_shuffled_pool_hides_ranks(entry):
    at = make(entry)
    assert "best rank" in html(at)
    at.radio(key="label.pool.order").set_value("shuffle").run()
    ok(at)
    assert "best rank" not in html(at)
    assert any("ranks and retrievers are hidden" in c.value for c in at.caption)


# ---------------------------------------------------------------------- import


def _line(sample_corpus, q, needle, grade, **extra):
    doc = sample_corpus.docs[needle.doc_id]
    start, end = locate(doc.text, needle)
    return json.dumps(
        {
            "question_set": "en",
            "question_id": q.id,
            "doc_id": needle.doc_id,
            "start": start,
            "end": end,
            "text": doc.text[start:end],
            "grade": grade,
            **extra,
        },
        ensure_ascii=False,
    )


def test_a_malformed_import_shows_its_reason_and_changes_nothing(entry, label_store, sample_corpus):
    store = LabelStore(label_store)
    q = EN[0]
    n = q.needles[0]
    start, end = locate(sample_corpus.docs[n.doc_id].text, n)
    store.add("en", q.id, n.doc_id, start, end, 2, text=n.text, annotator="keeper")
    before = (store.current(), store.version())
    good = _line(sample_corpus, EN[1], EN[1].needles[0], 1)
    bad = _line(sample_corpus, EN[2], EN[2].needles[0], 7)
    at = make(entry)
    at.file_uploader(key="label.imp.file").set_value(
        [("labels.jsonl", f"{good}\n{bad}\n".encode(), "application/jsonl")]
    ).run()
    at.button(key="label.imp.go").click().run()
    assert not at.exception
    errors = [plain(e.value) for e in at.error]
    assert any(
        "labels.jsonl line 2: grade = 7 is not valid" in e and "The store is unchanged" in e
        for e in errors
    ), errors
    assert (store.current(), store.version()) == before


def test_a_file_that_is_not_utf8_is_refused(entry, label_store):
    at = make(entry)
    at.file_uploader(key="label.imp.file").set_value(
        [("labels.jsonl", b"\xff\xfe\x00bad", "application/jsonl")]
    ).run()
    at.button(key="label.imp.go").click().run()
    assert not at.exception
    assert any("labels.jsonl: not UTF-8 text" in plain(e.value) for e in at.error)
    assert LabelStore(label_store).version() == 0


def test_a_good_import_is_stored_and_reported(entry, label_store, sample_corpus):
    lines = (
        "\n".join(_line(sample_corpus, q, q.needles[0], 2, annotator="importer") for q in EN[:3])
        + "\n"
    )
    at = make(entry)
    at.file_uploader(key="label.imp.file").set_value(
        [("labels.jsonl", lines.encode(), "application/jsonl")]
    ).run()
    at.button(key="label.imp.go").click().run()
    ok(at)
    assert any(
        "Read 3 lines: 3 new labels, 0 changed, 0 already equal." in plain(s.value)
        for s in at.success
    )
    labels = LabelStore(label_store).current()
    assert {(lab.question_id, lab.grade, lab.kind) for lab in labels} == {
        (q.id, 2, "import") for q in EN[:3]
    }
    assert all(
        lab.label_id == label_id_for("en", lab.question_id, lab.doc_id, lab.start, lab.end)
        for lab in labels
    )


# ------------------------------------------------------------------------ store


def test_a_bad_store_path_is_reported_and_the_store_in_use_stays(entry, label_store, tmp_path):
    at = make(entry)
    at.text_input(key="label.store.w").set_value(str(tmp_path)).run()  # a directory, not a file
    at.button(key="label.store.use").click().run()
    assert not at.exception
    assert any("is a directory, not a file" in plain(e.value) for e in at.error)
    assert "label.store.path" not in at.session_state
    named(at)
    at.button(key="label.save").click().run()
    assert len(LabelStore(label_store).current()) == 1


def test_another_store_path_is_used_once_chosen(entry, label_store, tmp_path):
    other = tmp_path / "elsewhere" / "mine.sqlite3"
    at = make(entry)
    at.text_input(key="label.store.w").set_value(str(other)).run()
    at.button(key="label.store.use").click().run()
    ok(at)
    named(at)
    at.button(key="label.save").click().run()
    ok(at)
    assert len(LabelStore(other).current()) == 1
    assert not label_store.exists() or LabelStore(label_store).current() == ()


def test_a_store_inside_the_source_tree_is_flagged(entry, monkeypatch, tmp_path):
    inside = ROOT / ".pytest-label-store-probe"
    monkeypatch.setenv("RAG_INSPECTOR_DATA", str(inside))
    try:
        at = make(entry)
        assert not at.exception
        assert any("inside the source tree" in w.value for w in at.warning)
    finally:
        import shutil

        shutil.rmtree(inside, ignore_errors=True)


def test_a_stale_change_from_a_second_session_asks_before_overwriting(entry, label_store):
    # one annotator's tab A saves grade 2; tab B still shows the older label and presses
    # "Change label" with 3 (another annotator's save is in another state: never stale)
    a, b = named(make(entry), "ann"), named(make(entry), "ann")
    a.button(key="label.save").click().run()  # grade 1, both tabs will show it
    b.run()
    assert b.button(key="label.save").label == "Change label"
    b.radio(key="label.grade").set_value(3).run()  # B picks 3 while it shows grade 1 ...
    a.radio(key="label.grade").set_value(2).run()
    a.button(key="label.save").click().run()  # ... A saves 2 meanwhile ...
    ok(a)
    assert [x.grade for x in LabelStore(label_store).current()] == [2]
    b.button(key="label.save").click().run()
    assert not b.exception
    assert [x.grade for x in LabelStore(label_store).current()] == [2]  # nothing overwritten
    asks = [plain(w.value) for w in b.warning if "changed this span's label" in plain(w.value)]
    assert asks and "you saw grade 1; it is now grade 2, by ann" in asks[0]
    b.button(key="label.stale.overwrite").click().run()
    ok(b)
    current = LabelStore(label_store).current()
    assert [(x.grade, x.annotator) for x in current] == [(3, "ann")]
    kinds = [e.kind for e in LabelStore(label_store).history()]
    assert kinds == ["add", "change", "change"]  # append-only: every event kept


def test_keeping_the_current_label_writes_nothing(entry, label_store):
    a, b = named(make(entry), "ann"), named(make(entry), "ann")  # one annotator, two tabs
    a.button(key="label.save").click().run()
    b.run()
    b.radio(key="label.grade").set_value(3).run()
    a.radio(key="label.grade").set_value(2).run()
    a.button(key="label.save").click().run()
    b.button(key="label.save").click().run()
    b.button(key="label.stale.keep").click().run()
    ok(b)
    assert b.session_state["label.grade"] == 2
    assert [e.kind for e in LabelStore(label_store).history()] == ["add", "change"]
    assert any("Kept the current label (grade 2)." in plain(s.value) for s in b.success)


def test_a_server_restart_keeps_the_typed_note(entry, label_store):
    """The browser reconnects to a fresh session after a server restart and sends back its
    widgets' values: the typed (unsaved) note stays on screen and is what the next save stores
    (the stored note used to come back and be saved over the typed one)."""
    a = named(make(entry))
    a.text_input(key="label.note").set_value("stored note").run()
    a.button(key="label.save").click().run()
    ok(a)
    a.text_input(key="label.note").set_value("typed before the restart").run()
    widgets = ("label.annotator", "label.cand", "label.doc", "label.mode", "label.chunk")
    refill = {k: a.session_state[k] for k in (*widgets, "label.grade", "label.note")}
    b = AppTest.from_file(str(entry), default_timeout=a.default_timeout)
    b.query_params.update({"lang": "en", "qset": "en", "qid": EN[0].id})
    b.switch_page(str(ROOT / "pages" / "label.py"))
    for key, value in refill.items():
        b.session_state[key] = value
    b.run()
    ok(b)
    assert b.text_input(key="label.note").value == "typed before the restart"
    b.button(key="label.save").click().run()
    ok(b)
    (lab,) = LabelStore(label_store).current()
    assert lab.note == "typed before the restart"
