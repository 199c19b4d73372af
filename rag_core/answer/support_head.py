"""The support head: ``P(supported)`` of a claim given one source, learned from labelled answers.

Two linear stages over standardised features (``z = (x − mean) / scale``), fitted by
``bench/fit_support.py`` on RAGTruth's train split (grouped cross-validation; docs/MODELS.md,
"Per-claim support"), stored in ``support_head.json`` next to this file:

1. **Token probe** (:attr:`SupportHead.probe`): for every token of the answer, a logistic score
   ``b + Σ wᵢ zᵢ`` of "this token lies in a human-marked hallucination" over the lookback ratio
   of every attention head of the bundled generator (Chuang et al., 2024) and the token's
   log-probability and entropy (:func:`rag_core.answer.lookback.token_features`); a claim's
   ``reading`` is the highest score among its tokens (:meth:`SupportHead.reading`) — where the
   model, reading the answer, least looked at the sources.
   **Hidden-state probe** (:attr:`SupportHead.hidden_probe`): a logistic score of "this claim
   overlaps a human-marked hallucination" over the claim's mean hidden state of two middle
   layers (:attr:`rag_core.answer.lookback.ClaimReading.hidden`; a linear probe as in Azaria
   and Mitchell, 2023, "The Internal State of an LLM Knows When It's Lying") — the claim's
   ``hidden`` (:meth:`SupportHead.hidden`).
2. **Head** (:attr:`SupportHead.heads`): ``p = σ(b + Σ wᵢ zᵢ)`` over the lexical features of the
   source's best evidence window (:data:`LEXICAL`) and, when the generator read the answer, the
   reading features (:data:`READING`): the probe's ``reading``, the claim's attention share on
   this source, the model's own probability of the claim's tokens and the hidden-state probe's
   ``hidden``.

Variants (:func:`SupportHead.head`): with or without the readings (no local generator) and with
or without the cosine (no embedder), each fitted on its own. With a judge, its probability
``j`` is stacked: ``p' = σ(a₀ + a₁·logit(p) + a₂·logit(j))``. Every coefficient carries its
feature's name, so :meth:`Linear.contributions` says which signals decided a claim.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

HEAD_PATH = Path(__file__).with_name("support_head.json")

#: Lexical features of one evidence window (:func:`rag_core.answer.support.window_features`).
LEXICAL = (
    "coverage",  # share of the claim's answer terms in the window (stemmed / Kiwi morphemes)
    "coverage_source",  # … in the whole source
    "cosine_z",  # embedder cosine of claim and window, z-scored per embedder
    "entity_novelty",  # share of the claim's capitalised names absent from the source
    "numbers_missing",  # share of the claim's numbers absent from the source
    "number_conflict",  # 1 when a missing number meets another of the same kind in the window
    "numbers_found",  # 1 when the claim has numbers and the window states them all
    "negation_mismatch",  # 1 when exactly one of claim and its best sentence is negated
    "log_terms",  # log(1 + number of answer terms)
    "log_novel",  # log(1 + number of answer terms found nowhere in the source)
    "negated_only",  # share of a positive claim's terms the source states only negated
    "question_coverage",  # share of the question's terms in the window (1 without a question)
)
#: Reading features of a claim against one source (:mod:`rag_core.answer.lookback`).
READING = (
    "reading",  # the token probe's highest score among the claim's tokens (stage 1)
    "source_share",  # share of the claim's attention on sources that goes to this source
    "logprob_mean",  # mean log-probability of the claim's tokens
    "logprob_min",  # lowest log-probability of a token of the claim
    "low_prob",  # share of the claim's tokens with probability < 0.1
    "hidden",  # the hidden-state probe's score of the claim (stage 1)
)
#: The sign a feature's weight must have for its meaning to hold (more coverage never lowers
#: ``p_supported``, a missing number never raises it); features not named are free. Within one
#: source only the window features vary, so these signs also make the evidence window the one
#: that states the claim. ``bench/fit_support.py`` drops a feature whose fitted weight breaks its
#: sign and refits.
SIGNS = {
    "coverage": 1,
    "coverage_source": 1,
    "cosine_z": 1,
    "entity_novelty": -1,
    "numbers_missing": -1,
    "number_conflict": -1,
    "numbers_found": 1,
    "negation_mismatch": -1,
    "log_novel": -1,
    "negated_only": -1,
    "question_coverage": 1,
    "reading": -1,
    "hidden": -1,
}
#: The variants of :meth:`SupportHead.head`, by (readings, cosine).
VARIANTS = {
    (True, True): "readings",
    (True, False): "readings_no_cosine",
    (False, True): "lexical",
    (False, False): "lexical_no_cosine",
}


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


@dataclass(frozen=True)
class Linear:
    """``b + Σ wᵢ·(xᵢ − meanᵢ)/scaleᵢ`` over named features."""

    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    intercept: float

    def z(self, x: Sequence[float] | np.ndarray) -> np.ndarray:
        """The standardised features (``x`` in :attr:`features` order)."""
        return (np.asarray(x, dtype=np.float64) - self.mean) / self.scale

    def score(self, x: Sequence[float] | np.ndarray) -> float:
        """The linear score ``b + w·z(x)`` (a logit)."""
        return float(self.intercept + self.z(x) @ self.weights)

    def contributions(self, x: Sequence[float] | np.ndarray) -> tuple[tuple[str, float], ...]:
        """Each feature's ``wᵢ·zᵢ``, largest magnitude first: what moved the score from the
        intercept (the average claim's logit)."""
        parts = self.z(x) * self.weights
        order = np.argsort(-np.abs(parts), kind="stable")
        return tuple((self.features[i], round(float(parts[i]), 3)) for i in order)

    def to_dict(self) -> dict[str, Any]:
        return {
            "features": list(self.features),
            "mean": [round(float(v), 6) for v in self.mean],
            "scale": [round(float(v), 6) for v in self.scale],
            "weights": [round(float(v), 6) for v in self.weights],
            "intercept": round(float(self.intercept), 6),
        }


def linear_from_dict(d: Mapping[str, Any]) -> Linear:
    """A :class:`Linear` from its JSON layout (:meth:`Linear.to_dict`).

    Raises:
        ValueError: The lists differ in length or a scale is not positive.
    """
    feats = tuple(str(f) for f in d["features"])
    arrays = [np.asarray(d[k], dtype=np.float64) for k in ("mean", "scale", "weights")]
    if any(a.shape != (len(feats),) for a in arrays):
        raise ValueError(f"support head: mean/scale/weights must each have {len(feats)} values")
    if not np.all(arrays[1] > 0):
        raise ValueError("support head: every scale must be positive")
    return Linear(feats, arrays[0], arrays[1], arrays[2], float(d["intercept"]))


@dataclass(frozen=True)
class SupportHead:
    """The fitted head (module docstring) and what it was measured at."""

    probe: Linear
    heads: Mapping[str, Linear]
    cosine_stats: Mapping[str, tuple[float, float]]
    judge: tuple[float, float, float]
    min_p: float
    #: Measured figures the support pane states (``bench/fit_support.py`` writes them).
    quality: Mapping[str, Any]
    #: A red claim's token is suspect from this probe score on (:meth:`suspect`).
    token_cut: float = 0.0
    #: The claim-level probe over the mean hidden state (:meth:`hidden`); None in a head
    #: without it.
    hidden_probe: Linear | None = None

    def token_scores(self, token_x: np.ndarray) -> np.ndarray:
        """The probe's score (a logit of "inside a hallucination") of each token row."""
        return self.probe.z(token_x) @ self.probe.weights + self.probe.intercept

    def reading(self, token_x: np.ndarray) -> float:
        """A claim's ``reading``: the probe's highest score among its tokens' features."""
        return float(np.max(self.token_scores(token_x)))

    def hidden(self, pooled: np.ndarray | None) -> float:
        """A claim's ``hidden``: the hidden-state probe's score (a logit of "overlaps a
        hallucination") of its mean hidden state. Without a probe, without a hidden state or
        with one of another width (``RAG_INSPECTOR_READER`` naming another model) it is the
        reading head's mean for the feature, which moves no claim's ``p_supported``."""
        if (
            self.hidden_probe is None
            or pooled is None
            or pooled.shape != self.hidden_probe.mean.shape
        ):
            head = self.heads[VARIANTS[(True, True)]]
            return float(head.mean[head.features.index("hidden")])
        return self.hidden_probe.score(pooled)

    def suspect(
        self, token_x: np.ndarray, spans: Sequence[tuple[int, int]]
    ) -> tuple[tuple[int, int], ...]:
        """The character spans of a red claim's tokens the probe scores at least
        :attr:`token_cut` (neighbours merged): the words that look made up."""
        out: list[tuple[int, int]] = []
        for (a, b), score in zip(spans, self.token_scores(token_x), strict=True):
            if score < self.token_cut or b <= a:
                continue
            if out and a <= out[-1][1] + 1:
                out[-1] = (out[-1][0], max(out[-1][1], b))
            else:
                out.append((a, b))
        return tuple(out)

    def head(self, *, readings: bool, cosine: bool) -> Linear:
        """The stage-2 head for what is at hand (:data:`VARIANTS`)."""
        return self.heads[VARIANTS[(readings, cosine)]]

    def cosine_z(self, cosine: float, embedder_name: str) -> float:
        """``(cos − μ) / σ`` with the embedder's statistics (the default's when unknown)."""
        mu, sd = self.cosine_stats.get(embedder_name) or self.cosine_stats["default"]
        return (cosine - mu) / sd

    def with_judge(self, p: float, judge: float) -> float:
        """``σ(a₀ + a₁·logit(p) + a₂·logit(judge))``."""
        a0, a1, a2 = self.judge
        return sigmoid(a0 + a1 * logit(p) + a2 * logit(judge))

    def to_dict(self) -> dict[str, Any]:
        return {
            "probe": self.probe.to_dict(),
            "heads": {k: v.to_dict() for k, v in self.heads.items()},
            "cosine_stats": {
                k: [round(a, 6), round(b, 6)] for k, (a, b) in self.cosine_stats.items()
            },
            "judge": [round(x, 6) for x in self.judge],
            "min_p": self.min_p,
            "token_cut": round(self.token_cut, 4),
            "quality": dict(self.quality),
        } | ({"hidden_probe": self.hidden_probe.to_dict()} if self.hidden_probe else {})


def from_dict(d: Mapping[str, Any]) -> SupportHead:
    """A head from the JSON layout ``bench/fit_support.py`` writes.

    Raises:
        ValueError: A variant is missing or a head's features are not :data:`LEXICAL` (plus
            :data:`READING` for the reading variants).
    """
    heads = {k: linear_from_dict(v) for k, v in d["heads"].items()}
    for (reads, _cos), name in VARIANTS.items():
        if name not in heads:
            raise ValueError(f"support head: variant {name!r} is missing")
        want = LEXICAL + (READING if reads else ())
        if heads[name].features != want:
            raise ValueError(f"support head {name!r}: features {heads[name].features} != {want}")
    judge = tuple(float(x) for x in d["judge"])
    if len(judge) != 3:
        raise ValueError("support head: judge must be three numbers [a0, a1, a2]")
    return SupportHead(
        probe=linear_from_dict(d["probe"]),
        heads=heads,
        cosine_stats={k: (float(v[0]), float(v[1])) for k, v in d["cosine_stats"].items()},
        judge=(judge[0], judge[1], judge[2]),
        min_p=float(d["min_p"]),
        quality=dict(d.get("quality") or {}),
        token_cut=float(d.get("token_cut", 0.0)),
        hidden_probe=linear_from_dict(d["hidden_probe"]) if d.get("hidden_probe") else None,
    )


@lru_cache(maxsize=1)
def load_head(path: str = str(HEAD_PATH)) -> SupportHead:
    """The committed head (cached)."""
    return from_dict(json.loads(Path(path).read_text(encoding="utf-8")))
