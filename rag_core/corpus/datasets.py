"""Test collections with qrels (BEIR folders, TREC topics + qrels) as corpus + question set.

A :class:`QrelsSet` is what ``ir_datasets``/Pyserini users expect: documents,
queries and graded **document-level** judgements. Each judged query becomes a
:class:`~rag_core.types.Question` whose needles are document-level
(``origin = "qrels"``, see :func:`rag_core.gold.relevance.is_document_level`): any
chunk of a relevant document is gold, and evaluation ranks documents by their
best chunk (:func:`rag_core.evaluation.run.evaluate_config` with ``doc_qrels``).

Formats:

* BEIR (Thakur et al., 2021): ``corpus.jsonl`` (``_id``, ``title``, ``text``),
  ``queries.jsonl`` (``_id``, ``text``), ``qrels/<split>.tsv`` or ``qrels.tsv``.
* TREC: a corpus (any folder/file :func:`rag_core.corpus.loaders.load_corpus` reads),
  a topics file — SGML ``<top><num>…<title>…</top>`` (the classic TREC form)
  or ``qid<TAB>query`` lines (the form Pyserini and ``ir_datasets`` export) —
  and TREC qrels ``qid iteration docid grade``.

Uploaded zips are unpacked by :func:`safe_extract_zip`: no absolute paths, no
``..``, no links, and caps on member count and unpacked bytes (a zip bomb is
refused before anything is written).
"""

from __future__ import annotations

import io
import re
import stat
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from zlib import error as zlib_error

from ..formats import guard
from ..formats.guard import at
from ..formats.trec import NOT_UTF8, read_qrels
from ..types import DOC_LEVEL, LoadReport, Needle, Notice, Question
from ..wording import declare, english, notice, refused
from .loaders import canonicalize, load_beir, load_corpus

#: Caps for an uploaded dataset zip.
ZIP_MAX_FILES = 10_000
ZIP_MAX_BYTES = 1024 * 1024 * 1024  # unpacked, all members together


#: Why a dataset folder, topics file or zip was refused, and why a zip member was skipped
#: (``dataset.*``; English in ``rag_core.wording``).
UNKNOWN_QUERIES = declare("dataset.unknown_queries", "n", "shown")
WHY = declare("dataset.why", "reason")
BEIR_NO_DOCUMENT = declare("dataset.beir_no_document", "folder", "why")
CORPUS_NO_DOCUMENT = declare("dataset.corpus_no_document", "corpus", "why")
TOPIC_INCOMPLETE = declare("dataset.topic_incomplete", "topic")
TOPIC_REPEATS = declare("dataset.topic_repeats", "topic", "qid")
NO_TOPIC = declare("dataset.no_topic")
TOPICS_CELLS = declare("dataset.topics_cells", "found")
TOPICS_REPEAT = declare("dataset.topics_repeat", "qid")
TOPICS_EMPTY = declare("dataset.topics_empty")
ROLE = {name: declare(f"dataset.role.{name}") for name in ("corpus", "topics", "qrels")}
MISSING = declare("dataset.missing", "what", "path")
NO_ROLE_FILE = declare("dataset.no_role_file", "folder", "role", "pattern")
SEVERAL_FILES = declare("dataset.several_files", "folder", "role", "names")
NO_CORPUS = declare("dataset.no_corpus", "folder")
NO_PATH = declare("dataset.no_path")
NO_FOLDER = declare("dataset.no_folder", "folder")
ZIP_TOO_MANY = declare("dataset.zip.too_many", "n", "limit")
ZIP_TOO_BIG = declare("dataset.zip.too_big", "size", "limit")
ZIP_OVER = declare("dataset.zip.over", "limit")
ZIP_OUTSIDE = declare("dataset.zip.outside", "member")
ZIP_LINK = declare("dataset.zip.link", "member")
NOT_A_ZIP = declare("dataset.zip.not_a_zip")
SKIPPED = declare("dataset.zip.skipped", "member", "why")
SKIP_LONG_NAME = declare("dataset.zip.skip.long_name", "limit")
SKIP_FILE_EXISTS = declare("dataset.zip.skip.file_exists")
SKIP_FOLDER_EXISTS = declare("dataset.zip.skip.folder_exists")
SKIP_FOLDER_NAME = declare("dataset.zip.skip.folder_name")
SKIP_ENCRYPTED = declare("dataset.zip.skip.encrypted")
SKIP_COMPRESSION = declare("dataset.zip.skip.compression", "method")
SKIP_CRC = declare("dataset.zip.skip.crc")
SKIP_DAMAGED = declare("dataset.zip.skip.damaged")
SKIP_IN_PATH = declare("dataset.zip.skip.in_path")
SKIP_CANNOT_UNPACK = declare("dataset.zip.skip.cannot_unpack", "error")
#: A judged query with no text, left out of the question set (its judgements are not scored).
EMPTY_QUERY = declare("dataset.empty_query", "qid")


