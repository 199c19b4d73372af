"""Caches and shared state of the Label, Evaluate and Threshold pages.

* The label store is a ``LabelStore`` in ``st.cache_resource`` keyed by its
  path (it opens a connection per operation, so one object serves every
  session). The path is the session's choice (``label.store.path``, set on
  the Label page), else :func:`rag_core.gold.store.default_store_path`
  (``$RAG_INSPECTOR_DATA`` …), outside the source tree.
* The gold state the measuring pages read (``label.gold``: one annotator, the adjudicated
  labels or a merge rule, :mod:`rag_core.gold.states`) is the session's choice too, drawn by
  :func:`gold_picker` on Evaluate, Threshold and Label's exports; Inspect's ★ reads it.
* Evaluations, sweep collections and pools are ``st.cache_data`` entries
  keyed by (corpus, ranking config, question set, options, label-store
  path and version): a label written anywhere bumps the version, so no
  stale result is served. Each miss shows a progress bar made *inside* the
  cached function (``st.cache_data`` replays it, already emptied, on a hit).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import streamlit as st

from rag_core.config import PipelineConfig
from rag_core.evaluation.pooling import pool_question
from rag_core.evaluation.run import evaluate_config
from rag_core.evaluation.sweep_collect import collect as collect_
from rag_core.gold.labels import Label
from rag_core.gold.merge import gold_for
from rag_core.gold.states import DEFAULT, GoldState, StateLabels, parse_state
from rag_core.gold.store import LabelStore, LabelStoreError, default_store_path
from rag_core.modelnames import shown_place, without_root
from rag_core.types import Notice
from rag_core.wording import unworded

from .html import md, show, style
from .i18n import error_text, notice_text, t
from .label.keys import K_LAB_GOLD as K_GOLD
from .label.keys import K_LAB_GOLD_W as K_GOLD_W
from .label.keys import K_LAB_STORE_PATH as K_STORE_PATH
from .state import K_QSET, Context

if TYPE_CHECKING:
    from rag_core.evaluation.pooling import Pool
    from rag_core.evaluation.run import ConfigEvaluation
    from rag_core.evaluation.sweep import SweepData
    from rag_core.index import CorpusIndex
    from rag_core.retrieval.runs import ExternalRun
    from rag_core.types import Question


# ------------------------------------------------------------------ store


def store_path() -> Path:
    """The label store this session uses."""
    chosen = st.session_state.get(K_STORE_PATH)
    return Path(chosen) if chosen else default_store_path()


def store_shown() -> str:
    """The store's path as the page shows it (on a shared server relative to its root, never
    the server's folders: ``rag_core.modelnames.shown_place``)."""
    return shown_place("labels", str(store_path()))


@st.cache_resource(max_entries=8, show_spinner=False)
def _store(path: str) -> LabelStore:
    return LabelStore(path)


def open_store(lang: str, *, quiet: bool = False) -> LabelStore | None:
    """The session's label store, or None with the reason on the page."""
    path = store_path()
    try:
        return _store(str(path))
    except (LabelStoreError, OSError) as exc:
        if not quiet:
            said = without_root(unworded(exc), "labels")  # no server folder named
            error = notice_text(said, lang) if isinstance(said, Notice) else said
            st.error(md(t("lab.store_error", lang, error=error)))
        return None


def gold_state(snapshot: StateLabels | None = None) -> GoldState:
    """The gold state this session reads (``default`` unless chosen; a chosen annotator who has
    no labels in ``snapshot`` any more falls back to ``default``)."""
    try:
        state = parse_state(st.session_state.get(K_GOLD) or "default")
    except ValueError:
        return DEFAULT
    if snapshot is not None and state.kind == "annotator" and state.name not in snapshot.own:
        return DEFAULT
    return state


def state_name(state: GoldState, lang: str) -> str:
    """A state as the pages name it (``annotator: kim``, ``adjudicated``, ``merge: highest``)."""
    if state.kind == "annotator":
        return t("gold.annotator", lang, name=state.name or t("gold.anonymous", lang))
    if state.kind == "merge":
        return t(f"gold.merge.{state.name}", lang)
    return t(f"gold.{state.kind}", lang)


