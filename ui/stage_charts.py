"""The rerank and gate sections of a Trace, shared by Inspect and Compare: the bump chart of
ranks before and after reranking, the gate's distances against its threshold, and their tables.

Plotly renders a subset of HTML in labels: every label is escaped so document text stays text.
"""

from __future__ import annotations

import html as _html

import plotly.graph_objects as go
import streamlit as st

from rag_core.types import GateStage, Hit, Trace

from .html import md, show, snippet, span, tag
from .i18n import note_text, said, t, tv
from .render import hits_table
from .trace_view import chunk_label, fmt, gold_ids

# ------------------------------------------------------------------ rerank


def _plot_text(text: str) -> str:
    """Plotly renders a subset of HTML in labels; escape so document text stays text."""
    return _html.escape(text, quote=True)


def bump_chart(trace: Trace, lang: str) -> go.Figure:
    """Rank before (retrieval) → after (rerank), one line per candidate; gold in amber."""
    gids = gold_ids(trace)
    fig = go.Figure()
    hits = [h for h in trace.rerank.hits if h.prev_rank is not None]
    for h in hits:
        c = trace.chunks.get(h.chunk_id)
        label = _plot_text(chunk_label(c, h.chunk_id))
        is_gold = h.chunk_id in gids
        color = "#d4a72c" if is_gold else "#8c959f"
        fig.add_trace(
            go.Scatter(
                x=[0, 1],
                y=[h.prev_rank, h.rank],
                mode="lines+markers+text",
                text=[label, ("★ " if is_gold else "") + label],
                textposition=["middle left", "middle right"],
                textfont={"color": "#1f2328" if is_gold else "#57606a", "size": 11},
                hovertext=[_plot_text(snippet(c.content, 80)) if c else label] * 2,
                hoverinfo="text",
                line={"width": 4 if is_gold else 1.5, "color": color},
                marker={"size": 9 if is_gold else 6, "color": color},
                cliponaxis=False,
                showlegend=False,
            )
        )
    n = max([h.rank for h in hits] + [h.prev_rank or 0 for h in hits] + [1])
    fig.update_xaxes(
        tickvals=[0, 1],
        ticktext=[
            _plot_text(t("ins.before_rerank", lang)),
            _plot_text(t("ins.after_rerank", lang)),
        ],
        range=[-0.75, 1.75],
        showgrid=False,
        zeroline=False,
    )
    fig.update_yaxes(autorange=False, title=t("ins.rank", lang), dtick=1, range=[n + 0.5, 0.5])
    fig.update_layout(height=max(260, 26 * n + 60), margin={"l": 40, "r": 20, "t": 10, "b": 30})
    return fig


def rerank_section(trace: Trace, lang: str, *, key: str) -> None:
    rr = trace.rerank
    st.caption(
        md(
            t(
                "ins.rerank_facts",
                lang,
                label=tv("rerank", rr.method, lang),
                shortlist=rr.shortlist,
                status=tv("status", rr.status, lang),
            )
            + (f" · {rr.model}" if rr.model else "")
        )
    )
    if rr.status != "ok":
        st.warning(md(t("ins.rerank_unavailable", lang, message=said(rr, lang))))
    elif said(rr, lang):
        st.caption(md(said(rr, lang)))
    if rr.method == "none":
        st.caption(t("ins.rerank_none", lang))
        return
    if rr.hits:
        st.plotly_chart(bump_chart(trace, lang), key=key, config={"displayModeBar": False})
        moved = [
            ("Δ", lambda h: span(_delta(h), "ri-num")),
            (
                t("ins.before", lang),
                lambda h: span(h.prev_rank if h.prev_rank is not None else "—", "ri-num"),
            ),
            (t("ins.retrieval_score", lang), lambda h: span(fmt(h.retrieval_score), "ri-num")),
        ]
        show(
            hits_table(
                rr.hits,
                trace,
                lang,
                extra=moved,
                score_label=t("ins.rerank_score", lang),
                list_name="rerank",
            )
        )


def _delta(h: Hit) -> str:
    if h.prev_rank is None:
        return "—"
    d = h.prev_rank - h.rank
    return f"▲{d}" if d > 0 else (f"▼{-d}" if d < 0 else "=")


# -------------------------------------------------------------------- gate


def gate_chart(gate: GateStage, trace: Trace, lang: str) -> go.Figure | None:
    """Each candidate's distance (or score) in rank order, the threshold as a line."""
    hits = sorted([*gate.kept, *gate.rejected], key=lambda h: h.rank)
    if not hits:
        return None
    use_distance = gate.metric == "distance" or (
        gate.metric == "none" and all(h.distance is not None for h in hits)
    )
    values = [h.distance if use_distance else h.score for h in hits]
    kept = {h.chunk_id for h in gate.kept}
    gids = gold_ids(trace)
    labels = [_plot_text(chunk_label(trace.chunks.get(h.chunk_id), h.chunk_id)) for h in hits]
    colors = [
        "#d4a72c" if h.chunk_id in gids else ("#4ac26b" if h.chunk_id in kept else "#ff8182")
        for h in hits
    ]
    fig = go.Figure(
        go.Bar(
            x=[f"#{h.rank}" for h in hits],
            y=values,
            marker_color=colors,
            hovertext=labels,
            hoverinfo="text+y",
        )
    )
    if gate.threshold is not None:
        fig.add_hline(
            y=gate.threshold,
            line_dash="dash",
            line_color="#cf222e",
            annotation_text=_plot_text(
                t("ins.threshold_line", lang, value=f"{gate.threshold:.3f}")
            ),
        )
    fig.update_layout(
        height=240,
        margin={"l": 40, "r": 20, "t": 10, "b": 30},
        yaxis_title=t("ins.distance" if use_distance else "ins.score", lang),
    )
    return fig


def gate_section(trace: Trace, lang: str, *, key: str) -> None:
    gate = trace.gate
    facts = t(
        "ins.gate_facts",
        lang,
        metric=tv("gate.metric", gate.metric, lang),
        threshold=fmt(gate.threshold, 3) if gate.threshold is not None else t("side.off", lang),
        max_kept=gate.max_kept if gate.max_kept is not None else t("side.off", lang),
        kept=len(gate.kept),
        rejected=len(gate.rejected),
    )
    st.caption(md(facts))
    if gate.refused:
        show(
            tag(
                "div",
                tag("strong", t("ins.refused", lang)) + tag("div", said(gate, lang)),
                cls="ri-refusal",
            )
        )
    elif gate.reason:
        st.info(md(said(gate, lang)))
    fig = gate_chart(gate, trace, lang) if gate.metric != "none" else None
    if gate.metric == "none":
        st.caption(t("ins.gate_none", lang))
    if fig is not None:
        st.plotly_chart(fig, key=key, config={"displayModeBar": False})
    if gate.rejected:
        st.markdown(t("ins.below", lang))
        show(
            hits_table(
                gate.rejected,
                trace,
                lang,
                distance=gate.metric == "distance",
                extra=[(t("ins.why", lang), lambda h: note_text(h, lang))],
            )
        )
