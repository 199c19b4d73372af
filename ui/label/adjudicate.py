"""The Label page's review and adjudication: the units of a question side by side, and the queue
of units annotators disagree on, settled one keystroke each; no Streamlit.

A unit (``rag_core.gold.units``) is the overlapping labels of one question and document. The
queue is every unit of a set that two or more annotators labeled and that does not agree; taking
A's (or B's) judgement writes it as adjudication events (their spans and grades), a new grade is
written on A's span (else B's), and an earlier adjudication of the unit on another span is undone
first, so a unit holds one decision. Undo reverts the adjudicator's latest adjudication event.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rag_core.gold.labels import Label
from rag_core.gold.store import LabelStore
from rag_core.gold.units import (
    Unit,
    disagreements,
    question_annotators,
    settled_by,
    units_of,
)
from rag_core.types import Document
from rag_core.wording import unworded

from .keys import K_LAB_ADJ_A, K_LAB_ADJ_B, K_LAB_ADJ_FLASH, K_LAB_ADJ_NOTE, K_LAB_ADJ_POS
from .view import Change, Draft, Msg, State


@dataclass(frozen=True)
class QueueItem:
    """A disagreement and the adjudications on it (none: pending)."""

    unit: Unit
    settled: tuple[Label, ...]


@dataclass(frozen=True)
class QueueView:
    """The set's disagreements, the item shown, and how many are settled."""

    items: tuple[QueueItem, ...]
    annotators: tuple[str, ...]
    pos: int

    @property
    def done(self) -> int:
        return sum(1 for it in self.items if it.settled)

    @property
    def item(self) -> QueueItem | None:
        return self.items[self.pos] if self.items else None


def queue_view(store: LabelStore, qset: str, state: State) -> QueueView:
    """The queue of set ``qset``; the item shown is the one chosen, else the first pending."""
    snap = store.snapshot(qset)
    units = disagreements(units_of(snap.own), question_annotators(snap.own))
    items = tuple(QueueItem(u, settled_by(u, snap.adjudications)) for u in units)
    pos = state.get(K_LAB_ADJ_POS)
    if not isinstance(pos, int) or not 0 <= pos < len(items):
        pos = next((i for i, it in enumerate(items) if not it.settled), 0)
    return QueueView(items, snap.annotators, pos)


def pair(state: State, annotators: Sequence[str]) -> tuple[str, str] | None:
    """The two annotators whose judgements the keys ``a`` and ``b`` take (the first two unless
    chosen); None with fewer than two."""
    if len(annotators) < 2:
        return None
    chosen_a, chosen_b = state.get(K_LAB_ADJ_A), state.get(K_LAB_ADJ_B)
    a = chosen_a if isinstance(chosen_a, str) and chosen_a in annotators else annotators[0]
    ok_b = isinstance(chosen_b, str) and chosen_b in annotators and chosen_b != a
    b = str(chosen_b) if ok_b else next(w for w in annotators if w != a)
    return a, b


def _spans(unit: Unit, who: str) -> list[tuple[int, int, int]]:
    return sorted((lab.start, lab.end, lab.grade) for lab in unit.labels.get(who, ()))


def decision(unit: Unit, choice: str, ab: tuple[str, str]) -> list[tuple[int, int, int]]:
    """``(start, end, grade)`` a choice writes: ``a``/``b`` that annotator's labels (not judged:
    grade 0 on the other's spans), a grade ``0``–``3`` on A's first span (else B's)."""
    a, b = ab
    if choice in ("a", "b"):
        who, other = (a, b) if choice == "a" else (b, a)
        mine = _spans(unit, who)
        return mine or [(s, e, 0) for s, e, _ in _spans(unit, other)]
    grade = int(choice)
    first = (_spans(unit, a) or _spans(unit, b) or [(unit.start, unit.end, 0)])[0]
    return [(first[0], first[1], grade)]


