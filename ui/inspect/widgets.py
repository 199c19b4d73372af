"""Inspect's own widget groups: the stage chips and the context stage (the Trace pieces it
shares with Compare are ``ui.render``)."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from rag_core.types import Trace

from ..html import join, md, show, span, tag
from ..i18n import said, t, tv
from ..render import sources_table
from ..trace_view import best_rank, token_strip

STAGES = ("chunking", "retrieval", "fusion", "rerank", "gate", "context", "generation", "support")


def flow(trace: Trace, lang: str) -> None:
    """One chip per stage: status, milliseconds, and where the gold ranks; the stage that lost
    the gold is red, whatever its own status."""
    ranks = trace.gold.stage_ranks if trace.gold else {}
    tm = trace.timings_ms
    statuses: dict[str, str] = {
        "chunking": "ok",
        "retrieval": "ok"
        if all(lst.status == "ok" for lst in trace.retrieval.lists)
        else "unavailable",
        "fusion": "ok" if trace.retrieval.fused is not None else "skipped",
        "rerank": trace.rerank.status,
        "gate": "lost" if trace.gate.refused else trace.gate.status,
        "context": trace.context.status,
        "generation": trace.generation.status,
        "support": trace.support.status,
    }
    lost = trace.gold.lost_at if trace.gold is not None else None
    if lost in ("corpus", "chunking"):
        lost = "chunking"
    chips = []
    for stage in STAGES:
        status = "lost" if stage == lost else statuses[stage]  # where the gold was lost: red
        label = tv("stage", stage, lang)
        ms = tm.get(stage)
        text = label + (f" · {ms:.0f} ms" if ms is not None and ms >= 1 else "")
        if trace.gold is not None:
            if stage == "retrieval":
                values = [r for k, v in ranks.items() if k.startswith("retrieval:") for r in v]
                text += " · ★" + _rank_text(best_rank(values), False)
            elif stage in ranks:
                text += " · ★" + _rank_text(best_rank(ranks[stage]), stage == "context")
        why = tv("loss", trace.gold.lost_at, lang) if stage == lost and trace.gold else None
        chips.append(span(text, f"ri-chip {status}", why or tv("status", status, lang)))
        chips.append(span("→", "ri-arrow"))
    show(tag("div", join(chips[:-1]), cls="ri-flow"))


def _rank_text(rank: int | None, source: bool) -> str:
    if rank is None:
        return "—"
    return f"[{rank}]" if source else str(rank)


def context_section(trace: Trace, lang: str, pieces: tuple[Sequence[str], int] | None) -> None:
    ctx = trace.context
    if ctx.status == "skipped":
        st.info(md(t("ins.context_skipped", lang, message=said(ctx, lang))))
        return
    if ctx.status != "ok":
        st.warning(md(said(ctx, lang)))
    c1, c2, c3, c4 = st.columns(4)
    c1.metric(t("ins.budget", lang), ctx.budget_tokens)
    c2.metric(
        t("ins.tokens_before", lang), ctx.tokens_before if ctx.tokens_before is not None else "—"
    )
    c3.metric(
        t("ins.tokens_after", lang), ctx.tokens_after if ctx.tokens_after is not None else "—"
    )
    c4.metric(t("ins.sources_in", lang), sum(1 for s in ctx.sources if s.status != "dropped"))
    notes = [tv("policy", ctx.policy, lang), tv("ordering", ctx.ordering, lang)]
    if ctx.tokenizer:
        notes.append(t("ins.tokenizer", lang, name=ctx.tokenizer))
    st.caption(md(" · ".join(notes)))
    if ctx.truncated:
        st.warning(t("ins.truncated", lang))
    if ctx.question_cut:
        st.error(t("ins.question_cut", lang))
    if ctx.message:
        st.caption(md(said(ctx, lang)))
    show(sources_table(ctx, trace, lang))
    with st.expander(
        t("ins.prompt_tokens", lang, n=len(ctx.full_ids) or len(ctx.input_ids)),
        expanded=ctx.truncated,
    ):
        if pieces:
            show(token_strip(pieces[0], pieces[1], lang))
        else:
            st.caption(t("ins.no_pieces", lang))
    with st.expander(t("ins.actual_input", lang)):
        st.caption(t("ins.actual_input_help", lang))
        st.code(ctx.actual_input_text or "", language=None, wrap_lines=True)
    st.caption(t("ins.hashes", lang, prompt=ctx.prompt_sha256 or "—", ids=ctx.ids_sha256 or "—"))
