"""The sidebar's corpus: the bundled samples, uploaded files or a BEIR/TREC collection, as one
:class:`CorpusChoice`; the last corpus that loaded stays when a new choice fails."""

from __future__ import annotations

import contextvars
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st

from rag_core.config import PipelineConfig

from .. import cache
from ..html import md
from ..i18n import error_text, t
from ..state import CORPORA, K_CORPUS, K_UPLOADS
from ..upload_report import render_upload_report
from .datasets import beir, beir_sets
from .keys import K_LAST_CORPUS

#: This script run's upload line (slot, documents), filled by ``render()`` once the config is
#: known. A ContextVar: each session's script thread sees its own.
UPLOAD_NOTE: contextvars.ContextVar[tuple[Any, int] | None] = contextvars.ContextVar(
    "upload_note", default=None
)


@dataclass(frozen=True)
class CorpusChoice:
    """What the corpus group resolved.

    Attributes:
        index: the ``CorpusIndex`` in use (the last good one when the choice failed).
        key: its cache key.
        question_sets: question sets by name (a BEIR/TREC collection's own, else the bundled).
        qrels: a BEIR/TREC collection's qrels under its question set's name.
        problems: what went wrong on the way, worded in the page language.
    """

    index: Any
    key: str
    question_sets: Mapping[str, tuple[Any, ...]]
    qrels: Mapping[str, Any]
    problems: tuple[str, ...] = ()


def choose_corpus(lang: str) -> CorpusChoice:
    """The chosen corpus (falls back to the last good one), its key, question sets, their qrels,
    problems.

    An upload's "indexed" line goes into a slot that ``render()`` fills once
    the config is known (a corpus the chunker turns into no chunk says so instead).
    """
    ss = st.session_state
    problems: list[str] = []
    st.selectbox(
        t("side.corpus", lang), CORPORA, key=K_CORPUS, format_func=lambda c: t(f"corpus.{c}", lang)
    )
    choice = ss[K_CORPUS]
    chosen: CorpusChoice | None = None
    if choice == "upload":
        chosen = _upload(lang, problems)
    elif choice == "beir":
        chosen = _collection(lang, problems)
    elif choice == "sample-html":
        chosen = _sample_html(lang, problems)
    elif choice == "sample":
        chosen = _sample()
    if chosen is None:
        chosen = _fallback(lang, problems)
    return replace(chosen, problems=tuple(problems))


def _upload(lang: str, problems: list[str]) -> CorpusChoice | None:
    """Uploaded files, indexed, with their load report; None when none loaded."""
    files = st.file_uploader(
        t("side.upload", lang),
        type=["md", "markdown", "txt", "html", "htm", "csv", "json", "jsonl"],
        accept_multiple_files=True,
        key=K_UPLOADS,
        help=t("help.upload", lang),
    )
    payload = tuple((f.name, f.getvalue()) for f in files or ())
    if not payload:
        st.info(t("side.upload.none", lang))
        return None
    index, report, key = cache.upload_index(payload)
    render_upload_report(report, lang)
    if index is None:
        problems.append(t("side.upload.empty", lang))
        return None
    UPLOAD_NOTE.set((st.empty(), report.n_documents))
    st.session_state[K_LAST_CORPUS] = ("upload", key)
    return CorpusChoice(index, key, {}, {})


def _collection(lang: str, problems: list[str]) -> CorpusChoice | None:
    """A BEIR or TREC collection (``datasets.beir``) with its question set and qrels."""
    loaded = beir(lang, problems)
    if loaded is None:
        return None
    index, qset, key = loaded
    st.session_state[K_LAST_CORPUS] = ("beir", loaded)
    return CorpusChoice(index, key, *beir_sets(qset))


def _sample_html(lang: str, problems: list[str]) -> CorpusChoice | None:
    """The bundled HTML sample, or None with the reason it is missing."""
    try:
        index = cache.sample_index("sample-html")
        st.session_state[K_LAST_CORPUS] = ("sample-html", "sample-html")
        return CorpusChoice(
            index, f"sample-html:{index.fingerprint}", cache.question_sets("sample-html"), {}
        )
    except ValueError as exc:
        problems.append(t("side.corpus.missing", lang, reason=error_text(exc, lang)))
        return None


def _sample() -> CorpusChoice:
    """The bundled sample corpus and its question sets."""
    index = cache.sample_index("sample")
    st.session_state[K_LAST_CORPUS] = ("sample", "sample")
    return CorpusChoice(index, f"sample:{index.fingerprint}", cache.question_sets("sample"), {})


def _fallback(lang: str, problems: list[str]) -> CorpusChoice:
    """The last corpus that loaded (nothing loaded before is lost), else the sample."""
    kind, key = st.session_state.get(K_LAST_CORPUS, ("sample", "sample"))
    if kind == "upload":
        index = cache.upload_lookup(key)
        if index is not None:
            problems.append(t("side.corpus.kept", lang))
            return CorpusChoice(index, key, {}, {})
    if kind == "beir":  # the last BEIR set that loaded stays
        index, qset, bkey = key
        problems.append(t("side.corpus.kept", lang))
        return CorpusChoice(index, bkey, *beir_sets(qset))
    index = cache.sample_index("sample")
    problems.append(t("side.corpus.fallback", lang))
    return CorpusChoice(index, f"sample:{index.fingerprint}", cache.question_sets("sample"), {})


def upload_line(corpus: Any, config: PipelineConfig, lang: str) -> None:
    """Fill this run's upload slot: documents indexed, or that the chunker made no chunk of them."""
    note = UPLOAD_NOTE.get()
    if note is None:
        return
    UPLOAD_NOTE.set(None)
    slot, n_docs = note
    try:
        chunking = corpus.chunking(config.chunker)
    except ValueError:
        chunking = None
    if chunking is not None and not chunking.chunks:
        slot.warning(md(t("upload.no_chunks", lang, n=n_docs, sig=chunking.signature)))
    else:
        slot.success(t("side.upload.ok", lang, n=n_docs))
