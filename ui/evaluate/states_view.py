"""Evaluate's "does the conclusion survive the annotator?" section: its rows; no Streamlit.

The same configurations are evaluated against each gold state (each annotator's labels, the
adjudicated ones); :func:`rag_core.evaluation.annotators.compare_states` gives the means,
rankings, Kendall's τ and the paired verdicts, and these functions lay them out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rag_core.config import PRESETS, PipelineConfig, preset
from rag_core.evaluation.annotators import StatesComparison
from rag_core.gold.states import GoldState, StateLabels

from ..i18n import t
from .view import paired_reading

#: The configurations ranked besides A (and B): chunking presets on A's retrieval.
RANKED_PRESETS: tuple[str, ...] = tuple(PRESETS)
DEFAULT_PRESETS: tuple[str, ...] = ("C", "E")


def states_to_compare(snapshot: StateLabels) -> tuple[GoldState, ...]:
    """Each annotator's state, then the adjudicated one (when there is an adjudication)."""
    out = [GoldState("annotator", who) for who in snapshot.annotators]
    if snapshot.adjudications:
        out.append(GoldState("adjudicated"))
    return tuple(out)


def configs_to_rank(
    a: PipelineConfig, b: PipelineConfig | None, presets: Sequence[str]
) -> dict[str, PipelineConfig]:
    """A, B (when given) and each chosen chunking preset on A's settings (``preset C`` …)."""
    out = {"A": a}
    if b is not None:
        out["B"] = b
    for letter in presets:
        out[f"preset {letter}"] = preset(letter, a)
    return out


def means_rows(
    cmp: StatesComparison, names: Mapping[str, str], lang: str
) -> tuple[list[str], list[list[object]]]:
    """Head and rows: a configuration per row, its mean and rank under each state."""
    head = [t("ev.st.config", lang), *(names[s] for s in cmp.states)]
    rows = []
    for c in cmp.configs:
        cells: list[object] = [c]
        for s in cmp.states:
            mean = cmp.means[s][c]
            rank = cmp.rankings[s].index(c) + 1
            cells.append("—" if mean is None else f"{mean:.3f} (#{rank})")
        rows.append(cells)
    return head, rows


def tau_rows(cmp: StatesComparison, names: Mapping[str, str]) -> list[list[object]]:
    """One row per two states: Kendall's τ-b between their rankings."""
    return [
        [names[s], names[u], "—" if tau is None else f"{tau:+.2f}"]
        for (s, u), tau in cmp.tau.items()
    ]


def verdict_lines(cmp: StatesComparison, names: Mapping[str, str], lang: str) -> list[str]:
    """The paired test of the pair under each state, one sentence each."""
    out = []
    for s in cmp.states:
        v = cmp.verdicts.get(s)
        said = t("ev.st.no_verdict", lang) if v is None else paired_reading(v, lang)
        out.append(f"**{names[s]}** · {said}")
    return out


def summary_line(cmp: StatesComparison, names: Mapping[str, str], lang: str) -> str:
    """Whether the ranking and the verdict hold across the states, in one sentence."""
    taus = [x for x in cmp.tau.values() if x is not None]
    low = min(taus) if taus else None
    same = cmp.same_verdict
    verdict = (
        t("ev.st.verdict_none", lang)
        if same is None
        else t("ev.st.verdict_same" if same else "ev.st.verdict_differs", lang)
    )
    tau = "—" if low is None else f"{low:+.2f}"
    return t("ev.st.summary", lang, n=len(cmp.states), tau=tau, verdict=verdict)
