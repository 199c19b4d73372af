"""Kiwi on a spaceless Korean line: the whole run against the guard's hard-cut pieces.

Run: .venv/bin/python bench/kiwi_guard.py [--syllables 60000] [--rounds 3]

The input is a spaceless line of ``--syllables`` Hangul syllables (a Korean sentence
repeated with its spaces removed). Each round times, interleaved, ``kiwi_terms_many`` with
the input guard (:func:`rag_core.formats.guard.run_pieces`: pieces of at most ``MAX_RUN``
syllables) and with the guard switched off (the whole run in one Kiwi call), and prints
the median seconds, the median per-round ratio, µs per syllable, and how many of the
unguarded terms the guarded analysis also gives (multiset overlap). Kiwi's cost is linear
in the syllables it reads either way; the guard bounds what one call sees.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rag_core.formats import guard
from rag_core.retrieval.sparse import analyzers

SENTENCE = "한라산의 높이는 천구백오십 미터이며 제주도의 중앙에 있다 세종대왕은 한글을 창제하였다 "


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--syllables", type=int, default=60_000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    base = SENTENCE.replace(" ", "")
    line = (base * (args.syllables // len(base) + 1))[: args.syllables]
    analyzers.kiwi_terms_many(["한라산"])  # load the model outside the timings
    real = guard.run_pieces
    times: dict[str, list[float]] = {"guarded": [], "whole": []}
    terms: dict[str, list[str]] = {}
    for _ in range(args.rounds):
        for name in ("guarded", "whole"):
            guard.run_pieces = real if name == "guarded" else (lambda text, max_run=0: [text])  # type: ignore[assignment]
            start = time.perf_counter()
            terms[name] = analyzers.kiwi_terms_many([line])[0]
            times[name].append(time.perf_counter() - start)
    guard.run_pieces = real  # type: ignore[assignment]
    shared = collections.Counter(terms["guarded"]) & collections.Counter(terms["whole"])
    overlap = sum(shared.values())
    for name, ts in times.items():
        med = statistics.median(ts)
        per = 1e6 * med / len(line)
        print(f"{name:8s} median {med:6.2f} s  {per:5.1f} µs/syllable  {len(terms[name]):,} terms")
    ratios = [w / g for g, w in zip(times["guarded"], times["whole"], strict=True)]
    ratio = statistics.median(ratios)
    print(f"whole / guarded: median ratio {ratio:.2f} over {args.rounds} rounds")
    print(f"guarded terms shared with the whole-run analysis: {overlap / len(terms['whole']):.4f}")
    print(f"pieces: {len(guard.run_pieces(line)):,} of at most {guard.MAX_RUN} syllables")


if __name__ == "__main__":
    main()
