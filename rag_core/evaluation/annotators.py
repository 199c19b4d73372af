"""Does the conclusion survive the annotator? The same configurations against each gold state.

TREC's practice (Voorhees 2000, "Variations in relevance judgments and the measurement of
retrieval effectiveness") is to ask whether system *rankings* hold across assessors, not
whether the scores do. :func:`compare_states` takes the evaluations of the same
configurations under each gold state (one annotator's labels, another's, the adjudicated
ones) and reports, for one metric: each configuration's mean under each state, the
configurations' ranking under each state, Kendall's τ-b between every two states' rankings
(:func:`kendall_tau_b`), and whether the paired sign test's verdict between two chosen
configurations is the same under every state.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from ..wording import declare, refused
from .aggregate import compare_results
from .run import ConfigEvaluation
from .stats import PairedComparison

STATES_FEW = declare("agree.states.few_states", "n")
STATES_METRIC = declare("agree.states.metric", "metric", "choices")


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's τ-b of two paired sequences (ties in either counted as neither concordant nor
    discordant): :math:`(n_c - n_d) / \\sqrt{(n_0 - n_1)(n_0 - n_2)}` with :math:`n_0 = n(n-1)/2`
    and :math:`n_1`, :math:`n_2` the pairs tied in ``x`` and in ``y`` (Kendall 1945;
    ``scipy.stats.kendalltau``'s default). None when one side is all ties or under 2 items."""
    if len(x) != len(y):
        raise ValueError(f"kendall_tau_b needs sequences of one length; got {len(x)} and {len(y)}")
    n = len(x)
    concordant = discordant = tied_x = tied_y = 0
    for i, j in combinations(range(n), 2):
        dx, dy = x[i] - x[j], y[i] - y[j]
        if dx == 0:
            tied_x += 1
        if dy == 0:
            tied_y += 1
        if dx * dy > 0:
            concordant += 1
        elif dx * dy < 0:
            discordant += 1
    n0 = n * (n - 1) // 2
    denominator = math.sqrt((n0 - tied_x) * (n0 - tied_y))
    return (concordant - discordant) / denominator if denominator else None


@dataclass(frozen=True)
class StatesComparison:
    """One metric of the same configurations under several gold states."""

    metric: str
    states: tuple[str, ...]
    configs: tuple[str, ...]
    #: state → config → the metric's mean (None: no question judged under that state).
    means: Mapping[str, Mapping[str, float | None]]
    #: state → the configurations, best first (equal means: by name).
    rankings: Mapping[str, tuple[str, ...]]
    #: ``(state, state)`` → Kendall's τ-b between their means (None: undefined).
    tau: Mapping[tuple[str, str], float | None]
    #: The pair the paired test compares, and its result under each state (None: no pair).
    pair: tuple[str, str] | None
    verdicts: Mapping[str, PairedComparison | None]
    #: Queries judged under each state (the first configuration's count).
    judged: Mapping[str, int]

    @property
    def same_verdict(self) -> bool | None:
        """Whether every state gives the pair the same verdict (None: no pair compared)."""
        found = {v.verdict for v in self.verdicts.values() if v is not None}
        return None if not found else len(found) == 1 and None not in self.verdicts.values()


def _mean(ev: ConfigEvaluation, metric: str) -> float | None:
    m = ev.result.means.get(metric)
    return None if m is None else m.mean


def compare_states(
    evaluations: Mapping[str, Mapping[str, ConfigEvaluation]],
    metric: str,
    *,
    pair: tuple[str, str] | None = None,
) -> StatesComparison:
    """Compare ``evaluations`` (state → config name → its evaluation, every state the same
    configurations) on ``metric``; ``pair`` (two config names) gets the paired test per state.

    Raises:
        ValueError: fewer than two states, a metric the evaluations do not report.
    """
    states = tuple(evaluations)
    if len(states) < 2:
        raise refused(STATES_FEW, n=len(states))
    configs = tuple(evaluations[states[0]])
    first = evaluations[states[0]][configs[0]]
    if metric not in first.result.metrics:
        raise refused(STATES_METRIC, metric=repr(metric), choices=", ".join(first.result.metrics))
    means = {s: {c: _mean(evaluations[s][c], metric) for c in configs} for s in states}

    def order(s: str) -> tuple[str, ...]:
        return tuple(sorted(configs, key=lambda c: (-(means[s][c] or 0.0), c)))

    tau = {
        (s, t): kendall_tau_b(
            [means[s][c] or 0.0 for c in configs], [means[t][c] or 0.0 for c in configs]
        )
        for s, t in combinations(states, 2)
    }
    verdicts: dict[str, PairedComparison | None] = {}
    if pair is not None:
        for s in states:
            a, b = evaluations[s][pair[0]], evaluations[s][pair[1]]
            try:
                cmp = compare_results(a.result, b.result, label_a=pair[0], label_b=pair[1])
            except ValueError:  # no query judged under this state
                verdicts[s] = None
            else:
                verdicts[s] = cmp.get(metric)
    return StatesComparison(
        metric=metric,
        states=states,
        configs=configs,
        means=means,
        rankings={s: order(s) for s in states},
        tau=tau,
        pair=pair,
        verdicts=verdicts,
        judged={s: evaluations[s][configs[0]].result.n_queries for s in states},
    )


__all__ = [
    "StatesComparison",
    "compare_states",
    "kendall_tau_b",
]
