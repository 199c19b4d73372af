"""Run a question set through a config and score the rankings.

Retrieval metrics need no generation call: each query runs the pipeline up
to the gate (``stop_after="gate"``) and the ranked list after rerank is scored
against the gold chunks — the chunks whose content contains a gold needle
entirely. Answers destroyed by the chunking are counted separately: for those
questions the recall ceiling is 0 whatever the retriever.

A needle that does not occur in the corpus at all (unknown document, or text
not found in it) is no chunking loss: it is reported as "needle not in
corpus" (``not_in_corpus`` and ``warnings``) and left out of the gold. A
question left with no needle in the corpus is not scored (it would lower
every mean without any stage being at fault).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import TYPE_CHECKING, Any

from ..config import (
    ChunkerConfig,
    ContextConfig,
    GateConfig,
    GenerationConfig,
    PipelineConfig,
    SupportConfig,
)
from ..formats.questions import queries_of
from ..gold.merge import gold_for
from ..gold.relevance import ChunkLookup, grades_for, locate, relevant_chunk_ids
from ..index import CorpusIndex
from ..pipeline import final_ranking, run_many
from ..types import (
    Document,
    Hit,
    Needle,
    Notice,
    Question,
    RerankStage,
    RetrieverList,
    Trace,
    to_jsonable,
)
from ..wording import declare, english, notice
from .aggregate import compare_results, evaluate_queries, per_query_rows

if TYPE_CHECKING:
    from ..gold.labels import Label
    from ..retrieval.runs import ExternalRun
    from .aggregate import EvalResult
    from .stats import MeanWithInterval

#: A stage that could not run as configured in an evaluation (once per stage).
STAGE_PROBLEM = declare("eval.stage_problem", "stage", "status", "why")
STAGE_PROBLEM_BARE = declare("eval.stage_problem_bare", "stage", "status")


#: The words a warning about a needle absent from the corpus carries.
NOT_IN_CORPUS = "needle not in corpus"


@dataclass(frozen=True)
class ConfigEvaluation:
    """One config over one question set."""

    config: dict[str, Any]
    chunker_signature: str
    ks: tuple[int, ...]
    n_questions: int
    n_queries: int
    result: EvalResult
    rankings: dict[str, tuple[str, ...]]
    gold: dict[str, dict[str, int]]
    query_text: dict[str, str]
    question_of: dict[str, str]
    tags: dict[str, tuple[str, ...]]
    destroyed: tuple[str, ...]  # query ids whose every gold needle is destroyed
    #: One line per file or row of the corpus that did not load (``CorpusIndex.load_warnings``),
    #: per stage that could not run as configured (a missing model: its ranking came from
    #: the other retrievers, or is empty), and per question with a needle not in the corpus.
    warnings: tuple[str, ...] = ()
    #: ``chunk`` (gold = chunks holding a needle) or ``document`` (qrels: a
    #: document's rank is the rank of its best chunk).
    level: str = "chunk"
    #: Document level: per query, the share of the top ``JUDGED_AT`` documents
    #: that carry a judgement (ir_measures' ``Judged@10``). Unjudged documents
    #: count as not relevant in the metrics, as in trec_eval; this says how many there were.
    judged_share: dict[str, float] = field(default_factory=dict)
    #: Question ids with at least one needle not in the corpus (``(doc_id, text)`` each).
    not_in_corpus: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    #: The stage lines of ``warnings`` alone (``stage: error``), so a page words the
    #: needles not in the corpus from ``not_in_corpus`` and frames these, without
    #: reading the sentences back.
    stage_problems: tuple[Notice, ...] = ()

    @property
    def means(self) -> dict[str, MeanWithInterval | None]:
        return self.result.means

    def to_dict(self) -> dict[str, Any]:
        """JSON form: means with intervals, per-query rows, answers destroyed."""
        res = self.result
        per_query = {
            qid: {
                "question_id": self.question_of[qid],
                "text": self.query_text[qid],
                "first_gold_rank": res.first_gold_rank.get(qid),
                "destroyed": qid in self.destroyed,
                **(
                    {f"judged@{JUDGED_AT}": self.judged_share.get(qid)}
                    if self.level == "document"
                    else {}
                ),
                **res.per_query[qid],
            }
            for qid in res.per_query
        }
        return {
            "config": self.config,
            "chunker_signature": self.chunker_signature,
            "ks": list(self.ks),
            "n_questions": self.n_questions,
            "n_queries": self.n_queries,
            "interval": res.interval,
            "means": to_jsonable(res.means),
            "answers_destroyed": len(self.destroyed),
            "destroyed": list(self.destroyed),
            "warnings": list(self.warnings),
            "level": self.level,
            "needles_not_in_corpus": {
                q: [list(x) for x in v] for q, v in self.not_in_corpus.items()
            },
            "per_query": per_query,
        }


#: Depth of the judged-share figure for document-level evaluation.
JUDGED_AT = 10


def doc_ranking(chunk_hits: Sequence[Hit], depth: int) -> tuple[str, ...]:
    """Documents in the order of their best chunk (max-pooling, "MaxP"), first ``depth``.

    A document's rank is the rank of its best-ranked chunk (Dai & Callan 2019,
    "Deeper Text Understanding for IR with Contextual Neural Language Modeling":
    MaxP passage aggregation). Hits are read in rank order.
    """
    # first occurrences in order (dict keys keep insertion order), cut at depth
    return tuple(islice(dict.fromkeys(h.doc_id for h in chunk_hits), depth))


def doc_level_depth(corpus: CorpusIndex, chunker: ChunkerConfig, depth: int) -> int:
    """Chunks to retrieve so that ``depth`` distinct documents are reachable.

    ``depth × (most chunks of one document)``, at most 10,000 (the
    ``retrieval.k`` limit): ``n`` chunks always span at least ``n / max`` documents.
    """
    return min(10_000, depth * max(corpus.chunking(chunker).most_chunks_per_doc, 1))


@dataclass(frozen=True)
class QueryRun:
    """One query of a question set run to the gate (see :func:`run_queries`)."""

    question: Question
    query_id: str
    text: str
    trace: Trace
    #: Chunk-level gold of an answerable question: per needle, the ids of
    #: the chunks holding it (:func:`rag_core.gold.relevance.relevant_chunk_ids`)
    per_needle: tuple[tuple[str, ...], ...] = ()
    #: ``{chunk_id: grade}`` of those chunks (:func:`rag_core.gold.relevance.grades_for`)
    grades: Mapping[str, int] = field(default_factory=dict)


def merge_labels(
    questions: Sequence[Question],
    labels: Sequence[Label],
    docs: Mapping[str, Document | str],
    question_set: str | None = None,
) -> list[Question]:
    """Each question, its needles merged with manual labels
    (:func:`rag_core.gold.merge.gold_for`)."""
    if not labels:
        return list(questions)

    return [
        replace(q, needles=gold_for(q, labels, docs, question_set=question_set)) for q in questions
    ]


def run_queries(
    config: PipelineConfig,
    jobs: Sequence[tuple[Question, str, str]],
    corpus: CorpusIndex,
    *,
    chunk_gold: bool = True,
    runs: Mapping[str, ExternalRun] | None = None,
    progress: Callable[[int, int], None] | None = None,
    problems: dict[str, Notice] | None = None,
) -> Iterator[QueryRun]:
    """The per-query loop of an evaluation and of a threshold sweep.

    ``jobs``: ``(question, query id, query text)``, the phrasings of one
    question next to each other (:func:`rag_core.formats.questions.queries_of`).
    Every query runs :func:`rag_core.pipeline.run_many` up to the gate
    (``stop_after="gate"``; the same Traces as ``run`` per query). With
    ``chunk_gold``, an answerable question's needles are located in the
    chunking once for all its phrasings. A retriever or reranker that did
    not run as configured is recorded once per stage in ``problems``;
    ``progress(done, total)`` is called after each query.
    """
    chunks = corpus.chunking(config.chunker).chunks
    lookup = ChunkLookup(chunks) if chunk_gold else None
    traces = run_many(
        config,
        [text for _, _, text in jobs],
        corpus,
        stop_after="gate",
        runs=runs,
        query_ids=[qid for _, qid, _ in jobs],
    )
    last: Question | None = None
    per_needle: tuple[tuple[str, ...], ...] = ()
    grades: dict[str, int] = {}
    for i, ((q, qid, text), trace) in enumerate(zip(jobs, traces, strict=True)):
        if q is not last:
            last, per_needle, grades = q, (), {}
            if chunk_gold and q.answerable:
                per_needle = relevant_chunk_ids(chunks, q.needles, corpus.docs, lookup)
                grades = grades_for(chunks, q.needles, corpus.docs, per_needle)
        if problems is not None:
            _note_problems(trace, problems)
        yield QueryRun(q, qid, text, trace, per_needle, dict(grades))
        if progress:
            progress(i + 1, len(jobs))


def evaluate_config(
    config: PipelineConfig,
    questions: Sequence[Question],
    corpus: CorpusIndex,
    *,
    ks: Sequence[int] = (1, 4, 8, 20),
    phrasings: str = "all",
    gain: str = "binary",
    progress: Callable[[int, int], None] | None = None,
    labels: Sequence[Label] = (),
    question_set: str | None = None,
    doc_qrels: Mapping[str, Mapping[str, int]] | None = None,
    runs: Mapping[str, ExternalRun] | None = None,
) -> ConfigEvaluation:
    """Score the retrieval of every answerable question (each phrasing a query).

    ``labels`` (from :class:`rag_core.gold.store.LabelStore`) add to or override
    the shipped needles (see :func:`rag_core.gold.merge.gold_for`); graded labels
    give graded relevance.

    ``doc_qrels`` (a BEIR/TREC set's qrels, see :mod:`rag_core.corpus.datasets`)
    switches to document-level evaluation: every judged question is a query,
    its ranking is :func:`doc_ranking` of the chunks after rerank, and the
    grades are the qrels themselves (as trec_eval reads them: a retrieved
    document without a judgement gains 0; :attr:`ConfigEvaluation.judged_share`
    says how many were unjudged). ``runs`` are imported runs
    (:class:`rag_core.retrieval.runs.ExternalRun` by tag) for ``run:TAG`` retrievers.
    """
    if doc_qrels is not None:
        res = _evaluate_documents(
            config,
            questions,
            corpus,
            doc_qrels,
            ks=ks,
            gain=gain,
            progress=progress,
            runs=runs,
            labels=labels,
            question_set=question_set,
        )
    else:
        depth = max(ks)
        cfg = replace(config, retrieval=replace(config.retrieval, k=max(depth, config.retrieval.k)))
        chunking = corpus.chunking(cfg.chunker)
        merged = merge_labels(questions, labels, corpus.docs, question_set)
        scored = _scored_questions(merged, corpus)
        jobs = [(q, qid, text) for q in scored.answerable for qid, text in queries_of(q, phrasings)]
        got = _ChunkRuns()
        for qr in run_queries(
            cfg, jobs, corpus, runs=runs, progress=progress, problems=got.problems
        ):
            got.add(qr, depth)
        res = _chunk_evaluation(cfg, chunking.signature, ks, scored, len(jobs), got, gain)
    if not corpus.load_warnings:
        return res
    return replace(res, warnings=(*corpus.load_warnings, *res.warnings))  # nothing dropped unsaid


@dataclass(frozen=True)
class _Scored:
    """The questions a chunk-level evaluation scores, and the needles it could not find.

    Attributes:
        answerable: The answerable questions, each with its needles found in the corpus.
        missing: Per question id, the ``(doc_id, text)`` of its needles not in the corpus.
        miss_lines: One warning line per question of ``missing`` (:func:`_missing_lines`).
    """

    answerable: list[Question]
    missing: dict[str, tuple[tuple[str, str], ...]]
    miss_lines: list[str]


def _scored_questions(questions: Sequence[Question], corpus: CorpusIndex) -> _Scored:
    """The questions to score with their needles in the corpus; raise when there is none."""
    answerable, missing = _answerable_in_corpus(questions, corpus.docs)
    miss_lines = _missing_lines(missing, answerable)
    if not answerable:
        raise ValueError(
            "the question set has no answerable question with gold needles in this corpus to score"
            + (f" ({len(missing)} question(s) have needles not in the corpus)" if missing else "")
        )
    return _Scored(answerable, missing, miss_lines)


def _chunk_evaluation(
    cfg: PipelineConfig,
    chunker_signature: str,
    ks: Sequence[int],
    scored: _Scored,
    n_queries: int,
    got: _ChunkRuns,
    gain: str,
) -> ConfigEvaluation:
    """Score the gathered rankings at ``ks`` and put the chunk-level evaluation together."""
    # Every answerable question is judged: one whose needles the chunking
    # destroyed scores 0 (its recall ceiling) instead of leaving the means.
    result = evaluate_queries(
        got.rankings,
        got.gold,
        ks,
        gain=gain,
        judged=set(got.rankings),
        units=got.units,
        clusters=got.question_of,
    )
    return ConfigEvaluation(
        config=cfg.to_dict(),
        chunker_signature=chunker_signature,
        ks=tuple(ks),
        n_questions=len(scored.answerable),
        n_queries=n_queries,
        result=result,
        rankings=got.rankings,
        gold=got.gold,
        query_text=got.texts,
        question_of=got.question_of,
        tags=got.tags,
        destroyed=tuple(got.destroyed),
        warnings=tuple(map(english, got.problems.values())) + tuple(scored.miss_lines),
        not_in_corpus=scored.missing,
        stage_problems=tuple(got.problems.values()),
    )


def _answerable_in_corpus(
    questions: Sequence[Question], docs: Mapping[str, Any]
) -> tuple[list[Question], dict[str, tuple[tuple[str, str], ...]]]:
    """The answerable questions with their needles found in the corpus (those not found are
    dropped from the question), and per question id the ``(doc_id, text)`` not found."""
    missing: dict[str, tuple[tuple[str, str], ...]] = {}
    answerable = []
    for q in questions:
        if not (q.answerable and q.needles):
            continue
        present, absent = needles_in_corpus(q.needles, docs)
        if absent:
            missing[q.id] = tuple((n.doc_id, n.text) for n in absent)
        if present:
            answerable.append(replace(q, needles=present) if absent else q)
    return answerable, missing


def _missing_lines(
    missing: Mapping[str, tuple[tuple[str, str], ...]], answerable: Sequence[Question]
) -> list[str]:
    """One warning line per question with needles not in the corpus (the first three named)."""
    return [
        f"question {qid}: {NOT_IN_CORPUS} ({len(v)}: "
        + ", ".join(f"{d} {t[:40]!r}" for d, t in v[:3])
        + (", …" if len(v) > 3 else "")
        + ")"
        + ("" if any(q.id == qid for q in answerable) else "; question not scored")
        for qid, v in missing.items()
    ]


@dataclass
class _ChunkRuns:
    """What a chunk-level evaluation gathers per query id while its queries run."""

    rankings: dict[str, tuple[str, ...]] = field(default_factory=dict)
    gold: dict[str, dict[str, int]] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    question_of: dict[str, str] = field(default_factory=dict)
    tags: dict[str, tuple[str, ...]] = field(default_factory=dict)
    destroyed: list[str] = field(default_factory=list)
    units: dict[str, list[set[str]]] = field(default_factory=dict)
    problems: dict[str, Notice] = field(default_factory=dict)

    def add(self, qr: QueryRun, depth: int) -> None:
        """Record one query's run, its ranking cut at ``depth``."""
        qid, q = qr.query_id, qr.question
        self.units[qid] = [set(ids) for ids in qr.per_needle]
        if all(not ids for ids in qr.per_needle):
            self.destroyed.append(qid)
        self.rankings[qid] = tuple(final_ranking(qr.trace)[:depth])
        self.gold[qid] = dict(qr.grades)
        self.texts[qid] = qr.text
        self.question_of[qid] = q.id
        self.tags[qid] = (f"lang:{q.lang}",) + tuple(q.tags)


def _note_problems(trace: Trace, problems: dict[str, Notice]) -> None:
    """Record (once per stage) a retriever or reranker that did not run as configured."""
    for lst in trace.retrieval.lists:
        if lst.status != "ok":
            problems.setdefault(lst.name, _stage_problem(lst.name, lst.status, lst))
    rr = trace.rerank
    if rr.status not in ("ok", "skipped"):
        problems.setdefault("rerank", _stage_problem(f"rerank {rr.label}", rr.status, rr))


def _stage_problem(stage: str, status: str, said: RetrieverList | RerankStage) -> Notice:
    """``<stage> <status>: <why>`` (the stage's notice, else its message; none: no colon)."""
    why: Notice | str = said.notice if said.notice is not None else said.message
    if not why:
        return notice(STAGE_PROBLEM_BARE, stage=stage, status=status)
    return notice(STAGE_PROBLEM, stage=stage, status=status, why=why)


def _evaluate_documents(
    config: PipelineConfig,
    questions: Sequence[Question],
    corpus: CorpusIndex,
    qrels: Mapping[str, Mapping[str, int]],
    *,
    ks: Sequence[int],
    gain: str,
    progress: Callable[[int, int], None] | None,
    runs: Mapping[str, ExternalRun] | None,
    labels: Sequence[Label] = (),
    question_set: str | None = None,
) -> ConfigEvaluation:
    """Document-level evaluation of every judged question (see :func:`evaluate_config`).

    Span labels judge their document: its grade becomes the highest of the
    qrels grade and the labels' grades (a grade-0 label marks an unjudged
    document as judged not relevant).
    """
    depth = max(ks)
    chunk_depth = max(doc_level_depth(corpus, config.chunker, depth), config.retrieval.k)
    cfg = replace(config, retrieval=replace(config.retrieval, k=chunk_depth))
    chunking = corpus.chunking(cfg.chunker)
    judged = [q for q in questions if q.id in qrels]
    if not judged:
        raise ValueError("no question of the set has a qrels judgement: nothing to score")
    rankings: dict[str, tuple[str, ...]] = {}
    gold: dict[str, dict[str, int]] = {}
    share: dict[str, float] = {}
    problems: dict[str, Notice] = {}
    jobs = [(q, q.id, q.question) for q in judged]
    for qr in run_queries(
        cfg, jobs, corpus, chunk_gold=False, runs=runs, progress=progress, problems=problems
    ):
        q = qr.question
        ranking = doc_ranking(qr.trace.rerank.hits, depth)
        grades = {str(d): int(g) for d, g in qrels[q.id].items()}
        for lab in labels:
            if lab.question_id == q.id and (
                question_set is None or lab.question_set == question_set
            ):
                grades[lab.doc_id] = max(grades.get(lab.doc_id, lab.grade), lab.grade)
        rankings[q.id] = ranking
        gold[q.id] = grades
        top = ranking[:JUDGED_AT]
        share[q.id] = sum(d in grades for d in top) / len(top) if top else 0.0
    # every judged query counts (one without a relevant document scores 0, as in trec_eval -c)
    result = evaluate_queries(rankings, gold, ks, gain=gain, judged=set(rankings))
    return ConfigEvaluation(
        config=cfg.to_dict(),
        chunker_signature=chunking.signature,
        ks=tuple(ks),
        n_questions=len(judged),
        n_queries=len(judged),
        result=result,
        rankings=rankings,
        gold=gold,
        query_text={q.id: q.question for q in judged},
        question_of={q.id: q.id for q in judged},
        tags={q.id: tuple(q.tags) for q in judged},
        destroyed=(),
        warnings=tuple(map(english, problems.values())),
        stage_problems=tuple(problems.values()),
        level="document",
        judged_share=share,
    )


def needles_in_corpus(
    needles: Sequence[Needle], docs: Mapping[str, Document | str]
) -> tuple[tuple[Needle, ...], tuple[Needle, ...]]:
    """``(needles found in the corpus, needles not in it)``: unknown document or text not found."""
    present: list[Needle] = []
    absent: list[Needle] = []
    for n in needles:
        doc = docs.get(n.doc_id)
        text = doc if isinstance(doc, str) else getattr(doc, "text", None)
        (present if text is not None and locate(text, n) is not None else absent).append(n)
    return tuple(present), tuple(absent)


def compare_configs(a: ConfigEvaluation, b: ConfigEvaluation) -> dict[str, Any]:
    """Paired sign test per metric over the queries both evaluated."""
    return compare_results(a.result, b.result)


# ------------------------------------------------------ page and download helpers

#: Groups of question tags for the per-tag breakdown.
TAG_GROUPS: tuple[str, ...] = ("language", "failure mode", "query type")


def ranking_config(config: PipelineConfig) -> PipelineConfig:
    """``config`` with every section after rerank reset to its default.

    The ranked candidates that :func:`evaluate_config` scores and that
    :func:`rag_core.evaluation.sweep_collect.collect` replays depend only on the chunker,
    retrieval, fusion and rerank sections (both stop at the gate, and the
    sweep clears the gate), so two configs with equal ``ranking_config``
    give equal results — a sound cache key.
    """
    if not isinstance(config, PipelineConfig):
        raise ValueError(f"expected a PipelineConfig; got {type(config).__name__}")
    return replace(
        config,
        gate=GateConfig(),
        context=ContextConfig(),
        generation=GenerationConfig(),
        support=SupportConfig(),
    )


def tag_group(tag: str) -> str:
    """Which :data:`TAG_GROUPS` entry a tag belongs to.

    ``lang:…`` (added by :func:`evaluate_config`) is the language, ``fmN-…``
    a failure mode of docs/ARCHITECTURE.md (``fm1-blind-cut``), anything else a query
    type (``numeric``, ``paraphrase``…).
    """
    if not isinstance(tag, str) or not tag:
        raise ValueError(f"a tag must be a non-empty string; got {tag!r}")
    if tag.startswith("lang:"):
        return "language"
    head, sep, _ = tag.partition("-")
    if sep and head.startswith("fm") and head[2:].isdigit():
        return "failure mode"
    return "query type"


def question_rows(a: ConfigEvaluation, b: ConfigEvaluation | None = None) -> list[dict[str, Any]]:
    """One row per query: ids, text, tags, destroyed, and each config's first gold rank.

    ``first_gold_a``/``first_gold_b`` are 1-based ranks within the scored
    depth (``max(ks)``), ``None`` when no gold chunk was retrieved. With
    ``b`` only the queries both evaluated are listed.
    """
    rows = []
    for qid in a.result.per_query:
        if b is not None and qid not in b.result.per_query:
            continue
        row: dict[str, Any] = {
            "query_id": qid,
            "question_id": a.question_of[qid],
            "text": a.query_text[qid],
            "tags": ", ".join(a.tags.get(qid, ())),
            "destroyed_a": qid in a.destroyed,
            "first_gold_a": a.result.first_gold_rank.get(qid),
        }
        if b is not None:
            row["destroyed_b"] = qid in b.destroyed
            row["first_gold_b"] = b.result.first_gold_rank.get(qid)
        rows.append(row)
    return rows


def per_query_table(evaluations: dict[str, ConfigEvaluation]) -> list[dict[str, Any]]:
    """Per-query metric rows of several configs (``config`` column first) for a CSV download."""
    out = []
    for name, ev in evaluations.items():
        for row in per_query_rows(ev.result):
            qid = str(row["qid"])
            out.append(
                {
                    "config": name,
                    "query_id": qid,
                    "question_id": ev.question_of.get(qid, ""),
                    "text": ev.query_text.get(qid, ""),
                    "destroyed": qid in ev.destroyed,
                    **{k: v for k, v in row.items() if k != "qid"},
                }
            )
    return out


def report_dict(a: ConfigEvaluation, b: ConfigEvaluation | None = None) -> dict[str, Any]:
    """The JSON the ``eval`` CLI prints: ``a``, and with ``b`` also ``b`` and ``comparison``."""
    out: dict[str, Any] = {"a": a.to_dict()}
    if b is not None:
        out["b"] = b.to_dict()
        out["comparison"] = to_jsonable(compare_configs(a, b))
    return out
