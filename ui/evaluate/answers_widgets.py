"""Evaluate page, answers section: run the full pipeline on a question set and show what users
would see.

Rendering only: the scoring is :mod:`rag_core.evaluation.answers`, the rows and tables
:mod:`ui.evaluate.answers_view`. The run goes query by query with a progress bar and a
cancel button; rows done so far live in the session, so a cancel (or any rerun mid-run)
shows them labelled *partial*.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from rag_core import models  # models.get_* read at call time: the one place a model is swapped
from rag_core.config_checks import is_endpoint_model
from rag_core.evaluation.answers import assemble, compare_answers, evaluate_answers
from rag_core.models import ModelUnavailable

from ..html import md, show, table
from ..i18n import error_text, notice_text, t
from . import answers_view as view
from .keys import (
    K_ANS_CANCEL,
    K_ANS_CONC,
    K_ANS_DL,
    K_ANS_LIVE,
    K_ANS_N,
    K_ANS_RESULT,
    K_ANS_RUN,
    K_ANS_SIDE,
    K_ANS_TABLE,
)

#: The most requests the Evaluate page keeps in flight against an endpoint.
MAX_CONCURRENCY = 16


def render(ctx: Any, lang: str, questions: Any, qset: str, config_a: Any, config_b: Any) -> None:
    """The answers section (toggle, run with progress and cancel, metrics, loss stages, per-query
    rows)."""
    ss = st.session_state
    st.header(t("ans.h", lang))
    st.caption(t("ans.intro", lang))
    n_all = len(questions)
    if not isinstance(ss.get(K_ANS_N), int) or not 1 <= ss[K_ANS_N] <= n_all:
        ss[K_ANS_N] = min(6, n_all)
    c1, c2 = st.columns([2, 3])
    c1.number_input(
        t("ans.n", lang),
        min_value=1,
        max_value=n_all,
        step=1,
        key=K_ANS_N,
        help=t("help.ans.n", lang),
    )
    if not isinstance(ss.get(K_ANS_CONC), int) or not 1 <= ss[K_ANS_CONC] <= MAX_CONCURRENCY:
        ss[K_ANS_CONC] = 1
    c1.number_input(
        t("ans.concurrency", lang),
        min_value=1,
        max_value=MAX_CONCURRENCY,
        step=1,
        key=K_ANS_CONC,
        help=t("help.ans.concurrency", lang),
    )
    chosen = list(questions[: int(ss[K_ANS_N])])
    sides = {"A": config_a} if config_b is None else {"A": config_a, "B": config_b}
    key = (ctx.corpus_key, qset, len(chosen), *(c.to_json(sort_keys=True) for c in sides.values()))
    c2.caption(
        t(
            "ans.plan",
            lang,
            n=len(chosen),
            answerable=sum(q.answerable for q in chosen),
            sides=len(sides),
        )
    )
    if st.button(t("ans.run", lang), key=K_ANS_RUN, icon=":material/play_arrow:"):
        ss[K_ANS_LIVE] = {"key": key, "rows": {s: [] for s in sides}, "done": {}}
        ss[K_ANS_CANCEL] = False
        ss.pop(K_ANS_RESULT, None)
    live = ss.get(K_ANS_LIVE)
    if live is not None and live["key"] == key:
        _run(ctx, lang, chosen, sides, live)
    res = ss.get(K_ANS_RESULT)
    if res is None:
        st.info(t("ans.press_run", lang))
        return
    if res["key"] != key:
        st.info(t("ev.stale", lang))
    _show(res, lang)


def in_flight(cfg: Any, setting: Any) -> int:
    """Questions in flight for one side: the setting for an endpoint generator, 1 for an
    in-process model (one model answers one question at a time)."""
    if not is_endpoint_model(cfg.generation.model):
        return 1
    return int(setting) if isinstance(setting, int) and 1 <= setting <= MAX_CONCURRENCY else 1


def _cancel() -> None:
    st.session_state[K_ANS_CANCEL] = True


def _run(
    ctx: Any, lang: str, chosen: list[Any], sides: dict[str, Any], live: dict[str, Any]
) -> None:
    """Run (or, after a cancel, close) the live answer evaluation; store the result in the
    session."""
    ss = st.session_state
    cancelled = bool(ss.get(K_ANS_CANCEL))
    out: dict[str, Any] = {}
    for side, cfg in sides.items():
        if side in live["done"]:
            out[side] = live["done"][side]
            continue
        if cancelled:
            try:
                gen = models.get_generator(cfg.generation.model, dtype=cfg.generation.dtype)
            except ModelUnavailable:
                gen = None
            out[side] = assemble(cfg, chosen, ctx.corpus, live["rows"][side], gen, status="partial")
            continue
        slot = st.empty()
        slot.button(
            t("ans.cancel", lang),
            key=f"{K_ANS_CANCEL}.{side}",
            on_click=_cancel,
            icon=":material/stop:",
        )
        bar = st.progress(0.0, text=t("ans.running", lang, side=side, done=0, n=len(chosen)))
        live["rows"][side] = []

        def progress(done: int, total: int, side: str = side, bar: Any = bar) -> None:
            bar.progress(done / total, text=t("ans.running", lang, side=side, done=done, n=total))

        try:
            ev = evaluate_answers(
                cfg,
                chosen,
                ctx.corpus,
                progress=progress,
                on_row=live["rows"][side].append,
                should_stop=lambda: bool(ss.get(K_ANS_CANCEL)),
                concurrency=in_flight(cfg, ss.get(K_ANS_CONC)),
            )
        except ValueError as exc:
            st.error(md(error_text(exc, lang)))
            ss.pop(K_ANS_LIVE, None)
            return
        bar.empty()
        slot.empty()
        live["done"][side] = ev
        out[side] = ev
    cmp = None
    if len(out) == 2 and all(ev.rows for ev in out.values()):
        cmp = compare_answers(out["A"], out["B"])
    ss[K_ANS_RESULT] = {"key": live["key"], "sides": out, "cmp": cmp}
    ss.pop(K_ANS_LIVE, None)


def _show(res: dict[str, Any], lang: str) -> None:
    sides = res["sides"]
    _side_notes(sides, lang)
    live = view.answered_sides(sides)
    if not live:
        _retrieval_only(sides, lang)
        return
    show(table(*view.rates_table(sides, live, lang)))
    st.caption(t("ans.rates_help", lang))
    _loss_stages(sides, live, lang)
    cmp = res.get("cmp")
    if cmp:
        st.subheader(t("ans.h.compare", lang))
        show(table(*view.comparison_table(cmp, lang)))
        for line in view.mde_lines(cmp, lang):
            st.caption(md(line))
    _query_rows(sides, live, lang)
    st.download_button(
        t("ans.dl", lang),
        data=view.download_json(sides, cmp),
        file_name="answers.json",
        mime="application/json",
        key=K_ANS_DL,
        icon=":material/download:",
        on_click="ignore",
    )


def _side_notes(sides: dict[str, Any], lang: str) -> None:
    """Per side: partial or fallen back, its warnings, and its result hash."""
    for side, ev in sides.items():
        if ev.status == "partial":
            st.warning(t("ans.partial", lang, side=side, done=len(ev.rows), n=ev.n_planned))
        elif ev.status == "retrieval_only":
            why = notice_text(ev.notice, lang) if ev.notice is not None else ev.message
            st.warning(md(t("ans.fallback", lang, side=side, reason=why)))
        for n in ev.notices:
            st.caption(md(notice_text(n, lang)))
        st.caption(md(t("ans.hash", lang, side=side, hash=ev.result_hash, model=ev.model or "—")))


def _retrieval_only(sides: dict[str, Any], lang: str) -> None:
    """No side generated: each side's retrieval means instead."""
    for side, ev in sides.items():
        head, rows = view.retrieval_only_table(ev, lang)
        if rows:
            st.markdown(f"**{side}** · {t('ans.retrieval_only', lang)}")
            show(table(head, rows))


