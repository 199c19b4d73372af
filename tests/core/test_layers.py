"""The import layers of ``rag_core`` (docs/ARCHITECTURE.md, "Layers"): every import looks down.

Reads every module's imports with ``ast`` — module-level, in-function and ``TYPE_CHECKING``
ones alike — and fails on an import of a module in a higher layer, of another family of the
same layer, of a module no layer lists, and on any import circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from helpers.paths import ROOT as REPO

ROOT = REPO / "rag_core"

#: Bottom to top. Each layer holds families (name → module prefixes); a module may import its
#: own family and any family of a lower layer, nothing else.
LAYERS: list[tuple[str, dict[str, tuple[str, ...]]]] = [
    (
        "ground",
        {
            "ground": (
                "rag_core.types",
                "rag_core.config",
                "rag_core.config_checks",
                "rag_core.overrides",
                "rag_core.registry",
                "rag_core.hashing",
                "rag_core.modelnames",
                "rag_core.text",
                "rag_core.formats",
                "rag_core.wording",
            )
        },
    ),
    ("models", {"models": ("rag_core.models",)}),
    ("loading and gold", {"corpus": ("rag_core.corpus",), "gold": ("rag_core.gold",)}),
    (
        "chunking and retrieval",
        {"chunking": ("rag_core.chunking",), "retrieval": ("rag_core.retrieval",)},
    ),
    ("rerank and answer", {"rerank": ("rag_core.rerank",), "answer": ("rag_core.answer",)}),
    ("index", {"index": ("rag_core.index",)}),
    ("pipeline", {"pipeline": ("rag_core.pipeline",)}),
    (
        "measuring and teaching",
        {"evaluation": ("rag_core.evaluation",), "scenarios": ("rag_core.scenarios",)},
    ),
    ("entry points", {"cli": ("rag_core.cli", "rag_core.__main__", "rag_core")}),
]


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Dotted module name → file, for every ``.py`` under ``root``."""
    out = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The ``rag_core`` modules that module ``name`` imports anywhere in its file."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            targets = [f"{module}.{a.name}" for a in node.names] + [module]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                found.add(target)  # a package's own modules may read its __init__
    return found


def place(name: str) -> tuple[int, str]:
    """``(layer index, family)`` of a module; ValueError when no layer lists it."""
    best: tuple[int, int, str] | None = None
    for i, (_layer, families) in enumerate(LAYERS):
        for family, prefixes in families.items():
            for prefix in prefixes:
                hit = name == prefix or (prefix != "rag_core" and name.startswith(prefix + "."))
                if hit and (best is None or len(prefix) > best[0]):
                    best = (len(prefix), i, family)
    if best is None:
        raise ValueError(f"{name} is in no layer of tests/test_layers.py: add it to LAYERS")
    return best[1], best[2]


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    known = modules(root)
    return {name: imports(name, path, known) for name, path in known.items()}


def climbing(edges: dict[str, set[str]]) -> list[str]:
    """Every import of a higher layer or of another family of the same layer, as text."""
    bad = []
    for src, targets in sorted(edges.items()):
        s_layer, s_family = place(src)
        for dst in sorted(targets):
            d_layer, d_family = place(dst)
            if d_layer > s_layer or (d_layer == s_layer and d_family != s_family):
                bad.append(
                    f"{src} ({LAYERS[s_layer][0]}) imports {dst} ({LAYERS[d_layer][0]}, {d_family})"
                )
    return bad


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_every_module_has_a_layer():
    unplaced = []
    for name in modules():
        try:
            place(name)
        except ValueError as exc:
            unplaced.append(str(exc))
    assert unplaced == []


def test_no_import_climbs():
    assert climbing(graph()) == []


def test_no_import_circle():
    assert circles(graph()) == []


def test_a_climbing_import_and_a_circle_are_caught(tmp_path):
    pkg = tmp_path / "rag_core"
    (pkg / "models").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "types.py").write_text("from .models import loader\n")
    (pkg / "models" / "__init__.py").write_text("")
    (pkg / "models" / "loader.py").write_text(
        "def f():\n    from rag_core.types import x  # in-function imports count too\n"
    )
    edges = graph(pkg)
    assert climbing(edges) == [  # ``from .models import loader`` runs both files
        "rag_core.types (ground) imports rag_core.models (models, models)",
        "rag_core.types (ground) imports rag_core.models.loader (models, models)",
    ]
    assert circles(edges) == [["rag_core.models.loader", "rag_core.types"]]


def test_a_module_outside_every_layer_is_named():
    with pytest.raises(ValueError, match=r"rag_core\.newthing is in no layer"):
        place("rag_core.newthing")
