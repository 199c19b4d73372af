"""The entry points: uploads, files, folders and corpora → a :class:`LoadReport`.

Each file is checked in order (type, size, binary, empty, decoding) and parsed by its
loader (:mod:`.markdown`, :mod:`.html`, :mod:`.rows`); anything unexpected is caught at the
file boundary and named, so one bad file never stops the others. Duplicate doc ids after
the first become failures; documents are sorted by doc id.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ...types import Document, FailedDocument, LoadedFile, LoadReport, Notice
from ...wording import declare, english, notice
from ..decoding import LoadError, decode, is_blank
from ._common import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIME_BUDGET_S,
    DUPLICATE,
    DUPLICATE_EARLIER,
    EMPTY,
    HTML_EXTENSIONS,
    MB,
    SUPPORTED_EXTENSIONS,
    TEXT_EXTENSIONS,
    Budget,
    fail,
)
from .html import parse_html_with_notes
from .markdown import parse_markdown
from .rows import parse_rows

#: Why a whole file failed (``load.*``).
BLANK = declare("load.blank")
TOO_LARGE_MB = declare("load.too_large_mb", "mb")
TOO_LARGE_BYTES = declare("load.too_large_bytes", "size")
UNSUPPORTED = declare("load.unsupported", "ext", "supported")
UNSUPPORTED_NO_EXT = declare("load.unsupported.no_extension", "supported")
CANNOT_READ = declare("load.cannot_read", "error")
CRASHED = declare("load.crashed", "error")
NOT_A_FILE = declare("load.not_a_file")
#: A file or row the corpus load skipped, as every Trace over the corpus lists it.
NOT_LOADED = declare("load.not_loaded", "where", "why")


def _size_reason(max_bytes: int) -> Notice:
    if max_bytes >= MB:
        return notice(TOO_LARGE_MB, mb=max_bytes / MB)
    return notice(TOO_LARGE_BYTES, size=max_bytes)


def _unsupported_reason(ext: str) -> Notice:
    supported = ", ".join(SUPPORTED_EXTENSIONS)
    if not ext:
        return notice(UNSUPPORTED_NO_EXT, supported=supported)
    return notice(UNSUPPORTED, ext=ext, supported=supported)


def load_notices(report: LoadReport) -> tuple[Notice, ...]:
    """``not loaded: <path>: <why>`` (``load.not_loaded``) for every failed file or row."""
    return tuple(notice(NOT_LOADED, where=f.path, why=f.notice) for f in report.failed)


def load_warnings(report: LoadReport) -> tuple[str, ...]:
    """:func:`load_notices` in English (the CLI's ``warning:`` lines)."""
    return tuple(map(english, load_notices(report)))


def _stem(name: str) -> str:
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    return base[: base.rfind(".")] if "." in base[1:] else base


def _ext(name: str) -> str:
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    i = base.rfind(".")
    return base[i:].lower() if i > 0 else ""


def _finish(
    docs: Iterable[Document], failed: Iterable[FailedDocument], files: Iterable[LoadedFile] = ()
) -> LoadReport:
    """Drop duplicate doc ids (as failures) and sort documents by doc_id."""
    seen: dict[str, Document] = {}
    failures = list(failed)
    for doc in docs:
        if doc.doc_id in seen:
            where = seen[doc.doc_id].path
            why = (
                notice(DUPLICATE, doc_id=doc.doc_id, where=where)
                if where
                else notice(DUPLICATE_EARLIER, doc_id=doc.doc_id)
            )
            failures.append(FailedDocument(doc.path or doc.doc_id, why))
            continue
        seen[doc.doc_id] = doc
    documents = tuple(sorted(seen.values(), key=lambda d: d.doc_id))
    infos = tuple(files)
    if len(infos) == 1:  # one file: its counts are the report's, duplicates included
        infos = (replace(infos[0], n_documents=len(documents), n_failed=len(failures)),)
    return LoadReport(documents=documents, failed=tuple(failures), files=infos)


def _cannot_read(exc: OSError) -> Notice:
    return notice(CANNOT_READ, error=str(exc.strerror or exc))


def _one_line(exc: BaseException) -> str:
    """``Type: message`` on one line, at most 200 characters."""
    text = " ".join(str(exc).split())
    text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return text if len(text) <= 200 else text[:199] + "…"


def _parse(
    name: str, data: bytes, path: str, budget: Budget
) -> tuple[list[Document], list[FailedDocument], str, tuple[Notice, ...]]:
    """Decode and parse one file's bytes; raises LoadError for a whole-file failure."""
    ext = _ext(name)
    decoded = decode(data)
    notes = decoded.notes
    if is_blank(decoded.text):
        raise _Refused(notice(BLANK), decoded.encoding)
    stem = _stem(name)
    try:
        if ext in TEXT_EXTENSIONS:
            fmt = "txt" if ext == ".txt" else "md"
            return (
                [parse_markdown(decoded.text, stem, path=path, fmt=fmt)],
                [],
                decoded.encoding,
                notes,
            )
        if ext in HTML_EXTENSIONS:
            doc, html_notes = parse_html_with_notes(decoded.text, stem, path=path, budget=budget)
            return [doc], [], decoded.encoding, notes + html_notes
        base = name.replace("\\", "/").rsplit("/", 1)[-1]
        docs, failed = parse_rows(decoded.text, base, ext, path=path, budget=budget)
        return docs, failed, decoded.encoding, notes
    except LoadError as exc:
        raise _Refused(exc.notice, decoded.encoding) from None


class _Refused(LoadError):
    """A whole-file failure after decoding (keeps the encoding for the report)."""

    def __init__(self, why: Notice, encoding: str) -> None:
        super().__init__(why)
        self.encoding = encoding

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.notice, self.encoding))


