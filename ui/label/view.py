"""The Label page's view model: question, gold origins, span picking and saving; no Streamlit.

``pages/label.py`` calls these functions with plain data (the question sets,
the label store, the corpus documents and chunking, the session state as a
``Mapping``) and renders what they return. A state transition returns a
:class:`Change` (keys to set, keys to drop) that the page applies to
``st.session_state`` with :func:`apply`, before the widgets of those keys are
drawn (Streamlit refuses a widget key set after its widget). Words are
:class:`Msg` codes, worded by the page through ``ui.i18n``.

Span picking, as :func:`pick_span` and the callbacks below implement it:

* a new question drops the previous span's keys and opens its first pooled
  candidate (:func:`open_candidate`: its document and chunk, in chunk mode);
* the mode decides the span: a chunk of the document, a sentence
  (``rag_core.text.sentence_spans``) or a character range, typed or found by
  its text (:func:`find`, every occurrence offered by :func:`pick_occurrence`);
* a mode opened anew starts where the last valid span was (``label._last``):
  the chunk holding its start, the sentence holding it, or its offsets;
* a new span shows its stored label's grade and note (else an empty note);
* a fresh session whose widgets the browser refilled (it reconnected after a server
  restart) keeps them: the same candidate, span, grade and typed note, not the stored ones.

Saving is optimistic concurrency: the page remembers the label version it
showed (``label._seen``); a save against a label that changed meanwhile is
not written but asked about (:func:`edit_of`, :func:`overwrite`,
:func:`keep_current`), as ``rag_core.gold.store.LabelStore`` checks with
``expected_event``.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag_core.config import (
    ANALYZERS,
    PRESETS,
    RETRIEVAL_METHODS,
    VECTOR_METHODS,
    ChunkerConfig,
    preset,
)
from rag_core.evaluation.pooling import DEFAULT_POOL_RETRIEVERS, Pool
from rag_core.gold.labels import GRADES, Label
from rag_core.gold.merge import gold_for, stale_labels
from rag_core.gold.relevance import locate, relevant_chunk_ids
from rag_core.gold.spans import (
    label_on,
    labels_within,
    occurrences,
    sentence_containing,
)
from rag_core.gold.store import LabelStore, LabelStoreError, StaleLabel
from rag_core.modelnames import as_typed, place_path, place_root
from rag_core.text import sentence_spans
from rag_core.types import Chunk, Chunking, Document, Needle, Notice, Question
from rag_core.wording import NoticeError, unworded

from ..html import snippet
from ..i18n import notice_text, t
from ..state import K_QID, K_QMODE, K_QPHRASING, K_QSET
from .keys import (
    K_LAB_ANNOTATOR,
    K_LAB_CAND,
    K_LAB_CHUNK,
    K_LAB_DOC,
    K_LAB_END,
    K_LAB_FIND,
    K_LAB_FLASH,
    K_LAB_FOR,
    K_LAB_GRADE,
    K_LAB_IMP_FLASH,
    K_LAB_LAST,
    K_LAB_MODE,
    K_LAB_NOTE,
    K_LAB_OCC,
    K_LAB_OCCS,
    K_LAB_PICK,
    K_LAB_POOL_DEPTH,
    K_LAB_POOL_ORDER,
    K_LAB_POOL_RETRIEVERS,
    K_LAB_POOL_SEED,
    K_LAB_QID,
    K_LAB_QSET,
    K_LAB_SAVE_ERROR,
    K_LAB_SEEN,
    K_LAB_SENT,
    K_LAB_SIDEBAR,
    K_LAB_SPAN,
    K_LAB_STALE,
    K_LAB_START,
    K_LAB_STORE_PATH,
    K_LAB_STORE_W,
)

#: How a span is picked: a chunk of the sidebar's chunking, a sentence, or a character range.
MODES = ("chunk", "sentence", "range")
#: Retrievers the pool may use: every sparse method with every analyzer, and the dense one.
POOL_SPECS: tuple[str, ...] = (
    *(f"{m}:{a}" for m in RETRIEVAL_METHODS if m not in VECTOR_METHODS for a in ANALYZERS),
    "dense",
)
#: Chunkings a qrels export may use: the sidebar's, or a preset's.
EXPORT_CHUNKINGS = ("sidebar", *PRESETS)
#: Characters shown on each side of the picked span in the excerpt.
EXCERPT_MARGIN = 500
#: Keys of the previous question's span, dropped when another question opens.
RESET_KEYS = (
    K_LAB_CAND,
    K_LAB_DOC,
    K_LAB_CHUNK,
    K_LAB_SENT,
    K_LAB_START,
    K_LAB_END,
    K_LAB_FIND,
    K_LAB_OCCS,
    K_LAB_LAST,
)

#: ``(question set, question id, doc id, start, end)``: one span of one question.
SpanKey = tuple[str, str, str, int, int]
#: Session state as the page holds it (``st.session_state``; a dict in tests).
State = Mapping[Any, Any]
MutableState = MutableMapping[Any, Any]


# ------------------------------------------------------------------ plumbing


@dataclass(frozen=True)
class Msg:
    """Words as a code: an ``ui.i18n`` key and its fields (a field may be a ``Msg`` too)."""

    key: str
    fields: Mapping[str, Any] = field(default_factory=dict)


def say(msg: Msg | Notice | str, lang: str) -> str:
    """``msg`` in ``lang`` (nested messages and core notices worded first); a core notice
    (a refusal of the label store, ``rag_core.wording.unworded``) worded; a plain string as is."""
    if isinstance(msg, str):
        return msg
    if isinstance(msg, Notice):
        return notice_text(msg, lang)
    return t(msg.key, lang, **{k: _worded(v, lang) for k, v in msg.fields.items()})


def _worded(value: Any, lang: str) -> Any:
    """A field of a :class:`Msg`: a nested one or a core notice in ``lang``, else as it is."""
    if isinstance(value, Msg):
        return say(value, lang)
    return notice_text(value, lang) if isinstance(value, Notice) else value


@dataclass(frozen=True)
class Change:
    """Session-state keys to drop, then keys to set."""

    values: Mapping[str, Any] = field(default_factory=dict)
    drop: tuple[str, ...] = ()


def apply(state: MutableState, change: Change) -> None:
    """Make ``change`` in ``state`` (``st.session_state`` on the page, a dict in tests)."""
    for key in change.drop:
        state.pop(key, None)
    for key, value in change.values.items():
        state[key] = value


@dataclass(frozen=True)
class Outcome:
    """What an action did: the state change, an error to show, whether the page reruns."""

    change: Change = field(default_factory=Change)
    error: Msg | Notice | str | None = None
    rerun: bool = False


class _Draft:
    """``state`` as it reads after the changes made so far (``state`` itself is not touched)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.values: dict[str, Any] = {}
        self.dropped: dict[str, None] = {}

    def __contains__(self, key: str) -> bool:
        return key in self.values or (key not in self.dropped and key in self.state)

    def get(self, key: str, default: Any = None) -> Any:
        if key in self.values:
            return self.values[key]
        return default if key in self.dropped else self.state.get(key, default)

    def set(self, key: str, value: Any) -> None:
        self.values[key] = value
        self.dropped.pop(key, None)

    def drop(self, key: str) -> None:
        self.values.pop(key, None)
        self.dropped[key] = None

    def change(self) -> Change:
        return Change(dict(self.values), tuple(self.dropped))


