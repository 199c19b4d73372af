"""The gate: threshold + max kept; refusal when nothing passes."""

from rag_core.config import GateConfig
from rag_core.gate import apply_gate
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
