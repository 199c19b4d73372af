"""Lecture: the four panes of one Trace side by side on one screen, revealed stage by stage."""

from __future__ import annotations

import streamlit as st

from ui import cache, render, sidebar
from ui.html import Markup, show, style
from ui.i18n import t
from ui.lecture import slides
from ui.lecture.view import STEPS, lecture_style, lecture_view, parse_step, selected_claim
from ui.state import K_LEC_BIG, K_LEC_BIG_W, K_LEC_CLAIM_W, K_LEC_STEP
from ui.trace_view import claim_label

#: The page keeps Streamlit's chrome small so the panes fill a 1280×720 screen;
#: the grid is as tall as the window less the chrome above it.
PAGE_CSS = Markup(
    "<style>"
    "[data-testid=stMainBlockContainer]{padding:3.3rem 1rem 0.4rem 1rem;max-width:none}"
    "[data-testid=stMainBlockContainer] [data-testid=stVerticalBlock]{gap:0.45rem}"
    "</style>"
)
GRID_HEIGHT = "calc(100vh - 7.6rem)"

ctx = sidebar.context(__file__)
lang = ctx.lang
st.set_page_config(
    initial_sidebar_state="collapsed"
)  # the projector needs the width; the ☰ reopens it
show(style() + lecture_style() + PAGE_CSS)

res = render.page_trace(ctx)
trace = res.trace
pieces = cache.token_pieces(trace)

step = parse_step(sidebar.shadow_get(K_LEC_STEP, ""))
large = sidebar.shadow_get(K_LEC_BIG, "") == "1"


def _go(n: int) -> None:
    """Button callback: show the first ``n`` panes (the URL keeps ``step`` unless all are shown)."""
    n = min(max(n, 1), STEPS)
    sidebar.shadow_set(K_LEC_STEP, "" if n == STEPS else str(n))


def _big() -> None:
    sidebar.shadow_set(K_LEC_BIG, "1" if st.session_state[K_LEC_BIG_W] else "")


st.session_state[K_LEC_BIG_W] = large
selected = selected_claim(trace, st.session_state.get(K_LEC_CLAIM_W, 0))
if (
    st.session_state.get(K_LEC_CLAIM_W) != selected
):  # another question's claim index: start at the first
    st.session_state.pop(K_LEC_CLAIM_W, None)
with st.container(horizontal=True, vertical_alignment="center", gap="small"):
    st.button(
        t("lec.back", lang),
        key="lec.back",
        on_click=_go,
        args=(step - 1,),
        disabled=step <= 1,
        shortcut="Left",
    )
    st.button(
        t("lec.next", lang),
        key="lec.next",
        on_click=_go,
        args=(step + 1,),
        disabled=step >= STEPS,
        type="primary",
        shortcut="Right",
        help=t("lec.step_help", lang),
    )
    st.button(
        t("lec.all", lang),
        key="lec.all",
        on_click=_go,
        args=(STEPS,),
        disabled=step >= STEPS,
        type="tertiary",
    )
    st.markdown(f"**{t('lec.step', lang, n=step, total=STEPS)}**", width="content")
    if selected is not None:
        sup = trace.support
        selected = st.selectbox(
            t("lec.claim", lang),
            list(range(len(sup.claims))),
            key=K_LEC_CLAIM_W,
            index=selected,
            format_func=lambda i: claim_label(sup, i, lang, limit=36),
            label_visibility="collapsed",
            width=240,
        )
    st.toggle(t("lec.big", lang), key=K_LEC_BIG_W, on_change=_big)
    with st.popover(t("lec.export", lang), icon=":material/download:"):
        view_for_export = lecture_view(
            trace, lang, step=step, selected=selected, pieces=pieces, large=large, height="100%"
        )
        document = slides.slide_html(view_for_export, lang, trace.question)
        st.caption(t("lec.export_help", lang))
        st.download_button(
            t("lec.export_html", lang),
            data=document,
            file_name=f"lecture-{lang}.html",
            mime="text/html",
            key="lec.html",
            icon=":material/code:",
            on_click="ignore",
        )
        png_ok = slides.chromium_available()
        st.download_button(
            t("lec.export_png", lang),
            data=lambda: slides.slide_png(document),
            file_name=f"lecture-{lang}.png",
            mime="image/png",
            key="lec.png",
            icon=":material/image:",
            on_click="ignore",
            disabled=not png_ok,
        )
        if not png_ok:
            st.caption(t("lec.png_missing", lang, path=slides.CHROMIUM))

show(
    lecture_view(
        trace, lang, step=step, selected=selected, pieces=pieces, large=large, height=GRID_HEIGHT
    )
)
