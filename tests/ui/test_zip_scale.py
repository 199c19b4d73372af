"""A zip that unpacks to a 100 MB BEIR corpus (issue 27): the sidebar's zip path
(``ui.cache.beir_zip_index``) loads it within 3× the time of the same corpus as a folder
(``ui.cache.beir_index``), and its peak memory above a bare process is not double the
folder's. Each load runs in its own child process, which reports its time and peak RSS
(``resource.getrusage(RUSAGE_SELF).ru_maxrss``); the corpus and the children are
``bench/zip_load.py``'s, which prints the same figures."""

from __future__ import annotations

import sys

import pytest
from helpers.paths import ROOT

sys.path.insert(0, str(ROOT / "bench"))

from zip_load import child, write_beir, zip_folder

pytestmark = pytest.mark.slow

N_DOCS = 100_000


def test_a_100_mb_corpus_zip_loads_like_the_folder(tmp_path):
    folder = tmp_path / "set"
    write_beir(folder, N_DOCS)
    assert (folder / "corpus.jsonl").stat().st_size > 100_000_000
    zipped = tmp_path / "set.zip"
    zip_folder(folder, zipped)
    assert zipped.stat().st_size < 1_000_000  # a few hundred KB that unpack to 100 MB
    bare = child("bare", folder)
    runs = {mode: child(mode, folder if mode == "folder" else zipped) for mode in ("folder", "zip")}
    for mode, r in runs.items():
        assert r["docs"] == N_DOCS, mode
    folder_s, zip_s = runs["folder"]["seconds"], runs["zip"]["seconds"]
    assert zip_s < 3 * folder_s, (zip_s, folder_s)
    grow = {mode: r["rss_kb"] - bare["rss_kb"] for mode, r in runs.items()}
    # a load may not lift the peak above the imports' (growth 0): then neither doubled it
    assert grow["zip"] <= max(2 * grow["folder"], 0), (grow, bare["rss_kb"])
