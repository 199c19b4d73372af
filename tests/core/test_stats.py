"""Wilson intervals, bootstrap, sign test, paired comparison, ranges."""

from __future__ import annotations

import math
import random
import re
from fractions import Fraction

import pytest
from scipy.stats import binomtest

from rag_core.cli.eval import paired_reading
from rag_core.evaluation.stats import (
    MeanWithInterval,
    PairedComparison,
    bootstrap_interval,
    format_p,
    mean_with_interval,
    mean_with_wilson_of_floats,
    paired_compare,
    sign_test,
    wilson_interval,
)
from rag_core.formats.ranges import parse_range
from rag_core.types import to_jsonable

# ------------------------------------------------------------------ Wilson


def test_wilson_seed_figures():
    low, high = wilson_interval(38, 64)
    assert (round(low, 3), round(high, 3)) == (0.471, 0.705)
    low, high = wilson_interval(53, 64)
    assert (round(low, 3), round(high, 3)) == (0.718, 0.901)


def test_wilson_formula_written_out():
    k, n, z = 38, 64, 1.959963984540054
    p = k / n
    center = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low, high = wilson_interval(k, n)
    assert low == pytest.approx(center - half, abs=1e-12)
    assert high == pytest.approx(center + half, abs=1e-12)


def test_wilson_equals_scipy_on_random_inputs():
    rng = random.Random(7)
    cases = [(0, 1), (1, 1), (0, 64), (64, 64)] + [
        (k, n) for n in (rng.randint(1, 500) for _ in range(200)) for k in [rng.randint(0, n)]
    ]
    for k, n in cases:
        for confidence in (0.9, 0.95, 0.99):
            ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
            low, high = wilson_interval(k, n, confidence)
            assert low == pytest.approx(ci.low, abs=1e-12), (k, n, confidence)
            assert high == pytest.approx(ci.high, abs=1e-12), (k, n, confidence)


def _wilson_by_hand(successes: float, n: int, z: float = 1.959963984540054):
    """The Wilson interval written out (Newcombe's form): the oracle of the scipy call."""
    p = successes / n
    denom = 2 * (n + z * z)
    center = (2 * n * p + z * z) / denom
    delta = z / denom * math.sqrt(4 * n * p * (1 - p) + z * z)
    low = 0.0 if successes == 0 else max(0.0, center - delta)
    high = 1.0 if successes == n else min(1.0, center + delta)
    return low, high


def test_wilson_integer_path_equals_the_formula():
    rng = random.Random(5)
    for _ in range(300):
        n = rng.randint(1, 400)
        k = rng.randint(0, n)
        low, high = wilson_interval(k, n)
        hand = _wilson_by_hand(k, n)
        assert low == pytest.approx(hand[0], abs=1e-12), (k, n)
        assert high == pytest.approx(hand[1], abs=1e-12), (k, n)


def test_wilson_float_path_is_the_formula():
    for total, n in ((12.375, 20), (0.5, 1), (63.9, 64), (3.0, 7)):
        assert wilson_interval(total, n) == pytest.approx(_wilson_by_hand(total, n), abs=1e-15)


def test_wilson_accepts_a_summed_mean():
    values = [1.0, 0.5, 0.0, 1 / 3]
    low, high = wilson_interval(sum(values), len(values))
    assert low < sum(values) / len(values) < high
    m = mean_with_interval(values)
    assert m == MeanWithInterval(
        mean=math.fsum(values) / 4, low=low, high=high, n=4, method="wilson", confidence=0.95
    )


def test_wilson_errors():
    with pytest.raises(
        ValueError,
        match=re.escape(
            "a Wilson interval needs at least one trial; got n = 0 (no judged queries?)"
        ),
    ):
        wilson_interval(0, 0)
    with pytest.raises(
        ValueError, match=re.escape("successes must lie between 0 and n = 5; got 6")
    ):
        wilson_interval(6, 5)
    with pytest.raises(
        ValueError, match=re.escape("confidence must be a number strictly between 0 and 1; got 95")
    ):
        wilson_interval(3, 5, 95)
    with pytest.raises(
        ValueError,
        match=re.escape(
            "a Wilson interval needs values in [0, 1]; got 2.0 (use method='bootstrap')"
        ),
    ):
        mean_with_interval([0.5, 2.0])
    with pytest.raises(
        ValueError,
        match=re.escape("values[1] must be a number; got None (drop not-judged queries first)"),
    ):
        mean_with_interval([0.5, None])
    with pytest.raises(
        ValueError, match=re.escape("values is empty: nothing to summarise (no judged queries?)")
    ):
        mean_with_interval([])
    with pytest.raises(
        ValueError,
        match=re.escape("unknown interval method 'exact'; valid choices: auto, wilson, bootstrap"),
    ):
        mean_with_interval([0.5], method="exact")