@dataclass(frozen=True)
class QrelsSet:
    """A corpus with queries and graded document-level judgements.

    Attributes:
        name: shown name (the folder name).
        report: the loaded corpus.
        queries: every query id → text (judged or not).
        qrels: query id → doc id → grade (≤ 0: judged not relevant).
        questions: one :class:`Question` per judged query (query order).
        split: the qrels split used.
        unknown_docs: judged doc ids missing from the corpus (reported, kept out of gold).
        duplicates: BEIR: repeats dropped (the first line kept) by kind —
            ``documents`` (corpus ``_id``), ``queries`` (query id), ``judgements``
            (the same query and document judged twice).
    """

    name: str
    report: LoadReport
    queries: Mapping[str, str]
    qrels: Mapping[str, Mapping[str, int]]
    questions: tuple[Question, ...]
    split: str = "test"
    unknown_docs: tuple[str, ...] = field(default=())
    duplicates: Mapping[str, int] = field(default_factory=dict)
    #: Zip members not unpacked, one notice each (:func:`safe_extract_zip`).
    skipped: tuple[Notice, ...] = ()
    #: Judged queries left out of ``questions``, one notice each (``dataset.empty_query``).
    left_out: tuple[Notice, ...] = ()

    def warnings(self) -> tuple[str, ...]:
        """One English line per thing loaded otherwise than written: repeats dropped and
        judged documents the corpus lacks (the CLI prints them on stderr)."""
        out = [
            f"{self.name}: {n} repeated {kind} dropped (the first line of each kept)"
            for kind, n in self.duplicates.items()
            if n
        ]
        out += [english(n) for n in (*self.skipped, *self.left_out)]
        if self.unknown_docs:
            out.append(
                f"{self.name}: the qrels judge {len(self.unknown_docs)} document(s) the corpus "
                f"lacks (left out of the gold; trec_eval would count them): "
                + ", ".join(repr(d) for d in self.unknown_docs[:3])
                + (", …" if len(self.unknown_docs) > 3 else "")
            )
        return tuple(out)

    @property
    def n_judgements(self) -> int:
        return sum(len(v) for v in self.qrels.values())


def questions_from_qrels(
    queries: Mapping[str, str],
    qrels: Mapping[str, Mapping[str, int]],
    doc_ids: set[str] | frozenset[str],
    *,
    tag: str = "",
) -> tuple[tuple[Question, ...], tuple[str, ...]]:
    """One question per judged query with text; needles = the relevant (grade > 0) documents.

    Returns the questions (in ``queries`` order) and the judged doc ids absent
    from the corpus. A judged query without any relevant document is
    ``answerable = False`` (it has no gold); one whose text is empty is left out
    (:func:`empty_queries` says which).

    Raises:
        ValueError: a judged query id that ``queries`` lacks (named).
    """
    missing_q = [q for q in qrels if q not in queries]
    if missing_q:
        shown = ", ".join(repr(q) for q in missing_q[:5]) + (", …" if len(missing_q) > 5 else "")
        raise refused(UNKNOWN_QUERIES, n=len(missing_q), shown=shown)
    unknown: set[str] = set()
    out: list[Question] = []
    for qid, text in queries.items():
        judged = qrels.get(qid)
        if judged is None or not text.strip():
            continue
        needles = []
        for doc_id, grade in judged.items():
            if doc_id not in doc_ids:
                unknown.add(doc_id)
                continue
            if grade > 0:
                needles.append(Needle(doc_id=doc_id, text="", grade=int(grade), origin=DOC_LEVEL))
        out.append(
            Question(
                id=qid,
                lang="",
                question=text.strip(),
                needles=tuple(needles),
                answerable=bool(needles),
                tags=(tag,) if tag else (),
            )
        )
    return tuple(out), tuple(sorted(unknown))