# ------------------------------------------------------------- store, annotator


def annotator(state: State) -> str:
    """The annotator's name as typed, without surrounding spaces ("" when none)."""
    return (state.get(K_LAB_ANNOTATOR) or "").strip()


def store_box(state: State, path: Path) -> Change:
    """The store-path box starts on the store in use."""
    return Change() if K_LAB_STORE_W in state else Change({K_LAB_STORE_W: str(path)})


def use_store(state: State) -> Outcome:
    """Switch to the path in the box; a path that cannot be opened is reported, the store stays."""
    wanted = str(state.get(K_LAB_STORE_W) or "").strip()
    try:  # a bad path, or on a shared server one outside its root: nothing is opened
        path = place_path("labels", wanted)  # on a shared server resolved once: what is opened
    except NoticeError as exc:
        return Outcome(error=Msg("lab.store_error", {"error": exc.notice}))
    try:
        LabelStore(path)  # opens (or creates) it
    except (LabelStoreError, OSError) as exc:
        root, variable = place_root("labels")
        said = unworded(exc)
        if path != wanted and root is not None:  # name the path as typed, not the server's
            said = as_typed(said, path, wanted, root, variable)
        return Outcome(error=Msg("lab.store_error", {"error": said}))
    return Outcome(Change({K_LAB_STORE_PATH: path}), rerun=True)


def inside(path: Path, root: Path) -> bool:
    """Whether ``path`` lies under ``root`` (a store in the source tree is flagged)."""
    return root in path.resolve().parents


# ------------------------------------------------------------------- question


def follow_sidebar(
    state: State, qsets: Mapping[str, Sequence[Question]], sidebar: Question | None
) -> Change:
    """The page's question follows the sidebar's when that moved; unknown set or id: the first."""
    d = _Draft(state)
    sb = (d.get(K_QSET), sidebar.id) if sidebar is not None and d.get(K_QSET) in qsets else None
    if sb is not None and d.get(K_LAB_SIDEBAR) != sb:
        d.set(K_LAB_QSET, sb[0])
        d.set(K_LAB_QID, sb[1])
    d.set(K_LAB_SIDEBAR, sb)
    if d.get(K_LAB_QSET) not in qsets:
        d.set(K_LAB_QSET, next(iter(qsets)))
    ids = [q.id for q in qsets[d.get(K_LAB_QSET)]]
    if d.get(K_LAB_QID) not in ids:
        d.set(K_LAB_QID, ids[0])
    return d.change()


def follow(state: State, qsets: Mapping[str, Sequence[Question]], qid: str | None = None) -> Change:
    """Callback: the page's question (``qid`` when given) becomes the sidebar's and the URL's."""
    d = _Draft(state)
    if qid is not None:
        d.set(K_LAB_QID, qid)
    name = d.get(K_LAB_QSET)
    ids = [q.id for q in qsets[name]]
    if d.get(K_LAB_QID) not in ids:
        d.set(K_LAB_QID, ids[0])
    qid_ = d.get(K_LAB_QID)
    for key, value in ((K_QMODE, "set"), (K_QSET, name), (K_QID, qid_), (K_QPHRASING, 0)):
        d.set(key, value)
    d.set(K_LAB_SIDEBAR, (name, qid_))
    return d.change()


def next_unjudged(ids: Sequence[str], not_judged: Sequence[str], current: str) -> str | None:
    """The first not-judged question after ``current`` (set order), else the first, else None."""
    after = [i for i in not_judged if i != current]
    order = {i: n for n, i in enumerate(ids)}
    return next((i for i in after if order[i] > order[current]), after[0] if after else None)


@dataclass(frozen=True)
class QuestionView:
    """The picked question, its labels and gold, and the set's progress."""

    question: Question
    #: Question id → the text its selectbox option shows.
    options: dict[str, str]
    judged: int
    total: int
    next_id: str | None
    phrasings: str
    facts: tuple[Msg, ...]
    labels: tuple[Label, ...]
    gold: tuple[Needle, ...]

    @property
    def share(self) -> float:
        """Judged / total (0 for an empty set)."""
        return self.judged / max(self.total, 1)


