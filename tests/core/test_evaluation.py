"""Aggregation for the eval CLI and the Evaluate page: means, intervals, comparison, breakdown."""

from __future__ import annotations

import json
import math
import re

import pytest

from rag_core.evaluation.aggregate import (
    EvalResult,
    breakdown,
    compare_results,
    curve,
    evaluate_queries,
    per_query_rows,
)
from rag_core.evaluation.metrics import evaluate_ranking
from rag_core.evaluation.stats import (
    bootstrap_interval,
    mean_with_interval,
    sign_test,
    wilson_interval,
)
from rag_core.types import dumps, to_jsonable

GOLD = {
    "q1": {"A": 1, "B": 1},  # ranking C A D → rr 1/2
    "q2": {"A": 1},  # ranking A C → rr 1
    "q3": {"B": 1},  # ranking C D → rr 0
    "q4": {},  # no gold: not judged
}
RANKINGS = {"q1": ["C", "A", "D"], "q2": ["A", "C"], "q3": ["C", "D"], "q4": ["A"]}


def test_evaluate_queries_means_wilson_for_binary_and_bootstrap_for_graded():
    r = evaluate_queries(RANKINGS, GOLD, [1, 3])
    assert r.n_queries == 3
    assert r.not_judged == ("q4",)
    assert r.judged == ("q1", "q2", "q3")
    assert r.first_gold_rank == {"q1": 2, "q2": 1, "q3": None, "q4": None}
    rr = r.means["rr"]
    assert rr.mean == pytest.approx((1 / 2 + 1 + 0) / 3)
    # RR is graded (1/2 is no success count): the percentile bootstrap, not Wilson
    assert (rr.low, rr.high) == bootstrap_interval([1 / 2, 1.0, 0.0], n_resamples=2000)
    assert rr.n == 3 and rr.method == "bootstrap" and rr.n_resamples == 2000
    hit3 = r.means["hit@3"]
    assert hit3.mean == pytest.approx(2 / 3)
    assert (hit3.low, hit3.high) == pytest.approx(wilson_interval(2, 3))
    assert hit3.method == "wilson" and hit3.unit == "query"
    assert r.per_query["q1"] == evaluate_ranking(RANKINGS["q1"], GOLD["q1"], [1, 3])
    assert set(r.per_query["q4"].values()) == {None}


def test_destroyed_answers_count_as_zero_when_declared_judged():
    gold = {"q1": {"A": 1}, "q2": {}}  # q2's needle was cut by the chunker
    rankings = {"q1": ["A"], "q2": ["X"]}
    dropped = evaluate_queries(rankings, gold, [1])
    kept = evaluate_queries(rankings, gold, [1], judged={"q1", "q2"})
    assert dropped.means["recall@1"].mean == 1.0  # flattering: q2 vanished
    assert kept.means["recall@1"].mean == pytest.approx((1 + 0) / 2)
    assert kept.not_judged == () and kept.first_gold_rank["q2"] is None


def test_query_missing_from_rankings_is_an_empty_ranking_and_extras_are_not_judged():
    r = evaluate_queries({"q1": ["A"], "stray": ["A"]}, {"q1": {"A": 1}, "q2": {"B": 2}}, [1])
    assert set(r.per_query["q2"].values()) == {0.0}
    assert r.not_judged == ("stray",)
    assert r.means["hit@1"].mean == pytest.approx(1 / 2)


def test_nothing_judged_gives_none_means():
    r = evaluate_queries({"q": ["A"]}, {"q": {}}, [1])
    assert r.n_queries == 0 and set(r.means.values()) == {None}


def test_bootstrap_interval_option_and_bad_method():
    r = evaluate_queries(RANKINGS, GOLD, [3], interval="bootstrap")
    values = [r.per_query[q]["ndcg@3"] for q in r.judged]
    assert r.means["ndcg@3"] == mean_with_interval(values, "bootstrap", n_resamples=2000)
    with pytest.raises(
        ValueError,
        match=re.escape("unknown interval method 'normal'; valid choices: auto, wilson, bootstrap"),
    ):
        evaluate_queries(RANKINGS, GOLD, [3], interval="normal")


