"""Stages first, answer second: a page draws every model-free stage, then the answer streams.

``rag_core.pipeline.run`` runs in a worker thread and reports through its listener: the
``stages`` Trace (everything up to the context, as ``stop_after="context"`` returns it) as
soon as the prompt is built, then the answer's pieces. :func:`staged_trace` waits for that
Trace only and hands it to the page with a :class:`Pending` generation; the page draws its
stages from it and calls :func:`follow` in its answer pane, which streams the text there with a
**Stop** button and, when the run ends, reruns the page (the full Trace is in the Trace LRU
then, so the rerun draws it at once).

Cancelling. Every wait here wakes at least every :data:`TICK` seconds and writes an element
(a ticking time line), so a Streamlit rerun — a moved knob, the Stop button — interrupts the
script within a tick instead of after the model. The next run of the session cancels the
session's running generation unless it asks for the same Trace (then it follows it again);
the worker's model stops between two of its layers (``run(cancelled=)``, even inside the
prompt's long forward pass) and its listener raises ``Cancelled`` at any later event, so
nothing of the abandoned run is returned or cached (``rag_core.pipeline.Cancelled``), and the worker
releases the Trace's build lock whatever happens. The worker never touches Streamlit.
"""

from __future__ import annotations

import queue
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from rag_core import (
    models,
    pipeline,  # pipeline.run read at call time (a test swaps it)
)
from rag_core.answer.generation import estimate_seconds
from rag_core.config import PipelineConfig
from rag_core.config_checks import is_endpoint_model
from rag_core.index import CorpusIndex
from rag_core.pipeline import Cancelled
from rag_core.types import Notice, Question, Trace

from . import cache
from .html import md
from .i18n import error_text, notice_text, t

#: Seconds between two writes of a waiting script: the longest a rerun waits to interrupt it.
TICK = 0.25
#: After the ``stages`` Trace, how long to wait for the run's end before streaming (a replayed
#: answer ends at once: then the page is drawn once, complete).
GRACE = 0.3
#: A phase shows its ticking line only once it has lasted this long.
SHOW_AFTER = 0.6
#: Session keys: the session's running generation; the Traces it stopped (key → staged Trace).
K_PENDING = "_stream.pending"
K_STOPPED = "_stream.stopped"


@dataclass
class Pending:
    """One run's generation, going on in a worker after its ``stages`` Trace was drawn."""

    key: tuple[str, ...]
    staged: Trace
    events: queue.Queue[tuple[str, Any]]
    cancel: threading.Event
    result: dict[str, Any]
    backlog: list[tuple[str, Any]] = field(default_factory=list)  # read before ``events``
    text: str = ""
    prompt: dict[str, Any] | None = None
    started: float = field(default_factory=time.perf_counter)
    finished: bool = False
    #: The generator is being converted (once per machine): ``staged`` holds the stages up to
    #: the gate only, until the prompt is built with its tokenizer (then the page reruns).
    converting: bool = False
    #: The latest ``progress`` message of the run (a core notice) while it converts.
    progress: Any = None
    #: ``converting`` is a one-time conversion (else a load of the converted model).
    once: bool = False


#: Runs of sessions' questions going on now, and when the last one ended (the gallery's
#: background preparation waits for an idle server: ``ui.gallery``).
_ACTIVE = {"runs": 0, "since": time.monotonic()}
_ACTIVE_LOCK = threading.Lock()


def _working(delta: int) -> None:
    with _ACTIVE_LOCK:
        _ACTIVE["runs"] += delta
        _ACTIVE["since"] = time.monotonic()


def busy() -> bool:
    """Is a session running a question now?"""
    return _ACTIVE["runs"] > 0


def idle_seconds() -> float:
    """Seconds since the last session's run ended (0 while one runs)."""
    with _ACTIVE_LOCK:
        return 0.0 if _ACTIVE["runs"] else time.monotonic() - _ACTIVE["since"]


def _pendings() -> dict[tuple[str, ...], Pending]:
    return st.session_state.setdefault(K_PENDING, {})


def _stopped() -> dict[tuple[str, ...], Trace]:
    return st.session_state.setdefault(K_STOPPED, {})


def cancel_others(keep: set[tuple[str, ...]]) -> None:
    """Cancel this session's running generations other than those of ``keep`` (a page run
    calls it once with the keys it shows: a moved knob abandons the old answer)."""
    pendings = _pendings()
    for key in [k for k in pendings if k not in keep]:
        pendings.pop(key).cancel.set()


def stop(key: tuple[str, ...]) -> None:
    """The Stop button's callback: cancel the generation of ``key`` and keep its stages."""
    pending = _pendings().pop(key, None)
    if pending is not None:
        pending.cancel.set()
        _stopped()[key] = pending.staged