def gold_picker(store: LabelStore | None, question_set: str | None, lang: str) -> GoldState:
    """The gold-state picker (default, adjudicated, each annotator, the merge rules); returns the
    state read — ``default`` resolved — and says which under the picker."""
    if store is None:
        return DEFAULT
    snap = store.snapshot(question_set)
    specs = ["default", *(c.spec for c in snap.choices())]
    chosen = gold_state(snap)
    if chosen.spec not in specs:
        chosen = DEFAULT
    st.session_state[K_GOLD_W] = chosen.spec  # the widget's key goes with the page; K_GOLD stays
    resolved = snap.default()
    st.selectbox(
        t("gold.pick", lang),
        specs,
        key=K_GOLD_W,
        format_func=lambda s: (
            t("gold.default", lang, state=state_name(resolved, lang))
            if s == "default"
            else state_name(parse_state(s), lang)
        ),
        help=t("help.gold.pick", lang),
    )
    st.session_state[K_GOLD] = st.session_state[K_GOLD_W]
    return parse_state(st.session_state[K_GOLD])


def with_labels(ctx: Context) -> Context:
    """``ctx`` with its question's gold merged with the labels of the session's gold state
    (``rag_core.gold.merge.gold_for``): Inspect's ★. Unchanged without a question of a set, a
    store or a label on it."""
    if ctx.gold is None:
        return ctx
    store = open_store(ctx.lang, quiet=True)
    name = st.session_state.get(K_QSET)
    if store is None or not isinstance(name, str):
        return ctx
    snap = store.snapshot(name, ctx.gold.id)
    if not snap.annotators and not snap.adjudications:
        return ctx
    labels = snap.resolve(gold_state(snap)).labels
    needles = gold_for(ctx.gold, labels, ctx.corpus.docs, question_set=name)
    return replace(ctx, gold=replace(ctx.gold, needles=needles))


def labels_state(
    store: LabelStore | None, question_set: str | None
) -> tuple[tuple[Any, ...], str, int]:
    """``(labels of the session's gold state, store path and state, store version)``: what
    results depend on."""
    if store is None:
        return (), "", 0
    snap = store.snapshot(question_set)
    resolved = snap.resolve(gold_state(snap))
    return resolved.labels, f"{store.path}|{resolved.state.spec}", store.version()


# --------------------------------------------------------------- progress