def take(
    state: State,
    store: LabelStore,
    view: QueueView,
    choice: str,
    adjudicator: str,
    docs: Mapping[str, Document],
) -> Change:
    """Settle the item shown with ``choice`` (``a``, ``b`` or a grade) as adjudication events,
    then show the next pending item."""
    d = Draft(state)
    item, ab = view.item, pair(state, view.annotators)
    if item is None or ab is None or not adjudicator:
        d.set(K_LAB_ADJ_FLASH, Msg("lab.adj.cannot"))
        return d.change()
    u = item.unit
    spans = decision(u, choice, ab)
    note = str(state.get(K_LAB_ADJ_NOTE) or "")
    text = docs[u.doc_id].text if u.doc_id in docs else None
    try:
        for old in item.settled:  # one decision per unit: an earlier one elsewhere is undone
            if (old.start, old.end, old.grade) not in spans:
                _undo_all(store, old)
        for s, e, g in spans:
            if any((x.start, x.end, x.grade) == (s, e, g) for x in item.settled):
                continue
            store.add(
                u.question_set,
                u.question_id,
                u.doc_id,
                s,
                e,
                g,
                text=text[s:e] if text is not None else _text_of(u, s, e),
                note=note,
                annotator=adjudicator,
                adjudicate=True,
            )
    except ValueError as exc:
        d.set(K_LAB_ADJ_FLASH, unworded(exc))
        return d.change()
    who = {"a": ab[0], "b": ab[1]}.get(choice)
    said = Msg("lab.adj.took", {"who": who}) if who else Msg("lab.adj.graded", {"grade": choice})
    d.set(K_LAB_ADJ_FLASH, said)
    d.set(K_LAB_ADJ_NOTE, "")
    later = [i for i, it in enumerate(view.items) if not it.settled and i > view.pos]
    d.set(K_LAB_ADJ_POS, later[0] if later else view.pos)
    return d.change()


def _text_of(unit: Unit, start: int, end: int) -> str:
    """The text of a span one annotator labeled (the document is not loaded)."""
    for labs in unit.labels.values():
        for lab in labs:
            if (lab.start, lab.end) == (start, end):
                return lab.text
    raise ValueError(f"no text for {unit.doc_id} {start}-{end}: load its corpus")


def _undo_all(store: LabelStore, label: Label) -> None:
    """Undo ``label``'s adjudication events until none is current."""
    for _ in range(1000):
        snap = store.snapshot(label.question_set, label.question_id)
        if not any(a.label_id == label.label_id for a in snap.adjudications):
            return
        store.undo(label_id=label.label_id, track="adjudicated")


def undo_last(state: State, store: LabelStore, adjudicator: str) -> Change:
    """Revert the adjudicator's latest adjudication event."""
    d = Draft(state)
    try:
        ev = store.undo(annotator=adjudicator, track="adjudicated")
    except ValueError as exc:
        d.set(K_LAB_ADJ_FLASH, unworded(exc))
        return d.change()
    d.set(
        K_LAB_ADJ_FLASH,
        Msg("lab.adj.undone", {"doc": ev.doc_id, "start": ev.start, "end": ev.end}),
    )
    return d.change()


def act(
    state: State,
    key: str,
    store: LabelStore,
    view: QueueView,
    adjudicator: str,
    docs: Mapping[str, Document],
) -> Change:
    """What a key (or its button) does: ``a``/``b``/``0``–``3`` take, ``u`` undoes."""
    if key == "u":
        return undo_last(state, store, adjudicator)
    # the queue as it stands now (an earlier key of the same batch may have settled an item)
    now = queue_view(store, view_qset(view), state) if view.items else view
    return take(state, store, now, key, adjudicator, docs)


def view_qset(view: QueueView) -> str:
    return view.items[0].unit.question_set


@dataclass(frozen=True)
class ReviewRow:
    """A unit of the question: each annotator's spans and grades, and whether they agree."""

    doc_id: str
    start: int
    end: int
    cells: tuple[str, ...]
    agree: bool
    text: str


def review_rows(
    store: LabelStore, qset: str, qid: str, docs: Mapping[str, Document]
) -> tuple[tuple[str, ...], tuple[ReviewRow, ...]]:
    """The question's annotators and its units side by side (review mode)."""
    own = store.snapshot(qset, qid).own
    names = tuple(sorted(w for w, labs in own.items() if labs))
    rows = []
    for u in units_of(own):
        cells = tuple(
            ", ".join(f"{s}–{e}: {g}" for s, e, g in _spans(u, who)) or "—" for who in names
        )
        text = docs[u.doc_id].text[u.start : u.end] if u.doc_id in docs else ""
        rows.append(ReviewRow(u.doc_id, u.start, u.end, cells, u.agrees(names), text))
    return names, tuple(rows)


__all__ = [
    "QueueItem",
    "QueueView",
    "ReviewRow",
    "act",
    "decision",
    "pair",
    "queue_view",
    "review_rows",
    "take",
    "undo_last",
]
