"""Does the conclusion survive the annotator (issue 41)? The same configurations evaluated
against each simulated annotator's gold and the adjudicated gold: the per-state table of means,
the rankings, Kendall's τ-b (checked against scipy) and the paired verdict per state."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from helpers.annotators import A, B, labeled_store
from helpers.paths import ROOT
from scipy.stats import kendalltau

from rag_core.config import PipelineConfig, RetrievalConfig, preset
from rag_core.evaluation.annotators import compare_states, kendall_tau_b
from rag_core.evaluation.run import evaluate_config
from rag_core.formats.questions import load_questions
from rag_core.gold.store import LabelStore

EN = load_questions(ROOT / "sample_corpus" / "questions" / "en.jsonl")


@pytest.mark.parametrize("seed", range(8))
def test_kendall_tau_b_equals_scipys(seed):
    rng = random.Random(seed)
    n = rng.randrange(3, 12)
    x = [rng.choice([0.1, 0.2, 0.3, 0.5, 0.8]) for _ in range(n)]  # ties on purpose
    y = [v + rng.choice([-0.2, 0.0, 0.2]) for v in x]
    want = kendalltau(x, y).statistic
    assert kendall_tau_b(x, y) == pytest.approx(want, abs=1e-12)
    assert kendall_tau_b([1.0, 1.0], [1.0, 2.0]) is None


@pytest.fixture(scope="module")
def states_run(sample_corpus, tmp_path_factory):
    store = LabelStore(tmp_path_factory.mktemp("states") / "labels.sqlite3")
    judged = labeled_store(store, EN, sample_corpus.docs, "en")
    for j in judged[:6]:  # six disagreements settled: B's grade on A's span
        if j.disagree:
            store.add(
                "en",
                j.question_id,
                j.doc_id,
                *j.a_span,
                j.b_grade,
                text=sample_corpus.docs[j.doc_id].text[slice(*j.a_span)],
                annotator="judge",
                adjudicate=True,
            )
    sparse = RetrievalConfig(methods=("bm25",), analyzer="unicode")
    configs = {
        letter: replace(preset(letter), retrieval=sparse, rerank=PipelineConfig().rerank)
        for letter in ("A", "C", "E", "F")
    }
    snap = store.snapshot("en")
    labels = {f"annotator:{w}": snap.resolve(f"annotator:{w}").labels for w in (A, B)}
    labels["adjudicated"] = snap.resolve("adjudicated").labels
    evaluations = {
        state: {
            name: evaluate_config(
                cfg, EN, sample_corpus, labels=state_labels, question_set="en", ks=(1, 4, 8)
            )
            for name, cfg in configs.items()
        }
        for state, state_labels in labels.items()
    }
    cmp = compare_states(evaluations, "ndcg@8", pair=("A", "C"))
    return configs, labels, evaluations, cmp


def test_each_state_is_the_evaluation_of_its_own_labels(states_run, sample_corpus):
    configs, labels, evaluations, cmp = states_run
    assert cmp.states == ("annotator:ann-a", "annotator:ann-b", "adjudicated")
    assert cmp.configs == ("A", "C", "E", "F")
    alone = evaluate_config(
        configs["E"],
        EN,
        sample_corpus,
        labels=labels["annotator:ann-b"],
        question_set="en",
        ks=(1, 4, 8),
    )
    assert cmp.means["annotator:ann-b"]["E"] == pytest.approx(alone.means["ndcg@8"].mean)
    for s in cmp.states:
        assert list(cmp.rankings[s]) == sorted(
            cmp.configs, key=lambda c: (-(cmp.means[s][c] or 0.0), c)
        )
        assert cmp.judged[s] == evaluations[s]["A"].result.n_queries > 0
    # graded gold: B's changed grades move nDCG, so the states differ somewhere
    assert any(
        cmp.means["annotator:ann-a"][c] != cmp.means["annotator:ann-b"][c] for c in cmp.configs
    )


def test_tau_between_rankings_equals_scipys_and_verdicts_are_per_state(states_run):
    _, _, evaluations, cmp = states_run
    for (s, t), tau in cmp.tau.items():
        x = [cmp.means[s][c] for c in cmp.configs]
        y = [cmp.means[t][c] for c in cmp.configs]
        assert tau == pytest.approx(kendalltau(x, y).statistic, abs=1e-12)
    for s in cmp.states:
        v = cmp.verdicts[s]
        assert (v.label_a, v.label_b) == ("A", "C")
        assert v.n == len(
            {evaluations[s]["A"].question_of[q] for q in evaluations[s]["A"].result.judged}
        )
    same = len({cmp.verdicts[s].verdict for s in cmp.states}) == 1
    assert cmp.same_verdict is same
    again = compare_states(evaluations, "ndcg@8", pair=("A", "C"))
    assert again == cmp
    with pytest.raises(ValueError, match="metric 'ndcg@99' is not reported; choices: "):
        compare_states(evaluations, "ndcg@99")
    with pytest.raises(ValueError, match="comparing gold states needs two or more states; got 1"):
        compare_states({"adjudicated": evaluations["adjudicated"]}, "ndcg@8")
