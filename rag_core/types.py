"""Data contracts shared by every stage: documents, chunks, hits, stage results.

All results are frozen dataclasses that serialise to JSON through
:func:`to_jsonable`. Offsets (``start``, ``end``, ``own_start``) always refer
to :attr:`Document.text`, the canonical text (NFC, ``\\n`` newlines), so that
``doc.text[chunk.start:chunk.end] == chunk.content`` holds everywhere.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from .wording import Notice, english

StageStatus = Literal["ok", "skipped", "unavailable", "error"]


def to_jsonable(obj: Any) -> Any:
    """Convert dataclasses, mappings, tuples and numpy scalars to JSON types.

    Non-finite floats become ``None`` (JSON has no NaN/inf).
    """
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, Mapping):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, bool) or obj is None or isinstance(obj, str):
        return obj
    if isinstance(obj, int):
        return int(obj)
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    # numpy scalars and arrays without importing numpy here
    if hasattr(obj, "item") and hasattr(obj, "dtype"):
        if getattr(obj, "ndim", 0) == 0:
            return to_jsonable(obj.item())
        return to_jsonable(obj.tolist())
    if hasattr(obj, "to_dict"):
        return to_jsonable(obj.to_dict())
    raise TypeError(f"cannot serialise {type(obj).__name__} to JSON")


def dumps(obj: Any, **kwargs: Any) -> str:
    """``json.dumps(to_jsonable(obj))`` keeping non-ASCII text readable."""
    return json.dumps(to_jsonable(obj), ensure_ascii=False, **kwargs)


# ------------------------------------------------------------------ notices


def _english(n: Notice | None) -> str:
    """``n`` in English, "" for none."""
    return english(n) if n is not None else ""


def _derive(obj: Any, name: str, text: Any) -> None:
    """Set field ``name`` (``init=False``: the English of the contract's notices) on frozen
    ``obj``."""
    object.__setattr__(obj, name, text)


# ---------------------------------------------------------------- documents


@dataclass(frozen=True)
class Block:
    """A paragraph-like element of a document's canonical text.

    For HTML these are the visible block elements (``p``, ``li``, ``td``,
    ``h2`` …); for Markdown/text the paragraphs and heading lines.
    """

    start: int
    end: int
    kind: str


@dataclass(frozen=True)
class Document:
    """One loaded document. ``text`` is canonical; every offset refers to it."""

    doc_id: str
    title: str
    text: str
    source: str = ""
    version: str = ""
    path: str = ""
    format: str = "txt"
    blocks: tuple[Block, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class FailedDocument:
    """A file (or row) that could not be loaded, and why (``reason``: ``notice`` in English)."""

    path: str
    reason: str = field(init=False, default="")
    notice: Notice  # the ``load.*`` code of ``reason``

    def __post_init__(self) -> None:
        _derive(self, "reason", english(self.notice))


@dataclass(frozen=True)
class LoadedFile:
    """One file of a load: how its bytes were decoded and what it gave.

    ``encoding`` is the codec the text was decoded with (``""`` when the file
    was refused before decoding); ``notes`` are non-fatal remarks a reader
    should see (e.g. an encoding chosen over another that also decodes), in English, and
    ``notices`` the same as codes.
    """

    path: str
    encoding: str = ""
    n_documents: int = 0
    n_failed: int = 0
    seconds: float = 0.0
    notes: tuple[str, ...] = field(init=False, default=())
    notices: tuple[Notice, ...] = ()  # the ``load.note.*`` codes of ``notes``

    def __post_init__(self) -> None:
        _derive(self, "notes", tuple(map(english, self.notices)))


@dataclass(frozen=True)
class LoadReport:
    """What a load produced: documents, failures, per-file details, and counts."""

    documents: tuple[Document, ...]
    failed: tuple[FailedDocument, ...] = ()
    files: tuple[LoadedFile, ...] = ()

    @property
    def n_documents(self) -> int:
        return len(self.documents)

    @property
    def n_chars(self) -> int:
        return sum(len(d.text) for d in self.documents)


# ---------------------------------------------------------------- questions

#: ``Needle.origin`` of document-level gold (a qrels judgement of a whole document).
DOC_LEVEL = "qrels"


@dataclass(frozen=True)
class Needle:
    """Gold evidence: an exact string of one document that answers a question.

    ``start``/``end`` are set for labeled spans; a needle from a question set
    is found in the document text (it occurs exactly once). ``key`` (parts of ``text``,
    () = all of it) is what a correct answer must state where the evidence says more: the
    one cell of a table row that the question asks for, the "from" and the "to" of a change.
    """

    doc_id: str
    text: str
    start: int | None = None
    end: int | None = None
    grade: int = 1
    origin: str = (
        "needle"  # needle (shipped) | label (manual) | needle+label (label overrides grade)
    )
    key: tuple[str, ...] = ()


@dataclass(frozen=True)
class Question:
    """One question of a question set (``sample_corpus/questions/*.jsonl``)."""

    id: str
    lang: str
    question: str
    phrasings: tuple[str, ...] = ()
    needles: tuple[Needle, ...] = ()
    answerable: bool = True
    tags: tuple[str, ...] = ()


# ------------------------------------------------------------------- chunks


@dataclass(frozen=True)
class Chunk:
    """A span of one document.

    ``content`` is the document's own words (what is quoted and cited);
    ``text`` is what is embedded/indexed (``header + content``).
    ``own_start`` is where this chunk's own words begin: with overlap,
    ``start < own_start`` and ``doc.text[start:own_start]`` was copied from the
    previous chunk.
    """

    chunk_id: str
    doc_id: str
    ordinal: int
    start: int
    end: int
    own_start: int
    content: str
    text: str
    section: str = ""
    header: str = ""
    tokens: int | None = None
    #: The chunk ends mid-word: its text had no boundary at the target (a
    #: spaceless line), so the chunker cut it there.
    hard_cut: bool = False


@dataclass(frozen=True)
class NeedleLoss:
    """A gold needle that no chunk contains entirely, and the cut that broke it."""

    doc_id: str
    needle: str
    start: int | None
    end: int | None
    cut_at: tuple[int, ...] = ()
    reason: str = "split"


@dataclass(frozen=True)
class ChunkingDiagnostics:
    """Facts about one chunking of a corpus (see docs/ARCHITECTURE.md, stage catalogue)."""

    n_chunks: int
    n_documents: int
    chars_min: int
    chars_mean: float
    chars_max: int
    tokens_min: int | None
    tokens_mean: float | None
    tokens_max: int | None
    encoder_window: int
    over_window: tuple[str, ...]
    header_tokens: int | None
    total_tokens: int | None
    header_token_share: float | None
    destroyed: tuple[NeedleLoss, ...] = ()
    n_needles: int = 0
    n_skipped_blocks: int = 0  # html strategy: blocks under min_chars that became no chunk
    #: Needles whose document is unknown or whose text is not found: no chunking
    #: loss (not in ``destroyed``, not in ``n_needles``), reported on their own.
    not_in_corpus: tuple[NeedleLoss, ...] = ()
    n_hard_cuts: int = 0  # chunks ending where no boundary was found at the target (cut mid-word)


@dataclass(frozen=True)
class Chunking:
    """One chunking of a corpus: its chunks in order, looked up by id and by position."""

    signature: str
    chunks: tuple[Chunk, ...]
    by_id: dict[str, Chunk]
    position: dict[str, int]
    diagnostics: ChunkingDiagnostics

    def texts(self) -> list[str]:
        return [c.text for c in self.chunks]

    @cached_property
    def most_chunks_per_doc(self) -> int:
        """The most chunks any one document has (0 without chunks); counted once."""
        return max(Counter(c.doc_id for c in self.chunks).values(), default=0)


# --------------------------------------------------------------- retrieval


@dataclass(frozen=True)
class Hit:
    """One candidate in one ranked list.

    ``rank`` is 1-based. Stage-specific facts ride along: ``distance`` (cosine
    distance 1 − cos when a dense model scored the chunk), ``list_ranks`` and
    ``contributions`` (fusion: the chunk's rank in, and contribution from,
    each input list), ``prev_rank``/``retrieval_score`` (rerank), ``tied``
    (its reranker score equals a neighbour's) and ``note`` (e.g. why the gate
    rejected it; ``notice`` is its code and params when the core words it by code).
    """

    chunk_id: str
    doc_id: str
    rank: int
    score: float
    distance: float | None = None
    list_ranks: Mapping[str, int] = field(default_factory=dict)
    contributions: Mapping[str, float] = field(default_factory=dict)
    prev_rank: int | None = None
    retrieval_score: float | None = None
    tied: bool = False
    note: str = field(init=False, default="")
    notice: Notice | None = None

    def __post_init__(self) -> None:
        if self.notice is not None:
            _derive(self, "note", english(self.notice))


@dataclass(frozen=True)
class TermStat:
    """One query term as the index sees it (the analyzer view)."""

    term: str
    qtf: int
    df: int
    idf: float | None

    @property
    def unknown(self) -> bool:
        return self.df == 0


@dataclass(frozen=True)
class AnalyzerView:
    """The query as an analyzer cuts it, with each term's df/idf."""

    analyzer: str
    idf_form: str
    n_docs: int
    terms: tuple[TermStat, ...]
    #: ``auto`` only: ``(run of the query, analyzer used on it, its terms)`` per script run.
    segments: tuple[tuple[str, str, tuple[str, ...]], ...] = ()

    @property
    def zero_df_terms(self) -> tuple[str, ...]:
        return tuple(t.term for t in self.terms if t.df == 0)


@dataclass(frozen=True)
class RetrieverList:
    """One retriever's ranked list for one query."""

    name: str
    method: str
    analyzer: str | None
    hits: tuple[Hit, ...]
    n_candidates: int
    status: StageStatus = "ok"
    message: str = field(init=False, default="")  # ``notice`` in English
    notice: Notice | None = None
    model: str | None = None
    analyzer_view: AnalyzerView | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    #: Why this embedder (dense lists): the code and params of ``params["model_choice"]``.
    choice: Notice | None = None

    def __post_init__(self) -> None:
        _derive(self, "message", _english(self.notice))


@dataclass(frozen=True)
class FusionResult:
    """Several lists fused into one; ``union`` = distinct candidates seen."""

    method: str
    hits: tuple[Hit, ...]
    union: int
    inputs: tuple[str, ...]
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RetrievalStage:
    lists: tuple[RetrieverList, ...]
    fused: FusionResult | None
    hits: tuple[Hit, ...]  # what the next stage receives (fused, or the single list)


@dataclass(frozen=True)
class RerankStage:
    method: str
    label: str
    status: StageStatus
    hits: tuple[Hit, ...]
    shortlist: int
    message: str = field(init=False, default="")  # ``notice`` in English
    notice: Notice | None = None
    model: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _derive(self, "message", _english(self.notice))


@dataclass(frozen=True)
class GateStage:
    """Threshold + max-kept. ``refused`` when nothing passes."""

    metric: Literal["distance", "score", "none"]
    threshold: float | None
    max_kept: int | None
    kept: tuple[Hit, ...]
    rejected: tuple[Hit, ...]
    refused: bool
    reason: str = field(init=False, default="")  # ``notice`` in English
    notice: Notice | None = None
    status: StageStatus = "ok"

    def __post_init__(self) -> None:
        _derive(self, "reason", _english(self.notice))


# ----------------------------------------------------------------- context


@dataclass(frozen=True)
class Source:
    """One candidate as the context stage treated it."""

    n: int | None  # the [n] it is cited as, None when not included
    chunk_id: str
    doc_id: str
    title: str
    section: str
    start: int
    end: int
    locator: str  # "#char=start,end"
    quote: str  # the text placed in the prompt (content, possibly capped/cut)
    tokens: int
    status: Literal["included", "cut", "dropped"]
    reason: str = (
        ""  # budget | duplicate | gate | cap | text-unavailable (an imported hit without text)
    )
    cut_at: int | None = None  # char offset in the document where the quote was cut
    duplicate_of: str | None = None  # chunk id of the kept source it near-duplicates
    #: Sent before the quote, not part of it: the header and delimiter rows of the Markdown
    #: table the quote starts inside, below them (``rag_core.text.table_head``).
    lead: str = ""
    #: Characters at the quote's start and end that are pieces of a word its chunk's edges cut
    #: in two ("… 관광객만 1" of "1,380만"): the support check does not read them
    #: (``rag_core.text.torn_edges``).
    torn: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class ContextStage:
    status: StageStatus
    policy: str
    ordering: str
    budget_tokens: int
    sources: tuple[Source, ...]
    system_text: str = ""
    user_text: str = ""
    prompt_text: str = ""
    tokens_before: int | None = None
    tokens_after: int | None = None
    truncated: bool = False
    question_cut: bool = False
    actual_input_text: str = ""
    input_ids: tuple[int, ...] = ()
    full_ids: tuple[int, ...] = ()
    prompt_sha256: str | None = None
    ids_sha256: str | None = None
    tokenizer: str | None = None
    #: ``notices`` in English joined by "; ", else ``notice`` in English.
    message: str = field(init=False, default="")
    #: Why, when it is one sentence (skipped, error); None for none or when ``notices`` hold
    #: its parts.
    notice: Notice | None = None
    #: The parts of an ``ok`` stage's message, in order (the summary, then what a cut
    #: removed, then a fallback tokenizer's caveat).
    notices: tuple[Notice, ...] = ()

    def __post_init__(self) -> None:
        said = "; ".join(map(english, self.notices)) if self.notices else _english(self.notice)
        _derive(self, "message", said)


# -------------------------------------------------------------- generation


@dataclass(frozen=True)
class GenerationStage:
    """Greedy generation. Skipped/unavailable runs carry nulls, never zeros."""

    status: StageStatus
    model: str | None
    answer: str | None = None
    seconds: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    model_sha256: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    cached: bool = False
    message: str = field(init=False, default="")  # ``notice`` in English
    notice: Notice | None = None

    def __post_init__(self) -> None:
        _derive(self, "message", _english(self.notice))


# ----------------------------------------------------------------- support


@dataclass(frozen=True)
class Evidence:
    """The best evidence window (1–3 consecutive sentences) of one source for one claim.

    ``sentence`` is the window's text and ``start``/``end`` its document offsets; ``spans``
    holds the document offsets of every sentence in it. ``score`` equals ``p_supported``.
    """

    n: int
    chunk_id: str
    sentence: str
    start: int
    end: int
    overlap: float
    cosine: float | None
    score: float
    missing_numbers: tuple[str, ...] = ()
    judge: float | None = None
    missing_terms: tuple[str, ...] = ()  # the claim's answer terms this window lacks
    spans: tuple[tuple[int, int], ...] = ()  # document offsets of each sentence of the window
    p_supported: float | None = None
    #: What in the window contradicts the claim (``support.conflict.*``); None when nothing.
    contradiction: Notice | None = None
    #: The signals that moved ``p_supported`` most, ``(feature, contribution to the logit)``,
    #: largest first (``rag_core.answer.support_head``: the features of ``LEXICAL``/``READING``).
    signals: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Claim:
    text: str
    start: int
    end: int
    citations: tuple[int, ...]
    verdict: Literal[
        "supported",
        "supported-elsewhere",
        "unsupported",
        "uncited",
        "invalid-citation",
        "contradicted",
        "not-a-claim",
    ]
    evidence: tuple[Evidence, ...]
    numbers: tuple[str, ...] = ()
    numbers_in_no_source: tuple[str, ...] = ()
    #: ``notice`` in English (the CLI's and the JSON's wording).
    reason: str = field(init=False, default="")
    p_supported: float | None = None  # the best source's P(supported); None for not-a-claim
    #: Why the claim got its verdict (``support.why.*``, rag_core/answer/support.py).
    notice: Notice | None = None
    #: Of a claim that flags its answer, the character spans of the answer whose tokens the
    #: generator's readings mark as most likely made up (empty without readings).
    suspect: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        _derive(self, "reason", _english(self.notice))


@dataclass(frozen=True)
class SupportStage:
    status: StageStatus
    claims: tuple[Claim, ...] = ()
    params: Mapping[str, Any] = field(default_factory=dict)
    message: str = field(init=False, default="")  # ``notice`` in English
    notice: Notice | None = None

    def __post_init__(self) -> None:
        _derive(self, "message", _english(self.notice))


@dataclass(frozen=True)
class Stages:
    """A run's six stage results by name, in pipeline order: what the Trace is built from and
    the gold is followed through (``rag_core.gold.diagnosis.gold_view``)."""

    retrieval: RetrievalStage
    rerank: RerankStage
    gate: GateStage
    context: ContextStage
    generation: GenerationStage
    support: SupportStage


# ------------------------------------------------------------------- trace


@dataclass(frozen=True)
class IndexStamp:
    """What an index was built from; querying with another model is an error."""

    pipeline_version: str
    chunker_signature: str
    corpus_fingerprint: str
    n_documents: int
    n_chunks: int
    embedding_model: str | None = None
    dimension: int | None = None
    normalized: bool | None = None


@dataclass(frozen=True)
class GoldView:
    """Where the gold evidence is at each stage (for the verdict line)."""

    needles: tuple[Needle, ...]
    in_corpus: tuple[bool, ...]
    chunk_ids: tuple[tuple[str, ...], ...]  # per needle: chunks wholly containing it
    stage_ranks: Mapping[
        str, tuple[int | None, ...]
    ]  # stage -> per needle best rank (None = absent)
    lost_at: str  # first stage where gold was lost, or "" when it reached the answer
    explanation: str = ""
    needle_losses: tuple[str, ...] = ()  # per needle: stage code where it was lost, "" if not
    #: per needle: ``needle_notices`` in English ("" where it reached the answer)
    needle_reasons: tuple[str, ...] = field(init=False, default=())
    #: per needle: the code and params of its reason (None where it reached the answer)
    needle_notices: tuple[Notice | None, ...] = ()

    def __post_init__(self) -> None:
        _derive(self, "needle_reasons", tuple(map(_english, self.needle_notices)))


@dataclass(frozen=True)
class Trace:
    """Everything one question did in one pipeline run."""

    question: str
    config: Mapping[str, Any]
    index_stamp: IndexStamp
    chunking: ChunkingDiagnostics
    retrieval: RetrievalStage
    rerank: RerankStage
    gate: GateStage
    context: ContextStage
    generation: GenerationStage
    support: SupportStage
    chunks: Mapping[str, Chunk]
    timings_ms: Mapping[str, float]
    gold: GoldView | None = None
    #: ``notices`` in English, one for one.
    warnings: tuple[str, ...] = field(init=False, default=())
    #: The question's warnings, the corpus load's lines (``load.not_loaded``), the gate's
    #: warning.
    notices: tuple[Notice, ...] = ()

    def __post_init__(self) -> None:
        _derive(self, "warnings", tuple(map(english, self.notices)))

    def to_dict(self) -> dict[str, Any]:
        return to_jsonable(self)

    def to_json(self, **kwargs: Any) -> str:
        return dumps(self, **kwargs)
