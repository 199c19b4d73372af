"""The gate: the only part of the pipeline that can say no.

Keep at most ``max_kept`` candidates whose cosine distance is at most
``max_distance`` (or, without distances, whose score is at least
``min_score``). When nothing passes, the pipeline refuses *without calling the
model* — a comparison of two numbers, cheaper and more reliable than any
instruction in a system prompt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .config import GateConfig
from .types import GateStage, Hit


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
    have_distance = (
        cfg.max_distance is not None and bool(hits) and all(h.distance is not None for h in hits)
    )
    if cfg.max_distance is not None and have_distance:
        metric, threshold = "distance", cfg.max_distance
    elif cfg.min_score is not None:
        metric, threshold = "score", cfg.min_score
    elif cfg.max_distance is not None and hits:
        message = (
            f"gate.max_distance = {cfg.max_distance} was not applied: the candidates carry no "
            "cosine distance (add dense retrieval, or set gate.min_score for sparse scores)"
        )

    kept: list[Hit] = []
    rejected: list[Hit] = []
    if metric == "none" and (cfg.max_kept is None or cfg.max_kept >= len(hits)):
        kept, hits_left = list(hits), ()  # no threshold and room for all: every hit is kept
    else:
        hits_left = hits
    for hit in hits_left:
        if metric == "distance" and hit.distance is not None and hit.distance > threshold:
            rejected.append(replace(hit, note=f"distance {hit.distance:.3f} > {threshold:.3f}"))
        elif metric == "score" and hit.score < threshold:
            rejected.append(replace(hit, note=f"score {hit.score:.4g} < {threshold:.4g}"))
        elif cfg.max_kept is not None and len(kept) >= cfg.max_kept:
            rejected.append(replace(hit, note=f"beyond max kept ({cfg.max_kept})"))
        else:
            kept.append(hit)

    refused = not kept
    if not hits:
        reason = "no candidates: retrieval returned nothing"
    elif refused:
        best = hits[0]
        if metric == "distance":
            reason = (
                f"nothing under cosine distance {threshold:.3f} "
                f"(best candidate at {min(h.distance for h in hits):.3f})"
            )
        else:
            reason = f"nothing scored at least {threshold:.4g} (best {best.score:.4g})"
    else:
        reason = message
    return GateStage(
        metric=metric,  # type: ignore[arg-type]
        threshold=threshold,
        max_kept=cfg.max_kept,
        kept=tuple(kept),
        rejected=tuple(rejected),
        refused=refused,
        reason=reason,
        status="ok",
    )
