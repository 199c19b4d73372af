"""A real OpenAI-compatible server: ``transformers serve`` over the converted bundled Qwen folder.

The test starts the server itself on 127.0.0.1 (a free port, offline, CPU, float32) and
compares the endpoint path with the in-process generator on three sample questions: the
same greedy answer text, the same prompt ids, ``usage.prompt_tokens`` equal to our count,
and the answer's pieces arriving before the request ends. ``transformers serve`` takes no
token ids (HTTP 400, "prompt must be a string"), so the endpoint sends the same prompt as
text (``sent_as = text``) and the server's own count checks that it reads the same ids.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

QUESTIONS = ("en-eval-01", "en-emb-01", "en-ret-01")
MAX_NEW = 40


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def qwen_folder() -> Path:
    from rag_core.models import gguf

    try:
        folder, _ = gguf.prepare(gguf.qwen_source(), None)
    except Exception as exc:  # noqa: BLE001 - the bundled parts are missing here
        pytest.skip(f"bundled Qwen unavailable: {exc}")
    return Path(folder)


@pytest.fixture(scope="module")
def served(qwen_folder, tmp_path_factory):
    """``transformers serve FOLDER`` on 127.0.0.1; yields its base URL."""
    from transformers.utils.import_utils import is_serve_available

    if not is_serve_available():
        pytest.skip("transformers serve needs fastapi, uvicorn, pydantic and openai")
    port = _free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
    }
    cli = Path(sys.executable).parent / "transformers"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                str(cli),
                "serve",
                str(qwen_folder),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--device",
                "cpu",
                "--dtype",
                "float32",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    url = f"http://127.0.0.1:{port}/v1"
    try:
        from rag_core.models.endpoint import EndpointError, list_models

        deadline = time.monotonic() + 240
        while True:
            try:
                if list_models(url, timeout=2.0):
                    break
            except EndpointError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"transformers serve did not start:\n{log.read_text()[-3000:]}")
            time.sleep(1.0)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_the_endpoint_answers_as_the_in_process_model_with_the_same_prompt_count(
    served, qwen_folder, tmp_path, monkeypatch
):
    from rag_core.config import PipelineConfig
    from rag_core.index import load_corpus_index
    from rag_core.pipeline import run

    corpus = load_corpus_index()
    common = {
        "generation.citations": "free",
        "generation.dtype": "float32",
        "generation.max_new_tokens": str(MAX_NEW),
    }
    local = PipelineConfig().with_overrides(common)
    remote = local.with_overrides(
        {
            "generation.model": f"openai:{qwen_folder}",
            "generation.endpoint": served,
            "generation.tokenizer": "qwen2.5-coder-0.5b",
            "generation.first_token_timeout_s": "300",
            "generation.total_timeout_s": "600",
        }
    )
    for qid in QUESTIONS:
        q = next(x for x in corpus.questions if x.id == qid)
        here = run(local, q.question, corpus, gold=q)
        pieces: list[tuple[str, float]] = []

        def listener(kind, value, pieces=pieces):
            if kind == "text":
                pieces.append((value, time.perf_counter()))

        there = run(remote, q.question, corpus, gold=q, listener=listener)
        end = time.perf_counter()
        g = there.generation
        assert g.status == "ok", g.message
        assert there.context.input_ids == here.context.input_ids, qid
        assert g.answer == here.generation.answer, (qid, g.answer, here.generation.answer)
        assert g.params["tokenizer_source"] == "local" and g.params["sent_as"] == "text"
        assert g.params["prompt_tokens_server"] == len(here.context.input_ids), qid
        assert g.params["prompt_tokens_match"] is True
        if not g.cached:
            assert len(pieces) >= 2, qid
            assert "".join(p for p, _ in pieces).strip() == g.answer
            assert pieces[0][1] < end - 0.05  # the first piece came before the request ended
