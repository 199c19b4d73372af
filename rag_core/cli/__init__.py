"""Command line: ``python -m rag_core {chunk,query,metrics,eval,corpus,sweep,labels,index,support,
scenarios}``

Every command prints one JSON document on stdout with ``--json`` (a short
human summary otherwise). Bad arguments print one clear line on stderr and
exit 2 — never a traceback.

Each sub-command is a module of this package (``chunk``, ``query``, ``metrics``, ``eval``,
``corpus``, ``index``, ``labels``, ``sweep``, ``support``, ``scenarios``) holding its
arguments and its function; :mod:`.parser` builds the argparse tree and imports only the
module of the command given, so a command starts with only what it needs. ``common`` is what
they share; ``sets`` the corpus, question set and runs of the commands that rank.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from .common import EXIT_USAGE, UsageError
from .parser import build_parser, command_of


def main(argv: Sequence[str] | None = None) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(command_of(words))
    try:
        args = parser.parse_args(words)
        if not getattr(args, "fn", None):
            raise UsageError(
                "python -m rag_core: choose a command: chunk, query, metrics, eval, corpus check, "
                "labels, sweep, index qdrant, support, scenarios"
            )
        return args.fn(args)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ValueError as exc:  # validation errors from rag_core
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except FileNotFoundError as exc:
        print(f"error: file not found: {exc.filename}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