def empty_queries(
    queries: Mapping[str, str], qrels: Mapping[str, Mapping[str, int]]
) -> tuple[Notice, ...]:
    """One ``dataset.empty_query`` per judged query whose text is empty or blank (left out of
    the questions, so one such line does not stop an evaluation of the others)."""
    return tuple(
        notice(EMPTY_QUERY, qid=repr(qid))
        for qid, text in queries.items()
        if qid in qrels and not text.strip()
    )


def load_beir_set(
    directory: str | Path, split: str = "test", *, time_budget_s: float | None = None
) -> QrelsSet:
    """A BEIR folder as a :class:`QrelsSet` (document text = ``title + "\\n\\n" + text``);
    ``time_budget_s`` bounds the corpus file's parse (:func:`load_beir`)."""
    root = Path(directory)
    duplicates: dict[str, int] = {}
    report, queries, qrels = load_beir(
        root, split=split, title_in_text=True, duplicates=duplicates, time_budget_s=time_budget_s
    )
    if not report.documents:
        raise refused(BEIR_NO_DOCUMENT, folder=repr(str(root)), why=_first_failure(report))
    docs = {d.doc_id for d in report.documents}
    questions, unknown = questions_from_qrels(queries, qrels, docs, tag=f"beir:{root.name}")
    return QrelsSet(
        root.name,
        report,
        queries,
        qrels,
        questions,
        split,
        unknown,
        duplicates,
        left_out=empty_queries(queries, qrels),
    )


_TOP_TAG = re.compile(r"<(/?)top>", re.I)
# possessive whitespace: a ``<num>`` followed by a megabyte of spaces is one linear scan
_NUM = re.compile(r"<num>\s*+(?:Number:\s*+)?(\S+)", re.I)
_TITLE = re.compile(r"<title>\s*+(?:Topic:)?(.*?)(?=<[a-z]+>|</top>|$)", re.S | re.I)


def _top_blocks(text: str) -> Iterator[str]:
    """The text of each ``<top> … </top>`` block, in one pass over the tags (linear time).

    The same blocks as the regex ``<top>(.*?)</top>`` (a ``<top>`` inside an open block
    is text of it; an unclosed trailing block is no topic), without its quadratic
    rescans of a file of many unclosed ``<top>`` tags.
    """
    start = -1
    for m in _TOP_TAG.finditer(text):
        if not m.group(1):
            if start < 0:
                start = m.end()
        elif start >= 0:
            yield text[start : m.start()]
            start = -1


def parse_topics(text: str, source: str = "<topics>") -> dict[str, str]:
    """TREC topics: SGML ``<top>`` blocks (``<num>``, ``<title>``) or ``qid<TAB>query`` lines.

    The query text of an SGML topic is its ``<title>`` field (the short
    "title" query Pyserini's ``--topics`` uses).

    Raises:
        ValueError: naming the file and the line (TSV) or topic (SGML).
    """
    text = canonicalize(text.lstrip("\ufeff"))
    out: dict[str, str] = {}
    if "<top>" in text.lower():
        for i, block in enumerate(_top_blocks(text), 1):
            num, title = _NUM.search(block), _TITLE.search(block)
            if not num or not title or not title.group(1).strip():
                raise at(source, TOPIC_INCOMPLETE, topic=i)
            qid = num.group(1)
            if qid in out:
                raise at(source, TOPIC_REPEATS, topic=i, qid=repr(qid))
            out[qid] = " ".join(title.group(1).split())
        if not out:
            raise at(source, NO_TOPIC)
        return out
    for no, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        cells = line.split("\t")
        if len(cells) != 2 or not cells[0].strip() or not cells[1].strip():
            raise at(guard.line(source, no), TOPICS_CELLS, found=len(cells))
        qid = cells[0].strip()
        if qid in out:
            raise at(guard.line(source, no), TOPICS_REPEAT, qid=repr(qid))
        out[qid] = cells[1].strip()
    if not out:
        raise at(source, TOPICS_EMPTY)
    return out


def load_trec_set(corpus: str | Path, topics: str | Path, qrels: str | Path) -> QrelsSet:
    """A corpus plus TREC topics and qrels as a :class:`QrelsSet`."""
    for what, p in (("corpus", corpus), ("topics", topics), ("qrels", qrels)):
        if not Path(p).exists():
            raise refused(MISSING, what=notice(ROLE[what]), path=repr(str(p)))
    report = load_corpus(corpus)
    if not report.documents:
        raise refused(CORPUS_NO_DOCUMENT, corpus=repr(str(corpus)), why=_first_failure(report))
    try:
        topics_text = Path(topics).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise at(str(topics), NOT_UTF8, error=exc.reason, byte=exc.start) from None
    queries = parse_topics(topics_text, Path(topics).name)
    judged = read_qrels(qrels)
    docs = {d.doc_id for d in report.documents}
    name = Path(corpus).name
    questions, unknown = questions_from_qrels(queries, judged, docs, tag=f"trec:{name}")
    return QrelsSet(
        name,
        report,
        queries,
        judged,
        questions,
        "",
        unknown,
        left_out=empty_queries(queries, judged),
    )


