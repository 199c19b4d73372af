"""The lecture gallery's readiness, and its preparation in the background when the server idles.

A scenario side (A or B, ``rag_core.scenarios.scenario_runs``) opens in seconds when its answer
is in the generation cache: the pipeline runs every stage and replays the answer. One whose
answer is not there makes the page wait for the model. :class:`Preparer` is one thread per
server process (:func:`start`): it first reads, for every side, whether its answer is stored
(``rag_core.answer.generation.is_stored`` on its prompt; no model call) and the estimated
generation time of the others, so that Scenarios and Lecture mark an unprepared side with its
estimate at once (:func:`status`); then, whenever no session has been running a question for
:data:`IDLE_S` seconds, it runs one unprepared side through the whole pipeline at the lowest
CPU priority, keeps its Trace in the app's Trace cache, and marks it prepared. A session that
starts a run meanwhile cancels it within one layer of the model (``run(cancelled=)``); it is
retried at the next idle moment.

Started by the server's warm-up (``ui.warm``) or else by ``app.py``'s first run, unless
``RAG_PREPARE_GALLERY=0`` (tests, benches that time a cold start).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rag_core import models
from rag_core import pipeline as pl
from rag_core.answer.generation import estimate_seconds, generator_dtype, is_stored
from rag_core.config import PipelineConfig
from rag_core.config_checks import is_endpoint_model
from rag_core.index import CorpusIndex
from rag_core.scenarios import Scenario, ScenarioRun, scenario_runs
from rag_core.types import Question

from . import cache, stream
from .i18n import t

#: ``RAG_PREPARE_GALLERY=0`` turns the background preparation off.
ENV = "RAG_PREPARE_GALLERY"
#: Seconds without a session's run before the preparer runs a side (and after the start).
IDLE_S = 20.0
#: The corpus key of the bundled sample, as ``ui.sidebar`` names it.
SAMPLE = "sample"


@dataclass(frozen=True)
class Readiness:
    """One side's state: ``ready`` (its answer is stored, or there is none to make), else the
    estimated seconds of its generation (None: no estimate yet, or the model is not converted);
    ``running``: the preparer is making it now."""

    ready: bool
    seconds: float | None = None
    running: bool = False


def _wanted(config: PipelineConfig) -> bool:
    """Does this side make a local model's answer (something a replay can save)?"""
    name = config.generation.model
    return name != models.NO_GENERATOR and not is_endpoint_model(name)


def readiness(
    corpus: CorpusIndex, config: PipelineConfig, question: str, gold: Question | None
) -> Readiness:
    """Whether the answer of ``question`` under ``config`` is stored (read off its prompt, no
    model call), and the estimated generation time when it is not."""
    if not _wanted(config):
        return Readiness(True)
    name = config.generation.model
    if not models.prepared(name):
        return Readiness(False)
    staged = pl.run(config, question, corpus, gold=gold, stop_after="context")
    if staged.gate.refused or staged.context.status != "ok" or not staged.context.input_ids:
        return Readiness(True)
    generator = models.get_generator(name, dtype=config.generation.dtype)
    if is_stored(staged.context, config.generation, generator):
        return Readiness(True)
    est = estimate_seconds(
        len(staged.context.input_ids), generator.model_id, dtype=generator_dtype(generator)
    )
    return Readiness(False, est[0] if est is not None else None)


