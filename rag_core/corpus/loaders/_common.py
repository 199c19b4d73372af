"""What every loader shares: the limits, the file types, the failure records and the budget.

A file (or row) that cannot be loaded becomes a :class:`FailedDocument` whose reason is a
``load.*`` notice (English in ``rag_core.wording``); a parser raises :class:`LoadError` with
it (:func:`fail`, :func:`fail_at`). :class:`Budget` is a file's wall-clock deadline, checked
by the parsers between units of work.
"""

from __future__ import annotations

import time
import unicodedata
from typing import Any

from ...formats import guard
from ...types import Notice
from ...wording import declare, notice
from ..decoding import LoadError

MB = 1024 * 1024
#: Default size cap per file.
DEFAULT_MAX_BYTES = 20 * MB
#: Default wall-clock budget for loading one file, in seconds; a file over it is a failure.
DEFAULT_TIME_BUDGET_S = 60.0
#: JSON nesting deeper than this is refused before parsing (``rag_core.formats.guard``).
MAX_JSON_DEPTH = guard.MAX_JSON_DEPTH
#: A JSON integer with more digits than this is refused (``rag_core.formats.guard``).
MAX_INT_DIGITS = guard.MAX_INT_DIGITS

TEXT_EXTENSIONS = (".md", ".markdown", ".txt")
HTML_EXTENSIONS = (".html", ".htm")
ROW_EXTENSIONS = (".csv", ".json", ".jsonl")
SUPPORTED_EXTENSIONS = tuple(sorted(TEXT_EXTENSIONS + HTML_EXTENSIONS + ROW_EXTENSIONS))

#: Why a file or row failed (``load.*``; English in ``rag_core.wording``): the ones several
#: loaders raise.
AT = guard.AT
EMPTY = declare("load.empty")
OVER_BUDGET = declare("load.over_budget", "seconds", "elapsed")
DUPLICATE = declare("load.duplicate", "doc_id", "where")
DUPLICATE_EARLIER = declare("load.duplicate.earlier", "doc_id")


def fail(code: str, **params: Any) -> LoadError:
    """The :class:`LoadError` of a declared ``code`` with ``params`` (to ``raise``)."""
    return LoadError(notice(code, **params))


def fail_at(where: str | Notice, code: str, **params: Any) -> LoadError:
    """``<where>: <problem>``: a row's (or a file's) :class:`LoadError`."""
    return LoadError(notice(AT, where=where, problem=notice(code, **params)))


class Budget:
    """A per-file deadline, checked by the parsers between units of work."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.start = time.perf_counter()
        self.deadline = None if seconds is None else self.start + seconds
        self._calls = 63  # the first check reads the clock

    def check(self) -> None:
        """Raise :class:`LoadError` once the deadline has passed (the clock is read every 64th
        call)."""
        self._calls += 1
        if (
            self.deadline is not None
            and not self._calls & 63
            and time.perf_counter() > self.deadline
        ):
            elapsed = time.perf_counter() - self.start
            raise fail(OVER_BUDGET, seconds=self.seconds, elapsed=elapsed)

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start


NO_BUDGET = Budget(None)


def canonicalize(text: str) -> str:
    """Canonical form of a text: CRLF and lone CR become LF, then Unicode NFC."""
    return unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n"))
