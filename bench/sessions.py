"""Many sessions at once: time to ready, save latency, server memory.

For each page (Label, Inspect) a fresh ``streamlit run app.py`` (generation
off, a temporary label store) is opened by ONE headless session and
timed until the page is ready (browser: script idle, no skeleton, the page's own
control on screen; websocket: the run's script_finished); then a second fresh server is opened by N
sessions at
the same moment, each timed the same way. Shared work (corpus, chunking,
indexes, pools, Traces) is computed once per corpus and configuration, so
the ratio ``slowest of N / one session`` is the figure (target ≤ 2). The
server's resident memory (``/proc/<pid>/status`` VmRSS) is read before the
sessions open and after they are ready, and the server's CPU seconds
(``/proc/<pid>/stat``) in between: on a small machine the browsers share the
cores with the server, and this says how much of the wall time was the app.

On the N-session Label server, every session then names an annotator and all
press "Save label" together; each save is timed from the click to its
confirmation on screen (target ≤ 2 s: one SQLite insert in the button's
callback plus one page run, never behind pipeline work).

Two clients: ``--client ws`` (default) drives N headless sessions over
Streamlit's own websocket protocol (``bench/wsclient.py``): no browser, so
the figure is the server's: a session is ready at the run's
``script_finished`` (FINISHED_SUCCESSFULLY), a save is timed from sending
the button's trigger to the end of the run that shows "Saved". ``--client
browser`` opens N headless chromium tabs: the end-to-end figure, where on a
2-core machine the N renderers compete with the server for the cores.

Usage: ``.venv/bin/python bench/sessions.py [--client ws|browser] [--sessions 8] [--pages
label,inspect]``
(the browser client needs /usr/bin/chromium and Playwright, as tests/browser/).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from helpers.browser import CHROMIUM, CHROMIUM_ARGS, SERVERS, serve  # noqa: E402

TARGET_RATIO = 2.0
TARGET_SAVE_S = 2.0
#: Per page: the address and a JS test that the page is ready.
READY = {
    "label": (
        "/label?lang=en",
        (
            "[...document.querySelectorAll('button')].some(b => /^(Save|Change) "
            "label$/.test(b.innerText.trim()))"
        ),
    ),
    "inspect": (
        "/inspect?lang=en",
        "[...document.querySelectorAll('h2')].some(h => h.innerText.includes('⑥'))",
    ),
}
IDLE_JS = (
    "!!document.querySelector('[data-testid=stApp][data-test-script-state=notRunning]')"
    " && !document.querySelector('[data-testid=stSkeleton]')"
)


def rss_mb(url: str) -> float:
    """Resident memory of the server process (MiB)."""
    pid = SERVERS[url].pid
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_s(url: str) -> float:
    """CPU seconds (user + system) the server process has used so far."""
    import os

    fields = Path(f"/proc/{SERVERS[url].pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def open_together(
    browser, url: str, n: int, ready_js: str, timeout_s: float = 900
) -> tuple[list[float], list]:
    """Open ``url`` in ``n`` new contexts at once; seconds until each is ready (polled every 0.25
    s)."""
    pages = []
    for _ in range(n):
        page = browser.new_context(viewport={"width": 1400, "height": 1600}).new_page()
        pages.append(page)
    t0 = time.perf_counter()
    for page in pages:
        page.goto(url, wait_until="commit")
    done: dict[int, float] = {}
    while len(done) < n:
        if time.perf_counter() - t0 > timeout_s:
            raise RuntimeError(f"{n - len(done)} session(s) not ready after {timeout_s:.0f} s")
        for i, page in enumerate(pages):
            if i in done:
                continue
            if page.evaluate(f"({IDLE_JS}) && ({ready_js})"):
                page.wait_for_timeout(300)  # still ready a moment later: not between two runs
                if page.evaluate(f"({IDLE_JS}) && ({ready_js})"):
                    done[i] = time.perf_counter() - t0
        time.sleep(0.25)
    return [done[i] for i in range(n)], pages


def save_together(pages, base: str) -> list[float]:
    """Every session opens its own question (two sessions saving one span would be a stale edit,
    rightly asked about) and names an annotator; then all press Save at once. Seconds from each
    click to its confirmation on screen."""
    for i, page in enumerate(pages):
        page.goto(f"{base}/label?lang=en&qset=en&qid=en-eval-{i + 1:02d}")
    for i, page in enumerate(pages):
        page.wait_for_function(f"({IDLE_JS}) && ({READY['label'][1]})", timeout=900_000)
        box = page.get_by_role("textbox", name="Annotator", exact=True)
        box.fill(f"bench-{i}")
        box.press("Enter")
    for page in pages:
        page.wait_for_function(
            IDLE_JS + " && [...document.querySelectorAll('button')].some(b => "
            "b.innerText.trim() === 'Save label' && !b.disabled)",
            timeout=600_000,
        )
    starts = []
    for page in pages:
        starts.append(time.perf_counter())
        page.get_by_role("button", name="Save label").click(no_wait_after=True)
    out = []
    for page, t0 in zip(pages, starts, strict=True):
        page.get_by_text("Saved: characters", exact=False).wait_for(timeout=600_000)
        out.append(time.perf_counter() - t0)
    return out


QUERY = {"label": ("label", "lang=en"), "inspect": ("inspect", "lang=en")}


async def ws_open(base: str, page: str, n: int) -> tuple[list[float], list]:
    """N websocket sessions request ``page`` at the same moment; seconds until each run finished."""
    from wsclient import Session

    sessions = [Session(base) for _ in range(n)]
    await asyncio.gather(*(s.connect() for s in sessions))
    name, query = QUERY[page]
    t0 = time.perf_counter()

    async def one(s):
        await s.run(name, query)
        return time.perf_counter() - t0

    return list(await asyncio.gather(*(one(s) for s in sessions))), sessions


async def ws_save(base: str, n: int) -> list[float]:
    """N new sessions each open their own question (the URL's ``qid`` is read when a session
    starts, as a
    browser's new page) and name an annotator, one by one, not timed; then all press Save together:
    seconds from each trigger to the end of the run that shows its confirmation."""
    from wsclient import Session

    sessions = [Session(base) for _ in range(n)]
    buttons = []
    for i, s in enumerate(sessions):
        await s.connect()
        query = f"lang=en&qset=en&qid=en-eval-{i + 1:02d}"
        run = await s.run("label", query)
        s.set_text(run.widgets["Annotator"][1], f"bench-{i}")
        run = await s.run("label")
        buttons.append((query, run.widgets["Save label"][1]))

    async def one(s, query, button):
        run = await s.run("label", trigger=button)
        if not any(text.startswith("Saved") for text in run.texts):
            raise RuntimeError(
                f"no save confirmation for {query}: {[x for x in run.texts if len(x) < 300][:60]}"
            )
        return run.seconds

    try:
        return list(
            await asyncio.gather(
                *(one(s, q, b) for s, (q, b) in zip(sessions, buttons, strict=True))
            )
        )
    finally:
        await asyncio.gather(*(s.close() for s in sessions))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--pages", default="label,inspect")
    parser.add_argument(
        "--client",
        choices=("ws", "browser"),
        default="ws",
        help="ws: headless websocket sessions (the server's time); browser: chromium tabs (end to "
        "end)",
    )
    args = parser.parse_args(argv)
    pages = [p.strip() for p in args.pages.split(",") if p.strip()]
    bad = [p for p in pages if p not in READY]
    if bad or not 2 <= args.sessions <= 16:
        parser.error(f"--pages must be among {', '.join(READY)}; --sessions between 2 and 16")
    if args.client == "ws":
        return ws_main(pages, args.sessions)
    from playwright.sync_api import sync_playwright

    ok = True
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name in pages:
            path, ready_js = READY[name]
            with serve(Path(tmp) / f"{name}-1.log", RAG_INSPECTOR_DATA=f"{tmp}/{name}-1") as base:
                (one,), solo = open_together(browser, base + path, 1, ready_js)
                solo[0].context.close()
            with serve(Path(tmp) / f"{name}-n.log", RAG_INSPECTOR_DATA=f"{tmp}/{name}-n") as base:
                before, cpu0 = rss_mb(base), cpu_s(base)
                times, opened = open_together(browser, base + path, args.sessions, ready_js)
                after, cpu = rss_mb(base), cpu_s(base) - cpu0
                ratio = max(times) / one
                ok &= ratio <= TARGET_RATIO
                print(
                    f"{name}: one session ready in {one:.1f} s; {args.sessions} sessions together: "
                    f"median {statistics.median(times):.1f} s, slowest {max(times):.1f} s "
                    f"-> ratio {ratio:.2f} (target <= {TARGET_RATIO:.0f}); "
                    f"server RSS {before:.0f} -> {after:.0f} MiB, server CPU {cpu:.1f} s "
                    "(the rest of the wall time is the browsers, on the same cores)",
                    flush=True,
                )
                if name == "label":
                    cpu0 = cpu_s(base)
                    saves = save_together(opened, base)
                    cpu = cpu_s(base) - cpu0
                    ok &= max(saves) <= TARGET_SAVE_S
                    print(
                        f"label saves, {args.sessions} sessions pressing Save together: median "
                        f"{statistics.median(saves):.2f} s, slowest {max(saves):.2f} s (target <= "
                        f"{TARGET_SAVE_S:.0f} s); server RSS {rss_mb(base):.0f} MiB, server CPU "
                        f"for the question switches and saves {cpu:.1f} s",
                        flush=True,
                    )
                for page in opened:
                    page.context.close()
        browser.close()
    return 0 if ok else 1


def ws_main(pages: list[str], n: int) -> int:
    """The websocket variant of main(): same servers, same figures, no browser."""
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for name in pages:
            with serve(Path(tmp) / f"{name}-1.log", RAG_INSPECTOR_DATA=f"{tmp}/{name}-1") as base:
                (one,), solo = asyncio.run(ws_open(base, name, 1))
            with serve(Path(tmp) / f"{name}-n.log", RAG_INSPECTOR_DATA=f"{tmp}/{name}-n") as base:

                async def scenario(base=base, name=name):
                    before, cpu0 = rss_mb(base), cpu_s(base)
                    times, sessions = await ws_open(base, name, n)
                    after, cpu = rss_mb(base), cpu_s(base) - cpu0
                    await asyncio.gather(*(s.close() for s in sessions))
                    saves = await ws_save(base, n) if name == "label" else None
                    return times, before, after, cpu, saves

                times, before, after, cpu, saves = asyncio.run(scenario())
                ratio = max(times) / one
                ok &= ratio <= TARGET_RATIO
                print(
                    f"{name} (websocket sessions): one session ready in {one:.1f} s; {n} sessions "
                    f"together: median {statistics.median(times):.1f} s, slowest {max(times):.1f} "
                    f"s -> ratio {ratio:.2f} (target <= {TARGET_RATIO:.0f}); server RSS "
                    f"{before:.0f} -> {after:.0f} MiB, server CPU {cpu:.1f} s",
                    flush=True,
                )
                if saves is not None:
                    ok &= max(saves) <= TARGET_SAVE_S
                    print(
                        f"label saves, {n} sessions pressing Save together: median "
                        f"{statistics.median(saves):.2f} s, slowest {max(saves):.2f} s (target <= "
                        f"{TARGET_SAVE_S:.0f} s); server RSS {rss_mb(base):.0f} MiB",
                        flush=True,
                    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
