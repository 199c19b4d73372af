"""Units of agreement: where two or more annotators' labels of a question overlap.

Annotators rarely pick the very same characters, so agreement is not counted per label but
per **unit**: the labels of one question and one document whose spans overlap (share at least
one character), chained — a unit is a connected group of overlapping spans, whoever labeled
them. An annotator's **judgement** of a unit is the set of ``(start, end, grade)`` of their
labels inside it; their grade of the unit the highest of those (one annotator may have labeled a
chunk and a sentence inside it).

The annotators of a question are those with at least one label on it. A unit **agrees** when
every annotator of its question judged it the same (same spans, same grades); in a question only
one annotator labeled there is nothing to disagree with. A unit of a question two or more labeled
that does not agree is a **disagreement** (grades differ, spans differ, or one of them did not
judge it): the adjudication queue (:func:`disagreements`). The adjudicated state
(:func:`adjudicated_labels`) is the adjudications where a unit has one, the labels where a unit
agrees, and — still pending — the highest grade any annotator gave each span of the unit.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .labels import Label

#: ``(question set, question id)``.
QKey = tuple[str, str]


@dataclass(frozen=True)
class Unit:
    """Overlapping labels of one question and one document: ``[start, end)`` is their extent,
    ``labels`` each annotator's labels inside it (an annotator absent: not judged)."""

    question_set: str
    question_id: str
    doc_id: str
    start: int
    end: int
    labels: Mapping[str, tuple[Label, ...]]

    @property
    def question(self) -> QKey:
        return (self.question_set, self.question_id)

    @property
    def judged_by(self) -> tuple[str, ...]:
        """The annotators with a label in the unit, by name."""
        return tuple(sorted(self.labels))

    def grade(self, who: str) -> int | None:
        """``who``'s grade of the unit (their highest), None when they did not judge it."""
        mine = self.labels.get(who, ())
        return max(lab.grade for lab in mine) if mine else None

    def judgement(self, who: str) -> frozenset[tuple[int, int, int]]:
        """``(start, end, grade)`` of ``who``'s labels in the unit (empty: not judged)."""
        return frozenset((lab.start, lab.end, lab.grade) for lab in self.labels.get(who, ()))

    def chars(self, who: str) -> frozenset[int]:
        """The character offsets ``who``'s labels in the unit cover."""
        return frozenset(i for lab in self.labels.get(who, ()) for i in range(lab.start, lab.end))

    def agrees(self, annotators: Iterable[str]) -> bool:
        """Every one of ``annotators`` judged the unit with the same spans and grades."""
        seen = {self.judgement(who) for who in annotators}
        return len(seen) == 1 and frozenset() not in seen


def _by_owner(labels: Mapping[str, Sequence[Label]]) -> list[tuple[str, Label]]:
    return [(who, lab) for who, labs in labels.items() for lab in labs]


def units_of(labels: Mapping[str, Sequence[Label]]) -> tuple[Unit, ...]:
    """The units of every question: annotator → their labels in, units out (sorted by question,
    document and start)."""
    groups: dict[tuple[str, str, str], list[tuple[str, Label]]] = defaultdict(list)
    for who, lab in _by_owner(labels):
        groups[(lab.question_set, lab.question_id, lab.doc_id)].append((who, lab))
    out: list[Unit] = []
    for (qset, qid, doc), members in sorted(groups.items()):
        members.sort(key=lambda m: (m[1].start, m[1].end, m[0]))
        run: list[tuple[str, Label]] = []
        run_end = -1
        for who, lab in members:
            if run and lab.start >= run_end:
                out.append(_unit(qset, qid, doc, run))
                run = []
            run.append((who, lab))
            run_end = max(run_end, lab.end) if len(run) > 1 else lab.end
        if run:
            out.append(_unit(qset, qid, doc, run))
    return tuple(out)


def _unit(qset: str, qid: str, doc: str, run: Sequence[tuple[str, Label]]) -> Unit:
    mine: dict[str, list[Label]] = defaultdict(list)
    for who, lab in run:
        mine[who].append(lab)
    return Unit(
        qset,
        qid,
        doc,
        min(lab.start for _, lab in run),
        max(lab.end for _, lab in run),
        {who: tuple(labs) for who, labs in sorted(mine.items())},
    )


def question_annotators(labels: Mapping[str, Sequence[Label]]) -> dict[QKey, tuple[str, ...]]:
    """Question → the annotators with at least one label on it (by name)."""
    found: dict[QKey, set[str]] = defaultdict(set)
    for who, lab in _by_owner(labels):
        found[(lab.question_set, lab.question_id)].add(who)
    return {q: tuple(sorted(names)) for q, names in found.items()}


def disagreements(units: Sequence[Unit], present: Mapping[QKey, Sequence[str]]) -> tuple[Unit, ...]:
    """The units of questions two or more annotators labeled that do not agree, in order."""
    return tuple(
        u
        for u in units
        if len(present.get(u.question, ())) >= 2 and not u.agrees(present[u.question])
    )


def overlaps(unit: Unit, label: Label) -> bool:
    """Whether ``label`` lies on the unit (its question and document, a shared character)."""
    return (
        (label.question_set, label.question_id, label.doc_id)
        == (unit.question_set, unit.question_id, unit.doc_id)
        and label.start < unit.end
        and unit.start < label.end
    )


def settled_by(unit: Unit, adjudications: Sequence[Label]) -> tuple[Label, ...]:
    """The adjudications on ``unit`` (none: not settled)."""
    return tuple(a for a in adjudications if overlaps(unit, a))


def highest(labels: Iterable[Label]) -> tuple[Label, ...]:
    """One label per span: the highest grade given to it (on a tie, the latest event)."""
    best: dict[str, Label] = {}
    for lab in labels:
        was = best.get(lab.label_id)
        if was is None or (lab.grade, lab.event_id) > (was.grade, was.event_id):
            best[lab.label_id] = lab
    return tuple(best.values())


@dataclass(frozen=True)
class Adjudicated:
    """The adjudicated state's labels, and how its disagreements stand."""

    labels: tuple[Label, ...]
    #: Disagreements with an adjudication, and those still pending (read by :func:`highest`).
    settled: int
    pending: int


def adjudicated_labels(
    own: Mapping[str, Sequence[Label]], adjudications: Sequence[Label]
) -> Adjudicated:
    """The adjudicated gold: every adjudication; on units without one, the agreed labels (or the
    one annotator's), and on pending disagreements the highest grade each span was given."""
    units = units_of(own)
    present = question_annotators(own)
    by_place: dict[tuple[str, str, str], list[Label]] = defaultdict(list)
    for a in adjudications:
        by_place[(a.question_set, a.question_id, a.doc_id)].append(a)
    out: list[Label] = list(adjudications)
    settled = pending = 0
    for u in units:
        names = present.get(u.question, ())
        disputed = len(names) >= 2 and not u.agrees(names)
        if settled_by(u, by_place.get((u.question_set, u.question_id, u.doc_id), ())):
            settled += disputed
            continue
        if not disputed:
            out.extend(u.labels[u.judged_by[0]])
            continue
        pending += 1
        out.extend(highest(lab for labs in u.labels.values() for lab in labs))
    return Adjudicated(tuple(out), settled, pending)


__all__ = [
    "Adjudicated",
    "QKey",
    "Unit",
    "adjudicated_labels",
    "disagreements",
    "highest",
    "overlaps",
    "question_annotators",
    "settled_by",
    "units_of",
]
