"""``corpus check``: validate a corpus and its question sets."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..corpus.check import check_corpus
from .common import Parser, emit


def add_arguments(cc: argparse.ArgumentParser) -> None:
    """``corpus check``: validate a corpus and its question sets."""
    csub = cc.add_subparsers(dest="corpus_command", parser_class=Parser)
    chk = csub.add_parser("check", help="validate the sample corpus and its question sets")
    chk.add_argument("dir", nargs="?", default=None)
    chk.add_argument("--json", action="store_true")
    chk.set_defaults(fn=cmd_corpus)


def cmd_corpus(args: argparse.Namespace) -> int:
    report = check_corpus(Path(args.dir) if args.dir else None)
    emit(report, args.json, report.summary())
    return 0 if report.ok else 1
