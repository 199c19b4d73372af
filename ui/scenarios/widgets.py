"""The Scenarios page's widget groups: one gallery card, and the callback that loads it."""

from __future__ import annotations

import streamlit as st

from rag_core.scenarios import Scenario

from .. import cache, gallery, sidebar
from ..chunks.keys import K_CHUNKS_DOC_W
from ..compare.keys import K_COMPARE_B_WIDGET
from ..html import md
from ..i18n import t
from ..lecture.keys import K_LEC_CLAIM_W
from ..state import K_COMPARE_B, overrides_text
from . import view
from .keys import K_SCN_LOADED


def load(s: Scenario, page: str) -> None:
    """Button callback: put the scenario's config, question and B into the sidebar state, then
    go."""
    base, _ = sidebar.start_config()
    values = view.load_view(s, page, cache.question_sets("sample"))
    sidebar.load_view(s.config(base), values)
    st.session_state[K_COMPARE_B_WIDGET] = values[K_COMPARE_B]
    st.session_state.pop(K_CHUNKS_DOC_W, None)
    for key in [k for k in st.session_state if str(k).startswith(K_LEC_CLAIM_W)]:
        st.session_state.pop(key, None)  # the claim pickers of the scenario shown before
    st.session_state[K_SCN_LOADED] = s.id
    sidebar.request_page(page)


def card(s: Scenario, lang: str, loaded: object) -> None:
    """One failure mode: what to look at, its setup, and the buttons that open it."""
    st.markdown(f"##### {s.mode}. {s.title[lang]}")
    st.write(s.explanation[lang])
    st.markdown(f"**{t('scn.look', lang)}** {s.look_at[lang]}")
    q = view.questions_by_id(cache.question_sets("sample")).get(s.question_id or "")
    st.caption(
        t(
            "scn.setup",
            lang,
            question=view.question_line(s, q),
            a=overrides_text(s.overrides) or "—",
            b=overrides_text(s.compare) if s.compare else "—",
        )
    )
    buttons = st.columns(3)
    for j, page in enumerate(view.targets(s)):
        buttons[j].button(
            t(f"scn.open.{page}", lang),
            key=f"scn.{s.id}.{page}",
            on_click=load,
            args=(s, page),
            type="primary" if j == 0 else "secondary",
            width="stretch",
        )
    st.button(
        t("scn.open.lecture", lang),
        key=f"scn.{s.id}.lecture",
        on_click=load,
        args=(s, "lecture"),
        icon=":material/co_present:",
        type="tertiary",
    )
    if said := gallery.readiness_text(s, lang):
        kind, text = said
        st.caption(md(("✓ " if kind == "ready" else "⏳ ") + text))
    if loaded == s.id:
        st.success(t("scn.loaded", lang))