class Preparer:
    """The gallery's background preparation (see the module docstring)."""

    def __init__(self, corpus: CorpusIndex, base: PipelineConfig) -> None:
        self.corpus = corpus
        self.key = f"{SAMPLE}:{corpus.fingerprint}"
        self.runs = scenario_runs(base)
        self.questions = {q.id: q for q in corpus.questions}
        self.states: dict[tuple[str, str], Readiness] = {}
        self.started = time.monotonic()
        self.finished: float | None = None
        self.lock = threading.Lock()

    def _ask(self, r: ScenarioRun) -> tuple[str, Question | None]:
        q = self.questions.get(r.scenario.question_id or "")
        return r.scenario.question_text(q), q

    def _set(self, r: ScenarioRun, state: Readiness) -> None:
        with self.lock:
            self.states[(r.scenario.id, r.side)] = state

    def survey(self) -> None:
        """Every side's readiness (a stored Trace counts as prepared)."""
        for r in self.runs:
            text, q = self._ask(r)
            if cache.trace_store().get(cache.trace_key(self.key, r.config, text, q)) is not None:
                self._set(r, Readiness(True))
                continue
            try:
                self._set(r, readiness(self.corpus, r.config, text, q))
            except Exception:  # noqa: BLE001 - a side that cannot run is not prepared
                self._set(r, Readiness(False))

    def prepare_one(self, r: ScenarioRun) -> bool:
        """Run ``r`` once, cancelled as soon as a session runs a question; True when done."""
        text, q = self._ask(r)
        key = cache.trace_key(self.key, r.config, text, q)
        old = self.states.get((r.scenario.id, r.side), Readiness(False))
        self._set(r, Readiness(False, old.seconds, running=True))
        try:
            trace = pl.run(r.config, text, self.corpus, gold=q, cancelled=stream.busy)
        except pl.Cancelled:
            self._set(r, old)
            return False
        except Exception:  # noqa: BLE001 - a side that fails stays marked; the others go on
            self._set(r, old)
            return True
        if cache.cacheable(trace):
            cache.trace_store().put(key, trace)
        self._set(r, Readiness(True))
        return True

    def run(self) -> None:
        """The thread's body: survey, then prepare each unready side when the server idles
        (each step is one ``gallery:`` line in the server's log)."""
        _lowest_priority()
        _wait_idle()
        self.survey()
        todo = [r for r in self.runs if not self.states[(r.scenario.id, r.side)].ready]
        _say(f"{len(self.runs) - len(todo)} of {len(self.runs)} sides prepared already")
        while todo:
            _wait_idle()
            t0 = time.monotonic()
            if self.prepare_one(todo[0]):
                r = todo.pop(0)
                _say(f"{r.scenario.id} {r.side} in {time.monotonic() - t0:.1f} s")
            else:
                _say(f"{todo[0].scenario.id} {todo[0].side} gave way to a session's run")
        self.finished = time.monotonic()
        _say(f"every side prepared in {self.finished - self.started:.1f} s")


def _say(line: str) -> None:
    """One line of the preparer's progress in the server's log (stderr)."""
    print(f"gallery: {line}", file=sys.stderr, flush=True)


def _lowest_priority() -> None:
    """Nice this thread to 19 (Linux: a thread is a task of its own); elsewhere nothing."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)


def _wait_idle() -> None:
    """Return once no session has run a question for :data:`IDLE_S` seconds."""
    while (idle := stream.idle_seconds()) < IDLE_S:
        time.sleep(max(1.0, IDLE_S - idle))


_PREPARER: dict[str, Any] = {}
_START_LOCK = threading.Lock()


def start(corpus: Callable[[], CorpusIndex], base: PipelineConfig) -> Preparer | None:
    """Start the process's preparer once over the corpus ``corpus()`` loads (the bundled
    sample); None when ``RAG_PREPARE_GALLERY=0``."""
    if os.environ.get(ENV, "1") == "0":
        return None
    with _START_LOCK:
        if "preparer" not in _PREPARER:
            prep = Preparer(corpus(), base)
            threading.Thread(target=prep.run, name="rag-gallery", daemon=True).start()
            _PREPARER["preparer"] = prep
        return _PREPARER["preparer"]


def status(scenario_id: str, side: str) -> Readiness | None:
    """The preparer's word on one side (None: no preparer, or not surveyed yet)."""
    prep = _PREPARER.get("preparer")
    if prep is None:
        return None
    with prep.lock:
        return prep.states.get((scenario_id, side.upper()))


def readiness_text(
    s: Scenario, lang: str, *, sides: tuple[str, ...] = ("A", "B")
) -> tuple[str, str] | None:
    """``(kind, text)`` of the preparation of scenario ``s``'s ``sides``: ``ready`` (every
    answer stored: it opens in seconds), ``running`` (being prepared in the background now) or
    ``unready`` (the sides whose answers are made when they first open, with their estimated
    seconds); None while unknown (no preparer, or not surveyed yet)."""
    states = []
    for side in sides if s.compare else ("A",):
        state = status(s.id, side)
        if state is None:
            return None
        states.append((side, state))
    return readiness_words(states, lang)


def readiness_words(states: list[tuple[str, Readiness]], lang: str) -> tuple[str, str]:
    """:func:`readiness_text` of known states ``[(side, Readiness)]``."""
    waiting = [(side, r) for side, r in states if not r.ready]
    if not waiting:
        return "ready", t("gallery.ready", lang)
    parts = [
        t("gallery.side_est", lang, side=side, seconds=f"{r.seconds:.0f}")
        if r.seconds is not None
        else t("gallery.side_no_est", lang, side=side)
        for side, r in waiting
    ]
    kind = "running" if any(r.running for _side, r in waiting) else "unready"
    return kind, t(f"gallery.{kind}", lang, sides=", ".join(parts))
