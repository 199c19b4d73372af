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

from rag_core.config import PipelineConfig
from rag_core.corpus import SAMPLE_CORPUS
from rag_core.index import CorpusIndex, load_corpus_index
from rag_core.types import LoadReport, Question, Trace

from .html import md

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
    from rag_core.formats.questions import load_questions

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
    from rag_core.formats.questions import load_questions

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
    from rag_core.corpus.loaders import load_batch

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
    from rag_core.corpus.datasets import load_qrels_folder

    qset = load_qrels_folder(root, split)
    return CorpusIndex(qset.report, name=qset.name, questions=qset.questions), qset


def beir_index(path: str, split: str) -> tuple[CorpusIndex, Any, str]:
    """A BEIR or TREC folder as ``(CorpusIndex, QrelsSet, key)``; ``ValueError`` says why not."""
    root = Path(path.strip()).expanduser()
    if not path.strip():
        raise ValueError(
            "give the path of a BEIR folder (corpus.jsonl, queries.jsonl, qrels) "
            "or a TREC folder (corpus, topics, qrels)"
        )
    if not root.is_dir():
        raise ValueError(f"folder {str(root)!r} does not exist or is not a folder")
    stamp = _beir_stamp(root, split)
    index, qset = _beir_build(str(root.resolve()), split, stamp)
    return index, qset, f"beir:{root.resolve()}:{split}:{index.fingerprint}"


@st.cache_resource(max_entries=2, show_spinner=False)
def _beir_zip_build(digest: str, split: str, _data: bytes) -> tuple[CorpusIndex, Any]:
    import tempfile

    from rag_core.corpus.datasets import load_qrels_folder, safe_extract_zip

    skipped: list[str] = []
    with tempfile.TemporaryDirectory(prefix="rag-inspector-beir-") as tmp:
        try:
            folder = safe_extract_zip(_data, tmp, skipped=skipped)
            qset = load_qrels_folder(folder, split)  # everything is read into memory here
        except ValueError as exc:  # name the zip, never the server's temporary folder
            raise ValueError(_without_folder(str(exc), tmp)) from None
    name = "zip" if qset.name == Path(tmp).name else qset.name
    qset = replace(qset, name=name, skipped=tuple(skipped))
    return CorpusIndex(qset.report, name=qset.name, questions=qset.questions), qset


def _without_folder(message: str, folder: str) -> str:
    """``message`` with the temporary folder's path replaced by "the zip"."""
    for form in {str(Path(folder).resolve()), str(folder)}:
        message = message.replace(form + "/", "").replace(form, "the zip")
    return message


def beir_zip_index(data: bytes, split: str) -> tuple[CorpusIndex, Any, str]:
    """An uploaded BEIR or TREC zip (unpacked safely into a temporary folder, then removed)."""
    digest = hashlib.sha256(data).hexdigest()[:16]
    index, qset = _beir_zip_build(digest, split, data)
    return index, qset, f"beirzip:{digest}:{split}:{index.fingerprint}"


@st.cache_data(max_entries=16, show_spinner=False)
def parse_run(name: str, data: bytes) -> dict[str, Any]:
    """``rag_core.retrieval.runs.parse_run_bytes`` (cached by content); ``ValueError`` names the
    bad line."""
    from rag_core.retrieval.runs import parse_run_bytes

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


def trace_key(
    corpus_key: str, config: PipelineConfig, question: str, gold: Question | None
) -> tuple[str, ...]:
    """The LRU key; imported runs are part of ``corpus_key`` (see ``ui.sidebar``)."""
    return (
        corpus_key,
        config.to_json(sort_keys=True),
        question,
        gold.id if gold is not None else "",
    )


