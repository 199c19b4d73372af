"""The sidebar's retrieval group: methods and analyzers, k, fusion, BM25 and n-gram knobs, the
dense model, the Qdrant collection, and imported runs."""

from __future__ import annotations

from typing import Any

import streamlit as st

from rag_core.config import ANALYZERS, BM25_VARIANTS, FUSION_METHODS, RETRIEVAL_METHODS
from rag_core.retrieval.runs import check_queries

from .. import cache
from ..html import md
from ..i18n import error_text, t
from ..state import K_ANALYZER_FOR, K_METHODS, K_PER_METHOD, K_RUN_FILES, K_RUNS, SPARSE_METHODS
from .knobs import number

DENSE_MODELS = ("auto", "minilm", "e5-small")


def dense_model_note(corpus: Any, model: str, lang: str) -> str:
    """Which embedding model dense retrieval uses on ``corpus`` and why (``auto`` names its
    reason)."""
    if model != "auto":
        return t("side.dense_fixed", lang, model=model)
    chosen, _reason = corpus.dense_choice("auto")
    n_ko = corpus.korean_documents()
    return t(
        "side.dense_auto.ko" if n_ko else "side.dense_auto.en",
        lang,
        model=chosen,
        n=len(corpus.docs),
        n_ko=n_ko,
    )


def imported_runs(lang: str, known: set[str], problems: list[str]) -> dict[str, Any]:
    """Imported runs (uploaded TREC/JSONL files) by tag; a bad file is a message and is left out."""
    ss = st.session_state
    files = st.file_uploader(
        t("side.runs", lang), accept_multiple_files=True, key=K_RUN_FILES, help=t("help.runs", lang)
    )
    runs: dict[str, Any] = {}
    for f in files or ():
        try:
            parsed = cache.parse_run(f.name, f.getvalue())
            check_queries(parsed, known)
        except ValueError as exc:
            problems.append(t("side.runs.failed", lang, reason=error_text(exc, lang)))
            continue
        for tag, r in parsed.items():
            if tag in runs:
                problems.append(
                    t(
                        "side.runs.failed",
                        lang,
                        reason=t("side.runs.twice", lang, name=f.name, tag=tag),
                    )
                )
                continue
            runs[tag] = r
            st.caption(md(t("side.runs.ok", lang, tag=tag, n=len(r.hits))))
    options = sorted(set(runs) | set(ss.get(K_RUNS) or []))
    if options:
        st.multiselect(
            t("side.runs.use", lang), options, key=K_RUNS, format_func=lambda x: f"run:{x}"
        )
    return runs


def retrieval(lang: str, corpus: Any) -> None:
    """The retrieval group: methods and analyzers, k, fusion, then the advanced knobs."""
    ss = st.session_state
    _methods_and_analyzers(lang, corpus)
    k_max = max(50, int(ss.get("retrieval.k") or 1))
    st.slider(t("side.k", lang), 1, k_max, key="retrieval.k", help=t("help.k", lang))
    if len(ss.get(K_METHODS) or []) > 1:
        _fusion(lang)
    with st.expander(t("side.advanced_retrieval", lang)):
        _bm25_params(lang)
        _ngrams_and_dense_model(lang)
    if "qdrant" in (ss.get(K_METHODS) or []):
        _qdrant(lang)


def _methods_and_analyzers(lang: str, corpus: Any) -> None:
    """Which retrievers, the dense model they would use, and the analyzer (per method)."""
    ss = st.session_state
    st.multiselect(
        t("side.methods", lang),
        RETRIEVAL_METHODS,
        key=K_METHODS,
        format_func=lambda m: t(f"method.{m}", lang),
        help=t("help.methods", lang),
    )
    st.caption(dense_model_note(corpus, ss.get("retrieval.dense_model") or "auto", lang))
    st.selectbox(
        t("side.analyzer", lang),
        ANALYZERS,
        key="retrieval.analyzer",
        format_func=lambda a: t(f"analyzer.{a}", lang),
        help=t("help.analyzer", lang),
    )
    sparse = [m for m in ss.get(K_METHODS) or [] if m in SPARSE_METHODS]
    if len(sparse) >= 1:
        st.toggle(t("side.per_method", lang), key=K_PER_METHOD, help=t("help.per_method", lang))
        if ss.get(K_PER_METHOD):
            for m in sparse:
                st.selectbox(
                    t("side.analyzer_for", lang, method=t(f"method.{m}", lang)),
                    ANALYZERS,
                    key=K_ANALYZER_FOR + m,
                    format_func=lambda a: t(f"analyzer.{a}", lang),
                )