def _trec_role(name: str) -> str | None:
    low = name.lower()
    for role in ("topics", "qrels"):
        if low.startswith(role) or low.endswith(f".{role}"):
            return role
    return None


def find_trec_files(root: str | Path) -> tuple[Path, Path, Path]:
    """The corpus, topics and qrels of a TREC folder.

    Expected at the top of ``root``: one topics file (``topics*`` or
    ``*.topics``), one qrels file (``qrels*`` or ``*.qrels``) and the corpus:
    ``corpus.jsonl``, or a ``docs/`` or ``corpus/`` folder of documents the
    loaders read.

    Raises:
        ValueError: naming what is missing or ambiguous.
    """
    folder = Path(root)
    found: dict[str, list[Path]] = {"topics": [], "qrels": []}
    for p in sorted(folder.iterdir()):
        role = _trec_role(p.name)
        if role and p.is_file():
            found[role].append(p)
    for role, pattern in (("topics", "topics* or *.topics"), ("qrels", "qrels* or *.qrels")):
        if not found[role]:
            raise refused(
                NO_ROLE_FILE, folder=repr(str(folder)), role=notice(ROLE[role]), pattern=pattern
            )
        if len(found[role]) > 1:
            names = ", ".join(p.name for p in found[role])
            raise refused(
                SEVERAL_FILES, folder=repr(str(folder)), role=notice(ROLE[role]), names=names
            )
    if (folder / "corpus.jsonl").is_file() or (folder / "docs").is_dir():
        corpus = folder
    elif (folder / "corpus").is_dir():
        corpus = folder / "corpus"
    else:
        raise refused(NO_CORPUS, folder=repr(str(folder)))
    return corpus, found["topics"][0], found["qrels"][0]


def load_qrels_folder(
    directory: str | Path, split: str = "test", *, time_budget_s: float | None = None
) -> QrelsSet:
    """A BEIR folder (it holds ``queries.jsonl``), else a TREC folder (:func:`find_trec_files`).

    ``time_budget_s``: the per-file time budget of a BEIR corpus file (an uploaded zip's); a
    TREC corpus's files always have the loaders' own.
    """
    root = Path(directory)
    if not root.is_dir() or (root / "queries.jsonl").is_file():
        return load_beir_set(root, split, time_budget_s=time_budget_s)
    corpus, topics, qrels = find_trec_files(root)
    qset = load_trec_set(corpus, topics, qrels)
    return replace(qset, name=root.name)


def _first_failure(report: LoadReport) -> Notice | str:
    """`` (<why the first file or row failed>)``, or nothing."""
    return notice(WHY, reason=report.failed[0].notice) if report.failed else ""


#: Compression methods the standard library unpacks (PPMd, 98, and others are not).
_ZIP_METHODS = {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA}
#: The longest name part most file systems accept, in bytes (longer: OSError 36).
_NAME_MAX = 255


def _refuse_zip(infos: list[zipfile.ZipInfo], max_files: int, max_bytes: int) -> None:
    """Raise ``ValueError`` for a zip refused whole (member count, declared size, a member
    outside the folder or a link)."""
    if len(infos) > max_files:
        raise refused(ZIP_TOO_MANY, n=len(infos), limit=max_files)
    declared = sum(i.file_size for i in infos)
    if declared > max_bytes:
        raise refused(ZIP_TOO_BIG, size=declared, limit=max_bytes)
    for info in infos:
        name = info.filename.replace("\\", "/")
        parts = PurePosixPath(name).parts
        if name.startswith("/") or ".." in parts or (parts and ":" in parts[0]):
            raise refused(ZIP_OUTSIDE, member=repr(info.filename))
        if stat.S_ISLNK(info.external_attr >> 16):
            raise refused(ZIP_LINK, member=repr(info.filename))


