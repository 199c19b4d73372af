"""Agreement between annotators (issue 41): κ, α and span F1 equal their peers' — scikit-learn's
``cohen_kappa_score`` and ``f1_score``, the ``krippendorff`` package and α as a naive loop over
value pairs — on random grades and on the sample question set labeled by two simulated
annotators; the adjudication queue holds exactly the units they disagree on."""

from __future__ import annotations

import re
from itertools import combinations

import krippendorff
import numpy as np
import pytest
from helpers.annotators import A, B, labeled_store
from helpers.paths import ROOT
from sklearn.metrics import cohen_kappa_score, f1_score

from rag_core.evaluation.agreement import agreement, alpha_of, coincidences, kappa_of
from rag_core.formats.questions import load_questions
from rag_core.gold.store import LabelStore
from rag_core.gold.units import disagreements, question_annotators, units_of

EN = load_questions(ROOT / "sample_corpus" / "questions" / "en.jsonl")
GRADES = [0, 1, 2, 3]


def naive_alpha(units: list[list[int]]) -> float:
    """Krippendorff's α (ordinal) as pairs of values: observed disagreement within units over
    expected disagreement between any two pooled values (Krippendorff 2011, eqs. for D_o, D_e)."""
    pairable = [u for u in units if len(u) >= 2]
    values = [v for u in pairable for v in u]
    n = len(values)
    n_g = {g: values.count(g) for g in GRADES}

    def delta(c: int, k: int) -> float:
        lo, hi = min(c, k), max(c, k)
        return (sum(n_g[g] for g in range(lo, hi + 1)) - (n_g[c] + n_g[k]) / 2) ** 2

    d_o = 0.0
    for u in pairable:
        for i in range(len(u)):
            for j in range(len(u)):
                if i != j:
                    d_o += delta(u[i], u[j]) / (len(u) - 1)
    d_o /= n
    d_e = 0.0
    for i in range(n):
        for j in range(n):
            if i != j:
                d_e += delta(values[i], values[j])
    d_e /= n * (n - 1)
    return 1 - d_o / d_e


@pytest.mark.parametrize("seed", range(6))
def test_kappa_and_alpha_equal_their_peers_on_random_grades(seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 4, 40)
    b = np.where(rng.random(40) < 0.4, rng.integers(0, 4, 40), a)
    conf = np.zeros((4, 4))
    for x, y in zip(a, b, strict=True):
        conf[x, y] += 1
    for weights in ("quadratic", "linear"):
        want = cohen_kappa_score(a, b, labels=GRADES, weights=weights)
        assert kappa_of(conf, weights) == pytest.approx(want, abs=1e-12)
    peer = krippendorff.alpha(
        reliability_data=[a, b], level_of_measurement="ordinal", value_domain=GRADES
    )
    assert alpha_of(conf + conf.T) == pytest.approx(peer, abs=1e-12)
    assert alpha_of(conf + conf.T) == pytest.approx(
        naive_alpha([list(p) for p in zip(a, b, strict=True)])
    )
    # three coders, some units judged by two or one: α with missing values
    c = rng.integers(0, 4, 40).astype(float)
    c[rng.random(40) < 0.5] = np.nan
    data = np.array([a, b, c], dtype=float)
    units = [[int(v) for v in col if not np.isnan(v)] for col in data.T]
    peer3 = krippendorff.alpha(
        reliability_data=data, level_of_measurement="ordinal", value_domain=GRADES
    )
    assert alpha_of(coincidences(units)) == pytest.approx(peer3, abs=1e-12)
    assert alpha_of(coincidences(units)) == pytest.approx(naive_alpha(units))


@pytest.fixture(scope="module")
def simulated(sample_corpus, tmp_path_factory):
    store = LabelStore(tmp_path_factory.mktemp("agree") / "labels.sqlite3")
    judged = labeled_store(store, EN, sample_corpus.docs, "en")
    return store, judged, sample_corpus.docs


