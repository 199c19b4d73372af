"""Runs from any retrieval engine, imported as retriever lists (``run:TAG``).

Two formats, sniffed from the first non-blank character:

* TREC run (what trec_eval, Pyserini, Anserini, ir_datasets and most engines
  export): ``qid Q0 docid rank score tag`` per line. Hits are ranked by score
  (descending), ties by the rank written — the order the engine meant; a file
  with several tags holds several runs.
* JSONL: one object per line, ``{"qid": …, "hits": [{"doc_id" | "chunk_id": …,
  "score": …, "text"?: …}], "tag"?: …}``; hits keep the order given. Without
  ``tag`` the run is named after the file stem.

A run becomes a retriever list named ``run:TAG`` in the same Trace as our own
lists (:func:`resolve_hits`): fusion, rerank, gate, context, generation,
support and gold marking treat it like any other list. Its ids are matched
against the loaded corpus:

1. a chunk id of the current chunking → that chunk (a run we exported
   ourselves round-trips exactly);
2. a doc id of the corpus → the document's only chunk when it has one,
   else the whole document as one span (``<doc_id>::doc``), or — when the hit
   carries ``text`` found verbatim in the document — that span;
3. anything else → an *external* chunk (``ext::<id>``) holding the hit's own
   ``text``, or no text at all: then it is shown "text unavailable" and kept
   out of the prompt with that reason.

Errors name the file and the line: ``ValueError("run.txt line 7: …")``, worded as
in ``rag_core.formats.trec`` (whose :func:`~rag_core.formats.trec.run_lines` reads the TREC
lines).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..formats import guard
from ..formats.guard import at, json_line
from ..formats.trec import (
    NOT_UTF8,
    RUN_LISTED_TWICE,
    escape_id,
    run_lines,
)
from ..types import Chunk, Chunking, Document, Hit, Notice, RetrieverList
from ..wording import NoticeError, declare, notice, refused

#: Prefix of an imported run in ``retrieval.methods`` and of its list's name.
RUN_METHOD = "run"
#: A run hit's note (``Hit.notice``; ``Hit.note`` is its English): it stands for a whole
#: document, names nothing of the corpus and has no text, or brings its own text.
RUN_WHOLE_DOCUMENT = declare("run.whole_document")
RUN_TEXT_UNAVAILABLE = declare("run.text_unavailable")
RUN_OWN_TEXT = declare("run.own_text")
#: A tag must be usable in a TREC run line and a config method spec.
_TAG = re.compile(r"^[^\s,:]+$")
MAX_RUN_BYTES = 200 * 1024 * 1024
#: Why a run file was refused (most under ``load.at``; English in ``rag_core.wording``).
BAD_TAG = declare("file.run.bad_tag", "tag")
BAD_RUN_TAG = declare("file.run.bad_run_tag", "tag")
NO_TREC_LINE = declare("file.run.no_trec_line")
NO_JSONL_LINE = declare("file.run.no_jsonl_line")
NOT_A_ROW = declare("file.run.not_a_row")
BAD_QID = declare("file.run.bad_qid")
HIT = declare("file.run.hit", "where", "hit")
HIT_NOT_OBJECT = declare("file.run.hit_not_object")
HIT_NO_ID = declare("file.run.hit_no_id")
HIT_TWICE = declare("file.run.hit_twice", "ref", "qid")
HIT_BAD_TEXT = declare("file.run.hit_bad_text")
QUERY_TWICE = declare("file.run.query_twice", "qid", "tag")
TOO_LARGE = declare("file.run.too_large", "mb")
NO_FILE = declare("file.run.no_file", "path")
UNKNOWN_QUERIES = declare("file.run.unknown_queries", "tag", "source", "n", "shown")


@dataclass(frozen=True)
class RunHit:
    """One line of a run: the engine's id (doc or chunk), its score and rank, maybe its text."""

    ref: str
    score: float
    rank: int
    text: str | None = None
    kind: str = "any"  # any (TREC docid) | doc (JSONL doc_id) | chunk (JSONL chunk_id)


@dataclass(frozen=True)
class ExternalRun:
    """An imported run: ``tag`` → per query id the ranked hits (best first)."""

    tag: str
    hits: Mapping[str, tuple[RunHit, ...]]
    source: str = ""
    fingerprint: str = ""

    @property
    def name(self) -> str:
        return f"{RUN_METHOD}:{self.tag}"

    def for_query(self, query_id: str | None) -> tuple[RunHit, ...] | None:
        """Hits of ``query_id``; a phrasing id ``q#1`` falls back to ``q``. None when absent."""
        if query_id is None:
            return None
        if query_id in self.hits:
            return self.hits[query_id]
        base = query_id.rsplit("#", 1)[0]
        return self.hits.get(base) if base != query_id else None


