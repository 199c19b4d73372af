"""What every sub-command shares: the usage error, the parser class, the config options, output.

Bad input is a :class:`UsageError`: one line on stderr and exit :data:`EXIT_USAGE` (2), never a
traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from ..config import PRESETS, PipelineConfig, preset
from ..corpus import SAMPLE_CORPUS
from ..formats.output import OutputError, write_text
from ..overrides import override_items
from ..types import dumps

EXIT_USAGE = 2


class UsageError(Exception):
    """A problem with the user's input: one line on stderr, exit 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one clear line, exit 2
        raise UsageError(f"{self.prog}: {message}")


def load_config(config: str | None, presets: str | None, sets: Sequence[str]) -> PipelineConfig:
    """A config from a preset letter or JSON file, then ``--set`` overrides."""
    cfg = PipelineConfig()
    if config:
        cfg = config_arg(config)
    if presets:
        cfg = preset(presets, cfg)
    try:
        overrides = override_items(sets)
    except ValueError as exc:
        raise UsageError(f"--set {exc}") from None
    return cfg.with_overrides(overrides) if overrides else cfg


def config_arg(value: str) -> PipelineConfig:
    """``A``–``F`` (a preset) or a path to a JSON config file."""
    if value.strip().upper() in PRESETS and not Path(value).exists():
        return preset(value)
    path = Path(value)
    if not path.is_file():
        raise UsageError(
            f"config {value!r} is neither a preset ({', '.join(PRESETS)}) nor an existing JSON file"
        )
    return PipelineConfig.from_json(path.read_text(encoding="utf-8"))


def emit(obj: Any, as_json: bool, summary: str = "") -> None:
    if as_json:
        sys.stdout.write(dumps(obj, indent=None) + "\n")
    else:
        sys.stdout.write((summary or dumps(obj, indent=2)) + "\n")


def ks_arg(text: str) -> tuple[int, ...]:
    try:
        ks = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise UsageError(f"--k {text!r}: expected integers like 1,4,8,20") from None
    if not ks or any(k <= 0 for k in ks):
        raise UsageError(f"--k {text!r}: every k must be a positive integer")
    return ks


def warn_load(lines: Sequence[str]) -> None:
    """Each file or row the corpus load skipped, one ``warning:`` line on stderr."""
    for line in lines:
        print(f"warning: {line}", file=sys.stderr)


def write_output(
    text: str, output: str | None, inputs: Sequence[str | Path] = (), flag: str = "--output"
) -> None:
    """``text`` to stdout, or to the file ``output`` (never one of ``inputs``; a device or FIFO
    written in place; see :mod:`rag_core.formats.output`); a refusal or write error is one
    :class:`UsageError` line naming ``flag``."""
    if output is None:
        sys.stdout.write(text)
        return
    try:
        write_text(output, text, inputs=inputs)
    except OutputError as exc:
        raise UsageError(f"{flag} {exc}") from None


#: The arguments that name a file or folder a command reads: an output may be none of them.
INPUT_ARGS = ("file", "corpus", "beir", "topics", "qrels", "run", "config", "compare", "questions")


def inputs_of(args: argparse.Namespace, *extra: str | Path) -> list[str | Path]:
    """Every file or folder ``args`` names to read (:data:`INPUT_ARGS`; the bundled corpus
    when a command with ``--corpus`` names none), plus ``extra`` (a label store's path)."""
    out: list[str | Path] = list(extra)
    for name in INPUT_ARGS:
        value = getattr(args, name, None)
        values = value if isinstance(value, list) else [value]
        out.extend(v for v in values if v)
    if hasattr(args, "corpus") and not args.corpus:
        out.append(SAMPLE_CORPUS)
    return out


def add_dataset_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--beir",
        default=None,
        metavar="DIR",
        help="a BEIR folder (corpus.jsonl, queries.jsonl, qrels/<split>.tsv or qrels.tsv) "
        "or a TREC folder (one topics* file, one qrels* file, corpus.jsonl or docs/)",
    )
    p.add_argument("--split", default="test", help="BEIR qrels split (default: test)")
    p.add_argument(
        "--topics", default=None, help="TREC topics (SGML <top> or qid<TAB>query) with --corpus"
    )
    p.add_argument(
        "--qrels", default=None, help="TREC qrels (qid 0 docid grade) with --corpus and --topics"
    )
    p.add_argument(
        "--run",
        action="append",
        metavar="FILE",
        help="import a run (TREC 'qid Q0 docid rank score tag' or JSONL {qid, hits}) as the "
        "retriever list run:TAG; added to retrieval.methods unless it already names a run",
    )
