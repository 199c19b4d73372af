"""Rank metrics: hand-worked figures written as formulas, conventions, errors, and peers.

Peers: pytrec_eval (trec_eval) and ir_measures (through its pytrec_eval,
msmarco and gdeval providers) on random runs and graded qrels.
"""

from __future__ import annotations

import math
import random
import re
from decimal import Decimal

import pytest

from rag_core.evaluation.metrics import (
    GAINS,
    METRICS,
    answers_destroyed,
    average_precision,
    check_ks,
    cuts_and_keys,
    destroyed_needles,
    evaluate_checked,
    evaluate_ranking,
    evaluate_run,
    first_relevant_rank,
    hit,
    metric_keys,
    ndcg,
    parse_metric_key,
    precision,
    recall,
    reciprocal_rank,
)
from rag_core.formats.trec import rank_by_score

GOLD_AB = {"A": 1, "B": 1}


# ------------------------------------------------------- hand-worked figures


def test_hand_hit_recall_rr_for_gold_ab_and_ranking_cad():
    ranking = ["C", "A", "D"]
    assert hit(ranking, GOLD_AB, 3) == 1.0
    assert recall(ranking, GOLD_AB, 3) == 1 / 2
    assert reciprocal_rank(ranking, GOLD_AB) == 1 / 2


def test_hand_mrr_of_half_one_zero():
    run = {"q1": ["C", "A", "D"], "q2": ["A", "C"], "q3": ["C", "D"]}
    qrels = {"q1": GOLD_AB, "q2": {"A": 1}, "q3": {"B": 1}}
    result = evaluate_run(run, qrels, [3])
    assert [result["per_query"][q]["rr"] for q in ("q1", "q2", "q3")] == [1 / 2, 1.0, 0.0]
    assert result["mean"]["rr"] == pytest.approx((1 / 2 + 1 + 0) / 3)
    assert round(result["mean"]["rr"], 4) == 0.5


def test_hand_ndcg_ideal_comes_from_the_qrels():
    # relevance [1, 0, 1] with two relevant: the ideal is [1, 1, 0].
    value = ndcg(["A", "C", "B"], GOLD_AB, 3)
    expected = (1 / math.log2(2) + 1 / math.log2(4)) / (1 / math.log2(2) + 1 / math.log2(3))
    assert value == pytest.approx(expected, abs=1e-12)
    assert round(value, 4) == 0.9197
    # relevance [0, 1, 0]: same ideal, B was never retrieved.
    value = ndcg(["C", "A", "D"], GOLD_AB, 3)
    expected = (1 / math.log2(3)) / (1 / math.log2(2) + 1 / math.log2(3))
    assert value == pytest.approx(expected, abs=1e-12)
    assert round(value, 4) == 0.3869


def test_hand_precision_recall_ap_for_01011_with_three_relevant():
    ranking = ["x1", "r1", "x2", "r2", "r3"]
    qrels = {"r1": 1, "r2": 1, "r3": 1}
    assert precision(ranking, qrels, 3) == pytest.approx(1 / 3)
    assert recall(ranking, qrels, 3) == pytest.approx(1 / 3)
    ap = average_precision(ranking, qrels)
    assert ap == pytest.approx((1 / 2 + 2 / 4 + 3 / 5) / 3)
    assert round(ap, 3) == 0.533
    assert reciprocal_rank(ranking, qrels) == 1 / 2


# ------------------------------------------------------------ conventions


def test_precision_divides_by_k_even_when_fewer_retrieved():
    assert precision(["a"], {"a": 1}, 5) == 1 / 5
    assert precision(["a", "b"], {"a": 1}) == 1 / 2  # no cutoff: the list length
    assert precision([], {"a": 1}) == 0.0


def test_no_relevant_means_not_judged_for_recall_ndcg_ap():
    qrels = {"a": 0, "b": -1}
    ranking = ["a", "b"]
    assert recall(ranking, qrels, 2) is None
    assert ndcg(ranking, qrels, 2) is None
    assert average_precision(ranking, qrels) is None
    # grade <= 0 is not relevant, and absence from qrels is not relevance either
    assert hit(ranking, qrels, 2) == 0.0
    assert precision(ranking, qrels, 2) == 0.0
    assert reciprocal_rank(["zz"], {"a": 1}) == 0.0