class _Bar:
    """A progress bar made inside a cached function; updated at most ~50 times, emptied at the
    end."""

    def __init__(self, label: str) -> None:
        self.slot = st.empty()
        self.label = label
        self.bar = self.slot.progress(0.0, text=md(label))
        self.last = -1

    def __call__(self, done: int, total: int) -> None:
        step = max(total // 50, 1)
        if done != total and done - self.last < step:
            return
        self.last = done
        self.bar.progress(min(done / max(total, 1), 1.0), text=md(f"{self.label} {done}/{total}"))

    def close(self) -> None:
        self.slot.empty()


# ------------------------------------------------------------- computations


@st.cache_data(max_entries=16, show_spinner=False)
def evaluate(
    corpus_key: str,
    config_json: str,
    question_set: str,
    phrasings: str,
    ks: tuple[int, ...],
    labels_key: tuple[str, int],
    _label: str,
    _corpus: CorpusIndex,
    _questions: Sequence[Question],
    _labels: Sequence[Label],
    _runs: Mapping[str, ExternalRun] | None = None,
    _doc_qrels: Mapping[str, Mapping[str, int]] | None = None,
    gain: str = "binary",
) -> tuple[ConfigEvaluation, float]:
    """``(evaluate_config(...), seconds it took)`` for one ranking config (cached; progress on a
    miss).

    ``_runs`` (imported runs) and ``_doc_qrels`` (a BEIR/TREC set's qrels: document-level
    evaluation) are keyed by ``corpus_key`` and ``question_set`` (see ``ui.sidebar``).
    """
    import time

    bar = _Bar(_label)
    t0 = time.perf_counter()
    try:
        result = evaluate_config(
            PipelineConfig.from_json(config_json),
            _questions,
            _corpus,
            ks=ks,
            phrasings=phrasings,
            labels=_labels,
            question_set=question_set,
            progress=bar,
            runs=_runs,
            doc_qrels=_doc_qrels,
            gain=gain,
        )
    finally:
        bar.close()
    return result, time.perf_counter() - t0


@st.cache_data(max_entries=16, show_spinner=False)
def collect(
    corpus_key: str,
    config_json: str,
    question_set: str,
    phrasings: str,
    metric: str,
    labels_key: tuple[str, int],
    _label: str,
    _corpus: CorpusIndex,
    _questions: Sequence[Question],
    _labels: Sequence[Label],
    _runs: Mapping[str, ExternalRun] | None = None,
) -> SweepData:
    """``rag_core.evaluation.sweep_collect.collect`` for one ranking config (cached; progress on
    a miss; ``_runs`` keyed by ``corpus_key``)."""
    bar = _Bar(_label)
    try:
        return collect_(
            PipelineConfig.from_json(config_json),
            _questions,
            _corpus,
            phrasings=phrasings,
            labels=_labels,
            question_set=question_set,
            metric=metric,
            progress=bar,
            runs=_runs,
        )
    finally:
        bar.close()


@st.cache_data(max_entries=64, show_spinner=False)
def pool(
    corpus_key: str,
    config_json: str,
    question_key: tuple[str, str],
    retrievers: tuple[str, ...],
    depth: int,
    order: str,
    seed: int,
    _corpus: CorpusIndex,
    _question: Question,
    _runs: Mapping[str, ExternalRun] | None = None,
) -> Pool:
    """``rag_core.evaluation.pooling.pool_question`` (cached per corpus, chunking, question and pool
    settings; the imported runs' fingerprints are part of ``corpus_key``)."""
    return pool_question(
        PipelineConfig.from_json(config_json),
        _question,
        _corpus,
        retrievers=retrievers,
        depth=depth,
        order=order,
        seed=seed,
        runs=_runs,
    )


def run_guarded(fn: Callable[[], Any], lang: str) -> Any | None:
    """Call ``fn``; a ``ValueError`` becomes an on-page error (None), anything else an error
    with details."""
    import traceback

    try:
        return fn()
    except ValueError as exc:
        st.error(md(error_text(exc, lang)))
    except Exception as exc:  # noqa: BLE001 - a bug must not take the page down; say what happened
        st.error(md(t("meas.crash", lang, error=f"{type(exc).__name__}: {exc}")))
        with st.expander(t("ins.crash", lang)):
            st.code(traceback.format_exc(), language=None)
    return None


# ------------------------------------------------------------------ styling

#: Extra classes of the measuring pages (no document text in here).
CSS = """
.ri-pick{outline:2px solid #0969da;background:#ddf4ff}
.ri-lab{border-bottom:3px solid #8c959f}
.ri-lab.ri-g0{border-bottom-color:#8c959f;text-decoration:line-through #8c959f}
.ri-lab.ri-g1{border-bottom-color:#4ac26b}
.ri-lab.ri-g2{border-bottom-color:#1a7f37}
.ri-lab.ri-g3{border-bottom-color:#116329;border-bottom-width:4px}
.ri-chip.ri-g0{background:#f6f8fa;color:#57606a}
.ri-chip.ri-g1{background:#dafbe1;border-color:#4ac26b}
.ri-chip.ri-g2{background:#aceebb;border-color:#1a7f37}
.ri-chip.ri-g3{background:#4ac26b;border-color:#116329;color:#fff}
.ri-chip.ri-o-needle{background:#fff4c2;border-color:#d4a72c}
.ri-chip.ri-o-label{background:#dafbe1;border-color:#1a7f37}
.ri-chip.ri-o-needle-label{background:#fff4c2;border-color:#1a7f37;border-width:2px}
.ri-chip.ri-o-qrels{background:#ddf4ff;border-color:#0969da}
.ri-chip.ri-o-zero{background:#f6f8fa;color:#57606a;text-decoration:line-through}
.ri-reading{border-left:4px solid #0969da;padding:2px 8px;margin:2px 0 6px 0;font-size:0.88rem}
.ri-reading.ri-sig{border-left-color:#1a7f37}
.ri-ci{color:#57606a;font-size:0.76rem}
"""


def page_head(ctx: Context, title_key: str, intro_key: str) -> None:
    """A measuring page's styles, title and intro; stops the page when there is no question set."""
    show(style())
    show(style(CSS))
    st.title(t(title_key, ctx.lang))
    st.caption(t(intro_key, ctx.lang))
    if not ctx.question_sets:
        st.info(t("ev.no_sets", ctx.lang))
        st.stop()
