"""Sizes a newcomer can read (docs/ARCHITECTURE.md, section 2, "Sizes"): no module of
``rag_core`` or ``ui`` over 700 lines but the word catalogues, no function over 80 lines."""

from __future__ import annotations

import ast

from helpers.paths import ROOT

MAX_MODULE_LINES = 700
MAX_FUNCTION_LINES = 80
#: The catalogues: one entry a message, and as long as the messages are many.
CATALOGUES = ("wording.py", "text.py")
MODULES = sorted(p for d in ("rag_core", "ui") for p in (ROOT / d).rglob("*.py"))


def test_no_module_is_crowded() -> None:
    long = {
        str(p.relative_to(ROOT)): n
        for p in MODULES
        if p.name not in CATALOGUES
        and (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert not long, f"over {MAX_MODULE_LINES} lines (cut at the seams): {long}"


def test_no_function_is_long() -> None:
    long = {
        f"{p.relative_to(ROOT)}:{node.lineno} {node.name}": n
        for p in MODULES
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (n := (node.end_lineno or node.lineno) - node.lineno + 1) > MAX_FUNCTION_LINES
    }
    assert not long, f"over {MAX_FUNCTION_LINES} lines: {long}"
