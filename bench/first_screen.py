"""The default first screen, end to end: seconds until ``make run``'s first page has its answer.

For each precision (``float32``, the default before ``generation.dtype`` existed, and ``auto``,
the default now), rounds interleaved: a fresh ``streamlit run app.py`` (the app's defaults, only
``generation.dtype`` set through ``RAG_APP_SET``) against a copy of the user cache without stored
generations (the converted models and the embedding cache stay: their one-time preparation is
not what a returning user waits for), and one headless session over Streamlit's own websocket
protocol (``bench/wsclient.py``) opening the first page, timed from the request until the run
finishes (``script_finished``) — every stage rendered and the answer complete, the model load
included. The answer's caption (its measured prefill/decode speeds, shown only for an answer
generated in that run) is printed to show the answer was really made.

Usage: ``.venv/bin/python bench/first_screen.py [--repeats 2]``
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from helpers.browser import serve  # noqa: E402

from rag_core.models import cache_root  # noqa: E402

DTYPES = ("float32", "auto")


def cache_without_generations(tmp: Path) -> Path:
    """``tmp`` holding links to every entry of the user cache except the stored generations."""
    for entry in cache_root().iterdir():
        if not entry.name.startswith("generations.sqlite"):
            (tmp / entry.name).symlink_to(entry)
    return tmp


async def first_page(base: str) -> tuple[float, list[str]]:
    """Seconds until the first page's run finishes, and the texts it showed."""
    from wsclient import Session

    s = Session(base)
    await s.connect()
    try:
        run = await s.run("", "", timeout_s=1800)
        return run.seconds, run.texts
    finally:
        await s.close()


def one_round(dtype: str, log_dir: Path) -> tuple[float, str]:
    with tempfile.TemporaryDirectory() as tmp:
        cache = cache_without_generations(Path(tmp))
        log = log_dir / f"first_screen_{dtype}.log"
        app_set = f"generation.dtype={dtype}"
        with serve(log, app_set=app_set, RAG_INSPECTOR_CACHE=str(cache)) as base:
            seconds, texts = asyncio.run(first_page(base))
    # the answer's caption states the measured speeds only for an answer generated in this run
    said = next(
        (t for t in texts if "tokens/s" in t or "토큰/초" in t), "(no speed caption: no answer)"
    )
    return seconds, " ".join(said.split())[:160]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args(argv)
    if not 1 <= args.repeats <= 10:
        parser.error("--repeats must be between 1 and 10")
    seconds: dict[str, list[float]] = {d: [] for d in DTYPES}
    with tempfile.TemporaryDirectory() as logs:
        for rnd in range(args.repeats):
            for dtype in DTYPES:
                s, said = one_round(dtype, Path(logs))
                seconds[dtype].append(s)
                print(f"round {rnd + 1} {dtype:>8}: {s:6.1f} s  {said}", flush=True)
    med = {d: statistics.median(v) for d, v in seconds.items()}
    print(
        f"median: float32 {med['float32']:.1f} s, auto {med['auto']:.1f} s "
        f"({med['float32'] / med['auto']:.2f}x)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
