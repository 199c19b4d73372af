"""The sidebar's generator group: the model (bundled or an endpoint's), its precision, answer
length and citation mode, and the user's own endpoint (URL, key variable, model list,
tokenizer, timeouts, constrained decoding)."""

from __future__ import annotations

import streamlit as st

from rag_core.config import (
    CITATION_MODES,
    ENDPOINT_GRAMMARS,
    GENERATION_DTYPES,
    GenerationConfig,
)
from rag_core.config_checks import ConfigError
from rag_core.modelnames import endpoint_key_env, refusal_notice, shared_mode
from rag_core.models.dtype import machine_dtype
from rag_core.models.endpoint import EndpointError, list_models
from rag_core.models.endpoint.client import MAX_EVENT_BYTES
from rag_core.models.endpoint.generator import MAX_ANSWER_CHARS

from ..html import md
from ..i18n import TEXT, notice_text, t
from .keys import K_ENDPOINT_MODELS, K_ENDPOINT_PROBLEM
from .knobs import number

GENERATORS = ("qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b", "smollm2-135m", "none")


def _list_endpoint_models() -> None:
    """The "list models" button: ask ``GET /v1/models`` of the typed endpoint (on a shared
    server only an allow-listed one, as from the address)."""
    ss = st.session_state
    url = str(ss.get("generation.endpoint") or "").strip()
    ss[K_ENDPOINT_PROBLEM] = None
    if shared_mode() and (why := refusal_notice("generation.endpoint", url)) is not None:
        ss[K_ENDPOINT_PROBLEM] = why
        return
    key_env = str(ss.get("generation.api_key_env") or "")
    if shared_mode():  # a visitor names no key variable: the endpoint's listed one is used
        key_env = endpoint_key_env(url) or ""
    try:
        ids = list_models(url, key_env, timeout=5.0)
    except EndpointError as exc:
        ss[K_ENDPOINT_PROBLEM] = exc.notice
        return
    except ConfigError as exc:  # a bad URL (config_checks.check_endpoint_url): worded on show
        ss[K_ENDPOINT_PROBLEM] = exc.notice
        return
    except ValueError as exc:
        ss[K_ENDPOINT_PROBLEM] = str(exc)
        return
    ss[K_ENDPOINT_MODELS] = [f"openai:{i}" for i in ids]
    if ids and not str(ss.get("generation.model", "")).startswith("openai:"):
        ss["generation.model"] = f"openai:{ids[0]}"


def _endpoint_limits() -> dict[str, float | int]:
    """The defaults and caps the endpoint help text states (read from the core, not copied)."""
    g = GenerationConfig()
    return {
        "connect": g.connect_timeout_s,
        "first": g.first_token_timeout_s,
        "total": g.total_timeout_s,
        "event_mib": MAX_EVENT_BYTES >> 20,
        "answer": MAX_ANSWER_CHARS,
    }


def _endpoint(lang: str) -> None:
    """The user's own server: base URL, key variable, the model list, tokenizer, timeouts."""
    ss = st.session_state
    with st.expander(
        t("side.endpoint.section", lang), expanded=bool(ss.get("generation.endpoint"))
    ):
        st.text_input(
            t("side.endpoint", lang),
            key="generation.endpoint",
            help=t("help.endpoint", lang, **_endpoint_limits()),
        )
        st.text_input(
            t("side.api_key_env", lang),
            key="generation.api_key_env",
            help=t("help.api_key_env", lang),
        )
        st.button(
            t("side.endpoint.list", lang),
            on_click=_list_endpoint_models,
            disabled=not ss.get("generation.endpoint"),
            key="side.endpoint.list_button",
        )
        problem = ss.get(K_ENDPOINT_PROBLEM)
        if problem is not None:
            text = problem if isinstance(problem, str) else notice_text(problem, lang)
            st.warning(md(t("side.endpoint.problem", lang, problem=text)))
        elif ss.get(K_ENDPOINT_MODELS):
            st.caption(t("side.endpoint.listed", lang, n=len(ss[K_ENDPOINT_MODELS])))
        st.text_input(
            t("side.tokenizer", lang), key="generation.tokenizer", help=t("help.tokenizer", lang)
        )
        for name in ("connect_timeout_s", "first_token_timeout_s", "total_timeout_s"):
            st.number_input(
                t(f"side.{name}", lang),
                key=f"generation.{name}",
                min_value=0.1,
                max_value=3600.0,
                step=1.0,
                help=t("help.timeouts", lang, **_endpoint_limits()),
            )
        st.selectbox(
            t("side.endpoint_grammar", lang),
            ENDPOINT_GRAMMARS,
            key="generation.endpoint_grammar",
            format_func=lambda g: t(f"endpoint_grammar.{g}", lang),
            help=t("help.endpoint_grammar", lang),
            disabled=ss.get("generation.citations") != "enforced",
        )


def generation(lang: str) -> None:
    """The generator, its precision, the answer length and the citation mode."""
    ss = st.session_state
    models = list(GENERATORS) + [m for m in ss.get(K_ENDPOINT_MODELS, []) if m not in GENERATORS]
    if ss.get("generation.model") not in models:
        models.append(ss["generation.model"])
    st.selectbox(
        t("side.generator", lang),
        models,
        key="generation.model",
        format_func=lambda m: generator_label(m, lang),
        help=t("help.generator", lang),
    )
    st.selectbox(
        t("side.dtype", lang),
        GENERATION_DTYPES,
        key="generation.dtype",
        format_func=lambda d: dtype_label(d, lang),
        help=t("help.dtype", lang),
    )
    number(
        t("side.max_new_tokens", lang),
        "generation.max_new_tokens",
        lang,
        min_value=1,
        max_value=2048,
        step=16,
    )
    st.selectbox(
        t("side.citations", lang),
        CITATION_MODES,
        key="generation.citations",
        format_func=lambda m: t(f"citations.{m}", lang),
        help=t("help.citations", lang),
    )
    _endpoint(lang)


def generator_label(name: str, lang: str) -> str:
    """The picker's label: the name and what the bundled model really is (size, quantisation,
    license)."""
    if name == "none":
        return t("side.generator.none", lang)
    if name.startswith("openai:"):
        return t("side.generator.endpoint", lang, model=name[len("openai:") :])
    key = f"gen.label.{name}"
    return f"{name} · {t(key, lang)}" if key in TEXT else name


def dtype_label(dtype: str, lang: str) -> str:
    """ "auto (bfloat16 on this CPU)" for ``auto``, qint8 with its measured cost; the name
    otherwise."""
    if dtype == "qint8":
        return t("side.dtype.qint8", lang)
    if dtype != "auto":
        return dtype
    return t("side.dtype.auto", lang, dtype=machine_dtype())
