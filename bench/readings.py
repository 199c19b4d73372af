"""Have the bundled generator read RAGTruth answers: the readings the support head is fitted on.

For every row of ``ragtruth_train/`` (QA, Summary) and ``ragtruth_dev/`` (Summary, Data2txt) the
default generator reads ``prompt + answer`` once (:func:`rag_core.answer.lookback.read_answer`),
and the readings land in the disk cache (``<cache>/readings/``, keyed by model and token ids), so
an interrupted run continues where it stopped and ``bench/fit_support.py`` finds them. Rows are
grouped by prompt (the answers of several generators to one question share one prefill) and the
groups visited in a seeded random order over all files, so any prefix is a fair sample of every
task.

Run: ``nice -n 5 .venv/bin/python bench/readings.py [--limit N] [--only train|dev]``.
Prints rows done, readings per second and peak memory as it goes.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from rag_core.answer.lookback import prompt_layout  # noqa: E402
from rag_core.models import get_generator  # noqa: E402
from rag_core.models.readings import cache_key, cache_path  # noqa: E402

DATASETS = Path(os.environ.get("RAG_INSPECTOR_DATASETS") or ROOT.parent / "shared" / "datasets")
FILES = {
    "train": (("ragtruth_train", "qa.jsonl"), ("ragtruth_train", "summary.jsonl")),
    "dev": (("ragtruth_dev", "summary.jsonl"), ("ragtruth_dev", "data2txt.jsonl")),
}
SEED = 0


def rows(which: str) -> list[dict[str, Any]]:
    """Every row of the chosen files (absent files skipped), ``split`` added."""
    out: list[dict[str, Any]] = []
    for split in ("train", "dev") if which == "all" else (which,):
        for folder, name in FILES[split]:
            path = DATASETS / folder / name
            if not path.is_file():
                continue
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    out.append({**json.loads(line), "split": split})
    return out


def passages(row: dict[str, Any]) -> list[str]:
    """A row's contexts as a list (Summary and Data2txt rows carry one string)."""
    p = row["passages"]
    return [p] if isinstance(p, str) else list(p)


def groups(all_rows: list[dict[str, Any]], limit: int) -> list[list[dict[str, Any]]]:
    """The rows grouped by prompt (the answers of several generators to one question or
    article, read after one prefill), groups in a seeded random order; ``limit`` rows at most."""
    by: dict[str, list[dict[str, Any]]] = {}
    for r in all_rows:
        by.setdefault(json.dumps([r.get("question") or "", passages(r)]), []).append(r)
    order = list(by.values())
    random.Random(SEED).shuffle(order)
    out, n = [], 0
    for g in order:
        if limit and n >= limit:
            break
        out.append(g)
        n += len(g)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0, help="read only the first N rows of the order")
    ap.add_argument("--only", choices=("train", "dev", "all"), default="all")
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    args = ap.parse_args()
    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    all_rows = rows(args.only)
    if not all_rows:
        print(f"no RAGTruth rows under {DATASETS}: nothing to read")
        return
    gen = get_generator()
    model_key = f"{gen.model_id}|{gen.file_sha256}|{gen.dtype}"
    done = new = tokens = 0
    t0 = time.perf_counter()
    for group in groups(all_rows, args.limit):
        layout = prompt_layout(gen, group[0].get("question") or "", passages(group[0]))
        answers = [a for a in (gen.encode(r["response"]) for r in group) if a]
        fresh = [
            a
            for a in answers
            if not cache_path(cache_key(model_key, layout.ids, a, layout.segments)).is_file()
        ]
        gen.read_many(list(layout.ids), answers, layout.segments)
        done += len(group)
        if fresh:
            new += len(fresh)
            tokens += len(layout.ids) + sum(map(len, fresh))
            dt = time.perf_counter() - t0
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(
                f"{done}/{args.limit or len(all_rows)} rows ({new} read now): "
                f"{new / dt:.2f} readings/s, {tokens / dt:.0f} tokens/s, peak RSS {rss:.0f} MB",
                flush=True,
            )
    dt = time.perf_counter() - t0
    print(
        f"done: {done} rows, {new} read in {dt:.0f} s"
        + (f" ({new / dt:.2f} readings/s)" if new else "")
    )


if __name__ == "__main__":
    main()