def test_rr_and_ap_with_cutoff():
    ranking = ["x1", "r1", "x2", "r2", "r3"]
    qrels = {"r1": 1, "r2": 1, "r3": 1}
    assert reciprocal_rank(ranking, qrels, 1) == 0.0
    assert reciprocal_rank(ranking, qrels, 2) == 1 / 2
    # AP@k keeps the total number of relevant as the denominator (map_cut)
    assert average_precision(ranking, qrels, 4) == pytest.approx((1 / 2 + 2 / 4) / 3)
    assert first_relevant_rank(ranking, qrels) == 2
    assert first_relevant_rank(["x1"], qrels) is None


def test_ndcg_exp_and_linear_gains_by_hand():
    qrels = {"a": 3, "b": 1, "c": 2, "d": 0}
    ranking = ["b", "x", "a"]
    dcg_exp = (2**1 - 1) / math.log2(2) + (2**3 - 1) / math.log2(4)
    idcg_exp = (2**3 - 1) / math.log2(2) + (2**2 - 1) / math.log2(3) + (2**1 - 1) / math.log2(4)
    assert ndcg(ranking, qrels, 3, gain="exp") == pytest.approx(dcg_exp / idcg_exp, abs=1e-12)
    dcg_lin = 1 / math.log2(2) + 3 / math.log2(4)
    idcg_lin = 3 / math.log2(2) + 2 / math.log2(3) + 1 / math.log2(4)
    assert ndcg(ranking, qrels, 3, gain="linear") == pytest.approx(dcg_lin / idcg_lin, abs=1e-12)
    dcg_bin = 1 / math.log2(2) + 1 / math.log2(4)
    idcg_bin = 1 / math.log2(2) + 1 / math.log2(3) + 1 / math.log2(4)
    assert ndcg(ranking, qrels, 3) == pytest.approx(dcg_bin / idcg_bin, abs=1e-12)
    # the ideal is cut at k as well: at k=1 the best possible is the grade-3 doc
    assert ndcg(["a"], qrels, 1, gain="exp") == 1.0
    assert ndcg(["c"], qrels, 1, gain="exp") == pytest.approx((2**2 - 1) / (2**3 - 1))


def test_evaluate_ranking_keys_and_order():
    out = evaluate_ranking(["C", "A", "D"], GOLD_AB, [10, 3, 3])
    assert list(out) == [
        "hit@3",
        "hit@10",
        "recall@3",
        "recall@10",
        "p@3",
        "p@10",
        "ndcg@3",
        "ndcg@10",
        "rr",
        "ap",
    ]
    assert out["p@10"] == 1 / 10
    assert out["ap"] == pytest.approx((1 / 2) / 2)
    assert tuple(out) == metric_keys([3, 10])


def assert_each_metric(out, ranking, qrels, ks, gain):
    """Every value of ``out`` bit-for-bit the one-metric function's."""
    for k in ks:
        assert out[f"hit@{k}"] == hit(ranking, qrels, k)
        assert out[f"recall@{k}"] == recall(ranking, qrels, k)
        assert out[f"p@{k}"] == precision(ranking, qrels, k)
        assert out[f"ndcg@{k}"] == ndcg(ranking, qrels, k, gain=gain)
    assert out["rr"] == reciprocal_rank(ranking, qrels)
    assert out["ap"] == average_precision(ranking, qrels)


@pytest.mark.parametrize("gain", ["binary", "exp", "linear"])
def test_evaluate_ranking_single_pass_equals_each_metric_exactly(gain):
    # evaluate_ranking computes every metric in one pass over the ranking; each
    # value must be bit-for-bit the metric function's (==, not approx)
    rng = random.Random(7)
    pool = [f"d{i}" for i in range(60)]
    for _ in range(200):
        ranking = rng.sample(pool, rng.randint(0, 40))
        qrels = {d: rng.choice([0, 0, 1, 2, 3]) for d in rng.sample(pool, rng.randint(1, 25))}
        ks = sorted(rng.sample([1, 3, 5, 10, 20, 50, 100], 3))
        out = evaluate_ranking(ranking, qrels, ks, gain)
        if not any(g > 0 for g in qrels.values()):
            assert set(out.values()) == {None}
            continue
        assert_each_metric(out, ranking, qrels, ks, gain)


