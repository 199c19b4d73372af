"""Check answers users already have: JSONL rows of question, contexts and answer.

A row is ``{"id", "question", "contexts": [str, …], "answer"}``; also accepted: ``passages``
for ``contexts`` and ``response`` for ``answer`` (RAGTruth), and Ragas' ``user_input`` /
``retrieved_contexts`` / ``response``. Each context becomes source ``[n]`` (1-based, in
order). The output is one JSON object per row::

    {"id", "flagged": bool, "claims": [{"start", "end", "text", "verdict", "p_supported",
     "flags": bool, "suspect": [[start, end], …], "evidence": [{"n", "start", "end",
     "sentence"}]}]}

with ``start``/``end`` character offsets into the answer (claims, ``suspect``: the words of a
flagging claim the generator's readings mark as made up) or into context ``n`` (evidence; one
entry per sentence of the best window). A claim ``flags`` its row when it is ``unsupported``,
``contradicted``, cites a source that is not there, or names in words a passage that does not
back it (:func:`rag_core.answer.support.flags`); ``flagged`` is true when a claim flags. A
bad row yields one :class:`RowError` (file, line and a ``support.row.*`` notice saying what is
wrong) and the other rows are still checked. The ``python -m rag_core support`` command over
these functions is ``rag_core/cli/support.py``; the bundled generator reads each answer unless
``support.readings`` is off (``--no-readings``).

**The input boundary.** A file is read as the corpus loaders read one
(:func:`rag_core.corpus.decoding.decode`: a BOM, UTF-8, CP949, UTF-16, CP1252 …; bytes that
are no text are one refusal naming the file), each line through the guard
(:func:`rag_core.formats.guard.json_line`: nesting depth 64, integers of at most 1,000
digits), and each row within stated caps, so that no row can hold a check for minutes: an
answer of at most :data:`MAX_ANSWER_CHARS` characters and :data:`MAX_CLAIMS` claims, at most
:data:`MAX_CONTEXTS` contexts of at most :data:`MAX_CONTEXT_CHARS` characters each and
:data:`MAX_CONTEXTS_CHARS` together, a question of at most :data:`MAX_QUESTION_CHARS`; a
text holding a lone surrogate (``"\\ud800"`` in JSON) is not Unicode text and is refused,
naming the field.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rag_core import models  # models.get_* read at call time (tests swap them)
from rag_core.answer.claims import split_claims
from rag_core.answer.lookback import (
    AnswerReading,
    Layout,
    generation_layout,
    read_for,
    read_own,
    reader_name,
)
from rag_core.answer.support import check_support, flagged, flags
from rag_core.config import SupportConfig
from rag_core.corpus.decoding import LoadError, decode
from rag_core.formats.guard import AT, JSON_INVALID_COLUMN, json_line
from rag_core.models import ModelUnavailable
from rag_core.models.generators import Generator, TextGenerator
from rag_core.retrieval.dense import choose_dense_model
from rag_core.types import ContextStage, Notice, Source, SupportStage
from rag_core.wording import NoticeError, declare, english, notice

QUESTION_KEYS = ("question", "user_input", "query")
CONTEXT_KEYS = ("contexts", "passages", "retrieved_contexts")
ANSWER_KEYS = ("answer", "response")

#: A row that could not be read (``problem``: one of the ``support.row.*`` notices).
SUPPORT_BAD_ROW = declare("support.bad_row", "file", "line", "problem")
ROW_NOT_JSON = declare("support.row.not_json", "error")
ROW_NOT_OBJECT = declare("support.row.not_object", "kind")
ROW_NO_ANSWER = declare("support.row.no_answer", "keys")
ROW_NO_CONTEXTS = declare("support.row.no_contexts", "keys")
ROW_BAD_QUESTION = declare("support.row.bad_question")
ROW_ANSWER_TOO_LONG = declare("support.row.answer_too_long", "chars", "limit")
ROW_TOO_MANY_CLAIMS = declare("support.row.too_many_claims", "n", "limit")
ROW_TOO_MANY_CONTEXTS = declare("support.row.too_many_contexts", "n", "limit")
ROW_CONTEXT_TOO_LONG = declare("support.row.context_too_long", "n", "chars", "limit")
ROW_CONTEXTS_TOO_LONG = declare("support.row.contexts_too_long", "chars", "limit")
ROW_QUESTION_TOO_LONG = declare("support.row.question_too_long", "chars", "limit")
ROW_NOT_TEXT = declare("support.row.not_text", "field", "at")

#: The caps on one row (module docstring): the longest answer (characters) …
MAX_ANSWER_CHARS = 20_000
#: … the most claims in it (:func:`rag_core.answer.claims.split_claims`) …
MAX_CLAIMS = 200
#: … the most contexts, the longest context and all contexts together (characters): a check
#: takes about claims × context characters (200 claims over 200,000 characters: 16 s here
#: without an embedder, 57 s with MiniLM on a loaded 2-core machine) …
MAX_CONTEXTS = 100
MAX_CONTEXT_CHARS = 100_000
MAX_CONTEXTS_CHARS = 200_000
#: … and the longest question (characters; the pipeline's own cap).
MAX_QUESTION_CHARS = 2_000
#: ``support.judge`` is on but no judge can be had (``reason``: a notice or text).
SUPPORT_JUDGE_UNAVAILABLE = declare("support.judge_unavailable", "model", "reason")
JUDGE_NO_GENERATOR = declare("support.judge.no_generator")


@dataclass(frozen=True)
class Row:
    """One answer to check."""

    id: str
    question: str
    contexts: tuple[str, ...]
    answer: str


class RowProblem(ValueError):
    """What is wrong with one row, as a notice (``str()``: its English)."""

    def __init__(self, problem: Notice) -> None:
        super().__init__(english(problem))
        self.problem = problem


@dataclass(frozen=True)
class RowError:
    """A row that could not be read: ``file:line: problem`` (``line`` 0: the whole file, e.g.
    bytes that are no text: ``file: problem``)."""

    file: str
    line: int
    problem: Notice

    @property
    def notice(self) -> Notice:
        if self.line == 0:
            return notice(AT, where=self.file, problem=self.problem)
        return notice(SUPPORT_BAD_ROW, file=self.file, line=self.line, problem=self.problem)

    @property
    def message(self) -> str:
        return english(self.problem)

    def __str__(self) -> str:
        return english(self.notice)


def _first(obj: Mapping[str, Any], keys: Sequence[str]) -> Any:
    for k in keys:
        if k in obj:
            return obj[k]
    return None


def parse_row(obj: Any, default_id: str) -> Row:
    """A :class:`Row` from one decoded JSON value (:class:`RowProblem` naming what is wrong)."""
    if not isinstance(obj, dict):
        raise RowProblem(notice(ROW_NOT_OBJECT, kind=type(obj).__name__))
    contexts = _first(obj, CONTEXT_KEYS)
    answer = _first(obj, ANSWER_KEYS)
    question = _first(obj, QUESTION_KEYS) or ""
    if answer is None or not isinstance(answer, str):
        raise RowProblem(notice(ROW_NO_ANSWER, keys=", ".join(ANSWER_KEYS)))
    if isinstance(contexts, str):
        contexts = [contexts]
    if not isinstance(contexts, list) or not all(isinstance(c, str) for c in contexts):
        raise RowProblem(notice(ROW_NO_CONTEXTS, keys=", ".join(CONTEXT_KEYS)))
    if not isinstance(question, str):
        raise RowProblem(notice(ROW_BAD_QUESTION))
    row = Row(str(obj.get("id", default_id)), question, tuple(contexts), answer)
    check_limits(row)
    return row


def check_limits(row: Row) -> None:
    """Refuse a row over a cap or holding a text that is not Unicode (module docstring).

    Raises:
        RowProblem: The first cap passed, or the first field with a lone surrogate.
    """
    _unicode("id", row.id)
    _unicode("question", row.question)
    if len(row.question) > MAX_QUESTION_CHARS:
        raise RowProblem(
            notice(ROW_QUESTION_TOO_LONG, chars=len(row.question), limit=MAX_QUESTION_CHARS)
        )
    if len(row.contexts) > MAX_CONTEXTS:
        raise RowProblem(notice(ROW_TOO_MANY_CONTEXTS, n=len(row.contexts), limit=MAX_CONTEXTS))
    for n, text in enumerate(row.contexts, start=1):
        if len(text) > MAX_CONTEXT_CHARS:
            why = notice(ROW_CONTEXT_TOO_LONG, n=n, chars=len(text), limit=MAX_CONTEXT_CHARS)
            raise RowProblem(why)
        _unicode(f"contexts[{n}]", text)
    total = sum(map(len, row.contexts))
    if total > MAX_CONTEXTS_CHARS:
        raise RowProblem(notice(ROW_CONTEXTS_TOO_LONG, chars=total, limit=MAX_CONTEXTS_CHARS))
    if len(row.answer) > MAX_ANSWER_CHARS:
        raise RowProblem(notice(ROW_ANSWER_TOO_LONG, chars=len(row.answer), limit=MAX_ANSWER_CHARS))
    _unicode("answer", row.answer)
    claims = len(split_claims(row.answer))
    if claims > MAX_CLAIMS:
        raise RowProblem(notice(ROW_TOO_MANY_CLAIMS, n=claims, limit=MAX_CLAIMS))


def _unicode(field: str, text: str) -> None:
    """Refuse ``text`` holding a lone surrogate (no UTF-8 writes it, no page shows it)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RowProblem(notice(ROW_NOT_TEXT, field=field, at=exc.start + 1)) from None


