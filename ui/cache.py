"""Streamlit caches around ``rag_core``: corpora, question sets, Traces.

* Corpora are ``CorpusIndex`` objects in ``st.cache_resource`` (shared by
  every session; a ``CorpusIndex`` only ever adds memo entries under a lock,
  so sharing is safe). Chunkings, sparse and dense indexes are memoised inside
  it, so a model-free change (k, threshold, budget) reruns only the cheap
  stages.
* Traces are kept in a bounded, lock-protected LRU held by
  ``st.cache_resource``, keyed by (corpus, config JSON, question, gold id).
  Not ``st.cache_data``: a miss runs the pipeline with a progress callback
  that writes into a status box created outside the function, which
  ``st.cache_data``'s element replay forbids. Traces are frozen dataclasses
  and are never mutated.
"""

from __future__ import annotations

import hashlib
import itertools
import threading
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import streamlit as st

from rag_core import (
    models,  # models.get_* read at call time: the one place a model is swapped
    pipeline,  # pipeline.run read at call time (a test swaps it)
)
from rag_core.config import PipelineConfig
from rag_core.corpus import (
    SAMPLE_CORPUS,
    datasets,
    loaders,  # loaders.DEFAULT_TIME_BUDGET_S read at call time
)
from rag_core.corpus.datasets import load_qrels_folder, safe_extract_zip
from rag_core.corpus.loaders import load_batch
from rag_core.formats.questions import load_questions
from rag_core.index import CorpusIndex, load_corpus_index
from rag_core.retrieval.runs import parse_run_bytes
from rag_core.types import LoadReport, Notice, Question, Trace
from rag_core.wording import NoticeError, english, joined, refused

from .html import md
from .i18n import error_text, notice_text

#: Where the bundled corpora live, by sidebar choice.
CORPUS_DIRS = {"sample": SAMPLE_CORPUS, "sample-html": SAMPLE_CORPUS / "html"}
TRACE_ENTRIES = 64


def _question_files() -> list[Path]:
    return sorted((SAMPLE_CORPUS / "questions").glob("*.jsonl"))


@st.cache_data(max_entries=4, show_spinner=False)
def question_sets(kind: str) -> dict[str, tuple[Question, ...]]:
    """``{set name: questions}`` of the bundled question sets.

    The HTML edition holds only some documents: there a set keeps the
    questions whose needles all lie in its documents, plus the unanswerable
    ones; sets left empty are omitted.
    """
    out: dict[str, tuple[Question, ...]] = {}
    for f in _question_files():
        out[f.stem] = load_questions(f)
    if kind != "sample":
        docs = set(sample_index(kind).docs)
        out = {
            name: kept
            for name, qs in out.items()
            if (kept := tuple(q for q in qs if all(n.doc_id in docs for n in q.needles)))
        }
    return out


@st.cache_resource(max_entries=4, show_spinner=False)
def sample_index(kind: str) -> CorpusIndex:
    """The bundled corpus (``sample``: Markdown/text edition, ``sample-html``: HTML edition)."""
    root = CORPUS_DIRS[kind]
    if kind == "sample":
        return load_corpus_index(root)
    qs = tuple(q for f in _question_files() for q in load_questions(f))
    return load_corpus_index(root, questions=qs)


def upload_digest(files: Sequence[tuple[str, bytes]]) -> str:
    h = hashlib.sha256()
    for name, data in files:
        h.update(name.encode("utf-8", "replace"))
        h.update(b"\0")
        h.update(hashlib.sha256(data).digest())
    return "upload:" + h.hexdigest()[:16]


@st.cache_resource(max_entries=4, show_spinner=False)
def _upload_build(
    key: str, _files: tuple[tuple[str, bytes], ...]
) -> tuple[CorpusIndex | None, LoadReport]:
    report = load_batch(_files)
    if not report.documents:
        return None, report
    return CorpusIndex(report, name="upload"), report


def upload_index(files: Sequence[tuple[str, bytes]]) -> tuple[CorpusIndex | None, LoadReport, str]:
    """Load uploaded files (each with ``rag_core.corpus.loaders.load_bytes``); failures are
    listed."""
    key = upload_digest(files)
    index, report = _upload_build(key, tuple(files))
    if index is not None:
        key = f"{key}:{index.fingerprint}"
        _remember_upload(key, index)
    return index, report, key


_uploads_lock = threading.Lock()


@st.cache_resource(max_entries=1, show_spinner=False)
def _upload_registry() -> OrderedDict[str, CorpusIndex]:
    return OrderedDict()


