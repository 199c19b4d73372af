"""Server time of an Inspect rerun after a model-free change (k, threshold, budget).

Runs the real ``app.py`` in Streamlit's ``AppTest`` (same script runner as
``streamlit run``, no browser) on the bundled sample corpus, warms the
corpus index once, then changes one sidebar widget at a time to a value not
seen before (so the Trace cache misses and the pipeline reruns) and times
``AppTest.run()`` — the whole script: sidebar, pipeline from retrieval on,
and rendering of every stage. Generation is off (``generation.model=none``):
a model-free change still alters the prompt, and with a generator on, the
rerun is dominated by generation, not by the app. Target: median ≤ 300 ms.

Usage: ``.venv/bin/python bench/app.py [--repeats N]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ui.apptest import write_entry  # noqa: E402

TARGET_MS = 300.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repeats", type=int, default=12, help="changes per knob (distinct values)"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.repeats <= 40:
        parser.error("--repeats must be between 1 and 40")
    os.environ["RAG_APP_SET"] = "generation.model=none"
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from streamlit.testing.v1 import AppTest

    with tempfile.TemporaryDirectory() as tmp:
        at = AppTest.from_file(str(write_entry(Path(tmp))), default_timeout=600)
        at.query_params.update({"retrieval.methods": "bm25,tfidf:char", "lang": "en"})
        t0 = time.perf_counter()
        at.run()
        cold = (time.perf_counter() - t0) * 1000
        if at.exception:
            print("the app raised:", [e.value for e in at.exception])
            return 1
        changes = {
            "retrieval.k": ("slider", [k for k in range(2, 41) if k != 8][: args.repeats]),
            "gate.min_score": (
                "number_input",
                [round(0.001 * i, 3) for i in range(1, args.repeats + 1)],
            ),
            "context.budget_tokens": ("number_input", [300 + 37 * i for i in range(args.repeats)]),
        }
        timings: dict[str, list[float]] = {}
        for key, (kind, values) in changes.items():
            for v in values:
                getattr(at, kind)(key=key).set_value(v)
                t0 = time.perf_counter()
                at.run()
                timings.setdefault(key, []).append((time.perf_counter() - t0) * 1000)
                if at.exception or at.error:
                    print(
                        f"{key}={v}: the page failed:",
                        [e.value for e in (*at.exception, *at.error)],
                    )
                    return 1
        # the same change again: the Trace comes from the LRU
        at.slider(key="retrieval.k").set_value(3)
        at.run()
        cached = []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            at.run()
            cached.append((time.perf_counter() - t0) * 1000)

    every = [x for v in timings.values() for x in v]
    print(f"cold first run (chunking + indexes): {cold:.0f} ms")
    for key, vals in timings.items():
        print(
            f"rerun after {key:<22} median {statistics.median(vals):6.1f} ms  max {max(vals):6.1f} "
            f"ms  (n={len(vals)})"
        )
    print(f"rerun, trace cached                  median {statistics.median(cached):6.1f} ms")
    median = statistics.median(every)
    verdict = "OK" if median <= TARGET_MS else "OVER TARGET"
    print(
        f"median over all model-free changes: {median:.1f} ms (target <= {TARGET_MS:.0f} ms) "
        f"{verdict}"
    )
    return 0 if median <= TARGET_MS else 2


if __name__ == "__main__":
    raise SystemExit(main())
