"""The shared sidebar: language, question, corpus and every pipeline knob.

Rendered by ``app.py`` on every run (so its widgets survive page switches).
Widget values live in ``st.session_state`` under explicit keys (see
``ui.state``); the last valid config is kept in ``_cfg`` so a bad
combination (overlap ≥ target) shows its message without losing the view;
every run mirrors the view into ``st.query_params``.
"""

from __future__ import annotations

import contextvars
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import streamlit as st
from streamlit.errors import StreamlitAPIException

from rag_core.config import (
    ANALYZERS,
    BM25_VARIANTS,
    CHUNK_STRATEGIES,
    CITATION_MODES,
    CONTEXT_ORDERINGS,
    CONTEXT_POLICIES,
    ENDPOINT_GRAMMARS,
    FUSION_METHODS,
    GENERATION_DTYPES,
    PRESET_LABELS,
    PRESETS,
    RERANK_METHODS,
    RESERVED_INSTRUCTION_TOKENS,
    RETRIEVAL_METHODS,
    ConfigError,
    GenerationConfig,
    PipelineConfig,
    parse_overrides_noticed,
)
from rag_core.modelnames import (
    as_typed,
    endpoint_key_env,
    place_path,
    place_root,
    refusal_notice,
    shared_mode,
    shared_restrict_noticed,
)
from rag_core.models.dtype import machine_dtype
from rag_core.models.endpoint import EndpointError, list_models
from rag_core.models.endpoint.client import MAX_EVENT_BYTES
from rag_core.models.endpoint.generator import MAX_ANSWER_CHARS
from rag_core.retrieval.runs import check_queries
from rag_core.types import Notice
from rag_core.wording import NoticeError, unworded

from . import cache
from .html import md
from .i18n import TEXT, error_text, notice_text, t
from .state import (
    CORPORA,
    CUSTOM,
    K_ANALYZER_FOR,
    K_BEIR_PATH,
    K_BEIR_SPLIT,
    K_BEIR_ZIP,
    K_CHUNKS_DOC,
    K_COMPARE_B,
    K_CORPUS,
    K_LANG,
    K_METHODS,
    K_PER_METHOD,
    K_PRESET,
    K_QID,
    K_QMODE,
    K_QPHRASING,
    K_QSET,
    K_QTEXT,
    K_RUN_FILES,
    K_RUNS,
    K_UPLOADS,
    LANGS,
    QUESTION_MODES,
    SHADOW_KEYS,
    SPARSE_METHODS,
    Context,
    bounded_query,
    config_from_query,
    config_from_widgets,
    query_from_config,
    query_from_view,
    single_values,
    view_from_query,
    widgets_from_config,
)
from .upload_report import render_upload_report

#: Environment variable with ``key=value;…`` overrides for a fresh session's
#: starting config (tests set ``generation.model=none``). A URL still wins.
ENV_SET = "RAG_APP_SET"

GENERATORS = ("qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b", "smollm2-135m", "none")
DENSE_MODELS = ("auto", "minilm", "e5-small")

_CFG = "_cfg"
_INIT = "_init"
_LANG_SHADOW = "_ui_lang_shadow"  # survives page switches (widget state may not)
_PROBLEMS = "_url_problems"
_CTX = "_ctx"
# set by render(), consumed by context(): "the sidebar ran in this script run"
_FRESH = "_ctx_fresh"
_GOTO = "_goto"  # a page name a callback asks to switch to (scenario buttons)
_HOPPED = "_hopped"  # the legacy-folder hand-over to app.py happened (once per session)
_SHADOW = "_shadow"  # page widgets mirrored in the URL (Compare's B, Chunks' document)
_LAST_CORPUS = "_last_corpus"
_URL_ASKED = "_url_asked"  # view parameters of the first address, until honoured or noticed
#: This script run's upload line (slot, documents), filled by render() once the config is known.
#: A ContextVar: each session's script thread sees its own.
_UPLOAD_NOTE: contextvars.ContextVar[tuple[Any, int] | None] = contextvars.ContextVar(
    "upload_note", default=None
)
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTION = {"ko": "한라산의 높이는 얼마인가요?", "en": "How tall is Hallasan?"}
#: The question a fresh session opens on (set, id), per language, when the URL names none:
#: with the default configuration and the bundled models its gold is retrieved, kept and
#: sent, and the answer's claim is supported by the source it cites, in the question's
#: language (tests/ui/test_first_screen.py checks both with the real model). Not ko-01:
#: its particle and common words keep its gold out of BM25's top 8 (the FM3/FM4 lesson).
FIRST_QUESTIONS = {"en": ("en", "en-emb-01"), "ko": ("ko", "ko-02")}


