"""Lecture: the four panes of one Trace side by side on one screen, revealed stage by stage,
under a verdict line; with a comparison configuration, a before/after toggle to its baseline."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from ui import cache, render, sidebar, stream
from ui.html import Markup, md, show, style
from ui.i18n import t
from ui.lecture import keys, widgets
from ui.lecture.style import LECTURE_CSS
from ui.lecture.view import Making, lecture_view, parse_side, parse_step
from ui.state import K_LEC_BIG, K_LEC_SIDE, K_LEC_STEP, compare_config

#: The page keeps Streamlit's chrome small so the panes fill a 1280×720 screen;
#: the grid is as tall as the window less the chrome above it.
PAGE_CSS = Markup(
    "<style>"
    "[data-testid=stMainBlockContainer]{padding:3.9rem 1rem 0.4rem 1rem;max-width:none}"
    "[data-testid=stMainBlockContainer] [data-testid=stVerticalBlock]{gap:0.45rem}"
    "</style>"
)
GRID_HEIGHT = "calc(100vh - 8.2rem)"  # the toolbar clears Streamlit's 3.75rem header

ctx = sidebar.context(__file__)
lang = ctx.lang
st.set_page_config(
    initial_sidebar_state="collapsed"
)  # the projector needs the width; the ☰ reopens it
show(style() + style(LECTURE_CSS) + PAGE_CSS)

side = parse_side(sidebar.shadow_get(K_LEC_SIDE, "")) if ctx.compare_b else "a"
asked_side = sidebar.shadow_get(K_LEC_SIDE, "")
if asked_side in ("", side):
    sidebar.url_honoured("side")
elif notice := sidebar.url_notice(  # side=b without a B configuration, or no side at all
    "side", t("url.shown.side_a" if asked_side == "b" else "lec.side.a", lang), lang
):
    st.warning(md(notice))
shown = ctx
if side == "b":
    config_b, problems = compare_config(ctx.config, ctx.compare_b, lang=lang)
    for p in problems:
        st.warning(md(t("lec.side_bad", lang, error=p)))
    shown = replace(ctx, config=config_b)
res = render.page_trace(shown, staged=True)  # the panes at once, the answer streamed after
trace = res.trace
pieces = cache.token_pieces(trace)

step = parse_step(sidebar.shadow_get(K_LEC_STEP, ""))
widgets.step_notice(sidebar.shadow_get(K_LEC_STEP, ""), step, lang)
large = sidebar.shadow_get(K_LEC_BIG, "") == "1"
selected, slot = widgets.toolbar(
    trace, lang, step, large, pieces, question=ctx.gold, side=side, compare_b=ctx.compare_b,
    pending=res.pending is not None or res.stopped,
)  # fmt: skip
if res.stopped:
    with slot.container(horizontal=True, vertical_alignment="center", gap="small"):
        stream.stopped_pane(res.key, lang, widget=keys.K_LEC_RESUME, compact=True)

grid = st.empty()


def draw(making: Making | None = None) -> None:
    """The panes of ``trace``; ``making``: its answer is still being made (pane 3 says so)."""
    with grid.container():
        show(
            lecture_view(
                trace, lang, step=step, selected=selected, pieces=pieces, large=large,
                height=GRID_HEIGHT, question=ctx.gold, making=making,
            )
        )  # fmt: skip


def making(pending: stream.Pending) -> None:
    """Pane 3 while the answer is made: its estimate, and its text from the answer's step on."""
    shown = pending.text if step >= 3 else ""
    line = stream.pending_text(pending, lang, elapsed=False)  # the seconds tick in the toolbar
    draw(Making(t("lec.making", lang, line=line), shown))


if res.pending is None:
    draw()
else:
    making(res.pending)
    with slot.container(horizontal=True, vertical_alignment="center", gap="small"):
        final = stream.follow(
            res.pending, lang, key=keys.K_LEC_STOP, show_text=False, on_update=making, compact=True
        )  # the time line and Stop in the toolbar; the page reruns at the end
    if final is not None:
        trace = final
        draw()
