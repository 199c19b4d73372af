"""The server's start-up warm-up (``ui.warm``): what it builds, what it says, when it runs."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from ui import warm


def test_warm_builds_the_stages_and_says_a_missing_generator_without_raising(monkeypatch):
    monkeypatch.setenv("RAG_APP_SET", "generation.model=/nowhere/model.gguf")
    monkeypatch.setenv("RAG_PREPARE_GALLERY", "0")
    said: list[str] = []
    line = warm.warm(said.append)
    assert said == [line] and line.startswith(warm.READY)
    assert "the sample corpus's stages" in line
    assert "generator /nowhere/model.gguf unavailable" in line


def test_warm_with_generation_off_loads_no_generator(monkeypatch):
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none")
    monkeypatch.setenv("RAG_PREPARE_GALLERY", "0")
    assert "generator" not in warm.warm(lambda _: None)


def test_warm_never_waits_for_a_one_time_conversion(monkeypatch):
    """The server must not wait minutes before it answers: an unconverted generator is left to
    the first question, whose page shows its stages while it converts."""
    from rag_core import models

    def no_load(*_a, **_k):
        raise AssertionError("the warm-up loaded a generator that needs converting")

    monkeypatch.delenv("RAG_APP_SET", raising=False)
    monkeypatch.setenv("RAG_PREPARE_GALLERY", "0")
    monkeypatch.setattr(models, "prepared", lambda name: False)
    monkeypatch.setattr(models, "get_generator", no_load)
    line = warm.warm(lambda _: None)
    assert f"generator {models.DEFAULT_GENERATOR} not converted yet" in line, line


@pytest.mark.slow
def test_warm_loads_the_start_generator_and_its_citation_vocabulary(monkeypatch):
    from rag_core import models
    from rag_core.answer import citations

    monkeypatch.delenv("RAG_APP_SET", raising=False)
    monkeypatch.setenv("RAG_PREPARE_GALLERY", "0")
    line = warm.warm(lambda _: None)
    assert f"generator {models.DEFAULT_GENERATOR} " in line, line
    assert models.is_loaded(models.DEFAULT_GENERATOR)
    assert models.get_generator(models.DEFAULT_GENERATOR) in citations._VOCABS


@pytest.mark.parametrize(("env", "warmed"), [("1", True), ("0", False)])
def test_the_start_up_hook_warms_before_it_serves_unless_turned_off(monkeypatch, env, warmed):
    done = threading.Event()

    def slow_warm_up() -> None:
        time.sleep(0.3)
        done.set()

    monkeypatch.setattr(warm, "_warm_quietly", slow_warm_up)
    monkeypatch.setenv(warm.ENV, env)
    seen: list[bool] = []

    async def serve_once() -> None:
        async with warm.lifespan(None):
            seen.append(done.is_set())  # what the first request would find

    asyncio.run(serve_once())
    assert seen == [warmed]


def test_a_stalled_warm_up_does_not_keep_the_server_shut(monkeypatch, capsys):
    release = threading.Event()
    monkeypatch.setattr(warm, "_warm_quietly", lambda: release.wait(10))
    monkeypatch.setattr(warm, "WAIT_S", 0.2)
    monkeypatch.setenv(warm.ENV, "1")
    served: list[bool] = []

    async def serve_once() -> None:
        async with warm.lifespan(None):
            served.append(True)

    t0 = time.perf_counter()
    asyncio.run(serve_once())
    release.set()
    assert served == [True] and time.perf_counter() - t0 < 5
    assert "warm-up still running after 0 s: serving now" in capsys.readouterr().err


def test_a_failing_warm_up_is_said_and_never_raised(monkeypatch, capsys):
    def broken(say):
        raise RuntimeError("disk gone")

    monkeypatch.setattr(warm, "warm", broken)
    warm._warm_quietly()
    assert "warm-up stopped: RuntimeError: disk gone" in capsys.readouterr().err