def parse_lines(lines: Iterable[str], name: str) -> Iterator[Row | RowError]:
    """Rows of JSONL ``lines`` (of file ``name``) in order; blank lines are skipped and a line
    that is not a valid row yields a :class:`RowError` (JSON through the guard's caps)."""
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json_line(line, name)
        except NoticeError as exc:  # load.at over the guard's problem: the row says where
            yield RowError(name, lineno, _json_problem(exc.notice))
            continue
        try:
            yield parse_row(obj, default_id=str(lineno))
        except RowProblem as exc:
            yield RowError(name, lineno, exc.problem)


def _json_problem(refusal: Notice) -> Notice:
    """The row's problem from the guard's ``load.at`` refusal: its problem (nesting, a long
    number), or ``support.row.not_json`` with the parser's message for bad syntax."""
    problem = refusal.params.get("problem")
    if not isinstance(problem, Notice):
        return refusal
    if problem.code == JSON_INVALID_COLUMN:
        error = f"{problem.params['error']} at column {problem.params['column']}"
        return notice(ROW_NOT_JSON, error=error)
    return problem


def parse_bytes(data: bytes, name: str) -> Iterator[Row | RowError]:
    """Rows of a JSONL file's bytes, decoded as the corpus loaders decode a file; bytes that are
    no text are one :class:`RowError` for the whole file (line 0)."""
    try:
        text = decode(data).text
    except LoadError as exc:
        yield RowError(name, 0, exc.notice)
        return
    yield from parse_lines(text.split("\n"), name)