def question_view(
    store: LabelStore,
    qset: str,
    questions: Sequence[Question],
    qid: str,
    docs: Mapping[str, Document],
) -> QuestionView:
    """What the question section shows for question ``qid`` of set ``qset``."""
    ids = [q.id for q in questions]
    q = questions[ids.index(qid)]
    judged, not_judged = store.progress(qset, ids)
    labels = store.current(qset, q.id)
    facts = [
        Msg("lab.q_judged", {"n": len(labels)}) if labels else Msg("lab.q_not_judged"),
        Msg("lab.answerable" if q.answerable else "lab.unanswerable"),
    ]
    if q.tags:
        facts.append(Msg("lab.tags", {"tags": ", ".join(q.tags)}))
    return QuestionView(
        question=q,
        # the option texts must not change with a save: Streamlit derives the widget's identity
        # from them, and a new identity resets the browser's value to the first question at the
        # next interaction
        options={x.id: f"{x.id} · {x.question[:70]}" for x in questions},
        judged=len(judged),
        total=len(questions),
        next_id=next_unjudged(ids, not_judged, q.id),
        phrasings=" · ".join(f"{i}: {p}" for i, p in enumerate(q.phrasings))
        if len(q.phrasings) > 1
        else "",
        facts=tuple(facts),
        labels=tuple(labels),
        gold=gold_for(q, labels, docs, question_set=qset),
    )


@dataclass(frozen=True)
class GoldRow:
    """A gold-table row: a gold span (needle, label or both) or a judged-not-relevant label."""

    origin: str  # needle | label | needle+label | zero
    doc_id: str
    span: tuple[int, int] | None  # None: the text is not in the corpus
    grade: int
    text: str


def gold_rows(
    gold: Sequence[Needle], labels: Sequence[Label], docs: Mapping[str, Document]
) -> tuple[GoldRow, ...]:
    """The gold spans as located in their documents, then grade-0 labels (judged not relevant)."""
    rows = [
        GoldRow(
            n.origin,
            n.doc_id,
            locate(docs[n.doc_id].text, n) if n.doc_id in docs else None,
            n.grade,
            n.text,
        )
        for n in gold
    ]
    rows += [
        GoldRow("zero", lab.doc_id, (lab.start, lab.end), 0, lab.text)
        for lab in labels
        if lab.grade == 0
    ]
    return tuple(rows)


# ----------------------------------------------------------------------- pool


def pool_defaults(state: State) -> Change:
    """The pool's retrievers start as ``rag_core.evaluation.pooling.DEFAULT_POOL_RETRIEVERS``."""
    if K_LAB_POOL_RETRIEVERS in state:
        return Change()
    return Change({K_LAB_POOL_RETRIEVERS: list(DEFAULT_POOL_RETRIEVERS)})


@dataclass(frozen=True)
class PoolRequest:
    """The pool settings the widgets hold."""

    retrievers: tuple[str, ...]
    depth: int
    order: str
    seed: int


def pool_request(state: State) -> PoolRequest:
    """Read the pool widgets (after they are drawn)."""
    return PoolRequest(
        tuple(state.get(K_LAB_POOL_RETRIEVERS) or ()),
        int(state[K_LAB_POOL_DEPTH]),
        state[K_LAB_POOL_ORDER],
        int(state[K_LAB_POOL_SEED]),
    )


def gold_origins(
    chunks: Sequence[Chunk], gold: Sequence[Needle], docs: Mapping[str, Document]
) -> dict[str, tuple[str, ...]]:
    """Chunk id → the origins of the gold spans it contains entirely, each once, in gold order.

    Containment is ``rag_core.gold.relevance.relevant_chunk_ids`` (the rule the
    qrels and the metrics use); chunks that contain no gold span are absent.
    """
    origins: dict[str, dict[str, None]] = {}
    for n, ids in zip(gold, relevant_chunk_ids(chunks, gold, docs), strict=True):
        for cid in ids:
            origins.setdefault(cid, {})[n.origin] = None
    return {cid: tuple(found) for cid, found in origins.items()}


@dataclass(frozen=True)
class PoolRow:
    """One pooled candidate: where the runs ranked it, its chunk, and what is judged inside it."""

    position: int
    best_rank: int
    runs: str  # "run#rank, …"
    chunk: Chunk
    origins: tuple[str, ...]  # gold origins it contains
    zeros: int  # grade-0 labels inside it

    @property
    def gold(self) -> bool:
        return bool(self.origins)


@dataclass(frozen=True)
class PoolView:
    """The pool table and the candidates the span picker offers (position → chunk)."""

    rows: tuple[PoolRow, ...]
    by_rank: bool
    candidates: dict[int, Chunk]
    #: Position → the text its selectbox option shows.
    options: dict[int, str]
    #: One warning per retriever that could not run.
    warnings: tuple[Msg, ...]
    facts: Msg | None


