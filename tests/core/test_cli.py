"""`python -m rag_core …`: the documented command forms, JSON on stdout, one-line errors."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import replace

import pytest
import pytrec_eval
from helpers.paths import ROOT

from rag_core.cli import main

DOC = ROOT / "sample_corpus" / "docs" / "en" / "en-course-01-evaluation.md"


def run_cli(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_chunk_json_rows_hold_the_offset_invariant(capsys):
    code, out, err = run_cli(
        capsys,
        "chunk",
        "--doc",
        str(DOC),
        "--title",
        "Evaluation",
        "--strategy",
        "boundaries",
        "--header",
        "--overlap",
        "64",
        "--target",
        "512",
        "--json",
    )
    assert code == 0, err
    rows = json.loads(out)
    text = DOC.read_text(encoding="utf-8").split("---\n", 2)[2].lstrip("\n")
    assert rows and set(rows[0]) == {
        "chunk_id",
        "doc_id",
        "start",
        "end",
        "own_start",
        "content",
        "text",
        "section",
        "tokens",
    }
    for r in rows:
        assert text[r["start"] : r["end"]] == r["content"]
        assert r["text"].startswith("[Evaluation") and r["text"].endswith(r["content"])
        assert r["start"] <= r["own_start"] < r["end"] and r["tokens"] > 0


def test_query_prints_the_trace(capsys):
    code, out, err = run_cli(
        capsys,
        "query",
        "한라산의 높이는?",
        "--preset",
        "C",
        "--set",
        "retrieval.analyzer=char",
        "--set",
        "retrieval.k=5",
        "--set",
        "generation.model=none",
        "--json",
    )
    assert code == 0, err
    t = json.loads(out)
    assert t["config"]["chunker"]["strategy"] == "boundaries"
    assert len(t["retrieval"]["hits"]) == 5 and t["retrieval"]["lists"][0]["analyzer"] == "char"
    assert t["generation"]["status"] == "skipped"


def test_set_chunker_preset_works_as_in_the_url(capsys):
    from rag_core.config import preset
    from ui.state import config_from_url

    code, out, err = run_cli(
        capsys,
        "query",
        "한라산의 높이는?",
        "--set",
        "chunker.preset=B",
        "--set",
        "chunker.overlap=32",
        "--set",
        "generation.model=none",
        "--json",
    )
    assert code == 0, err
    url_config, problems = config_from_url(
        "http://h/inspect?chunker.preset=B&chunker.overlap=32&generation.model=none"
    )
    assert problems == []
    assert json.loads(out)["config"] == url_config.to_dict()
    assert url_config.chunker == replace(preset("B").chunker, overlap=32)


def test_choice_lists_come_from_the_constants_that_define_them(capsys):
    from rag_core.cli.labels import LABEL_EXPORT_FORMATS
    from rag_core.config import CHUNK_STRATEGIES
    from rag_core.evaluation.metrics import GAINS
    from rag_core.evaluation.sweep import METRIC_CHOICES

    cases = [
        (["chunk", "--doc", str(DOC), "--strategy", "nope"], CHUNK_STRATEGIES),
        (["metrics", "--qrels", "q", "--run", "r", "--gain", "nope"], GAINS.names()),
        (["sweep", "--metric", "nope"], METRIC_CHOICES),
        (["labels", "export", "--format", "nope"], LABEL_EXPORT_FORMATS),
    ]
    for argv, names in cases:
        code, _out, err = run_cli(capsys, *argv)
        assert code == 2
        listed = err.split("(choose from ", 1)[1].rsplit(")", 1)[0]
        assert [n.strip().strip("'") for n in listed.split(",")] == list(names)


def test_metrics_equals_trec_eval_on_a_random_run(tmp_path, capsys):
    rng = random.Random(3)
    qrels = {
        f"q{i}": {f"d{j}": rng.randint(0, 3) for j in rng.sample(range(40), 6)} for i in range(20)
    }
    run = {q: {f"d{j}": rng.random() for j in rng.sample(range(40), 15)} for q in qrels}
    (tmp_path / "qrels").write_text(
        "".join(f"{q} 0 {d} {g}\n" for q, ds in qrels.items() for d, g in ds.items())
    )
    (tmp_path / "run").write_text(
        "".join(
            f"{q} Q0 {d} {r} {s:.6f} t\n"
            for q, ds in run.items()
            for r, (d, s) in enumerate(sorted(ds.items(), key=lambda x: -x[1]), 1)
        )
    )
    code, out, err = run_cli(
        capsys,
        "metrics",
        "--qrels",
        str(tmp_path / "qrels"),
        "--run",
        str(tmp_path / "run"),
        "--k",
        "10",
        "--json",
    )
    assert code == 0, err
    ours = json.loads(out)
    runs = {q: {d: round(s, 6) for d, s in ds.items()} for q, ds in run.items()}
    peer = pytrec_eval.RelevanceEvaluator(
        qrels, {"P_10", "recall_10", "ndcg_cut_10", "recip_rank", "map"}
    ).evaluate(runs)
    judged = [q for q in qrels if any(g > 0 for g in qrels[q].values())]
    for ours_key, peer_key in [
        ("p@10", "P_10"),
        ("recall@10", "recall_10"),
        ("rr", "recip_rank"),
        ("ap", "map"),
    ]:
        assert ours["mean"][ours_key] == pytest.approx(
            sum(peer[q][peer_key] for q in judged) / len(judged)
        )
    binary = {q: {d: int(g > 0) for d, g in ds.items()} for q, ds in qrels.items()}
    peer_b = pytrec_eval.RelevanceEvaluator(binary, {"ndcg_cut_10"}).evaluate(runs)
    assert ours["mean"]["ndcg@10"] == pytest.approx(
        sum(peer_b[q]["ndcg_cut_10"] for q in judged) / len(judged)
    )


def test_eval_compare_has_means_intervals_and_sign_tests(capsys):
    code, out, err = run_cli(
        capsys,
        "eval",
        "--queries",
        str(ROOT / "sample_corpus" / "questions" / "en.jsonl"),
        "--config",
        "A",
        "--compare",
        "E",
        "--k",
        "1,8",
        "--set",
        "generation.model=none",
        "--json",
    )
    assert code == 0, err
    data = json.loads(out)
    a = data["a"]
    assert a["chunker_signature"] == "blind-t512" and a["answers_destroyed"] >= 1
    m = a["means"]["recall@8"]
    # a question's phrasings are one unit: n counts questions (issue 27)
    grouped = a["n_queries"] > a["n_questions"]
    assert m["unit"] == ("question" if grouped else "query")
    assert m["low"] <= m["mean"] <= m["high"] and m["n"] == a["n_questions"]
    assert a["means"]["hit@1"]["method"] in ("wilson", "bootstrap")
    assert a["means"]["ndcg@8"]["method"] == "bootstrap"
    assert a["means"]["ndcg@8"]["n_resamples"] == 2000
    cmp = data["comparison"]["hit@8"]
    assert cmp["wins"] + cmp["losses"] + cmp["ties"] == a["n_questions"] and 0 < cmp["p"] <= 1
    assert cmp["verdict"] in ("a_better", "b_better", "not_distinguishable")
    assert "reading" not in cmp and "reading_ko" not in cmp  # a code, no sentence, in the JSON


@pytest.mark.parametrize(
    "argv, message",
    [
        ([], "error: python -m rag_core: choose a command"),
        (
            ["query", "x", "--preset", "Z"],
            "error: unknown preset 'Z'; valid choices: A, B, C, D, E, F",
        ),
        (["query", "x", "--set", "retrieval.k"], "error: --set 'retrieval.k': expected key=value"),
        (["query", "x", "--set", "retrieval.k=0"], "error: retrieval.k = 0 is out of range"),
        (
            ["query", "x", "--set", "chunker.preset=Z"],
            "error: chunker.preset = 'Z' is not valid; valid choices: A, B, C, D, E, F",
        ),
        (
            ["query", "x", "--config", "/nope.json"],
            "error: config '/nope.json' is neither a preset",
        ),
        (["metrics", "--qrels", "/nope", "--run", "/nope"], "error:"),
        (["eval", "--queries", "/nope.jsonl"], "error: question set /nope.jsonl does not exist"),
        (["chunk", "--doc", "/nope.md", "--strategy", "blind"], "error:"),
        (
            ["chunk", "--doc", str(DOC), "--strategy", "semantic"],
            "error: python -m rag_core chunk: argument --strategy",
        ),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith(message) and err.count("\n") == 1


def test_module_entry_point_reports_without_traceback():
    r = subprocess.run(
        [sys.executable, "-m", "rag_core", "query", "x", "--set", "chunker.overlap=900"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert (
        r.stderr.strip() == "error: chunker.overlap = 900 must be smaller than chunker.target = 512"
    )