def _remember_upload(key: str, index: CorpusIndex) -> None:
    reg = _upload_registry()
    with _uploads_lock:
        reg[key] = index
        reg.move_to_end(key)
        while len(reg) > 4:
            reg.popitem(last=False)


def upload_lookup(key: str) -> CorpusIndex | None:
    """A previously loaded upload corpus (kept when a later upload fails entirely)."""
    return _upload_registry().get(key)


# -------------------------------------------------- datasets with qrels (BEIR folders, zips)


_STAMP_FILES = 50_000


def _beir_stamp(root: Path, split: str) -> tuple[Any, ...]:
    """What a BEIR or TREC folder's cache entry depends on: its files' sizes and mtimes.

    The top-level files, and those under ``qrels/``, ``docs/`` and ``corpus/``
    (at most ``_STAMP_FILES`` in each place, so a mistyped ``/`` stays cheap).
    """
    paths = list(itertools.islice(root.iterdir(), _STAMP_FILES))
    for sub in ("qrels", "docs", "corpus"):
        if (root / sub).is_dir():
            paths.extend(itertools.islice((root / sub).rglob("*"), _STAMP_FILES))
    out = []
    for p in sorted(paths):
        if p.is_file():
            st_ = p.stat()
            out.append((str(p.relative_to(root)), st_.st_size, st_.st_mtime_ns))
    return tuple(out)


@st.cache_resource(max_entries=4, show_spinner=False)
def _beir_build(root: str, split: str, _stamp: tuple[Any, ...]) -> tuple[CorpusIndex, Any]:
    qset = load_qrels_folder(root, split)
    return CorpusIndex(qset.report, name=qset.name, questions=qset.questions), qset


def beir_index(path: str, split: str) -> tuple[CorpusIndex, Any, str]:
    """A BEIR or TREC folder as ``(CorpusIndex, QrelsSet, key)``; ``ValueError`` says why not."""
    root = Path(path.strip()).expanduser()
    if not path.strip():
        raise refused(datasets.NO_PATH)
    if not root.is_dir():
        raise refused(datasets.NO_FOLDER, folder=repr(str(root)))
    stamp = _beir_stamp(root, split)
    index, qset = _beir_build(str(root.resolve()), split, stamp)
    return index, qset, f"beir:{root.resolve()}:{split}:{index.fingerprint}"


@st.cache_resource(max_entries=2, show_spinner=False)
def _beir_zip_build(digest: str, split: str, _data: bytes) -> tuple[CorpusIndex, Any]:
    import tempfile

    skipped: list[Notice] = []
    with tempfile.TemporaryDirectory(prefix="rag-inspector-beir-") as tmp:
        try:
            folder = safe_extract_zip(_data, tmp, skipped=skipped)
            # everything is read into memory here; an upload's corpus file has a time budget
            qset = load_qrels_folder(folder, split, time_budget_s=loaders.DEFAULT_TIME_BUDGET_S)
        except NoticeError as exc:  # name the zip, never the server's temporary folder
            said = [*skipped, exc.notice]  # a member not unpacked is often why (corpus.jsonl)
            raise NoticeError(joined([_notice_without_folder(n, tmp) for n in said])) from None
        except ValueError as exc:
            said_text = [*map(english, skipped), str(exc)]
            raise ValueError(_without_folder("; ".join(said_text), tmp)) from None
    name = "zip" if qset.name == Path(tmp).name else qset.name
    qset = replace(qset, name=name, skipped=tuple(_notice_without_folder(n, tmp) for n in skipped))
    return CorpusIndex(qset.report, name=qset.name, questions=qset.questions), qset


def _without_folder(message: str, folder: str) -> str:
    """``message`` with the temporary folder's path replaced by "the zip"."""
    for form in {str(Path(folder).resolve()), str(folder)}:
        message = message.replace(form + "/", "").replace(form, "the zip")
    return message


def _notice_without_folder(said: Notice, folder: str) -> Notice:
    """``said`` with the temporary folder's path replaced by "the zip" in every text param."""
    params = {
        k: (
            _notice_without_folder(v, folder)
            if isinstance(v, Notice)
            else _without_folder(v, folder)
            if isinstance(v, str)
            else v
        )
        for k, v in said.params.items()
    }
    return Notice(said.code, params)


def beir_zip_index(data: bytes, split: str) -> tuple[CorpusIndex, Any, str]:
    """An uploaded BEIR or TREC zip (unpacked safely into a temporary folder, then removed)."""
    digest = hashlib.sha256(data).hexdigest()[:16]
    index, qset = _beir_zip_build(digest, split, data)
    return index, qset, f"beirzip:{digest}:{split}:{index.fingerprint}"


