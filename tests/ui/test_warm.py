"""The server's start-up warm-up (``ui.warm``): what it builds, what it says, when it runs."""

from __future__ import annotations

import asyncio
import threading

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


@pytest.mark.parametrize(("env", "started"), [("1", True), ("0", False)])
def test_the_start_up_hook_starts_the_warm_up_unless_turned_off(monkeypatch, env, started):
    called = threading.Event()
    monkeypatch.setattr(warm, "_warm_quietly", called.set)
    monkeypatch.setenv(warm.ENV, env)

    async def serve_once() -> None:
        async with warm.lifespan(None):
            pass

    asyncio.run(serve_once())
    assert called.wait(timeout=10 if started else 0.5) is started


def test_a_failing_warm_up_is_said_and_never_raised(monkeypatch, capsys):
    def broken(say):
        raise RuntimeError("disk gone")

    monkeypatch.setattr(warm, "warm", broken)
    warm._warm_quietly()
    assert "warm-up stopped: RuntimeError: disk gone" in capsys.readouterr().err