def start_config(lang: str = "en") -> tuple[PipelineConfig, list[str]]:
    """``PipelineConfig()`` with the :data:`ENV_SET` overrides applied, and what was wrong
    with them (in ``lang``)."""
    text = os.environ.get(ENV_SET, "")
    overrides, problems = parse_overrides_noticed(text)
    errors = [notice_text(n, lang) for n in problems]
    try:
        return PipelineConfig().with_overrides(overrides), errors
    except ValueError as exc:
        return PipelineConfig(), [*errors, f"{ENV_SET}: {error_text(exc, lang)}"]


def _init_session() -> None:
    ss = st.session_state
    if ss.get(_INIT):
        return
    asked = single_values(st.query_params.to_dict())
    lang = asked.get("lang", "ko")
    lang = lang if lang in LANGS else "ko"
    params, unread = bounded_query(asked, lang)  # a link's caps: one message per value not read
    base, problems = start_config(lang)
    config, errors = config_from_query(params, base, lang=lang)
    values = widgets_from_config(config)
    view = view_from_query(params)
    values.update(view)
    values.setdefault(K_LANG, "ko")
    values.setdefault(K_CORPUS, "sample")
    values.setdefault(K_QMODE, "set")
    if K_QID not in view and K_QTEXT not in view:
        first = FIRST_QUESTIONS.get(values[K_LANG], FIRST_QUESTIONS["en"])
        values.setdefault(K_QSET, first[0])
        values.setdefault(K_QID, first[1])
    for k, v in values.items():
        if k not in SHADOW_KEYS:
            ss[k] = v
    ss[_SHADOW] = {k: view[k] for k in SHADOW_KEYS if k in view}
    ss[_CFG] = config
    ss[_PROBLEMS] = [*unread, *problems, *errors, *_view_notices(params, view, values)]
    ss[_URL_ASKED] = {
        name: params[name] for name in ("qset", "qid", "ph", "q", "doc", "step") if name in params
    }
    ss[_INIT] = True