@st.cache_data(max_entries=16, show_spinner=False)
def parse_run(name: str, data: bytes) -> dict[str, Any]:
    """``rag_core.retrieval.runs.parse_run_bytes`` (cached by content); ``ValueError`` names the
    bad line."""
    return parse_run_bytes(name, data)


# ------------------------------------------------------------------ traces


class TraceLRU:
    """A small thread-safe LRU of Traces, with one build lock per key (:meth:`building`)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[tuple[str, ...], Trace] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[tuple[str, ...], threading.Lock] = {}

    def building(self, key: tuple[str, ...]) -> threading.Lock:
        """The lock a session holds while it runs the pipeline for ``key``.

        Sessions asking for the same Trace at once (8 tabs opening one shared
        address) wait for the first run instead of each running the pipeline.
        """
        with self._lock:
            lock = self._building.get(key)
            if lock is None:
                if len(self._building) > 4 * self.size:  # forget idle locks of long-gone keys
                    for k in [k for k, v in self._building.items() if not v.locked()]:
                        del self._building[k]
                lock = self._building[key] = threading.Lock()
            return lock

    def get(self, key: tuple[str, ...]) -> Trace | None:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key: tuple[str, ...], value: Trace) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def __len__(self) -> int:
        return len(self._data)


@st.cache_resource(max_entries=1, show_spinner=False)
def trace_store() -> TraceLRU:
    return TraceLRU(TRACE_ENTRIES)


@dataclass(frozen=True)
class TraceResult:
    """A Trace, or why there is none (bad question: ``error``; a bug: ``crash``)."""

    trace: Trace | None
    error: str = ""
    crash: str = ""
    cached: bool = False
    seconds: float = 0.0
    #: ``ui.stream``: the answer is still being made (``trace`` is its ``stages`` Trace) …
    pending: Any = None
    #: … or its generation was stopped (``trace`` is the ``stages`` Trace).
    stopped: bool = False
    #: The Trace's LRU key (:func:`trace_key`), where ``ui.stream`` made it.
    key: tuple[str, ...] = ()


def trace_key(
    corpus_key: str, config: PipelineConfig, question: str, gold: Question | None
) -> tuple[str, ...]:
    """The LRU key; imported runs are part of ``corpus_key`` (see ``ui.sidebar``), and the gold
    is its id and a fingerprint of its needles (labels merged in change them: Inspect's ★)."""
    if gold is None:
        gold_key = ""
    else:
        needles = repr(tuple((n.doc_id, n.text, n.start, n.end, n.grade) for n in gold.needles))
        gold_key = f"{gold.id}|{hashlib.sha256(needles.encode('utf-8')).hexdigest()[:16]}"
    return (corpus_key, config.to_json(sort_keys=True), question, gold_key)


class Progress:
    """Feeds ``pipeline.run``'s ``(message, fraction)`` callback into an ``st.status`` box,
    the message (a core notice) worded in ``lang``.

    The box is created at the first call, so a run that loads nothing shows nothing.
    """

    def __init__(self, slot: Any, label: str, lang: str = "en") -> None:
        self.slot = slot
        self.label = label
        self.lang = lang
        self.box: Any = None
        self.bar: Any = None

    def __call__(self, message: Notice | str, fraction: float) -> None:
        if self.slot is None:
            return
        if isinstance(message, Notice):
            message = notice_text(message, self.lang)
        if self.box is None:
            self.box = self.slot.status(self.label, expanded=True)
            self.bar = self.box.progress(0.0)
        frac = min(max(float(fraction), 0.0), 1.0)
        self.bar.progress(frac, text=message)
        self.box.update(label=f"{self.label} — {message}")

    def done(self) -> None:
        if self.box is not None:
            self.slot.empty()


def get_trace(
    corpus: CorpusIndex,
    corpus_key: str,
    config: PipelineConfig,
    question: str,
    gold: Question | None,
    *,
    progress_label: str = "…",
    slot: Any = None,
    runner: Callable[..., Trace] | None = None,
    runs: Any = None,
    lang: str = "en",
) -> TraceResult:
    """The Trace of one question (from the LRU, or run with visible progress; one run per key).

    Pages that show an answer use ``ui.stream.staged_trace`` instead: their stages first,
    the answer streamed after.

    ``runs``: imported runs by tag for ``run:TAG`` retrievers (read at ``gold.id``).
    ``lang``: the language of the progress messages and of a bad setting's error.
    """
    key = trace_key(corpus_key, config, question, gold)
    store = trace_store()
    hit = store.get(key)
    if hit is not None:
        return TraceResult(hit, cached=True)
    with store.building(key):
        hit = store.get(key)  # another session finished it while this one waited
        if hit is not None:
            return TraceResult(hit, cached=True)
        return _run_trace(
            store, key, corpus, config, question, gold, progress_label, slot, runner, runs, lang
        )


def _run_trace(
    store: TraceLRU,
    key: tuple[str, ...],
    corpus: CorpusIndex,
    config: PipelineConfig,
    question: str,
    gold: Question | None,
    progress_label: str,
    slot: Any,
    runner: Callable[..., Trace] | None,
    runs: Any = None,
    lang: str = "en",
) -> TraceResult:
    progress = Progress(slot if slot is not None else st.empty(), progress_label, lang)
    t0 = time.perf_counter()
    try:
        extra = {"runs": runs} if runs else {}
        trace = (runner or pipeline.run)(
            config, question, corpus, gold=gold, progress=progress, **extra
        )
    except ValueError as exc:
        progress.done()
        return TraceResult(None, error=error_text(exc, lang))
    except Exception as exc:  # noqa: BLE001 - a bug in a stage must not take the page down
        progress.done()
        return TraceResult(None, error=f"{type(exc).__name__}: {exc}", crash=traceback.format_exc())
    progress.done()
    if cacheable(trace):
        store.put(key, trace)
    return TraceResult(trace, seconds=time.perf_counter() - t0)


def cacheable(trace: Trace) -> bool:
    """A Trace may be kept for the next visit unless a server failed to answer: a Qdrant
    server or a generator endpoint that was down (or too slow) may be up on the next run,
    and a cached "Connection refused" would hide it."""
    said = trace.generation.notice
    endpoint_down = said is not None and said.code == "generation.endpoint_failed"
    return not endpoint_down and not any(
        lst.method == "qdrant" and lst.status == "unavailable" for lst in trace.retrieval.lists
    )


def get_chunking(
    corpus: CorpusIndex, chunker: Any, *, progress_label: str = "…", lang: str = "en"
) -> Any:
    """``corpus.chunking(chunker)`` with visible progress (worded in ``lang``); None (and a
    page error) on failure."""
    progress = Progress(st.empty(), progress_label, lang)
    try:
        return corpus.chunking(chunker, progress)
    except ValueError as exc:
        st.error(md(error_text(exc, lang)))
        return None
    finally:
        progress.done()


@st.cache_data(max_entries=64, show_spinner=False)
def trace_json(key: tuple[str, ...], _trace: Trace) -> str:
    """The Trace as indented JSON (for the download button), cached per trace key."""
    return _trace.to_json(indent=2)


def token_pieces(trace: Trace) -> tuple[list[str], int] | None:
    """The prompt as token pieces and the index of the first token not sent.

    The Trace holds the ids, not their text spans, so the prompt text is
    tokenised again with the tokenizer the context stage named (the
    generator's, or the fallback) and used only when it reproduces the
    recorded ids exactly — otherwise nothing is shown rather than wrong
    pieces. ``hard-cut`` prompts match ``full_ids`` (the cut is at
    ``len(input_ids)``); ``pack`` prompts match ``input_ids`` (nothing beyond).
    """
    ctx = trace.context
    if not ctx.prompt_text or not (ctx.full_ids or ctx.input_ids):
        return None
    gen_cfg = trace.config.get("generation", {})
    model = str(gen_cfg.get("model", "none"))
    return _pieces(
        model,
        ctx.tokenizer or "",
        ctx.prompt_text,
        tuple(ctx.full_ids),
        tuple(ctx.input_ids),
        str(gen_cfg.get("dtype", "auto")),
    )


@st.cache_data(max_entries=32, show_spinner=False)
def _pieces(
    model: str,
    label: str,
    prompt: str,
    full_ids: tuple[int, ...],
    input_ids: tuple[int, ...],
    dtype: str = "auto",
) -> tuple[list[str], int] | None:
    try:
        tok = (
            models.fallback_prompt_tokenizer()
            if "fallback" in label or model == "none"
            else models.get_generator(model, dtype=dtype)  # the instance the run loaded
        )
        ids, offsets = tok.encode_offsets(prompt)
    except Exception:  # noqa: BLE001 - no tokenizer here: the page says so, shows counts and hashes
        return None
    ids_t = tuple(ids)
    if ids_t == full_ids:
        cut = len(input_ids)
    elif ids_t == input_ids:
        cut = len(ids_t)
    else:
        return None
    starts = [s for s, _ in offsets]
    pieces = []
    for i, s in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(prompt)
        pieces.append(prompt[s : max(end, s)])
    return pieces, cut