def check_tag(tag: str, where: Notice | None = None) -> str:
    """``tag`` when it can name the retriever list ``run:TAG``; else a ``NoticeError`` (at
    ``where``, a run file's line, when given)."""
    if not isinstance(tag, str) or not _TAG.match(tag):
        if where is None:
            raise refused(BAD_RUN_TAG, tag=repr(tag))
        raise at(where, BAD_TAG, tag=repr(tag))
    return tag


def parse_trec_run(lines: Iterable[str], source: str = "<run>") -> dict[str, ExternalRun]:
    """TREC run lines → runs by tag (see the module docstring for the order)."""
    per_tag: dict[str, dict[str, list[tuple[float, int, str]]]] = {}
    seen: dict[tuple[str, str, str], int] = {}
    for row in run_lines(lines, source, unescape=True):
        tag, qid, ref = check_tag(row.tag, row.where), row.qid, row.docid
        key = (tag, qid, ref)
        if key in seen:
            raise at(row.where, RUN_LISTED_TWICE, qid=repr(qid), doc=repr(ref), first=seen[key])
        seen[key] = row.number
        per_tag.setdefault(tag, {}).setdefault(qid, []).append((row.score, row.rank, ref))
    if not per_tag:
        raise at(source, NO_TREC_LINE)
    out = {}
    for tag, queries in per_tag.items():
        hits = {
            qid: tuple(
                RunHit(ref, score, r)
                for r, (score, _rank, ref) in enumerate(
                    sorted(rows, key=lambda x: (-x[0], x[1])), 1
                )
            )
            for qid, rows in queries.items()
        }
        out[tag] = ExternalRun(tag, hits, source)
    return out


def parse_jsonl_run(
    lines: Iterable[str], source: str = "<run>", tag: str = "run"
) -> dict[str, ExternalRun]:
    """JSONL run lines → runs by tag (the row's ``tag``, else ``tag``)."""
    per_tag: dict[str, dict[str, tuple[RunHit, ...]]] = {}
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = guard.line(source, no)
        row = json_line(line, where)  # depth and integer caps before parsing
        if not isinstance(row, dict) or not isinstance(row.get("hits"), list):
            raise at(where, NOT_A_ROW)
        qid = row.get("qid")
        if isinstance(qid, bool) or not isinstance(qid, (str, int)) or str(qid).strip() == "":
            raise at(where, BAD_QID)
        qid = str(qid)
        row_tag = check_tag(str(row.get("tag", tag)), where)
        hits: list[RunHit] = []
        refs: set[str] = set()
        for i, h in enumerate(row["hits"]):
            here = notice(HIT, where=where, hit=i)
            if not isinstance(h, dict):
                raise at(here, HIT_NOT_OBJECT)
            kind = "chunk" if "chunk_id" in h else "doc"
            ref = h.get("chunk_id", h.get("doc_id"))
            if isinstance(ref, bool) or not isinstance(ref, (str, int)) or str(ref) == "":
                raise at(here, HIT_NO_ID)
            ref = str(ref)
            if ref in refs:
                raise at(here, HIT_TWICE, ref=repr(ref), qid=repr(qid))
            refs.add(ref)
            text = h.get("text")
            if text is not None and not isinstance(text, str):
                raise at(here, HIT_BAD_TEXT)
            hits.append(RunHit(ref, guard.finite_float(h.get("score"), here), i + 1, text, kind))
        queries = per_tag.setdefault(row_tag, {})
        if qid in queries:
            raise at(where, QUERY_TWICE, qid=repr(qid), tag=repr(row_tag))
        queries[qid] = tuple(hits)
    if not per_tag:
        raise at(source, NO_JSONL_LINE)
    return {t: ExternalRun(t, q, source) for t, q in per_tag.items()}