@pytest.mark.parametrize("gain", ["binary", "exp", "linear"])
def test_evaluate_checked_equals_each_metric_on_long_rankings_and_graded_qrels(gain):
    # long rankings and many judged ids: both ways of finding the relevant ranks
    # (index lookups for a few ids, one pass for many), float grades, cutoffs
    # past the discount table; every value bit-for-bit the metric function's
    rng = random.Random(11)
    pool = [f"c{i}" for i in range(300)]
    for _ in range(300):
        ranking = rng.sample(pool, rng.choice([0, 1, 5, 10, 60, 150]))
        grades = [0, 0, 1, 2, 3, -1] + ([0.5, 2.5] if rng.random() < 0.3 else [])
        qrels = {d: rng.choice(grades) for d in rng.sample(pool, rng.randint(1, 40))}
        if ranking and rng.random() < 0.5:  # make sure some relevant ids are retrieved
            qrels.update(
                {d: rng.choice([1, 2, 3]) for d in rng.sample(ranking, min(3, len(ranking)))}
            )
        ks = sorted(rng.sample([1, 2, 5, 10, 20, 100, 999, 1000, 1001, 1500], 3))
        cuts, keys = cuts_and_keys(ks)
        out, first = evaluate_checked(ranking, qrels, cuts, keys, gain)
        assert out == evaluate_ranking(ranking, qrels, ks, gain)
        assert tuple(out) == keys == metric_keys(ks)
        if not any(g > 0 for g in qrels.values()):
            assert set(out.values()) == {None} and first is None
            continue
        assert first == first_relevant_rank(ranking, qrels)
        assert_each_metric(out, ranking, qrels, ks, gain)


def test_evaluate_checked_edge_cases():
    cuts, keys = cuts_and_keys([1, 5])
    # empty ranking of a judged query: 0.0 everywhere, no first rank
    assert evaluate_checked([], {"a": 2}, cuts, keys, "exp") == (dict.fromkeys(keys, 0.0), None)
    assert evaluate_checked(("x", "a"), {"a": 1}, cuts, keys)[1] == 2  # any sequence
    # not judged: no relevant id, or judged=False; judged=True scores 0.0
    assert evaluate_checked(["a"], {"a": 0}, cuts, keys) == (dict.fromkeys(keys), None)
    assert evaluate_checked(["a"], {"a": 1}, cuts, keys, judged=False) == (
        dict.fromkeys(keys),
        None,
    )
    assert evaluate_checked(["a"], {}, cuts, keys, judged=True) == (dict.fromkeys(keys, 0.0), None)
    # equal grades of other types are cached apart: exp's 2**Decimal("0.75") is not 2**0.75
    for grade in (0.75, Decimal("0.75"), 0.75):
        qrels = {"a": grade, "c": 3}
        values = evaluate_checked(["c", "b", "a"], qrels, cuts, keys, "exp")[0]
        for k in cuts:
            assert values[f"ndcg@{k}"] == ndcg(["c", "b", "a"], qrels, k, gain="exp")
    # the errors of check_ranking and of the gain registry, in that order
    with pytest.raises(ValueError, match=re.escape("ranking lists id 'b' more than once")):
        evaluate_checked(["a", "b", "c", "b"], {"a": 1}, cuts, keys, "log")
    with pytest.raises(ValueError, match=re.escape("not a single string ('ab')")):
        evaluate_checked("ab", {"a": 1}, cuts, keys)
    with pytest.raises(ValueError, match=re.escape("unknown gain 'log'")):
        evaluate_checked(["a"], {}, cuts, keys, "log", judged=False)


