"""Which gold: one annotator's labels, the adjudicated ones, or a stated merge rule.

The label store keeps each annotator's labels as their own current state and the adjudicated
gold as a third (:mod:`rag_core.gold.schema`). Everything that reads gold names the state it
reads as a :class:`GoldState`, written as a spec:

* ``annotator:NAME`` — one annotator's labels (``annotator:`` is the anonymous one);
* ``adjudicated`` — the adjudicated gold (:func:`rag_core.gold.units.adjudicated_labels`);
* ``merge:latest`` — per span, the latest label whoever wrote it (the rule of schema 1);
* ``merge:max`` / ``merge:min`` — per span, the highest / lowest grade the annotators gave it;
* ``default`` — ``adjudicated`` when the store holds an adjudication, else the one annotator when
  only one labeled, else ``merge:latest`` (:meth:`StateLabels.default`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..wording import declare, refused
from .labels import Label
from .units import Adjudicated, adjudicated_labels, highest

#: The merge rules a state may name.
MERGE_RULES: tuple[str, ...] = ("latest", "max", "min")
#: The kinds of state (``default`` resolves to one of the others).
STATE_KINDS: tuple[str, ...] = ("default", "annotator", "adjudicated", "merge")

STATE_INVALID = declare("label.state.invalid", "value", "choices")
STATE_UNKNOWN_ANNOTATOR = declare("label.state.unknown_annotator", "name", "known")


@dataclass(frozen=True)
class GoldState:
    """A state of the gold: ``kind`` (:data:`STATE_KINDS`) and, for an annotator or a merge
    rule, its ``name``."""

    kind: str = "default"
    name: str = ""

    @property
    def spec(self) -> str:
        """The state as written (``annotator:kim``, ``merge:max``, ``adjudicated``)."""
        return f"{self.kind}:{self.name}" if self.kind in ("annotator", "merge") else self.kind


DEFAULT = GoldState()
ADJUDICATED_STATE = GoldState("adjudicated")


def annotator_state(name: str) -> GoldState:
    """The state of one annotator's labels."""
    return GoldState("annotator", name)


def parse_state(value: str | GoldState | None) -> GoldState:
    """A spec (see the module) as a :class:`GoldState`; None is ``default``.

    Raises:
        ValueError: ``label.state.invalid`` naming the valid forms.
    """
    if value is None:
        return DEFAULT
    if isinstance(value, GoldState):
        return value
    choices = "default, adjudicated, annotator:NAME, " + ", ".join(
        f"merge:{r}" for r in MERGE_RULES
    )
    if not isinstance(value, str):
        raise refused(STATE_INVALID, value=repr(value), choices=choices)
    kind, colon, name = value.strip().partition(":")
    if not colon and kind in ("default", "adjudicated"):
        return GoldState(kind)
    if colon and kind == "annotator":
        return GoldState(kind, name.strip())
    if colon and kind == "merge" and name.strip() in MERGE_RULES:
        return GoldState(kind, name.strip())
    raise refused(STATE_INVALID, value=repr(value), choices=choices)


def label_order(label: Label) -> tuple[str, str, str, int, int]:
    """The order labels are listed in: by question set, question, document and span."""
    return (label.question_set, label.question_id, label.doc_id, label.start, label.end)


@dataclass(frozen=True)
class Resolved:
    """The labels of a state, the state they are (``default`` resolved), and for the adjudicated
    state how its disagreements stand."""

    labels: tuple[Label, ...]
    state: GoldState
    adjudicated: Adjudicated | None = None


@dataclass(frozen=True)
class StateLabels:
    """Every state's current labels at one moment: each annotator's own, and the adjudicated."""

    own: Mapping[str, tuple[Label, ...]] = field(default_factory=dict)
    adjudications: tuple[Label, ...] = ()

    @property
    def annotators(self) -> tuple[str, ...]:
        """The annotators with at least one current label, by name."""
        return tuple(sorted(who for who, labs in self.own.items() if labs))

    def default(self) -> GoldState:
        """``adjudicated`` when there is an adjudication, else the only annotator, else
        ``merge:latest``."""
        if self.adjudications:
            return ADJUDICATED_STATE
        names = self.annotators
        return annotator_state(names[0]) if len(names) == 1 else GoldState("merge", "latest")

    def merged(self, rule: str) -> tuple[Label, ...]:
        """Per span, the label the rule picks among the annotators' (:data:`MERGE_RULES`)."""
        every = [lab for labs in self.own.values() for lab in labs]
        if rule == "max":
            return highest(every)
        best: dict[str, Label] = {}
        for lab in every:
            was = best.get(lab.label_id)
            if rule == "latest":
                better = was is None or lab.event_id > was.event_id
            else:  # min: the lowest grade, on a tie the latest event
                better = was is None or (-lab.grade, lab.event_id) > (-was.grade, was.event_id)
            if better:
                best[lab.label_id] = lab
        return tuple(best.values())

    def resolve(self, state: str | GoldState | None = None, *, strict: bool = False) -> Resolved:
        """The labels of ``state`` (a spec or :class:`GoldState`), sorted by question and span;
        an annotator without labels has none (``strict``: is refused).

        Raises:
            ValueError: a bad spec; with ``strict`` an unknown annotator (naming the known ones).
        """
        wanted = parse_state(state)
        if wanted.kind == "default":
            wanted = self.default()
        adjudicated = None
        labels: Sequence[Label]
        if wanted.kind == "annotator":
            if strict and wanted.name not in self.annotators:
                known = ", ".join(repr(n) for n in self.annotators) or "none"
                raise refused(STATE_UNKNOWN_ANNOTATOR, name=repr(wanted.name), known=known)
            labels = self.own.get(wanted.name, ())
        elif wanted.kind == "adjudicated":
            adjudicated = adjudicated_labels(self.own, self.adjudications)
            labels = adjudicated.labels
        else:
            labels = self.merged(wanted.name)
        return Resolved(tuple(sorted(labels, key=label_order)), wanted, adjudicated)

    def choices(self) -> tuple[GoldState, ...]:
        """Every state worth offering: adjudicated (when present), each annotator, the rules."""
        out = [ADJUDICATED_STATE] if self.adjudications else []
        out += [annotator_state(n) for n in self.annotators]
        out += [GoldState("merge", r) for r in MERGE_RULES]
        return tuple(out)


__all__ = [
    "ADJUDICATED_STATE",
    "DEFAULT",
    "GoldState",
    "MERGE_RULES",
    "Resolved",
    "STATE_KINDS",
    "StateLabels",
    "annotator_state",
    "label_order",
    "parse_state",
]
