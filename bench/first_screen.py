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

Two servers: **warm** (``serve.py`` as ``make run`` starts it: the start-up hook warms the
process before the server answers, so the request goes out once the health check answers) and
**unwarmed** (``RAG_WARM=0``, as ``streamlit run app.py``: the page loads what it needs). Each
line also states **ready** (seconds from the server's start until its health check answers)
and **from start** (ready + answer: what a user who opens the page at once waits in all).

The targets of issue 40: stages ≤ 5 s, answer ≤ 2 × generation.

Usage: ``.venv/bin/python bench/first_screen.py [--repeats 1] [--langs ko,en]
[--servers warm,unwarmed]``
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
from ui.warm import ENV, READY  # noqa: E402

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


def one_round(lang: str, log_dir: Path, server: str = "warm") -> dict[str, float | None]:
    """One fresh server and its first page: ready, stages, answer and generation seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        cache = cache_without_generations(Path(tmp))
        log = log_dir / f"first_screen_{lang}_{server}.log"
        env = {"RAG_INSPECTOR_CACHE": str(cache), "RAG_PREPARE_GALLERY": "0"}
        if server == "unwarmed":
            env[ENV] = "0"
        t0 = time.perf_counter()
        with serve(log, None, **env) as base:
            ready = time.perf_counter() - t0
            said = [x for x in log.read_text(errors="replace").splitlines() if READY in x]
            if said:
                print(f"  server: {said[0]}", flush=True)
            stages, answer, texts = asyncio.run(first_page(base, lang))
    gen = generation_seconds(texts)
    return {"ready": ready, "stages": stages, "answer": answer, "generation": gen}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--langs", default="ko,en")
    parser.add_argument("--servers", default="warm,unwarmed", help="warm, unwarmed or both")
    args = parser.parse_args(argv)
    if not 1 <= args.repeats <= 10:
        parser.error("--repeats must be between 1 and 10")
    langs = [x for x in args.langs.split(",") if x]
    if not langs or any(x not in ("ko", "en") for x in langs):
        parser.error("--langs takes ko, en or both")
    servers = [x for x in args.servers.split(",") if x]
    if not servers or any(x not in ("warm", "unwarmed") for x in servers):
        parser.error("--servers takes warm, unwarmed or both")
    setup = subprocess.run([sys.executable, "-m", "rag_core.models.prepare"], cwd=ROOT)
    if setup.returncode:
        return setup.returncode
    ok = True
    ratios: dict[str, list[float]] = {x: [] for x in servers}
    with tempfile.TemporaryDirectory() as logs:
        for rnd in range(args.repeats):
            for lang, server in [(x, o) for x in langs for o in servers]:
                got = one_round(lang, Path(logs), server)
                stages, answer, gen = got["stages"], got["answer"], got["generation"]
                assert answer is not None and got["ready"] is not None
                ratio = answer / gen if gen else None
                if ratio is not None:
                    ratios[server].append(ratio)
                met = stages is not None and stages <= 5.0 and ratio is not None and ratio <= 2.0
                if server == "warm":  # the targets are make run's
                    ok &= met
                shown = "—" if stages is None else f"{stages:.1f} s"
                made = "—" if gen is None else f"{gen:.1f} s"
                print(
                    f"round {rnd + 1} {lang} {server}: ready {got['ready']:.1f} s, "
                    f"stages {shown}, answer {answer:.1f} s, generation {made} "
                    f"({'—' if ratio is None else f'{ratio:.2f}x'}), from start "
                    f"{got['ready'] + answer:.1f} s: "
                    f"{'meets' if met else 'MISSES'} stages <= 5 s, answer <= 2x generation",
                    flush=True,
                )
    for server, got_ratios in ratios.items():
        if got_ratios:
            print(f"median answer / generation, {server}: {statistics.median(got_ratios):.2f}x")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