def test_cuts_and_keys_are_cached_but_checked_like_check_ks():
    assert cuts_and_keys([10, 1, 10]) == (check_ks([10, 1, 10]), metric_keys([1, 10]))
    assert cuts_and_keys((1, 10)) is cuts_and_keys([1, 10])  # one cached entry
    # the cache key holds the types: True and 1.0 are not the cutoff 1
    for bad in ([True], [1.0], (1, True)):
        with pytest.raises(ValueError, match=re.escape("cutoff k must be a positive integer")):
            cuts_and_keys(bad)
    with pytest.raises(ValueError, match=re.escape("cutoff k must be a positive integer; got [1]")):
        cuts_and_keys([[1]])  # unhashable: checked, not cached
    with pytest.raises(
        ValueError, match=re.escape("ks must be a non-empty sequence of positive integers; got ()")
    ):
        metric_keys(())
    with pytest.raises(ValueError, match=re.escape("; got 5")):
        cuts_and_keys(5)  # type: ignore[arg-type]
    assert cuts_and_keys(range(3, 0, -1)) == ((1, 2, 3), metric_keys([1, 2, 3]))


def test_evaluate_ranking_judged_override_for_destroyed_answers():
    none = evaluate_ranking(["a"], {}, [1])
    assert set(none.values()) == {None}
    zeros = evaluate_ranking(["a"], {}, [1], judged=True)
    assert set(zeros.values()) == {0.0}
    forced_off = evaluate_ranking(["a"], {"a": 1}, [1], judged=False)
    assert set(forced_off.values()) == {None}


def test_evaluate_run_judging_rules():
    run = {"q1": {"A": 0.2, "C": 0.9}, "extra": ["A"]}
    qrels = {"q1": GOLD_AB, "missing": {"Z": 2}, "nothing": {"A": 0}}
    out = evaluate_run(run, qrels, [1, 2])
    assert out["not_judged"] == ["nothing", "extra"]
    assert out["n_queries"] == 2
    # scores rank C above A
    assert out["per_query"]["q1"]["rr"] == 1 / 2
    # absent from the run: an empty ranking, zero everywhere
    assert set(out["per_query"]["missing"].values()) == {0.0}
    assert set(out["per_query"]["nothing"].values()) == {None}
    assert out["mean"]["rr"] == pytest.approx((1 / 2 + 0) / 2)
    assert out["mean"]["recall@2"] == pytest.approx((1 / 2 + 0) / 2)


def test_evaluate_run_with_nothing_judged_gives_none_means():
    out = evaluate_run({"q": ["a"]}, {}, [1])
    assert out["n_queries"] == 0
    assert set(out["mean"].values()) == {None}


def test_rank_by_score_breaks_ties_like_trec_eval():
    assert rank_by_score({"a": 1.0, "b": 1.0, "c": 1.0}) == ["c", "b", "a"]
    assert rank_by_score({"a": 2.0, "b": 1.0, "c": 1.0, "d": 3}) == ["d", "a", "c", "b"]


def test_answers_destroyed_counts_needles_without_a_relevant_chunk():
    per_needle = {"n1": {"c1", "c2"}, "n2": set(), "n3": [], "n4": ("c9",)}
    assert answers_destroyed(per_needle) == 2
    assert destroyed_needles(per_needle) == ("n2", "n3")
    assert destroyed_needles([{"c1"}, set()]) == (1,)
    assert answers_destroyed({}) == 0


def test_registry_and_keys():
    assert METRICS.names() == ("hit", "recall", "p", "rr", "ndcg", "ap")
    assert GAINS.names() == ("binary", "exp", "linear")
    assert parse_metric_key("recall@20") == ("recall", 20)
    assert parse_metric_key("ap") == ("ap", None)


# ------------------------------------------------------------ errors


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "3"])
def test_bad_cutoff_is_rejected(bad):
    with pytest.raises(
        ValueError, match=re.escape(f"cutoff k must be a positive integer; got {bad!r}")
    ):
        hit(["a"], {"a": 1}, bad)


