"""Evaluate page view model: config B from the chosen input, table rows, filters and links.

Everything here is a pure function of session values and ``ConfigEvaluation``
results (``rag_core.evaluation.run``); the page only lays the returned values out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go

from rag_core.config import PRESET_KEY, PipelineConfig
from rag_core.evaluation.aggregate import breakdown, curve
from rag_core.evaluation.metrics import parse_metric_key
from rag_core.evaluation.run import TAG_GROUPS, tag_group
from rag_core.evaluation.stats import BOOTSTRAP_RESAMPLES, PairedComparison, format_p
from rag_core.formats.trec import format_qrels, format_run
from rag_core.types import Question

from ..compare.keys import K_COMPARE_B_WIDGET
from ..html import Markup, span
from ..i18n import error_text, notice_text, t
from ..state import (
    K_COMPARE_B,
    K_QID,
    K_QMODE,
    K_QPHRASING,
    K_QSET,
    compare_config,
    config_from_url,
)

KS: tuple[int, ...] = (1, 2, 3, 4, 5, 8, 10, 15, 20, 30, 50, 100)
DEFAULT_KS: list[int] = [1, 4, 8, 10, 20]
PHRASINGS: tuple[str, ...] = ("all", "0", "1", "question")


def has_phrasings(questions: Sequence[Question]) -> bool:
    """Does some question of the set come in more than one wording (a phrasing choice to
    make)? A BEIR or TREC set has one query per question."""
    return any(len(q.phrasings) > 1 for q in questions)


GAINS: tuple[str, ...] = ("binary", "linear", "exp")
#: How B is given: not at all, a chunker preset, override lines, config JSON, an app address.
B_MODES: tuple[str, ...] = ("none", "preset", "overrides", "json", "url")
NAMES: dict[str, str] = {
    "hit": "Hit",
    "recall": "Recall",
    "p": "P",
    "ndcg": "nDCG",
    "rr": "MRR",
    "ap": "MAP",
}
#: Line and 95% band colours of each side in the curve.
COLORS: dict[str, tuple[str, str]] = {
    "A": ("#0969da", "rgba(9,105,218,0.15)"),
    "B": ("#bc4c00", "rgba(188,76,0,0.15)"),
}


def metric_label(key: str) -> str:
    """``recall@8`` → ``Recall@8``; ``rr`` → ``MRR``."""
    name, k = parse_metric_key(key)
    return f"{NAMES[name]}@{k}" if k is not None else NAMES[name]


def pick_qset(current: Any, url_qset: Any, names: Sequence[str]) -> str:
    """The question set: the page's own if still loaded, else the sidebar's, else the first."""
    if current in names:
        return str(current)
    return str(url_qset) if url_qset in names else names[0]


def sorted_ks(values: Any) -> tuple[int, ...]:
    """The chosen cut-offs as sorted integers (none chosen: empty)."""
    return tuple(sorted(int(k) for k in values or ()))


def resolve_b(
    config_a: PipelineConfig, mode: str, values: Mapping[str, Any], lang: str = "en"
) -> tuple[PipelineConfig | None, list[str]]:
    """Config B from the B input of ``mode`` (see :data:`B_MODES`) and the problems found.

    ``values`` holds the inputs by mode: ``preset``, ``overrides``, ``json``,
    ``url`` (text). B is ``None`` when ``mode`` is ``none`` or its input is
    empty or unusable. The problems are worded in ``lang``.
    """
    text = str(values.get(mode) or "").strip() if mode != "preset" else ""
    problems: list[str] = []
    try:
        if mode == "preset":
            return config_a.with_overrides({PRESET_KEY: values["preset"]}), problems
        if mode == "overrides":
            b, found = compare_config(config_a, str(values.get("overrides") or ""), lang=lang)
            return b, list(found)
        if mode == "json" and text:
            return PipelineConfig.from_json(text), problems
        if mode == "url" and text:
            b, found = config_from_url(text, lang=lang)
            return b, list(found)
    except ValueError as exc:
        problems.append(error_text(exc, lang))
    return None, problems


def seconds_text(sides: Sequence[str], seconds: Sequence[tuple[float, float]], lang: str) -> str:
    """``A 0.52 s · B from the cache (computed in 3.10 s)``.

    ``seconds``: per side ``(now, computed)``; ``now ≤ computed / 2`` means a cache hit.
    """
    parts = []
    for side, (now, computed) in zip(sides, seconds, strict=True):
        if now > computed / 2:
            parts.append(f"{side} {now:.2f} s")
        else:
            parts.append(t("ev.cached", lang, side=side, seconds=f"{computed:.2f}"))
    return " · ".join(parts)


def judged_share(ev: Any) -> float:
    """Mean share of judged documents over the queries (document-level evaluation)."""
    return sum(ev.judged_share.values()) / max(len(ev.judged_share), 1)


def stage_warnings(ev: Any, lang: str) -> list[str]:
    """The evaluation's warnings, worded from its data: stages that could not run as
    configured, then one line per question with needles not in the corpus."""
    scored = set(ev.question_of.values())
    out = [t("ev.stage_problem", lang, problem=notice_text(p, lang)) for p in ev.stage_problems]
    for qid, missing in ev.not_in_corpus.items():
        needles = ", ".join(f"{doc} “{text[:40]}”" for doc, text in missing[:3])
        out.append(
            t(
                "ev.needle_missing" if qid in scored else "ev.needle_missing_unscored",
                lang,
                qid=qid,
                n=len(missing),
                needles=needles + (", …" if len(missing) > 3 else ""),
            )
        )
    return out


def cell(m: Any, lang: str = "en") -> Markup:
    """A mean with its 95% interval and the interval's method (``—`` when the metric has no
    value)."""
    if m is None:
        return span("—", "ri-muted")
    return (
        span(f"{m.mean:.3f}", "ri-num")
        + span(f" [{m.low:.3f}, {m.high:.3f}]", "ri-ci ri-num")
        + span(" " + ci_method(m, lang), "ri-muted")
    )


def ci_method(m: Any, lang: str) -> str:
    """The interval's method in one word (``Wilson`` / ``bootstrap``)."""
    return t("ev.ci.wilson" if m.method == "wilson" else "ev.ci.bootstrap", lang)


