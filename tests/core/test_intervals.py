"""Intervals that match the data (issue 27): Wilson only for per-query 0/1 metrics, the
percentile bootstrap for graded ones, a question's phrasings as one cluster — checked
against scipy on small inline data."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from rag_core.evaluation.aggregate import breakdown, compare_results, evaluate_queries
from rag_core.evaluation.stats import (
    BOOTSTRAP_RESAMPLES,
    bootstrap_interval,
    cluster_means,
    is_binary,
    metric_intervals,
    wilson_interval,
)

GRADED = [0.0, 0.2, 0.25, 0.5, 0.5, 1 / 3, 1.0, 0.1, 0.0, 0.75, 0.6, 0.9]
BINARY = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0]


def test_our_percentile_bootstrap_agrees_with_scipy():
    ours = bootstrap_interval(GRADED, n_resamples=20_000, seed=1)
    res = sps.bootstrap(
        (np.asarray(GRADED),),
        np.mean,
        n_resamples=20_000,
        method="percentile",
        confidence_level=0.95,
        rng=np.random.default_rng(2),
    )
    theirs = (res.confidence_interval.low, res.confidence_interval.high)
    # two independent Monte Carlo runs of the same percentile interval
    assert ours == pytest.approx(theirs, abs=0.01)


def test_auto_is_wilson_for_binary_and_bootstrap_for_graded():
    out = metric_intervals({"hit@3": BINARY, "ndcg@3": GRADED})
    hit, ndcg = out["hit@3"], out["ndcg@3"]
    assert hit.method == "wilson" and hit.n_resamples == 0
    ci = sps.binomtest(8, 12).proportion_ci(confidence_level=0.95, method="wilson")
    assert (hit.low, hit.high) == pytest.approx((ci.low, ci.high))
    assert ndcg.method == "bootstrap" and ndcg.n_resamples == BOOTSTRAP_RESAMPLES
    assert ndcg.mean == pytest.approx(sum(GRADED) / len(GRADED))
    assert (ndcg.low, ndcg.high) == bootstrap_interval(GRADED, n_resamples=BOOTSTRAP_RESAMPLES)


def test_shared_indices_give_each_columns_own_bootstrap():
    cols = {"a": GRADED, "b": [v / 2 for v in GRADED], "c": [0.5] * 5}
    out = metric_intervals(cols, "bootstrap", n_resamples=500, seed=3)
    for key, values in cols.items():
        assert (out[key].low, out[key].high) == bootstrap_interval(values, n_resamples=500, seed=3)


def test_a_graded_metric_with_little_spread_gets_a_narrow_interval():
    # P@10 of 400 queries, nearly all 0.1: the data's standard error is tiny, while a
    # Wilson interval of the "sum of successes" 40.x of 400 is about ±0.03.
    values = [0.1] * 398 + [0.2, 0.0]
    m = metric_intervals({"p@10": values})["p@10"]
    assert m.method == "bootstrap"
    se = float(np.std(values, ddof=1)) / math.sqrt(len(values))
    low_w, high_w = wilson_interval(sum(values), len(values))
    assert (m.high - m.low) < (high_w - low_w) / 10
    t_low, t_high = sps.t.interval(0.95, len(values) - 1, loc=np.mean(values), scale=se)
    assert m.high - m.low <= (t_high - t_low) * 1.5  # same order as the t interval


def test_is_binary():
    assert is_binary([0.0, 1.0, 1]) and not is_binary([0.0, 0.5]) and is_binary([])


def test_cluster_means_average_each_questions_phrasings():
    values = {"q1#0": 1.0, "q1#1": 0.0, "q2#0": 1.0, "solo": 0.25}
    clusters = {"q1#0": "q1", "q1#1": "q1", "q2#0": "q2"}
    assert cluster_means(values, clusters) == {"q1": 0.5, "q2": 1.0, "solo": 0.25}
    assert cluster_means(values) == values


# two questions × two phrasings: q1's phrasings disagree on hit@1, q2's and q3's agree
RANKINGS = {
    "q1#0": ["A"],
    "q1#1": ["X", "A"],
    "q2#0": ["B"],
    "q2#1": ["B"],
    "q3#0": ["X"],
    "q3#1": ["X"],
}
GOLD = {
    "q1#0": {"A": 1},
    "q1#1": {"A": 1},
    "q2#0": {"B": 1},
    "q2#1": {"B": 1},
    "q3#0": {"C": 1},
    "q3#1": {"C": 1},
}
CLUSTERS = {q: q.split("#")[0] for q in RANKINGS}


def test_phrasings_are_one_cluster_in_the_means_and_intervals():
    r = evaluate_queries(RANKINGS, GOLD, [1, 3], judged=set(RANKINGS), clusters=CLUSTERS)
    assert r.n_queries == 6
    hit1 = r.means["hit@1"]
    # per question: q1 = (1 + 0)/2, q2 = 1, q3 = 0 → graded, so the bootstrap over 3 questions
    assert hit1.n == 3 and hit1.unit == "question" and hit1.method == "bootstrap"
    assert hit1.mean == pytest.approx((0.5 + 1 + 0) / 3)
    assert (hit1.low, hit1.high) == bootstrap_interval([0.5, 1.0, 0.0], n_resamples=2000)
    hit3 = r.means["hit@3"]
    # every question's phrasings agree: a proportion of 2 of 3 questions, not 4 of 6 queries
    assert hit3.method == "wilson" and hit3.n == 3
    assert (hit3.low, hit3.high) == pytest.approx(wilson_interval(2, 3))
    flat = evaluate_queries(RANKINGS, GOLD, [3], judged=set(RANKINGS))
    assert flat.means["hit@3"].n == 6  # without clusters each phrasing would count
    width = flat.means["hit@3"].high - flat.means["hit@3"].low
    assert hit3.high - hit3.low > width  # counting phrasings twice narrows the interval
    tags = breakdown(r, {q: ["lang:en"] for q in RANKINGS})
    assert tags["lang:en"]["hit@3"].n == 3


def test_paired_tests_pair_questions_not_phrasings():
    a = evaluate_queries(RANKINGS, GOLD, [1], judged=set(RANKINGS), clusters=CLUSTERS)
    worse = {q: ["Y", *r] for q, r in RANKINGS.items()}
    b = evaluate_queries(worse, GOLD, [1], judged=set(RANKINGS), clusters=CLUSTERS)
    c = compare_results(a, b)["hit@1"]
    assert c.n == 3 and (c.wins, c.losses, c.ties) == (2, 0, 1)
    assert c.unit == "question"  # what the readout counts: questions, not queries
    flat_a = evaluate_queries(RANKINGS, GOLD, [1], judged=set(RANKINGS))
    flat_b = evaluate_queries(worse, GOLD, [1], judged=set(RANKINGS))
    assert compare_results(flat_a, flat_b)["hit@1"].unit == "query"
