"""The Compare page's widget groups: the B box with its examples, and one side's context."""

from __future__ import annotations

import streamlit as st

from rag_core.types import Trace

from .. import sidebar
from ..html import md, show
from ..i18n import said, t
from ..render import sources_table
from ..state import K_COMPARE_B, Context
from . import view
from .keys import K_COMPARE_B_WIDGET

W = K_COMPARE_B_WIDGET


def _sync() -> None:
    sidebar.shadow_set(K_COMPARE_B, st.session_state[W])


def _example(text: str) -> None:
    st.session_state[W] = text
    sidebar.shadow_set(K_COMPARE_B, text)


def b_box(ctx: Context, lang: str) -> str:
    """B's override lines (a page widget, mirrored in the URL) and one button per example."""
    if W not in st.session_state:
        st.session_state[W] = ctx.compare_b
    st.text_area(
        t("cmp.b", lang),
        key=W,
        on_change=_sync,
        height=80,
        help=t("cmp.b_help", lang),
        placeholder="retrieval.analyzer=char",
    )
    cols = st.columns(4)
    for i, (label, text) in enumerate(view.EXAMPLES):
        cols[i % 4].button(
            t(label, lang), key=f"cmp.ex.{i}", on_click=_example, args=(text,), width="stretch"
        )
    return st.session_state[W]


def context_column(trace: Trace, lang: str) -> None:
    """One side's context stage: its sources and token counts (or why it was skipped)."""
    if trace.context.status == "skipped":
        st.info(md(t("ins.context_skipped", lang, message=said(trace.context, lang))))
        return
    if trace.context.question_cut:
        st.error(t("ins.question_cut", lang))
    show(sources_table(trace.context, trace, lang))
    c = trace.context
    tokens = {"before": c.tokens_before, "after": c.tokens_after, "budget": c.budget_tokens}
    st.caption(t("cmp.tokens", lang, **tokens))
