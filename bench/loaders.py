"""Loader speed on hostile inputs, against a stdlib peer measured in the same run.

Run: .venv/bin/python bench/loaders.py [--mb 2] [--repeat 2]

Inputs are generated (nothing read from disk), each about ``--mb`` MB:

- ``html-deep``: ``<div>``×n + text + ``</div>``×n (deep nesting);
- ``html-stray``: ``<span>``×n + text + ``</i>``×n (stray end tags: quadratic
  in an earlier version, 202 s for 600 KB);
- ``html-paragraphs``: ordinary ``<p>`` paragraphs (the everyday case);
- ``json-deep``: ``[``×size (refused by the depth cap before parsing; no peer:
  ``json.loads`` raises ``RecursionError`` at once, which is what escaped before);
- ``jsonl-rows``: JSON Lines rows; ``csv-big-field``: one row with a 1 MB cell.

For each it prints our ``rag_core.corpus.loaders.load_bytes`` CPU time (best of
``--repeat``; wall time in brackets, inflated when the machine is shared), the peer's time (HTML: a
bare ``html.parser.HTMLParser`` pass
with no handlers; JSONL: ``json.loads`` per line; CSV: ``csv.reader`` with the
field limit raised), their ratio, and the growth exponent log2(t(size) /
t(size/2)) of our time — 1.0 is linear, 2.0 quadratic. Target:
each 2 MB HTML case ≤ 3 s of CPU time; the script exits 1 when one is over.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import sys
import time
from collections.abc import Callable
from functools import partial
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rag_core.corpus.loaders import load_bytes

TARGET_S = 3.0


def html_deep(size: int) -> bytes:
    n = size // len("<div></div>")
    return ("<div>" * n + "deep text" + "</div>" * n).encode()


def html_stray(size: int) -> bytes:
    n = size // len("<span></i>")
    return ("<span>" * n + "stray text" + "</i>" * n).encode()


def html_paragraphs(size: int) -> bytes:
    para = (
        "<p>The zebrafish tank holds <b>42 litres</b> of water; see <a href='#x'>the "
        "notes</a>.</p>\n"
    )
    return ("<html><body>" + para * (size // len(para)) + "</body></html>").encode()


def json_deep(size: int) -> bytes:
    return b"[" * size


def jsonl_rows(size: int) -> bytes:
    row = json.dumps({"id": "r", "text": "Hallasan rises 1,947 metres above the sea. " * 4}) + "\n"
    n = size // len(row)
    return "".join(row.replace('"r"', f'"r{i}"', 1) for i in range(n)).encode()


def csv_big_field(size: int) -> bytes:
    return b'id,text\na,"' + b"x" * (size // 2) + b'"\nb,short row\n'


def bare_html(data: bytes) -> None:
    parser = HTMLParser()
    parser.feed(data.decode("utf-8"))
    parser.close()


def bare_jsonl(data: bytes) -> None:
    for line in data.decode("utf-8").split("\n"):
        if line.strip():
            json.loads(line)


def bare_csv(data: bytes) -> None:
    csv.field_size_limit(max(csv.field_size_limit(), len(data) + 1))
    for _ in csv.reader(io.StringIO(data.decode("utf-8"), newline="")):
        pass


CASES: list[tuple[str, str, Callable[[int], bytes], Callable[[bytes], None] | None, bool]] = [
    ("html-deep", "x.html", html_deep, bare_html, True),
    ("html-stray", "x.html", html_stray, bare_html, True),
    ("html-paragraphs", "x.html", html_paragraphs, bare_html, True),
    ("json-deep", "x.json", json_deep, None, False),  # json.loads just raises RecursionError
    ("jsonl-rows", "x.jsonl", jsonl_rows, bare_jsonl, False),
    ("csv-big-field", "x.csv", csv_big_field, bare_csv, False),
]


def best(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Best (CPU seconds, wall seconds) of ``repeat`` runs."""
    cpu, wall = [], []
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return min(cpu), min(wall)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mb", type=float, default=2.0)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    size = int(args.mb * 1024 * 1024)
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.1f}"
    )
    print(
        "times are CPU seconds (process time; the machine may be shared), best of --repeat; "
        "wall seconds in brackets"
    )
    print(
        f"{'case':16} {'bytes':>10} {'ours s':>15} {'peer s':>15} {'ratio':>6} {'growth':>6}  "
        "result"
    )
    failures = 0
    for name, filename, make, peer, targeted in CASES:
        data, half = make(size), make(size // 2)
        report = load_bytes(filename, data)
        ours, ours_wall = best(partial(load_bytes, filename, data), args.repeat)
        ours_half, _ = best(partial(load_bytes, filename, half), args.repeat)
        theirs, theirs_wall = (
            best(partial(peer, data), args.repeat) if peer else (math.nan, math.nan)
        )
        growth = math.log2(ours / ours_half) if ours_half > 0 else float("nan")
        got = f"{report.n_documents} docs, {len(report.failed)} failed" + (
            f" ({report.failed[0].reason[:60]})" if report.failed else ""
        )
        verdict = ""
        if targeted:
            ok = ours <= TARGET_S
            failures += not ok
            verdict = f"  [{'OK' if ok else 'OVER'} ≤ {TARGET_S:g} s]"
        ratio = ours / theirs if theirs > 0 else math.nan
        print(
            f"{name:16} {len(data):>10,} {ours:>6.2f} [{ours_wall:>6.2f}] {theirs:>6.2f} "
            f"[{theirs_wall:>6.2f}] {ratio:>6.2f} {growth:>6.2f}  {got}{verdict}"
        )
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
