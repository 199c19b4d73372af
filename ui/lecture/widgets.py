"""The Lecture page's widget groups: the step buttons, claim picker and size toggle, and the
slide export."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import streamlit as st

from rag_core.scenarios import scenario, scenario_runs
from rag_core.types import Question, Trace

from .. import cache, gallery, sidebar
from ..html import md
from ..i18n import t
from ..scenarios.keys import K_SCN_LOADED
from ..state import K_LEC_BIG, K_LEC_SIDE, K_LEC_STEP, overrides_text
from ..trace_view import claim_label
from . import slides
from .keys import K_LEC_BIG_W, K_LEC_SIDE_W, claim_key
from .view import JUDGED_STEP, SIDES, STEPS, lecture_view, selected_claim, step_honoured


def _go(n: int) -> None:
    """Button callback: show the first ``n`` panes (the URL keeps ``step`` unless all are shown)."""
    n = min(max(n, 1), STEPS)
    sidebar.shadow_set(K_LEC_STEP, "" if n == STEPS else str(n))


def step_notice(asked: object, step: int, lang: str) -> None:
    """The address's ``step=`` when it names no step 1…:data:`STEPS`: one notice saying which
    step is shown instead (once per session, like the sidebar's URL notices)."""
    if step_honoured(asked):
        sidebar.url_honoured("step")
    elif notice := sidebar.url_notice("step", t("lec.step", lang, n=step, total=STEPS), lang):
        st.warning(md(notice))


def _big() -> None:
    sidebar.shadow_set(K_LEC_BIG, "1" if st.session_state[K_LEC_BIG_W] else "")


def _side() -> None:
    side = st.session_state.get(K_LEC_SIDE_W) or "a"
    sidebar.shadow_set(K_LEC_SIDE, "" if side == "a" else side)


def side_toggle(side: str, compare_b: str, lang: str) -> None:
    """Before/after: configuration A (the scenario's failure) or B (its working baseline)."""
    st.session_state[K_LEC_SIDE_W] = side
    st.segmented_control(
        t("lec.side", lang),
        list(SIDES),
        key=K_LEC_SIDE_W,
        format_func=lambda s: t(f"lec.side.{s}", lang),
        on_change=_side,
        required=True,
        label_visibility="collapsed",
        help=md(t("lec.side_help", lang, b=compare_b)),
    )


def _readiness(compare_b: str, lang: str) -> str | None:
    """A short line for the toolbar when a side of the loaded scenario is not prepared (its
    estimate; None when both are, or no scenario of the gallery is shown)."""
    loaded = st.session_state.get(K_SCN_LOADED)
    try:
        s = scenario(str(loaded))
    except ValueError:
        return None
    if s.compare is None or overrides_text(s.compare) != compare_b:  # another B than its own
        return None
    waiting = []
    for side in ("A", "B"):
        state = gallery.status(s.id, side)
        if state is None:
            return None
        if not state.ready:
            est = "…" if state.seconds is None else f"≈ {state.seconds:.0f} s"
            waiting.append(f"{side} {est}")
    return t("lec.unready", lang, sides=", ".join(waiting)) if waiting else None


def toolbar(
    trace: Trace,
    lang: str,
    step: int,
    large: bool,
    pieces: tuple[Sequence[str], int] | None,
    *,
    question: Question | None = None,
    side: str = "a",
    compare_b: str = "",
    pending: bool = False,
) -> tuple[int | None, Any]:
    """Back / next / all, the step, the A/B toggle (with a B), the claim picker (from the
    claims' step on: its labels carry verdicts; one per side and answer), the size toggle and
    the export; returns the selected claim (None without claims or before their step) and,
    when the answer is ``pending`` (or stopped), a slot at the row's end for its time line and
    Stop (None otherwise)."""
    st.session_state[K_LEC_BIG_W] = large
    claim_w = claim_key(side, trace.generation.answer)
    selected = selected_claim(trace, st.session_state.get(claim_w, 0))
    if st.session_state.get(claim_w) != selected:  # out of range: start at the first
        st.session_state.pop(claim_w, None)
    slot = None
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
        if compare_b:
            side_toggle(side, compare_b, lang)
            if said := _readiness(compare_b, lang):  # a side whose answers are not made yet
                st.caption(md("⏳ " + said), width="content")
        if step < JUDGED_STEP:
            selected = None  # no claim (nor its verdict) before the claims' step
        if selected is not None:
            sup = trace.support
            selected = st.selectbox(
                t("lec.claim", lang),
                list(range(len(sup.claims))),
                key=claim_w,
                index=selected,
                format_func=lambda i: claim_label(sup, i, lang, limit=36),
                label_visibility="collapsed",
                width=240,
            )
        st.toggle(t("lec.big", lang), key=K_LEC_BIG_W, on_change=_big)
        with st.popover(t("lec.export", lang), icon=":material/download:"):
            export(trace, lang, step, selected, pieces, large, question)
        with st.popover(t("lec.prepare", lang), icon=":material/bolt:"):
            prepare_scenarios(lang)
        if pending:  # the answer's time line and Stop (or Generate): in the row, not above
            slot = st.empty()
    return selected, slot


def prepare_scenarios(lang: str) -> None:
    """A button that runs every scenario's A and B once on the bundled corpus, with progress:
    their Traces go into the app's Trace cache and their answers into the generation cache,
    so a lecture opens each scenario without waiting."""
    st.caption(t("lec.prepare_help", lang))
    if not st.button(t("lec.prepare_go", lang), key="lec.prepare.go", type="primary"):
        return
    base, _ = sidebar.start_config()
    runs = scenario_runs(base)
    corpus = cache.sample_index("sample")
    questions = {q.id: q for qs in cache.question_sets("sample").values() for q in qs}
    bar = st.progress(0.0)
    t0, replayed, failed = time.perf_counter(), 0, []
    for i, r in enumerate(runs):
        bar.progress(
            i / len(runs),
            text=t(
                "lec.preparing",
                lang,
                i=i + 1,
                n=len(runs),
                title=r.scenario.title[lang],
                side=r.side,
            ),
        )
        q = questions.get(r.scenario.question_id or "")
        res = cache.get_trace(
            corpus,
            f"sample:{corpus.fingerprint}",
            r.config,
            r.scenario.question_text(q),
            q,
            progress_label=t("ins.running", lang),
            lang=lang,
        )
        if res.trace is None:
            failed.append(f"{r.scenario.id} {r.side}: {res.error}")
        elif res.cached or res.trace.generation.cached:
            replayed += 1
    bar.progress(
        1.0,
        text=t(
            "lec.prepared",
            lang,
            n=len(runs),
            seconds=f"{time.perf_counter() - t0:.0f}",
            cached=replayed,
        ),
    )
    for line in failed:
        st.warning(md(line))


def export(
    trace: Trace,
    lang: str,
    step: int,
    selected: int | None,
    pieces: tuple[Sequence[str], int] | None,
    large: bool,
    question: Question | None = None,
) -> None:
    """The slide export: the lecture view as one HTML file, or a PNG of it."""
    view_for_export = lecture_view(
        trace,
        lang,
        step=step,
        selected=selected,
        pieces=pieces,
        large=large,
        height="100%",
        question=question,
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
