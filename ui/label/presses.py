"""The Label page's keyboard queue: key presses handled in order, none lost; no Streamlit.

Streamlit's button shortcuts are clicks: two presses of the same key before the script reruns are
one click, and 50 presses 60 ms apart saved 3 labels (issue 38). The page's key component
(``ui/label/keyqueue/``) instead numbers every press and sends the whole list of presses the
server has not handled yet; :func:`press_label_keys` (Label) and :func:`press_adjudication_keys`
(the adjudication queue) handle them in order in one callback and acknowledge the last one
handled (``label.keys.ack``). What cannot be handled in this run — the keys after a save that
opened another question — stays queued and is sent again; a key that cannot do anything (Enter
without a name or a span) is refused with a message, never dropped silently.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rag_core.gold.labels import GRADES
from rag_core.gold.spans import label_on
from rag_core.gold.store import LabelStore
from rag_core.types import Chunk, Document, Question

from .keys import (
    K_LAB_CAND,
    K_LAB_FLASH,
    K_LAB_GRADE,
    K_LAB_KEYS,
    K_LAB_KEYS_ACK,
    K_LAB_KEYS_MSG,
    K_LAB_KEYS_REFUSED,
    K_LAB_NOTE,
    K_LAB_QID,
    K_LAB_QSET,
    K_LAB_SPAN,
)
from .saving import save_and_next
from .view import Change, Draft, Msg, SpanKey, State, annotator

#: Keys the Label page handles: a grade, and Enter (save and open the next candidate).
LABEL_KEYS: tuple[str, ...] = (*(str(g) for g in GRADES), "Enter")
#: Keys the adjudication queue handles: A's, B's, a new grade, undo.
ADJUDICATION_KEYS: tuple[str, ...] = ("a", "b", *(str(g) for g in GRADES), "u")
#: Unhandled presses the component keeps; one more is refused (and said so).
QUEUE_CAP = 200


def pending(state: State) -> list[tuple[int, str]]:
    """``(number, key)`` of the presses the component sent that are not handled yet, in order."""
    value = state.get(K_LAB_KEYS)
    ack = int(state.get(K_LAB_KEYS_ACK) or 0)
    keys = value.get("keys") if isinstance(value, Mapping) else None
    out = []
    for item in keys if isinstance(keys, list) else ():
        seq = item.get("seq") if isinstance(item, Mapping) else None
        key = item.get("key") if isinstance(item, Mapping) else None
        if (
            isinstance(seq, int)
            and not isinstance(seq, bool)
            and seq > ack
            and isinstance(key, str)
        ):
            out.append((seq, key))
    return sorted(out)


def _view(state: State, d: Draft) -> dict[Any, Any]:
    """``state`` as it reads after the changes so far (a plain dict the transitions read)."""
    out = {k: v for k, v in dict(state).items() if k not in d.dropped}
    out.update(d.values)
    return out


def _refusals(state: State, d: Draft) -> None:
    """Presses the component refused (its queue was full) are said once: the component counts
    its refusals of the session; the ones it counted since the last batch are said."""
    value = state.get(K_LAB_KEYS)
    refused = value.get("refused") if isinstance(value, Mapping) else 0
    if not isinstance(refused, int) or isinstance(refused, bool) or refused < 0:
        return
    seen = int(state.get(K_LAB_KEYS_REFUSED) or 0)
    if refused > seen:
        said(d, Msg("lab.keys.full", {"n": refused - seen}))
    d.set(K_LAB_KEYS_REFUSED, refused)


def said(d: Draft, msg: Msg) -> None:
    """Add ``msg`` to the key messages the page has not shown yet (``label.keys.msg``, a tuple:
    a batch's refusal never hides an earlier one's)."""
    before = d.get(K_LAB_KEYS_MSG)
    d.set(K_LAB_KEYS_MSG, (*(before if isinstance(before, tuple) else ()), msg))


def span_shown(state: State, docs: Mapping[str, Document]) -> SpanKey | None:
    """The span the page shows (``label._span``), when it is a valid span of the page's question.

    Read from the state, not from the run that drew the component: a run interrupted before it
    drew it (a save that reruns the whole page) leaves that run's span behind."""
    key = state.get(K_LAB_SPAN)
    if not isinstance(key, tuple) or len(key) != 5:
        return None
    qset, qid, doc, start, end = key
    if (qset, qid) != (state.get(K_LAB_QSET), state.get(K_LAB_QID)) or doc not in docs:
        return None
    ok = isinstance(start, int) and isinstance(end, int) and 0 <= start < end
    return key if ok and end <= len(docs[doc].text) else None