def pool_view(
    result: Pool | None,
    chunking: Chunking,
    gold: Sequence[Needle],
    labels: Sequence[Label],
    docs: Mapping[str, Document],
) -> PoolView:
    """Rows of the pooled candidates (none when the pool did not run)."""
    if result is None:
        return PoolView((), True, {}, {}, (), None)
    pooled = [chunking.by_id.get(e.item) or result.extra[e.item] for e in result.entries]
    origins = gold_origins(pooled, gold, docs)
    rows = tuple(
        PoolRow(
            e.position,
            e.best_rank,
            ", ".join(f"{n}#{r}" for n, r in e.ranks),
            c,
            origins.get(c.chunk_id, ()),
            sum(lab.grade == 0 for lab in labels_within(labels, c.doc_id, c.start, c.end)),
        )
        for e, c in zip(result.entries, pooled, strict=True)
    )
    facts = Msg(
        "lab.pool.facts",
        {
            "n": len(rows),
            "runs": len(result.runs),
            "depth": result.depth,
            "sig": result.chunker_signature,
        },
    )
    return PoolView(
        rows,
        result.order == "rank",
        {r.position: r.chunk for r in rows},
        {r.position: f"#{r.position} · {_chunk_option(r.chunk)}" for r in rows},
        tuple(Msg("lab.pool.unavailable", {"message": m}) for m in result.unavailable),
        facts,
    )


def _chunk_option(c: Chunk) -> str:
    return f"{c.doc_id} #{c.ordinal} · {snippet(c.content, 70)}"


# ----------------------------------------------------------------- span picking


def _open(d: _Draft, candidates: Mapping[int, Chunk]) -> None:
    c = candidates.get(d.get(K_LAB_CAND))
    if c is not None:
        d.set(K_LAB_DOC, c.doc_id)
        d.set(K_LAB_CHUNK, c.chunk_id)
        d.set(K_LAB_MODE, "chunk")


def open_candidate(state: State, candidates: Mapping[int, Chunk]) -> Change:
    """Callback: the picked candidate opens as its document and chunk, in chunk mode."""
    d = _Draft(state)
    _open(d, candidates)
    return d.change()


def find(state: State, text: str) -> Change:
    """Callback: every occurrence of the find box's text in ``text``; the first is the range."""
    found = occurrences(text, state.get(K_LAB_FIND) or "")
    d = _Draft(state)
    d.set(K_LAB_OCCS, found)
    if found:
        d.set(K_LAB_START, found[0][0])
        d.set(K_LAB_END, found[0][1])
        d.set(K_LAB_OCC, 0)
    return d.change()


def pick_occurrence(state: State) -> Change:
    """Callback: the picked occurrence becomes the range."""
    found = state.get(K_LAB_OCCS) or ()
    i = state.get(K_LAB_OCC) or 0
    if not 0 <= i < len(found):
        return Change()
    return Change({K_LAB_START: found[i][0], K_LAB_END: found[i][1]})


@dataclass(frozen=True)
class SpanPick:
    """The span the widgets pick this run, and what they offer.

    ``change`` is to be applied before the widgets are drawn. ``flash`` and
    ``save_error`` are the one-shot messages of the previous action.
    """

    change: Change
    doc: Document
    mode: str
    #: The mode's picker: chunk id → option text (chunk mode), sentence index → option text
    #: (sentence mode); empty in range mode.
    options: dict[Any, str]
    #: Occurrence index → "start–end" when the find box's text occurs more than once.
    occ_options: dict[int, str]
    find_none: bool  # the find box's text does not occur
    empty: Msg | None  # the mode has nothing to offer in this document
    start: int
    end: int
    existing: Label | None  # the label on exactly this span
    flash: Msg | None
    save_error: Notice | str | None  # the refusal's notice (its text: not a NoticeError)

    @property
    def ok(self) -> bool:
        """A non-empty span inside the document."""
        return 0 <= self.start < self.end <= len(self.doc.text)

    @property
    def picker(self) -> str:
        """Session key of the mode's picker (chunk or sentence; "" in range mode)."""
        return {"chunk": K_LAB_CHUNK, "sentence": K_LAB_SENT}.get(self.mode, "")

    @property
    def bad(self) -> Msg | None:
        """The message for a range that is not a span (other modes only offer valid ones)."""
        if self.ok or self.mode != "range":
            return None
        return Msg("lab.bad_span", {"start": self.start, "end": self.end, "n": len(self.doc.text)})


def pick_span(
    state: State,
    qset: str,
    qid: str,
    candidates: Mapping[int, Chunk],
    docs: Mapping[str, Document],
    chunking: Chunking,
    labels: Sequence[Label],
) -> SpanPick:
    """The span-picking transitions of one run (see the module docstring), as one change.

    In order: take the previous action's messages, open a new question on its first
    candidate, settle the document, the mode and the chunk, let the mode pick the span,
    then show the stored label of that span.
    """
    d = _Draft(state)
    # no key of this page's own yet, but widget values: the browser reconnected to a fresh
    # session (after a server restart) and sent back what its widgets held
    refilled = K_LAB_FOR not in state and K_LAB_CAND in state
    flash, save_error = _take_messages(d)
    _open_question(d, qset, qid, candidates, refilled)
    doc = _pick_document(d, docs)
    doc_chunks = [c for c in chunking.chunks if c.doc_id == doc.doc_id]
    if d.get(K_LAB_MODE) not in MODES:
        d.set(K_LAB_MODE, "chunk")
    mode = d.get(K_LAB_MODE)
    last_span = _last_span(d, doc)
    _keep_chunk(d, doc_chunks, last_span)
    span = _MODE_SPANS[mode](d, doc, doc_chunks, chunking, last_span)
    existing = _show_label(d, (qset, qid, doc.doc_id, span.start, span.end), doc, labels, refilled)
    return SpanPick(
        d.change(),
        doc,
        mode,
        span.options,
        span.occ_options,
        span.find_none,
        span.empty,
        span.start,
        span.end,
        existing,
        flash,
        save_error,
    )


