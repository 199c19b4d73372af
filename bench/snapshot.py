"""Write the CLI's Trace JSON and eval/sweep reports for a fixed set of runs, timings removed.

A refactor that must not change behaviour is checked by running this before and after
and comparing the two folders::

    python bench/snapshot.py /tmp/before      # on the old commit
    python bench/snapshot.py /tmp/after       # on the new one
    diff -r /tmp/before /tmp/after            # no output: byte-identical

Only the public command line is used (``python -m rag_core …``), so the script runs
unchanged on both sides of a move. Fields that measure time (``timings_ms``, ``seconds``,
``seconds_*``, ``*_ms``) are dropped; everything else is written as the CLI printed it.
Generation is off (``generation.model=none``) except in ``--with-generation`` runs, which
need the bundled generator and replay its cache on the second run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

QUERIES: list[tuple[str, list[str]]] = [
    ("bm25-dense-en", ["--question-id", "en-eval-01"]),
    ("bm25-dense-ko", ["--question-id", "ko-01"]),
    (
        "bm25-tfidf",
        ["--question-id", "en-eval-02", "--set", "retrieval.methods=bm25:char,tfidf:char"],
    ),
    (
        "dense-gate",
        [
            "--question-id",
            "en-emb-01",
            "--set",
            "retrieval.methods=dense",
            "--set",
            "gate.max_distance=0.6",
        ],
    ),
    (
        "auto-kiwi-zscore",
        [
            "--question-id",
            "ko-03",
            "--set",
            "retrieval.methods=bm25:auto,bm25:kiwi",
            "--set",
            "fusion.method=zscore",
        ],
    ),
    (
        "overlap-minscore",
        [
            "--question-id",
            "en-ret-01",
            "--set",
            "rerank.method=overlap",
            "--set",
            "gate.min_score=0.1",
        ],
    ),
    (
        "mmr-dense",
        [
            "--question-id",
            "en-ret-02",
            "--set",
            "retrieval.methods=dense",
            "--set",
            "rerank.method=mmr",
        ],
    ),
    ("bm25-only", ["--question-id", "en-inf-01", "--set", "retrieval.methods=bm25:unicode"]),
    (
        "maxkept",
        ["--question-id", "en-eval-03", "--set", "gate.max_kept=3", "--set", "rerank.shortlist=4"],
    ),
    (
        "refusal",
        [
            "--question-id",
            "en-eval-01",
            "--set",
            "gate.min_score=1000",
            "--set",
            "retrieval.methods=bm25:char",
        ],
    ),
    ("free-text", ["What is reciprocal rank fusion?"]),
    ("preset-b", ["--preset", "B", "--question-id", "ko-02"]),
]

REPORTS: list[tuple[str, list[str]]] = [
    ("eval-en", ["eval", "--queries", "sample_corpus/questions/en.jsonl", "--json"]),
    (
        "eval-ko-overlap",
        [
            "eval",
            "--queries",
            "sample_corpus/questions/ko.jsonl",
            "--set",
            "rerank.method=overlap",
            "--set",
            "gate.max_kept=4",
            "--json",
        ],
    ),
    ("sweep-en", ["sweep", "--queries", "sample_corpus/questions/en.jsonl", "--json"]),
]

TIME_KEYS = {"timings_ms", "seconds"}


def _strip_times(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {
            k: _strip_times(v)
            for k, v in obj.items()
            if k not in TIME_KEYS and not k.startswith("seconds_") and not k.endswith("_ms")
        }
    if isinstance(obj, list):
        return [_strip_times(v) for v in obj]
    return obj


def _cli(args: list[str]) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "rag_core", *args], capture_output=True, text=True, check=False
    )
    return done.returncode, done.stdout, done.stderr


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="folder to write the snapshot into")
    ap.add_argument(
        "--with-generation",
        action="store_true",
        help="also run two questions with the bundled generator",
    )
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    runs = [
        (name, ["query", *a, "--set", "generation.model=none", "--json"]) for name, a in QUERIES
    ]
    if args.with_generation:
        runs += [
            ("gen-en", ["query", "--question-id", "en-eval-01", "--json"]),
            ("gen-ko", ["query", "--question-id", "ko-01", "--json"]),
        ]
    runs += REPORTS
    for name, argv in runs:
        rc, out, err = _cli(argv)
        try:
            body = json.dumps(
                _strip_times(json.loads(out)), ensure_ascii=False, indent=1, sort_keys=True
            )
        except json.JSONDecodeError:
            body = out
        (args.out / f"{name}.json").write_text(f"exit {rc}\n{body}\n{err}", encoding="utf-8")
        print(f"{name}: exit {rc}, {len(out):,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
