"""Imported runs (TREC / JSONL) as retriever lists: parsing, the Trace, round trip, bad input."""

from __future__ import annotations

import json
import re

import pytest

from rag_core.cli import main
from rag_core.config import PipelineConfig
from rag_core.evaluation.run import evaluate_config
from rag_core.evaluation.sweep_collect import collect
from rag_core.pipeline import run
from rag_core.retrieval.runs import check_queries, parse_run_bytes, parse_trec_run
from rag_core.types import Needle, Question

NONE = {"generation.model": "none", "chunker.target": "120", "retrieval.analyzer": "unicode"}


def cfg(**extra: str) -> PipelineConfig:
    return PipelineConfig().with_overrides({**NONE, **extra})


def test_trec_run_orders_by_score_and_splits_tags():
    runs = parse_trec_run(
        [
            "q1 Q0 a 1 1.5 sys",
            "q1 Q0 b 2 3.0 sys",
            "q1 Q0 c 3 1.5 sys",
            "",
            "q2 Q0 a 1 9 other",
        ],
        "r.txt",
    )
    assert set(runs) == {"sys", "other"}
    hits = runs["sys"].hits["q1"]
    assert [(h.ref, h.rank) for h in hits] == [
        ("b", 1),
        ("a", 2),
        ("c", 3),
    ]  # score, then written rank
    assert runs["sys"].for_query("q1#2") == hits  # a phrasing id falls back to its question
    assert runs["sys"].for_query("q9") is None


@pytest.mark.parametrize(
    "data, message",
    [
        (b"q1 Q0 a 1 1.0 t\nq1 Q0 b 2 t\n", "r.txt line 2: expected 6 fields"),
        (b"q1 Q0 a one 1.0 t\n", "r.txt line 1: rank 'one' is not an integer"),
        (b"q1 Q0 a 1 nan t\n", "r.txt line 1: score 'nan' is not finite"),
        (
            b"q1 Q0 a 1 1 t\nq1 Q0 a 2 0.5 t\n",
            "r.txt line 2: query 'q1' lists doc 'a' twice (first at line 1)",
        ),
        (
            (
                b'{"qid": "q1", "hits": [{"doc_id": "a", "score": 1}]}\n{"qid": "q2", "hits": '
                b'[{"score": 1}]}\n'
            ),
            "r.txt line 2, hit 0: needs 'doc_id' or 'chunk_id'",
        ),
        (
            b'{"qid": "q1", "hits": [{"doc_id": "a", "score": 1}]}\n{"qid": \n',
            "r.txt line 2: not valid JSON",
        ),
    ],
)
def test_malformed_run_lines_are_named(data, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_run_bytes("r.txt", data)


def test_unknown_query_ids_are_refused():
    runs = parse_run_bytes("r.txt", b"q1 Q0 a 1 1 t\nzz Q0 a 1 1 t\n")
    check_queries(runs, {"q1", "zz"})  # all known: no error
    with pytest.raises(
        ValueError,
        match=re.escape(
            "run 't' (r.txt) references 1 query id(s) that the question set lacks: 'zz'"
        ),
    ):
        check_queries(runs, {"q1", "q2"})


def _jsonl(rows) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in rows).encode("utf-8")