def resume(key: tuple[str, ...]) -> None:
    """The "generate" button's callback after a Stop: the next run generates again."""
    _stopped().pop(key, None)


def staged_trace(
    corpus: CorpusIndex,
    corpus_key: str,
    config: PipelineConfig,
    question: str,
    gold: Question | None,
    lang: str,
    *,
    runs: Any = None,
) -> cache.TraceResult:
    """The Trace to draw now: cached, stopped, or the ``stages`` Trace of a run whose answer is
    still being made (``TraceResult.pending``; hand it to :func:`follow`)."""
    # One slot on every path, holding whatever this call draws while it waits: the page's
    # later elements keep their places from run to run, so a rerun that follows a running
    # answer never leaves the previous run's panes on screen beside its own while it streams.
    holder = st.empty()
    key = cache.trace_key(corpus_key, config, question, gold)
    store = cache.trace_store()
    hit = store.get(key)
    if hit is not None:
        return cache.TraceResult(hit, cached=True)
    if key in _stopped():
        return cache.TraceResult(_stopped()[key], stopped=True, key=key)
    running = _pendings().get(key)
    if running is not None and not running.cancel.is_set():
        return cache.TraceResult(
            running.staged, pending=running, key=key
        )  # the same answer, followed again
    with holder.container():
        res = _acquire_and_start(store, key, corpus, config, question, gold, lang, runs)
    holder.empty()
    return res


def _acquire_and_start(
    store: cache.TraceLRU,
    key: tuple[str, ...],
    corpus: CorpusIndex,
    config: PipelineConfig,
    question: str,
    gold: Question | None,
    lang: str,
    runs: Any,
) -> cache.TraceResult:
    """Wait for the Trace's build lock (another session may be building it), then start."""
    lock = store.building(key)
    line = st.empty()
    waited = time.perf_counter()
    while not lock.acquire(timeout=TICK):  # another session (or an abandoned run) builds it
        _tick(line, t("stream.waiting", lang, s=time.perf_counter() - waited), waited)
    # no Streamlit call (a point where a rerun interrupts) until the worker owns the lock
    hit = store.get(key)
    if hit is not None:
        lock.release()
        line.empty()
        return cache.TraceResult(hit, cached=True)
    return _start(store, key, lock, corpus, config, question, gold, lang, runs, line)


def _start(
    store: cache.TraceLRU,
    key: tuple[str, ...],
    lock: threading.Lock,
    corpus: CorpusIndex,
    config: PipelineConfig,
    question: str,
    gold: Question | None,
    lang: str,
    runs: Any,
    line: Any,
) -> cache.TraceResult:
    """Start the worker (it owns ``lock`` from here) and wait for its ``stages`` Trace or end
    (``line``: the waiting line, cleared once the worker runs)."""
    events: queue.Queue[tuple[str, Any]] = queue.Queue()
    cancel = threading.Event()
    result: dict[str, Any] = {}

    def listen(kind: str, value: Any) -> None:
        if cancel.is_set():
            raise Cancelled
        events.put((kind, value))

    def work() -> None:
        _working(+1)
        try:
            trace = pipeline.run(
                config,
                question,
                corpus,
                gold=gold,
                runs=runs or None,
                progress=lambda m, f: events.put(("progress", (m, f))),
                listener=listen,
                cancelled=cancel.is_set,
            )
            if cache.cacheable(trace):
                store.put(key, trace)
            result["trace"] = trace
        except Cancelled:
            result["cancelled"] = True
        except ValueError as exc:  # a bad question or setting: said on the page
            result["error"] = error_text(exc, lang)
        except Exception as exc:  # noqa: BLE001 - a bug in a stage must not take the page down
            result["error"] = f"{type(exc).__name__}: {exc}"
            result["crash"] = traceback.format_exc()
        finally:
            _working(-1)
            lock.release()
            events.put(("done", None))

    threading.Thread(target=work, name="rag-trace", daemon=True).start()
    t0 = time.perf_counter()
    staged, converting, once = _first_stages(
        events, cancel, line, config, question, corpus, gold, runs, lang
    )
    backlog = _read_for(events, GRACE) if staged is not None else []
    if staged is None or (backlog and backlog[-1][0] == "done"):
        return _ended(result, time.perf_counter() - t0)  # no model call, a replay, an error
    pending = Pending(
        key,
        staged,  # type: ignore[arg-type]  # a Trace: CONVERTING was replaced above
        events,
        cancel,
        result,
        backlog=backlog,
        started=t0,
        converting=converting,
        once=once,
    )
    _pendings()[key] = pending
    return cache.TraceResult(pending.staged, pending=pending, key=key)


