"""Read and write TREC qrels and runs, and read BEIR ``qrels.tsv``.

Formats (whitespace-separated, one record per line):

* TREC qrels: ``qid iteration docid grade`` — ``iteration`` is ignored
  (written as ``0``), ``grade`` an integer (≤ 0: not relevant).
* TREC run: ``qid Q0 docid rank score tag`` — like trec_eval we rank by
  ``score`` (descending; ties by docid descending) and keep ``rank`` only as
  written; the tag is ignored on reading.
* BEIR qrels: a header line (``query-id  corpus-id  score``) then
  tab-separated rows. Ids may contain spaces (e.g. ``"finance - 가이드.pdf - 4"``).

Ids with whitespace cannot be written in the TREC formats: by default the
writers raise ``ValueError`` naming the id. With ``escape=True`` they write
every whitespace character and ``%`` percent-encoded as UTF-8 (``" "`` →
``%20``, ``"%"`` → ``%25``); read such a file back with ``unescape=True``.
Other tools then see the escaped ids, consistently in qrels and run.

Reading errors raise ``ValueError`` naming the file, the line and the reason:
``"run.txt line 7: rank 'one' is not an integer"`` (a :class:`~rag_core.wording.NoticeError`
whose notice carries the same as codes, ``load.at`` over ``file.*``). :func:`run_lines` is the one
reader of TREC run lines; ``rag_core.retrieval.runs`` builds imported runs on it.
Writers go through :mod:`rag_core.formats.output`: a file is replaced all or nothing, a device
or FIFO is written in place, an input is never overwritten.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import unquote

from ..types import Notice
from ..wording import declare, notice, refused
from . import guard
from .guard import at

Qrels = dict[str, dict[str, int]]
Run = dict[str, dict[str, float]]
RunLike = Mapping[str, Sequence[str] | Mapping[str, float]]
QrelsFormat = Literal["auto", "trec", "beir"]

#: Why a qrels or run file was refused (under ``load.at``; English in ``rag_core.wording``).
NOT_FOUND = declare("file.not_found")
NOT_UTF8 = declare("file.not_utf8", "error", "byte")
BAD_ESCAPE = declare("file.bad_escape", "what", "value")
ID_WHAT = {name: declare(f"file.what.{name}") for name in ("query_id", "doc_id")}
QRELS_FIELDS = declare("file.qrels.fields", "found", "line")
JUDGED_TWICE = declare("file.qrels.judged_twice", "qid", "doc", "first")
BEIR_HEADER = declare("file.beir.header", "line")
BEIR_FIELDS = declare("file.beir.fields", "found", "line")
BEIR_EMPTY_ID = declare("file.beir.empty_id")
BEIR_EMPTY = declare("file.beir.empty")
RUN_FIELDS = declare("file.run.fields", "found", "line")
RUN_BAD_RANK = declare("file.run.bad_rank", "value")
RUN_LISTED_TWICE = declare("file.run.listed_twice", "qid", "doc", "first")
#: Writing qrels and runs: what the TREC format cannot carry.
WRITE_WHAT = {
    w: declare(f"file.write.what.{w.replace(' ', '_')}") for w in ("query id", "doc id", "run tag")
}
WRITE_EMPTY_ID = declare("file.write.empty_id", "what", "value")
WRITE_SPACE_IN_ID = declare("file.write.space_in_id", "what", "value")
WRITE_BAD_GRADE = declare("file.write.bad_grade", "qid", "doc", "grade")
WRITE_ID_TWICE = declare("file.write.id_twice", "qid")


# ------------------------------------------------------------------ ranking


def rank_by_score(scores: Mapping[str, float]) -> list[str]:
    """Order ids as trec_eval does: score descending, ties by id *descending*.

    trec_eval ignores the rank column of a run and sorts by score; its
    comparator (``comp_sim_docno`` in ``form_res_rels.c``) breaks ties with
    ``strcmp(b, a)``, i.e. the larger docno first. pytrec_eval (and
    ir_measures through it) inherit this: with ``a``, ``b``, ``c`` all scored
    1.0, ``c`` is rank 1. Python compares ``str`` by code point, which orders
    like ``strcmp`` over UTF-8 bytes, so the two agree on any id.
    """
    for doc, score in scores.items():
        if not math.isfinite(float(score)):
            raise ValueError(f"score of id {doc!r} must be a finite number; got {score!r}")
    by_id_desc = sorted(scores, reverse=True)
    # sorted() is stable, so equal scores keep the id-descending order.
    return sorted(by_id_desc, key=lambda doc: -float(scores[doc]))


def as_ranking(qid: str, entry: Sequence[str] | Mapping[str, float]) -> list[str]:
    """A run entry as a ranked list: scores are ranked by :func:`rank_by_score`."""
    if isinstance(entry, Mapping):
        return rank_by_score(entry)
    if isinstance(entry, (str, bytes)) or not isinstance(entry, Sequence):
        raise ValueError(
            f"run entry for query {qid!r} must be a ranked list of ids or a mapping "
            f"id → score; got {type(entry).__name__}"
        )
    return list(entry)


# ------------------------------------------------------------------ escaping


def escape_id(text: str) -> str:
    """Percent-encode ``%`` and every whitespace character (as UTF-8 bytes)."""
    out = []
    for ch in text:
        if ch == "%" or ch.isspace():
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)


def unescape_id(text: str) -> str:
    """Inverse of :func:`escape_id`."""
    return unquote(text, errors="strict")


def _writable_id(value: str, what: str, escape: bool) -> str:
    if not isinstance(value, str) or value == "":
        raise refused(WRITE_EMPTY_ID, what=notice(WRITE_WHAT[what]), value=value)
    if escape:
        return escape_id(value)
    if any(ch.isspace() for ch in value):
        raise refused(WRITE_SPACE_IN_ID, what=notice(WRITE_WHAT[what]), value=value)
    return value


# ------------------------------------------------------------------- parsing


def _lines(path: str | Path) -> tuple[str, list[str]]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise at(str(p), NOT_FOUND) from None
    except UnicodeDecodeError as exc:
        raise at(str(p), NOT_UTF8, error=exc.reason, byte=exc.start) from None
    return str(p), text.splitlines()


def _id(raw: str, where: Notice, what: str, unescape: bool) -> str:
    """``raw`` percent-decoded when ``unescape``; ``what``: ``query_id`` or ``doc_id``."""
    if not unescape:
        return raw
    try:
        return unescape_id(raw)
    except UnicodeDecodeError:
        raise at(where, BAD_ESCAPE, what=notice(ID_WHAT[what]), value=repr(raw)) from None


def parse_qrels(lines: Iterable[str], source: str = "<qrels>", *, unescape: bool = False) -> Qrels:
    """Parse TREC qrels lines ``qid iteration docid grade``; blank lines are skipped."""
    qrels: Qrels = {}
    first_seen: dict[tuple[str, str], int] = {}
    for number, line in enumerate(lines, start=1):
        where = guard.line(source, number)
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 4:
            raise at(where, QRELS_FIELDS, found=len(fields), line=repr(line.strip()))
        qid_raw, _iteration, doc_raw, grade_raw = fields
        grade = guard.grade(grade_raw, where)
        qid = _id(qid_raw, where, "query_id", unescape)
        doc = _id(doc_raw, where, "doc_id", unescape)
        _judge(qrels, first_seen, qid, doc, grade, where, number)
    return qrels


def _judge(
    qrels: Qrels,
    first_seen: dict[tuple[str, str], int],
    qid: str,
    doc: str,
    grade: int,
    where: Notice,
    number: int,
) -> None:
    """Record ``grade`` for (``qid``, ``doc``) read at line ``number``; judged twice: ValueError."""
    if (qid, doc) in first_seen:
        first = first_seen[(qid, doc)]
        raise at(where, JUDGED_TWICE, qid=repr(qid), doc=repr(doc), first=first)
    first_seen[(qid, doc)] = number
    qrels.setdefault(qid, {})[doc] = grade


def parse_beir_qrels(lines: Iterable[str], source: str = "<qrels.tsv>") -> Qrels:
    """Parse BEIR ``qrels.tsv``: a header line, then ``query-id<TAB>corpus-id<TAB>score``."""
    qrels: Qrels = {}
    first_seen: dict[tuple[str, str], int] = {}
    header_seen = False
    for number, line in enumerate(lines, start=1):
        where = guard.line(source, number)
        if not line.strip():
            continue
        fields = line.rstrip("\r\n").split("\t")
        if not header_seen:
            header_seen = True
            if [f.strip().lower() for f in fields][:2] == ["query-id", "corpus-id"]:
                continue
            raise at(where, BEIR_HEADER, line=repr(line.strip()))
        if len(fields) != 3:
            raise at(where, BEIR_FIELDS, found=len(fields), line=repr(line.strip()))
        qid, doc, grade_raw = (f.strip() for f in fields)
        if not qid or not doc:
            raise at(where, BEIR_EMPTY_ID)
        grade = guard.grade(grade_raw, where, "score")
        _judge(qrels, first_seen, qid, doc, grade, where, number)
    if not header_seen:
        raise at(source, BEIR_EMPTY)
    return qrels


@dataclass(frozen=True)
class RunLine:
    """One validated TREC run line ``qid Q0 docid rank score tag``."""

    number: int
    where: Notice
    qid: str
    docid: str
    rank: int
    score: float
    tag: str


def run_lines(
    lines: Iterable[str], source: str = "<run>", *, unescape: bool = False
) -> Iterator[RunLine]:
    """Tokenise and validate TREC run lines; blank lines are skipped.

    Each line must have 6 whitespace-separated fields, an integer ``rank`` and a
    finite ``score``; ids are percent-decoded when ``unescape``. The tag is
    returned as written.
    """
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if not fields:
            continue
        where = guard.line(source, number)
        if len(fields) != 6:
            raise at(where, RUN_FIELDS, found=len(fields), line=repr(line.strip()[:80]))
        qid_raw, _q0, doc_raw, rank_raw, score_raw, tag = fields
        try:
            rank = int(rank_raw)
        except ValueError:
            raise at(where, RUN_BAD_RANK, value=repr(rank_raw)) from None
        score = guard.finite_float(score_raw, where)
        qid = _id(qid_raw, where, "query_id", unescape)
        doc = _id(doc_raw, where, "doc_id", unescape)
        yield RunLine(number, where, qid, doc, rank, score, tag)


def parse_run(lines: Iterable[str], source: str = "<run>", *, unescape: bool = False) -> Run:
    """Parse TREC run lines ``qid Q0 docid rank score tag`` into ``{qid: {docid: score}}``."""
    run: Run = {}
    first_seen: dict[tuple[str, str], int] = {}
    for row in run_lines(lines, source, unescape=unescape):
        if (row.qid, row.docid) in first_seen:
            first = first_seen[(row.qid, row.docid)]
            raise at(
                row.where, RUN_LISTED_TWICE, qid=repr(row.qid), doc=repr(row.docid), first=first
            )
        first_seen[(row.qid, row.docid)] = row.number
        run.setdefault(row.qid, {})[row.docid] = row.score
    return run


def sniff_qrels_format(first_line: str) -> Literal["trec", "beir"]:
    """``beir`` when the first non-blank line is a tab-separated ``query-id`` header."""
    head = first_line.split("\t")
    return "beir" if len(head) >= 2 and head[0].strip().lower() == "query-id" else "trec"


def read_qrels(path: str | Path, fmt: QrelsFormat = "auto", *, unescape: bool = False) -> Qrels:
    """Read qrels from ``path``: TREC, BEIR ``qrels.tsv``, or ``auto`` (sniffed from the header)."""
    if fmt not in ("auto", "trec", "beir"):
        raise ValueError(f"unknown qrels format {fmt!r}; valid choices: auto, trec, beir")
    source, lines = _lines(path)
    if fmt == "auto":
        first = next((ln for ln in lines if ln.strip()), "")
        fmt = sniff_qrels_format(first)
    if fmt == "beir":
        return parse_beir_qrels(lines, source)
    return parse_qrels(lines, source, unescape=unescape)


def read_run(path: str | Path, *, unescape: bool = False) -> Run:
    """Read a TREC run file into ``{qid: {docid: score}}``."""
    source, lines = _lines(path)
    return parse_run(lines, source, unescape=unescape)


# ------------------------------------------------------------------- writing


def format_qrels(qrels: Mapping[str, Mapping[str, int]], *, escape: bool = False) -> str:
    """TREC qrels text: ``qid 0 docid grade`` per judgement, in input order."""
    out = []
    for qid, grades in qrels.items():
        q = _writable_id(qid, "query id", escape)
        for doc, grade in grades.items():
            try:
                if isinstance(grade, bool):
                    raise TypeError
                value = operator.index(grade)
            except TypeError:
                raise refused(WRITE_BAD_GRADE, qid=qid, doc=doc, grade=grade) from None
            out.append(f"{q} 0 {_writable_id(doc, 'doc id', escape)} {value}\n")
    return "".join(out)


def format_run(run: RunLike, tag: str = "rag_core", *, escape: bool = False) -> str:
    """TREC run text: ``qid Q0 docid rank score tag``.

    A run entry is a ranked list of ids (written with score ``n − rank + 1``,
    so that score order equals list order) or a mapping id → score (ranked as
    trec_eval ranks it; scores written with ``repr`` so they read back exactly).
    """
    t = _writable_id(tag, "run tag", False)
    out = []
    for qid, entry in run.items():
        q = _writable_id(qid, "query id", escape)
        ranking = as_ranking(qid, entry)
        if isinstance(entry, Mapping):
            scores = [float(entry[d]) for d in ranking]
        else:
            if len(set(ranking)) != len(ranking):
                raise refused(WRITE_ID_TWICE, qid=qid)
            scores = [float(len(ranking) - i) for i in range(len(ranking))]
        for rank, (doc, score) in enumerate(zip(ranking, scores, strict=True), start=1):
            out.append(f"{q} Q0 {_writable_id(doc, 'doc id', escape)} {rank} {score!r} {t}\n")
    return "".join(out)


__all__ = [
    "Qrels",
    "Run",
    "RunLine",
    "escape_id",
    "format_qrels",
    "format_run",
    "parse_beir_qrels",
    "parse_qrels",
    "parse_run",
    "read_qrels",
    "read_run",
    "run_lines",
    "sniff_qrels_format",
    "unescape_id",
]
