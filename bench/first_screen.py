"""The default first screen on a fresh cache after ``make run``'s setup: when do the stages show,
and how long does the first answer take against its own generation time?

Setup first, as ``make run`` does: ``python -m rag_core.models.prepare`` (the default
generator's one-time conversion; a no-op once done). Then, per round, language and opening
time: a fresh ``streamlit run serve.py`` (as ``make run``: the app's defaults with the
server's start-up warm-up, ``ui.warm``; the gallery's background preparation off, so nothing
else runs) against a copy of the user cache without stored generations (the converted model
and the embedding cache stay: the setup made them), and one headless session over Streamlit's
own websocket protocol (``bench/wsclient.py``) opening the first page, timed from the request:

* **stages** — until the retrieval section's heading arrives (every model-free stage is drawn
  before it is sent; the answer streams after);
* **answer** — until the run finishes with the answer complete (model load included);
* **generation** — the answer's own generation seconds, as its caption states them
  ("12.30 s · 931 tokens in · …"; a replay would say it was cached).

Two opening times: **at once** (the request as soon as the server answers its health check:
the warm-up and the page share the two cores) and **warm** (the request once the server has
printed the warm-up's line, as a user who opens the page after the terminal says so).

The targets of issue 40: stages ≤ 5 s, answer ≤ 2 × generation.

Usage: ``.venv/bin/python bench/first_screen.py [--repeats 1] [--langs ko,en]
[--open at-once,warm]``
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from helpers.browser import serve  # noqa: E402

from rag_core.models import cache_root  # noqa: E402
from ui.warm import READY  # noqa: E402

#: The retrieval section's heading in each language (ui/text.py ``ins.h.retrieval``).
STAGES_SHOWN = ("② Retrieval", "② 검색")
#: The generation's own time in the answer's caption (ui/text.py ``ins.gen_facts``).
GEN_SECONDS = re.compile(r"([0-9.]+) s · \d+ tokens in|([0-9.]+)초 · 입력 \d+ 토큰")


def cache_without_generations(tmp: Path) -> Path:
    """``tmp`` holding links to every entry of the user cache except the stored generations."""
    for entry in cache_root().iterdir():
        if not entry.name.startswith("generations.sqlite"):
            (tmp / entry.name).symlink_to(entry)
    return tmp


async def first_page(base: str, lang: str) -> tuple[float | None, float, list[str]]:
    """Seconds until the stages showed and until the run finished, and the texts shown."""
    from wsclient import Session

    s = Session(base)
    await s.connect()
    try:
        run = await s.run("", f"lang={lang}", timeout_s=1800)
    finally:
        await s.close()
    stages = next((t for t, text in run.seen if any(h in text for h in STAGES_SHOWN)), None)
    return stages, run.seconds, run.texts


def generation_seconds(texts: list[str]) -> float | None:
    """The generation time the answer's caption states (None: no answer made in this run)."""
    for text in texts:
        m = GEN_SECONDS.search(text.replace("\\", ""))  # Markdown escapes ("94\\.75")
        if m:
            return float(m.group(1) or m.group(2))
    return None


def wait_for_warm_up(log: Path, timeout_s: float = 600.0) -> str:
    """The warm-up's line, once the server's log holds it."""
    deadline = time.monotonic() + timeout_s
    while True:
        lines = [x for x in log.read_text(errors="replace").splitlines() if READY in x]
        if lines:
            return lines[0]
        if time.monotonic() > deadline:
            raise TimeoutError(f"no warm-up line in {log} after {timeout_s:.0f} s")
        time.sleep(0.2)


def one_round(
    lang: str, log_dir: Path, opened: str = "at-once"
) -> tuple[float | None, float, float | None]:
    with tempfile.TemporaryDirectory() as tmp:
        cache = cache_without_generations(Path(tmp))
        log = log_dir / f"first_screen_{lang}_{opened}.log"
        with serve(log, None, RAG_INSPECTOR_CACHE=str(cache), RAG_PREPARE_GALLERY="0") as base:
            if opened == "warm":
                print(f"  server: {wait_for_warm_up(log)}", flush=True)
            stages, answer, texts = asyncio.run(first_page(base, lang))
    return stages, answer, generation_seconds(texts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--langs", default="ko,en")
    parser.add_argument("--open", default="at-once,warm", help="at-once, warm or both")
    args = parser.parse_args(argv)
    if not 1 <= args.repeats <= 10:
        parser.error("--repeats must be between 1 and 10")
    langs = [x for x in args.langs.split(",") if x]
    if not langs or any(x not in ("ko", "en") for x in langs):
        parser.error("--langs takes ko, en or both")
    openings = [x for x in args.open.split(",") if x]
    if not openings or any(x not in ("at-once", "warm") for x in openings):
        parser.error("--open takes at-once, warm or both")
    setup = subprocess.run([sys.executable, "-m", "rag_core.models.prepare"], cwd=ROOT)
    if setup.returncode:
        return setup.returncode
    ok = True
    ratios: dict[str, list[float]] = {x: [] for x in openings}
    with tempfile.TemporaryDirectory() as logs:
        for rnd in range(args.repeats):
            for lang, opened in [(x, o) for x in langs for o in openings]:
                stages, answer, gen = one_round(lang, Path(logs), opened)
                ratio = answer / gen if gen else None
                if ratio is not None:
                    ratios[opened].append(ratio)
                met = stages is not None and stages <= 5.0 and ratio is not None and ratio <= 2.0
                ok &= met
                shown = "—" if stages is None else f"{stages:.1f} s"
                made = "—" if gen is None else f"{gen:.1f} s"
                print(
                    f"round {rnd + 1} {lang} {opened}: stages {shown}, answer {answer:.1f} s, "
                    f"generation {made} ({'—' if ratio is None else f'{ratio:.2f}x'}) "
                    f"{'meets' if met else 'MISSES'} stages <= 5 s, answer <= 2x generation",
                    flush=True,
                )
    for opened, got in ratios.items():
        if got:
            print(f"median answer / generation, {opened}: {statistics.median(got):.2f}x")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
