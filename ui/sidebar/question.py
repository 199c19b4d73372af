"""The sidebar's question: a question set's question (id, phrasing, its gold) or a free one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from ..html import md
from ..i18n import t
from ..state import K_QID, K_QMODE, K_QPHRASING, K_QSET, K_QTEXT, QUESTION_MODES
from .keys import K_URL_ASKED
from .url import url_honoured, url_notice

DEFAULT_QUESTION = {"ko": "한라산의 높이는 얼마인가요?", "en": "How tall is Hallasan?"}


def question_group(lang: str, qsets: Mapping[str, tuple[Any, ...]]) -> tuple[str, Any]:
    """The question group: the text asked and its gold question (``None`` for a free one)."""
    ss = st.session_state
    asked = ss.get(K_URL_ASKED, {})
    modes = QUESTION_MODES if qsets else ("free",)
    if ss.get(K_QMODE) not in modes:
        ss[K_QMODE] = modes[0]
    st.radio(
        t("side.qmode", lang),
        modes,
        key=K_QMODE,
        horizontal=True,
        format_func=lambda m: t(f"side.qmode.{m}", lang),
    )
    if ss[K_QMODE] == "free":
        if K_QTEXT not in ss:  # first time only: a box the user cleared stays empty
            ss[K_QTEXT] = DEFAULT_QUESTION.get(lang, DEFAULT_QUESTION["en"])
            url_notice("q", t("url.shown.default_question", lang, q=ss[K_QTEXT]), lang)
        text = st.text_area(
            t("side.question", lang), key=K_QTEXT, height=90, help=t("help.question", lang)
        )
        if not (text or "").strip():
            st.caption(t("side.question_empty", lang))
        url_honoured("q")
        for name in ("qset", "qid", "ph"):
            url_notice(name, t("url.shown.free", lang), lang)
        return text, None
    names = list(qsets)
    if ss.get(K_QSET) not in names:
        # a question id without its set (an older address): the set that holds it, else the first
        holder = [n for n in names if any(q.id == ss.get(K_QID) for q in qsets[n])]
        ss[K_QSET] = (holder or names)[0]
        url_notice("qset", t("url.shown.set", lang, set=ss[K_QSET]), lang)
    url_honoured("qset")
    st.selectbox(t("side.qset", lang), names, key=K_QSET)
    questions = qsets[ss[K_QSET]]
    ids = [q.id for q in questions]
    by_id = {q.id: q for q in questions}
    if ss.get(K_QID) not in by_id:
        ss[K_QID] = ids[0]
        url_notice("qid", t("url.shown.qid", lang, qid=ids[0], set=ss[K_QSET]), lang)
    url_honoured("qid")
    st.selectbox(
        t("side.qid", lang),
        ids,
        key=K_QID,
        format_func=lambda i: f"{i} · {by_id[i].question[:60]}",
        help=t("help.qid", lang),
    )
    q = by_id[ss[K_QID]]
    options = list(range(len(q.phrasings))) if q.phrasings else [0]
    if ss.get(K_QPHRASING) not in options:
        ss[K_QPHRASING] = options[0]
        url_notice("ph", t("url.shown.ph", lang, n=len(options)), lang)
    elif "ph" in asked and str(ss[K_QPHRASING]) != asked["ph"].strip():
        url_notice("ph", t("url.shown.ph", lang, n=len(options)), lang)
    url_honoured("ph")
    if "q" in asked:
        url_notice("q", t("url.shown.set_question", lang, qid=q.id), lang)
    if q.phrasings:
        st.selectbox(
            t("side.phrasing", lang),
            options,
            key=K_QPHRASING,
            format_func=lambda i: f"{i}: {q.phrasings[i][:60]}",
        )
        text = q.phrasings[ss[K_QPHRASING]]
    else:
        text = q.question
    st.caption(md(t("side.asked", lang, q=text)))
    if q.needles:
        lines = "\n".join(f"- {md(n.doc_id)} — {md(n.text)}" for n in q.needles)
        st.markdown(t("side.needles", lang) + "\n" + lines)
    elif not q.answerable:
        st.caption(t("side.unanswerable", lang))
    return text, q


def known_query_ids(qsets: Mapping[str, tuple[Any, ...]]) -> set[str]:
    return {
        qid
        for qs in qsets.values()
        for q in qs
        for qid in (q.id, *(f"{q.id}#{i}" for i in range(len(q.phrasings))))
    }