def _take_messages(d: _Draft) -> tuple[Msg | None, Notice | str | None]:
    """The previous action's one-shot flash and save error, dropped from the state."""
    flash, save_error = d.get(K_LAB_FLASH), d.get(K_LAB_SAVE_ERROR)
    d.drop(K_LAB_FLASH)
    d.drop(K_LAB_SAVE_ERROR)
    return flash, save_error


def _open_question(
    d: _Draft, qset: str, qid: str, candidates: Mapping[int, Chunk], refilled: bool = False
) -> None:
    """A new question drops the previous span's keys and opens its first pooled candidate; the
    picked candidate stays one of the pool's. A ``refilled`` session keeps its widgets."""
    if refilled:  # a fresh session the browser refilled (a server restart): widgets stay
        d.set(K_LAB_FOR, (qset, qid))
    if d.get(K_LAB_FOR) != (qset, qid):
        d.set(K_LAB_FOR, (qset, qid))
        for key in RESET_KEYS:
            d.drop(key)
        if candidates:
            d.set(K_LAB_CAND, min(candidates))
            _open(d, candidates)
    if candidates and d.get(K_LAB_CAND) not in candidates:
        d.set(K_LAB_CAND, min(candidates))


def _pick_document(d: _Draft, docs: Mapping[str, Document]) -> Document:
    """The picked document (the corpus's first when the picked one is gone)."""
    if d.get(K_LAB_DOC) not in docs:
        d.set(K_LAB_DOC, next(iter(docs)))
    return docs[d.get(K_LAB_DOC)]


def _last_span(d: _Draft, doc: Document) -> tuple[int, int] | None:
    """``(start, end)`` of the last valid span when it lies in ``doc``: where a new mode opens."""
    last = d.get(K_LAB_LAST)
    return (last[1], last[2]) if last and last[0] == doc.doc_id else None


def _keep_chunk(d: _Draft, doc_chunks: Sequence[Chunk], last_span: tuple[int, int] | None) -> None:
    """The picked chunk is one of the document's: the one holding the last span's start, else
    its first."""
    if d.get(K_LAB_CHUNK) not in {c.chunk_id for c in doc_chunks} and doc_chunks:
        near = [c for c in doc_chunks if last_span and c.start <= last_span[0] < c.end]
        d.set(K_LAB_CHUNK, (near[0] if near else doc_chunks[0]).chunk_id)


@dataclass(frozen=True)
class _ModeSpan:
    """The span one mode picks, and what its pickers offer (see :class:`SpanPick`)."""

    start: int = 0
    end: int = 0
    options: dict[Any, str] = field(default_factory=dict)
    occ_options: dict[int, str] = field(default_factory=dict)
    find_none: bool = False
    empty: Msg | None = None


def _chunk_span(
    d: _Draft,
    doc: Document,
    doc_chunks: Sequence[Chunk],
    chunking: Chunking,
    last_span: tuple[int, int] | None,
) -> _ModeSpan:
    """Chunk mode: the picked chunk of the sidebar's chunking."""
    options: dict[Any, str] = {
        c.chunk_id: f"#{c.ordinal} · {c.start}–{c.end} · {snippet(c.content, 70)}"
        for c in doc_chunks
    }
    if not doc_chunks:
        return _ModeSpan(options=options, empty=Msg("lab.no_chunks"))
    c = chunking.by_id[d.get(K_LAB_CHUNK)]
    return _ModeSpan(c.start, c.end, options)


def _sentence_span(
    d: _Draft,
    doc: Document,
    doc_chunks: Sequence[Chunk],
    chunking: Chunking,
    last_span: tuple[int, int] | None,
) -> _ModeSpan:
    """Sentence mode: the picked sentence; opened anew, the one holding the last span's start
    (else the picked chunk's)."""
    sents = sentence_spans(doc.text)
    if not sents:
        return _ModeSpan(empty=Msg("lab.no_sentences"))
    sent = d.get(K_LAB_SENT)
    if not isinstance(sent, int) or not 0 <= sent < len(sents):
        anchor = (
            last_span[0]
            if last_span
            else (chunking.by_id[d.get(K_LAB_CHUNK)].start if doc_chunks else 0)
        )
        d.set(K_LAB_SENT, sentence_containing(doc.text, anchor) or 0)
    options: dict[Any, str] = {
        i: f"{i + 1} · {s}–{e} · {snippet(doc.text[s:e], 80)}" for i, (s, e) in enumerate(sents)
    }
    start, end = sents[d.get(K_LAB_SENT)]
    return _ModeSpan(start, end, options)


def _range_span(
    d: _Draft,
    doc: Document,
    doc_chunks: Sequence[Chunk],
    chunking: Chunking,
    last_span: tuple[int, int] | None,
) -> _ModeSpan:
    """Range mode: typed offsets, clipped to the document (opened anew: the last span, else the
    picked chunk's); the find box's occurrences when it holds text."""
    n_chars = len(doc.text)
    if K_LAB_START not in d or K_LAB_END not in d:
        base = chunking.by_id.get(d.get(K_LAB_CHUNK) or "")
        s, e = last_span or ((base.start, base.end) if base else (0, min(n_chars, 200)))
        d.set(K_LAB_START, s)
        d.set(K_LAB_END, e)
    for key in (K_LAB_START, K_LAB_END):
        d.set(key, min(max(int(d.get(key)), 0), n_chars))
    found = d.get(K_LAB_OCCS) or ()
    find_none = False
    occ_options: dict[int, str] = {}
    if d.get(K_LAB_FIND):
        find_none = not found
        if len(found) > 1:
            occ = d.get(K_LAB_OCC)
            if not isinstance(occ, int) or occ >= len(found):
                d.set(K_LAB_OCC, 0)
            occ_options = {i: f"{s}–{e}" for i, (s, e) in enumerate(found)}
    start, end = int(d.get(K_LAB_START)), int(d.get(K_LAB_END))
    return _ModeSpan(start, end, {}, occ_options, find_none)