def _first_stages(
    events: queue.Queue[tuple[str, Any]],
    cancel: threading.Event,
    line: Any,
    config: PipelineConfig,
    question: str,
    corpus: CorpusIndex,
    gold: Question | None,
    runs: Any,
    lang: str,
) -> tuple[Trace | str | None, bool, bool]:
    """The worker's ``stages`` Trace (:func:`_wait_for_stages`), or, while it converts or
    loads the generator, the model-free stages run here; whether it converts or loads, and
    whether it converts. A rerun interrupting the wait cancels the worker."""
    try:
        line.empty()
        staged = _wait_for_stages(events, lang, config.generation.dtype)
        once = staged == CONVERTING
        converting = staged in (CONVERTING, LOADING)
        if converting:  # the model-free stages now, while the generator is converted
            staged = pipeline.run(
                config, question, corpus, gold=gold, runs=runs or None, stop_after="gate"
            )
    except BaseException:  # the script was interrupted (a rerun): abandon the run
        cancel.set()
        raise
    return staged, converting, once


#: What :func:`_wait_for_stages` returns when the run first converts the generator.
CONVERTING = "converting"
#: … and when it loads a generator not in memory yet (seconds: the same early stages).
LOADING = "loading"


def _loaded(model: Any, dtype: str) -> bool:
    """Is this generator in memory already (an endpoint or a name that loads nothing: yes)?"""
    name = str(model or "")
    if name == models.NO_GENERATOR or is_endpoint_model(name):
        return True
    return models.is_loaded(name, dtype)


def _wait_for_stages(
    events: queue.Queue[tuple[str, Any]], lang: str, config_dtype: str = "auto"
) -> Trace | str | None:
    """Draw progress until the ``stages`` Trace (returned), the run's end (None) or the news
    that the generator is converted or loaded first (:data:`CONVERTING`: seconds to a minute
    or more, so the page
    draws the stages that need no model meanwhile)."""
    progress = cache.Progress(st.empty(), t("ins.running", lang), lang)
    line = st.empty()
    phase: tuple[str, float] | None = None
    try:
        while True:
            try:
                kind, value = events.get(timeout=TICK)
            except queue.Empty:
                if phase is not None:
                    _tick(line, t(phase[0], lang, s=time.perf_counter() - phase[1]), phase[1])
                continue
            if kind == "done":
                return None
            if kind == "stages":
                return value
            if kind == "progress":
                progress(*value)
            elif kind == "preparing":
                if value.get("once"):
                    return CONVERTING  # a minute or more: the stages up to the gate first
                if not _loaded(value.get("model"), config_dtype):
                    return LOADING  # seconds: the same
                phase = (
                    "stream.converting" if value.get("once") else "stream.loading",
                    time.perf_counter(),
                )
    finally:
        progress.done()
        line.empty()


def _read_for(events: queue.Queue[tuple[str, Any]], seconds: float) -> list[tuple[str, Any]]:
    """The events of the next ``seconds``, in order (up to and including ``done``)."""
    deadline = time.perf_counter() + seconds
    out: list[tuple[str, Any]] = []
    while (left := deadline - time.perf_counter()) > 0:
        try:
            out.append(events.get(timeout=left))
        except queue.Empty:
            break
        if out[-1][0] == "done":
            break
    return out


def _ended(result: dict[str, Any], seconds: float) -> cache.TraceResult:
    if "trace" in result:
        return cache.TraceResult(result["trace"], seconds=seconds)
    return cache.TraceResult(None, error=result.get("error", ""), crash=result.get("crash", ""))


def _tick(slot: Any, text: str, since: float) -> None:
    """One write of a waiting script (its chance to be interrupted); the text only once the
    wait has lasted :data:`SHOW_AFTER` seconds."""
    if time.perf_counter() - since >= SHOW_AFTER:
        slot.caption(md(text))
    else:
        slot.empty()


#: Seconds between two calls of ``follow``'s ``on_update`` while text streams in.
UPDATE_EVERY = 0.5