def press_label_keys(
    state: State,
    store: LabelStore,
    docs: Mapping[str, Document],
    candidates: Mapping[int, Chunk],
    qsets: Mapping[str, Sequence[Question]],
    next_qid: str | None,
) -> Change:
    """The key component's callback on Label: each pending press in order — a grade key sets the
    grade, Enter saves the span shown (:func:`span_shown`) and opens the next candidate
    (``saving.save_and_next``)."""
    d = Draft(state)
    key = span_shown(state, docs)
    _refusals(state, d)
    ack = int(state.get(K_LAB_KEYS_ACK) or 0)
    refused = 0
    question = (state.get(K_LAB_QSET), state.get(K_LAB_QID))
    presses = pending(state)
    for i, (seq, k) in enumerate(presses):
        if k in LABEL_KEYS[:-1]:
            d.set(K_LAB_GRADE, int(k))
        elif k == "Enter":
            now = _view(state, d)
            if key is None or not annotator(now):
                refused += 1
            else:
                change = save_and_next(now, store, key, docs[key[2]], candidates, qsets, next_qid)
                d.merge(change)
                if change.values.get(K_LAB_FLASH) is None:  # stale or failed: the page asks;
                    refused += len(presses) - i - 1  # the presses after it are not guessed at
                    ack = presses[-1][0]
                    break
                if (d.get(K_LAB_QSET), d.get(K_LAB_QID)) != question:
                    ack = seq  # another question: its pool first; the rest stays queued
                    break
                key = _next_span(d, store, key, candidates, now)
        ack = seq
    if refused:
        said(d, Msg("lab.keys.refused", {"n": refused}))
    d.set(K_LAB_KEYS_ACK, ack)
    return d.change()


def _next_span(
    d: Draft, store: LabelStore, key: SpanKey, candidates: Mapping[int, Chunk], now: State
) -> SpanKey | None:
    """After a save that opened the next candidate: its span, showing the annotator's label on
    it as the page would (its grade and note), so the next Enter saves what the page shows."""
    chunk = candidates.get(d.get(K_LAB_CAND))
    if chunk is None:
        return None
    span = (key[0], key[1], chunk.doc_id, chunk.start, chunk.end)
    mine = store.mine(annotator(now), key[0], key[1])
    existing = label_on(mine, chunk.doc_id, chunk.start, chunk.end)
    d.set(K_LAB_SPAN, span)
    if existing is not None:
        d.set(K_LAB_GRADE, existing.grade)
    d.set(K_LAB_NOTE, existing.note if existing is not None else "")
    return span


def press_adjudication_keys(state: State, act: Callable[[State, str], Change]) -> Change:
    """The key component's callback on the adjudication queue: each pending press in order,
    ``act(state so far, key)`` doing what the key's button does."""
    d = Draft(state)
    _refusals(state, d)
    ack = int(state.get(K_LAB_KEYS_ACK) or 0)
    for seq, k in pending(state):
        if k in ADJUDICATION_KEYS:
            d.merge(act(_view(state, d), k))
        ack = seq
    d.set(K_LAB_KEYS_ACK, ack)
    return d.change()


__all__ = [
    "ADJUDICATION_KEYS",
    "LABEL_KEYS",
    "QUEUE_CAP",
    "pending",
    "press_adjudication_keys",
    "press_label_keys",
    "said",
]
