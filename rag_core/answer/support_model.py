"""The support model: ``P(supported)`` of a claim given one evidence window (logistic regression).

``p = σ(b + Σ wᵢ·fᵢ)`` over the features of :data:`FEATURES` (:func:`features`), with the
coefficients in ``support_model.json`` next to this file, fitted by ``bench/fit_support.py``
(grouped cross-validation; docs/MODELS.md, "Per-claim support"). The cosine enters as a
z-score against the claim–evidence cosines the same embedder gives on the calibration pairs
(``cosine_stats`` in the JSON), so one model serves MiniLM and e5; without an embedder the
``no_embedder`` coefficients (fitted without the cosine) are used. With a judge, its
probability ``j`` is stacked on the model: ``p' = σ(a₀ + a₁·logit(p) + a₂·logit(j))``
(``judge`` in the JSON), so a confident judge can lift a claim over the threshold as well as
pull it under.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

MODEL_PATH = Path(__file__).with_name("support_model.json")

#: Feature names, in the order of the coefficient vectors.
FEATURES = (
    "coverage",  # share of the claim's answer terms in the window (stemmed / Kiwi morphemes)
    "coverage_source",  # … in the whole source
    "cosine_z",  # embedder cosine of claim and window, z-scored per embedder
    "entity_novelty",  # share of the claim's capitalised names absent from the source
    "numbers_missing",  # share of the claim's numbers absent from the source
    "number_conflict",  # 1 when a missing number meets another of the same kind in the window
    "numbers_found",  # 1 when the claim has numbers and the window states them all
    "negation_mismatch",  # 1 when exactly one of claim and window is negated
    "log_terms",  # log(1 + number of answer terms)
    "log_novel",  # log(1 + number of answer terms found nowhere in the source)
    "negated_only",  # share of a positive claim's terms the source states only negated
)


@dataclass(frozen=True)
class SupportModel:
    """Coefficients read from ``support_model.json``."""

    intercept: float
    weights: tuple[float, ...]
    intercept_no_embedder: float
    weights_no_embedder: tuple[float, ...]
    cosine_stats: Mapping[str, tuple[float, float]]
    judge: tuple[float, float, float]
    min_p: float

    def cosine_z(self, cosine: float, embedder_name: str) -> float:
        """``(cos − μ) / σ`` with the embedder's calibration statistics (the default's when
        unknown)."""
        mu, sd = self.cosine_stats.get(embedder_name) or self.cosine_stats["default"]
        return (cosine - mu) / sd

    def p(self, f: Sequence[float], *, with_cosine: bool) -> float:
        """``σ(b + w·f)``; ``f`` in :data:`FEATURES` order (the cosine ignored when absent)."""
        if with_cosine:
            z = self.intercept + sum(w * x for w, x in zip(self.weights, f, strict=True))
        else:
            z = self.intercept_no_embedder + sum(
                w * x for w, x in zip(self.weights_no_embedder, f, strict=True)
            )
        return sigmoid(z)

    def with_judge(self, p: float, judge: float) -> float:
        """``σ(a₀ + a₁·logit(p) + a₂·logit(judge))``."""
        a0, a1, a2 = self.judge
        return sigmoid(a0 + a1 * logit(p) + a2 * logit(judge))


def sigmoid(z: float) -> float:
    """``1 / (1 + e^−z)``, safe for large ``|z|``."""
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def logit(p: float, eps: float = 1e-4) -> float:
    """``log(p / (1 − p))`` with ``p`` clipped to ``[eps, 1 − eps]``."""
    p = min(max(p, eps), 1 - eps)
    return math.log(p / (1 - p))


def from_dict(d: Mapping[str, Any]) -> SupportModel:
    """A model from the JSON layout ``bench/fit_support.py`` writes."""
    if tuple(d["features"]) != FEATURES:
        raise ValueError(f"support model features {d['features']} differ from {FEATURES}")
    return SupportModel(
        intercept=float(d["intercept"]),
        weights=tuple(float(x) for x in d["weights"]),
        intercept_no_embedder=float(d["intercept_no_embedder"]),
        weights_no_embedder=tuple(float(x) for x in d["weights_no_embedder"]),
        cosine_stats={k: (float(v[0]), float(v[1])) for k, v in d["cosine_stats"].items()},
        judge=tuple(float(x) for x in d["judge"]),  # type: ignore[arg-type]
        min_p=float(d["min_p"]),
    )


@lru_cache(maxsize=1)
def load_model(path: str = str(MODEL_PATH)) -> SupportModel:
    """The committed model (cached)."""
    return from_dict(json.loads(Path(path).read_text(encoding="utf-8")))
