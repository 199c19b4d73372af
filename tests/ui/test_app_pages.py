"""Every page through Streamlit's ``AppTest`` (no browser): render, k, scenarios, URL, uploads.

Generation is off (``RAG_APP_SET=generation.model=none``) so a run takes
milliseconds once the sample corpus is chunked.

Why a wrapper entry: ``AppTest`` resets Streamlit's legacy ``pages/``-folder
detection before every run, so with ``app.py`` itself as the script a rerun
executes the page file alone (the legacy mode), not through
``st.navigation``. The wrapper lives in a temporary folder without a
``pages/`` sibling and runs the real ``app.py`` with ``runpy``, which is
what ``streamlit run app.py`` does after its first run.
"""

from __future__ import annotations

import pytest
from helpers.app import STAGE_HEADINGS_EN, make_app, ok, plain, rows_of
from helpers.paths import ROOT, entry_point

from rag_core.config import PipelineConfig
from rag_core.scenarios import SCENARIOS, scenario
from ui.i18n import t


@pytest.fixture(autouse=True)
def no_generation(monkeypatch):
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none")


make = make_app


def registered_pages() -> list[str]:
    return [name for _, name in entry_point().PAGES]


# ------------------------------------------------------------------------ pages


def test_every_page_file_is_registered():
    """Both ways: each file under pages/ is registered, and each registered page has its file."""
    assert sorted(p.stem for p in (ROOT / "pages").glob("*.py")) == sorted(registered_pages())


@pytest.mark.parametrize("page", ["inspect", "chunks", "compare", "scenarios"])
def test_page_renders_with_the_default_config(entry, page):
    at = make(entry, page=page)
    ok(at)
    titles = {"inspect": "검사", "chunks": "청크", "compare": "비교", "scenarios": "시나리오"}
    assert [x.value for x in at.title] == [titles[page]]


def test_registered_later_pages_render(entry):
    """Label / Evaluate / Threshold and the lecture view render too."""
    for page in registered_pages():
        if page in ("inspect", "chunks", "compare", "scenarios"):
            continue
        ok(make(entry, page=page))


def test_inspect_shows_every_stage_heading(entry):
    at = make(entry, {"lang": "en"})
    ok(at)
    assert [h.value for h in at.header] == list(STAGE_HEADINGS_EN)
    assert at.get("download_button")[0].label == "Download the Trace (JSON)"


@pytest.mark.parametrize(
    ("lang", "wording"),
    [("ko", "생성 모델이 꺼져 있습니다"), ("en", "the generator is off")],
)
def test_generation_off_is_worded_in_the_page_language(entry, lang, wording):
    """The core's English reason for a skipped generation is not shown; the page words it."""
    at = make(entry, {"lang": lang})
    ok(at)
    infos = [plain(x.value) for x in at.info]
    assert any(wording in x for x in infos), infos
    assert not any("generation is off" in x for x in infos), infos


def test_changing_k_changes_the_candidate_lists(entry):
    at = make(entry, {"retrieval.methods": "bm25,tfidf:char"})
    ok(at)
    default_k = PipelineConfig().retrieval.k
    assert rows_of(at, "bm25:auto") == default_k
    assert rows_of(at, "tfidf:char") == default_k
    at.slider(key="retrieval.k").set_value(3).run()
    ok(at)
    assert rows_of(at, "bm25:auto") == 3
    assert rows_of(at, "tfidf:char") == 3
    assert at.query_params["retrieval.k"] == "3"


def test_zero_candidates_is_shown_as_such(entry):
    at = make(entry, {"qset": "ko", "qid": "ko-01", "lang": "en", "retrieval.analyzer": "unicode"})
    ok(at)
    assert rows_of(at, "bm25:unicode") == 0
    assert any("0 candidates" in h.value for h in at.html)


def test_a_url_restores_the_view(entry):
    query = {
        "retrieval.methods": "bm25,tfidf:char",
        "retrieval.k": "5",
        "chunker.strategy": "blind",
        "chunker.overlap": "64",
        "gate.min_score": "0.5",
        "context.policy": "hard-cut",
        "lang": "en",
        "corpus": "sample",
        "qset": "ko",
        "qid": "ko-03",
        "ph": "1",
    }
    at = make(entry, query)
    ok(at)
    assert at.slider(key="retrieval.k").value == 5
    assert at.multiselect(key="retrieval.methods").value == ["bm25", "tfidf"]
    assert at.toggle(key="retrieval.per_method").value is True
    assert at.selectbox(key="retrieval.analyzer_for.tfidf").value == "char"
    assert at.selectbox(key="chunker.preset").value == "B"  # blind 512 + overlap 64 is preset B
    assert at.selectbox(key="q.id").value == "ko-03"
    assert at.selectbox(key="q.phrasing").value == 1
    assert at.number_input(key="gate.min_score").value == 0.5
    assert [x.value for x in at.title] == ["Inspect"]
    # the URL written back is the URL read, plus what the environment's start config changed
    assert dict(at.query_params) == {**query, "generation.model": "none"}