def read_rows(path: str | Path) -> Iterator[Row | RowError]:
    """Rows of a JSONL file in order (:func:`parse_bytes`)."""
    p = Path(path)
    yield from parse_bytes(p.read_bytes(), p.name)


def context_stage(contexts: Sequence[str]) -> ContextStage:
    """Each context as source ``[n]`` with offsets into its own text."""
    sources = tuple(
        Source(
            n=i + 1,
            chunk_id=f"context-{i + 1}",
            doc_id=f"context-{i + 1}",
            title=f"context {i + 1}",
            section="",
            start=0,
            end=len(c),
            locator=f"#char=0,{len(c)}",
            quote=c,
            tokens=0,
            status="included",
        )
        for i, c in enumerate(contexts)
        if c.strip()
    )
    return ContextStage("ok", "given", "given", 0, sources)


def embedder_for(contexts: Sequence[str]) -> Any:
    """The embedder a corpus of these texts would get (``choose_dense_model``: e5 when any is
    Korean, else MiniLM); None when it is unavailable."""
    try:
        return models.get_embedder(choose_dense_model(list(contexts) or [""])[0])
    except ModelUnavailable:
        return None


def judge_for(model: str, dtype: str = "auto") -> tuple[Generator | None, Notice | None]:
    """The judge ``support.judge`` asks: generator ``model`` (its ``p_yes(system, user)``), else
    ``None`` and the ``support.judge_unavailable`` notice."""
    if model == "none":
        return None, notice(
            SUPPORT_JUDGE_UNAVAILABLE, model=model, reason=notice(JUDGE_NO_GENERATOR)
        )
    try:
        gen = models.get_generator(model, dtype=dtype)
    except ModelUnavailable as exc:
        return None, notice(SUPPORT_JUDGE_UNAVAILABLE, model=exc.name, reason=exc.notice)
    return gen, None


