"""The sidebar's BEIR or TREC collection: a folder path (on a shared server, inside its root)
or an uploaded zip, with what the load dropped or could not read."""

from __future__ import annotations

from typing import Any

import streamlit as st

from rag_core.modelnames import as_typed, place_path, place_root
from rag_core.types import Notice
from rag_core.wording import NoticeError, unworded

from .. import cache
from ..html import md
from ..i18n import notice_text, t
from ..state import K_BEIR_PATH, K_BEIR_SPLIT, K_BEIR_ZIP
from ..upload_report import render_upload_report


def beir_sets(qset: Any) -> tuple[dict[str, tuple[Any, ...]], dict[str, Any]]:
    """The question set of a loaded BEIR or TREC collection and its qrels, under one name."""
    name = f"{qset.name} ({qset.split})" if qset.split else qset.name
    return {name: qset.questions}, {name: qset.qrels}


def beir(lang: str, problems: list[str]) -> tuple[Any, Any, str] | None:
    """The BEIR or TREC folder (path or zip) the widgets name, or None with a problem said."""
    ss = st.session_state
    typed = (st.session_state.get(K_BEIR_PATH) or "").strip()
    path = ""  # what is opened: on a shared server resolved once inside its root
    if typed:
        try:
            path = place_path("dataset", typed)
        except NoticeError as exc:  # a bad path, or shared and outside the root: nothing opened
            problems.append(notice_text(exc.notice, lang))
            st.session_state[K_BEIR_PATH] = ""  # before the box renders, so it may be cleared
    st.text_input(t("side.qrels.path", lang), key=K_BEIR_PATH, help=t("help.qrels.path", lang))
    st.text_input(t("side.beir.split", lang), key=K_BEIR_SPLIT, placeholder="test")
    upload = st.file_uploader(
        t("side.qrels.zip", lang), type=["zip"], key=K_BEIR_ZIP, help=t("help.qrels.path", lang)
    )
    split = (ss.get(K_BEIR_SPLIT) or "test").strip() or "test"
    try:
        if upload is not None:
            loaded = cache.beir_zip_index(upload.getvalue(), split)
        elif path:
            loaded = cache.beir_index(path, split)
        else:
            st.info(t("side.beir.none", lang))
            return None
    except (ValueError, OSError) as exc:
        said = unworded(exc)
        root, variable = place_root("dataset")
        if path != typed and root is not None:  # name the path as typed, not the server's
            said = as_typed(said, path, typed, root, variable)
        reason = notice_text(said, lang) if isinstance(said, Notice) else said
        problems.append(t("side.qrels.failed", lang, reason=reason))
        return None
    qset = loaded[1]
    st.success(
        t(
            "side.beir.ok",
            lang,
            docs=len(qset.report.documents),
            queries=len(qset.questions),
            judgements=qset.n_judgements,
        )
    )
    if not qset.split:
        st.caption(t("side.qrels.trec", lang))
    if qset.unknown_docs:
        st.caption(t("side.beir.unknown", lang, n=len(qset.unknown_docs)))
    for kind, n in qset.duplicates.items():  # repeats dropped, the first line kept
        if n:
            st.warning(t("side.beir.dup", lang, n=n, kind=t(f"side.beir.dup.{kind}", lang)))
    for said in qset.skipped:  # zip members not unpacked, each with its reason
        st.warning(md(t("side.beir.skipped", lang, line=notice_text(said, lang))))
    for said in qset.left_out:  # judged queries without text, each named
        st.warning(md(notice_text(said, lang)))
    render_upload_report(qset.report, lang)  # corpus files or rows not loaded, as for an upload
    st.caption(t("side.doc_level", lang))
    return loaded
