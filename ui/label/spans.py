"""The Label page's span picking and its excerpt; no Streamlit.

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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rag_core.gold.labels import GRADES, Label
from rag_core.gold.relevance import locate
from rag_core.gold.spans import label_on, occurrences, sentence_containing
from rag_core.text import sentence_spans
from rag_core.types import Chunk, Chunking, Document, Needle, Notice

from ..html import snippet
from .keys import (
    K_LAB_CAND,
    K_LAB_CHUNK,
    K_LAB_DOC,
    K_LAB_END,
    K_LAB_FIND,
    K_LAB_FLASH,
    K_LAB_FOR,
    K_LAB_GRADE,
    K_LAB_LAST,
    K_LAB_MODE,
    K_LAB_NOTE,
    K_LAB_OCC,
    K_LAB_OCCS,
    K_LAB_PICK,
    K_LAB_SAVE_ERROR,
    K_LAB_SENT,
    K_LAB_SPAN,
    K_LAB_START,
)
from .view import Change, Draft, Msg, SpanKey, State

#: How a span is picked: a chunk of the sidebar's chunking, a sentence, or a character range.
MODES = ("chunk", "sentence", "range")
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


def open_picked(d: Draft, candidates: Mapping[int, Chunk]) -> None:
    """The picked candidate (``label.cand``) as its document and chunk, in chunk mode."""
    c = candidates.get(d.get(K_LAB_CAND))
    if c is not None:
        d.set(K_LAB_DOC, c.doc_id)
        d.set(K_LAB_CHUNK, c.chunk_id)
        d.set(K_LAB_MODE, "chunk")


def open_candidate(state: State, candidates: Mapping[int, Chunk]) -> Change:
    """Callback: the picked candidate opens as its document and chunk, in chunk mode."""
    d = Draft(state)
    open_picked(d, candidates)
    return d.change()


def find(state: State, text: str) -> Change:
    """Callback: every occurrence of the find box's text in ``text``; the first is the range."""
    found = occurrences(text, state.get(K_LAB_FIND) or "")
    d = Draft(state)
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
    d = Draft(state)
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


def _take_messages(d: Draft) -> tuple[Msg | None, Notice | str | None]:
    """The previous action's one-shot flash and save error, dropped from the state."""
    flash, save_error = d.get(K_LAB_FLASH), d.get(K_LAB_SAVE_ERROR)
    d.drop(K_LAB_FLASH)
    d.drop(K_LAB_SAVE_ERROR)
    return flash, save_error


def _open_question(
    d: Draft, qset: str, qid: str, candidates: Mapping[int, Chunk], refilled: bool = False
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
            open_picked(d, candidates)
    if candidates and d.get(K_LAB_CAND) not in candidates:
        d.set(K_LAB_CAND, min(candidates))


def _pick_document(d: Draft, docs: Mapping[str, Document]) -> Document:
    """The picked document (the corpus's first when the picked one is gone)."""
    if d.get(K_LAB_DOC) not in docs:
        d.set(K_LAB_DOC, next(iter(docs)))
    return docs[d.get(K_LAB_DOC)]


def _last_span(d: Draft, doc: Document) -> tuple[int, int] | None:
    """``(start, end)`` of the last valid span when it lies in ``doc``: where a new mode opens."""
    last = d.get(K_LAB_LAST)
    return (last[1], last[2]) if last and last[0] == doc.doc_id else None


def _keep_chunk(d: Draft, doc_chunks: Sequence[Chunk], last_span: tuple[int, int] | None) -> None:
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
    d: Draft,
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
    d: Draft,
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
    d: Draft,
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
    d: Draft, key: SpanKey, doc: Document, labels: Sequence[Label], refilled: bool = False
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
