"""Test collections with qrels: BEIR/TREC loading, document-level metrics, zip safety, ``eval
--beir``."""

from __future__ import annotations

import io
import json
import re
import sys
import zipfile

import pytest
import pytrec_eval
from helpers.datasets import CORPUS, write_beir, write_trec
from helpers.paths import DATASETS, ROOT

from rag_core.cli import main
from rag_core.config import PipelineConfig
from rag_core.corpus.datasets import (
    find_trec_files,
    load_beir_set,
    load_qrels_folder,
    load_trec_set,
    parse_topics,
    safe_extract_zip,
)
from rag_core.evaluation.run import evaluate_config
from rag_core.index import CorpusIndex
from rag_core.pipeline import run


def small_chunks() -> PipelineConfig:
    return PipelineConfig().with_overrides(
        {
            "chunker.strategy": "boundaries",
            "chunker.target": "120",
            "generation.model": "none",
            "retrieval.analyzer": "unicode",
        }
    )


def test_beir_set_questions_are_document_level_and_titles_lead_the_text(tmp_path):
    qset = load_beir_set(write_beir(tmp_path / "b", nested="test"))
    assert [q.id for q in qset.questions] == ["q1", "q2", "q3"]  # q4 has no judgement
    q1 = qset.questions[0]
    assert [(n.doc_id, n.grade, n.origin) for n in q1.needles] == [
        ("d3", 2, "qrels"),
        ("d1", 1, "qrels"),
    ]
    assert not qset.questions[2].answerable  # q3: only a grade-0 judgement
    docs = {d.doc_id: d for d in qset.report.documents}
    assert docs["d1"].text == "Volcano\n\n" + CORPUS[0]["text"]
    assert docs["d3"].text == CORPUS[2]["text"]  # no title: text as is
    with pytest.raises(
        ValueError, match=re.escape("lacks qrels/dev.tsv and qrels.tsv; splits present: test")
    ):
        load_beir_set(tmp_path / "b", split="dev")


def test_document_ranks_graded_gain_and_unjudged_docs_match_pytrec_eval(tmp_path):
    qset = load_beir_set(write_beir(tmp_path / "b"))
    corpus = CorpusIndex(qset.report, name="b", questions=qset.questions)
    cfg = small_chunks()
    chunks = corpus.chunking(cfg.chunker).chunks
    assert sum(c.doc_id == "d1" for c in chunks) >= 3  # the long document is really chunked
    ks = (1, 3, 5)
    ev = evaluate_config(cfg, qset.questions, corpus, ks=ks, gain="linear", doc_qrels=qset.qrels)
    assert ev.level == "document" and set(ev.rankings) == {"q1", "q2", "q3"}
    run_ = {}
    for q in qset.questions:
        trace = run(
            cfg.with_overrides({"retrieval.k": "100"}), q.question, corpus, stop_after="gate"
        )
        best: dict[str, int] = {}
        for h in trace.rerank.hits:  # a document's rank = the rank of its best chunk
            best.setdefault(h.doc_id, h.rank)
        expected = tuple(sorted(best, key=best.get))[: max(ks)]
        assert ev.rankings[q.id] == expected
        # pytrec_eval ranks by score: score = -(best chunk rank) keeps that order
        run_[q.id] = {d: -float(best[d]) for d in expected}
    measures = {f"ndcg_cut.{','.join(map(str, ks))}", "recip_rank", "map"}
    peer = pytrec_eval.RelevanceEvaluator(
        {q: dict(v) for q, v in qset.qrels.items()}, measures
    ).evaluate(run_)
    for qid, values in ev.result.per_query.items():
        for k in ks:  # trec_eval's nDCG gain is the grade itself: our "linear"
            assert values[f"ndcg@{k}"] == pytest.approx(peer[qid][f"ndcg_cut_{k}"], abs=1e-9)
        assert values["rr"] == pytest.approx(peer[qid]["recip_rank"], abs=1e-9)
        assert values["ap"] == pytest.approx(peer[qid]["map"], abs=1e-9)
    # graded gain really matters: exp gain (2^g - 1) differs from linear on q1
    ev_exp = evaluate_config(cfg, qset.questions, corpus, ks=ks, gain="exp", doc_qrels=qset.qrels)
    assert ev_exp.result.per_query["q1"]["ndcg@5"] != ev.result.per_query["q1"]["ndcg@5"]
    # unjudged documents are counted, not scored as judged: share of top-10 with a judgement
    for qid, ranking in ev.rankings.items():
        judged = sum(d in qset.qrels[qid] for d in ranking[:10])
        assert ev.judged_share[qid] == judged / len(ranking[:10])
    assert ev.judged_share["q3"] < 1.0  # q3 judges only d2
    assert ev.to_dict()["per_query"]["q1"]["judged@10"] == ev.judged_share["q1"]
    # q3 (judged, nothing relevant) counts 0, as trec_eval -c does; q4 (no qrels) is not a query
    assert ev.result.per_query["q3"]["ndcg@5"] == 0.0 and ev.n_queries == 3


