"""Shared configuration: sidebar widgets ↔ ``PipelineConfig`` ↔ URL query string.

Three representations of one view, and pure functions between them (no
Streamlit import here, so they are unit-tested directly):

* **widget values** — ``{widget key: value}`` as ``st.session_state`` holds
  them. Keys of one-to-one fields are the config's flat keys
  (``retrieval.k``); a few keys are UI-only (:data:`K_PRESET`,
  :data:`K_METHODS`, :data:`K_PER_METHOD`, ``retrieval.analyzer_for.<m>``).
* **config** — a validated :class:`~rag_core.config.PipelineConfig`.
* **query string** — ``{name: str}``. Config keys appear as their flat
  ``section.key`` names (the CLI's ``--set`` form) and only when they differ
  from ``PipelineConfig()``; view keys (:data:`VIEW_KEYS`) carry the language,
  corpus, question and page extras.

Session flow (``ui.sidebar``): on the first run of a session the query string
seeds the widget values; afterwards the widgets are the truth and every run
writes the query string back, so the address bar always reopens this view.

A link is a visitor's input: :func:`bounded_query` reads at most :data:`MAX_LINK_PARAMS`
parameters, each name of at most :data:`MAX_LINK_KEY` and each value (``b=``, ``q=`` and every
config key) of at most :data:`MAX_LINK_VALUE` characters; everything read is parsed in linear
time, and a message about a value quotes at most :data:`QUOTE_CHARS` characters of it
(:data:`ECHO_CHARS` of a value not read).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from rag_core.config import (
    CONFIG_NOT_A_CHOICE,
    EXTERNAL_METHODS,
    PRESET_KEY,
    PRESETS,
    RETRIEVAL_METHODS,
    SECTIONS,
    VECTOR_METHODS,
    ChunkerConfig,
    PipelineConfig,
    url_bounded,
)
from rag_core.config_checks import ConfigError
from rag_core.modelnames import restrict_noticed
from rag_core.overrides import parse_overrides
from rag_core.types import Notice
from rag_core.wording import NoticeError, notice

if TYPE_CHECKING:
    from rag_core.index import CorpusIndex
    from rag_core.retrieval.runs import ExternalRun
    from rag_core.types import Question

LANGS = ("ko", "en")
CORPORA = ("sample", "sample-html", "upload", "beir")

#: Session-state keys shared by the sidebar and several pages; each page's own keys are in
#: ``ui/<page>/keys.py``.
# --- the sidebar's language, corpus (with its uploads) and question widgets
K_LANG = "lang"
K_CORPUS = "corpus"
K_UPLOADS = "uploads"
K_QMODE = "q.mode"
K_QSET = "q.set"
K_QID = "q.id"
K_QPHRASING = "q.phrasing"
K_QTEXT = "q.text"
# --- the sidebar's retrieval widgets that are not config fields
K_PRESET = PRESET_KEY
K_METHODS = "retrieval.methods"
K_PER_METHOD = "retrieval.per_method"
K_ANALYZER_FOR = "retrieval.analyzer_for."
# --- page view keys the sidebar keeps in its shadow state (they survive page switches)
K_COMPARE_B = "compare.b"
K_CHUNKS_DOC = "chunks.doc"
K_LEC_STEP = "lecture.step"
K_LEC_BIG = "lecture.big"
K_LEC_SIDE = "lecture.side"  # "b": the Lecture page shows configuration B (the baseline)
# --- datasets with qrels and imported runs
K_BEIR_PATH = "beir.path"
K_BEIR_SPLIT = "beir.split"
K_BEIR_ZIP = "beir.zip"
K_RUN_FILES = "runs.files"
#: Tags of the imported runs used as retrievers (``run:TAG`` in ``retrieval.methods``).
K_RUNS = "retrieval.runs"
# --- the sidebar's gate widgets (the Threshold page's "apply" sets them)
K_GATE_MAX_DISTANCE = "gate.max_distance"
K_GATE_MIN_SCORE = "gate.min_score"
K_GATE_MAX_KEPT = "gate.max_kept"

CUSTOM = "custom"
SPARSE_METHODS = tuple(m for m in RETRIEVAL_METHODS if m not in VECTOR_METHODS)
CHUNKER_FIELDS = tuple(f"chunker.{f.name}" for f in fields(ChunkerConfig))
QUESTION_MODES = ("set", "free")

#: The most parameters of a link read, the longest name and value (characters; a config
#: value is a few words, ``b=`` a few ``key=value`` lines, ``q=`` one question) …
MAX_LINK_PARAMS = 200
MAX_LINK_KEY = 100
MAX_LINK_VALUE = 4_000
#: … how much of a value not read a message quotes, and the longest text a message about a
#: value that was read quotes of it (characters).
ECHO_CHARS = 60
QUOTE_CHARS = 200

#: Query-string names that are not config keys (config keys contain a dot).
VIEW_KEYS = {
    "lang": K_LANG,
    "corpus": K_CORPUS,
    "qset": K_QSET,
    "qid": K_QID,
    "ph": K_QPHRASING,
    "q": K_QTEXT,
    "b": K_COMPARE_B,
    "doc": K_CHUNKS_DOC,
    "step": K_LEC_STEP,
    "big": K_LEC_BIG,
    "side": K_LEC_SIDE,
}

#: View keys held by page widgets, not sidebar widgets: the sidebar keeps them
#: in its shadow state (page-local widget state is lost on page switches).
SHADOW_KEYS: tuple[str, ...] = (K_COMPARE_B, K_CHUNKS_DOC, K_LEC_STEP, K_LEC_BIG, K_LEC_SIDE)

#: Widget keys whose value is exactly the config field of the same flat key.
DIRECT_KEYS: tuple[str, ...] = tuple(
    k for k in PipelineConfig().flat() if not k.startswith("chunker.") and k != "retrieval.methods"
)


def preset_of(chunker: ChunkerConfig) -> str:
    """The preset letter whose chunker equals ``chunker``, or :data:`CUSTOM`."""
    for letter, values in PRESETS.items():
        if chunker == ChunkerConfig(target=512, **values):
            return letter
    return CUSTOM


def widgets_from_config(config: PipelineConfig) -> dict[str, Any]:
    """Widget values that show ``config`` (inverse of :func:`config_from_widgets`)."""
    flat = config.flat()
    out: dict[str, Any] = {k: flat[k] for k in DIRECT_KEYS}
    out[K_PRESET] = preset_of(config.chunker)
    for key in CHUNKER_FIELDS:
        out[key] = flat[key]
    rc = config.retrieval
    methods: list[str] = []
    per_method = False
    analyzer_for = dict.fromkeys(SPARSE_METHODS, rc.analyzer)
    runs: list[str] = []
    for spec in rc.methods:
        method, _, analyzer = spec.partition(":")
        if method in EXTERNAL_METHODS:
            runs.append(analyzer)
            continue
        methods.append(method)
        if analyzer:
            per_method = True
            analyzer_for[method] = analyzer
    out[K_METHODS] = methods
    out[K_RUNS] = runs
    out[K_PER_METHOD] = per_method
    for m, a in analyzer_for.items():
        out[K_ANALYZER_FOR + m] = a
    return out


def config_from_widgets(values: Mapping[str, Any]) -> PipelineConfig:
    """Build the config the widgets show; raises ``ValueError`` for a bad combination."""
    sections: dict[str, dict[str, Any]] = {name: {} for name in SECTIONS}
    for key in DIRECT_KEYS:
        if key in values:
            section, _, name = key.partition(".")
            sections[section][name] = values[key]
    preset = values.get(K_PRESET, CUSTOM)
    if preset != CUSTOM:
        if preset not in PRESETS:
            choices = ", ".join([*PRESETS, CUSTOM])
            raise ConfigError(
                notice(CONFIG_NOT_A_CHOICE, key=PRESET_KEY, value=preset, choices=choices)
            )
        sections["chunker"] = {"target": 512, **PRESETS[preset]}
    else:
        for key in CHUNKER_FIELDS:
            if key in values:
                sections["chunker"][key.partition(".")[2]] = values[key]
    methods = list(values.get(K_METHODS) or [])
    analyzer = sections["retrieval"].get("analyzer", "unicode")
    specs: list[str] = []
    for m in methods:
        per = values.get(K_ANALYZER_FOR + m) if values.get(K_PER_METHOD) else None
        specs.append(f"{m}:{per}" if m in SPARSE_METHODS and per and per != analyzer else m)
    specs.extend(f"run:{tag}" for tag in values.get(K_RUNS) or [])
    sections["retrieval"]["methods"] = tuple(specs)
    for section, values_ in sections.items():
        for name, value in list(values_.items()):
            values_[name] = _normalise_number(SECTIONS[section], name, value)
    return PipelineConfig(**{name: cls(**sections[name]) for name, cls in SECTIONS.items()})


def _normalise_number(cls: type, name: str, value: Any) -> Any:
    """Widgets return floats for whole numbers sometimes; fields say which."""
    hint = {f.name: f.type for f in fields(cls)}.get(name)
    if isinstance(value, float) and hint in ("int", "int | None") and value.is_integer():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and hint in ("float", "float | None"):
        return float(value)
    return value


# ---------------------------------------------------------------- URL form


def format_value(value: Any) -> str:
    """A config value as the URL/CLI writes it (parsed back by ``with_overrides``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else "none"
    return str(value)


def query_from_config(config: PipelineConfig, base: PipelineConfig | None = None) -> dict[str, str]:
    """``{flat key: value}`` for every field that differs from ``base`` (default
    ``PipelineConfig()``)."""
    ref = (base or PipelineConfig()).flat()
    return {k: format_value(v) for k, v in config.flat().items() if v != ref[k]}


def config_from_query(
    params: Mapping[str, str], base: PipelineConfig | None = None, *, lang: str = "en"
) -> tuple[PipelineConfig, list[str]]:
    """Apply the query string's config keys to ``base``; bad keys are reported, not fatal.

    Returns the config and one message per ignored key (its key, value and why; a bad value's
    why in ``lang``).
    Model names are a visitor's input here: only bundled names and paths under
    ``$RAG_INSPECTOR_MODELS`` pass (``rag_core.modelnames``); the sizes that cost time
    (``retrieval.k``, ``context.budget_tokens``, ``context.max_source_chars``) are lowered
    to ``rag_core.config.URL_LIMITS``, with one message (in ``lang``) each.
    """
    from .i18n import notice_text, t  # lazy: ui.i18n pulls in every catalogue

    base = base or PipelineConfig()
    bounded, lowered = url_bounded({k: v for k, v in params.items() if k not in VIEW_KEYS})
    overrides, refusals = restrict_noticed(bounded, base=base.flat())
    refused = [
        *(t("url.size_capped", lang, param=k, value=v, limit=f"{n:,}") for k, v, n in lowered),
        *(notice_text(cut_notice(n), lang) for n in refusals),
    ]
    try:
        return base.with_overrides(overrides), refused
    except ValueError:
        pass
    # One by one, so one bad value loses only itself.
    errors: list[str] = list(refused)
    config = base
    pending = dict(overrides)
    for _ in range(2):  # a second pass lets an order-dependent pair settle (overlap < target)
        for key in list(pending):
            try:
                config = config.with_overrides({key: pending[key]})
                del pending[key]
            except ValueError:
                continue
    for key, value in pending.items():
        try:
            config.with_overrides({key: value})
        except ValueError as exc:
            errors.append(_error_cut(exc, lang))
    return config, errors


def cut(text: str, limit: int = ECHO_CHARS) -> str:
    """``text`` when it is at most ``limit`` characters, else its start on one line, cut to
    ``limit`` with ``…`` (reads at most ``2 * limit`` characters of it)."""
    if len(text) <= limit:
        return text
    return " ".join(text[: 2 * limit].split())[: limit - 1] + "…"


def cut_notice(said: Notice) -> Notice:
    """``said`` with every text param (and those of the notices it holds) cut to
    :data:`QUOTE_CHARS`: a message about a link's value never quotes the whole value."""
    params = {
        k: cut_notice(v)
        if isinstance(v, Notice)
        else cut(v, QUOTE_CHARS)
        if isinstance(v, str)
        else v
        for k, v in said.params.items()
    }
    return replace(said, params=params)


def _error_cut(exc: BaseException, lang: str) -> str:
    """A refused value's message in ``lang``, its quotes cut (:func:`cut_notice`)."""
    from .i18n import notice_text  # lazy: ui.i18n pulls in every catalogue

    if isinstance(exc, NoticeError):
        return notice_text(cut_notice(exc.notice), lang)
    return cut(str(exc), 2 * QUOTE_CHARS)


def bounded_query(params: Mapping[str, str], lang: str = "en") -> tuple[dict[str, str], list[str]]:
    """The parameters of a link that are read (module docstring), and one message (in
    ``lang``) per parameter not read and for parameters past the count."""
    from .i18n import t  # lazy: ui.i18n pulls in every catalogue

    items = list(params.items())
    said: list[str] = []
    if len(items) > MAX_LINK_PARAMS:
        said.append(t("url.too_many", lang, n=len(items), limit=MAX_LINK_PARAMS))
        items = items[:MAX_LINK_PARAMS]
    kept: dict[str, str] = {}
    for key, value in items:
        if len(key) > MAX_LINK_KEY:
            said.append(t("url.key_too_long", lang, param=cut(key), limit=MAX_LINK_KEY))
        elif len(value) > MAX_LINK_VALUE:
            chars, limit = f"{len(value):,}", f"{MAX_LINK_VALUE:,}"
            said.append(
                t("url.too_long", lang, param=key, chars=chars, limit=limit, head=cut(value))
            )
        else:
            kept[key] = value
    return kept, said


def query_from_view(view: Mapping[str, Any]) -> dict[str, str]:
    """The view keys (language, corpus, question, page extras) as query parameters."""
    out: dict[str, str] = {}
    for name, key in VIEW_KEYS.items():
        value = view.get(key)
        if value in (None, "", [], ()):
            continue
        out[name] = str(value)
    return out


def view_from_query(params: Mapping[str, str]) -> dict[str, Any]:
    """Widget values of the view keys present in the query string."""
    out: dict[str, Any] = {}
    for name, key in VIEW_KEYS.items():
        if name in params and params[name] != "":
            out[key] = params[name]
    if out.get(K_LANG) not in LANGS:
        out.pop(K_LANG, None)
    if out.get(K_CORPUS) not in CORPORA:
        out.pop(K_CORPUS, None)
    if K_QTEXT in out and K_QID not in out:
        out[K_QMODE] = "free"
    elif K_QID in out:
        out[K_QMODE] = "set"
    if K_QPHRASING in out:
        try:
            out[K_QPHRASING] = int(out[K_QPHRASING])
        except ValueError:
            out.pop(K_QPHRASING)
    return out


def single_values(params: Mapping[str, Any]) -> dict[str, str]:
    """``st.query_params`` gives the last value of a repeated key; mirror that for dicts of
    lists."""
    out: dict[str, str] = {}
    for k, v in params.items():
        if isinstance(v, (list, tuple)):
            if not v:
                continue
            v = v[-1]
        out[str(k)] = str(v)
    return out


# --------------------------------------------------------------- context


@dataclass(frozen=True)
class Context:
    """What the sidebar resolved this run; pages read it with ``ui.sidebar.context()``."""

    lang: str
    config: PipelineConfig
    corpus: CorpusIndex
    corpus_key: str
    question: str
    gold: Question | None = None  # when picked from a set
    question_sets: Mapping[str, tuple[Question, ...]] = field(default_factory=dict)
    compare_b: str = ""
    chunks_doc: str = ""
    problems: tuple[str, ...] = ()
    # : Imported runs by tag (``rag_core.retrieval.runs.ExternalRun``); their fingerprints are in
    # ``corpus_key``.
    runs: Mapping[str, ExternalRun] = field(default_factory=dict)
    #: Question set name → document-level qrels, for sets loaded from a BEIR/TREC collection.
    dataset_qrels: Mapping[str, Mapping[str, Mapping[str, int]]] = field(default_factory=dict)


def compare_config(
    a: PipelineConfig, text: str, *, lang: str = "en"
) -> tuple[PipelineConfig, list[str]]:
    """Config B = A with the ``key=value`` lines of ``text`` (``;`` also separates).

    Returns B and the messages (in ``lang``) of lines that could not be applied, each quoting
    at most :data:`QUOTE_CHARS` of a value. The text may come from the address (``b=``): model
    names are restricted as in :func:`config_from_query`, and a text over
    :data:`MAX_LINK_VALUE` characters is not read (B = A, one message).
    """
    from .i18n import notice_text, t  # lazy: ui.i18n pulls in every page's catalogue

    if len(text) > MAX_LINK_VALUE:  # not read: one line quoting its start
        chars, limit = f"{len(text):,}", f"{MAX_LINK_VALUE:,}"
        return a, [t("url.too_long", lang, param="b", chars=chars, limit=limit, head=cut(text))]
    parsed, problems = parse_overrides(text)
    overrides, refused = restrict_noticed(parsed, base=a.flat())
    errors = [notice_text(cut_notice(n), lang) for n in (*problems, *refused)]
    if not overrides:
        return a, errors
    try:
        return a.with_overrides(overrides), errors
    except ValueError as exc:
        return a, [*errors, _error_cut(exc, lang)]


#: Config sections that change the ranking (the others act after the gate).
RANKING_SECTIONS: tuple[str, ...] = ("chunker", "retrieval", "fusion", "rerank")


@dataclass(frozen=True)
class DiffRow:
    """One flat config key where B differs from A; ``ranking``: it changes the ranking."""

    key: str
    a: Any
    b: Any
    ranking: bool


def config_diff(a: PipelineConfig, b: PipelineConfig) -> list[DiffRow]:
    """The flat keys (in A's order) whose value differs between A and B."""
    flat_a, flat_b = a.flat(), b.flat()
    return [
        DiffRow(k, flat_a[k], flat_b[k], k.split(".")[0] in RANKING_SECTIONS)
        for k in flat_a
        if flat_a[k] != flat_b[k]
    ]


def diff_text(rows: Sequence[DiffRow]) -> str:
    """B as overrides of A (``key=value; …``), the form the Compare box reads."""
    return overrides_text({r.key: r.b for r in rows})


def overrides_text(overrides: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> str:
    """``key=value`` joined by ``;`` — the compact form the URL and the Compare box use."""
    items = overrides.items() if isinstance(overrides, Mapping) else overrides
    return "; ".join(f"{k}={format_value(v) if not isinstance(v, str) else v}" for k, v in items)


def config_changes(config: Mapping[str, Any]) -> str:
    """A Trace's configuration (``Trace.config``) as the ``key=value`` items that differ from
    ``PipelineConfig()`` ("" when none, or when it no longer loads)."""
    try:
        cfg = PipelineConfig.from_dict(config)
    except (ValueError, TypeError, KeyError):
        return ""
    return overrides_text(query_from_config(cfg))


def config_from_url(
    url: str, base: PipelineConfig | None = None, *, lang: str = "en"
) -> tuple[PipelineConfig, list[str]]:
    """The config a shared app address encodes (the whole URL, or only its query string).

    View keys (language, question…) are ignored; config keys go through
    :func:`config_from_query`, so a bad key is reported and loses only itself.
    """
    from urllib.parse import parse_qsl, urlsplit

    if not isinstance(url, str) or not url.strip():
        raise ValueError(
            "the URL is empty: paste an address of this app, e.g. http://…/evaluate?retrieval.k=5"
        )
    text = url.strip()
    query = urlsplit(text).query if ("://" in text or text.startswith(("/", "?"))) else text
    params: dict[str, str] = {}
    for key, value in parse_qsl(query, keep_blank_values=True):
        params[key] = value  # the last of a repeated key wins, as st.query_params does
    read, unread = bounded_query(params, lang)
    config, errors = config_from_query(read, base, lang=lang)
    return config, [*unread, *errors]
