"""The shared sidebar: language, question, corpus and every pipeline knob.

Rendered by ``app.py`` on every run (so its widgets survive page switches).
Widget values live in ``st.session_state`` under explicit keys (see
``ui.state``); the last valid config is kept in ``_cfg`` so a bad
combination (overlap ≥ target) shows its message without losing the view;
every run mirrors the view into ``st.query_params``.

One module per concern: ``panel`` (``render()``, ``context()``: every group in order),
``session`` (the start config, a session's first run, shared-server limits, page moves),
``url`` (what the address asked and could not get, shadow values, the URL written back),
``question``, ``corpus`` (samples and uploads as a :class:`CorpusChoice`), ``datasets``
(BEIR/TREC folders and zips), ``retrieval``, ``knobs`` (chunking, rerank and gate, context,
support), ``generation`` (the generator and the user's endpoint) and ``keys`` (its own
session keys). The names pages and tests use are these.
"""

from __future__ import annotations

from .corpus import CorpusChoice
from .generation import GENERATORS, dtype_label, generator_label
from .panel import context, render
from .question import DEFAULT_QUESTION
from .retrieval import DENSE_MODELS, dense_model_note
from .session import (
    ENV_SET,
    FIRST_QUESTIONS,
    ROOT,
    current_lang,
    load_view,
    page_path,
    request_page,
    shared_config,
    start_config,
)
from .url import page_notice, shadow_get, shadow_set, url_honoured, url_notice

__all__ = [
    "DEFAULT_QUESTION",
    "DENSE_MODELS",
    "ENV_SET",
    "FIRST_QUESTIONS",
    "GENERATORS",
    "ROOT",
    "CorpusChoice",
    "context",
    "current_lang",
    "dense_model_note",
    "dtype_label",
    "generator_label",
    "load_view",
    "page_notice",
    "page_path",
    "render",
    "request_page",
    "shadow_get",
    "shadow_set",
    "shared_config",
    "start_config",
    "url_honoured",
    "url_notice",
]
