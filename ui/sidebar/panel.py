"""The sidebar drawn and resolved: ``render()`` draws every group in order and returns the
run's :class:`~ui.state.Context`; ``context()`` is what every page starts with."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import streamlit as st
from streamlit.errors import StreamlitAPIException

from rag_core.config import PipelineConfig

from ..html import md
from ..i18n import error_text, t
from ..state import (
    K_CHUNKS_DOC,
    K_COMPARE_B,
    K_CORPUS,
    K_LANG,
    K_RUNS,
    LANGS,
    Context,
    config_from_widgets,
    widgets_from_config,
)
from .corpus import UPLOAD_NOTE, choose_corpus, upload_line
from .generation import generation
from .keys import (
    K_CARRY,
    K_CFG,
    K_CTX,
    K_FRESH,
    K_GOTO,
    K_HOPPED,
    K_LANG_SHADOW,
    K_PROBLEMS,
)
from .knobs import chunker, context_knobs, rerank_gate, support
from .question import known_query_ids, question_group
from .retrieval import imported_runs, retrieval
from .session import (
    ROOT,
    VIEW_WIDGETS,
    current_lang,
    init_session,
    page_path,
    seed,
    shared_config,
)
from .url import mirror_url, shadow_get


def context(page_file: str | None = None) -> Context:
    """The context the sidebar resolved in this script run (every page starts with this).

    ``app.py`` renders the sidebar before running the page. Streamlit can
    also run a page file on its own: with a ``pages/`` folder next to the
    entrypoint it starts in its legacy folder mode until ``st.navigation``
    has run once in the process, so a shared URL such as ``/compare?…``
    opened first on a fresh server runs ``pages/compare.py`` without
    ``app.py``. Then (once per session) the page hands over to ``app.py``
    with the same query string and asks to come back (``page_file``), so
    navigation and layout are the app's own; failing that, the page renders
    the sidebar itself.
    """
    ss = st.session_state
    if ss.pop(K_FRESH, False) and K_CTX in ss:
        return ss[K_CTX]
    if page_file and not ss.get(K_HOPPED):
        ss[K_HOPPED] = True
        ss[K_GOTO] = Path(page_file).stem
        try:
            st.switch_page(str(ROOT / "app.py"), query_params=st.query_params.to_dict())
        except StreamlitAPIException:  # app.py is not a page here (the page was run on its own)
            ss.pop(K_GOTO, None)
    return render()


def resolved_config(lang: str) -> tuple[PipelineConfig, list[str]]:
    """The config the widgets make (on a shared server, typed paths held to the URL's rules)
    and what was refused; when they make none, the last good one and the error."""
    ss = st.session_state
    refused: list[str] = []
    try:
        config = config_from_widgets(cast(Mapping[str, Any], ss))  # session state reads as one
        config, refused = shared_config(config, lang)  # shared server: typed paths as the URL's
        ss[K_CFG] = config
    except ValueError as exc:
        config = ss[K_CFG]
        st.error(md(t("side.bad_config", lang, error=error_text(exc, lang))))
    return config, refused


def render() -> Context:
    """Render the sidebar, resolve the context, mirror it into the URL."""
    ss = st.session_state
    UPLOAD_NOTE.set(None)
    goto = ss.pop(K_GOTO, None)
    if goto:  # the switch drops the widgets' state: the corpus, its folder, the question
        ss[K_CARRY] = {k: ss[k] for k in VIEW_WIDGETS if k in ss}
        st.switch_page(page_path(goto), query_params=st.query_params.to_dict())
    init_session()
    ss.update(ss.pop(K_CARRY, {}))
    seed(widgets_from_config(ss[K_CFG]))
    for k in VIEW_WIDGETS:  # kept across a language switch, as seed() keeps the config's
        if k in ss:
            ss[k] = ss[k]
    if ss.get(K_LANG) not in LANGS:  # a page switch before the widget rendered dropped its state
        ss[K_LANG] = ss.get(K_LANG_SHADOW) if ss.get(K_LANG_SHADOW) in LANGS else current_lang()
    sb = st.sidebar
    with sb:
        st.segmented_control(
            "🌐",
            LANGS,
            key=K_LANG,
            format_func=lambda x: {"ko": "한국어", "en": "English"}[x],
            label_visibility="collapsed",
            required=True,
        )
        lang = ss.get(K_LANG) or "ko"
        ss[K_LANG_SHADOW] = lang
        with st.expander(
            t("side.section.corpus", lang), expanded=ss.get(K_CORPUS) in ("upload", "beir")
        ):
            chosen = choose_corpus(lang)
        with st.expander(t("side.section.question", lang), expanded=True):
            question, gold = question_group(lang, chosen.question_sets)
        problems = [*ss.get(K_PROBLEMS, []), *chosen.problems]
        with st.expander(t("side.section.chunking", lang)):
            chunker(lang)
        with st.expander(t("side.section.retrieval", lang), expanded=True):
            retrieval(lang, chosen.index)
            runs = imported_runs(lang, known_query_ids(chosen.question_sets), problems)
        with st.expander(t("side.section.rerank_gate", lang)):
            rerank_gate(lang)
        with st.expander(t("side.section.context", lang)):
            context_knobs(lang)
            generation(lang)
            support(lang)
        config, refused = resolved_config(lang)
        problems += refused
        upload_line(chosen.index, config, lang)
        for p in problems:
            st.warning(md(p))
        if ss.get(K_PROBLEMS) and st.button(t("side.dismiss", lang), key="side.dismiss"):
            ss[K_PROBLEMS] = []
    mirror_url(lang, config, question, gold)
    corpus_key = chosen.key
    used = {tag: runs[tag] for tag in ss.get(K_RUNS) or [] if tag in runs}
    if used:  # every cache keyed by the corpus also depends on the runs in use
        corpus_key = f"{corpus_key}|runs:{','.join(r.fingerprint for r in used.values())}"
    ctx = Context(
        lang=lang,
        config=config,
        corpus=chosen.index,
        corpus_key=corpus_key,
        runs=used,
        dataset_qrels=chosen.qrels,
        question=question,
        gold=gold,
        question_sets=chosen.question_sets,
        compare_b=shadow_get(K_COMPARE_B),
        chunks_doc=shadow_get(K_CHUNKS_DOC),
        problems=tuple(problems),
    )
    ss[K_CTX] = ctx
    ss[K_FRESH] = True
    return ctx