def metrics_help(ev: Any, lang: str) -> str:
    """The caption under the metrics table: n questions and queries, each method's rule."""
    means = [m for m in ev.result.means.values() if m is not None]
    n = means[0].n if means else 0
    grouped = any(m.unit == "question" for m in means)
    resamples = max((m.n_resamples for m in means), default=0) or BOOTSTRAP_RESAMPLES
    return t(
        "ev.metrics_help",
        lang,
        n=n,
        q=ev.result.n_queries,
        grouped=t("ev.grouped", lang) if grouped else "",
        resamples=f"{resamples:,}",
    )


def _units(n: int, unit: str, lang: str) -> str:
    """``n`` queries, or ``n`` questions where a question's phrasings were one pair."""
    return t(f"stats.{unit}.{'one' if n == 1 else 'many'}", lang, n=n)


def paired_reading(c: PairedComparison, lang: str) -> str:
    """The sign test's verdict in one sentence (wins, losses, ties, p and the conclusion)."""
    n_q = _units(c.n, c.unit, lang)
    if c.verdict == "not_distinguishable":
        conclusion = t("stats.verdict.not_distinguishable", lang, n_q=n_q)
    else:
        side = c.label_a if c.verdict == "a_better" else c.label_b
        conclusion = t("stats.verdict.better", lang, side=side, n_q=n_q)
    return t(
        "stats.reading",
        lang,
        a=c.label_a,
        b=c.label_b,
        wins_q=_units(c.wins, c.unit, lang),
        losses=c.losses,
        ties=c.ties,
        p=format_p(c.p),
        conclusion=conclusion,
    )


def significant(c: PairedComparison) -> bool:
    """The sign test named a winner."""
    return c.verdict != "not_distinguishable"


