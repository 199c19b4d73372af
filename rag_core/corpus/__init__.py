"""Loading a corpus: files and folders, decodings, BEIR/TREC collections, the corpus checks."""

from __future__ import annotations

from pathlib import Path

#: The corpus bundled with the project.
SAMPLE_CORPUS = Path(__file__).resolve().parents[2] / "sample_corpus"
