"""Where the repository and the shared data sets are, wherever a test file sits."""

from __future__ import annotations

import os
from pathlib import Path

#: The repository root (``tests/helpers/paths.py`` → two folders up).
ROOT = Path(__file__).resolve().parents[2]
#: The real public data sets: ``$RAG_INSPECTOR_DATASETS``, else ``../shared/datasets`` beside the
#: checkout; tests skip when absent.
DATASETS = Path(os.environ.get("RAG_INSPECTOR_DATASETS") or ROOT.parent / "shared" / "datasets")
