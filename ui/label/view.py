"""The Label page's view model: plumbing, store, question, labels and progress; no Streamlit.

``pages/label.py`` calls these functions with plain data (the question sets,
the label store, the corpus documents and chunking, the session state as a
``Mapping``) and renders what they return. A state transition returns a
:class:`Change` (keys to set, keys to drop) that the page applies to
``st.session_state`` with :func:`apply`, before the widgets of those keys are
drawn (Streamlit refuses a widget key set after its widget). Words are
:class:`Msg` codes, worded by the page through ``ui.i18n``.

The view model is one module per concern: this one holds the plumbing (:class:`Msg`,
:class:`Change`, :class:`Outcome`, :class:`Draft`), the store and annotator, the question,
the labels list and the sets' progress; :mod:`ui.label.origins` the gold table and the
pooled candidates (the origin of each gold item), :mod:`ui.label.spans` span picking and the
excerpt, :mod:`ui.label.saving` saving, stale edits and undo, :mod:`ui.label.files` the
exports and the import.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag_core.gold.labels import Label
from rag_core.gold.merge import gold_for, stale_labels
from rag_core.gold.states import annotator_state
from rag_core.gold.store import LabelStore, LabelStoreError
from rag_core.modelnames import as_typed, place_path, place_root
from rag_core.types import Document, Needle, Notice, Question
from rag_core.wording import NoticeError, unworded

from ..html import snippet
from ..i18n import notice_text, t
from ..state import K_QID, K_QMODE, K_QPHRASING, K_QSET
from .keys import (
    K_LAB_ANNOTATOR,
    K_LAB_QID,
    K_LAB_QSET,
    K_LAB_SIDEBAR,
    K_LAB_STORE_PATH,
    K_LAB_STORE_W,
)

#: ``(question set, question id, doc id, start, end)``: one span of one question.
SpanKey = tuple[str, str, str, int, int]

#: Session state as the page holds it (``st.session_state``; a dict in tests).
State = Mapping[Any, Any]
MutableState = MutableMapping[Any, Any]


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


class Draft:
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

    def merge(self, change: Change) -> None:
        """Make ``change`` here: its drops, then its values."""
        for key in change.drop:
            self.drop(key)
        for key, value in change.values.items():
            self.set(key, value)

    def change(self) -> Change:
        return Change(dict(self.values), tuple(self.dropped))


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


def follow_sidebar(
    state: State, qsets: Mapping[str, Sequence[Question]], sidebar: Question | None
) -> Change:
    """The page's question follows the sidebar's when that moved; unknown set or id: the first."""
    d = Draft(state)
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
    d = Draft(state)
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
    who: str = "",
) -> QuestionView:
    """What the question section shows for question ``qid`` of set ``qset`` to annotator ``who``:
    their own labels and progress only (blind labeling: no one else's grades)."""
    ids = [q.id for q in questions]
    q = questions[ids.index(qid)]
    judged, not_judged = store.progress(qset, ids, state=annotator_state(who))
    labels = store.mine(who, qset, q.id)
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


def label_options(labels: Sequence[Label]) -> dict[str, str]:
    """Label id → the text its option shows."""
    return {
        lab.label_id: f"{lab.doc_id} {lab.start}–{lab.end} · {snippet(lab.text, 60)}"
        for lab in labels
    }


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
    store: LabelStore, qsets: Mapping[str, Sequence[Question]], who: str = ""
) -> tuple[SetProgress, ...]:
    """Annotator ``who``'s progress in every question set, in set order."""
    out = []
    for name, qs in qsets.items():
        judged_, not_judged = store.progress(name, [x.id for x in qs], state=annotator_state(who))
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