def _member_skip(info: zipfile.ZipInfo, dest: Path, root: Path) -> Notice | None:
    """Why ``info`` is skipped before anything is written (None: unpack it, or for a folder
    member: made here). Raises ``ValueError`` for a member resolving outside ``root``."""
    name = info.filename.replace("\\", "/")
    if any(len(p.encode("utf-8", "surrogatepass")) > _NAME_MAX for p in name.split("/")):
        return notice(SKIP_LONG_NAME, limit=_NAME_MAX)
    target = (dest / name).resolve()
    if root != target and root not in target.parents:
        raise refused(ZIP_OUTSIDE, member=repr(info.filename))
    if info.is_dir():
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError:  # a file of that name is there
            return notice(SKIP_FILE_EXISTS)
        return None
    if target == root or name == "." or name.endswith("/."):
        return notice(SKIP_FOLDER_NAME)
    if info.flag_bits & 0x1:
        return notice(SKIP_ENCRYPTED)
    if info.compress_type not in _ZIP_METHODS:
        return notice(SKIP_COMPRESSION, method=info.compress_type)
    if target.exists():
        return notice(SKIP_FOLDER_EXISTS if target.is_dir() else SKIP_FILE_EXISTS)
    return None


def _write_member(
    zf: zipfile.ZipFile, info: zipfile.ZipInfo, dest: Path, written: int, max_bytes: int
) -> tuple[int, Notice | None]:
    """Unpack one file member; return the bytes written so far and why it was skipped
    (None: written). Raises ``ValueError`` once the zip passes ``max_bytes`` unpacked."""
    target = (dest / info.filename.replace("\\", "/")).resolve()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with zf.open(info) as src, open(target, "wb") as out:
            while chunk := src.read(1 << 20):
                written += len(chunk)
                if written > max_bytes:
                    raise refused(ZIP_OVER, limit=max_bytes)
                out.write(chunk)
    except zipfile.BadZipFile as exc:
        target.unlink(missing_ok=True)
        return written, notice(SKIP_CRC if "CRC" in str(exc) else SKIP_DAMAGED)
    except (OSError, NotImplementedError, RuntimeError, EOFError, zlib_error) as exc:
        if isinstance(exc, OSError) and target.is_file():
            target.unlink(missing_ok=True)
        if isinstance(exc, (FileExistsError, NotADirectoryError)):
            return written, notice(SKIP_IN_PATH)
        return written, notice(SKIP_CANNOT_UNPACK, error=type(exc).__name__)
    return written, None


def safe_extract_zip(
    data: bytes,
    dest: str | Path,
    *,
    max_files: int = ZIP_MAX_FILES,
    max_bytes: int = ZIP_MAX_BYTES,
    skipped: list[Notice] | None = None,
) -> Path:
    """Unpack an uploaded zip into ``dest``; return the dataset folder inside it.

    Refused (``ValueError``, nothing written): not a zip, more than
    ``max_files`` members, more than ``max_bytes`` unpacked (declared sizes,
    and again while writing, so a lying header cannot exceed the cap), an
    absolute path, a ``..`` part, a drive letter, or a symbolic link. The
    dataset folder is ``dest`` or its only top-level folder.

    A member that cannot be unpacked is skipped with a one-line reason appended
    to ``skipped`` (the other members still unpack): a name that is a folder
    (``.``, ``set/.``), an encrypted member, a compression the standard library
    lacks (PPMd…), a name part over 255 bytes, a file and a folder (or two
    files) of the same name, and a member whose data fails its CRC check (its
    partial file is removed). Reasons name the member, never ``dest``.
    """
    dest = Path(dest)
    notes = skipped if skipped is not None else []
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise refused(NOT_A_ZIP) from None
    with zf:
        infos = zf.infolist()
        _refuse_zip(infos, max_files, max_bytes)
        dest.mkdir(parents=True, exist_ok=True)
        written = 0
        root = dest.resolve()
        for info in infos:
            shown = info.filename[:80] + ("…" if len(info.filename) > 80 else "")
            reason = _member_skip(info, dest, root)
            if reason is None and not info.is_dir():
                written, reason = _write_member(zf, info, dest, written, max_bytes)
            if reason is not None:
                notes.append(notice(SKIPPED, member=repr(shown), why=reason))
    entries = [p for p in dest.iterdir() if not p.name.startswith(("__MACOSX", "."))]
    if len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    return dest


__all__ = [
    "QrelsSet",
    "empty_queries",
    "find_trec_files",
    "load_beir_set",
    "load_qrels_folder",
    "load_trec_set",
    "parse_topics",
    "questions_from_qrels",
    "safe_extract_zip",
]
