"""The gate: the only part of the pipeline that can say no.

Keep at most ``max_kept`` candidates whose cosine distance is at most
``max_distance`` (or, without distances, whose score is at least
``min_score``). When nothing passes, the pipeline refuses *without calling the
model* — a comparison of two numbers, cheaper and more reliable than any
instruction in a system prompt.

:func:`gate_verdicts` is the keep/reject rule itself, over plain numbers: the
pipeline's :func:`apply_gate` calls it on a Trace's hits, and the threshold
sweep (:func:`rag_core.evaluation.sweep.kept_candidates`) replays it on recorded
candidates for any threshold, so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ..config import GateConfig
from ..types import GateStage, Hit, Hits, hit_column

#: Why the gate keeps or rejects one candidate: kept, past the threshold, or
#: passing the threshold but after ``max_kept`` others were kept.
Verdict = Literal["kept", "threshold", "max_kept"]


def gate_verdicts(
    values: Sequence[float],
    threshold: float | None,
    max_kept: int | None,
    *,
    higher_is_better: bool,
) -> tuple[Verdict, ...]:
    """The keep/reject rule over one query's candidates in rank order.

    Walking in rank order, a candidate fails the threshold ``t`` when
    ``value > t`` (a cosine distance, lower is better) or ``value < t`` (a
    score, ``higher_is_better``); ``t = None`` fails nothing. The candidates
    that pass are kept until ``max_kept`` are (``None``: no limit); a passing
    candidate after that is rejected as ``"max_kept"``. A candidate past the
    cut is rejected even when it ranks above one that passes.

    Args:
        values: the value the gate compares, per candidate, in rank order.
        threshold: the cut, or None for no threshold.
        max_kept: the most candidates kept, or None for no limit.
        higher_is_better: compare with ``≥`` (scores) instead of ``≤`` (distances).

    Returns:
        One :data:`Verdict` per value, in the order given.
    """
    if threshold is None:  # no value fails: the first max_kept are kept
        n_kept = len(values) if max_kept is None else min(max_kept, len(values))
        kept: Verdict = "kept"
        beyond: Verdict = "max_kept"
        return (kept,) * n_kept + (beyond,) * (len(values) - n_kept)
    out: list[Verdict] = []
    n_kept = 0
    for value in values:
        if threshold is not None and (value < threshold if higher_is_better else value > threshold):
            out.append("threshold")
        elif max_kept is not None and n_kept >= max_kept:
            out.append("max_kept")
        else:
            out.append("kept")
            n_kept += 1
    return tuple(out)


def apply_gate(hits: Sequence[Hit], cfg: GateConfig) -> GateStage:
    """Split ranked ``hits`` into kept and rejected.

    Args:
        hits: candidates in final rank order (after rerank).
        cfg: threshold and max-kept settings.

    Returns:
        A ``GateStage``. ``metric`` is ``"distance"`` when ``max_distance`` is
        set and the candidates carry a cosine distance, ``"score"`` when
        ``min_score`` is set, else ``"none"``. Each rejected hit carries a
        ``note`` saying why. ``refused`` is true when nothing is kept.
    """
    metric = "none"
    threshold: float | None = None
    message = ""
    hits = Hits.of(hits)
    distances = hit_column(hits, "distance") if cfg.max_distance is not None and hits else ()
    have_distance = bool(distances) and all(d is not None for d in distances)
    if cfg.max_distance is not None and have_distance:
        metric, threshold = "distance", cfg.max_distance
    elif cfg.min_score is not None:
        metric, threshold = "score", cfg.min_score
    elif cfg.max_distance is not None and hits:
        message = (
            f"gate.max_distance = {cfg.max_distance} was not applied: the candidates carry no "
            "cosine distance (add dense retrieval, or set gate.min_score for sparse scores)"
        )

    kept_at: Sequence[int]
    rejected_at: Sequence[int]
    values: Sequence[float]
    if threshold is None:  # the rule compares no value, it only counts them: read no score
        values = range(len(hits))
    elif metric == "distance":
        values = distances
    else:
        values = hits.column("score")
    verdicts = gate_verdicts(values, threshold, cfg.max_kept, higher_is_better=metric != "distance")
    if threshold is None:  # the kept ones come first (gate_verdicts)
        n_kept = verdicts.count("kept")
        kept_at, rejected_at = range(n_kept), range(n_kept, len(verdicts))
    else:
        kept_at = [i for i, v in enumerate(verdicts) if v == "kept"]
        rejected_at = [i for i, v in enumerate(verdicts) if v != "kept"]

    def rejected_notes() -> list[str]:
        notes = []
        for i in rejected_at:
            if verdicts[i] == "max_kept":
                notes.append(f"beyond max kept ({cfg.max_kept})")
            elif metric == "distance":
                notes.append(f"distance {values[i]:.3f} > {threshold:.3f}")
            else:
                notes.append(f"score {values[i]:.4g} < {threshold:.4g}")
        return notes

    kept = hits.take(kept_at)
    rejected = hits.take(rejected_at, note=rejected_notes)
    refused = not kept
    if not hits:
        reason = "no candidates: retrieval returned nothing"
    elif refused:
        if metric == "distance":
            reason = (
                f"nothing under cosine distance {threshold:.3f} "
                f"(best candidate at {min(values):.3f})"
            )
        else:
            reason = f"nothing scored at least {threshold:.4g} (best {hits.column('score')[0]:.4g})"
    else:
        reason = message
    return GateStage(
        metric=metric,  # type: ignore[arg-type]
        threshold=threshold,
        max_kept=cfg.max_kept,
        kept=kept,
        rejected=rejected,
        refused=refused,
        reason=reason,
        status="ok",
    )