def _fusion(lang: str) -> None:
    """How several lists are fused, with the chosen method's parameter."""
    ss = st.session_state
    st.selectbox(
        t("side.fusion", lang),
        FUSION_METHODS,
        key="fusion.method",
        format_func=lambda f: t(f"fusion.{f}", lang),
        help=t("help.fusion", lang),
    )
    if ss.get("fusion.method") == "rrf":
        number(
            t("side.rrf_k", lang),
            "fusion.rrf_k",
            lang,
            "help.rrf_k",
            min_value=0,
            max_value=100_000,
            step=10,
        )
    if ss.get("fusion.method") == "weighted":
        st.slider(
            t("side.alpha", lang),
            0.0,
            1.0,
            key="fusion.alpha",
            step=0.05,
            help=t("help.alpha", lang),
        )


def _bm25_params(lang: str) -> None:
    """The BM25 variant and its k1, b, δ / ε."""
    ss = st.session_state
    st.selectbox(
        t("side.bm25_variant", lang),
        BM25_VARIANTS,
        key="retrieval.bm25_variant",
        help=t("help.bm25_variant", lang),
    )
    c1, c2 = st.columns(2)
    with c1:
        number("k1", "retrieval.k1", lang, min_value=0.0, max_value=10.0, step=0.1, format="%.2f")
    with c2:
        number("b", "retrieval.b", lang, min_value=0.0, max_value=1.0, step=0.05, format="%.2f")
    if ss.get("retrieval.bm25_variant") in ("l", "plus"):
        number(
            "δ (delta)",
            "retrieval.delta",
            lang,
            min_value=0.0,
            max_value=10.0,
            step=0.1,
            format="%.2f",
        )
    if ss.get("retrieval.bm25_variant") == "okapi":
        number(
            "ε (epsilon)",
            "retrieval.epsilon",
            lang,
            min_value=0.0,
            max_value=10.0,
            step=0.05,
            format="%.2f",
        )


def _ngrams_and_dense_model(lang: str) -> None:
    """The character n-gram range and the dense model."""
    ss = st.session_state
    c1, c2 = st.columns(2)
    with c1:
        number(t("side.ngram_min", lang), "retrieval.ngram_min", lang, min_value=1, max_value=10)
    with c2:
        number(t("side.ngram_max", lang), "retrieval.ngram_max", lang, min_value=1, max_value=10)
    models = list(DENSE_MODELS)
    if ss.get("retrieval.dense_model") not in models:
        models.append(ss["retrieval.dense_model"])
    st.selectbox(
        t("side.dense_model", lang),
        models,
        key="retrieval.dense_model",
        help=t("help.dense_model", lang),
    )


def _qdrant(lang: str) -> None:
    """Where the Qdrant collection lives and how to read it (shown when Qdrant is a retriever)."""
    ss = st.session_state
    with st.expander(t("side.qdrant", lang), expanded=True):
        st.text_input(
            t("side.qdrant_url", lang),
            key="retrieval.qdrant_url",
            placeholder="http://localhost:6333",
            help=t("help.qdrant_url", lang),
        )
        st.text_input(
            t("side.qdrant_path", lang),
            key="retrieval.qdrant_path",
            help=t("help.qdrant_path", lang),
        )
        st.text_input(t("side.qdrant_collection", lang), key="retrieval.qdrant_collection")
        c1, c2 = st.columns(2)
        with c1:
            st.text_input(t("side.qdrant_text_field", lang), key="retrieval.qdrant_text_field")
        with c2:
            st.text_input(t("side.qdrant_doc_field", lang), key="retrieval.qdrant_doc_field")
        models = [
            m for m in DENSE_MODELS if m != "auto"
        ]  # the collection's own embedder, never a guess
        if ss.get("retrieval.qdrant_model") not in models:
            models.append(ss["retrieval.qdrant_model"])
        st.selectbox(t("side.qdrant_model", lang), models, key="retrieval.qdrant_model")
