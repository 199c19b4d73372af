"""An uploaded BEIR zip against the same corpus as a folder: load time and peak memory.

Run: .venv/bin/python bench/zip_load.py [--docs 100000] [--rounds 2]

Writes a BEIR folder of ``--docs`` rows of 1,000 characters (100,000 rows: about 100 MB; the
text repeats, so the zip is a few hundred KB) into a temporary folder and zips it. Each round
loads, each in a fresh child process and interleaved, the folder through the sidebar's folder
path (``ui.cache.beir_index``) and the zip through its upload path (``ui.cache.beir_zip_index``:
unpack into a temporary folder, then the same loader), and reads the child's time and peak RSS
(``ru_maxrss``). It prints the medians, the zip/folder time ratio (target < 3) and each load's
peak RSS above a bare child (target: the zip's below twice the folder's).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, resource, sys, time
from ui import cache
mode, src = sys.argv[1], sys.argv[2]
start = time.perf_counter()
if mode == "zip":
    with open(src, "rb") as f:
        _, qset, _ = cache.beir_zip_index(f.read(), "test")
elif mode == "folder":
    _, qset, _ = cache.beir_index(src, "test")
else:
    qset = None
print(json.dumps({
    "seconds": time.perf_counter() - start,
    "docs": len(qset.report.documents) if qset else 0,
    "rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
}))
"""


def write_beir(folder: Path, n_docs: int, row_chars: int = 1_000) -> None:
    """A BEIR folder of ``n_docs`` rows of ``row_chars`` characters, one query, one judgement."""
    folder.mkdir(parents=True)
    filler = ("Hallasan is the highest mountain of South Korea at 1,950 m. " * 20)[:row_chars]
    with (folder / "corpus.jsonl").open("w", encoding="utf-8") as out:
        for i in range(n_docs):
            out.write(json.dumps({"_id": f"d{i}", "title": "", "text": filler}) + "\n")
    (folder / "queries.jsonl").write_text('{"_id": "q1", "text": "How tall is Hallasan?"}\n')
    (folder / "qrels").mkdir()
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td7\t1\n")


def zip_folder(folder: Path, target: Path) -> None:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                zf.write(p, f"set/{p.relative_to(folder)}")


def child(mode: str, src: Path) -> dict:
    """One load in a fresh process: its seconds, documents and peak RSS (KB)."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, mode, str(src)],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="zip-load-") as tmp:
        folder, zipped = Path(tmp) / "set", Path(tmp) / "set.zip"
        write_beir(folder, args.docs)
        zip_folder(folder, zipped)
        corpus_mb = (folder / "corpus.jsonl").stat().st_size / 2**20
        print(f"corpus.jsonl {corpus_mb:.1f} MB, zip {zipped.stat().st_size / 1024:.0f} KB")
        bare = child("bare", folder)["rss_kb"]
        runs: dict[str, list[dict]] = {"folder": [], "zip": []}
        for _ in range(args.rounds):
            runs["folder"].append(child("folder", folder))
            runs["zip"].append(child("zip", zipped))
    med = {m: statistics.median(r["seconds"] for r in rs) for m, rs in runs.items()}
    grow = {m: statistics.median(r["rss_kb"] - bare for r in rs) / 1024 for m, rs in runs.items()}
    for m in runs:
        print(f"{m:6s} median {med[m]:6.2f} s  peak RSS above a bare child {grow[m]:7.1f} MB")
    print(f"zip / folder time: {med['zip'] / med['folder']:.2f} (target < 3)")
    print(f"zip / folder peak RSS growth: {grow['zip'] / grow['folder']:.2f} (target < 2)")


if __name__ == "__main__":
    main()