def _loss_stages(sides: dict[str, Any], live: list[str], lang: str) -> None:
    """One funnel per answered side: where the answerable questions were lost."""
    st.subheader(t("ans.h.loss", lang))
    cols = st.columns(len(live))
    for col, s in zip(cols, live, strict=True):
        summ = sides[s].summary
        with col:
            st.markdown(f"**{s}**")
            st.plotly_chart(
                view.funnel_figure(summ, lang),
                key=f"eval.ans.funnel.{s}",
                config={"displayModeBar": False},
            )
            st.caption(
                md(
                    t(
                        "ans.loss_sum",
                        lang,
                        failed=summ["n_failed"],
                        total=sum(summ["loss_stages"].values()),
                        n=summ["n_answerable"],
                    )
                )
            )


def _query_rows(sides: dict[str, Any], live: list[str], lang: str) -> None:
    """The per-query table of one answered side (a picker when there are two)."""
    st.subheader(t("ans.h.rows", lang))
    side = (
        live[0]
        if len(live) == 1
        else st.radio(t("ans.side", lang), live, key=K_ANS_SIDE, horizontal=True)
    )
    st.dataframe(
        view.query_rows(sides[side], lang),
        hide_index=True,
        key=K_ANS_TABLE,
        column_config={
            name: st.column_config.TextColumn(t(label, lang), width=width)
            for name, label, width in view.QUERY_COLUMNS
        },
    )
