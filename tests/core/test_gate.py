"""The gate: threshold + max kept; refusal when nothing passes."""

import random

from rag_core.answer.gate import apply_gate, gate_verdicts
from rag_core.config import GateConfig
from rag_core.types import Hit


def hits(distances):
    return [Hit(f"c{i}", "d", i + 1, 1 - d, distance=d) for i, d in enumerate(distances)]


def test_no_threshold_keeps_everything():
    g = apply_gate(hits([0.3, 0.5, 0.9]), GateConfig())
    assert [h.chunk_id for h in g.kept] == ["c0", "c1", "c2"]
    assert g.metric == "none" and not g.refused


def test_distance_threshold_and_max_kept():
    g = apply_gate(hits([0.30, 0.40, 0.50, 0.60, 0.70]), GateConfig(max_distance=0.55, max_kept=2))
    assert [h.chunk_id for h in g.kept] == ["c0", "c1"]
    notes = {h.chunk_id: h.note for h in g.rejected}
    assert notes["c2"] == "beyond max kept (2)"
    assert notes["c3"] == "distance 0.600 > 0.550"
    assert g.metric == "distance" and g.threshold == 0.55


def test_nothing_under_threshold_is_a_refusal():
    g = apply_gate(hits([0.71, 0.80]), GateConfig(max_distance=0.675))
    assert g.refused and not g.kept
    assert g.reason == "nothing under cosine distance 0.675 (best candidate at 0.710)"


def test_no_candidates_is_a_refusal():
    g = apply_gate([], GateConfig())
    assert g.refused and g.reason == "no candidates: retrieval returned nothing"


def test_score_threshold_for_sparse():
    hs = [Hit("a", "d", 1, 7.5), Hit("b", "d", 2, 2.0)]
    g = apply_gate(hs, GateConfig(min_score=3.0))
    assert [h.chunk_id for h in g.kept] == ["a"] and g.metric == "score"


def test_distance_threshold_without_distances_is_not_applied_and_says_so():
    hs = [Hit("a", "d", 1, 7.5)]
    g = apply_gate(hs, GateConfig(max_distance=0.5))
    assert g.kept and g.metric == "none"
    assert "was not applied" in g.reason


# ------------------------------------------------------------ the rule itself


def test_verdicts_distance_cut_is_inclusive_and_max_kept_counts_passing_only():
    # rank 2 is past the cut; ranks 1, 3 pass; max_kept 2 rejects rank 4 though it passes
    v = gate_verdicts([0.5, 0.7, 0.6, 0.1], 0.6, 2, higher_is_better=False)
    assert v == ("kept", "threshold", "kept", "max_kept")


def test_verdicts_scores_and_no_threshold():
    assert gate_verdicts([9.0, 3.0, 2.9], 3.0, None, higher_is_better=True) == (
        "kept",
        "kept",
        "threshold",
    )
    assert gate_verdicts([0.9, 0.1, 0.5], None, 1, higher_is_better=False) == (
        "kept",
        "max_kept",
        "max_kept",
    )
    assert gate_verdicts([], 0.5, 1, higher_is_better=False) == ()


def test_apply_gate_follows_the_verdicts_on_random_lists():
    rng = random.Random(3)
    for _ in range(200):
        ds = [round(rng.uniform(0.1, 1.0), 2) for _ in range(rng.randint(0, 9))]
        t = rng.choice([None, 0.3, 0.5, 0.75])
        m = rng.choice([None, 1, 2, 5])
        g = apply_gate(hits(ds), GateConfig(max_distance=t, max_kept=m))
        verdicts = gate_verdicts(ds, t, m, higher_is_better=False)
        kept = [f"c{i}" for i, v in enumerate(verdicts) if v == "kept"]
        assert [h.chunk_id for h in g.kept] == kept
        # the naive rule, written out: passing candidates in rank order, the first m of them
        passing = [i for i, d in enumerate(ds) if t is None or d <= t]
        assert [h.chunk_id for h in g.kept] == [f"c{i}" for i in passing[:m]]
        assert g.refused == (not passing)
        # each rejected one says why: past max_kept, or its distance past the threshold
        why = {"max_kept": f"beyond max kept ({m})", "threshold": f"> {t:.3f}" if t else ""}
        assert [h.chunk_id for h in g.rejected] == [
            f"c{i}" for i, v in enumerate(verdicts) if v != "kept"
        ]
        for h, v in zip(g.rejected, [v for v in verdicts if v != "kept"], strict=True):
            assert why[v] in h.note
