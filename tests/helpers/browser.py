"""Serving the app and driving headless Debian chromium (the fixtures are in
``tests/browser/conftest.py``)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from ui.lecture.slides import CHROMIUM, CHROMIUM_ARGS

from .paths import ROOT

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "CHROMIUM_MISSING",
    "GRADE_SHOWN_JS",
    "IDLE",
    "MARKS",
    "SERVERS",
    "WAIT_MS",
    "full_page_shot",
    "serve",
    "wait_idle",
]
IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"
WAIT_MS = 240_000

#: Whether the grade radio shows the grade whose option starts with ``arg``.
GRADE_SHOWN_JS = """want => [...document.querySelectorAll('[data-testid=stRadio]')]
  .filter(r => r.innerText.startsWith('Grade'))
  .some(r => [...r.querySelectorAll('input[type=radio]')]
    .some(i => i.checked && i.closest('label').innerText.trim().startsWith(want)))"""

# `make test` sets RAG_REQUIRE_BROWSER=1 (its setup installs chromium): a missing
# browser is then a failure, not a silent skip.
CHROMIUM_MISSING = not Path(CHROMIUM).exists()
if CHROMIUM_MISSING and os.environ.get("RAG_REQUIRE_BROWSER") == "1":
    raise RuntimeError(f"{CHROMIUM} is missing: run `make browser` (apt-get install chromium)")
#: The marks of every browser test module (``pytestmark = MARKS``).
MARKS = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM_MISSING, reason="Debian chromium is not installed (make browser)"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: The running servers by base URL (bench/sessions.py reads their memory).
SERVERS: dict[str, subprocess.Popen] = {}


@contextmanager
def serve(log: Path, app_set: str | None = "generation.model=none", **env: str) -> Iterator[str]:
    """``streamlit run serve.py`` (as ``make run``) on a free port; yields the base URL.

    ``app_set``: the RAG_APP_SET overrides (default: generation off), None for
    the app's defaults; ``env``: more environment variables for the server.
    """
    port = _free_port()
    env = dict(os.environ, HF_HUB_OFFLINE="1", STREAMLIT_BROWSER_GATHER_USAGE_STATS="false", **env)
    env.pop("RAG_APP_SET", None)
    if app_set is not None:
        env["RAG_APP_SET"] = app_set
    with log.open("w") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                "serve.py",  # what `make run` serves: app.py with its start-up warm-up
                "--server.headless",
                "true",
                "--server.port",
                str(port),
                "--server.address",
                "127.0.0.1",
                "--server.fileWatcherType",
                "none",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"streamlit did not start:\n{log.read_text()}") from None
                time.sleep(0.5)
        SERVERS[f"http://127.0.0.1:{port}"] = proc
        yield f"http://127.0.0.1:{port}"
    finally:
        SERVERS.pop(f"http://127.0.0.1:{port}", None)
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


def wait_idle(page) -> None:
    """Wait until the script finished (twice: a run can trigger the next) and no skeleton is
    left."""
    for _ in range(2):
        page.wait_for_selector(IDLE, timeout=WAIT_MS)
        page.wait_for_timeout(700)
    page.wait_for_function("!document.querySelector('[data-testid=stSkeleton]')", timeout=WAIT_MS)
    page.wait_for_selector(IDLE, timeout=WAIT_MS)


def full_page_shot(page, tmp_path: Path, name: str) -> None:
    """Screenshot the whole page to ``tmp_path/name`` (copied to $RAG_SCREENSHOT_DIR when set)."""
    shot = tmp_path / name
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 20_000
    if os.environ.get("RAG_SCREENSHOT_DIR"):
        shutil.copy(shot, Path(os.environ["RAG_SCREENSHOT_DIR"]) / name)
