"""``support``: check the claims of answers in a JSONL file."""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import GenerationConfig, SupportConfig
from ..formats.output import OutputError, open_output
from ..wording import english
from .common import UsageError, inputs_of

if TYPE_CHECKING:  # the models package loads when the command runs, not for --help
    from ..models.generators import TextGenerator


def add_arguments(s: argparse.ArgumentParser) -> None:
    s.add_argument("file", help="JSONL rows {id, question, contexts, answer}")
    s.add_argument("--json", action="store_true", help="JSON lines on stdout")
    s.add_argument("--output", default=None, help="write the JSON lines to this file")
    s.add_argument("--min-p", type=float, default=None, help="threshold on p_supported")
    s.add_argument("--judge", action="store_true", help="stack the generator's P(yes)")
    s.add_argument(
        "--no-readings",
        action="store_true",
        help="skip the bundled generator's reading of each answer (the lexical head alone)",
    )
    s.add_argument("--generator", default=GenerationConfig().model, help="the judge (with --judge)")
    s.set_defaults(fn=cmd_support)


def cmd_support(args: argparse.Namespace) -> int:
    """``python -m rag_core support FILE.jsonl [--json] [--output OUT] [--min-p P] [--judge]``.

    JSON lines go to ``--output`` (and to stdout with ``--json`` or without ``--output``);
    otherwise stdout gets one summary line per row. Bad rows: one stderr line each; exit 1
    when any row was bad, else 0.
    """
    # the support model and its evidence (numpy, scipy) load when the command runs, not for --help
    from ..answer import checkfile

    cfg = SupportConfig(
        **({"min_p": args.min_p} if args.min_p is not None else {}),
        judge=bool(args.judge),
        readings=not args.no_readings,
    )
    judge = None
    if args.judge:
        judge, why = checkfile.judge_for(args.generator)
        if why is not None:
            raise UsageError(f"--judge: {english(why)}")
    if not Path(args.file).is_file():
        raise UsageError(f"{args.file}: file not found")
    try:
        with open_output(args.output, inputs_of(args)) if args.output else nullcontext() as out:
            bad = _check_rows(args, cfg, judge, out)
    except OutputError as exc:  # refused, or a write failed: one line, the input untouched
        raise UsageError(f"--output {exc}") from None
    return 1 if bad else 0


def _check_rows(
    args: argparse.Namespace, cfg: SupportConfig, judge: TextGenerator | None, out: Any
) -> int:
    """Check every row of ``args.file``: JSON lines to ``out`` (and stdout), summaries or JSON
    on stdout, one stderr line per bad row; the number of bad rows."""
    from ..answer import checkfile  # loaded by cmd_support already; numpy, scipy

    bad = 0
    for res in checkfile.check_file(args.file, cfg, judge=judge):
        if isinstance(res, checkfile.RowError):
            print(f"error: {res}", file=sys.stderr)
            bad += 1
            continue
        line = json.dumps(res, ensure_ascii=False)
        if out is not None:
            out.write(line + "\n")
        if args.json or out is None:
            sys.stdout.write(line + "\n")
        else:
            sys.stdout.write(checkfile.summary_line(res) + "\n")
    return bad
