"""The sidebar's pipeline knobs outside retrieval and generation: chunking, rerank and gate,
the context budget, the support checker."""

from __future__ import annotations

from typing import Any

import streamlit as st

from rag_core.config import (
    CHUNK_STRATEGIES,
    CONTEXT_ORDERINGS,
    CONTEXT_POLICIES,
    PRESET_LABELS,
    PRESETS,
    RERANK_METHODS,
    RESERVED_INSTRUCTION_TOKENS,
)

from ..i18n import t
from ..state import CUSTOM, K_PRESET


def number(label: str, key: str, lang: str, help_key: str | None = None, **kw: Any) -> Any:
    """A number box with its help text (``help_key``, a catalogue key)."""
    return st.number_input(label, key=key, help=t(help_key, lang) if help_key else None, **kw)


def chunker(lang: str) -> None:
    ss = st.session_state
    st.selectbox(
        t("side.preset", lang),
        [*PRESETS, CUSTOM],
        key=K_PRESET,
        format_func=lambda p: PRESET_LABELS.get(p, t("side.custom", lang)),
        help=t("help.preset", lang),
    )
    if ss[K_PRESET] == CUSTOM:
        st.selectbox(
            t("side.strategy", lang),
            CHUNK_STRATEGIES,
            key="chunker.strategy",
            format_func=lambda s: t(f"strategy.{s}", lang),
        )
        c1, c2 = st.columns(2)
        unit = t(
            "side.unit.tokens" if ss.get("chunker.strategy") == "tokens" else "side.unit.chars",
            lang,
        )
        with c1:
            number(
                t("side.target", lang, unit=unit),
                "chunker.target",
                lang,
                min_value=16,
                max_value=100_000,
                step=32,
            )
        with c2:
            number(
                t("side.overlap", lang, unit=unit),
                "chunker.overlap",
                lang,
                min_value=0,
                max_value=99_999,
                step=16,
            )
        st.toggle(t("side.header", lang), key="chunker.header", help=t("help.header", lang))
        if ss.get("chunker.strategy") == "html":
            number(
                t("side.min_chars", lang),
                "chunker.min_chars",
                lang,
                min_value=0,
                max_value=100_000,
                step=10,
            )


def rerank_gate(lang: str) -> None:
    ss = st.session_state
    st.selectbox(
        t("side.rerank", lang),
        RERANK_METHODS,
        key="rerank.method",
        format_func=lambda m: t(f"rerank.{m}", lang),
        help=t("help.rerank", lang),
    )
    if ss.get("rerank.method") != "none":
        number(
            t("side.shortlist", lang),
            "rerank.shortlist",
            lang,
            "help.shortlist",
            min_value=1,
            max_value=1000,
        )
    if ss.get("rerank.method") == "mmr":
        st.slider(
            "λ (MMR)", 0.0, 1.0, key="rerank.mmr_lambda", step=0.05, help=t("help.mmr_lambda", lang)
        )
    if ss.get("rerank.method") == "cross-encoder":
        st.text_input(
            t("side.rerank_model", lang), key="rerank.model", help=t("help.rerank_model", lang)
        )
    st.markdown(f"**{t('side.gate', lang)}**")
    number(
        t("side.max_distance", lang),
        "gate.max_distance",
        lang,
        "help.max_distance",
        min_value=0.0,
        max_value=2.0,
        step=0.01,
        format="%.3f",
        placeholder=t("side.off", lang),
    )
    number(
        t("side.min_score", lang),
        "gate.min_score",
        lang,
        "help.min_score",
        step=0.1,
        format="%.3f",
        placeholder=t("side.off", lang),
    )
    number(
        t("side.max_kept", lang),
        "gate.max_kept",
        lang,
        "help.max_kept",
        min_value=1,
        max_value=10_000,
        placeholder=t("side.off", lang),
    )


def context_knobs(lang: str) -> None:
    """Budget, policy and ordering; dedup and the per-source cap in an expander."""
    number(
        t("side.budget", lang),
        "context.budget_tokens",
        lang,
        "help.budget",
        min_value=RESERVED_INSTRUCTION_TOKENS,
        max_value=1_000_000,
        step=64,
    )
    st.selectbox(
        t("side.policy", lang),
        CONTEXT_POLICIES,
        key="context.policy",
        format_func=lambda p: t(f"policy.{p}", lang),
        help=t("help.policy", lang),
    )
    st.selectbox(
        t("side.ordering", lang),
        CONTEXT_ORDERINGS,
        key="context.ordering",
        format_func=lambda o: t(f"ordering.{o}", lang),
        help=t("help.ordering", lang),
    )
    with st.expander(t("side.advanced_context", lang)):
        st.toggle(t("side.dedup", lang), key="context.dedup", help=t("help.dedup", lang))
        st.slider(
            t("side.dedup_threshold", lang), 0.05, 1.0, key="context.dedup_threshold", step=0.05
        )
        number(
            t("side.max_source_chars", lang),
            "context.max_source_chars",
            lang,
            min_value=50,
            max_value=1_000_000,
            step=100,
        )


def support(lang: str) -> None:
    """The support checker's thresholds and its judge, in an expander."""
    with st.expander(t("side.support", lang)):
        st.slider(
            t("side.min_p", lang),
            0.0,
            1.0,
            key="support.min_p",
            step=0.01,
            help=t("help.min_p", lang),
        )
        st.toggle(t("side.readings", lang), key="support.readings", help=t("help.readings", lang))
        st.toggle(t("side.judge", lang), key="support.judge", help=t("help.judge", lang))
