"""Scenarios: the lecture gallery — each failure mode (docs/ARCHITECTURE.md) one click away."""

from __future__ import annotations

import streamlit as st

from rag_core.scenarios import SCENARIOS, Scenario
from ui import cache, sidebar
from ui.html import show, style
from ui.i18n import t
from ui.state import (
    K_CHUNKS_DOC,
    K_CHUNKS_DOC_W,
    K_COMPARE_B,
    K_COMPARE_B_WIDGET,
    K_CORPUS,
    K_LEC_CLAIM_W,
    K_LEC_STEP,
    K_QID,
    K_QMODE,
    K_QPHRASING,
    K_QSET,
    K_QTEXT,
    K_SCN_LOADED,
    overrides_text,
)

ctx = sidebar.context(__file__)
lang = ctx.lang
show(style())
st.title(t("page.scenarios", lang))
st.caption(t("scn.intro", lang))


def _set_of(question_id: str) -> str | None:
    for name, questions in cache.question_sets("sample").items():
        if any(q.id == question_id for q in questions):
            return name
    return None


QUESTIONS = {q.id: q for qs in cache.question_sets("sample").values() for q in qs}


def load(s: Scenario, page: str) -> None:
    """Button callback: put the scenario's config, question and B into the sidebar state, then
    go."""
    base, _ = sidebar.start_config()
    view: dict[str, object] = {
        K_CORPUS: "sample",
        K_COMPARE_B: overrides_text(s.compare) if s.compare else "",
    }
    if s.question_id is not None:
        view.update(
            {
                K_QMODE: "set",
                K_QSET: _set_of(s.question_id),
                K_QID: s.question_id,
                K_QPHRASING: s.phrasing,
            }
        )
    else:
        view.update({K_QMODE: "free", K_QTEXT: s.question})
    view[K_CHUNKS_DOC] = ""  # the Chunks page opens on the question's gold document
    view[K_LEC_STEP] = (
        "1" if page == "lecture" else ""
    )  # the lecture starts with the candidates only
    sidebar.load_view(s.config(base), view)
    st.session_state[K_COMPARE_B_WIDGET] = view[K_COMPARE_B]
    st.session_state.pop(K_CHUNKS_DOC_W, None)
    st.session_state.pop(K_LEC_CLAIM_W, None)
    st.session_state[K_SCN_LOADED] = s.id
    sidebar.request_page(page)


loaded = st.session_state.get(K_SCN_LOADED)
cols = st.columns(2)
for i, s in enumerate(SCENARIOS):
    with cols[i % 2].container(border=True):
        st.markdown(f"##### {s.mode}. {s.title[lang]}")
        st.write(s.explanation[lang])
        st.markdown(f"**{t('scn.look', lang)}** {s.look_at[lang]}")
        q = QUESTIONS.get(s.question_id or "")
        question = (
            f"{s.question_id} “{s.question_text(q)}”"
            if q is not None
            else (s.question or s.question_id)
        )
        st.caption(
            t(
                "scn.setup",
                lang,
                question=question,
                a=overrides_text(s.overrides) or "—",
                b=overrides_text(s.compare) if s.compare else "—",
            )
        )
        buttons = st.columns(3)
        targets = [s.page] + [
            p for p in ("inspect", "compare") if p != s.page and (p != "compare" or s.compare)
        ]
        for j, page in enumerate(targets):
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
        if loaded == s.id:
            st.success(t("scn.loaded", lang))
