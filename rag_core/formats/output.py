"""Writing a person's output file so that nothing is destroyed.

Every exporter writes through :func:`open_output` (or :func:`write_text`, the same for text
made at once): the CLI's ``--output`` and ``--trec-run``, ``labels export`` and ``support
--output``.

* An output that is one of the command's inputs (the same file, a hard link to it, or an
  existing file inside an input folder) is refused before anything is opened: ``support
  --output rows.jsonl rows.jsonl`` once truncated its input before reading it.
* A new or existing regular file is written to a temporary file beside it, which replaces
  it only when complete (all or nothing; an existing file keeps its permissions). An existing
  file this user may not write is refused, as the shell's ``>`` would be.
* An existing path that is not a regular file — a device such as ``/dev/stdout`` or
  ``/dev/null``, a FIFO, a symbolic link — is written in place, never renamed over (as root,
  a rename over ``/dev/full`` replaced the device node by a regular file). A folder is refused.
* An ``OSError`` while opening, writing or closing (``ENOSPC`` from ``/dev/full``, a folder
  without write permission) is one :class:`OutputError` naming the path and the reason.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from ..wording import NoticeError, declare, notice

OUTPUT_IS_INPUT = declare("file.output.is_input", "path", "input")
OUTPUT_DIRECTORY = declare("file.output.directory", "path")
OUTPUT_FAILED = declare("file.output.failed", "path", "error")


class OutputError(NoticeError):
    """An output file refused or not written (``file.output.*``); its text is one line."""


def _failed(path: str | Path, exc: OSError | ValueError) -> OutputError:
    """``file.output.failed``: the system's reason (``strerror``), else the error's text."""
    reason = getattr(exc, "strerror", None) or str(exc)
    return OutputError(notice(OUTPUT_FAILED, path=str(path), error=reason))


def check_output(path: str | Path, inputs: Iterable[str | Path] = ()) -> None:
    """Refuse ``path`` as an output when it is a folder or an existing regular file that is one
    of ``inputs`` or lies inside an input folder.

    A device or FIFO that is also an input (``/dev/stdin`` and ``/dev/stdout`` on one
    terminal) is not refused: writing it destroys nothing.

    Raises:
        OutputError: ``file.output.directory`` or ``file.output.is_input``.
    """
    try:
        target = os.stat(path)
    except (OSError, ValueError):  # missing, or a name the system refuses: said when opened
        return
    if stat.S_ISDIR(target.st_mode):
        raise OutputError(notice(OUTPUT_DIRECTORY, path=str(path)))
    if not stat.S_ISREG(target.st_mode):
        return
    for given in inputs:
        try:
            source = os.stat(given)
        except (OSError, ValueError):
            continue
        same = (source.st_dev, source.st_ino) == (target.st_dev, target.st_ino)
        inside = stat.S_ISDIR(source.st_mode) and _inside(path, given)
        if same or inside:
            raise OutputError(notice(OUTPUT_IS_INPUT, path=str(path), input=str(given)))


def _inside(path: str | Path, folder: str | Path) -> bool:
    """``path`` (resolved) lies under ``folder`` (resolved)."""
    try:
        return Path(path).resolve().is_relative_to(Path(folder).resolve())
    except (OSError, RuntimeError):  # a symlink loop: not provably inside
        return False


class _Writer:
    """A text handle whose write and close errors are :class:`OutputError` s naming ``path``."""

    def __init__(self, fh: IO[str], path: str | Path) -> None:
        self._fh = fh
        self._path = path

    def write(self, text: str) -> int:
        try:
            return self._fh.write(text)
        except OSError as exc:
            raise _failed(self._path, exc) from None

    def close(self) -> None:
        try:
            self._fh.close()
        except OSError as exc:
            raise _failed(self._path, exc) from None


@contextmanager
def open_output(path: str | Path, inputs: Iterable[str | Path] = ()) -> Iterator[_Writer]:
    """A text handle (UTF-8, ``\\n`` newlines) that writes ``path`` without destroying anything
    (see the module docstring); ``inputs`` are the paths the command reads.

    A regular file is replaced only when the ``with`` block ends without an error; on an
    error the temporary file is removed and the old file stays.

    Raises:
        OutputError: refused (:func:`check_output`), or an ``OSError`` on the way.
    """
    check_output(path, inputs)
    try:
        before = os.lstat(path)
    except FileNotFoundError:
        before = None
    except (OSError, ValueError) as exc:  # ENAMETOOLONG, a NUL byte
        raise _failed(path, exc) from None
    if before is not None and not stat.S_ISREG(before.st_mode):
        with _in_place(path) as out:
            yield out
        return
    if before is not None and not os.access(path, os.W_OK):
        raise _failed(path, OSError(errno.EACCES, os.strerror(errno.EACCES)))
    with _replacing(path, before) as out:
        yield out


@contextmanager
def _in_place(path: str | Path) -> Iterator[_Writer]:
    """Open a device, FIFO or symbolic link's target for writing, as the shell's ``>`` does."""
    try:
        fh = open(path, "w", encoding="utf-8", newline="\n")  # noqa: SIM115 (closed below)
    except OSError as exc:
        raise _failed(path, exc) from None
    out = _Writer(fh, path)
    try:
        yield out
    except BaseException:
        with contextlib.suppress(OSError):
            fh.close()
        raise
    out.close()


@contextmanager
def _replacing(path: str | Path, before: os.stat_result | None) -> Iterator[_Writer]:
    """Write a temporary file beside ``path`` and rename it over ``path`` when complete."""
    p = Path(path)
    try:
        fd, tmp = _temp_beside(p)
    except OSError as exc:
        raise _failed(path, exc) from None
    fh = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
    try:
        yield _Writer(fh, path)
        try:
            fh.flush()
            os.fsync(fh.fileno())
            if before is not None:  # the file it replaces keeps its permissions
                os.chmod(tmp, stat.S_IMODE(before.st_mode))
            fh.close()
            os.replace(tmp, p)
        except OSError as exc:
            raise _failed(path, exc) from None
    except BaseException:
        with contextlib.suppress(OSError):  # a failed flush fails again here; the fd is closed
            fh.close()
        tmp.unlink(missing_ok=True)
        raise


def _temp_beside(p: Path) -> tuple[int, Path]:
    """A new file ``.<name>.<random>.tmp`` in ``p``'s folder, opened for writing, with the mode
    ``open()`` gives a new file (0o666 less the umask; ``mkstemp`` would give 0o600)."""
    for _ in range(100):
        tmp = p.parent / f".{p.name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, f"no free temporary name beside {p.name}")


def write_text(path: str | Path, text: str, inputs: Iterable[str | Path] = ()) -> None:
    """Write ``text`` to ``path`` through :func:`open_output` (all or nothing for a file)."""
    with open_output(path, inputs) as out:
        out.write(text)