def _view_notices(
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


def shared_config(config: PipelineConfig, lang: str = "en") -> tuple[PipelineConfig, list[str]]:
    """On a shared server (``RAG_INSPECTOR_MODE=shared``) the sidebar's typed model names,
    Qdrant folders and servers follow the address's rule (``rag_core.modelnames``): a value
    outside its allow-listed root is put back to the start config's, with one message (in
    ``lang``)."""
    if not shared_mode():
        return config, []
    base = start_config()[0].flat()
    flat = config.flat()
    kept, refused = shared_restrict_noticed(flat, base)
    changed = {k: v for k, v in kept.items() if v != flat[k]}
    said = [notice_text(n, lang) for n in refused]
    return (config.with_overrides(changed) if changed else config), said


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
    asked = st.session_state.get(_URL_ASKED, {})
    if name not in asked:
        return None
    value = asked.pop(name)
    message = t("url.not_honoured", lang, param=name, value=value[:80], shown=shown)
    st.session_state.setdefault(_PROBLEMS, []).append(message)
    return message


def url_honoured(name: str) -> None:
    """The address's ``name=…`` was shown as asked: no notice for it."""
    st.session_state.get(_URL_ASKED, {}).pop(name, None)


#: The sidebar's view widgets whose value a person chose (file uploaders cannot be set).
_VIEW_WIDGETS = (K_CORPUS, K_QMODE, K_QSET, K_QID, K_QPHRASING, K_QTEXT, K_BEIR_PATH, K_BEIR_SPLIT)


def _seed(values: Mapping[str, Any]) -> None:
    """Give every widget key without a value the value of the last good config, and write
    every other widget key's value back to itself.

    The write-back keeps values across a language switch: a widget whose label changes is a
    new widget to Streamlit, and a new widget starts from its own default (the first option,
    the minimum) unless its key holds a value set through the Session State API.
    """
    ss = st.session_state
    for k, v in values.items():
        ss[k] = ss.get(k, v)


def shadow_get(key: str, default: Any = "") -> Any:
    return st.session_state.get(_SHADOW, {}).get(key, default)


def shadow_set(key: str, value: Any) -> None:
    st.session_state.setdefault(_SHADOW, {})[key] = value


def load_view(config: PipelineConfig, view: Mapping[str, Any]) -> None:
    """Put a config and view keys into the widgets (for callbacks: scenario buttons).

    Must run before the sidebar renders (an ``on_click`` callback does).
    """
    ss = st.session_state
    for k, v in widgets_from_config(config).items():
        ss[k] = v
    for k, v in view.items():
        if k in SHADOW_KEYS:
            shadow_set(k, v)
        else:
            ss[k] = v
    ss[_CFG] = config


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
    if ss.pop(_FRESH, False) and _CTX in ss:
        return ss[_CTX]
    if page_file and not ss.get(_HOPPED):
        ss[_HOPPED] = True
        ss[_GOTO] = Path(page_file).stem
        try:
            st.switch_page(str(ROOT / "app.py"), query_params=st.query_params.to_dict())
        except StreamlitAPIException:  # app.py is not a page here (the page was run on its own)
            ss.pop(_GOTO, None)
    return render()


def current_lang() -> str:
    """The UI language before the sidebar renders (session, else the URL, else Korean)."""
    lang = st.session_state.get(K_LANG) or st.query_params.get("lang")
    return lang if lang in LANGS else "ko"


def page_path(name: str) -> str:
    """Absolute path of ``pages/<name>.py`` (what ``st.Page``, ``st.page_link`` and
    ``st.switch_page`` get)."""
    return str(ROOT / "pages" / f"{name}.py")


def request_page(name: str) -> None:
    """From a callback: switch to ``pages/<name>.py`` at the start of the next run."""
    st.session_state[_GOTO] = name


# ---------------------------------------------------------------- widgets


def _number(label: str, key: str, lang: str, help_key: str | None = None, **kw: Any) -> Any:
    return st.number_input(label, key=key, help=t(help_key, lang) if help_key else None, **kw)


def _question(lang: str, qsets: Mapping[str, tuple[Any, ...]]) -> tuple[str, Any]:
    ss = st.session_state
    asked = ss.get(_URL_ASKED, {})
    modes = QUESTION_MODES if qsets else ("free",)
    if ss.get(K_QMODE) not in modes:
        ss[K_QMODE] = modes[0]
    st.radio(
        t("side.qmode", lang),
        modes,
        key=K_QMODE,
        horizontal=True,
        format_func=lambda m: t(f"side.qmode.{m}", lang),
    )
    if ss[K_QMODE] == "free":
        if K_QTEXT not in ss:  # first time only: a box the user cleared stays empty
            ss[K_QTEXT] = DEFAULT_QUESTION.get(lang, DEFAULT_QUESTION["en"])
            url_notice("q", t("url.shown.default_question", lang, q=ss[K_QTEXT]), lang)
        text = st.text_area(
            t("side.question", lang), key=K_QTEXT, height=90, help=t("help.question", lang)
        )
        if not (text or "").strip():
            st.caption(t("side.question_empty", lang))
        url_honoured("q")
        for name in ("qset", "qid", "ph"):
            url_notice(name, t("url.shown.free", lang), lang)
        return text, None
    names = list(qsets)
    if ss.get(K_QSET) not in names:
        # a question id without its set (an older address): the set that holds it, else the first
        holder = [n for n in names if any(q.id == ss.get(K_QID) for q in qsets[n])]
        ss[K_QSET] = (holder or names)[0]
        url_notice("qset", t("url.shown.set", lang, set=ss[K_QSET]), lang)
    url_honoured("qset")
    st.selectbox(t("side.qset", lang), names, key=K_QSET)
    questions = qsets[ss[K_QSET]]
    ids = [q.id for q in questions]
    by_id = {q.id: q for q in questions}
    if ss.get(K_QID) not in by_id:
        ss[K_QID] = ids[0]
        url_notice("qid", t("url.shown.qid", lang, qid=ids[0], set=ss[K_QSET]), lang)
    url_honoured("qid")
    st.selectbox(
        t("side.qid", lang),
        ids,
        key=K_QID,
        format_func=lambda i: f"{i} · {by_id[i].question[:60]}",
        help=t("help.qid", lang),
    )
    q = by_id[ss[K_QID]]
    options = list(range(len(q.phrasings))) if q.phrasings else [0]
    if ss.get(K_QPHRASING) not in options:
        ss[K_QPHRASING] = options[0]
        url_notice("ph", t("url.shown.ph", lang, n=len(options)), lang)
    elif "ph" in asked and str(ss[K_QPHRASING]) != asked["ph"].strip():
        url_notice("ph", t("url.shown.ph", lang, n=len(options)), lang)
    url_honoured("ph")
    if "q" in asked:
        url_notice("q", t("url.shown.set_question", lang, qid=q.id), lang)
    if q.phrasings:
        st.selectbox(
            t("side.phrasing", lang),
            options,
            key=K_QPHRASING,
            format_func=lambda i: f"{i}: {q.phrasings[i][:60]}",
        )
        text = q.phrasings[ss[K_QPHRASING]]
    else:
        text = q.question
    st.caption(md(t("side.asked", lang, q=text)))
    if q.needles:
        lines = "\n".join(f"- {md(n.doc_id)} — {md(n.text)}" for n in q.needles)
        st.markdown(t("side.needles", lang) + "\n" + lines)
    elif not q.answerable:
        st.caption(t("side.unanswerable", lang))
    return text, q


def _corpus(lang: str) -> tuple[Any, str, dict[str, tuple[Any, ...]], dict[str, Any], list[str]]:
    """The chosen corpus (falls back to the last good one), its key, question sets, their qrels,
    problems.

    An upload's "indexed" line goes into a slot that :func:`render` fills once
    the config is known (a corpus the chunker turns into no chunk says so instead).
    """
    ss = st.session_state
    problems: list[str] = []
    st.selectbox(
        t("side.corpus", lang), CORPORA, key=K_CORPUS, format_func=lambda c: t(f"corpus.{c}", lang)
    )
    choice = ss[K_CORPUS]
    if choice == "upload":
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
        else:
            index, report, key = cache.upload_index(payload)
            render_upload_report(report, lang)
            if index is not None:
                _UPLOAD_NOTE.set((st.empty(), report.n_documents))
                ss[_LAST_CORPUS] = ("upload", key)
                return index, key, {}, {}, problems
            problems.append(t("side.upload.empty", lang))
    elif choice == "beir":
        loaded = _beir(lang, problems)
        if loaded is not None:
            index, qset, key = loaded
            ss[_LAST_CORPUS] = ("beir", loaded)
            return index, key, *_beir_sets(qset), problems
    elif choice == "sample-html":
        try:
            index = cache.sample_index("sample-html")
            ss[_LAST_CORPUS] = ("sample-html", "sample-html")
            return (
                index,
                f"sample-html:{index.fingerprint}",
                cache.question_sets("sample-html"),
                {},
                problems,
            )
        except ValueError as exc:
            problems.append(t("side.corpus.missing", lang, reason=error_text(exc, lang)))
    elif choice == "sample":
        index = cache.sample_index("sample")
        ss[_LAST_CORPUS] = ("sample", "sample")
        return index, f"sample:{index.fingerprint}", cache.question_sets("sample"), {}, problems
    # fall back: the last corpus that loaded, else the sample
    kind, key = ss.get(_LAST_CORPUS, ("sample", "sample"))
    if kind == "upload":
        index = cache.upload_lookup(key)
        if index is not None:
            problems.append(t("side.corpus.kept", lang))
            return index, key, {}, {}, problems
    if kind == "beir":  # the last BEIR set that loaded stays (nothing loaded before is lost)
        index, qset, bkey = key
        problems.append(t("side.corpus.kept", lang))
        return index, bkey, *_beir_sets(qset), problems
    index = cache.sample_index("sample")
    problems.append(t("side.corpus.fallback", lang))
    return index, f"sample:{index.fingerprint}", cache.question_sets("sample"), {}, problems


def _beir_sets(qset: Any) -> tuple[dict[str, tuple[Any, ...]], dict[str, Any]]:
    """The question set of a loaded BEIR or TREC collection and its qrels, under one name."""
    name = f"{qset.name} ({qset.split})" if qset.split else qset.name
    return {name: qset.questions}, {name: qset.qrels}


def _beir(lang: str, problems: list[str]) -> tuple[Any, Any, str] | None:
    """The BEIR or TREC folder (path or zip) the widgets name, or None with a problem said."""
    ss = st.session_state
    typed = (st.session_state.get(K_BEIR_PATH) or "").strip()
    path = ""  # what is opened: on a shared server resolved once inside its root
    if typed:
        try:
            path = place_path("dataset", typed)
        except NoticeError as exc:  # a bad path, or shared and outside the root: nothing opened
            problems.append(notice_text(exc.notice, lang))
            st.session_state[K_BEIR_PATH] = ""  # before the box renders, so it may be cleared
    st.text_input(t("side.qrels.path", lang), key=K_BEIR_PATH, help=t("help.qrels.path", lang))
    st.text_input(t("side.beir.split", lang), key=K_BEIR_SPLIT, placeholder="test")
    upload = st.file_uploader(
        t("side.qrels.zip", lang), type=["zip"], key=K_BEIR_ZIP, help=t("help.qrels.path", lang)
    )
    split = (ss.get(K_BEIR_SPLIT) or "test").strip() or "test"
    try:
        if upload is not None:
            loaded = cache.beir_zip_index(upload.getvalue(), split)
        elif path:
            loaded = cache.beir_index(path, split)
        else:
            st.info(t("side.beir.none", lang))
            return None
    except (ValueError, OSError) as exc:
        said = unworded(exc)
        root, variable = place_root("dataset")
        if path != typed and root is not None:  # name the path as typed, not the server's
            said = as_typed(said, path, typed, root, variable)
        reason = notice_text(said, lang) if isinstance(said, Notice) else said
        problems.append(t("side.qrels.failed", lang, reason=reason))
        return None
    qset = loaded[1]
    st.success(
        t(
            "side.beir.ok",
            lang,
            docs=len(qset.report.documents),
            queries=len(qset.questions),
            judgements=qset.n_judgements,
        )
    )
    if not qset.split:
        st.caption(t("side.qrels.trec", lang))
    if qset.unknown_docs:
        st.caption(t("side.beir.unknown", lang, n=len(qset.unknown_docs)))
    for kind, n in qset.duplicates.items():  # repeats dropped, the first line kept
        if n:
            st.warning(t("side.beir.dup", lang, n=n, kind=t(f"side.beir.dup.{kind}", lang)))
    for said in qset.skipped:  # zip members not unpacked, each with its reason
        st.warning(md(t("side.beir.skipped", lang, line=notice_text(said, lang))))
    st.caption(t("side.doc_level", lang))
    return loaded


def _chunker(lang: str) -> None:
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
            _number(
                t("side.target", lang, unit=unit),
                "chunker.target",
                lang,
                min_value=16,
                max_value=100_000,
                step=32,
            )
        with c2:
            _number(
                t("side.overlap", lang, unit=unit),
                "chunker.overlap",
                lang,
                min_value=0,
                max_value=99_999,
                step=16,
            )
        st.toggle(t("side.header", lang), key="chunker.header", help=t("help.header", lang))
        if ss.get("chunker.strategy") == "html":
            _number(
                t("side.min_chars", lang),
                "chunker.min_chars",
                lang,
                min_value=0,
                max_value=100_000,
                step=10,
            )


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


def _runs(lang: str, known: set[str], problems: list[str]) -> dict[str, Any]:
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


def _known_query_ids(qsets: Mapping[str, tuple[Any, ...]]) -> set[str]:
    return {
        qid
        for qs in qsets.values()
        for q in qs
        for qid in (q.id, *(f"{q.id}#{i}" for i in range(len(q.phrasings))))
    }


def _retrieval(lang: str, corpus: Any) -> None:
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
        _number(
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
        _number("k1", "retrieval.k1", lang, min_value=0.0, max_value=10.0, step=0.1, format="%.2f")
    with c2:
        _number("b", "retrieval.b", lang, min_value=0.0, max_value=1.0, step=0.05, format="%.2f")
    if ss.get("retrieval.bm25_variant") in ("l", "plus"):
        _number(
            "δ (delta)",
            "retrieval.delta",
            lang,
            min_value=0.0,
            max_value=10.0,
            step=0.1,
            format="%.2f",
        )
    if ss.get("retrieval.bm25_variant") == "okapi":
        _number(
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
        _number(t("side.ngram_min", lang), "retrieval.ngram_min", lang, min_value=1, max_value=10)
    with c2:
        _number(t("side.ngram_max", lang), "retrieval.ngram_max", lang, min_value=1, max_value=10)
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


def _rerank_gate(lang: str) -> None:
    ss = st.session_state
    st.selectbox(
        t("side.rerank", lang),
        RERANK_METHODS,
        key="rerank.method",
        format_func=lambda m: t(f"rerank.{m}", lang),
        help=t("help.rerank", lang),
    )
    if ss.get("rerank.method") != "none":
        _number(
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
    _number(
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
    _number(
        t("side.min_score", lang),
        "gate.min_score",
        lang,
        "help.min_score",
        step=0.1,
        format="%.3f",
        placeholder=t("side.off", lang),
    )
    _number(
        t("side.max_kept", lang),
        "gate.max_kept",
        lang,
        "help.max_kept",
        min_value=1,
        max_value=10_000,
        placeholder=t("side.off", lang),
    )


def _context_generation(lang: str) -> None:
    """The context group (budget, policy, ordering, dedup, cap), then the generator group."""
    _context(lang)
    _generation(lang)
    _support(lang)


def _context(lang: str) -> None:
    """Budget, policy and ordering; dedup and the per-source cap in an expander."""
    _number(
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
        _number(
            t("side.max_source_chars", lang),
            "context.max_source_chars",
            lang,
            min_value=50,
            max_value=1_000_000,
            step=100,
        )


#: Session key of the model ids the endpoint's ``GET /v1/models`` listed (``openai:ID`` choices).
K_ENDPOINT_MODELS = "side.endpoint.models"
#: Session key of the last model listing's problem (a notice, shown under the button).
K_ENDPOINT_PROBLEM = "side.endpoint.problem"


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
    except ConfigError as exc:  # a bad URL (rag_core.config.check_endpoint_url): worded on show
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


def _generation(lang: str) -> None:
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
    _number(
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


def _support(lang: str) -> None:
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
        st.toggle(t("side.judge", lang), key="support.judge", help=t("help.judge", lang))


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


def _upload_line(corpus: Any, config: PipelineConfig, lang: str) -> None:
    """Fill this run's upload slot: documents indexed, or that the chunker made no chunk of them."""
    note = _UPLOAD_NOTE.get()
    if note is None:
        return
    _UPLOAD_NOTE.set(None)
    slot, n_docs = note
    try:
        chunking = corpus.chunking(config.chunker)
    except ValueError:
        chunking = None
    if chunking is not None and not chunking.chunks:
        slot.warning(md(t("upload.no_chunks", lang, n=n_docs, sig=chunking.signature)))
    else:
        slot.success(t("side.upload.ok", lang, n=n_docs))


def _resolved_config(lang: str) -> tuple[PipelineConfig, list[str]]:
    """The config the widgets make (on a shared server, typed paths held to the URL's rules)
    and what was refused; when they make none, the last good one and the error."""
    ss = st.session_state
    refused: list[str] = []
    try:
        config = config_from_widgets(cast(Mapping[str, Any], ss))  # session state reads as one
        config, refused = shared_config(config, lang)  # shared server: typed paths as the URL's
        ss[_CFG] = config
    except ValueError as exc:
        config = ss[_CFG]
        st.error(md(t("side.bad_config", lang, error=error_text(exc, lang))))
    return config, refused


def _mirror_url(lang: str, config: PipelineConfig, question: str, gold: Any) -> None:
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


def render() -> Context:
    """Render the sidebar, resolve the context, mirror it into the URL."""
    ss = st.session_state
    _UPLOAD_NOTE.set(None)
    goto = ss.pop(_GOTO, None)
    if goto:
        st.switch_page(page_path(goto), query_params=st.query_params.to_dict())
    _init_session()
    _seed(widgets_from_config(ss[_CFG]))
    for k in _VIEW_WIDGETS:  # kept across a language switch, as _seed keeps the config's
        if k in ss:
            ss[k] = ss[k]
    if ss.get(K_LANG) not in LANGS:  # a page switch before the widget rendered dropped its state
        ss[K_LANG] = ss.get(_LANG_SHADOW) if ss.get(_LANG_SHADOW) in LANGS else current_lang()
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
        ss[_LANG_SHADOW] = lang
        with st.expander(
            t("side.section.corpus", lang), expanded=ss.get(K_CORPUS) in ("upload", "beir")
        ):
            corpus, corpus_key, qsets, dataset_qrels, corpus_problems = _corpus(lang)
        with st.expander(t("side.section.question", lang), expanded=True):
            question, gold = _question(lang, qsets)
        problems = [*ss.get(_PROBLEMS, []), *corpus_problems]
        with st.expander(t("side.section.chunking", lang)):
            _chunker(lang)
        with st.expander(t("side.section.retrieval", lang), expanded=True):
            _retrieval(lang, corpus)
            runs = _runs(lang, _known_query_ids(qsets), problems)
        with st.expander(t("side.section.rerank_gate", lang)):
            _rerank_gate(lang)
        with st.expander(t("side.section.context", lang)):
            _context_generation(lang)
        config, refused = _resolved_config(lang)
        problems += refused
        _upload_line(corpus, config, lang)
        for p in problems:
            st.warning(md(p))
        if ss.get(_PROBLEMS) and st.button(t("side.dismiss", lang), key="side.dismiss"):
            ss[_PROBLEMS] = []
    _mirror_url(lang, config, question, gold)
    used = {tag: runs[tag] for tag in ss.get(K_RUNS) or [] if tag in runs}
    if used:  # every cache keyed by the corpus also depends on the runs in use
        corpus_key = f"{corpus_key}|runs:{','.join(r.fingerprint for r in used.values())}"
    ctx = Context(
        lang=lang,
        config=config,
        corpus=corpus,
        corpus_key=corpus_key,
        runs=used,
        dataset_qrels=dataset_qrels,
        question=question,
        gold=gold,
        question_sets=qsets,
        compare_b=shadow_get(K_COMPARE_B),
        chunks_doc=shadow_get(K_CHUNKS_DOC),
        problems=tuple(problems),
    )
    ss[_CTX] = ctx
    ss[_FRESH] = True
    return ctx
