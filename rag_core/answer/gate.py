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
from dataclasses import replace
from typing import Literal

from ..config import GateConfig
from ..types import GateStage, Hit, Notice
from ..wording import declare, notice

#: The gate's notices (``GateStage.notice``): why it refused, or that its rule was not applied.
GATE_REFUSED_NO_CANDIDATES = declare("gate.refused.no_candidates")
GATE_REFUSED_MAX_DISTANCE = declare("gate.refused.max_distance", "threshold", "best")
GATE_REFUSED_MIN_SCORE = declare("gate.refused.min_score", "threshold", "best")
GATE_DISTANCE_NOT_APPLIED = declare("gate.distance_not_applied", "threshold")
#: Why the gate rejected one candidate (``Hit.notice`` of ``GateStage.rejected``).
GATE_BEYOND_MAX_KEPT = declare("gate.beyond_max_kept", "max_kept")
GATE_OVER_DISTANCE = declare("gate.over_distance", "value", "threshold")
GATE_UNDER_SCORE = declare("gate.under_score", "value", "threshold")

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
    message: Notice | None = None
    hits = tuple(hits)
    distances = [h.distance for h in hits] if cfg.max_distance is not None and hits else []
    have_distance = bool(distances) and all(d is not None for d in distances)
    if cfg.max_distance is not None and have_distance:
        metric, threshold = "distance", cfg.max_distance
    elif cfg.min_score is not None:
        metric, threshold = "score", cfg.min_score
    elif cfg.max_distance is not None and hits:
        message = notice(GATE_DISTANCE_NOT_APPLIED, threshold=cfg.max_distance)

    # the value the rule compares: every distance is set when the metric is distance
    values: list[float] = distances if metric == "distance" else [h.score for h in hits]  # type: ignore[assignment]
    verdicts = gate_verdicts(values, threshold, cfg.max_kept, higher_is_better=metric != "distance")

    def why(verdict: Verdict, value: float) -> Notice:
        if verdict == "max_kept":
            return notice(GATE_BEYOND_MAX_KEPT, max_kept=cfg.max_kept)
        if metric == "distance":
            return notice(GATE_OVER_DISTANCE, value=value, threshold=threshold)
        return notice(GATE_UNDER_SCORE, value=value, threshold=threshold)

    kept = tuple(h for h, v in zip(hits, verdicts, strict=True) if v == "kept")
    rejected = tuple(
        replace(h, notice=n)
        for h, v, value in zip(hits, verdicts, values, strict=True)
        if v != "kept"
        for n in (why(v, value),)
    )
    refused = not kept
    reason: Notice | None
    if not hits:
        reason = notice(GATE_REFUSED_NO_CANDIDATES)
    elif refused:
        if metric == "distance":
            reason = notice(GATE_REFUSED_MAX_DISTANCE, threshold=threshold, best=min(values))
        else:
            reason = notice(GATE_REFUSED_MIN_SCORE, threshold=threshold, best=hits[0].score)
    else:
        reason = message
    return GateStage(
        metric=metric,  # type: ignore[arg-type]
        threshold=threshold,
        max_kept=cfg.max_kept,
        kept=kept,
        rejected=rejected,
        refused=refused,
        notice=reason,
        status="ok",
    )