def test_bad_url_values_are_reported_and_the_rest_loads(entry):
    at = make(entry, {"retrieval.k": "abc", "retrieval.analyzer": "char", "lang": "en"})
    assert not at.exception
    warnings = [plain(w.value) for w in at.warning]
    assert any("retrieval.k = 'abc' must be an integer" in w for w in warnings)
    assert at.selectbox(key="retrieval.analyzer").value == "char"
    assert rows_of(at, "bm25:char") == PipelineConfig().retrieval.k


def test_a_bad_widget_combination_keeps_the_previous_config(entry):
    at = make(entry, {"chunker.strategy": "blind", "chunker.target": "300", "lang": "en"})
    before = at.session_state["_cfg"]
    at.number_input(key="chunker.overlap").set_value(400).run()
    assert not at.exception
    assert any(
        "chunker.overlap = 400 must be smaller than chunker.target = 300" in plain(e.value)
        for e in at.error
    )
    assert at.session_state["_cfg"] == before
    assert [h.value for h in at.header][
        0
    ] == "① Chunking"  # the page still renders with the last good config


def test_a_bad_upload_shows_its_reason_while_the_rest_loads(entry):
    at = make(entry, {"corpus": "upload", "lang": "en"})
    ok(at)
    files = [
        (
            "notes.md",
            b"# Notes\n\nThe zebrafish tank holds 42 litres of water.\n",
            "text/markdown",
        ),
        ("blob.txt", b"\x00\x01\x02binary", "text/plain"),
        ("empty.csv", b"", "text/csv"),
        (
            "page.html",
            b"<html><body><p>Hallasan rises 1,947 metres above the sea.</p></body></html>",
            "text/html",
        ),
    ]
    at.file_uploader(key="uploads").set_value(files).run()
    assert not at.exception
    labels = [e.label for e in at.expander]
    assert "2 files or rows not loaded" in labels
    text = plain(" ".join(m.value for m in at.markdown))
    assert "binary file" in text and "empty" in text
    assert any("Indexed 2 documents" in s.value for s in at.success)
    at.radio(key="q.mode").set_value("free").run()
    at.text_area(key="q.text").set_value("How many litres does the zebrafish tank hold?").run()
    ok(at)
    ctx = at.session_state["_ctx"]
    assert sorted(ctx.corpus.docs) == ["notes", "page"]
    assert rows_of(at, "bm25:auto") >= 1


def test_an_upload_with_nothing_loadable_keeps_the_previous_corpus(entry):
    at = make(entry, {"corpus": "upload", "lang": "en"})
    at.file_uploader(key="uploads").set_value([("blob.txt", b"\x00\x00", "text/plain")]).run()
    assert not at.exception
    assert any("No loadable document" in plain(w.value) for w in at.warning)
    assert at.session_state["_ctx"].corpus.name == "sample_corpus"


def test_a_missing_model_is_a_message_and_the_rest_works(entry, monkeypatch):
    monkeypatch.setenv(
        "RAG_INSPECTOR_MODELS", "/no"
    )  # a path from the URL must lie in the allow-listed folder
    at = make(
        entry,
        {
            "retrieval.methods": "bm25,dense",
            "retrieval.dense_model": "/no/such/model",
            "lang": "en",
        },
    )
    ok(at)
    assert any("unavailable" in plain(w.value) for w in at.warning)
    assert rows_of(at, "bm25:auto") == PipelineConfig().retrieval.k


# -------------------------------------------------------------------- scenarios


def test_a_scenario_click_sets_the_configuration(entry):
    s = scenario("korean-particle")
    at = make(entry, page="scenarios")
    ok(at)
    at.button(key=f"scn.{s.id}.compare").click().run()
    ok(at)
    base = PipelineConfig().with_overrides({"generation.model": "none"})
    assert at.session_state["_cfg"] == s.config(base)
    assert at.session_state["q.id"] == s.question_id
    assert [x.value for x in at.title] == ["비교"]
    assert at.text_area(key="compare.b.w").value == "retrieval.analyzer=auto"
    assert at.query_params["b"] == "retrieval.analyzer=auto"
    assert rows_of(at, "bm25:unicode") == 0  # A: word search finds nothing
    assert rows_of(at, "bm25:auto") == PipelineConfig().retrieval.k  # B: Kiwi morphemes do


