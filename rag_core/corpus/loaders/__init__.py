"""Load documents from files, uploads and BEIR folders into canonical text.

Every loader produces :class:`~rag_core.types.Document` objects whose ``text``
is *canonical*: Unicode NFC with ``\\n`` newlines (:func:`canonicalize`). Every
offset in the project (blocks, chunks, needles, citations) refers to it.

Formats:

- Markdown / plain text (``.md``, ``.markdown``, ``.txt``), with an optional
  front-matter block of ``key: value`` lines between two ``---`` lines;
- HTML (``.html``, ``.htm``): visible text only, one paragraph per block
  element, headings written as ``#``-heading lines;
- rows (``.csv``, ``.json`` array of objects, ``.jsonl``): one document per row
  with ``id``/``text`` (optional ``title``, ``source``, ``version``), or a BEIR
  ``corpus.jsonl`` row with ``_id``/``title``/``text``.

Bytes are decoded by :mod:`rag_core.corpus.decoding` (BOMs, UTF-8, CP949, then
``charset-normalizer``); the encoding used is reported per file in
``LoadReport.files``.

A file (or row) that cannot be loaded becomes a :class:`FailedDocument` with a
one-line reason; it never stops the other files, and no exception leaves
:func:`load_bytes` / :func:`load_file` for bad content: JSON nesting deeper than
:data:`MAX_JSON_DEPTH` and integers longer than :data:`MAX_INT_DIGITS` digits
are refused before parsing, the ``csv`` field limit is raised to the file's
size, a file over its time budget (:data:`DEFAULT_TIME_BUDGET_S`) fails, and
anything unexpected is caught at the file boundary and named. Counts are
computed from what loaded.

Modules: ``_common`` (limits, file types, failure records, the time budget),
``markdown``, ``html``, ``rows`` (one per format), ``files`` (the entry points:
uploads, files, folders, corpora) and ``beir`` (BEIR folders).
"""

from __future__ import annotations

from ._common import (
    DEFAULT_MAX_BYTES,
    DEFAULT_TIME_BUDGET_S,
    MAX_INT_DIGITS,
    MAX_JSON_DEPTH,
    MB,
    SUPPORTED_EXTENSIONS,
    canonicalize,
)
from .beir import beir_qrels_path, load_beir
from .files import (
    load_batch,
    load_bytes,
    load_corpus,
    load_directory,
    load_file,
    load_notices,
    load_paths,
    load_warnings,
    merge_reports,
)
from .html import parse_html
from .markdown import markdown_blocks, parse_front_matter, parse_markdown
from .rows import parse_rows

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_TIME_BUDGET_S",
    "MAX_INT_DIGITS",
    "MAX_JSON_DEPTH",
    "MB",
    "SUPPORTED_EXTENSIONS",
    "beir_qrels_path",
    "canonicalize",
    "load_batch",
    "load_beir",
    "load_bytes",
    "load_corpus",
    "load_directory",
    "load_file",
    "load_notices",
    "load_paths",
    "load_warnings",
    "markdown_blocks",
    "merge_reports",
    "parse_front_matter",
    "parse_html",
    "parse_markdown",
    "parse_rows",
]