def test_gold_marking_on_a_document_level_question(tmp_path):
    qset = load_beir_set(write_beir(tmp_path / "b"))
    corpus = CorpusIndex(qset.report, name="b", questions=qset.questions)
    trace = run(small_chunks(), qset.questions[0].question, corpus, gold=qset.questions[0])
    d1_chunks = {
        c.chunk_id for c in corpus.chunking(small_chunks().chunker).chunks if c.doc_id == "d1"
    }
    assert set(trace.gold.chunk_ids[1]) == d1_chunks  # every chunk of a relevant document is gold
    assert trace.gold.in_corpus == (True, True)
    assert corpus.chunking(small_chunks().chunker).diagnostics.destroyed == ()


def test_trec_topics_and_qrels(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for r in CORPUS:
        (docs / f"{r['_id']}.txt").write_text(r["text"], encoding="utf-8")
    (tmp_path / "topics.txt").write_text(
        "<top>\n<num> Number: 301\n<title> crater lake volcano\n<desc> Description:\nlong "
        "text\n</top>\n<top>\n<num> Number: 302\n<title> roe deer\n</top>\n",
        encoding="utf-8",
    )
    (tmp_path / "qrels.txt").write_text(
        "301 0 d3 2\n301 0 d1 1\n302 0 d2 1\n302 0 zz 1\n", encoding="utf-8"
    )
    qset = load_trec_set(docs, tmp_path / "topics.txt", tmp_path / "qrels.txt")
    assert qset.queries == {"301": "crater lake volcano", "302": "roe deer"}
    assert qset.unknown_docs == ("zz",)
    assert parse_topics("1\tfirst\n2\tsecond\n") == {"1": "first", "2": "second"}
    with pytest.raises(ValueError, match=re.escape("t.tsv line 2: expected 'qid<TAB>query'")):
        parse_topics("1\tfirst\n2 second\n", "t.tsv")


def test_a_trec_folder_loads_like_the_same_beir_folder(tmp_path):
    trec = load_qrels_folder(write_trec(tmp_path / "t"))
    beir = load_qrels_folder(write_beir(tmp_path / "b"))
    assert trec.name == "t" and trec.split == "" and beir.split == "test"
    assert trec.qrels == beir.qrels and trec.queries == beir.queries
    assert [(q.id, q.needles) for q in trec.questions] == [
        (q.id, q.needles) for q in beir.questions
    ]
    # a corpus/ folder of documents also works; the set is named after the folder
    root = tmp_path / "docs-set"
    (root / "corpus").mkdir(parents=True)
    for r in CORPUS:
        (root / "corpus" / f"{r['_id']}.txt").write_text(r["text"], encoding="utf-8")
    (root / "q.topics").write_text("q1\tcrater lake\n", encoding="utf-8")
    (root / "q.qrels").write_text("q1 0 d3 1\n", encoding="utf-8")
    qset = load_qrels_folder(root)
    assert qset.name == "docs-set" and len(qset.report.documents) == len(CORPUS)
    assert find_trec_files(root) == (root / "corpus", root / "q.topics", root / "q.qrels")


@pytest.mark.parametrize(
    "setup, message",
    [
        (lambda r: (r / "topics.tsv").unlink(), "has no topics file (a file named topics*"),
        (lambda r: (r / "topics2.txt").write_text("x\ty\n"), "several topics files"),
        (lambda r: (r / "corpus.jsonl").unlink(), "has no corpus: expected corpus.jsonl"),
        (lambda r: (r / "qrels.txt").write_text("q1 d1\n"), "qrels.txt line 1: expected 4 fields"),
        (
            lambda r: (r / "qrels.txt").write_text("q9 0 d1 1\n"),
            "the qrels judge 1 query id(s) the queries file lacks: 'q9'",
        ),
    ],
)
def test_a_bad_trec_folder_is_one_clear_message(tmp_path, setup, message):
    root = write_trec(tmp_path / "t")
    setup(root)
    with pytest.raises(ValueError, match=re.escape(message)):
        load_qrels_folder(root)


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def test_zip_extraction_is_safe(tmp_path):
    b = write_beir(tmp_path / "src")
    good = _zip({f"set/{p.name}": p.read_bytes() for p in b.iterdir()})
    folder = safe_extract_zip(good, tmp_path / "out")
    assert folder.name == "set" and len(load_beir_set(folder).questions) == 3
    for name in ("../evil.txt", "/abs.txt", "a/../../evil.txt"):
        with pytest.raises(ValueError, match="points outside the folder"):
            safe_extract_zip(_zip({name: b"x"}), tmp_path / "o2")
    assert not (tmp_path / "evil.txt").exists()
    with pytest.raises(ValueError, match="the limit is 10 bytes"):
        safe_extract_zip(_zip({"big.txt": b"y" * 11}), tmp_path / "o3", max_bytes=10)
    with pytest.raises(ValueError, match="not a zip file"):
        safe_extract_zip(b"plain bytes", tmp_path / "o4")


def run_cli(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_eval_beir_and_bad_input(tmp_path, capsys):
    root = write_beir(tmp_path / "b")
    code, out, err = run_cli(
        capsys,
        "eval",
        "--beir",
        str(root),
        "--set",
        "generation.model=none",
        "--set",
        "chunker.target=120",
        "--gain",
        "linear",
        "--k",
        "1,5",
        "--json",
    )
    assert code == 0, err
    res = json.loads(out)["a"]
    assert (
        res["level"] == "document"
        and res["n_queries"] == 3
        and "judged@10" in res["per_query"]["q1"]
    )
    code, out, err = run_cli(capsys, "eval", "--beir", str(tmp_path / "missing"))
    assert code == 2 and err.count("\n") == 1 and "does not exist" in err
    write_beir(tmp_path / "bad", qrels=[])
    with open(tmp_path / "bad" / "qrels.tsv", "a", encoding="utf-8") as fh:
        fh.write("q1\td1\n")
    code, out, err = run_cli(capsys, "sweep", "--beir", str(tmp_path / "bad"))
    assert code == 2 and err.count("\n") == 1
    assert "qrels.tsv line 2: expected 3 tab-separated cells" in err


@pytest.mark.parametrize("name", ["scifact", "autorag_ko"])
def test_product_path_equals_the_bench_kernel(name):
    """``eval --beir`` (one chunk per document) gives bench/beir.py's nDCG@10 for BM25 unicode."""
    folder = DATASETS / name
    if not (folder / "corpus.jsonl").is_file():
        pytest.skip(f"shared dataset folder {folder} is absent on this machine")
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import beir as bench
    finally:
        sys.path.remove(str(ROOT / "bench"))
    from rag_core.retrieval.sparse import analyze_many

    ids, texts, queries, qrels = bench.load_beir(folder)
    doc_tokens = analyze_many("unicode", texts)
    q_tokens = dict(zip(queries, analyze_many("unicode", list(queries.values())), strict=True))
    kernel_run, _, _ = bench.run_ours(ids, doc_tokens, q_tokens, variant="lucene", k1=1.2, b=0.75)
    kernel_ndcg = bench.evaluate(kernel_run, qrels)[0]

    qset = load_beir_set(folder)
    corpus = CorpusIndex(qset.report, name=name, questions=qset.questions)
    cfg = PipelineConfig().with_overrides(bench.PRODUCT_SET)
    assert len(corpus.chunking(cfg.chunker).chunks) == len(ids)
    ev = evaluate_config(cfg, qset.questions, corpus, ks=(10,), doc_qrels=qset.qrels)
    assert ev.n_queries == len(qrels)
    assert ev.means["ndcg@10"].mean == pytest.approx(kernel_ndcg, abs=1e-4)


def test_span_labels_on_a_beir_set_export_as_qrels(tmp_path, capsys):
    from rag_core.gold.store import LabelStore

    root = write_beir(tmp_path / "mini")
    qset = load_beir_set(root)
    doc = {d.doc_id: d for d in qset.report.documents}["d4"]  # a document the qrels never judged
    start = doc.text.index("many deer")
    store = LabelStore(tmp_path / "labels.sqlite3")
    store.add("mini", "q2", "d4", start, start + 9, 2, text="many deer", doc=doc)
    code, out, err = run_cli(
        capsys,
        "labels",
        "export",
        "--format",
        "qrels",
        "--beir",
        str(root),
        "--set",
        "chunker.target=120",
        "--store",
        str(tmp_path / "labels.sqlite3"),
    )
    assert code == 0, err
    rows = [line.split() for line in out.splitlines()]
    corpus = CorpusIndex(qset.report, name="mini")
    chunks = corpus.chunking(small_chunks().chunker).chunks
    q2 = {cid: int(g) for qid, _, cid, g in rows if qid == "q2"}
    d4_with_span = [
        c.chunk_id for c in chunks if c.doc_id == "d4" and c.start <= start and start + 9 <= c.end
    ]
    assert d4_with_span and all(q2[cid] == 2 for cid in d4_with_span)  # the span label
    assert all(
        q2[c.chunk_id] == 1 for c in chunks if c.doc_id == "d1"
    )  # every chunk of a judged doc
    assert all(q2[c.chunk_id] == 2 for c in chunks if c.doc_id == "d2")


def test_span_labels_judge_their_document_in_document_level_evaluation(tmp_path):
    from rag_core.gold.store import LabelStore

    qset = load_beir_set(write_beir(tmp_path / "mini"))
    corpus = CorpusIndex(qset.report, name="mini", questions=qset.questions)
    doc = {d.doc_id: d for d in qset.report.documents}["d4"]
    store = LabelStore(tmp_path / "labels.sqlite3")
    store.add("mini", "q2", "d4", 0, 4, 3, text=doc.text[:4], doc=doc)
    store.add("mini", "q3", "d4", 0, 4, 0, text=doc.text[:4], doc=doc)
    kw = {"ks": (5,), "gain": "linear", "doc_qrels": qset.qrels}
    before = evaluate_config(small_chunks(), qset.questions, corpus, **kw)
    after = evaluate_config(
        small_chunks(), qset.questions, corpus, **kw, labels=store.current(), question_set="mini"
    )
    assert after.gold["q2"] == {"d2": 2, "d1": 1, "d4": 3}
    assert after.gold["q3"] == {"d2": 0, "d4": 0}  # a grade-0 label: judged, not relevant
    assert (
        "d4" in after.rankings["q2"]
    )  # retrieved ("deer on the mountain"), now the best-graded document
    assert after.result.per_query["q2"]["ndcg@5"] != before.result.per_query["q2"]["ndcg@5"]


def test_cli_eval_beir_takes_a_trec_folder_with_the_same_figures(tmp_path, capsys):
    args = ("--set", "generation.model=none", "--set", "chunker.target=120", "--json")
    reports = []
    for root in (write_beir(tmp_path / "b"), write_trec(tmp_path / "t")):
        code, out, err = run_cli(capsys, "eval", "--beir", str(root), *args)
        assert code == 0, err
        reports.append(json.loads(out)["a"])
    beir, trec = reports
    assert trec["level"] == beir["level"] == "document"
    assert trec["n_queries"] == beir["n_queries"] == 3
    assert trec["per_query"] == beir["per_query"]


def test_cli_eval_beir_names_a_dropped_corpus_row_and_an_empty_query(tmp_path, capsys):
    """A corpus row nested 100k deep is dropped with a warning (stderr and the report's
    ``warnings``), and a judged query with no text is one warning with its id: the others are
    still scored (it used to fail the whole run: "the question is empty")."""
    root = write_beir(tmp_path / "b")
    with open(root / "corpus.jsonl", "a", encoding="utf-8") as fh:
        fh.write('{"_id": "deep", "text": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    with open(root / "queries.jsonl", "a", encoding="utf-8") as fh:
        fh.write('{"_id": "q5", "text": "  "}\n')
    with open(root / "qrels.tsv", "a", encoding="utf-8") as fh:
        fh.write("q5\td2\t1\n")
    code, out, err = run_cli(
        capsys, "eval", "--beir", str(root), "--set", "generation.model=none", "--json"
    )
    assert code == 0, err
    deep = "corpus.jsonl line 6: JSON nested deeper than 64 levels"
    dropped = f"not loaded: {root / 'corpus.jsonl'}: {deep}"
    empty = "query 'q5' has no text: left out of the question set (its judgements are not scored)"
    assert err.splitlines() == [f"warning: {dropped}", f"warning: {empty}"]
    res = json.loads(out)["a"]
    assert res["warnings"] == [dropped]
    assert res["n_queries"] == 3 and "q5" not in res["per_query"]
