"""The Label page's saving: a span's label written, stale edits asked about, undo; no
Streamlit.

Saving is optimistic concurrency: the page remembers the label version it
showed (``label._seen``); a save against a label that changed meanwhile is
not written but asked about (:func:`edit_of`, :func:`overwrite`,
:func:`keep_current`), as ``rag_core.gold.store.LabelStore`` checks with
``expected_event``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rag_core.gold.labels import Label
from rag_core.gold.spans import label_on
from rag_core.gold.store import LabelStore, StaleLabel
from rag_core.types import Chunk, Document, Question
from rag_core.wording import unworded

from .keys import (
    K_LAB_CAND,
    K_LAB_FLASH,
    K_LAB_GRADE,
    K_LAB_NOTE,
    K_LAB_SAVE_ERROR,
    K_LAB_SEEN,
    K_LAB_STALE,
)
from .spans import open_picked
from .view import Change, Draft, Msg, Outcome, SpanKey, State, annotator, follow


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
    """Save button callback: the span's label as stored now in this annotator's own state; grade,
    note, annotator as clicked.

    A label changed elsewhere since this session showed it is not overwritten:
    the edit is kept in ``label._stale`` and the next run asks.
    """
    grade, note, who = int(state[K_LAB_GRADE]), state.get(K_LAB_NOTE) or "", annotator(state)
    d = Draft(state)
    if not who:  # the name was cleared with this click: nothing is saved, the page asks for it
        return d.change()
    now = label_on(store.mine(who, key[0], key[1]), key[2], key[3], key[4])  # this annotator's
    now_ev = now.event_id if now is not None else None
    seen = state.get(K_LAB_SEEN)
    seen_ev = seen[1] if seen and seen[0] == key else now_ev
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
    d = Draft(state)
    d.merge(saved)
    if saved.values.get(K_LAB_FLASH) is None:  # stale, failed, or no annotator: nothing moves
        return d.change()
    nxt = next_candidate(d.get(K_LAB_CAND), candidates)
    if nxt is not None:
        d.set(K_LAB_CAND, nxt)
        open_picked(d, candidates)
    elif next_qid is not None:
        d.merge(follow(state, qsets, next_qid))
    return d.change()


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
    d = Draft({})
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
            label_id=existing.label_id if this and existing is not None else None,
            annotator=who,
            track="own",  # an adjudication is undone in the adjudication queue
        )
    except ValueError as exc:
        return Outcome(error=unworded(exc))
    flash = Msg("lab.undone", {"kind": ev.kind, "doc": ev.doc_id, "start": ev.start, "end": ev.end})
    return Outcome(Change({K_LAB_FLASH: flash}), rerun=True)
