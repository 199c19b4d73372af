"""Streamlit widget groups of the Check page."""

from __future__ import annotations

import streamlit as st

from rag_core.answer.checkfile import Row, RowProblem
from rag_core.config import SupportConfig
from rag_core.types import SupportStage
from ui import render
from ui.check import keys, view
from ui.html import marked_text, md, show, table, tag
from ui.i18n import notice_text, t, tv
from ui.trace_view import support_quality


def inputs(lang: str) -> tuple[list[Row], list[str]]:
    """The rows to check (pasted or uploaded) and the messages of unreadable lines."""
    mode = st.radio(
        t("chk2.mode", lang),
        ("paste", "upload"),
        horizontal=True,
        format_func=lambda m: t(f"chk2.mode.{m}", lang),
    )
    if mode == "upload":
        up = st.file_uploader(t("chk2.upload", lang), type=["jsonl", "json"], key=keys.K_UPLOAD)
        if up is None:
            return [], []
        rows, errors = view.uploaded_rows(up.getvalue(), up.name)
        return rows, [notice_text(e.notice, lang) for e in errors]
    st.text_input(t("chk2.question", lang), key=keys.K_QUESTION)
    st.text_area(t("chk2.contexts", lang), key=keys.K_CONTEXTS, height=180)
    st.text_area(t("chk2.answer", lang), key=keys.K_ANSWER, height=120)
    try:
        row = view.pasted_row(
            st.session_state.get(keys.K_QUESTION, ""),
            st.session_state.get(keys.K_CONTEXTS, ""),
            st.session_state.get(keys.K_ANSWER, ""),
        )
    except RowProblem as exc:  # over a cap: one line, nothing checked
        return [], [notice_text(exc.problem, lang)]
    return ([row] if row else []), []


def pick_row(rows: list[Row], lang: str) -> Row:
    if len(rows) == 1:
        return rows[0]
    i = st.selectbox(
        t("chk2.pick_row", lang),
        range(len(rows)),
        key=keys.K_ROW,
        format_func=lambda i: f"{rows[i].id} — {rows[i].answer[:60]}",
    )
    return rows[i or 0]


def result(row: Row, stage: SupportStage, cfg: SupportConfig, lang: str) -> None:
    """Verdict line, answer with claims coloured, claim table, contexts with evidence marked."""
    cnt = view.counts(stage)
    if cnt.flagged:
        st.error(t("chk2.flagged", lang, bad=cnt.bad, n=cnt.judged))
    else:
        st.success(t("chk2.ok", lang, n=cnt.judged))
    st.caption(md(t("chk2.threshold", lang, p=cfg.min_p, emb=stage.params.get("embedder") or "—")))
    st.caption(support_quality(stage, lang))
    show(render.verdict_legend(lang))
    selected = None
    if stage.claims:
        selected = st.radio(
            t("chk2.claim", lang),
            list(range(len(stage.claims))),
            key=keys.K_CLAIM,
            format_func=lambda i: md(render.claim_label(stage, i, lang)),
        )
    left, right = st.columns(2)
    with left:
        show(marked_text(row.answer, render.claim_marks(row.answer, stage, selected)))
        show(
            table(
                [
                    "#",
                    t("chk2.claim", lang),
                    t("chk2.p", lang),
                    t("chk2.reason", lang),
                    t("ins.signals", lang),
                ],
                [
                    [
                        str(i + 1),
                        tv("verdict", v, lang),
                        p,
                        render.claim_reason(stage.claims[i], lang),
                        view.claim_signals(stage.claims[i], lang),
                    ]
                    for i, v, p, _t in view.claim_rows(stage)
                ],
            )
        )
    with right:
        for n, quote in enumerate(row.contexts, start=1):
            head = tag("div", t("chk2.context", lang, n=n), cls="ri-src-h")
            marks = view.evidence_marks(stage, selected, n)
            show(tag("div", head + marked_text(quote, marks), cls="ri-src"))
