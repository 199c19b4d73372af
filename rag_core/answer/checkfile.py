"""Check answers users already have: JSONL rows of question, contexts and answer.

A row is ``{"id", "question", "contexts": [str, …], "answer"}``; also accepted: ``passages``
for ``contexts`` and ``response`` for ``answer`` (RAGTruth), and Ragas' ``user_input`` /
``retrieved_contexts`` / ``response``. Each context becomes source ``[n]`` (1-based, in
order). The output is one JSON object per row::

    {"id", "flagged": bool, "claims": [{"start", "end", "text", "verdict", "p_supported",
     "evidence": [{"n", "start", "end", "sentence"}]}]}

with ``start``/``end`` character offsets into the answer (claims) or into context ``n``
(evidence; one entry per sentence of the best window). ``flagged`` is true when a claim is
``unsupported`` or ``contradicted``. A bad row yields one :class:`RowError` (file, line and a
``support.row.*`` notice saying what is wrong) and the other rows are still checked. The
``python -m rag_core support`` command over these functions is in ``rag_core/cli.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rag_core import models  # models.get_* read at call time (tests swap them)
from rag_core.answer.support import check_support, flagged
from rag_core.config import SupportConfig
from rag_core.models import ModelUnavailable
from rag_core.retrieval.dense import choose_dense_model
from rag_core.types import ContextStage, Notice, Source, SupportStage
from rag_core.wording import declare, english, notice

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
#: ``support.judge`` is on but no judge can be had (``reason``: a notice or text).
SUPPORT_JUDGE_UNAVAILABLE = declare("support.judge_unavailable", "model", "reason")
JUDGE_NO_GENERATOR = declare("support.judge.no_generator")
JUDGE_NO_PROBABILITY = declare("support.judge.no_probability")


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
    """A row that could not be read: ``file:line: problem``."""

    file: str
    line: int
    problem: Notice

    @property
    def notice(self) -> Notice:
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
    rid = obj.get("id", default_id)
    return Row(str(rid), question, tuple(contexts), answer)


def parse_lines(lines: Iterable[str], name: str) -> Iterator[Row | RowError]:
    """Rows of JSONL ``lines`` (of file ``name``) in order; blank lines are skipped and a line
    that is not a valid row yields a :class:`RowError`."""
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            yield RowError(name, lineno, notice(ROW_NOT_JSON, error=str(exc)))
            continue
        try:
            yield parse_row(obj, default_id=str(lineno))
        except RowProblem as exc:
            yield RowError(name, lineno, exc.problem)


def read_rows(path: str | Path) -> Iterator[Row | RowError]:
    """Rows of a JSONL file in order (:func:`parse_lines`)."""
    p = Path(path)
    with p.open(encoding="utf-8") as f:
        yield from parse_lines(f, p.name)


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


def judge_for(model: str, dtype: str = "auto") -> tuple[Any, Notice | None]:
    """The judge ``support.judge`` asks: generator ``model`` when it can give ``P(yes)``
    (``p_yes(system, user)``), else ``None`` and the ``support.judge_unavailable`` notice."""
    if model == "none":
        return None, notice(
            SUPPORT_JUDGE_UNAVAILABLE, model=model, reason=notice(JUDGE_NO_GENERATOR)
        )
    try:
        gen = models.get_generator(model, dtype=dtype)
    except ModelUnavailable as exc:
        return None, notice(SUPPORT_JUDGE_UNAVAILABLE, model=exc.name, reason=exc.notice)
    return judge_or_notice(gen, model)


def judge_or_notice(gen: Any, model: str) -> tuple[Any, Notice | None]:
    """``(gen, None)`` when ``gen`` can judge (has ``p_yes``), else ``None`` and why not."""
    if callable(getattr(gen, "p_yes", None)):
        return gen, None
    return None, notice(SUPPORT_JUDGE_UNAVAILABLE, model=model, reason=notice(JUDGE_NO_PROBABILITY))


def check_row(
    row: Row, cfg: SupportConfig, *, embedder: Any = None, judge: Any = None
) -> SupportStage:
    """The support stage of one row."""
    return check_support(
        row.answer,
        context_stage(row.contexts),
        cfg,
        embedder=embedder,
        judge=judge,
        question=row.question,
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
                "evidence": evidence,
            }
        )
    return {"id": row.id, "flagged": flagged(stage), "claims": claims}


def summary_line(res: Mapping[str, Any]) -> str:
    """``id: FLAGGED 2 of 5 claims unsupported/contradicted`` for people."""
    judged = [c for c in res["claims"] if c["verdict"] != "not-a-claim"]
    bad = [c for c in judged if c["verdict"] in ("unsupported", "contradicted")]
    head = "FLAGGED" if res["flagged"] else "ok"
    return f"{res['id']}: {head} — {len(bad)} of {len(judged)} claims unsupported or contradicted"


def check_file(
    path: str | Path,
    cfg: SupportConfig,
    *,
    judge: Any = None,
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
