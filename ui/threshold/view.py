"""Threshold page view model: slider arithmetic, notices, table rows and the three charts.

Pure functions of a ``rag_core.evaluation.sweep.SweepData`` and session values; the
page only places widgets and shows what these return.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go

from rag_core.evaluation.sweep import (
    DEFAULT_MAX_KEPT,
    NOTICE_FINAL_SCORE,
    OUTCOMES,
    BestDistribution,
    GateCounts,
    SweepReport,
    risk_coverage_at,
)
from rag_core.formats.ranges import parse_range
from rag_core.types import Notice

from ..html import span
from ..i18n import error_text, t
from ..i18n import notice_text as worded
from ..state import K_GATE_MAX_DISTANCE, K_GATE_MAX_KEPT, K_GATE_MIN_SCORE

#: Line colour of each outcome in the sweep chart.
PALETTE: dict[str, str] = {
    "answered_with_gold": "#1a7f37",
    "answered_without_gold": "#9a6700",
    "refused_answerable": "#8250df",
    "bluffed": "#cf222e",
    "refused_unanswerable": "#8c959f",
}
_LINE = "#1f2328"
_MARGIN = {"l": 40, "r": 20, "t": 30, "b": 40}


def _query_counts_layout(
    fig: go.Figure, what: str, lang: str, *, height: int, legend_y: float, **layout: Any
) -> go.Figure:
    """The layout of a chart of query counts against ``what`` (the metric's name)."""
    fig.update_layout(
        height=height,
        margin=_MARGIN,
        xaxis_title=what,
        yaxis_title=t("thr.queries", lang),
        legend={"orientation": "h", "y": legend_y},
        **layout,
    )
    return fig


@dataclass(frozen=True)
class Slider:
    """The threshold slider: bounds ``lo``–``hi`` (a step beyond the data), step, decimals."""

    lo: float
    hi: float
    step: float
    decimals: int


def slider_for(lo: float, hi: float, is_distance: bool) -> Slider:
    """A slider over the values ``lo``–``hi``.

    Distances step by 0.005; scores by ``10^⌊log10((hi − lo)/200)⌋`` (≈ 200
    steps over the range; 0.01 when ``hi = lo``). The bounds are the data's
    range rounded outwards to the step, plus one step on each side.
    """
    if is_distance:
        step = 0.005
    else:
        step = 10.0 ** math.floor(math.log10((hi - lo) / 200)) if hi > lo else 0.01
    decimals = max(0, -math.floor(math.log10(step)))
    lo_s = round(math.floor(lo / step) * step - step, decimals)
    hi_s = round(math.ceil(hi / step) * step + step, decimals)
    return Slider(lo_s, hi_s, step, decimals)


def start_threshold(
    current: Any, s: Slider, midpoint: float | None, defaults: Sequence[float]
) -> float:
    """The slider's value: ``current`` when it is a float within the bounds, else a start.

    The start is the midpoint between the groups (else the middle default
    threshold), rounded to the step and clamped to the bounds.
    """
    if isinstance(current, float) and s.lo <= current <= s.hi:
        return current
    start = defaults[len(defaults) // 2] if midpoint is None else midpoint
    return float(min(max(round(round(start / s.step) * s.step, s.decimals), s.lo), s.hi))


def start_max_kept(current: Any, depth: int) -> int:
    """``current`` when an int in ``1..depth``, else ``min(DEFAULT_MAX_KEPT, depth)``."""
    if isinstance(current, int) and 1 <= current <= depth:
        return current
    return min(DEFAULT_MAX_KEPT, depth)


def gate_values(threshold: float | None, is_distance: bool, max_kept: int) -> dict[str, Any]:
    """Sidebar gate values applying ``threshold`` (``None``: no threshold) and ``max_kept``."""
    distance = threshold if is_distance else None
    score = None if is_distance else threshold
    return {K_GATE_MAX_DISTANCE: distance, K_GATE_MIN_SCORE: score, K_GATE_MAX_KEPT: max_kept}


def notice_text(n: Notice, lang: str) -> str:
    """A sweep notice in ``lang`` (``notice.<code>``): what the threshold applies to as it is,
    any other notice as a note."""
    if n.code == NOTICE_FINAL_SCORE:
        return worded(n, lang)
    return t("thr.note", lang, note=worded(n, lang))


def notice_lines(notices: Iterable[Notice], lang: str) -> list[str]:
    """Captions for the sweep's notices: what the threshold applies to first, then the notes."""
    ordered = sorted(notices, key=lambda n: n.code != NOTICE_FINAL_SCORE)
    return [notice_text(n, lang) for n in ordered]


def outcome_total(counts: GateCounts, outcome: str) -> int:
    """The group an outcome counts in: answerable for the first three, else unanswerable."""
    return counts.n_answerable if outcome in OUTCOMES[:3] else counts.n_unanswerable


def rate_text(r: Any) -> str:
    """``k/n = 12.5% [4.1%, 32.0%]`` (``—`` for no rate)."""
    return "—" if r is None else f"{r.k}/{r.n} = {r.rate:.1%} [{r.low:.1%}, {r.high:.1%}]"


def rate_cell(r: Any) -> str:
    """``12.5% [4.1–32.0]`` for a table cell (``—`` for no rate)."""
    return "—" if r is None else f"{100 * r.rate:.1f}% [{100 * r.low:.1f}–{100 * r.high:.1f}]"


def rc_text(r: Mapping[str, Any] | None) -> str:
    """:func:`rate_text` for the dict form of ``risk_coverage_at``."""
    if r is None:
        return "—"
    return f"{r['k']}/{r['n']} = {r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}]"


def _value(v: float | None, decimals: int) -> str:
    return "—" if v is None else f"{v:.{decimals + 1}f}"


def distribution_facts(d: BestDistribution, decimals: int, lang: str) -> list[str]:
    """Worst answerable, best unanswerable, separable or their overlap, queries without a best."""
    facts = [
        t(
            "thr.worst",
            lang,
            value=_value(d.worst_answerable, decimals),
            id=d.worst_answerable_id or "—",
        ),
        t(
            "thr.best_un",
            lang,
            value=_value(d.best_unanswerable, decimals),
            id=d.best_unanswerable_id or "—",
        ),
    ]
    if d.separable is True:
        facts.append(t("thr.separable", lang))
    elif d.overlap is not None:
        facts.append(
            t(
                "thr.overlap",
                lang,
                low=_value(d.overlap[0], decimals),
                high=_value(d.overlap[1], decimals),
            )
        )
    none_a = sum(1 for v in d.answerable if v is None)
    none_u = sum(1 for v in d.unanswerable if v is None)
    if none_a or none_u:
        facts.append(t("thr.none_best", lang, a=none_a, u=none_u))
    return facts


def histogram(
    d: BestDistribution, s: Slider, threshold: float | None, what: str, lang: str
) -> go.Figure:
    """Overlaid histograms of the best value per query, answerable and unanswerable."""
    size = max((s.hi - s.lo) / 40, s.step)
    fig = go.Figure()
    groups = (
        (d.answerable, t("thr.answerable", lang), "#1a7f37"),
        (d.unanswerable, t("thr.unanswerable", lang), "#cf222e"),
    )
    for values, name, color in groups:
        xs = [v for v in values if v is not None]
        fig.add_trace(
            go.Histogram(
                x=xs,
                name=f"{name} ({len(xs)})",
                opacity=0.55,
                marker_color=color,
                xbins={"start": s.lo, "end": s.hi + size, "size": size},
            )
        )
    if threshold is not None:
        fig.add_vline(x=threshold, line_dash="dash", line_color=_LINE)
        fig.add_trace(
            go.Scatter(
                x=[None],
                y=[None],
                mode="lines",
                line={"dash": "dash", "color": _LINE},
                name=t("thr.line", lang, value=f"{threshold:.{s.decimals}f}"),
            )
        )
    return _query_counts_layout(fig, what, lang, height=300, legend_y=1.15, barmode="overlay")


def sweep_cuts(
    raw: Any, defaults: Sequence[float], lang: str
) -> tuple[tuple[float, ...], str | None]:
    """Thresholds from the range box (``start:stop:step`` or a list) and its error in ``lang``,
    if any.

    Empty or bad input keeps ``defaults``.
    """
    text = str(raw or "").strip()
    if not text:
        return tuple(defaults), None
    try:
        return tuple(parse_range(text)), None
    except ValueError as exc:
        return tuple(defaults), error_text(exc, lang)


def nearest_row(rep: SweepReport, threshold: float | None) -> int | None:
    """Index in ``rep.rows`` of the threshold closest to ``threshold`` (``None``: no threshold)."""
    if threshold is None or not rep.rows:
        return None
    cuts = [float("inf") if r.threshold is None else r.threshold for r in rep.rows]
    return min(range(len(cuts)), key=lambda i: abs(cuts[i] - threshold))


def sweep_table(
    rep: SweepReport, threshold: float | None, decimals: int, labels: Mapping[str, str], lang: str
) -> tuple[list[str], list[list[Any]], list[str | None]]:
    """Header, rows and classes of the sweep: the no-threshold row (dimmed), then each cut.

    The row nearest the slider's threshold is marked.
    """
    head = [
        t("thr.col.threshold", lang),
        *(labels[o] for o in OUTCOMES),
        t("thr.col.gold_rate", lang),
        t("thr.col.bluff_rate", lang),
    ]
    nearest = nearest_row(rep, threshold)
    rows: list[list[Any]] = []
    classes: list[str | None] = []
    for i, row in enumerate((rep.no_threshold, *rep.rows)):
        cut = (
            t("thr.none", lang)
            if row.threshold is None
            else f"{row.threshold:.{max(decimals, 3)}g}"
        )
        rows.append(
            [
                span(cut, "ri-num"),
                *(getattr(row, o) for o in OUTCOMES),
                span(rate_cell(row.gold_rate), "ri-num"),
                span(rate_cell(row.bluff_rate), "ri-num"),
            ]
        )
        marked = nearest is not None and i == nearest + 1
        classes.append("ri-goldrow" if marked else ("ri-dim" if i == 0 else None))
    return head, rows, classes


def sweep_chart(
    rep: SweepReport, threshold: float | None, labels: Mapping[str, str], what: str, lang: str
) -> go.Figure:
    """Each outcome's count against the threshold."""
    fig = go.Figure()
    for o in OUTCOMES:
        dash = "dot" if o == OUTCOMES[-1] else None
        fig.add_trace(
            go.Scatter(
                x=list(rep.thresholds),
                y=[getattr(r, o) for r in rep.rows],
                mode="lines+markers",
                name=labels[o],
                line={"color": PALETTE[o], "dash": dash},
            )
        )
    if threshold is not None:
        fig.add_vline(x=threshold, line_dash="dash", line_color=_LINE)
    return _query_counts_layout(fig, what, lang, height=320, legend_y=1.2)


def risk_coverage_points(rep: SweepReport) -> list[dict[str, Any]]:
    """``risk_coverage_at`` of each sweep row that has both a coverage and a risk."""
    rows = [risk_coverage_at(r) for r in rep.rows]
    return [r for r in rows if r["coverage"] is not None and r["risk"] is not None]


def risk_coverage_chart(rep: SweepReport, now: Mapping[str, Any], lang: str) -> go.Figure:
    """Risk against coverage over the sweep (95% band, coverage error bars), the current point."""
    pts = risk_coverage_points(rep)
    risk = t("thr.rc.risk", lang)
    fig = go.Figure()
    if pts:
        xs = [r["coverage"]["rate"] for r in pts]
        band = [r["risk"]["high"] for r in pts] + [r["risk"]["low"] for r in pts][::-1]
        fig.add_trace(
            go.Scatter(
                x=xs + xs[::-1],
                y=band,
                fill="toself",
                fillcolor="rgba(207,34,46,0.12)",
                line={"width": 0},
                hoverinfo="skip",
                name=risk + " 95%",
            )
        )
        error_x = {
            "type": "data",
            "symmetric": False,
            "array": [r["coverage"]["high"] - r["coverage"]["rate"] for r in pts],
            "arrayminus": [r["coverage"]["rate"] - r["coverage"]["low"] for r in pts],
            "thickness": 1,
            "color": "rgba(31,35,40,0.35)",
        }
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=[r["risk"]["rate"] for r in pts],
                mode="lines+markers",
                name=risk,
                line={"color": "#cf222e"},
                error_x=error_x,
                customdata=[[r["threshold"]] for r in pts],
                hovertemplate="t=%{customdata[0]:.3f}: coverage %{x:.2f}, risk %{y:.2f}"
                "<extra></extra>",
            )
        )
    if now["coverage"] is not None and now["risk"] is not None:
        fig.add_trace(
            go.Scatter(
                x=[now["coverage"]["rate"]],
                y=[now["risk"]["rate"]],
                mode="markers",
                marker={"size": 14, "color": _LINE, "symbol": "diamond"},
                name=t("thr.rc.current", lang),
            )
        )
    fig.update_layout(
        height=320,
        margin=_MARGIN,
        xaxis={"range": [-0.02, 1.02]},
        yaxis={"range": [-0.02, 1.02]},
        xaxis_title=t("thr.rc.coverage", lang),
        yaxis_title=risk,
        legend={"orientation": "h", "y": 1.2},
    )
    return fig


def query_rows(
    outs: Iterable[Any], chosen: Iterable[str], labels: Mapping[str, str]
) -> list[dict[str, Any]]:
    """Per-query table rows (``rag_core.evaluation.sweep.outcomes``) whose outcome is in
    ``chosen``."""
    keep = set(chosen)
    return [
        {
            "query": o.query_id,
            "text": o.text,
            "answerable": o.answerable,
            "best": o.best,
            "kept": o.n_kept,
            "first_gold": o.first_gold_rank,
            "outcome": labels[o.outcome],
        }
        for o in outs
        if o.outcome in keep
    ]


def csv_rows(rep: SweepReport) -> list[dict[str, Any]]:
    """The sweep as CSV rows: threshold, the five outcome counts, max-kept and the metric."""
    return [
        {
            "threshold": r.threshold,
            **{o: getattr(r, o) for o in OUTCOMES},
            "max_kept": r.max_kept,
            "metric": rep.metric,
        }
        for r in (rep.no_threshold, *rep.rows)
    ]
