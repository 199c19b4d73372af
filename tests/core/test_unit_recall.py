"""Needle-level recall: a needle counts once however many chunks contain it."""

import random

import pytest
import pytrec_eval

from rag_core.evaluation.aggregate import evaluate_queries
from rag_core.evaluation.metrics.recall import unit_recall


def test_two_needles_one_found():
    # needle 1 lies in chunks a and b (overlap), needle 2 in chunk z only
    units = [{"a", "b"}, {"z"}]
    assert unit_recall(["x", "b", "y"], units, 3) == 1 / 2
    assert unit_recall(["a", "b", "z"], units, 2) == 1 / 2
    assert unit_recall(["a", "b", "z"], units, 3) == 2 / 2


def test_destroyed_needle_stays_in_denominator():
    assert unit_recall(["a"], [{"a"}, set()], 5) == 1 / 2
    assert unit_recall([], [set()], 5) == 0.0


def test_equals_trec_eval_on_needle_qrels():
    """Map each chunk to the needles it holds; trec_eval recall on needles must agree."""
    rng = random.Random(7)
    for _ in range(200):
        chunks = [f"c{i}" for i in range(30)]
        units = [set(rng.sample(chunks, rng.randint(1, 3))) for _ in range(rng.randint(1, 3))]
        ranking = rng.sample(chunks, 15)
        k = rng.choice([1, 3, 5, 10])
        # run over needles: rank of a needle = first rank of a chunk holding it
        run = {}
        for r, c in enumerate(ranking[:k]):
            for j, u in enumerate(units):
                if c in u and f"n{j}" not in run:
                    run[f"n{j}"] = float(100 - r)
        qrels = {"q": {f"n{j}": 1 for j in range(len(units))}}
        ev = pytrec_eval.RelevanceEvaluator(qrels, {"recall"})
        expected = ev.evaluate({"q": run or {"none": 0.0}})["q"]["recall_1000"]
        assert unit_recall(ranking, units, k) == pytest.approx(expected)


def test_evaluate_queries_uses_units_and_judges_destroyed():
    rankings = {"q1": ["a", "x"], "q2": ["y"]}
    gold = {"q1": {"a": 1, "b": 1, "z": 1}, "q2": {}}
    units = {"q1": [{"a", "b"}, {"z"}], "q2": [set()]}
    res = evaluate_queries(rankings, gold, [2], judged={"q1", "q2"}, units=units)
    assert res.per_query["q1"]["recall@2"] == 1 / 2  # one of two needles
    assert res.per_query["q1"]["hit@2"] == 1.0
    assert res.per_query["q2"]["recall@2"] == 0.0  # destroyed: judged, scores 0
    assert res.n_queries == 2