def test_a_scenario_opens_its_chunks_page_on_the_gold_document(entry):
    s = scenario("blind-cut")
    at = make(entry, page="scenarios")
    at.button(key=f"scn.{s.id}.chunks").click().run()
    assert not at.exception
    assert [x.value for x in at.title] == ["청크"]
    # the destroyed needle is announced with the boundary that cut it
    # ko-33's needle "… 관광객만 1,380만 명 …", cut inside the number by preset A
    assert any("1,380만" in plain(e.value) and "자른 경계" in plain(e.value) for e in at.error)
    assert at.selectbox(key="chunker.preset").value == "A"
    assert at.selectbox(key="chunks.doc.w").value == "ko-jeju-05-admin-tourism"
    assert any("ri-cut" in h.value and "ri-lost" in h.value for h in at.html)


def test_every_scenario_has_its_buttons(entry):
    at = make(entry, page="scenarios", query={"lang": "en"})
    ok(at)
    keys = {b.key for b in at.button}
    for s in SCENARIOS:
        assert f"scn.{s.id}.{s.page}" in keys
        assert (f"scn.{s.id}.compare" in keys) == (s.compare is not None)


def test_the_html_edition_offers_only_its_own_questions(entry):
    at = make(entry, {"corpus": "sample-html", "lang": "en"})
    ok(at)
    ctx = at.session_state["_ctx"]
    assert sorted(ctx.corpus.docs) == ["ko-jeju-05-admin-tourism"]
    for questions in ctx.question_sets.values():
        for q in questions:
            assert all(n.doc_id in ctx.corpus.docs for n in q.needles)
    assert sum(len(qs) for qs in ctx.question_sets.values()) > 0


def test_the_language_survives_a_scenario_click(entry):
    s = scenario("korean-particle")
    at = make(entry, page="scenarios", query={"lang": "en"})
    ok(at)
    at.button(key=f"scn.{s.id}.inspect").click().run()
    ok(at)
    assert [x.value for x in at.title] == ["Inspect"]
    assert at.query_params["lang"] == "en"


def test_unreachable_qdrant_is_one_warning_and_bm25_still_shows(entry, monkeypatch):
    import socket

    with socket.socket() as s:  # a free port: nothing listens there
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}"
    monkeypatch.setenv(
        "RAG_INSPECTOR_QDRANT_URLS", url
    )  # a server address from the URL must be allow-listed
    at = make(
        entry, {"lang": "en", "retrieval.methods": "bm25,qdrant", "retrieval.qdrant_url": url}
    )
    assert not at.exception, [e.value for e in at.exception]
    assert rows_of(at, "bm25:auto") == PipelineConfig().retrieval.k
    warnings = [plain(w.value) for w in at.warning if "qdrant:rag-inspector" in plain(w.value)]
    assert len(warnings) == 1
    assert f"Qdrant at {url} is unreachable or failed while listing collections" in warnings[0]
    assert (
        at.text_input(key="retrieval.qdrant_url").value == url
    )  # the sidebar shows where it looked


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_chunks_warns_what_minilm_reads_as_unknown_only_when_it_is_the_embedder(entry, lang):
    from rag_core.index import load_corpus_index
    from rag_core.models.tokenizer import unknown_chars

    corpus = load_corpus_index()
    chunks = corpus.chunking(PipelineConfig().chunker).chunks
    unk, total = unknown_chars([c.text for c in chunks])
    assert 0.01 <= unk / total < 0.5  # the sample's Korean half: a share, not all of it
    at = make(entry, {"lang": lang, "retrieval.dense_model": "minilm"}, page="chunks")
    ok(at)
    said = [w.value for w in at.warning if "[UNK]" in w.value]
    assert said == [
        t("chk.unknown", lang, unk=f"{unk:,}", total=f"{total:,}", share=f"{unk / total:.1%}")
    ]
    # the corpus's own choice (auto: e5-small, which reads Korean) gets no such warning
    at = make(entry, {"lang": lang}, page="chunks")
    ok(at)
    assert not [w.value for w in at.warning if "[UNK]" in w.value]
