"""The sidebar and the address: notices for what a link asked and could not get, the page
widgets mirrored in the URL (shadow values), and the view written back into the URL."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from rag_core.config import PipelineConfig

from ..i18n import t
from ..state import (
    K_CORPUS,
    K_LANG,
    K_QID,
    K_QPHRASING,
    K_QSET,
    K_QTEXT,
    SHADOW_KEYS,
    query_from_config,
    query_from_view,
    single_values,
)
from .keys import K_PROBLEMS, K_SHADOW, K_URL_ASKED


def view_notices(
    params: Mapping[str, str], view: Mapping[str, Any], values: Mapping[str, Any]
) -> list[str]:
    """One notice per ``lang=``/``corpus=`` of the address that names no choice (the value
    ``view_from_query`` dropped), saying what is shown instead."""
    lang = values[K_LANG]
    out = []
    for name, key in (("lang", K_LANG), ("corpus", K_CORPUS)):
        if params.get(name, "") != "" and key not in view:
            shown = t(f"url.shown.lang.{lang}" if name == "lang" else f"corpus.{values[key]}", lang)
            value = params[name][:80]
            out.append(t("url.not_honoured", lang, param=name, value=value, shown=shown))
    return out


def page_notice(name: str | None, lang: str) -> str | None:
    """The address named a page the app does not have (``name``): the line saying that the
    default page (Inspect) is shown instead; ``None`` when the page exists."""
    if name is None:
        return None
    return t("url.page_unknown", lang, page=name[:80], shown=t("page.inspect", lang))


def url_notice(name: str, shown: str, lang: str) -> str | None:
    """Once per session: the address asked for ``name=…`` and it could not be honoured.

    Adds one line (parameter, value asked, what is shown instead) to the
    sidebar's notices; a value that was honoured is simply forgotten.
    """
    asked = st.session_state.get(K_URL_ASKED, {})
    if name not in asked:
        return None
    value = asked.pop(name)
    message = t("url.not_honoured", lang, param=name, value=value[:80], shown=shown)
    st.session_state.setdefault(K_PROBLEMS, []).append(message)
    return message


def url_honoured(name: str) -> None:
    """The address's ``name=…`` was shown as asked: no notice for it."""
    st.session_state.get(K_URL_ASKED, {}).pop(name, None)


def shadow_get(key: str, default: Any = "") -> Any:
    return st.session_state.get(K_SHADOW, {}).get(key, default)


def shadow_set(key: str, value: Any) -> None:
    st.session_state.setdefault(K_SHADOW, {})[key] = value


def mirror_url(lang: str, config: PipelineConfig, question: str, gold: Any) -> None:
    """Write the config and the view (language, corpus, question) into the URL."""
    ss = st.session_state
    view = {
        K_LANG: lang,
        K_CORPUS: ss.get(K_CORPUS),
        K_QSET: ss.get(K_QSET) if gold is not None else None,
        K_QID: gold.id if gold is not None else None,
        K_QPHRASING: ss.get(K_QPHRASING) if gold is not None and ss.get(K_QPHRASING) else None,
        K_QTEXT: question if gold is None else None,
        **{k: shadow_get(k) or None for k in SHADOW_KEYS},
    }
    params = {**query_from_config(config), **query_from_view(view)}
    if single_values(st.query_params.to_dict()) != params:
        st.query_params.from_dict(params)