#: Each mode's span picker (:data:`MODES`).
_MODE_SPANS = {"chunk": _chunk_span, "sentence": _sentence_span, "range": _range_span}


def _show_label(
    d: _Draft, key: SpanKey, doc: Document, labels: Sequence[Label], refilled: bool = False
) -> Label | None:
    """Remember a valid span as the last one; a new span shows its stored label's grade and note
    (else an empty note), unless the browser ``refilled`` them. Returns the label on exactly
    this span."""
    _qset, _qid, doc_id, start, end = key
    ok = 0 <= start < end <= len(doc.text)
    if ok:
        d.set(K_LAB_LAST, (doc_id, start, end))
    existing = label_on(labels, doc_id, start, end) if ok else None
    if refilled:  # a fresh session the browser refilled (a server restart): the typed grade
        d.set(K_LAB_SPAN, key)  # and note stay
    if d.get(K_LAB_SPAN) != key:  # a new span: show its label, if any
        d.set(K_LAB_SPAN, key)
        if existing is not None:
            d.set(K_LAB_GRADE, existing.grade)
        d.set(K_LAB_NOTE, existing.note if existing is not None else "")
    if d.get(K_LAB_GRADE) not in GRADES:
        d.set(K_LAB_GRADE, 1)
    return existing


def judged(existing: Label | None) -> Msg:
    """What the picked span's caption says about its label."""
    if existing is None:
        return Msg("lab.span_not_judged")
    return Msg(
        "lab.span_judged",
        {
            "grade": existing.grade,
            "who": existing.annotator or "—",
            "when": existing.created_at,
            "kind": Msg(f"lab.kind.{existing.kind}"),
        },
    )


@dataclass(frozen=True)
class MarkSpec:
    """A highlighted range of the excerpt: classes and a tooltip."""

    start: int
    end: int
    cls: str
    title: Msg


def excerpt_marks(
    pick: SpanPick, gold: Sequence[Needle], labels: Sequence[Label]
) -> tuple[MarkSpec, ...]:
    """Gold spans of the question in the picked document, its labels there, then the picked span."""
    doc = pick.doc
    marks: list[MarkSpec] = []
    for n in gold:
        where = locate(doc.text, n) if n.doc_id == doc.doc_id else None
        if where:
            marks.append(MarkSpec(where[0], where[1], "ri-gold", Msg(f"lab.origin.{n.origin}")))
    marks += [
        MarkSpec(
            lab.start,
            lab.end,
            f"ri-lab ri-g{lab.grade}",
            Msg("lab.mark_label", {"grade": lab.grade, "who": lab.annotator or "—"}),
        )
        for lab in labels
        if lab.doc_id == doc.doc_id
    ]
    if pick.ok:
        marks.append(MarkSpec(pick.start, pick.end, "ri-pick", Msg("lab.mark_pick")))
    return tuple(marks)


def excerpt_window(pick: SpanPick, whole: bool) -> tuple[int, int]:
    """``[lo, hi)`` of the document shown: all, or the span and :data:`EXCERPT_MARGIN` around."""
    n_chars = len(pick.doc.text)
    if whole:
        return 0, n_chars
    start, end = (pick.start, pick.end) if pick.ok else (0, 0)
    return max(0, start - EXCERPT_MARGIN), min(n_chars, end + EXCERPT_MARGIN)


# ---------------------------------------------------------------------- saving


def write(
    store: LabelStore,
    key: SpanKey,
    doc: Document,
    existing: Label | None,
    grade: int,
    note: str,
    who: str,
    expected: int | None,
) -> Msg:
    """Add or change the label of span ``key``, expecting version ``expected`` (else StaleLabel).

    Returns the confirmation. An unchanged grade and note write nothing.
    """
    name, qid, doc_id, lo, hi = key
    if existing is None:
        lab = store.add(
            name,
            qid,
            doc_id,
            lo,
            hi,
            grade,
            text=doc.text[lo:hi],
            note=note,
            annotator=who,
            doc=doc,
            expected_event=expected,
        )
        return Msg("lab.saved", {"grade": lab.grade, "start": lo, "end": hi})
    if (existing.grade, existing.note) == (grade, note):
        return Msg("lab.unchanged")
    lab = store.change(
        existing.label_id, grade=grade, note=note, annotator=who, expected_event=expected
    )
    return Msg("lab.changed", {"grade": lab.grade})


def save(state: State, store: LabelStore, key: SpanKey, doc: Document) -> Change:
    """Save button callback: the span's label as stored now; grade, note, annotator as clicked.

    A label changed elsewhere since this session showed it is not overwritten:
    the edit is kept in ``label._stale`` and the next run asks.
    """
    now = label_on(store.current(key[0], key[1]), key[2], key[3], key[4])
    now_ev = now.event_id if now is not None else None
    seen = state.get(K_LAB_SEEN)
    seen_ev = seen[1] if seen and seen[0] == key else now_ev
    grade, note, who = int(state[K_LAB_GRADE]), state.get(K_LAB_NOTE) or "", annotator(state)
    d = _Draft(state)
    if not who:  # the name was cleared with this click: nothing is saved, the page asks for it
        return d.change()
    if seen_ev != now_ev:
        d.set(K_LAB_STALE, (key, grade, note))
        return d.change()
    try:
        d.set(K_LAB_FLASH, write(store, key, doc, now, grade, note, who, seen_ev))
    except StaleLabel:  # written elsewhere between the read and the write: ask
        d.set(K_LAB_STALE, (key, grade, note))
        d.set(K_LAB_SEEN, (key, seen_ev))
    except ValueError as exc:
        d.set(K_LAB_SAVE_ERROR, unworded(exc))
    else:
        d.drop(K_LAB_SEEN)
    return d.change()


