"""The app in a real browser: headless Debian chromium driven by Playwright.

What ``AppTest`` cannot see: the HTML the browser builds. One test uploads
documents full of script payloads and renders Inspect and Chunks, asserting
nothing ran; one smoke test screenshots Inspect and checks the stage
headings are on screen. Both serve the real ``app.py`` with
``streamlit run`` on a free port (generation off, to stay fast).
"""

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

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"
WAIT_MS = 240_000

# `make test` sets RAG_REQUIRE_BROWSER=1 (its setup installs chromium): a missing
# browser is then a failure, not a silent skip.
_MISSING = not Path(CHROMIUM).exists()
if _MISSING and os.environ.get("RAG_REQUIRE_BROWSER") == "1":
    raise RuntimeError(f"{CHROMIUM} is missing: run `make browser` (apt-get install chromium)")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(_MISSING, reason="Debian chromium is not installed (make browser)"),
]

PAYLOAD_LINES = (
    "<script>window.__xss = 1; alert('script')</script>",
    '<img src=x onerror="window.__xss = 1; alert(\'img\')">',
    '<svg onload="window.__xss = 1; alert(\'svg\')"><circle r="4"/></svg>',
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def streamlit_server(log: Path, app_set: str | None) -> Iterator[str]:
    """``streamlit run app.py`` on a free port (``RAG_APP_SET=app_set`` when given); yields its URL."""
    port = _free_port()
    env = dict(os.environ, HF_HUB_OFFLINE="1", STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    if app_set is not None:
        env["RAG_APP_SET"] = app_set
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
             "--server.port", str(port), "--server.address", "127.0.0.1", "--server.fileWatcherType", "none"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
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
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    with streamlit_server(tmp_path_factory.mktemp("server") / "streamlit.log", "generation.model=none") as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _idle(page) -> None:
    """Wait until the script finished (twice: a run can trigger the next) and no skeleton is left."""
    for _ in range(2):
        page.wait_for_selector(IDLE, timeout=WAIT_MS)
        page.wait_for_timeout(700)
    page.wait_for_function("!document.querySelector('[data-testid=stSkeleton]')", timeout=WAIT_MS)
    page.wait_for_selector(IDLE, timeout=WAIT_MS)


def test_script_payloads_in_documents_and_question_never_run(server, browser, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    body = "\n\n".join(f"Zebrafish tank note {i}: {line} The tank holds 42 litres." for i, line in enumerate(PAYLOAD_LINES))
    (docs / "payload-notes.md").write_text(f"# Tank <script>window.__xss=1</script> notes\n\n{body}\n", encoding="utf-8")
    (docs / "payload-plain.txt").write_text(body + "\n", encoding="utf-8")
    (docs / "payload-rows.jsonl").write_text(
        '{"id": "row-1", "title": "<img src=x onerror=window.__xss=1>", "text": "zebrafish tank ' +
        PAYLOAD_LINES[2].replace('"', '\\"') + '"}\n', encoding="utf-8")

    page = browser.new_page(viewport={"width": 1400, "height": 1600})
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    question = ("zebrafish tank <script>window.__xss=1</script> <img src=x onerror=window.__xss=1> "
                "[click me](javascript:window.__xss=1)")
    from urllib.parse import urlencode

    # a bad config value carrying a payload comes back in a warning: shown as text too
    bad = "<img src=x onerror=window.__xss=1>"
    page.goto(f"{server}/inspect?" + urlencode({"corpus": "upload", "q": question, "lang": "en",
                                                "retrieval.analyzer": bad}))
    _idle(page)
    page.locator("[data-testid=stSidebar] input[type=file]").set_input_files(
        [str(p) for p in sorted(docs.iterdir())]
    )
    page.get_by_text("Indexed 3 documents").wait_for(timeout=WAIT_MS, state="attached")
    _idle(page)
    page.get_by_role("heading", name="② Retrieval").wait_for(timeout=WAIT_MS)
    # the payloads are on the page as text, not as elements
    assert page.get_by_text("window.__xss = 1; alert('script')", exact=False).count() >= 1
    assert page.locator("[data-testid=stMain] script").count() == 0
    assert page.locator("[data-testid=stMain] img[src=x]").count() == 0
    assert page.locator("[data-testid=stMain] svg[onload]").count() == 0
    assert page.locator("a[href^='javascript']").count() == 0
    assert page.get_by_text("onerror=window.__xss=1", exact=False).count() >= 1  # the warning, as text

    page.get_by_role("link", name="Chunks").click()
    page.get_by_role("heading", name="Chunks").wait_for(timeout=WAIT_MS)
    _idle(page)
    for doc_label in ("payload-notes", "payload-plain", "row-1"):
        page.locator("[data-testid=stMain] [data-testid=stSelectbox]").first.click()
        page.get_by_role("option", name=doc_label, exact=False).first.click()
        _idle(page)
        assert page.locator(".ri-doc").count() == 1
        assert page.locator(".ri-doc script, .ri-doc img, .ri-doc svg").count() == 0
    assert page.get_by_text("onerror=", exact=False).count() >= 1
    assert page.evaluate("typeof window.__xss") == "undefined"
    assert dialogs == []
    page.close()


def test_smoke_inspect_shows_every_stage(server, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1400, "height": 2400})
    page.goto(f"{server}/?lang=en")
    _idle(page)
    for name in ("① Chunking", "② Retrieval", "③ Fusion", "④ Rerank", "⑤ Gate", "⑥ Context", "⑦ Answer | sources"):
        heading = page.get_by_role("heading", name=name)
        heading.wait_for(timeout=WAIT_MS)
        heading.scroll_into_view_if_needed()
        assert heading.is_visible(), name
    page.evaluate("window.scrollTo(0, 0)")
    shot = tmp_path / "inspect.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 20_000
    if os.environ.get("RAG_SCREENSHOT_DIR"):
        shutil.copy(shot, Path(os.environ["RAG_SCREENSHOT_DIR"]) / "inspect.png")
    page.close()
