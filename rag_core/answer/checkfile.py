"""Check answers users already have: JSONL rows of question, contexts and answer.

A row is ``{"id", "question", "contexts": [str, …], "answer"}``; also accepted: ``passages``
for ``contexts`` and ``response`` for ``answer`` (RAGTruth), and Ragas' ``user_input`` /
``retrieved_contexts`` / ``response``. Each context becomes source ``[n]`` (1-based, in
order). The output is one JSON object per row::

    {"id", "flagged": bool, "claims": [{"start", "end", "text", "verdict", "p_supported",
     "evidence": [{"n", "start", "end", "sentence"}]}]}

with ``start``/``end`` character offsets into the answer (claims) or into context ``n``
(evidence; one entry per sentence of the best window). ``flagged`` is true when a claim is
``unsupported`` or ``contradicted``. A bad row yields one :class:`RowError` (file and line) and
the other rows are still checked.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rag_core.config import SupportConfig
from rag_core.types import ContextStage, Source, SupportStage

QUESTION_KEYS = ("question", "user_input", "query")
CONTEXT_KEYS = ("contexts", "passages", "retrieved_contexts")
ANSWER_KEYS = ("answer", "response")


@dataclass(frozen=True)
class Row:
    """One answer to check."""

    id: str
    question: str
    contexts: tuple[str, ...]
    answer: str


@dataclass(frozen=True)
class RowError:
    """A row that could not be read: ``file:line: message``."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


def _first(obj: Mapping[str, Any], keys: Sequence[str]) -> Any:
    for k in keys:
        if k in obj:
            return obj[k]
    return None


def parse_row(obj: Any, default_id: str) -> Row:
    """A :class:`Row` from one decoded JSON value (``ValueError`` naming what is wrong)."""
    if not isinstance(obj, dict):
        raise ValueError(f"a row must be a JSON object, not {type(obj).__name__}")
    contexts = _first(obj, CONTEXT_KEYS)
    answer = _first(obj, ANSWER_KEYS)
    question = _first(obj, QUESTION_KEYS) or ""
    if answer is None or not isinstance(answer, str):
        raise ValueError(f"no answer: one of {', '.join(ANSWER_KEYS)} must be a string")
    if isinstance(contexts, str):
        contexts = [contexts]
    if not isinstance(contexts, list) or not all(isinstance(c, str) for c in contexts):
        raise ValueError(f"no contexts: one of {', '.join(CONTEXT_KEYS)} must be a list of strings")
    if not isinstance(question, str):
        raise ValueError("question must be a string")
    rid = obj.get("id", default_id)
    return Row(str(rid), question, tuple(contexts), answer)


def read_rows(path: str | Path) -> Iterator[Row | RowError]:
    """Rows of a JSONL file in order; a line that is not a valid row yields a :class:`RowError`."""
    p = Path(path)
    with p.open(encoding="utf-8") as f:
        for lineno, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                yield parse_row(json.loads(line), default_id=str(lineno))
            except (ValueError, json.JSONDecodeError) as exc:
                yield RowError(p.name, lineno, str(exc))


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
    from rag_core.models import ModelUnavailable, get_embedder
    from rag_core.retrieval.dense import choose_dense_model

    try:
        return get_embedder(choose_dense_model(list(contexts) or [""])[0])
    except ModelUnavailable:
        return None


def check_row(
    row: Row, cfg: SupportConfig, *, embedder: Any = None, judge: Any = None
) -> SupportStage:
    """The support stage of one row."""
    from rag_core.answer.support import check_support

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
    from rag_core.answer.support import flagged

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


def cmd_support(args: Any) -> int:
    """``python -m rag_core support FILE.jsonl [--json] [--output OUT] [--min-p P] [--judge]``.

    JSON lines go to ``--output`` (and to stdout with ``--json`` or without ``--output``);
    otherwise stdout gets one summary line per row. Bad rows: one stderr line each; exit 1
    when any row was bad, else 0.
    """
    import sys

    cfg = SupportConfig(
        **({"min_p": args.min_p} if args.min_p is not None else {}), judge=bool(args.judge)
    )
    judge = None
    if args.judge:
        from rag_core.models import get_generator

        judge = get_generator(args.generator)
    out = open(args.output, "w", encoding="utf-8") if args.output else None  # noqa: SIM115
    bad = 0
    try:
        for res in check_file(args.file, cfg, judge=judge):
            if isinstance(res, RowError):
                print(f"error: {res}", file=sys.stderr)
                bad += 1
                continue
            line = json.dumps(res, ensure_ascii=False)
            if out is not None:
                out.write(line + "\n")
            if args.json or out is None:
                sys.stdout.write(line + "\n")
            else:
                sys.stdout.write(summary_line(res) + "\n")
    finally:
        if out is not None:
            out.close()
    return 1 if bad else 0


def add_support_command(sub: Any) -> None:
    """The ``support`` subcommand of ``python -m rag_core``."""
    s = sub.add_parser("support", help="check the claims of answers in a JSONL file")
    s.add_argument("file", help="JSONL rows {id, question, contexts, answer}")
    s.add_argument("--json", action="store_true", help="JSON lines on stdout")
    s.add_argument("--output", default=None, help="write the JSON lines to this file")
    s.add_argument("--min-p", type=float, default=None, help="threshold on p_supported")
    s.add_argument("--judge", action="store_true", help="stack the generator's P(yes)")
    s.add_argument("--generator", default="qwen2.5-coder-0.5b", help="the judge (with --judge)")
    s.set_defaults(fn=cmd_support)