def mouse_span(state: State, docs: Mapping[str, Document], selected: Any) -> Change:
    """Callback of the excerpt's mouse selection (``{"doc", "start", "end"}``, code-point offsets
    of ``Document.text``): it becomes the character range, without the whitespace at its ends.
    A selection of another document, outside the text or of whitespace only changes nothing."""
    if not isinstance(selected, Mapping):
        return Change()
    doc, start, end = selected.get("doc"), selected.get("start"), selected.get("end")
    if not isinstance(doc, str) or doc not in docs or doc != state.get(K_LAB_DOC):
        return Change()
    if not (isinstance(start, int) and isinstance(end, int)) or isinstance(start, bool):
        return Change()
    text = docs[doc].text
    if not 0 <= start < end <= len(text):
        return Change()
    piece = text[start:end]
    start += len(piece) - len(piece.lstrip())
    end -= len(piece) - len(piece.rstrip())
    if end <= start:
        return Change()
    return Change(
        {K_LAB_MODE: "range", K_LAB_START: start, K_LAB_END: end, K_LAB_FIND: ""}, (K_LAB_OCCS,)
    )


def set_grade(state: State, grade: int) -> Change:
    """Grade-key callback (``0``–``3``): the grade widget holds ``grade``; nothing is written."""
    if grade not in GRADES:
        raise ValueError(f"grade must be one of {GRADES}, got {grade!r}")
    return Change({K_LAB_GRADE: grade})


def next_candidate(current: int | None, candidates: Mapping[int, Chunk]) -> int | None:
    """The pooled candidate after position ``current`` in pool order (None after the last)."""
    return min((p for p in candidates if current is None or p > current), default=None)


def save_and_next(
    state: State,
    store: LabelStore,
    key: SpanKey,
    doc: Document,
    candidates: Mapping[int, Chunk],
    qsets: Mapping[str, Sequence[Question]],
    next_qid: str | None,
) -> Change:
    """Enter's callback: :func:`save`, then, when it wrote (or had nothing to change), the next
    pooled candidate opens as its chunk; after the last one, the next not-judged question
    (:func:`follow`). A refused, failed or unnamed save stays on the span."""
    saved = save(state, store, key, doc)
    d = _Draft(state)
    _merge(d, saved)
    if saved.values.get(K_LAB_FLASH) is None:  # stale, failed, or no annotator: nothing moves
        return d.change()
    nxt = next_candidate(d.get(K_LAB_CAND), candidates)
    if nxt is not None:
        d.set(K_LAB_CAND, nxt)
        _open(d, candidates)
    elif next_qid is not None:
        _merge(d, follow(state, qsets, next_qid))
    return d.change()


def _merge(d: _Draft, change: Change) -> None:
    for key in change.drop:
        d.drop(key)
    for key, value in change.values.items():
        d.set(key, value)


@dataclass(frozen=True)
class Edit:
    """The grade and note this run would save, and the label versions it knows of.

    ``ask`` is the question shown when this span's edit was refused as stale;
    ``keep`` the stored label's grade and note (the "keep current" answer).
    """

    grade: int
    note: str
    now_event: int | None
    seen_event: int | None
    ask: Msg | None
    keep: tuple[int, str]
    change: Change


def edit_of(state: State, store: LabelStore, key: SpanKey, existing: Label | None) -> Edit:
    """The pending edit of span ``key``; a refused edit of another span is forgotten."""
    grade, note = int(state[K_LAB_GRADE]), state.get(K_LAB_NOTE) or ""
    now_event = existing.event_id if existing is not None else None
    seen = state.get(K_LAB_SEEN)  # (span, label version) as the previous run showed them
    seen_event = seen[1] if seen and seen[0] == key else now_event
    stale = state.get(K_LAB_STALE)
    ask = None
    if stale and stale[0] == key:
        grade, note = stale[1], stale[2]
        was = (
            None
            if seen is None or seen_event is None
            else next(
                (str(e.grade) for e in store.history(key[0], key[1]) if e.event_id == seen_event),
                None,
            )
        )
        ask = Msg(
            "lab.stale_edit",
            {
                "seen": was or "—",
                "now": existing.grade if existing else "—",
                "who": (existing.annotator or "—") if existing else "—",
            },
        )
    change = Change(drop=(K_LAB_STALE,)) if stale and stale[0] != key else Change()
    keep = (existing.grade, existing.note) if existing else (1, "")
    return Edit(grade, note, now_event, seen_event, ask, keep, change)


def overwrite(
    store: LabelStore, key: SpanKey, doc: Document, existing: Label | None, edit: Edit, who: str
) -> Outcome:
    """ "Overwrite" answer: write the refused edit over the label as it is now."""
    d = _Draft({})
    d.drop(K_LAB_STALE)
    try:
        flash = write(store, key, doc, existing, edit.grade, edit.note, who, edit.now_event)
    except StaleLabel:  # written elsewhere again between this run's read and the write: ask again
        d.set(K_LAB_STALE, (key, edit.grade, edit.note))
        d.set(K_LAB_SEEN, (key, edit.now_event))
        return Outcome(d.change(), rerun=True)
    except ValueError as exc:
        return Outcome(d.change(), error=unworded(exc))
    d.drop(K_LAB_SEEN)
    d.set(K_LAB_FLASH, flash)
    return Outcome(d.change(), rerun=True)


