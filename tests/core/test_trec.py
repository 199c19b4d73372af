"""TREC qrels/run and BEIR qrels.tsv: round trips, errors with line numbers, peer parsers."""

from __future__ import annotations

import random
import re

import pytest
from helpers.paths import DATASETS

from rag_core.evaluation.metrics import evaluate_run
from rag_core.formats.output import write_text
from rag_core.formats.trec import (
    escape_id,
    format_qrels,
    format_run,
    parse_qrels,
    parse_run,
    rank_by_score,
    read_qrels,
    read_run,
    unescape_id,
)


def write_qrels(qrels, path, *, escape=False):
    write_text(path, format_qrels(qrels, escape=escape))


def write_run(run, path, tag="rag_core", *, escape=False):
    write_text(path, format_run(run, tag, escape=escape))


def random_qrels_and_run(seed: int):
    rng = random.Random(seed)
    qrels, run = {}, {}
    for q in range(20):
        qid = f"q{q}"
        docs = [f"doc-{i}" for i in rng.sample(range(100), 12)]
        qrels[qid] = {d: rng.randint(-1, 3) for d in docs[:6]}
        run[qid] = {d: rng.choice([rng.random() * 10, 1.0]) for d in docs[3:]}
    return qrels, run


def test_qrels_round_trip(tmp_path):
    qrels, _ = random_qrels_and_run(1)
    path = tmp_path / "q.qrels"
    write_qrels(qrels, path)
    assert read_qrels(path) == qrels
    assert read_qrels(path, "trec") == qrels
    first = path.read_text().splitlines()[0].split()
    assert first[1] == "0" and len(first) == 4


def test_run_round_trip_keeps_scores_exactly_and_ranks_like_trec_eval(tmp_path):
    _, run = random_qrels_and_run(2)
    path = tmp_path / "r.run"
    write_run(run, path, tag="mine")
    assert read_run(path) == run
    lines = path.read_text().splitlines()
    q0 = [ln.split() for ln in lines if ln.startswith("q0 ")]
    assert [f[2] for f in q0] == rank_by_score(run["q0"])
    assert [int(f[3]) for f in q0] == list(range(1, len(q0) + 1))
    assert {f[5] for f in q0} == {"mine"}


def test_ranked_lists_are_written_with_decreasing_scores(tmp_path):
    run = {"q1": ["c", "a", "b"]}
    text = format_run(run)
    assert text == "q1 Q0 c 1 3.0 rag_core\nq1 Q0 a 2 2.0 rag_core\nq1 Q0 b 3 1.0 rag_core\n"
    assert rank_by_score(parse_run(text.splitlines())["q1"]) == ["c", "a", "b"]


def test_our_run_and_qrels_read_identically_by_peer_parsers(tmp_path):
    irm = pytest.importorskip("ir_measures")
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = random_qrels_and_run(3)
    qpath, rpath = tmp_path / "q.qrels", tmp_path / "r.run"
    write_qrels(qrels, qpath)
    write_run(run, rpath)
    their_run: dict[str, dict[str, float]] = {}
    for sd in irm.read_trec_run(str(rpath)):
        their_run.setdefault(sd.query_id, {})[sd.doc_id] = sd.score
    their_qrels: dict[str, dict[str, int]] = {}
    for qr in irm.read_trec_qrels(str(qpath)):
        their_qrels.setdefault(qr.query_id, {})[qr.doc_id] = qr.relevance
    assert their_run == read_run(rpath) == run
    assert their_qrels == read_qrels(qpath) == qrels
    with open(rpath) as fh:
        assert pytrec_eval.parse_run(fh) == run
    with open(qpath) as fh:
        assert pytrec_eval.parse_qrel(fh) == qrels
    # and the numbers agree with trec_eval on the files we wrote
    theirs = pytrec_eval.RelevanceEvaluator(their_qrels, {"recip_rank", "P.5"}).evaluate(their_run)
    ours = evaluate_run(read_run(rpath), read_qrels(qpath), [5])["per_query"]
    for qid, values in theirs.items():
        if ours[qid]["rr"] is not None:
            assert ours[qid]["rr"] == pytest.approx(values["recip_rank"], abs=1e-12)
            assert ours[qid]["p@5"] == pytest.approx(values["P_5"], abs=1e-12)


