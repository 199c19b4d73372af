"""The argparse tree of ``python -m rag_core``: one sub-command per module of this package.

Every sub-command's parser is made here, with its name and one-line help (so ``--help`` lists
them all), but only the module of the command being run is imported to add its arguments
(its ``add_arguments``), as Django's ``manage.py`` finds its commands: ``labels add`` and
``support --help`` never import what ``eval`` needs (the evaluation package, scipy) or what
``query`` needs (the index, the models).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Sequence
from importlib import import_module

from .common import Parser

#: Each sub-command (its module is ``rag_core.cli.<name>``) and its one-line help, in the order
#: ``--help`` lists them.
COMMANDS: dict[str, str] = {
    "chunk": "chunk one document",
    "query": "run one question through the pipeline",
    "metrics": "score a TREC run against qrels",
    "eval": "evaluate a config (and compare another) on a question set",
    "corpus": "corpus tools",
    "index": "write the loaded corpus to an external index",
    "labels": "gold labels: add, export, import, undo, list",
    "sweep": "refusal-threshold sweep over a question set",
    "support": "check the claims of answers in a JSONL file",
    "scenarios": "the lecture gallery: prepare its caches, check it",
}


def command_of(argv: Sequence[str]) -> tuple[str, ...]:
    """The sub-command ``argv`` names (its first word that is one), or none.

    The top-level parser has no option that takes a value, so no word before the command can
    be mistaken for it.
    """
    return next(((word,) for word in argv if word in COMMANDS), ())


def build_parser(commands: Iterable[str] = COMMANDS) -> argparse.ArgumentParser:
    """The parser of every sub-command; the arguments of those in ``commands`` (default: all)."""
    wanted = set(commands)
    p = Parser(prog="python -m rag_core", description="RAG Stage Inspector core")
    sub = p.add_subparsers(dest="command", parser_class=Parser)
    for name, text in COMMANDS.items():
        command = sub.add_parser(name, help=text)
        if name in wanted:
            import_module(f"{__package__}.{name}").add_arguments(command)
    return p