def follow(
    pending: Pending,
    lang: str,
    *,
    key: str,
    show_text: bool = True,
    on_update: Callable[[Pending], None] | None = None,
    compact: bool = False,
) -> Trace | None:
    """Stream ``pending``'s answer here with a Stop button (widget ``key``); at the end, rerun
    the page when the full Trace was kept (it is drawn from the cache), else return it. None:
    the run was cancelled or failed (said here).

    ``show_text=False``: only the time line and Stop (a lecture step before the answer's: no
    spoiler, or the text is drawn elsewhere). ``on_update(pending)``: told when the prompt's
    size is known and, at most every :data:`UPDATE_EVERY` seconds, when text arrived (a page
    that draws the answer in a pane of its own). ``compact``: the time line is the seconds so
    far only, one short line beside Stop (a toolbar row; the estimate is said elsewhere)."""
    line = st.empty()
    st.button(
        t("stream.stop", lang),
        key=key,
        on_click=stop,
        args=(pending.key,),
        icon=":material/stop_circle:",
    )
    box = st.empty()
    if pending.text and show_text:
        box.markdown(md(pending.text) + " ▌")
    told, stale = 0.0, on_update is not None
    while True:
        try:
            kind, value = (
                pending.backlog.pop(0) if pending.backlog else pending.events.get(timeout=TICK)
            )
        except queue.Empty:
            _prompt_line(line, pending, lang, compact)
            kind, value = "", None
        if kind == "done":
            break
        if kind == "stages" and pending.converting:  # converted: draw the prompt's stages
            pending.staged, pending.converting = value, False
            st.rerun()
        if kind == "progress":
            pending.progress = value[0]
        if kind == "prompt":
            pending.prompt = {**value, "since": time.perf_counter()}
            _prompt_line(line, pending, lang, compact)
            told, stale = 0.0, on_update is not None  # say the estimate at once
        elif kind == "text":
            pending.text += value
            stale = on_update is not None
            if show_text:
                box.markdown(md(pending.text) + " ▌")
        if on_update is not None and stale and time.perf_counter() - told >= UPDATE_EVERY:
            on_update(pending)
            told, stale = time.perf_counter(), False
    pending.finished = True
    _pendings().pop(pending.key, None)
    trace = pending.result.get("trace")
    if trace is not None and cache.trace_store().get(pending.key) is trace:
        st.rerun()  # the full Trace is kept: the whole page is drawn from it
    line.empty()
    box.empty()
    if trace is None:
        if pending.result.get("error"):
            st.error(md(t("ins.no_trace", lang, error=pending.result["error"])))
        return None
    return trace


def _prompt_line(slot: Any, pending: Pending, lang: str, compact: bool = False) -> None:
    """The line above a streaming answer (:func:`pending_text`); ``compact``: the seconds so
    far only, as wide as its text."""
    if compact:
        since = (pending.prompt or {}).get("since", pending.started)
        slot.caption(md(t("stream.elapsed", lang, s=time.perf_counter() - since)), width="content")
        return
    slot.caption(md(pending_text(pending, lang)))


def pending_text(pending: Pending, lang: str, *, elapsed: bool = True) -> str:
    """What an answer being made has come to: the prompt's size and time estimate, and the
    seconds so far (while the model reads the prompt, before its first word); before the
    prompt is sent, the seconds since the run started. ``elapsed=False``: the estimate alone
    (a line that is not redrawn every tick)."""
    if pending.converting:
        key = "stream.converting" if pending.once else "stream.loading"
        said = t(key, lang, s=time.perf_counter() - pending.started)
        if isinstance(pending.progress, Notice):
            said += " · " + notice_text(pending.progress, lang)
        return said
    if pending.prompt is None:
        return t("stream.starting", lang, s=time.perf_counter() - pending.started)
    p = pending.prompt
    extra = {"dtype": str(p["dtype"])} if p.get("dtype") else {}
    head = estimate_text(int(p["tokens"]), str(p["model_id"]), lang, **extra)
    if not elapsed:
        return head
    so_far = t("stream.elapsed", lang, s=time.perf_counter() - p["since"])
    return f"{head} · {so_far}"


def stopped_pane(key: tuple[str, ...], lang: str, *, widget: str, compact: bool = False) -> None:
    """The answer pane of a stopped generation: what happened, and a button to generate
    (``compact``: one caption, for a toolbar row)."""
    if compact:
        st.caption(t("stream.stopped", lang))
    else:
        st.info(t("stream.stopped", lang))
    st.button(
        t("stream.resume", lang),
        key=widget,
        on_click=resume,
        args=(key,),
        icon=":material/play_arrow:",
    )


def estimate_text(prompt_tokens: int, model_id: str, lang: str, dtype: str | None = None) -> str:
    """ "≈ 10 s for 931 prompt tokens", calibrated on this machine's latest generations of the
    model (in ``dtype`` when given)."""
    est = estimate_seconds(prompt_tokens, model_id, dtype=dtype)
    if est is None:
        return t("ins.estimate_none", lang, n=prompt_tokens)
    return t("ins.estimate", lang, seconds=f"{est[0]:.0f}", n=prompt_tokens, runs=est[1])