def test_run_hits_become_chunks_documents_external_texts_or_text_unavailable(tiny_corpus):
    c = cfg(**{"retrieval.methods": "run:prod"})
    chunking = tiny_corpus.chunking(c.chunker)
    first = chunking.chunks[0]
    n_jeju = sum(ch.doc_id == "jeju" for ch in chunking.chunks)
    assert n_jeju > 1
    runs = parse_run_bytes(
        "prod.jsonl",
        _jsonl(
            [
                {
                    "qid": "q1",
                    "tag": "prod",
                    "hits": [
                        {"chunk_id": first.chunk_id, "score": 0.9},
                        {
                            "doc_id": "jeju",
                            "score": 0.8,
                        },  # a document of several chunks: shown whole
                        {
                            "doc_id": "elsewhere-7",
                            "score": 0.7,
                            "text": "Error E17 means the latch is open.",
                        },
                        {"doc_id": "ghost", "score": 0.6},  # no text anywhere
                    ],
                }
            ]
        ),
    )
    gold = Question("q1", "ko", "한라산 높이", needles=(Needle("jeju", "해발 1,947m"),))
    trace = run(c, "한라산의 높이는?", tiny_corpus, gold=gold, runs=runs)
    lst = trace.retrieval.lists[0]
    assert lst.name == "run:prod" and lst.status == "ok" and lst.n_candidates == 4
    ids = [h.chunk_id for h in lst.hits]
    assert ids == [first.chunk_id, "jeju::doc", "ext::elsewhere-7", "ext::ghost"]
    assert [h.score for h in lst.hits] == [0.9, 0.8, 0.7, 0.6]
    assert trace.chunks["jeju::doc"].content == tiny_corpus.docs["jeju"].text
    assert lst.hits[3].note == "text unavailable"
    from rag_core.retrieval.runs import RUN_OWN_TEXT, RUN_TEXT_UNAVAILABLE, RUN_WHOLE_DOCUMENT
    from rag_core.wording import english

    codes = [h.notice.code if h.notice is not None else None for h in lst.hits]
    assert codes == [None, RUN_WHOLE_DOCUMENT, RUN_OWN_TEXT, RUN_TEXT_UNAVAILABLE]
    assert [h.note for h in lst.hits[1:]] == [english(h.notice) for h in lst.hits[1:]]
    assert lst.hits[0].note == ""
    sources = {s.chunk_id: s for s in trace.context.sources}
    assert sources["ext::elsewhere-7"].status == "included"
    assert (
        sources["ext::ghost"].status == "dropped"
        and sources["ext::ghost"].reason == "text-unavailable"
    )
    assert "ghost" not in trace.context.prompt_text and "latch is open" in trace.context.prompt_text
    # gold marking: the whole document holds the needle, at rank 2 of the run's list
    assert trace.gold.stage_ranks["retrieval:run:prod"] == (2,)


def test_a_run_fuses_with_our_retrievers_and_missing_runs_leave_them_working(tiny_corpus):
    runs = parse_run_bytes("r.txt", b"q1 Q0 kv 1 5.0 ext\n")
    c = cfg(**{"retrieval.methods": "bm25,run:ext"})
    trace = run(c, "KV cache", tiny_corpus, runs=runs, query_id="q1")
    assert [lst.status for lst in trace.retrieval.lists] == ["ok", "ok"]
    assert trace.retrieval.fused is not None and "run:ext" in trace.retrieval.fused.inputs
    kv_chunks = [h for h in trace.retrieval.fused.hits if h.doc_id == "kv"]
    assert kv_chunks  # the single-chunk-or-whole document of the run is in the fused list
    # no run loaded / no entry for this query: the list says so, BM25 still answers
    for runs_, qid, why in (
        (None, "q1", "no run tagged 'ext' is loaded"),
        (runs, "q9", "has no hits for query id 'q9'"),
    ):
        t = run(c, "KV cache", tiny_corpus, runs=runs_, query_id=qid)
        assert t.retrieval.lists[1].status == "unavailable" and why in t.retrieval.lists[1].message
        assert t.retrieval.lists[0].hits and t.rerank.hits


def test_sweep_and_evaluate_work_on_a_run(tiny_corpus):
    chunks = tiny_corpus.chunking(cfg().chunker).chunks
    jeju = [ch for ch in chunks if ch.doc_id == "jeju"]
    lines = "".join(f"q1 Q0 {ch.chunk_id} {i + 1} {10 - i} prod\n" for i, ch in enumerate(jeju))
    runs = parse_run_bytes("r.txt", lines.encode())
    q = Question("q1", "ko", "한라산 높이", needles=(Needle("jeju", "해발 1,947m"),))
    c = cfg(**{"retrieval.methods": "run:prod"})
    ev = evaluate_config(c, [q], tiny_corpus, ks=(1, 4), runs=runs)
    gold_rank = next(i for i, ch in enumerate(jeju, 1) if "해발 1,947m" in ch.content)
    assert ev.result.first_gold_rank["q1"] == gold_rank
    data = collect(c, [q], tiny_corpus, runs=runs)
    cands = data.queries[0].candidates
    assert [x.value for x in cands] == [10 - i for i in range(len(jeju))]
    assert [x.gold for x in cands].index(True) + 1 == gold_rank


