"""evaluate_queries against the composition it stands for, on random question sets.

evaluate_queries computes each query in one pass (evaluate_checked) and its
Wilson means without per-value checks; the result must equal, bit for bit,
evaluate_ranking + first_relevant_rank + unit_recall per query and
mean_with_interval per metric.
"""

from __future__ import annotations

import random
import re

import pytest

from rag_core.evaluation.aggregate import EvalResult, breakdown, evaluate_queries
from rag_core.evaluation.metrics import (
    evaluate_ranking,
    first_relevant_rank,
    metric_keys,
    unit_recall,
)
from rag_core.evaluation.stats import mean_with_interval

POOL = [f"c{i:03d}" for i in range(120)]


def reference(rankings, gold, ks, gain, judged, interval, units) -> EvalResult:
    """The per-query composition, written out with the public one-query functions."""
    keys = metric_keys(ks)
    per_query, first_gold, not_judged = {}, {}, []
    for qid in list(gold) + [q for q in rankings if q not in gold]:
        ranking = list(rankings.get(qid, ()))
        grades = gold.get(qid, {})
        values = evaluate_ranking(ranking, grades, ks, gain, judged=qid in judged or None)
        if values[keys[0]] is None:
            not_judged.append(qid)
            first_gold[qid] = None
        else:
            if units is not None and qid in units:
                for k in sorted(set(ks)):
                    values[f"recall@{k}"] = unit_recall(ranking, units[qid], k)
            first_gold[qid] = first_relevant_rank(ranking, grades)
        per_query[qid] = values
    scored = [q for q in per_query if q not in set(not_judged)]
    means = {}
    for key in keys:
        values = [v for q in scored if (v := per_query[q][key]) is not None]
        means[key] = _reference_mean(values, interval) if values else None
    return EvalResult(
        ks=tuple(sorted(set(ks))),
        gain=gain,
        metrics=keys,
        per_query=per_query,
        means=means,
        n_queries=len(scored),
        not_judged=tuple(not_judged),
        first_gold_rank=first_gold,
        interval=interval,
    )


def _reference_mean(values, interval):
    """``auto``: Wilson for 0/1 values, else the bootstrap (2,000 resamples, as evaluations)."""
    if interval == "auto":
        interval = "wilson" if all(v in (0.0, 1.0) for v in values) else "bootstrap"
    if interval == "bootstrap":
        return mean_with_interval(values, "bootstrap", n_resamples=2000)
    return mean_with_interval(values, interval)


def question_set(rng: random.Random, n: int):
    rankings, gold = {}, {}
    for i in range(n):
        qid = f"q{i}"
        if rng.random() < 0.9:
            ranking = rng.sample(POOL, rng.choice([0, 1, 10, 100]))
            rankings[qid] = ranking if rng.random() < 0.7 else tuple(ranking)
        if rng.random() < 0.9:
            judged_ids = rng.sample(POOL, rng.randint(0, 12))
            gold[qid] = {d: rng.choice([0, 1, 1, 2, 3]) for d in judged_ids}
    return rankings, gold


@pytest.mark.parametrize("gain", ["binary", "exp", "linear"])
@pytest.mark.parametrize("interval", ["auto", "wilson", "bootstrap"])
def test_evaluate_queries_equals_the_one_query_composition(gain, interval):
    rng = random.Random(f"{gain}-{interval}")
    for _ in range(12 if interval == "wilson" else 2):
        rankings, gold = question_set(rng, rng.randint(1, 40))
        qids = sorted(set(rankings) | set(gold))
        judged = set(rng.sample(qids, rng.randint(0, len(qids))))
        units = None
        if rng.random() < 0.5:
            units = {
                q: [set(rng.sample(POOL, rng.randint(0, 3))) for _ in range(rng.randint(0, 3))]
                for q in gold
            }
        ks = rng.sample([1, 3, 10, 100], rng.randint(1, 3))
        ours = evaluate_queries(
            rankings, gold, ks, gain, judged=judged, interval=interval, units=units
        )
        theirs = reference(rankings, gold, ks, gain, judged, interval, units)
        assert ours == theirs
        assert [list(v) for v in ours.per_query.values()] == [
            list(v) for v in theirs.per_query.values()
        ]
        tags = {q: rng.sample(["a", "b", "c"], rng.randint(0, 2)) for q in qids}
        assert breakdown(ours, tags) == breakdown(theirs, tags)


def test_evaluate_queries_errors_stay_those_of_the_one_query_functions():
    with pytest.raises(ValueError, match=re.escape("ranking lists id 'a' more than once")):
        evaluate_queries({"q": ["a", "b", "a"]}, {"q": {"a": 1}}, [1], "log")
    with pytest.raises(ValueError, match=re.escape("unknown gain 'log'")):
        evaluate_queries({"q": ["a"]}, {"q": {"a": 1}}, [1], "log")
    # no query to evaluate: the gain is never looked up, as before
    assert evaluate_queries({}, {}, [1], "log").n_queries == 0
    with pytest.raises(
        ValueError, match=re.escape("cutoff k must be a positive integer; got True")
    ):
        evaluate_queries({"q": ["a"]}, {"q": {"a": 1}}, [True])
    with pytest.raises(ValueError, match=re.escape("unknown interval method 'normal'")):
        evaluate_queries({"q": ["a"]}, {"q": {"a": 1}}, [0], interval="normal")
