"""Every label, help text and explanation of the app, in Korean and English.

The words live next to what shows them: ``ui/text.py`` holds what several pages
share (app and navigation, the sidebar, the Trace's codes, the shared Trace
pieces), and each page's own words are in ``ui/<page>/text.py``, each a
catalogue ``TEXT: dict[str, tuple[str, str]]`` of ``key: (Korean, English)``.
A core notice code is worded once in English, by its template in
``rag_core/wording.py``; a catalogue holds only its Korean (``KOREAN``, ``code:
Korean``) and, where a page says it otherwise in English, an ``EN_OVERRIDES``
entry (:func:`coded` turns them into catalogue entries, under the key ``notice.<code>``).

This module holds the shared catalogue and imports no page: each page's catalogue is
added with :func:`register` where the page is registered (``app.py``'s ``WORDS``, beside
``PAGES``; the tests register the same through ``tests/conftest.py``). :data:`TEXT` is
every registered catalogue merged; a key defined in two catalogues is an error when the
second is registered.

``t(key, lang, **fields)`` looks a key up and fills ``{fields}``. A missing key
is a ``KeyError`` (the tests check that every key used in ``app.py``,
``pages/`` and ``ui/`` exists in both languages with the same fields).
Labels name what a user sees; help texts say what the knob does and what to
watch for, in a sentence or two.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from types import MappingProxyType

from rag_core.types import (
    ContextStage,
    GateStage,
    GenerationStage,
    Hit,
    Notice,
    RerankStage,
    RetrieverList,
    SupportStage,
)
from rag_core.wording import ENGLISH, unworded

from . import text as shared

_NONE: Mapping[str, str] = MappingProxyType({})


def coded(
    korean: Mapping[str, str], overrides: Mapping[str, str] = _NONE
) -> dict[str, tuple[str, str]]:
    """Catalogue entries ``notice.<code>`` for core codes: each code's Korean beside its English,
    the core's template (``rag_core.wording.ENGLISH``) unless ``overrides`` words it otherwise.

    Raises:
        ValueError: naming a code the core has no template for, or an override without Korean.
    """
    unknown = sorted((korean.keys() | overrides.keys()) - ENGLISH.keys())
    if unknown:
        raise ValueError(
            f"ui catalogue words codes rag_core/wording.py does not declare: {unknown}"
        )
    alone = sorted(overrides.keys() - korean.keys())
    if alone:
        raise ValueError(
            f"ui catalogue overrides the English of codes it has no Korean for: {alone}"
        )
    return {
        f"notice.{code}": (ko, overrides.get(code, ENGLISH[code])) for code, ko in korean.items()
    }


#: The catalogues by name: the shared one, then one per page as it is registered
#: (:func:`register`).
CATALOGUES: dict[str, Mapping[str, tuple[str, str]]] = {
    "shared": shared.TEXT | coded(shared.KOREAN, shared.EN_OVERRIDES),
}


def merge(catalogues: Mapping[str, Mapping[str, tuple[str, str]]]) -> dict[str, tuple[str, str]]:
    """One catalogue of all; raises ``ValueError`` naming a key that two catalogues define."""
    merged: dict[str, tuple[str, str]] = {}
    where: dict[str, str] = {}
    for name, catalogue in catalogues.items():
        for key, pair in catalogue.items():
            if key in merged:
                raise ValueError(
                    f"i18n key {key!r} is defined in two catalogues: {where[key]} and {name}"
                )
            merged[key] = pair
            where[key] = name
    return merged


#: Every registered catalogue merged (one object: modules hold it by name, so a page's words
#: registered later are in it too).
TEXT: dict[str, tuple[str, str]] = merge(CATALOGUES)
_REGISTERING = threading.Lock()


def register(name: str, catalogue: Mapping[str, tuple[str, str]]) -> None:
    """Add the catalogue of page ``name`` (its ``ui/<page>/text.py``, with :func:`coded` entries
    where it words core codes) to :data:`TEXT`; the same words under the same name again are a
    no-op (``app.py`` runs on every rerun).

    Raises:
        ValueError: ``name`` registered before with other words, or a key another catalogue
            defines.
    """
    with _REGISTERING:
        if name in CATALOGUES:
            if CATALOGUES[name] == catalogue:
                return
            raise ValueError(f"i18n catalogue {name!r} is registered twice with different words")
        merge({**CATALOGUES, name: catalogue})  # raises on a key defined twice
        CATALOGUES[name] = dict(catalogue)
        TEXT.update(catalogue)


def t(key: str, lang: str, **fields: object) -> str:
    """The text of ``key`` in ``lang`` (``ko``/``en``) with ``fields`` filled in."""
    try:
        ko, en = TEXT[key]
    except KeyError:
        raise KeyError(f"no text for i18n key {key!r}") from None
    text = ko if lang == "ko" else en
    return text.format(**fields) if fields else text


def notice_text(notice: Notice, lang: str) -> str:
    """The sentence of a core :class:`Notice` in ``lang``: catalogue key ``notice.<code>``, the
    notice's params as its fields (a param that is itself a notice is worded first)."""
    fields = {
        k: notice_text(v, lang) if isinstance(v, Notice) else v for k, v in notice.params.items()
    }
    key = f"notice.{notice.code}"
    try:
        ko, en = TEXT[key]
    except KeyError:
        raise KeyError(f"no text for notice code {notice.code!r} ({key})") from None
    return (ko if lang == "ko" else en).format(**fields)


def error_text(exc: BaseException, lang: str) -> str:
    """An error's message in ``lang``: a :class:`~rag_core.wording.NoticeError`'s notice worded
    (a bad config value, a file or row not loaded, a malformed qrels or run line, a refused
    label or label store), any other error's text as it was raised (English)."""
    said = unworded(exc)
    return notice_text(said, lang) if isinstance(said, Notice) else said


#: What a stage (or a hit) says: its ``notice`` (the context stage: ``notices`` too).
Saying = RetrieverList | RerankStage | GateStage | ContextStage | GenerationStage | SupportStage


def said(stage: Saying, lang: str) -> str:
    """What a stage says in ``lang``: the context stage's ``notices`` (its parts, joined by
    "; ") or the stage's ``notice`` worded; "" when it says nothing."""
    if isinstance(stage, ContextStage) and stage.notices:
        return "; ".join(notice_text(n, lang) for n in stage.notices)
    return notice_text(stage.notice, lang) if stage.notice is not None else ""


def note_text(hit: Hit, lang: str) -> str:
    """A hit's note in ``lang`` (the gate's why, a reranker's score, an imported run's remark)."""
    return notice_text(hit.notice, lang) if hit.notice is not None else ""


def tv(prefix: str, value: str, lang: str) -> str:
    """Localise a code that comes from the Trace (``reason``, ``verdict``…); unknown codes show
    as they are."""
    key = f"{prefix}.{value}"
    return t(key, lang) if key in TEXT else value