def test_compare_results_per_metric():
    a_rank = {f"q{i}": ["g"] if i < 18 else ["x", "g"] for i in range(30)}
    b_rank = {f"q{i}": ["x", "g"] if i < 18 else ["g"] for i in range(30)}
    for i in range(21, 30):  # 9 ties: both at rank 1
        a_rank[f"q{i}"] = b_rank[f"q{i}"] = ["g"]
    gold = {f"q{i}": {"g": 1} for i in range(30)}
    a = evaluate_queries(a_rank, gold, [1, 2])
    b = evaluate_queries(b_rank, gold, [1, 2])
    cmp = compare_results(a, b, label_a="E", label_b="A")
    assert set(cmp) == set(a.metrics)
    hit1 = cmp["hit@1"]
    assert (hit1.wins, hit1.losses, hit1.ties, hit1.n) == (18, 3, 9, 30)
    assert hit1.p == sign_test(18, 3)
    assert (hit1.verdict, hit1.label_a, hit1.label_b) == ("a_better", "E", "A")
    hit2 = cmp["hit@2"]
    assert (hit2.wins, hit2.losses, hit2.ties) == (0, 0, 30) and hit2.p == 1.0
    assert cmp["rr"].mean_diff == pytest.approx((18 * (1 - 1 / 2) - 3 * (1 - 1 / 2)) / 30)


def test_compare_results_uses_queries_judged_in_both_and_common_cutoffs():
    a = evaluate_queries({"q1": ["A"], "q2": ["B"]}, {"q1": {"A": 1}, "q2": {"B": 1}}, [1, 5])
    b = evaluate_queries({"q1": ["X"], "q2": ["B"]}, {"q1": {"A": 1}, "q2": {}}, [1, 10])
    cmp = compare_results(a, b)
    assert "hit@5" not in cmp and "hit@10" not in cmp
    assert cmp["hit@1"].n == 1 and cmp["hit@1"].wins == 1
    c = evaluate_queries({"q2": ["B"]}, {"q2": {"B": 1}}, [1])
    with pytest.raises(
        ValueError,
        match=re.escape("no query is judged in both results (1 vs 1 judged): nothing to compare"),
    ):
        compare_results(b, c)


def test_breakdown_by_tag():
    r = evaluate_queries(RANKINGS, GOLD, [3])
    tags = {"q1": ["ko", "multi"], "q2": ["ko"], "q3": ["en"], "q4": ["en", "ood"]}
    out = breakdown(r, tags)
    assert list(out) == ["ko", "multi", "en", "ood"]
    assert out["ko"]["rr"].mean == pytest.approx((1 / 2 + 1) / 2) and out["ko"]["rr"].n == 2
    assert out["en"]["rr"].n == 1  # q4 is not judged
    assert out["ood"] == {}
    with pytest.raises(
        ValueError, match=re.escape("tags of query 'q1' must be a list of strings, not a string")
    ):
        breakdown(r, {"q1": "ko"})


def test_curve_rows_and_json():
    r = evaluate_queries(RANKINGS, GOLD, [3, 1, 2])
    ks = [k for k, _ in curve(r, "recall")]
    assert ks == [1, 2, 3]
    assert [m.mean for _, m in curve(r, "recall")] == pytest.approx(
        [1 / 3, (1 / 2 + 1) / 3, (1 / 2 + 1) / 3]
    )
    with pytest.raises(
        ValueError,
        match=re.escape("metric 'rr' has no cutoff; curves exist for hit, recall, p, ndcg"),
    ):
        curve(r, "rr")
    rows = per_query_rows(r)
    assert rows[0]["qid"] == "q1" and rows[0]["first_gold_rank"] == 2 and rows[3]["judged"] is False
    doc = json.loads(dumps(r))
    assert doc["means"]["rr"]["n"] == 3 and doc["not_judged"] == ["q4"]
    assert doc["per_query"]["q4"]["rr"] is None
    assert isinstance(to_jsonable(compare_results(r, r)), dict)
    assert isinstance(r, EvalResult) and math.isfinite(doc["means"]["ap"]["low"])