def _load(
    name: str,
    data: bytes | None,
    path: str,
    size: int,
    max_bytes: int,
    read: Any,
    time_budget_s: float | None = DEFAULT_TIME_BUDGET_S,
) -> tuple[list[Document], list[FailedDocument], LoadedFile]:
    """Apply the checks in order (type, size, binary, empty, decoding) and parse.

    This is the one guard at the file boundary: any exception (a parser bug, a
    ``RecursionError``, ``MemoryError``) becomes this file's failure reason, so
    the other files of a batch still load.
    """
    shown = path or name
    budget = Budget(time_budget_s)
    encoding = ""
    notes: tuple[Notice, ...] = ()
    docs: list[Document] = []
    failed: list[FailedDocument] = []
    ext = _ext(name)
    try:
        if ext not in SUPPORTED_EXTENSIONS:
            raise LoadError(_unsupported_reason(ext))
        if size > max_bytes:
            raise LoadError(_size_reason(max_bytes))
        if data is None:
            data = read()
        if not data.strip():
            raise fail(EMPTY)
        docs, failed, encoding, notes = _parse(name, data, path, budget)
        budget.check()
    except _Refused as exc:
        encoding = exc.encoding
        docs, failed = [], [FailedDocument(shown, exc.notice)]
    except LoadError as exc:
        docs, failed = [], [FailedDocument(shown, exc.notice)]
    except OSError as exc:
        docs, failed = [], [FailedDocument(shown, _cannot_read(exc))]
    except Exception as exc:  # noqa: BLE001 — the upload boundary: report, never raise
        docs, failed = [], [FailedDocument(shown, notice(CRASHED, error=_one_line(exc)))]
    info = LoadedFile(
        shown,
        encoding,
        len(docs),
        len(failed),
        round(budget.elapsed, 4),
        notes,
    )
    return docs, failed, info


def check_budget(time_budget_s: float | None) -> None:
    if time_budget_s is not None and not time_budget_s > 0:
        raise ValueError(
            f"time_budget_s = {time_budget_s!r} must be a positive number of seconds or None"
        )


def load_bytes(
    name: str,
    data: bytes,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    time_budget_s: float | None = DEFAULT_TIME_BUDGET_S,
) -> LoadReport:
    """Load an upload: ``name`` gives the extension and the doc id (its stem).

    Never raises for bad content: every problem is a ``FailedDocument``; a file
    taking longer than ``time_budget_s`` seconds to parse is one too.
    """
    if not isinstance(data, (bytes, bytearray)):
        raise ValueError(f"data for {name!r} must be bytes, not {type(data).__name__}")
    check_budget(time_budget_s)
    docs, failed, info = _load(name, bytes(data), "", len(data), max_bytes, None, time_budget_s)
    return _finish(docs, failed, [info])


