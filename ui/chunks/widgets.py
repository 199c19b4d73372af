"""The Chunks page's widget groups: the document picker (mirrored in the URL)."""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from rag_core.types import Document

from .. import sidebar
from ..html import md
from ..i18n import t
from ..state import K_CHUNKS_DOC, Context
from . import view
from .keys import K_CHUNKS_DOC_W


def _remember_doc() -> None:
    sidebar.shadow_set(K_CHUNKS_DOC, st.session_state[K_CHUNKS_DOC_W])


def doc_picker(ctx: Context, docs: Mapping[str, Document], lang: str) -> str:
    """The document to draw: the URL's ``doc`` when it exists (else a notice and the question's
    gold document); a page widget, mirrored in the URL through the sidebar's shadow state."""
    pick = view.pick_doc(docs, ctx.gold, ctx.chunks_doc)
    if pick.honoured:
        sidebar.url_honoured("doc")
    elif notice := sidebar.url_notice("doc", pick.current, lang):  # say what is shown instead
        st.warning(md(notice))
    if st.session_state.get(K_CHUNKS_DOC_W) not in docs:
        st.session_state[K_CHUNKS_DOC_W] = pick.current
    return st.selectbox(
        t("chk.doc", lang),
        pick.ids,
        key=K_CHUNKS_DOC_W,
        on_change=_remember_doc,
        format_func=lambda i: view.doc_option(i, docs, pick.gold_docs),
    )
