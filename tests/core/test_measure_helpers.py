"""Pure helpers behind the Evaluate and Threshold pages: cache keys, tag groups, rows, CSV,
JSON, slider range."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from dataclasses import replace

import pytest
from helpers.paths import ROOT
from helpers.sweep import data_of as _data

from rag_core.config import PipelineConfig
from rag_core.evaluation import sweep, sweep_collect
from rag_core.evaluation.aggregate import per_query_rows
from rag_core.evaluation.run import (
    compare_configs,
    evaluate_config,
    per_query_table,
    question_rows,
    ranking_config,
    report_dict,
    tag_group,
)
from rag_core.formats.spreadsheet import rows_csv
from rag_core.types import Needle, Question, to_jsonable

QUESTIONS = (
    Question(
        id="h",
        lang="ko",
        question="한라산 높이",
        phrasings=("한라산 높이는?", "한라산은 얼마나 높아?"),
        needles=(Needle(doc_id="jeju", text="해발 1,947m"),),
        tags=("numeric", "fm3-korean-particle"),
    ),
    Question(
        id="e",
        lang="en",
        question="What does error E17 mean?",
        needles=(Needle(doc_id="kv", text="Error E17 means the door latch did not close."),),
        tags=("exact-id",),
    ),
    Question(id="u", lang="en", question="How do I renew a passport?", answerable=False),
)


def test_ranking_config_keeps_only_what_decides_the_ranking():
    base = PipelineConfig()
    later = base.with_overrides(
        {
            "gate.max_distance": "0.6",
            "gate.max_kept": "2",
            "context.budget_tokens": "512",
            "generation.model": "none",
            "support.min_overlap": "0.9",
        }
    )
    assert ranking_config(later) == ranking_config(base) == base
    for key, value in (
        ("retrieval.k", "3"),
        ("chunker.overlap", "64"),
        ("fusion.rrf_k", "10"),
        ("rerank.method", "overlap"),
    ):
        assert ranking_config(base.with_overrides({key: value})) != ranking_config(base), key
    with pytest.raises(ValueError, match=re.escape("expected a PipelineConfig; got dict")):
        ranking_config({})


def test_needles_not_in_the_corpus_are_reported_not_destroyed(tiny_corpus):
    # they were once counted as "answers destroyed", scored 0 and warnings stayed []
    ghost = Question(
        id="g",
        lang="en",
        question="What does E99 mean?",
        needles=(Needle(doc_id="kv", text="Error E99 is not in this manual."),),
    )
    lost_doc = Question(
        id="x",
        lang="en",
        question="Where is the missing file?",
        needles=(Needle(doc_id="no-such-doc", text="anything"),),
    )
    half = replace(
        QUESTIONS[1],
        id="half",
        phrasings=(),
        needles=(*QUESTIONS[1].needles, Needle(doc_id="kv", text="not in the manual either")),
    )
    base = evaluate_config(PipelineConfig(), QUESTIONS, tiny_corpus, ks=(1, 3))
    ev = evaluate_config(
        PipelineConfig(), (*QUESTIONS, ghost, lost_doc, half), tiny_corpus, ks=(1, 3)
    )
    assert ev.destroyed == base.destroyed == ()
    assert set(ev.not_in_corpus) == {"g", "x", "half"}
    assert ev.not_in_corpus["x"] == (("no-such-doc", "anything"),)
    assert "g" not in ev.question_of.values() and "x" not in ev.question_of.values()  # not scored
    assert ev.question_of["half"] == "half"  # scored on the needle that is in the corpus
    assert ev.gold["half"] == base.gold["e"]
    assert ev.result.per_query["half"] == base.result.per_query["e"]
    text = " | ".join(ev.warnings)
    assert "question g: needle not in corpus" in text and "question x: needle not in corpus" in text
    assert ev.to_dict()["needles_not_in_corpus"]["g"] == [
        ["kv", "Error E99 is not in this manual."]
    ]
    with pytest.raises(ValueError, match="no answerable question with gold needles in this corpus"):
        evaluate_config(PipelineConfig(), (ghost,), tiny_corpus, ks=(1,))


@pytest.mark.parametrize(
    ("tag", "group"),
    [
        ("lang:ko", "language"),
        ("fm1-blind-cut", "failure mode"),
        ("fm10-duplicates", "failure mode"),
        ("fmx-thing", "query type"),
        ("numeric", "query type"),
        ("fm", "query type"),
        ("near-miss", "query type"),
    ],
)
def test_tag_group(tag, group):
    assert tag_group(tag) == group


def test_tag_group_rejects_empty():
    with pytest.raises(ValueError, match=re.escape("a tag must be a non-empty string; got ''")):
        tag_group("")


@pytest.fixture()
def two_evaluations(tiny_corpus):
    a = evaluate_config(PipelineConfig(), QUESTIONS, tiny_corpus, ks=(1, 3))
    b = evaluate_config(
        PipelineConfig().with_overrides({"retrieval.analyzer": "char"}),
        QUESTIONS,
        tiny_corpus,
        ks=(1, 3),
    )
    return a, b


def naive_first_gold(ranking, grades):
    for i, cid in enumerate(ranking, 1):
        if grades.get(cid, 0) > 0:
            return i
    return None


def test_question_rows_give_the_first_gold_rank_of_each_config(two_evaluations):
    a, b = two_evaluations
    rows = question_rows(a, b)
    assert [r["query_id"] for r in rows] == [
        "h#0",
        "h#1",
        "e",
    ]  # the unanswerable question is not scored
    for r in rows:
        q = r["query_id"]
        assert r["first_gold_a"] == naive_first_gold(a.rankings[q], a.gold[q])
        assert r["first_gold_b"] == naive_first_gold(b.rankings[q], b.gold[q])
        assert r["text"] == a.query_text[q]
        assert r["tags"] == ", ".join(a.tags[q])
    # character n-grams find the gold of every query of this tiny corpus
    assert all(r["first_gold_b"] is not None for r in rows)
    assert "first_gold_b" not in question_rows(a)[0]


def test_per_query_table_and_csv_round_trip(two_evaluations):
    a, b = two_evaluations
    rows = per_query_table({"A": a, "B": b})
    assert len(rows) == len(a.result.per_query) + len(b.result.per_query)
    assert rows[0]["config"] == "A" and rows[-1]["config"] == "B"
    back = list(csv.DictReader(io.StringIO(rows_csv(rows))))
    assert len(back) == len(rows)
    ref = per_query_rows(a.result)
    for got, want in zip(back, ref, strict=False):
        assert got["query_id"] == want["qid"]
        assert float(got["recall@3"]) == pytest.approx(want["recall@3"])
        assert got["first_gold_rank"] == (
            "" if want["first_gold_rank"] is None else str(want["first_gold_rank"])
        )


def test_rows_csv_columns_in_first_seen_order_and_none_empty():
    text = rows_csv([{"a": 1, "b": None}, {"c": "x,y", "a": 2}])
    assert text == 'a,b,c\n1,,\n2,,"x,y"\n'


def test_report_dict_is_what_the_eval_cli_prints(two_evaluations):
    a, b = two_evaluations
    out = report_dict(a, b)
    assert out["a"] == a.to_dict() and out["b"] == b.to_dict()
    assert out["comparison"] == to_jsonable(compare_configs(a, b))
    assert set(report_dict(a)) == {"a"}


def test_report_dict_equals_the_cli_on_the_sample_corpus():
    """CLI parity: ``python -m rag_core eval --json`` prints the same numbers the page shows."""
    from rag_core.formats.questions import load_questions
    from rag_core.index import load_corpus_index

    path = ROOT / "sample_corpus" / "questions" / "manual.jsonl"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "rag_core",
            "eval",
            "--queries",
            str(path),
            "--k",
            "1,4",
            "--compare",
            "E",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    cli = json.loads(proc.stdout)
    corpus = load_corpus_index()
    qs = load_questions(path)
    a = evaluate_config(ranking_config(PipelineConfig()), qs, corpus, ks=(1, 4))
    from rag_core.config import preset

    b = evaluate_config(ranking_config(preset("E")), qs, corpus, ks=(1, 4))
    assert json.loads(json.dumps(report_dict(a, b))) == cli


# ---------------------------------------------------------------------- sweep


def test_value_range_spans_every_candidate(tiny_corpus):
    data = sweep_collect.collect(PipelineConfig(), QUESTIONS, tiny_corpus)
    values = [c.value for q in data.queries for c in q.candidates]
    assert sweep.value_range(data) == (min(values), max(values))
    lo, hi = sweep.value_range(data)
    # at the permissive end everything passes, beyond the strict end nothing does
    permissive = lo if data.higher_is_better else hi
    assert sweep.counts_at(data, permissive, None).refused_answerable == sum(
        1 for q in data.queries if q.answerable and not q.candidates
    )
    beyond = hi + 1.0 if data.higher_is_better else lo - 1.0
    counts = sweep.counts_at(data, beyond, None)
    assert counts.refused_answerable + counts.refused_unanswerable == len(data.queries)


def test_value_range_of_no_candidates_is_none():
    assert sweep.value_range(_data([], "score")) is None


def _query(qid, values, answerable=True):
    cands = tuple(sweep.Candidate(f"{qid}-{i}", "d", i, v, False) for i, v in enumerate(values, 1))
    return sweep.QueryCandidates(qid, qid, qid, answerable, cands, False)


def test_midpoint_threshold_is_halfway_between_the_group_medians():
    qs = [
        _query("a1", [0.3, 0.5]),
        _query("a2", [0.6, 0.4]),
        _query("a3", [0.7]),
        _query("a4", []),
        _query("u1", [0.8], False),
        _query("u2", [0.9, 0.65], False),
    ]
    # best distance per query: a1 0.3, a2 0.4, a3 0.7 (a4 has none); u1 0.8, u2 0.65
    assert sweep.midpoint_threshold(_data(qs)) == pytest.approx((0.4 + (0.8 + 0.65) / 2) / 2)
    # scores: the best is the highest value
    assert sweep.midpoint_threshold(_data(qs, "score")) == pytest.approx(
        (0.6 + (0.8 + 0.9) / 2) / 2
    )
    assert sweep.midpoint_threshold(_data(qs[:4])) is None  # no unanswerable query
    assert sweep.midpoint_threshold(_data([_query("a", []), _query("u", [0.5], False)])) is None


def test_evaluate_config_says_when_a_model_is_missing(tiny_corpus):
    cfg = PipelineConfig().with_overrides(
        {"retrieval.methods": "bm25,dense", "retrieval.dense_model": "/no/such/model"}
    )
    ev = evaluate_config(cfg, QUESTIONS, tiny_corpus, ks=(1, 3))
    assert len(ev.warnings) == 1 and ev.warnings[0].startswith("dense:/no/such/model unavailable: ")
    assert ev.to_dict()["warnings"] == list(ev.warnings)
    assert evaluate_config(PipelineConfig(), QUESTIONS, tiny_corpus, ks=(1, 3)).warnings == ()