def test_mean_with_wilson_of_floats_equals_mean_with_interval():
    rng = random.Random(3)
    for _ in range(200):
        values = [rng.choice([0.0, 1.0, rng.random(), 1 / rng.randint(1, 9)]) for _ in range(40)]
        values = values[: rng.randint(1, 40)]
        assert mean_with_wilson_of_floats(values) == mean_with_interval(values)
    assert mean_with_wilson_of_floats([0.0]) == mean_with_interval([0.0])
    assert mean_with_wilson_of_floats([1.0, 1.0]) == mean_with_interval([1.0, 1.0])


@pytest.mark.parametrize(
    "values,message",
    [
        ([0.5, 2.0], "a Wilson interval needs values in [0, 1]; got 2.0"),
        ([-0.0, -0.5], "a Wilson interval needs values in [0, 1]; got -0.5"),
        ([0.5, math.nan], "values[1] must be finite; got nan"),
        ([math.nan, 0.5], "values[0] must be finite; got nan"),
        ([math.inf], "values[0] must be finite; got inf"),
        ([], "values is empty: nothing to summarise (no judged queries?)"),
    ],
)
def test_mean_with_wilson_of_floats_gives_mean_with_interval_errors(values, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        mean_with_interval(values)
    with pytest.raises(ValueError, match=re.escape(message)):
        mean_with_wilson_of_floats(values)


# ---------------------------------------------------------------- bootstrap


def test_bootstrap_is_seeded_and_brackets_the_mean():
    rng = random.Random(3)
    values = [rng.random() for _ in range(80)]
    a = bootstrap_interval(values, seed=5)
    assert a == bootstrap_interval(values, seed=5)
    assert a != bootstrap_interval(values, seed=6)
    mean = sum(values) / len(values)
    assert a[0] < mean < a[1]
    # the percentile interval of a mean is close to mean ± z·s/√n for n = 80
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    half = 1.959963984540054 * sd / math.sqrt(len(values))
    assert a[0] == pytest.approx(mean - half, abs=0.015)
    assert a[1] == pytest.approx(mean + half, abs=0.015)


def test_bootstrap_of_constant_values_is_a_point():
    assert bootstrap_interval([0.25] * 10, n_resamples=200) == (0.25, 0.25)
    m = mean_with_interval([0.0, 1.0, 1.0], method="bootstrap", n_resamples=500)
    assert m.method == "bootstrap" and m.n == 3 and m.mean == pytest.approx(2 / 3)


# ---------------------------------------------------------------- sign test


@pytest.mark.parametrize(
    "wins,losses,printed,places",
    [
        (18, 3, 0.0015, 4),
        (12, 2, 0.0129, 4),
        (8, 6, 0.79, 2),
        (9, 7, 0.80, 2),
        (10, 3, 0.09, 2),
        (10, 6, 0.45, 2),
    ],
)
def test_sign_test_seed_figures(wins, losses, printed, places):
    assert round(sign_test(wins, losses), places) == printed


def test_sign_test_formula_and_scipy():
    n = 18 + 3
    expected = 2 * sum(math.comb(n, i) for i in range(3 + 1)) / 2**n
    assert sign_test(18, 3) == pytest.approx(expected, rel=1e-15)
    assert sign_test(3, 18) == sign_test(18, 3)
    assert sign_test(0, 0) == 1.0
    assert sign_test(5, 5) == 1.0
    rng = random.Random(11)
    for _ in range(300):
        wins, losses = rng.randint(0, 60), rng.randint(0, 60)
        if wins + losses == 0:
            continue
        assert sign_test(wins, losses) == pytest.approx(
            binomtest(wins, wins + losses, 0.5).pvalue, rel=1e-12, abs=1e-300
        )


def test_sign_test_equals_the_exact_integer_sum():
    """Oracle: p = min(1, 2·Σ_{i ≤ min(w, l)} C(n, i) / 2ⁿ) in exact fractions."""
    rng = random.Random(13)
    cases = [(0, 1), (1, 0), (1, 1), (0, 40), (25, 0)] + [
        (rng.randint(0, 80), rng.randint(0, 80)) for _ in range(300)
    ]
    for wins, losses in cases:
        n = wins + losses
        if n == 0:
            continue
        tail = sum(math.comb(n, i) for i in range(min(wins, losses) + 1))
        exact = float(min(Fraction(1), Fraction(2 * tail, 2**n)))
        assert sign_test(wins, losses) == pytest.approx(exact, rel=1e-12, abs=1e-300)


@pytest.mark.parametrize(
    "wins,losses,name,bad", [(-1, 2, "wins", -1), (1.5, 2, "wins", 1.5), (1, True, "losses", True)]
)
def test_sign_test_rejects_bad_counts(wins, losses, name, bad):
    with pytest.raises(
        ValueError, match=re.escape(f"{name} must be a non-negative integer; got {bad!r}")
    ):
        sign_test(wins, losses)


# ---------------------------------------------------------- paired compare


def seed_pair(wins: int, losses: int, ties: int):
    """Per-query recall of A and B with the given wins, losses and ties (ties at 1 and 0)."""
    a, b = {}, {}
    for i in range(wins):
        a[f"w{i}"], b[f"w{i}"] = 1.0, 0.0
    for i in range(losses):
        a[f"l{i}"], b[f"l{i}"] = 0.0, 1.0
    for i in range(ties):
        a[f"t{i}"] = b[f"t{i}"] = float(i % 2)
    return a, b


def test_paired_compare_significant():
    a, b = seed_pair(18, 3, 43)
    c = paired_compare(a, b)
    assert (c.wins, c.losses, c.ties, c.n) == (18, 3, 43, 64)
    assert c.p == sign_test(18, 3)
    assert c.verdict == "a_better" and (c.label_a, c.label_b) == ("A", "B")
    assert paired_reading(c) == (  # the CLI's English sentence, built from the codes
        "A better on 18 queries, worse on 3, tied on 43; "
        "sign test p = 0.0015: A is better on these 64 queries"
    )
    ties_mean = math.fsum(float(i % 2) for i in range(43))
    assert c.mean_a == pytest.approx((18 + ties_mean) / 64)
    assert c.mean_b == pytest.approx((3 + ties_mean) / 64)
    assert c.mean_diff == pytest.approx((18 - 3) / 64)
    reverse = paired_compare(b, a, label_a="E", label_b="A")
    assert reverse.verdict == "b_better" and (reverse.label_a, reverse.label_b) == ("E", "A")
    assert paired_reading(reverse).endswith("sign test p = 0.0015: A is better on these 64 queries")


def test_paired_compare_not_distinguishable():
    a, b = seed_pair(8, 6, 50)
    c = paired_compare(a, b, label_a="B", label_b="A")
    assert c.verdict == "not_distinguishable"
    assert paired_reading(c) == (
        "B better on 8 queries, worse on 6, tied on 50; "
        "sign test p = 0.79: not distinguishable on these 64 queries"
    )


def test_paired_compare_uses_common_queries_and_eps():
    a = {"q1": 0.5, "q2": 1.0, "only_a": 1.0}
    b = {"q1": 0.5 + 1e-15, "q2": 0.0, "only_b": 0.0}
    c = paired_compare(a, b)
    assert (c.wins, c.losses, c.ties, c.n) == (1, 0, 1, 2)
    assert isinstance(to_jsonable(c), dict)


def test_paired_compare_errors():
    with pytest.raises(
        ValueError,
        match=re.escape(
            "no query in common between A (1 queries) and B (1 queries): nothing to compare"
        ),
    ):
        paired_compare({"x": 1.0}, {"y": 1.0})
    with pytest.raises(
        ValueError,
        match=re.escape("A values[0] must be a number; got None (drop not-judged queries first)"),
    ):
        paired_compare({"x": None}, {"x": 1.0})


def test_format_p():
    assert format_p(0.79052734375) == "= 0.79"
    assert format_p(0.0014896392822265625) == "= 0.0015"
    assert format_p(0.012939453125) == "= 0.013"
    assert format_p(1e-7) == "< 0.0001"


# ------------------------------------------------------------------ ranges


def test_parse_range_inclusive_and_float_safe():
    values = parse_range("0.45:0.8:0.025")
    assert len(values) == round((0.8 - 0.45) / 0.025) + 1 == 15
    assert values[0] == 0.45 and values[-1] == 0.8
    assert values[1] == 0.475 and values[9] == 0.675
    assert parse_range("0.1:0.3:0.1") == (0.1, 0.2, 0.3)
    assert parse_range("0:1:0.3") == (0.0, 0.3, 0.6, 0.9)
    assert parse_range("0.5") == (0.5,)
    assert parse_range("0.5, 0.6") == (0.5, 0.6)


@pytest.mark.parametrize(
    "text,message",
    [
        (
            "0.1:0.2",
            "range '0.1:0.2' must have three parts 'start:stop:step', e.g. '0.45:0.8:0.025'",
        ),
        ("a:0.2:0.1", "range 'a:0.2:0.1': start 'a' is not a number"),
        ("0.1:0.2:0", "range '0.1:0.2:0': step must be positive; got 0.0"),
        ("0.5:0.2:0.1", "range '0.5:0.2:0.1': stop 0.2 is below start 0.5"),
        ("0:1:inf", "range '0:1:inf': step must be finite; got 'inf'"),
        ("0:1000:0.01", "range '0:1000:0.01' gives 100001 values; at most 10001 allowed"),
        ("", "expected thresholds as 'start:stop:step' or 'a,b,c'; got ''"),
    ],
)
def test_parse_range_errors(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_range(text)


def test_results_serialise():
    c = paired_compare(*seed_pair(2, 1, 1))
    assert isinstance(c, PairedComparison)
    out = to_jsonable(
        {
            "c": c,
            "m": mean_with_interval([1.0, 0.0]),
        }
    )
    assert out["m"]["n"] == 2