def run_cli(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def _downstream(t: dict) -> dict:
    strip = lambda hits: [(h["chunk_id"], h["rank"], h["score"]) for h in hits]  # noqa: E731
    return {
        "retrieval": strip(t["retrieval"]["hits"]),
        "rerank": strip(t["rerank"]["hits"]),
        "kept": strip(t["gate"]["kept"]),
        "rejected": strip(t["gate"]["rejected"]),
        "refused": t["gate"]["refused"],
        "sources": [
            (s["chunk_id"], s["status"], s["quote"], s["n"]) for s in t["context"]["sources"]
        ],
        "prompt": t["context"]["prompt_text"],
        "generation": t["generation"]["status"],
    }


@pytest.mark.parametrize(
    "methods, reimport",
    [
        ("bm25", "run:bm25-auto"),
        ("bm25,tfidf:char", "run:bm25-auto,run:tfidf-char"),
    ],
)
def test_exported_run_reimports_to_identical_downstream_stages(tmp_path, capsys, methods, reimport):
    out_run = tmp_path / "ours.run"
    common = [
        "--set",
        "generation.model=none",
        "--set",
        "retrieval.k=6",
        "--set",
        "gate.max_kept=3",
        "--set",
        "rerank.method=overlap",
        "--json",
    ]
    code, out, err = run_cli(
        capsys,
        "query",
        "How tall is Hallasan?",
        "--set",
        f"retrieval.methods={methods}",
        "--trec-run",
        str(out_run),
        *common,
    )
    assert code == 0, err
    ours = json.loads(out)
    lines = out_run.read_text(encoding="utf-8").splitlines()
    assert len(lines) == sum(len(lst["hits"]) for lst in ours["retrieval"]["lists"])
    code, out, err = run_cli(
        capsys,
        "query",
        "How tall is Hallasan?",
        "--run",
        str(out_run),
        "--set",
        f"retrieval.methods={reimport}",
        *common,
    )
    assert code == 0, err
    again = json.loads(out)
    assert [lst["name"] for lst in again["retrieval"]["lists"]] == reimport.split(",")
    assert _downstream(again) == _downstream(ours)


def test_cli_run_bad_input_is_one_line_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.run"
    bad.write_text("q1 Q0 a 1 1.0 t\nq1 Q0 b 2\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "query", "How tall is Hallasan?", "--run", str(bad))
    assert code == 2 and err.count("\n") == 1 and "bad.run line 2: expected 6 fields" in err
    unknown = tmp_path / "unknown.run"
    unknown.write_text("no-such-question Q0 a 1 1.0 t\n", encoding="utf-8")
    from rag_core.corpus import SAMPLE_CORPUS

    sets = sorted((SAMPLE_CORPUS / "questions").glob("*.jsonl"))
    code, out, err = run_cli(capsys, "eval", "--queries", str(sets[0]), "--run", str(unknown))
    assert code == 2 and err.count("\n") == 1 and "references 1 query id(s)" in err


def test_a_hit_text_found_in_its_document_is_that_span(tiny_corpus):
    text = "The KV cache grows with every generated token."
    runs = parse_run_bytes(
        "e.jsonl", _jsonl([{"qid": "q1", "hits": [{"doc_id": "kv", "score": 2, "text": text}]}])
    )
    trace = run(
        cfg(**{"retrieval.methods": "run:e"}), "KV cache", tiny_corpus, runs=runs, query_id="q1"
    )
    hit = trace.retrieval.lists[0].hits[0]
    start = tiny_corpus.docs["kv"].text.index(text)
    assert hit.chunk_id == f"kv::span::{start}-{start + len(text)}"
    assert trace.chunks[hit.chunk_id].content == text and trace.chunks[hit.chunk_id].start == start
