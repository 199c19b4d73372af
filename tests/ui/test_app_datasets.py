"""The app on a BEIR folder and with imported runs (AppTest, no browser)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.app import make_app, ok, plain, rows_of
from helpers.datasets import write_beir, write_trec
from helpers.paths import ROOT
from streamlit.testing.v1 import AppTest


@pytest.fixture(autouse=True)
def env(monkeypatch, tmp_path):
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none;chunker.strategy=boundaries")
    monkeypatch.setenv("RAG_INSPECTOR_DATA", str(tmp_path / "data"))


def on_beir(entry: Path, folder: Path, page: str | None = None) -> AppTest:
    at = make_app(entry, {"corpus": "beir", "lang": "en"}, page=page)
    at.text_input(key="beir.path").set_value(str(folder)).run()
    return at


def test_a_beir_folder_is_a_corpus_with_a_document_level_question_set(entry, tmp_path):
    at = on_beir(entry, write_beir(tmp_path / "mini"))
    ok(at)
    assert any("Loaded 5 documents, 3 judged queries, 6 judgements" in s.value for s in at.success)
    ctx = at.session_state["_ctx"]
    assert ctx.corpus.name == "mini" and list(ctx.question_sets) == ["mini (test)"]
    assert ctx.gold is not None and ctx.gold.needles[0].origin == "qrels"
    assert any("rank of its best chunk" in c.value for c in at.caption)
    assert rows_of(at, "bm25:auto") >= 1


def test_a_missing_folder_or_bad_qrels_is_a_message_and_keeps_the_loaded_set(entry, tmp_path):
    at = on_beir(entry, write_beir(tmp_path / "mini"))
    ok(at)
    at.text_input(key="beir.path").set_value(str(tmp_path / "missing")).run()
    assert not at.exception
    assert any("does not exist" in plain(w.value) for w in at.warning)
    assert at.session_state["_ctx"].corpus.name == "mini"  # nothing loaded before is lost
    bad = write_beir(tmp_path / "bad", qrels=[])
    with open(bad / "qrels.tsv", "a", encoding="utf-8") as fh:
        fh.write("q1\td1\n")
    at.text_input(key="beir.path").set_value(str(bad)).run()
    assert any(
        "qrels.tsv line 2: expected 3 tab-separated cells" in plain(w.value) for w in at.warning
    )
    assert at.session_state["_ctx"].corpus.name == "mini"


def test_a_trec_folder_is_a_corpus_with_a_question_set_and_bad_ones_keep_it(entry, tmp_path):
    at = on_beir(entry, write_trec(tmp_path / "trecset"))
    ok(at)
    assert any("Loaded 5 documents, 3 judged queries, 6 judgements" in s.value for s in at.success)
    assert any("Read as TREC topics + qrels" in c.value for c in at.caption)
    ctx = at.session_state["_ctx"]
    assert ctx.corpus.name == "trecset" and list(ctx.question_sets) == ["trecset"]
    assert ctx.gold is not None and ctx.gold.needles[0].origin == "qrels"
    for bad, message in [
        (write_trec(tmp_path / "no-topics", topics=False), "has no topics file"),
        (
            write_trec(tmp_path / "two-cells", "q1 0 d3 2\nq1 d1\n"),
            "qrels.txt line 2: expected 4 fields",
        ),
        (
            write_trec(tmp_path / "unknown-q", "q1 0 d3 2\nq9 0 d1 1\n"),
            "query id(s) the queries file lacks: 'q9'",
        ),
    ]:
        at.text_input(key="beir.path").set_value(str(bad)).run()
        assert not at.exception
        warnings = [plain(w.value) for w in at.warning]
        assert sum(message in w for w in warnings) == 1, warnings
        assert any("the previous corpus stays" in w for w in warnings)
        assert at.session_state["_ctx"].corpus.name == "trecset"  # nothing loaded before is lost


def test_an_imported_run_is_a_retriever_list_and_a_bad_run_is_a_message(entry, tmp_path):
    at = on_beir(entry, write_beir(tmp_path / "mini"))
    ok(at)
    qid = at.session_state["_ctx"].gold.id
    good = (
        f"{qid} Q0 d5 1 3.5 prod\n{qid} Q0 d3 2 2.5 prod\n{qid} Q0 elsewhere 3 1.0 prod\n".encode()
    )
    bad = f"{qid} Q0 d5 1 3.5 prod\n{qid} Q0 d3 2\n".encode()
    at.file_uploader(key="runs.files").set_value(
        [("prod.run", good, "text/plain"), ("bad.run", bad, "text/plain")]
    ).run()
    assert not at.exception
    assert any("bad.run line 2: expected 6 fields" in plain(w.value) for w in at.warning)
    at.multiselect(key="retrieval.runs").set_value(["prod"]).run()
    assert not at.exception and not at.error
    ctx = at.session_state["_ctx"]
    assert "run:prod" in ctx.config.retrieval.methods and "|runs:" in ctx.corpus_key
    assert rows_of(at, "run:prod") == 3
    page = "\n".join(h.value for h in at.html)
    assert "text unavailable — kept out of the prompt" in page  # 'elsewhere' has no text anywhere
    assert rows_of(at, "bm25:auto") >= 1  # our retriever keeps working beside it
    unknown = b"nope Q0 d5 1 3.5 other\n"
    at.file_uploader(key="runs.files").set_value(
        [("prod.run", good, "text/plain"), ("other.run", unknown, "text/plain")]
    ).run()
    assert any("references 1 query id(s)" in plain(w.value) for w in at.warning)
    assert rows_of(at, "run:prod") == 3


def test_evaluate_on_a_beir_set_is_document_level(entry, tmp_path):
    at = on_beir(entry, write_beir(tmp_path / "mini"), page="evaluate")
    ok(at)
    at.radio(key="eval.gain").set_value("linear").run()
    at.button(key="eval.run").click().run()
    ok(at)
    ev = at.session_state["eval.result"]["a"]
    assert ev.level == "document" and ev.n_queries == 3 and ev.result.gain == "linear"
    assert any("rank of its best chunk (MaxP)" in plain(c.value) for c in at.caption)


def test_label_page_on_a_beir_set_pools_candidates_and_shows_document_gold(entry, tmp_path):
    at = on_beir(entry, write_beir(tmp_path / "mini"), page="label")
    ok(at)
    page = "\n".join(h.value for h in at.html)
    assert "qrels (document)" in page  # the question's gold: its judged documents
    assert "not judged" in page  # pooled candidates without a judgement say so
    assert (ROOT / "pages" / "label.py").is_file()


def test_the_label_pool_offers_an_imported_run_in_use(entry, tmp_path):
    at = on_beir(entry, write_beir(tmp_path / "mini"), page="label")
    ok(at)
    qid = at.session_state["_ctx"].gold.id
    run = f"{qid} Q0 d5 1 3.5 prod\n{qid} Q0 elsewhere 2 1.0 prod\n".encode()
    at.file_uploader(key="runs.files").set_value([("prod.run", run, "text/plain")]).run()
    at.multiselect(key="retrieval.runs").set_value(["prod"]).run()
    pool = at.multiselect(key="label.pool.retrievers")
    assert "run:prod" in pool.options
    pool.set_value(["run:prod"]).run()
    assert not at.exception and not at.error
    assert any("run:prod#" in plain(h.value) for h in at.html) or any(
        "run:prod#" in plain(str(m.value)) for m in at.markdown
    )


def test_a_beir_load_shows_a_dropped_row_and_an_empty_query_as_an_upload_does(entry, tmp_path):
    """The sidebar said "Loaded 5 documents" and nothing else for a folder whose sixth corpus
    row is nested 100k deep; now the upload report's "not loaded" box lists it, and a judged
    query with no text is one warning naming it."""
    root = write_beir(tmp_path / "mini")
    with open(root / "corpus.jsonl", "a", encoding="utf-8") as fh:
        fh.write('{"_id": "deep", "text": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    with open(root / "queries.jsonl", "a", encoding="utf-8") as fh:
        fh.write('{"_id": "q5", "text": ""}\n')
    with open(root / "qrels.tsv", "a", encoding="utf-8") as fh:
        fh.write("q5\td2\t1\n")
    at = on_beir(entry, root)
    ok(at)
    assert any("Loaded 5 documents, 3 judged queries, 7 judgements" in s.value for s in at.success)
    assert "1 files or rows not loaded" in [e.label for e in at.expander]
    text = plain(" ".join(m.value for m in at.markdown))
    assert "corpus.jsonl line 6: JSON nested deeper than 64 levels" in text
    assert any(
        plain(w.value) == "query 'q5' has no text: left out of the question set (its judgements "
        "are not scored)"
        for w in at.warning
    )