class _Progress:
    """Feeds ``pipeline.run``'s ``(message, fraction)`` callback into an ``st.status`` box.

    The box is created at the first call, so a run that loads nothing shows nothing.
    """

    def __init__(self, slot: Any, label: str) -> None:
        self.slot = slot
        self.label = label
        self.box: Any = None
        self.bar: Any = None

    def __call__(self, message: str, fraction: float) -> None:
        if self.slot is None:
            return
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
    stream: StreamView | None = None,
) -> TraceResult:
    """The Trace of one question (from the LRU, or run with visible progress; one run per key).

    With ``stream`` a fresh run shows the prompt-token count and the time
    estimate before the model is called and the answer token by token while
    it is generated (a cached Trace returns at once, as always).

    ``runs``: imported runs by tag for ``run:TAG`` retrievers (read at ``gold.id``).
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
            store, key, corpus, config, question, gold, progress_label, slot, runner, runs, stream
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
    stream: StreamView | None = None,
) -> TraceResult:
    from rag_core.pipeline import run

    progress = _Progress(slot if slot is not None else st.empty(), progress_label)
    t0 = time.perf_counter()
    try:
        extra = {"runs": runs} if runs else {}
        if stream is not None and runner is None and not runs:
            trace = _run_streamed(config, question, corpus, gold, progress, stream)
        else:
            trace = (runner or run)(config, question, corpus, gold=gold, progress=progress, **extra)
    except ValueError as exc:
        progress.done()
        return TraceResult(None, error=str(exc))
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
    lists = getattr(getattr(trace, "retrieval", None), "lists", ())  # a test's stand-in has none
    gen = getattr(trace, "generation", None)
    code = getattr(getattr(gen, "notice", None), "code", "")
    endpoint_down = code == "generation.endpoint_failed"
    return not endpoint_down and not any(
        lst.method == "qdrant" and lst.status == "unavailable" for lst in lists
    )


@dataclass(frozen=True)
class StreamView:
    """Where a streamed generation is shown: a container and the texts of its two captions."""

    slot: Any
    estimate: Callable[..., str]  # (prompt tokens, model id[, dtype=]) -> the estimate line
    label: str


_DONE = object()


def _run_streamed(
    config: PipelineConfig,
    question: str,
    corpus: CorpusIndex,
    gold: Question | None,
    progress: _Progress,
    view: StreamView,
) -> Trace:
    """``pipeline.run`` in a worker thread; its events are drawn here, on the script thread.

    The worker never touches Streamlit: progress, the prompt size and the
    answer's pieces travel through a queue (what transformers'
    ``TextIteratorStreamer`` does), and ``st.write_stream`` draws the pieces.
    """
    import queue

    from rag_core.pipeline import run

    events: queue.Queue[tuple[str, Any]] = queue.Queue()
    result: dict[str, Any] = {}

    def work() -> None:
        try:
            result["trace"] = run(
                config,
                question,
                corpus,
                gold=gold,
                progress=lambda m, f: events.put(("progress", (m, f))),
                listener=lambda kind, value: events.put((kind, value)),
            )
        except BaseException as exc:  # noqa: BLE001 - re-raised on the script thread
            result["error"] = exc
        finally:
            events.put(("done", _DONE))

    worker = threading.Thread(target=work, name="rag-trace", daemon=True)
    worker.start()
    box = view.slot.container()
    pending: list[tuple[str, Any]] = []

    def pieces() -> Any:
        while True:
            kind, value = pending.pop(0) if pending else events.get()
            if kind == "text":
                yield value
            elif kind in ("done", "prompt"):
                pending.append((kind, value))
                return
            elif kind == "progress":
                progress(*value)

    streamed = False
    while True:
        kind, value = pending.pop(0) if pending else events.get()
        if kind == "done":
            break
        if kind == "progress":
            progress(*value)
        elif kind == "prompt":
            extra = {"dtype": str(value["dtype"])} if value.get("dtype") else {}
            box.caption(view.estimate(int(value["tokens"]), str(value["model_id"]), **extra))
            box.caption(view.label)
            box.write_stream(pieces())
            streamed = True
        elif kind == "text":  # pieces before the prompt event cannot happen; keep them anyway
            pending.insert(0, (kind, value))
            box.write_stream(pieces())
    worker.join()
    if streamed:
        view.slot.empty()
    if "error" in result:
        raise result["error"]
    return result["trace"]


def get_chunking(corpus: CorpusIndex, chunker: Any, *, progress_label: str = "…") -> Any:
    """``corpus.chunking(chunker)`` with visible progress; None (and a page error) on failure."""
    progress = _Progress(st.empty(), progress_label)
    try:
        return corpus.chunking(chunker, progress)
    except ValueError as exc:
        st.error(md(str(exc)))
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
        from rag_core.models import fallback_prompt_tokenizer, get_generator

        tok = (
            fallback_prompt_tokenizer()
            if "fallback" in label or model == "none"
            else get_generator(model, dtype=dtype)  # the instance the run loaded
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