def test_ids_with_spaces_raise_or_escape(tmp_path):
    qrels = {"q 1": {"finance - guide.pdf - 4": 1, "100%": 2}}
    with pytest.raises(
        ValueError,
        match=re.escape(
            "query id 'q 1' contains whitespace, which the TREC format cannot carry; "
            "rename it or write with escape=True (percent-encoding)"
        ),
    ):
        write_qrels(qrels, tmp_path / "x")
    assert not (tmp_path / "x").exists()
    write_qrels(qrels, tmp_path / "x", escape=True)
    text = (tmp_path / "x").read_text()
    assert "q%201 0 finance%20-%20guide.pdf%20-%204 1" in text and "100%25" in text
    assert read_qrels(tmp_path / "x", unescape=True) == qrels
    run = {"q 1": {"finance - guide.pdf - 4": 0.5, "문서\u3000둘": 0.25}}
    write_run(run, tmp_path / "r", escape=True)
    assert read_run(tmp_path / "r", unescape=True) == run
    assert unescape_id(escape_id("a b%c\td")) == "a b%c\td"


def test_beir_qrels_with_spaces(tmp_path):
    path = tmp_path / "qrels.tsv"
    path.write_text(
        "query-id\tcorpus-id\tscore\n0_fin\tfinance - 가이드.pdf - 4\t1\n1_fin\tdoc 2\t0\n",
        encoding="utf-8",
    )
    expected = {"0_fin": {"finance - 가이드.pdf - 4": 1}, "1_fin": {"doc 2": 0}}
    assert read_qrels(path, "beir") == expected
    assert read_qrels(path) == expected  # sniffed


@pytest.mark.parametrize("name", ["scifact", "autorag_ko"])
def test_shared_beir_qrels_load(name):
    path = DATASETS / name / "qrels.tsv"
    if not path.exists():
        pytest.skip(f"{path} not present")
    qrels = read_qrels(path)
    rows = [ln for ln in path.read_text(encoding="utf-8").splitlines()[1:] if ln.strip()]
    assert sum(len(v) for v in qrels.values()) == len(rows)


@pytest.mark.parametrize(
    "text,message",
    [
        (
            "q1 0 d1 1\nq1 0 d2\n",
            "<qrels> line 2: expected 4 fields 'qid iteration docid grade', found 3: 'q1 0 d2'",
        ),
        ("q1 0 d1 x\n", "<qrels> line 1: grade 'x' is not an integer"),
        (
            "q1 0 d1 1\n\nq1 0 d1 2\n",
            "<qrels> line 3: query 'q1' judges doc 'd1' twice (first at line 1)",
        ),
    ],
)
def test_qrels_errors_name_the_line(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_qrels(text.splitlines())


@pytest.mark.parametrize(
    "text,message",
    [
        (
            "q1 Q0 d1 1 0.5\n",
            (
                "<run> line 1: expected 6 fields 'qid Q0 docid rank score tag', "
                "found 5: 'q1 Q0 d1 1 0.5'"
            ),
        ),
        ("q1 Q0 d1 one 0.5 t\n", "<run> line 1: rank 'one' is not an integer"),
        ("q1 Q0 d1 1 high t\n", "<run> line 1: score 'high' is not a number"),
        ("q1 Q0 d1 1 nan t\n", "<run> line 1: score 'nan' is not finite"),
        (
            "q1 Q0 d1 1 2 t\nq1 Q0 d1 2 1 t\n",
            "<run> line 2: query 'q1' lists doc 'd1' twice (first at line 1)",
        ),
    ],
)
def test_run_errors_name_the_line(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_run(text.splitlines())


def test_file_errors_name_the_file(tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("query-id\tcorpus-id\tscore\nq1\td1\n", encoding="utf-8")
    with pytest.raises(
        ValueError,
        match=re.escape(
            f"{bad} line 2: expected 3 tab-separated fields 'query-id corpus-id score', "
            "found 2: 'q1\\td1'"
        ),
    ):
        read_qrels(bad)
    with pytest.raises(ValueError, match=re.escape(f"{tmp_path / 'none'}: file not found")):
        read_run(tmp_path / "none")
    binary = tmp_path / "bin.run"
    binary.write_bytes(b"q1 Q0 \xff 1 1 t\n")
    with pytest.raises(ValueError, match=re.escape(f"{binary}: not UTF-8 text")):
        read_run(binary)
    with pytest.raises(
        ValueError, match=re.escape("unknown qrels format 'csv'; valid choices: auto, trec, beir")
    ):
        read_qrels(bad, "csv")


def test_non_integer_grade_is_rejected_on_write(tmp_path):
    with pytest.raises(
        ValueError, match=re.escape("grade of query 'q' doc 'd' must be an integer; got 1.5")
    ):
        write_qrels({"q": {"d": 1.5}}, tmp_path / "g")
    assert not (tmp_path / "g").exists()
