"""Evaluate page, answers section: the view model — rows, tables and the funnel; no Streamlit.

The scoring is :mod:`rag_core.evaluation.answers`; these functions lay its
``AnswerEvaluation`` results out as table rows (escaped :class:`~ui.html.Markup`
cells), a plotly funnel and the JSON download. ``ui.evaluate.answers_widgets``
draws them and runs the evaluation.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import plotly.graph_objects as go

from rag_core.evaluation.answer_marks import LOSS_STAGES
from rag_core.evaluation.stats import format_p

from ..html import span
from ..i18n import t

RATES = (
    "answered_correctly",
    "false_refusal",
    "bluff",
    "correct_refusal",
    "claims_supported",
    "claims_supported_cited",
    "claims_uncited",
    "claims_unsupported",
    "claims_invalid_citation",
    "hallucinated_numbers",
    "answers_with_hallucinated_number",
    "context_utilisation",
)
#: The per-query table's columns: (field, label key, width).
QUERY_COLUMNS: tuple[tuple[str, str, Literal["medium", "large"] | None], ...] = (
    ("query", "ev.col.query", None),
    ("outcome", "ans.col.outcome", None),
    ("loss", "ans.col.loss", None),
    ("text", "ev.col.text", "medium"),
    ("answer", "ans.col.answer", "large"),
    ("claims", "ans.col.claims", None),
)


def rate_cell(r: dict[str, Any] | None, lang: str) -> list[Any]:
    if r is None:
        return [span("—", "ri-muted"), 0, span(t("ans.no_items", lang), "ri-muted")]
    return [
        span(f"{r['rate']:.3f}", "ri-num"),
        f"{r['k']}/{r['n']}",
        span(f"[{r['low']:.3f}, {r['high']:.3f}]", "ri-ci ri-num"),
    ]


def funnel_figure(summary: dict[str, Any], lang: str) -> go.Figure:
    """From "asked" to "answered correctly": answerable queries left after each stage's losses."""
    steps = summary["funnel"]
    ends = ("asked", "answered_correctly")

    def label(s: dict[str, Any]) -> str:
        """A bar holds the questions still in play: its label says what the stage took away
        ("−3 not retrieved"), never the loss's name alone beside the survivors."""
        name = t(f"ans.stage.{s['stage']}", lang)
        return name if s["stage"] in ends else t("ans.funnel.after", lang, n=s["lost"], loss=name)

    fig = go.Figure(
        go.Funnel(
            y=[label(s) for s in steps],
            x=[s["remaining"] for s in steps],
            customdata=[s["lost"] for s in steps],
            texttemplate=t("ans.funnel.left", lang),
            hovertemplate="%{y}: %{value}<extra></extra>",
            marker={"color": ["#0969da"] + ["#8c959f"] * len(LOSS_STAGES) + ["#1a7f37"]},
        )
    )
    fig.update_layout(height=60 + 30 * len(steps), margin={"l": 10, "r": 20, "t": 10, "b": 10})
    return fig


def answered_sides(sides: Mapping[str, Any]) -> list[str]:
    """The sides whose evaluation generated answers (not fallen back to retrieval only)."""
    return [s for s, ev in sides.items() if ev.status != "retrieval_only"]


def retrieval_only_table(ev: Any, lang: str) -> tuple[list[str], list[list[Any]]]:
    """A retrieval-only side's retrieval means: ``(head, rows)`` (no rows when it has none)."""
    means = (ev.retrieval or {}).get("means") or {}
    rows = [
        [
            k,
            span(f"{m['mean']:.3f}", "ri-num"),
            m.get("n", ""),
            span(f"[{m['low']:.3f}, {m['high']:.3f}]", "ri-ci ri-num"),
        ]
        for k, m in means.items()
        if m is not None
    ]
    head = [t("ev.col.metric", lang), t("ans.col.value", lang), "n", t("ev.col.ci", lang)]
    return head, rows


def rates_table(
    sides: Mapping[str, Any], live: Sequence[str], lang: str
) -> tuple[list[str], list[list[Any]]]:
    """Every answer-level rate of each side in ``live``: value, ``k/n`` and interval."""
    head = [t("ev.col.metric", lang)]
    for s in live:
        head += [f"{s} {t('ans.col.value', lang)}", "k/n", f"{s} {t('ev.col.ci', lang)}"]
    rows = []
    for key in RATES:
        row: list[Any] = [t(f"ans.rate.{key}", lang)]
        for s in live:
            row += rate_cell(sides[s].summary["rates"].get(key), lang)
        rows.append(row)
    return head, rows


def comparison_table(cmp: Mapping[str, Any], lang: str) -> tuple[list[str], list[list[Any]]]:
    """A against B per rate: discordant counts, the difference with its interval, p values."""
    rows = []
    for metric, c in cmp["metrics"].items():
        rows.append(
            [
                t(f"ans.rate.{metric}", lang),
                c["n"],
                c["only_a"],
                c["only_b"],
                span(
                    (
                        f"{100 * c['difference']:+.1f} [{100 * c['low']:+.1f}, "
                        f"{100 * c['high']:+.1f}]"
                    ),
                    "ri-num",
                ),
                span(format_p(c["p"]).replace("= ", ""), "ri-num"),
                span(format_p(c["p_holm"]).replace("= ", ""), "ri-num"),
                t(f"ans.verdict.{c['verdict']}", lang),
            ]
        )
    head = [
        t("ev.col.metric", lang),
        "n",
        t("ans.col.only_a", lang),
        t("ans.col.only_b", lang),
        t("ans.col.diff", lang),
        "McNemar p",
        "Holm p",
        t("ev.col.reading", lang),
    ]
    return head, rows


def mde_lines(cmp: Mapping[str, Any], lang: str) -> list[str]:
    """Per rate: the smallest difference this many discordant questions could show."""
    return [
        t(
            "ans.mde",
            lang,
            metric=t(f"ans.rate.{metric}", lang),
            n=c["n"],
            discordant=c["only_a"] + c["only_b"],
            mde=f"{100 * c['mde']:.1f}",
        )
        for metric, c in cmp["metrics"].items()
    ]


def query_rows(ev: Any, lang: str) -> list[dict[str, str]]:
    """One row per answered query (the fields of :data:`QUERY_COLUMNS`)."""
    return [
        {
            "query": r.query_id,
            "outcome": t(f"ans.outcome.{r.outcome}", lang),
            "loss": t(f"ans.stage.{r.loss_stage}", lang) if r.loss_stage else "",
            "text": r.text,
            "answer": r.answer or "",
            "claims": ", ".join(c["verdict"] for c in r.claims),
        }
        for r in ev.rows
    ]


def download_json(sides: Mapping[str, Any], cmp: Mapping[str, Any] | None) -> str:
    """Every side's evaluation (and the comparison) as the JSON file the page offers."""
    data: dict[str, Any] = {s: e.to_dict() for s, e in sides.items()}
    if cmp:
        data["comparison"] = cmp
    return json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1)