def test_bad_rankings_and_names_are_rejected():
    with pytest.raises(ValueError, match=re.escape("ranking lists id 'a' more than once")):
        recall(["a", "b", "a"], {"a": 1}, 2)
    with pytest.raises(
        ValueError,
        match=re.escape("a ranking must be a sequence of ids, not a single string ('abc')"),
    ):
        hit("abc", {"a": 1}, 1)
    with pytest.raises(
        ValueError, match=re.escape("unknown gain 'log'; valid choices: binary, exp, linear")
    ):
        ndcg(["a"], {"a": 1}, 1, gain="log")
    with pytest.raises(
        ValueError,
        match=re.escape("unknown metric 'mrr'; valid choices: hit, recall, p, rr, ndcg, ap"),
    ):
        METRICS.get("mrr")
    with pytest.raises(
        ValueError, match=re.escape("ks must be a non-empty sequence of positive integers; got []")
    ):
        evaluate_ranking(["a"], {"a": 1}, [])
    with pytest.raises(
        ValueError, match=re.escape("metric key 'rr@5': only hit, recall, p, ndcg take a cutoff")
    ):
        parse_metric_key("rr@5")
    with pytest.raises(
        ValueError,
        match=re.escape(
            "run entry for query 'q' must be a ranked list of ids or a mapping id → score; got str"
        ),
    ):
        evaluate_run({"q": "abc"}, {"q": {"a": 1}}, [1])
    with pytest.raises(
        ValueError, match=re.escape("score of id 'a' must be a finite number; got nan")
    ):
        rank_by_score({"a": float("nan")})


# ------------------------------------------------------------ peers

KS = (1, 3, 5, 10, 20)


def random_case(seed: int, n_queries: int = 60, ties: bool = False):
    """Graded qrels (0–3, ≥ 1 relevant) and a scored run; numeric qids (gdeval needs them)."""
    rng = random.Random(seed)
    docs = [f"d{i:03d}" for i in range(40)]
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(n_queries):
        qid = str(100 + q)
        judged = rng.sample(docs, rng.randint(1, 15))
        grades = {d: rng.randint(0, 3) for d in judged}
        if not any(g > 0 for g in grades.values()):
            grades[judged[0]] = rng.randint(1, 3)
        qrels[qid] = grades
        retrieved = rng.sample(docs, rng.randint(1, 30))
        if ties:
            run[qid] = {d: float(rng.randint(0, 4)) for d in retrieved}
        else:
            scores = rng.sample(range(10_000), len(retrieved))
            run[qid] = {d: s / 7.0 for d, s in zip(retrieved, scores, strict=True)}
    return qrels, run


def mapped(qrels, gain):
    fn = GAINS.get(gain)
    return {q: {d: int(fn(g)) for d, g in grades.items()} for q, grades in qrels.items()}


PYTREC = {
    "hit@{k}": "success_{k}",
    "recall@{k}": "recall_{k}",
    "p@{k}": "P_{k}",
    "ndcg@{k}": "ndcg_cut_{k}",
}


@pytest.mark.parametrize("seed,ties", [(1, False), (2, False), (3, True), (4, True)])
@pytest.mark.parametrize("gain", ["binary", "exp", "linear"])
def test_equal_to_pytrec_eval(seed, ties, gain):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = random_case(seed, ties=ties)
    cuts = ",".join(map(str, KS))
    # trec_eval's nDCG gain is the grade itself: feed it the grades mapped through our gain.
    evaluator = pytrec_eval.RelevanceEvaluator(
        mapped(qrels, gain),
        {
            f"success.{cuts}",
            f"recall.{cuts}",
            f"P.{cuts}",
            f"ndcg_cut.{cuts}",
            "recip_rank",
            "map",
            f"map_cut.{cuts}",
        },
    )
    theirs = evaluator.evaluate(run)
    ours = evaluate_run(run, qrels, KS, gain=gain)
    assert set(theirs) == set(ours["per_query"])
    for qid, values in ours["per_query"].items():
        for k in KS:
            for our_key, their_key in PYTREC.items():
                assert values[our_key.format(k=k)] == pytest.approx(
                    theirs[qid][their_key.format(k=k)], abs=1e-9
                ), (qid, our_key, k)
            ap_k = average_precision(rank_by_score(run[qid]), qrels[qid], k)
            assert ap_k == pytest.approx(theirs[qid][f"map_cut_{k}"], abs=1e-9)
        assert values["rr"] == pytest.approx(theirs[qid]["recip_rank"], abs=1e-9)
        assert values["ap"] == pytest.approx(theirs[qid]["map"], abs=1e-9)


