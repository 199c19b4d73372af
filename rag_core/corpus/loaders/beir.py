"""A BEIR folder: ``corpus.jsonl``, ``queries.jsonl`` and ``qrels/<split>.tsv`` or ``qrels.tsv``."""

from __future__ import annotations

from pathlib import Path

from ...formats import guard
from ...formats.questions import json_rows
from ...types import Document, LoadReport
from ...wording import declare
from ..decoding import decode_bytes
from ._common import DEFAULT_MAX_BYTES, DUPLICATE, DUPLICATE_EARLIER, canonicalize, fail, fail_at
from .files import check_budget, load_file
from .markdown import markdown_blocks

#: Why a BEIR folder, query or qrels line was refused (``load.beir.*``).
BEIR_NO_FOLDER = declare("load.beir.no_folder", "folder")
BEIR_LACKS = declare("load.beir.lacks", "folder", "name")
BEIR_BAD_SPLIT = declare("load.beir.bad_split", "split")
BEIR_NO_QRELS = declare("load.beir.no_qrels", "folder", "split")
BEIR_NO_QRELS_SPLITS = declare("load.beir.no_qrels_splits", "folder", "split", "splits")
BEIR_BAD_QUERY = declare("load.beir.bad_query")
BEIR_QRELS_CELLS = declare("load.beir.qrels_cells", "found")


def beir_qrels_path(root: Path, split: str = "test") -> Path:
    """``qrels/<split>.tsv`` when it exists, else ``qrels.tsv`` (both BEIR layouts)."""
    if not isinstance(split, str) or not split.strip() or "/" in split or "\\" in split:
        raise fail(BEIR_BAD_SPLIT, split=repr(split))
    nested = root / "qrels" / f"{split}.tsv"
    if nested.is_file():
        return nested
    flat = root / "qrels.tsv"
    if flat.is_file():
        return flat
    splits = (
        sorted(p.stem for p in (root / "qrels").glob("*.tsv")) if (root / "qrels").is_dir() else []
    )
    folder = repr(str(root))
    if splits:
        raise fail(BEIR_NO_QRELS_SPLITS, folder=folder, split=split, splits=", ".join(splits))
    raise fail(BEIR_NO_QRELS, folder=folder, split=split)


def _with_title(doc: Document) -> Document:
    """``title + "\n\n" + text`` as the document text (Pyserini's BEIR "flat" contents).

    A row without a title gets its doc id as title (see :func:`.rows._row_document`);
    such a document keeps its text as is.
    """
    if not doc.title or doc.title == doc.doc_id:
        return doc
    text = f"{doc.title}\n\n{doc.text}"
    return Document(
        doc_id=doc.doc_id,
        title=doc.title,
        text=text,
        source=doc.source,
        version=doc.version,
        path=doc.path,
        format=doc.format,
        blocks=markdown_blocks(text),
        metadata=doc.metadata,
    )


def load_beir(
    directory: str | Path,
    *,
    split: str = "test",
    title_in_text: bool = False,
    duplicates: dict[str, int] | None = None,
    time_budget_s: float | None = None,
) -> tuple[LoadReport, dict[str, str], dict[str, dict[str, int]]]:
    """Load a BEIR folder: ``corpus.jsonl``, ``queries.jsonl``, ``qrels/<split>.tsv`` or
    ``qrels.tsv``.

    Returns:
        ``(corpus report, {query id: text}, {query id: {doc id: grade}})``.
        The qrels file has a header line and ``query-id\tcorpus-id\tscore``
        rows (ids may contain spaces). ``qrels/<split>.tsv`` is used when it
        exists, else ``qrels.tsv``. The corpus is loaded without the size cap
        and, unless ``time_budget_s`` is given (an uploaded zip's corpus), without
        the time budget (a BEIR folder is chosen on purpose).
        With ``title_in_text`` a document's text is ``title + "\n\n" + text``
        (what BEIR's and Pyserini's BM25 baselines index; offsets refer to it).

        A query id or a (query, document) judgement that repeats keeps its first
        line; with ``duplicates`` (a dict) the repeats are counted into it under
        ``documents`` (corpus rows whose ``_id`` repeats: failures of the report),
        ``queries`` and ``judgements``, so the caller can say how many were dropped.

    Raises:
        ValueError: a missing folder or file, or a malformed query / qrels line (named).
    """
    corpus, queries_path, qrels_path = _beir_files(Path(directory), split)
    check_budget(time_budget_s)
    report = load_file(
        corpus, max_bytes=max(DEFAULT_MAX_BYTES, corpus.stat().st_size), time_budget_s=time_budget_s
    )
    if title_in_text:
        report = LoadReport(
            tuple(_with_title(d) for d in report.documents), report.failed, report.files
        )
    queries, repeated_queries = _beir_queries(queries_path)
    qrels, repeated_judgements = _beir_qrels(qrels_path)
    if duplicates is not None:
        duplicates["documents"] = sum(
            f.notice is not None and f.notice.code in (DUPLICATE, DUPLICATE_EARLIER)
            for f in report.failed
        )
        duplicates["queries"] = repeated_queries
        duplicates["judgements"] = repeated_judgements
    return report, queries, qrels


def _beir_files(root: Path, split: str) -> tuple[Path, Path, Path]:
    """The corpus, queries and qrels files of BEIR folder ``root``; ``ValueError`` naming the
    one missing."""
    if not root.is_dir():
        raise fail(BEIR_NO_FOLDER, folder=repr(str(root)))
    corpus = root / "corpus.jsonl"
    queries_path = root / "queries.jsonl"
    for p in (corpus, queries_path):
        if not p.is_file():
            raise fail(BEIR_LACKS, folder=repr(str(root)), name=p.name)
    return corpus, queries_path, beir_qrels_path(root, split)


def _beir_queries(path: Path) -> tuple[dict[str, str], int]:
    """``queries.jsonl`` → ``{query id: text}`` (the first line of a repeated id) and how many
    lines repeated one."""
    queries: dict[str, str] = {}
    repeated = 0
    lines = decode_bytes(path.read_bytes()).lstrip("\ufeff").split("\n")
    for no, row in json_rows(lines, path.name):
        if not isinstance(row, dict) or "_id" not in row or not isinstance(row.get("text"), str):
            raise fail_at(guard.line(path.name, no), BEIR_BAD_QUERY)
        qid = str(row["_id"])
        if qid in queries:
            repeated += 1
            continue
        queries[qid] = canonicalize(row["text"])
    return queries, repeated


def _beir_qrels(path: Path) -> tuple[dict[str, dict[str, int]], int]:
    """A BEIR ``qrels.tsv`` (an optional header, then ``query-id<TAB>corpus-id<TAB>score``) →
    ``{query id: {doc id: grade}}`` (a repeated judgement keeps its first line) and how many
    lines repeated one."""
    qrels: dict[str, dict[str, int]] = {}
    repeated = 0
    lines = decode_bytes(path.read_bytes()).lstrip("\ufeff").split("\n")
    for no, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        cells = line.split("\t")
        if no == 1 and cells[0].strip().lower() in ("query-id", "query_id", "qid"):
            continue
        if len(cells) != 3:
            raise fail_at(guard.line(path.name, no), BEIR_QRELS_CELLS, found=len(cells))
        score = guard.grade(cells[2], guard.line(path.name, no), "score")
        judged = qrels.setdefault(cells[0], {})
        if cells[1] in judged:
            repeated += 1
            continue
        judged[cells[1]] = score
    return qrels, repeated