def metrics_table(
    a: Any, sides: Mapping[str, Any], cmp: Mapping[str, PairedComparison] | None, lang: str
) -> tuple[list[str], list[list[Any]], list[str | None]]:
    """Header, rows and row classes of the metrics table (one row per metric of A)."""
    head = [t("ev.col.metric", lang), *(f"{s} {t('ev.col.ci', lang)}" for s in sides)]
    if cmp:
        head += [
            t("ev.col.wins", lang),
            t("ev.col.losses", lang),
            t("ev.col.ties", lang),
            "p",
            t("ev.col.reading", lang),
        ]
    rows: list[list[Any]] = []
    classes: list[str | None] = []
    for k in a.result.metrics:
        row: list[Any] = [
            metric_label(k),
            *(cell(ev.result.means.get(k), lang) for ev in sides.values()),
        ]
        cls = None
        if cmp and k in cmp:
            c = cmp[k]
            p = span(format_p(c.p).replace("= ", ""), "ri-num")
            row += [c.wins, c.losses, c.ties, p, paired_reading(c, lang)]
            cls = "ri-diff" if significant(c) else None
        rows.append(row)
        classes.append(cls)
    return head, rows, classes


def default_metric(options: Sequence[str], ks: Sequence[int], current: Any = None) -> str:
    """``current`` if offered, else ``recall@max(ks)`` if offered, else the first option."""
    if current in options:
        return str(current)
    wanted = f"recall@{max(ks)}" if ks else ""
    return wanted if wanted in options else options[0]


def curve_points(sides: Mapping[str, Any], name: str) -> dict[str, list[tuple[int, Any]]]:
    """Per side the ``(k, mean with interval)`` points of metric ``name`` that have a value."""
    out = {}
    for side, ev in sides.items():
        pts = [(k, m) for k, m in curve(ev.result, name) if m is not None]
        if pts:
            out[side] = pts
    return out


def log_axis(ks: Sequence[int]) -> bool:
    """A logarithmic k axis when the cut-offs span a factor of 10 or more."""
    return len(ks) > 1 and max(ks) / min(ks) >= 10


def breakdown_rows(sides: Mapping[str, Any], metric: str, lang: str) -> list[list[Any]]:
    """Rows ``[group, tag, n, cell per side]`` of the per-tag breakdown, ordered by tag group."""
    parts = {side: breakdown(ev.result, ev.tags) for side, ev in sides.items()}
    tags = list(dict.fromkeys(tag for p in parts.values() for tag in p))
    tags.sort(key=lambda x: (TAG_GROUPS.index(tag_group(x)), x))
    rows = []
    for tag in tags:
        ms = [parts[s].get(tag, {}).get(metric) for s in sides]
        n = next((m.n for m in ms if m is not None), 0)
        group = t(f"ev.group.{tag_group(tag).replace(' ', '_')}", lang)
        rows.append([group, span(tag, "ri-mono"), n, *(cell(m, lang) for m in ms)])
    return rows


def question_filters(has_b: bool) -> tuple[str, ...]:
    """The per-question filters offered: misses of B and A/B differences only with B."""
    return ("all", "miss_a", "miss_b", "differ") if has_b else ("all", "miss_a")


def filter_questions(rows: Sequence[Mapping[str, Any]], flt: str) -> list[Mapping[str, Any]]:
    """Rows of ``rag_core.evaluation.run.question_rows`` kept by filter ``flt``."""
    if flt == "miss_a":
        return [r for r in rows if r["first_gold_a"] is None]
    if flt == "miss_b":
        return [r for r in rows if r["first_gold_b"] is None]
    if flt == "differ":
        return [r for r in rows if r["first_gold_a"] != r["first_gold_b"]]
    return list(rows)


def question_order(has_b: bool) -> list[str]:
    """Column order of the per-question table."""
    b_gold, b_destroyed = (["first_gold_b"], ["destroyed_b"]) if has_b else ([], [])
    return ["query_id", "first_gold_a", *b_gold, "destroyed_a", *b_destroyed, "text", "tags"]


def phrasing_of(query_id: str) -> int:
    """The phrasing index of a query id ``qid#i`` (``0`` without a numeric suffix)."""
    _, sep, tail = query_id.rpartition("#")
    return int(tail) if sep and tail.isdigit() else 0