@pytest.mark.parametrize("seed,ties", [(11, False), (12, True)])
def test_equal_to_ir_measures(seed, ties):
    irm = pytest.importorskip("ir_measures")
    qrels, run = random_case(seed, ties=ties)
    measures = [irm.RR, irm.AP]
    for k in KS:
        measures += [irm.P @ k, irm.R @ k, irm.Success @ k, irm.nDCG @ k, irm.AP @ k, irm.RR @ k]
    theirs: dict[tuple[str, str], float] = {}
    for m in irm.iter_calc(measures, mapped(qrels, "binary"), run):
        theirs[(m.query_id, str(m.measure))] = m.value
    ours = evaluate_run(run, qrels, KS)
    for qid, values in ours["per_query"].items():
        ranking = rank_by_score(run[qid])
        assert values["rr"] == pytest.approx(theirs[(qid, "RR")], abs=1e-9)
        assert values["ap"] == pytest.approx(theirs[(qid, "AP")], abs=1e-9)
        for k in KS:
            assert values[f"p@{k}"] == pytest.approx(theirs[(qid, f"P@{k}")], abs=1e-9)
            assert values[f"recall@{k}"] == pytest.approx(theirs[(qid, f"R@{k}")], abs=1e-9)
            assert values[f"hit@{k}"] == pytest.approx(theirs[(qid, f"Success@{k}")], abs=1e-9)
            assert values[f"ndcg@{k}"] == pytest.approx(theirs[(qid, f"nDCG@{k}")], abs=1e-9)
            ap_k = average_precision(ranking, qrels[qid], k)
            assert ap_k == pytest.approx(theirs[(qid, f"AP@{k}")], abs=1e-9)
            if not ties:  # RR@k goes to the msmarco provider, which breaks ties by id ascending
                assert reciprocal_rank(ranking, qrels[qid], k) == pytest.approx(
                    theirs[(qid, f"RR@{k}")], abs=1e-9
                )


def test_tie_rule_matches_pytrec_eval_not_the_msmarco_provider():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    irm = pytest.importorskip("ir_measures")
    qrels = {"q": {"c": 1}}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 1.0}}
    ours = reciprocal_rank(rank_by_score(run["q"]), qrels["q"])
    trec = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(run)["q"]["recip_rank"]
    msmarco = next(irm.msmarco.iter_calc([irm.RR @ 10], qrels, run)).value
    assert ours == trec == 1 / 1  # trec_eval: ties by docid descending, c first
    assert msmarco == 1 / 3  # ir_measures' msmarco provider: ties by docid ascending


def test_rr_at_10_equal_to_ir_measures_msmarco_provider():
    irm = pytest.importorskip("ir_measures")
    qrels, run = random_case(21)
    theirs = {m.query_id: m.value for m in irm.msmarco.iter_calc([irm.RR @ 10], qrels, run)}
    for qid, scores in run.items():
        assert reciprocal_rank(rank_by_score(scores), qrels[qid], 10) == pytest.approx(
            theirs.get(qid, 0.0), abs=1e-9
        )


def test_exp_gain_ndcg_equal_to_ir_measures_gdeval_provider():
    irm = pytest.importorskip("ir_measures")
    if not irm.gdeval.is_available():
        pytest.skip("perl (for gdeval) is not available")
    qrels, run = random_case(31, n_queries=40)
    for k in (5, 20):
        theirs = {
            m.query_id: m.value
            for m in irm.gdeval.iter_calc([irm.nDCG(cutoff=k, dcg="exp-log2")], qrels, run)
        }
        for qid, scores in run.items():
            ours = ndcg(rank_by_score(scores), qrels[qid], k, gain="exp")
            # gdeval prints 5 decimals
            assert ours == pytest.approx(theirs[qid], abs=5e-6), (qid, k)