def test_the_simulated_annotators_agree_as_the_peers_compute(simulated):
    store, judged, docs = simulated
    own = store.snapshot("en").own
    assert set(own) == {A, B}
    units = units_of(own)
    assert len(units) == len(judged) >= 60  # each needle is one unit, both judged it
    assert all(set(u.labels) == {A, B} for u in units)
    got = agreement(own)
    (pair,) = got.pairs
    a = [j.a_grade for j in judged]
    b = [j.b_grade for j in judged]
    assert pair.n_units == pair.n_both == len(judged)
    assert pair.kappa.value == pytest.approx(
        cohen_kappa_score(a, b, labels=GRADES, weights="quadratic"), abs=1e-12
    )
    peer = krippendorff.alpha(
        reliability_data=[a, b], level_of_measurement="ordinal", value_domain=GRADES
    )
    assert pair.alpha.value == pytest.approx(peer, abs=1e-12)
    assert got.alpha.value == pytest.approx(peer, abs=1e-12)  # two annotators: overall = pair
    assert pair.alpha.value == pytest.approx(naive_alpha([list(p) for p in zip(a, b, strict=True)]))
    # span F1: characters of each question's documents, marked by A / by B
    y_a, y_b = [], []
    for (_qid, doc_id), rows in _by_question_doc(judged).items():
        n = len(docs[doc_id].text)
        ma, mb = np.zeros(n, bool), np.zeros(n, bool)
        for j in rows:
            ma[j.a_span[0] : j.a_span[1]] = True
            mb[j.b_span[0] : j.b_span[1]] = True
        y_a.append(ma)
        y_b.append(mb)
    want_f1 = f1_score(np.concatenate(y_a), np.concatenate(y_b))
    assert pair.span_f1.value == pytest.approx(want_f1, abs=1e-12)
    assert pair.only_one.value == 0.0 and (pair.only_a, pair.only_b) == (0, 0)
    assert 0.3 < pair.kappa.value < 0.95  # a fifth of the grades changed: agreement, not identity
    for fig in (pair.kappa, pair.alpha, pair.span_f1):  # the interval holds the estimate
        assert fig.low <= fig.value <= fig.high
    assert sum(map(sum, pair.confusion)) == len(judged)
    assert got.resamples == 2000 and got.n_questions == len({j.question_id for j in judged})


def _by_question_doc(judged):
    out: dict = {}
    for j in judged:
        out.setdefault((j.question_id, j.doc_id), []).append(j)
    return out


def test_the_adjudication_queue_holds_exactly_the_disagreeing_units(simulated):
    store, judged, _ = simulated
    own = store.snapshot("en").own
    queue = disagreements(units_of(own), question_annotators(own))
    got = {(u.question_id, u.doc_id, u.labels[A][0].start, u.labels[A][0].end) for u in queue}
    want = {(j.question_id, j.doc_id, *j.a_span) for j in judged if j.disagree}
    assert got == want and len(want) >= len(judged) // 3


def test_the_per_question_table_is_sorted_by_disagreement(simulated):
    store, judged, _ = simulated
    rows = agreement(store.snapshot("en").own).questions
    shares = [r.disagreement for r in rows]
    assert shares == sorted(shares, reverse=True)
    for r in rows:
        mine = [j for j in judged if j.question_id == r.question_id]
        assert r.n_units == len(mine)
        assert r.n_agree == sum(not j.disagree for j in mine)
        assert r.grade_differs == sum(j.a_grade != j.b_grade for j in mine)


def test_intervals_are_seeded_and_pairs_cover_every_two_annotators(simulated):
    store, _, _ = simulated
    own = dict(store.snapshot("en").own)
    first = agreement(own, resamples=300, seed=7)
    assert agreement(own, resamples=300, seed=7) == first
    assert agreement(own, resamples=300, seed=8).pairs[0].kappa != first.pairs[0].kappa
    own["ann-c"] = own[A]  # a third annotator who copies A
    three = agreement(own, resamples=200)
    assert [(p.a, p.b) for p in three.pairs] == list(combinations(sorted(own), 2))
    copy = next(p for p in three.pairs if {p.a, p.b} == {A, "ann-c"})
    assert copy.kappa.value == pytest.approx(1.0) and copy.span_f1.value == pytest.approx(1.0)
    assert three.kappa.value == pytest.approx(np.mean([p.kappa.value for p in three.pairs]))


def test_one_annotator_is_refused_and_units_only_one_judged_are_counted(simulated):
    store, judged, _ = simulated
    own = store.snapshot("en").own
    with pytest.raises(
        ValueError,
        match=re.escape("agreement needs two or more annotators with labels; found 1 ('ann-a')"),
    ):
        agreement(own, annotators=[A])
    with pytest.raises(ValueError, match=re.escape("kappa weights 'cubic' is not one of")):
        agreement(own, weights="cubic")
    # B drops the first unit of every question: those are units only A judged
    first = {}
    for lab in own[B]:
        first.setdefault(lab.question_id, lab)
    fewer = {A: own[A], B: tuple(lab for lab in own[B] if lab not in first.values())}
    got = agreement(fewer, resamples=100)
    (pair,) = got.pairs
    dropped = sum(
        1 for q, lab in first.items() if len([x for x in own[B] if x.question_id == q]) > 1
    )
    assert pair.only_a == dropped and pair.only_b == 0
    assert pair.only_one.value == pytest.approx(dropped / pair.n_units)
    assert got.single == len(first) - dropped  # questions B no longer labeled at all