def _reader(cfg: SupportConfig) -> Generator | None:
    """The loaded reader, or None when ``support.readings`` is off, the reader is not installed
    or turned off (``RAG_INSPECTOR_READER=none``) or is not a local transformers model."""
    name = reader_name()
    if not cfg.readings or name is None:
        return None
    try:
        reader = models.get_generator(name)
    except ModelUnavailable:
        return None
    return reader if isinstance(reader, Generator) else None


def own_layout(
    cfg: SupportConfig, generator: object, context: ContextStage, question: str
) -> Layout | None:
    """The layout under which the reader reads the answer ``generator`` is about to write from
    ``context``'s prompt: that prompt's own (:func:`rag_core.answer.lookback.generation_layout`)
    when ``generator`` is the reader itself — its generation pass then records the readings —
    else None (the answer is read afterwards under the reading layout)."""
    name = reader_name()
    if not isinstance(generator, Generator) or name is None or generator.name != name:
        return None
    if _reader(cfg) is not generator:
        return None
    return generation_layout(generator, context, question)


def answer_reading(
    cfg: SupportConfig,
    question: str,
    sources: Sequence[Source],
    answer: str,
    layout: Layout | None = None,
) -> AnswerReading | None:
    """The bundled reader's readings of ``answer`` over the numbered ``sources``: under
    ``layout`` when given (:func:`own_layout`: the generation already recorded them, so this is
    a cache read), else under the reading layout
    (:func:`rag_core.answer.lookback.read_for`); None when there is no reader
    (:func:`_reader`) or nothing to read."""
    reader = _reader(cfg)
    if reader is None:
        return None
    if layout is not None:
        return read_own(reader, layout, answer) if answer.strip() else None
    quotes = [s.quote for s in sources if s.n is not None]
    return read_for(reader, question, quotes, answer)


def check_row(
    row: Row, cfg: SupportConfig, *, embedder: Any = None, judge: TextGenerator | None = None
) -> SupportStage:
    """The support stage of one row (read by the bundled generator when ``support.readings``)."""
    context = context_stage(row.contexts)
    return check_support(
        row.answer,
        context,
        cfg,
        embedder=embedder,
        judge=judge,
        question=row.question,
        reading=answer_reading(cfg, row.question, context.sources, row.answer),
    )


def row_result(row: Row, stage: SupportStage) -> dict[str, Any]:
    """The output object of one row (module docstring)."""
    claims = []
    for c in stage.claims:
        evidence = []
        best = max(c.evidence, key=lambda e: e.score, default=None)
        if best is not None:
            quote = row.contexts[best.n - 1]
            for a, b in best.spans or ((best.start, best.end),):
                evidence.append({"n": best.n, "start": a, "end": b, "sentence": quote[a:b]})
        claims.append(
            {
                "start": c.start,
                "end": c.end,
                "text": c.text,
                "verdict": c.verdict,
                "p_supported": c.p_supported,
                "flags": flags(c),
                "suspect": [list(x) for x in c.suspect],
                "evidence": evidence,
            }
        )
    return {"id": row.id, "flagged": flagged(stage), "claims": claims}


def summary_line(res: Mapping[str, Any]) -> str:
    """``id: FLAGGED — 2 of 5 claims flag it`` for people (:func:`~rag_core.answer.support.flags`:
    unsupported, contradicted, or citing a source that is not there)."""
    judged = [c for c in res["claims"] if c["verdict"] != "not-a-claim"]
    bad = [c for c in judged if c["flags"]]
    head = "FLAGGED" if res["flagged"] else "ok"
    return f"{res['id']}: {head} — {len(bad)} of {len(judged)} claims flag it"


def check_file(
    path: str | Path,
    cfg: SupportConfig,
    *,
    judge: TextGenerator | None = None,
    embedder: Any = "auto",
) -> Iterator[dict[str, Any] | RowError]:
    """Each row's output object (or its :class:`RowError`), in file order. ``embedder="auto"``
    picks :func:`embedder_for` the row's contexts."""
    for item in read_rows(path):
        if isinstance(item, RowError):
            yield item
            continue
        emb = embedder_for(item.contexts) if embedder == "auto" else embedder
        yield row_result(item, check_row(item, cfg, embedder=emb, judge=judge))
