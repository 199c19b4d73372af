"""Where the repository and the shared data sets are, wherever a test file sits."""

from __future__ import annotations

from pathlib import Path

#: The repository root (``tests/helpers/paths.py`` → two folders up).
ROOT = Path(__file__).resolve().parents[2]
#: The real public data sets beside the checkout (``../shared/datasets``); tests skip when absent.
DATASETS = ROOT.parent / "shared" / "datasets"