def load_batch(
    files: Sequence[tuple[str, bytes]],
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    time_budget_s: float | None = DEFAULT_TIME_BUDGET_S,
) -> LoadReport:
    """Load uploaded ``(name, bytes)`` pairs; a file that fails never stops the others."""
    return merge_reports(
        [load_bytes(n, d, max_bytes=max_bytes, time_budget_s=time_budget_s) for n, d in files]
    )


def merge_reports(reports: Sequence[LoadReport]) -> LoadReport:
    """Concatenate reports in order; a doc id seen before becomes a failure (first wins).

    A one-file report's counts move a document dropped as a duplicate from
    loaded to failed, so the per-file lines add up to the whole.
    """
    seen: set[str] = set()
    files: list[LoadedFile] = []
    for r in reports:
        dup = sum(d.doc_id in seen for d in r.documents)
        seen.update(d.doc_id for d in r.documents)
        if dup and len(r.files) == 1:
            f = r.files[0]
            files.append(replace(f, n_documents=f.n_documents - dup, n_failed=f.n_failed + dup))
        else:
            files.extend(r.files)
    return _finish(
        [d for r in reports for d in r.documents],
        [f for r in reports for f in r.failed],
        files,
    )


def load_file(
    path: str | Path,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    time_budget_s: float | None = DEFAULT_TIME_BUDGET_S,
) -> LoadReport:
    """Load one file (a row file may yield many documents)."""
    check_budget(time_budget_s)
    p = Path(path)
    try:
        size = p.stat().st_size
    except OSError as exc:
        failure = FailedDocument(str(p), _cannot_read(exc))
        return LoadReport((), (failure,), (LoadedFile(str(p), n_failed=1),))
    if not p.is_file():
        return LoadReport(
            (),
            (FailedDocument(str(p), notice(NOT_A_FILE)),),
            (LoadedFile(str(p), n_failed=1),),
        )
    docs, failed, info = _load(p.name, None, str(p), size, max_bytes, p.read_bytes, time_budget_s)
    return _finish(docs, failed, [info])


def load_paths(
    paths: Iterable[str | Path],
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    time_budget_s: float | None = DEFAULT_TIME_BUDGET_S,
) -> LoadReport:
    """Load several files; duplicate doc ids after the first become failures."""
    # keep the files' own order so "first loaded wins" follows the given order
    return merge_reports(
        [load_file(p, max_bytes=max_bytes, time_budget_s=time_budget_s) for p in paths]
    )


def _walk(root: Path) -> list[Path]:
    """Files under ``root``, sorted; a dangling link is kept (it is reported, not skipped)."""
    out: list[Path] = []
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).parts
        if any(part.startswith(".") for part in rel):
            continue
        if any(part == "questions" for part in rel[:-1]) or (p.is_dir()):
            continue
        if p.is_file() or p.is_symlink():
            out.append(p)
    return out


def load_directory(directory: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> LoadReport:
    """Load every file under ``directory`` (recursive, sorted paths).

    Hidden files and folders (names starting with ``.``) and any folder named
    ``questions`` are skipped; files of unsupported types become failures.
    """
    root = Path(directory)
    if not root.is_dir():
        raise ValueError(f"{str(root)!r} is not a directory")
    return load_paths(_walk(root), max_bytes=max_bytes)


def load_corpus(directory: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> LoadReport:
    """Load a corpus folder: ``dir/docs`` if present, a BEIR ``corpus.jsonl``, else ``dir``.

    A path to a single file loads that file.
    """
    root = Path(directory)
    if root.is_file():
        return load_file(root, max_bytes=max_bytes)
    if not root.is_dir():
        raise ValueError(f"corpus {str(root)!r} is neither a directory nor a file")
    if (root / "docs").is_dir():
        return load_directory(root / "docs", max_bytes=max_bytes)
    if (root / "corpus.jsonl").is_file():
        return load_file(root / "corpus.jsonl", max_bytes=max_bytes)
    return load_directory(root, max_bytes=max_bytes)