def keep_current(grade: int, note: str) -> Change:
    """ "Keep current" answer (callback): the widgets show the stored label; nothing is written."""
    return Change(
        {
            K_LAB_GRADE: grade,
            K_LAB_NOTE: note,
            K_LAB_FLASH: Msg("lab.stale_kept", {"grade": grade}),
        },
        (K_LAB_STALE,),
    )


def remember_seen(state: State, key: SpanKey, existing: Label | None) -> Change:
    """End of a run: remember the label version shown, unless a refused edit awaits an answer."""
    if state.get(K_LAB_STALE):
        return Change({K_LAB_SEEN: state.get(K_LAB_SEEN)})
    return Change({K_LAB_SEEN: (key, existing.event_id if existing is not None else None)})


def undo(store: LabelStore, existing: Label | None, this: bool, who: str) -> Outcome:
    """Undo ``existing``'s last event (``this``), else ``who``'s last event; refusals are errors."""
    try:
        ev = store.undo(
            label_id=existing.label_id if this and existing is not None else None, annotator=who
        )
    except ValueError as exc:
        return Outcome(error=unworded(exc))
    flash = Msg("lab.undone", {"kind": ev.kind, "doc": ev.doc_id, "start": ev.start, "end": ev.end})
    return Outcome(Change({K_LAB_FLASH: flash}), rerun=True)


# ------------------------------------------------------------ labels, progress


def label_options(labels: Sequence[Label]) -> dict[str, str]:
    """Label id → the text its option shows."""
    return {
        lab.label_id: f"{lab.doc_id} {lab.start}–{lab.end} · {snippet(lab.text, 60)}"
        for lab in labels
    }


def open_label(state: State, labels: Sequence[Label]) -> Change:
    """Callback: the picked label opens as a character range of its document."""
    lab = next((x for x in labels if x.label_id == state.get(K_LAB_PICK)), None)
    if lab is None:
        return Change()
    return Change(
        {
            K_LAB_DOC: lab.doc_id,
            K_LAB_MODE: "range",
            K_LAB_START: lab.start,
            K_LAB_END: lab.end,
            K_LAB_FIND: "",
        }
    )


@dataclass(frozen=True)
class SetProgress:
    """Judged and not-judged questions of one set."""

    name: str
    judged: int
    not_judged: int
    total: int

    @property
    def share(self) -> str:
        return f"{self.judged / max(self.total, 1):.0%}"


def set_progress(
    store: LabelStore, qsets: Mapping[str, Sequence[Question]]
) -> tuple[SetProgress, ...]:
    """Progress of every question set, in set order."""
    out = []
    for name, qs in qsets.items():
        judged_, not_judged = store.progress(name, [x.id for x in qs])
        out.append(SetProgress(name, len(judged_), len(not_judged), len(qs)))
    return tuple(out)


def stale_warning(
    labels: Sequence[Label], docs: Mapping[str, Document], shown: int = 8
) -> Msg | None:
    """Labels of this corpus whose text no longer matches their document (``stale_labels``)."""
    stale = [lab for lab in stale_labels(labels, docs) if lab.doc_id in docs]
    if not stale:
        return None
    ids = ", ".join(
        f"{lab.question_id} {lab.doc_id} {lab.start}–{lab.end}" for lab in stale[:shown]
    )
    return Msg("lab.stale", {"n": len(stale), "ids": ids})


# ------------------------------------------------------------- export, import


@dataclass(frozen=True)
class ExportPlan:
    """Which sets an export covers, the file-name stem, and the JSONL export's set (None: all)."""

    sets: tuple[str, ...]
    stem: str
    jsonl_set: str | None


def export_plan(scope: str, qset: str, names: Sequence[str]) -> ExportPlan:
    """``scope`` "set": the page's set; "all": every set."""
    if scope == "set":
        return ExportPlan((qset,), qset, qset)
    return ExportPlan(tuple(names), "all", None)


def export_chunker(choice: str, sidebar: ChunkerConfig) -> ChunkerConfig:
    """The chunking a qrels export uses: the sidebar's or a preset's."""
    return sidebar if choice == "sidebar" else preset(choice).chunker


def qrels_text(
    store: LabelStore,
    chunks: Sequence[Chunk],
    qsets: Mapping[str, Sequence[Question]],
    plan: ExportPlan,
    docs: Mapping[str, Document],
    phrasings: str,
    escape: bool,
) -> str:
    """TREC qrels of the plan's sets for ``chunks`` (``LabelStore.export_qrels``, set by set)."""
    return "".join(
        store.export_qrels(
            chunks, qsets[name], docs, question_set=name, phrasings=phrasings, escape=escape
        )
        for name in plan.sets
    )


def qrels_queries(text: str) -> int:
    """How many query ids a qrels text has (first column)."""
    return len({line.split()[0] for line in text.splitlines()})


def import_labels(
    store: LabelStore, name: str, data: bytes, docs: Mapping[str, Document] | None
) -> Outcome:
    """Import an uploaded JSONL file (checked against ``docs`` if given); nothing on a bad file."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        reason = Msg("lab.imp.not_utf8", {"name": name, "error": exc.reason, "byte": exc.start})
        return Outcome(error=Msg("lab.imp.bad", {"reason": reason}))
    try:
        rep = store.import_jsonl(text, docs=docs, source=name)
    except ValueError as exc:
        return Outcome(error=Msg("lab.imp.bad", {"reason": unworded(exc)}))
    done = Msg(
        "lab.imp.ok",
        {
            "lines": rep.n_lines,
            "added": rep.added,
            "changed": rep.changed,
            "unchanged": rep.unchanged,
        },
    )
    return Outcome(Change({K_LAB_IMP_FLASH: done}), rerun=True)
