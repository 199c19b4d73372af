"""A zip that unpacks to a 100 MB BEIR corpus (issue 27): the sidebar's zip path
(``ui.cache.beir_zip_index``) loads it within 3× the time of the same corpus as a folder
(``ui.cache.beir_index``), and its peak memory above a bare process is not double the
folder's. Each load runs in its own child process, which reports its time and peak RSS
(``resource.getrusage(RUSAGE_SELF).ru_maxrss``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from helpers.paths import ROOT

pytestmark = pytest.mark.slow

N_DOCS = 100_000
ROW_CHARS = 1_000

CHILD = r"""
import json, resource, sys, time
from ui import cache
mode, src = sys.argv[1], sys.argv[2]
start = time.perf_counter()
if mode == "zip":
    with open(src, "rb") as f:
        index, qset, _ = cache.beir_zip_index(f.read(), "test")
elif mode == "folder":
    index, qset, _ = cache.beir_index(src, "test")
else:
    qset = None
seconds = time.perf_counter() - start
print(json.dumps({
    "seconds": seconds,
    "docs": len(qset.report.documents) if qset else 0,
    "chars": sum(len(d.text) for d in qset.report.documents) if qset else 0,
    "rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
}))
"""


def _write_beir(folder: Path) -> None:
    """``N_DOCS`` rows of about ``ROW_CHARS`` characters (about 100 MB), one query, one
    judgement: text that repeats, so the zip is a few hundred KB."""
    folder.mkdir(parents=True)
    filler = ("Hallasan is the highest mountain of South Korea at 1,950 m. " * 20)[:ROW_CHARS]
    with (folder / "corpus.jsonl").open("w", encoding="utf-8") as out:
        for i in range(N_DOCS):
            out.write(json.dumps({"_id": f"d{i}", "title": "", "text": filler}) + "\n")
    (folder / "queries.jsonl").write_text('{"_id": "q1", "text": "How tall is Hallasan?"}\n')
    (folder / "qrels").mkdir()
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td7\t1\n")


def _zip(folder: Path, target: Path) -> None:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                zf.write(p, f"set/{p.relative_to(folder)}")


def _child(mode: str, src: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", CHILD, mode, str(src)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_100_mb_corpus_zip_loads_like_the_folder(tmp_path):
    folder = tmp_path / "set"
    _write_beir(folder)
    size = (folder / "corpus.jsonl").stat().st_size
    assert size > 100_000_000
    zipped = tmp_path / "set.zip"
    _zip(folder, zipped)
    assert zipped.stat().st_size < 1_000_000  # a few hundred KB that unpack to 100 MB
    bare = _child("bare", folder)
    runs = {mode: _child(mode, folder if mode == "folder" else zipped) for mode in ("folder", "zip")}
    for mode, r in runs.items():
        assert (r["docs"], r["chars"]) == (N_DOCS, N_DOCS * ROW_CHARS), mode
    folder_s, zip_s = runs["folder"]["seconds"], runs["zip"]["seconds"]
    assert zip_s < 3 * folder_s, (zip_s, folder_s)
    grow = {mode: r["rss_kb"] - bare["rss_kb"] for mode, r in runs.items()}
    assert grow["zip"] < 2 * grow["folder"], grow