def open_view(row: Mapping[str, Any], qset: str, page: str, b_text: str) -> dict[str, Any]:
    """Session values that open a per-question row in ``page`` (``inspect`` or ``compare``).

    The view keys go to ``sidebar.load_view``; for Compare the B box gets ``b_text`` too.
    """
    view: dict[str, Any] = {
        K_QMODE: "set",
        K_QSET: qset,
        K_QID: row["question_id"],
        K_QPHRASING: phrasing_of(row["query_id"]),
    }
    if page == "compare":
        view[K_COMPARE_B] = b_text
    return view


def widget_values(page: str, b_text: str) -> dict[str, Any]:
    """Page-widget values to set alongside :func:`open_view` (Compare's B box)."""
    return {K_COMPARE_B_WIDGET: b_text} if page == "compare" else {}


def trec_files(sides: Mapping[str, Any], escape: bool) -> tuple[dict[str, str], dict[str, str]]:
    """TREC run text per side and qrels text per chunker signature; ``ValueError`` on bad ids."""
    runs = {
        side: format_run(ev.rankings, tag=f"rag_core-{side}", escape=escape)
        for side, ev in sides.items()
    }
    qrels = {ev.chunker_signature: format_qrels(ev.gold, escape=escape) for ev in sides.values()}
    return runs, qrels


def side_notes(ev: Any, lang: str) -> list[tuple[str, str]]:
    """What the summary says under one side, as ``(kind, markdown text)``; kind: caption or warning.

    Document-level share judged, destroyed answers (a warning when any, then
    their ids), stage problems, unjudged queries.
    """
    notes: list[tuple[str, str]] = []
    if ev.level == "document":
        notes.append(("caption", t("ev.doc_level", lang, share=f"{judged_share(ev):.2f}")))
    destroyed = t("ev.destroyed", lang, n=len(ev.destroyed), total=ev.n_queries)
    notes.append(("warning" if ev.destroyed else "caption", destroyed))
    if ev.destroyed:
        notes.append(("caption", ", ".join(ev.destroyed)))
    notes += [("warning", w) for w in stage_warnings(ev, lang)]
    if ev.result.not_judged:
        notes.append(("caption", t("ev.not_judged", lang, n=len(ev.result.not_judged))))
    return notes


def curve_figure(
    sides: Mapping[str, Any], name: str, ks: Sequence[int], lang: str = "en"
) -> go.Figure:
    """Metric ``name`` at each k per side: the mean line over its 95% interval band."""
    fig = go.Figure()
    for side, pts in curve_points(sides, name).items():
        xs, ms = [k for k, _ in pts], [m for _, m in pts]
        line, band = COLORS[side]
        fig.add_trace(
            go.Scatter(
                x=xs + xs[::-1],
                y=[m.high for m in ms] + [m.low for m in ms][::-1],
                fill="toself",
                fillcolor=band,
                line={"width": 0},
                hoverinfo="skip",
                mode="lines",
                name=f"{side} 95%",
                showlegend=True,
            )
        )
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=[m.mean for m in ms],
                mode="lines+markers",
                name=side,
                line={"color": line, "width": 2},
                customdata=[[m.low, m.high, m.n, ci_method(m, lang)] for m in ms],
                hovertemplate="k=%{x}: %{y:.3f} [%{customdata[0]:.3f}, %{customdata[1]:.3f}] "
                "%{customdata[3]} n=%{customdata[2]}",
            )
        )
    fig.update_layout(
        height=320,
        margin={"l": 40, "r": 20, "t": 10, "b": 40},
        yaxis={"range": [0, 1.02]},
        xaxis_title="k",
        yaxis_title=NAMES[name] + "@k",
        legend={"orientation": "h", "y": 1.1},
    )
    shown = list(ks)
    if log_axis(shown):
        fig.update_xaxes(
            type="log", tickvals=shown, ticktext=[str(k) for k in shown], minor={"showgrid": False}
        )
    else:
        fig.update_xaxes(tickvals=shown)
    return fig
