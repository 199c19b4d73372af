"""Where the repository and the shared data sets are, wherever a test file sits."""

from __future__ import annotations

import functools
import importlib.util
import os
from pathlib import Path
from types import ModuleType

#: The repository root (``tests/helpers/paths.py`` → two folders up).
ROOT = Path(__file__).resolve().parents[2]
#: The real public data sets: ``$RAG_INSPECTOR_DATASETS``, else ``../shared/datasets`` beside the
#: checkout; tests skip when absent.
DATASETS = Path(os.environ.get("RAG_INSPECTOR_DATASETS") or ROOT.parent / "shared" / "datasets")


@functools.cache
def entry_point() -> ModuleType:
    """The project's ``app.py`` as a module, loaded by path (``import app`` may find
    ``bench/app.py`` first: some tests put ``bench/`` on ``sys.path``). Loading it registers the
    pages' words with ``ui.i18n``."""
    spec = importlib.util.spec_from_file_location("rag_inspector_app", ROOT / "app.py")
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {ROOT / 'app.py'}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