def parse_run_bytes(name: str, data: bytes) -> dict[str, ExternalRun]:
    """A run file's bytes (TREC or JSONL, sniffed) → runs by tag, each fingerprinted."""
    if len(data) > MAX_RUN_BYTES:
        raise at(name, TOO_LARGE, mb=MAX_RUN_BYTES // (1024 * 1024))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise at(name, NOT_UTF8, error=exc.reason, byte=exc.start) from None
    lines = text.splitlines()
    first = next((ln.strip() for ln in lines if ln.strip()), "")
    stem = Path(name).stem or "run"
    stem = re.sub(r"[\s,:]+", "_", stem)
    if first.startswith("{"):
        runs = parse_jsonl_run(lines, name, tag=stem)
    else:
        runs = parse_trec_run(lines, name)
    digest = hashlib.sha256(data).hexdigest()[:16]
    return {t: ExternalRun(r.tag, r.hits, r.source, f"{digest}:{t}") for t, r in runs.items()}


def read_run_file(path: str | Path) -> dict[str, ExternalRun]:
    """Read a run file (see :func:`parse_run_bytes`)."""
    p = Path(path)
    if not p.is_file():
        raise refused(NO_FILE, path=repr(str(p)))
    return parse_run_bytes(p.name, p.read_bytes())


def check_queries(runs: Mapping[str, ExternalRun], known: Iterable[str]) -> None:
    """Raise ``ValueError`` when a run names query ids the question set lacks."""
    known_set = set(known)
    for run in runs.values():
        unknown = [
            q for q in run.hits if q not in known_set and q.rsplit("#", 1)[0] not in known_set
        ]
        if unknown:
            shown = ", ".join(repr(q) for q in unknown[:5]) + (", …" if len(unknown) > 5 else "")
            raise NoticeError(
                notice(
                    UNKNOWN_QUERIES,
                    tag=repr(run.tag),
                    source=run.source,
                    n=len(unknown),
                    shown=shown,
                )
            )


# ------------------------------------------------------------- into the Trace


def resolve_hits(
    run_hits: Sequence[RunHit],
    k: int,
    chunking: Chunking,
    docs: Mapping[str, Document],
    doc_chunks: Mapping[str, Sequence[str]],
) -> tuple[tuple[Hit, ...], dict[str, Chunk]]:
    """The run's top ``k`` as :class:`Hit` objects, and the chunks not in ``chunking``.

    See the module docstring for how ids are matched. ``doc_chunks`` maps a
    doc id to its chunk ids in the current chunking.
    """
    hits: list[Hit] = []
    extra: dict[str, Chunk] = {}
    for rank, rh in enumerate(run_hits[:k], 1):
        chunk, why = _chunk_for(rh, chunking, docs, doc_chunks)
        if chunk.chunk_id not in chunking.by_id:
            extra.setdefault(chunk.chunk_id, chunk)
        hits.append(
            Hit(
                chunk_id=chunk.chunk_id,
                doc_id=chunk.doc_id,
                rank=rank,
                score=rh.score,
                notice=why,
            )
        )
    return tuple(hits), extra


def _span_chunk(doc: Document, start: int, end: int, chunk_id: str) -> Chunk:
    content = doc.text[start:end]
    return Chunk(
        chunk_id=chunk_id,
        doc_id=doc.doc_id,
        ordinal=-1,
        start=start,
        end=end,
        own_start=start,
        content=content,
        text=content,
    )


def _chunk_for(
    rh: RunHit,
    chunking: Chunking,
    docs: Mapping[str, Document],
    doc_chunks: Mapping[str, Sequence[str]],
) -> tuple[Chunk, Notice | None]:
    """The chunk a run hit names and a note, if any (rules in the module docstring)."""
    if rh.kind != "doc" and rh.ref in chunking.by_id:
        return chunking.by_id[rh.ref], None
    doc = docs.get(rh.ref) if rh.kind != "chunk" else None
    if doc is not None:
        if rh.text:
            i = doc.text.find(rh.text)
            if i >= 0:
                end = i + len(rh.text)
                return _span_chunk(doc, i, end, f"{doc.doc_id}::span::{i}-{end}"), None
        ids = doc_chunks.get(doc.doc_id, ())
        if len(ids) == 1:
            return chunking.by_id[ids[0]], None
        whole = _span_chunk(doc, 0, len(doc.text), f"{doc.doc_id}::doc")
        return whole, notice(RUN_WHOLE_DOCUMENT)
    text = rh.text or ""
    return (
        Chunk(
            chunk_id=f"ext::{rh.ref}",
            doc_id=rh.ref,
            ordinal=-1,
            start=0,
            end=len(text),
            own_start=0,
            content=text,
            text=text,
        ),
        notice(RUN_OWN_TEXT) if text else notice(RUN_TEXT_UNAVAILABLE),
    )


def export_trec(lists: Sequence[RetrieverList], query_id: str) -> str:
    """TREC run lines of a Trace's retriever lists (tag = list name with ``:`` → ``-``).

    Ids with whitespace are percent-encoded (:func:`rag_core.formats.trec.escape_id`);
    scores are written with ``repr`` so a re-import reads them back exactly.
    """
    out = []
    q = escape_id(query_id)
    for lst in lists:
        if lst.status != "ok":
            continue
        tag = re.sub(r"[\s,:]+", "-", lst.name)
        for h in lst.hits:
            out.append(f"{q} Q0 {escape_id(h.chunk_id)} {h.rank} {float(h.score)!r} {tag}\n")
    return "".join(out)


__all__ = [
    "RUN_METHOD",
    "ExternalRun",
    "RunHit",
    "check_queries",
    "check_tag",
    "export_trec",
    "parse_jsonl_run",
    "parse_run_bytes",
    "parse_trec_run",
    "read_run_file",
    "resolve_hits",
]
