"""The shared pieces of ``ui/`` look down only: no shared module imports a page folder
(``ui/<page>/``, a folder with its own ``text.py``), except ``measure.py``, which reads the
label store the Label page chose (``ui/label/keys.py``; docs/ARCHITECTURE.md section 7). The
words of each page are registered by ``app.py``, so ``ui/i18n.py`` is no exception."""

from __future__ import annotations

import ast
from pathlib import Path

from helpers.paths import ROOT

UI = ROOT / "ui"
PAGE_FOLDERS = {p.parent.name for p in UI.glob("*/text.py")}
ALLOWED = {("ui/measure.py", "ui.label.keys")}


def _shared_modules() -> list[Path]:
    """Every module of ``ui/`` outside the page folders (``ui/sidebar/`` included)."""
    return [p for p in sorted(UI.rglob("*.py")) if p.relative_to(UI).parts[0] not in PAGE_FOLDERS]


def _imported(path: Path) -> set[str]:
    """The dotted names ``path`` imports (relative imports resolved), in-function ones too."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            base = parts[: len(parts) - (node.level - 1)] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names |= {module, *(f"{module}.{a.name}" for a in node.names)}
    return names


def test_page_folders_are_found():
    assert {"inspect", "check", "label", "lecture", "threshold"} <= PAGE_FOLDERS
    assert "sidebar" not in PAGE_FOLDERS


def test_no_shared_ui_module_imports_a_page_folder():
    climbing = sorted(
        (str(p.relative_to(ROOT)), name)
        for p in _shared_modules()
        for name in _imported(p)
        if name.split(".")[:2] in (["ui", page] for page in PAGE_FOLDERS)
        and not any(
            str(p.relative_to(ROOT)) == where and name.startswith(allowed)
            for where, allowed in ALLOWED
        )
    )
    assert climbing == []
