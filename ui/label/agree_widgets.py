"""The Label page's keyboard queue, blind review, agreement and adjudication (Streamlit side).

Rendering only: the queue's handling is ``ui.label.presses``, the review and the adjudication
queue ``ui.label.adjudicate``, the figures ``rag_core.evaluation.agreement``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import streamlit as st
import streamlit.components.v1 as components

from rag_core.evaluation.agreement import Agreement, agreement, figure_text
from rag_core.gold.labels import GRADES
from rag_core.gold.store import LabelStore
from rag_core.types import Document, Question

from ..html import Mark, marked_text, md, show, snippet, span, table
from ..i18n import t
from . import adjudicate as adj
from . import keys as K
from . import presses
from .view import Msg, apply, say

#: The keyboard queue: a v1 component served from this package. The annotator's memory is the
#: same page under another name: the queue's key listener looks for the queue's frames by name.
_KEYQUEUE = components.declare_component(
    "label_key_queue", path=str(Path(__file__).parent / "keyqueue")
)
_MEMORY = components.declare_component(
    "label_annotator_memory", path=str(Path(__file__).parent / "keyqueue")
)

VIEWS = ("label", "agreement", "adjudicate")


def key_queue(keys: Sequence[str], on_change: Callable[[], None], lang: str) -> None:
    """The component that queues ``keys`` pressed on the page; ``on_change`` handles them."""
    ss = st.session_state
    token = ss.setdefault(K.K_LAB_KEYS_TOKEN, secrets.token_hex(8))
    _KEYQUEUE(
        mode="keys",
        token=token,
        keys=list(keys),
        acked=int(ss.get(K.K_LAB_KEYS_ACK) or 0),
        refusedAcked=int(ss.get(K.K_LAB_KEYS_REFUSED) or 0),
        cap=presses.QUEUE_CAP,
        queued=t("lab.keys.queued", lang),
        refused=t("lab.keys.full", lang, n="{n}"),
        key=K.K_LAB_KEYS,
        default=None,
        on_change=on_change,
    )
    said = ss.get(K.K_LAB_KEYS_MSG)
    if isinstance(said, tuple) and said:
        st.warning(md(" · ".join(say(m, lang) for m in said)))
    ss.pop(K.K_LAB_KEYS_MSG, None)  # once shown: a run stopped before this shows it next time


def remember_annotator(annotator: str) -> None:
    """Keep the annotator's name in this browser; a new session gets it back."""

    def restore() -> None:
        value = st.session_state.get(K.K_LAB_REMEMBER)
        name = value.get("annotator") if isinstance(value, Mapping) else None
        if isinstance(name, str) and name.strip() and not st.session_state.get(K.K_LAB_ANNOTATOR):
            st.session_state[K.K_LAB_ANNOTATOR] = name.strip()[:200]

    _MEMORY(
        mode="remember", annotator=annotator, key=K.K_LAB_REMEMBER, default=None, on_change=restore
    )


def page_view(lang: str) -> str:
    """Label, agreement or adjudicate."""
    st.segmented_control(
        t("lab.view", lang),
        VIEWS,
        key=K.K_LAB_VIEW,
        default="label",
        required=True,
        format_func=lambda v: t(f"lab.view.{v}", lang),
        label_visibility="collapsed",
    )
    return st.session_state.get(K.K_LAB_VIEW) or "label"


# ---------------------------------------------------------------- review


def review_section(
    store: LabelStore,
    qset: str,
    qid: str,
    mine: bool,
    docs: Mapping[str, Document],
    lang: str,
) -> bool:
    """The review toggle (enabled once this annotator saved a label on the question) and, on,
    every annotator's labels of the question side by side. Returns whether review is on."""
    st.toggle(
        t("lab.review", lang),
        key=K.K_LAB_REVIEW,
        disabled=not mine,
        help=t("help.lab.review", lang),
    )
    if not mine:
        st.caption(t("lab.blind", lang))
        return False
    if not st.session_state.get(K.K_LAB_REVIEW):
        return False
    names, rows = adj.review_rows(store, qset, qid, docs)
    cells = [
        [
            span(r.doc_id, "ri-mono"),
            f"{r.start}–{r.end}",
            *r.cells,
            t("lab.agree.yes" if r.agree else "lab.agree.no", lang),
            snippet(r.text, 90),
        ]
        for r in rows
    ]
    head = ["ins.doc", "lab.col.span"]
    show(
        table(
            [
                *(t(h, lang) for h in head),
                *names,
                t("lab.col.agree", lang),
                t("lab.col.text", lang),
            ],
            cells,
            row_classes=[None if r.agree else "ri-goldrow" for r in rows],
            empty=t("lab.none_yet", lang),
        )
    )
    return True


# ---------------------------------------------------------------- agreement


@st.cache_data(max_entries=16, show_spinner=False)
def _agreement(store_key: tuple[str, int, str], _store: LabelStore, qset: str) -> Agreement | None:
    own = _store.snapshot(qset).own
    if len([w for w, labs in own.items() if labs]) < 2:
        return None
    return agreement(own)


#: A figure and its interval at two decimals, or — when undefined.
figure = partial(figure_text, places=2, undefined="—")


def agreement_section(
    store: LabelStore, qsets: Mapping[str, Sequence[Question]], lang: str
) -> None:
    """Per pair and overall κ, α, span F1 and the share only one judged; then the questions, most
    disagreeing first."""
    qset = st.selectbox(t("side.qset", lang), list(qsets), key=K.K_LAB_QSET)
    got = _agreement((str(store.path), store.version(), qset), store, qset)
    st.caption(t("lab.agree.unit", lang))
    if got is None:
        st.info(t("lab.agree.none", lang))
        return
    rows = [
        [
            f"{p.a} × {p.b}",
            p.n_questions,
            p.n_units,
            figure(p.kappa),
            figure(p.alpha),
            figure(p.span_f1),
            figure(p.only_one, percent=True),
        ]
        for p in got.pairs
    ]
    if len(got.pairs) > 1:
        rows.append(
            [
                t("lab.agree.overall", lang),
                got.n_questions,
                got.n_units,
                figure(got.kappa),
                figure(got.alpha),
                figure(got.span_f1),
                figure(got.only_one, percent=True),
            ]
        )
    cols = ["pair", "questions", "units", "kappa", "alpha", "f1", "only_one"]
    show(table([t(f"lab.agree.col.{c}", lang, weights=got.weights) for c in cols], rows))
    st.caption(t("lab.agree.help", lang, resamples=got.resamples, single=got.single, seed=got.seed))
    st.subheader(t("lab.agree.h.questions", lang))
    qrows = [
        [
            r.question_id,
            f"{r.n_units - r.n_agree} / {r.n_units}",
            r.only_one,
            r.grade_differs,
            "—" if r.span_f1 is None else f"{r.span_f1:.2f}",
        ]
        for r in got.questions
    ]
    qcols = ["qid", "disagree", "only_one_n", "grades", "f1"]
    show(table([t(f"lab.agree.col.{c}", lang, weights="") for c in qcols], qrows))


# ---------------------------------------------------------------- adjudication


def _item_excerpt(item: adj.QueueItem, ab: tuple[str, str], doc: Document | None) -> None:
    """The unit's text and a margin, each side's spans marked."""
    if doc is None:
        return
    u = item.unit
    lo, hi = max(0, u.start - 150), min(len(doc.text), u.end + 150)
    marks = []
    for who, cls in zip(ab, ("ri-pick", "ri-gold"), strict=True):
        for lab in u.labels.get(who, ()):
            marks.append(Mark(lab.start, lab.end, f"{cls} ri-g{lab.grade}", f"{who}: {lab.grade}"))
    show(marked_text(doc.text[lo:hi], marks, base=lo, cls="ri-doc ri-text"))


def adjudication_section(
    store: LabelStore,
    qsets: Mapping[str, Sequence[Question]],
    docs: Mapping[str, Document],
    adjudicator: str,
    lang: str,
) -> None:
    """The queue of disagreements: progress, the item side by side, the keys and buttons."""
    ss = st.session_state
    qset = st.selectbox(t("side.qset", lang), list(qsets), key=K.K_LAB_QSET)
    view = adj.queue_view(store, qset, ss)
    if len(view.annotators) < 2:
        st.info(t("lab.agree.none", lang))
        return
    c1, c2 = st.columns(2)
    c1.selectbox(t("lab.adj.a", lang), view.annotators, key=K.K_LAB_ADJ_A)
    c2.selectbox(
        t("lab.adj.b", lang),
        [w for w in view.annotators if w != ss.get(K.K_LAB_ADJ_A)],
        key=K.K_LAB_ADJ_B,
    )
    ab = adj.pair(ss, view.annotators)
    total = len(view.items)
    st.progress(
        view.done / max(total, 1), text=md(t("lab.adj.progress", lang, done=view.done, n=total))
    )
    if view.item is None or ab is None:
        st.success(t("lab.adj.empty", lang))
        return

    def press(key: str) -> None:
        apply(ss, adj.act(ss, key, store, view, adjudicator, docs))

    key_queue(
        presses.ADJUDICATION_KEYS,
        lambda: apply(
            ss,
            presses.press_adjudication_keys(
                ss, lambda state, k: adj.act(state, k, store, view, adjudicator, docs)
            ),
        ),
        lang,
    )
    _item(view, ab, qsets, docs, lang)
    st.text_input(t("lab.adj.note", lang), key=K.K_LAB_ADJ_NOTE, max_chars=500)
    if not adjudicator:
        st.warning(t("lab.need_annotator", lang))
    buttons = [(k, t("lab.adj.take", lang, who=md(who))) for k, who in zip("ab", ab, strict=True)]
    buttons += [(str(g), t("lab.adj.grade", lang, grade=g)) for g in GRADES]
    buttons += [("u", t("lab.adj.undo", lang))]
    for col, (k, label) in zip(st.columns(len(buttons)), buttons, strict=True):
        col.button(
            f"{label} ({k})",
            key=f"{K.K_LAB_ADJ_BUTTON}.{k}",
            disabled=not adjudicator,
            on_click=press,
            args=(k,),
            width="stretch",
        )
    flash = ss.pop(K.K_LAB_ADJ_FLASH, None)
    if flash is not None:
        (st.success if isinstance(flash, Msg) else st.error)(md(say(flash, lang)))


def _item(
    view: adj.QueueView,
    ab: tuple[str, str],
    qsets: Mapping[str, Sequence[Question]],
    docs: Mapping[str, Document],
    lang: str,
) -> None:
    item = view.item
    if item is None:
        return
    u = item.unit
    q = next((x for x in qsets.get(u.question_set, ()) if x.id == u.question_id), None)
    st.markdown(
        f"**{view.pos + 1} / {len(view.items)}** · **{md(u.question_id)}** · "
        + md(q.question if q is not None else "")
    )
    rows: list[list[Any]] = []
    for who in ab:
        labs = u.labels.get(who, ())
        rows.append(
            [
                who,
                ", ".join(f"{x.start}–{x.end}" for x in labs) or t("lab.not_judged", lang),
                ", ".join(str(x.grade) for x in labs) or "—",
                "; ".join(x.note for x in labs if x.note),
            ]
        )
    if item.settled:
        rows.append(
            [
                t("gold.adjudicated", lang),
                ", ".join(f"{x.start}–{x.end}" for x in item.settled),
                ", ".join(str(x.grade) for x in item.settled),
                "; ".join(x.note for x in item.settled if x.note),
            ]
        )
    cols = ["lab.col.who", "lab.col.span", "lab.col.grade", "lab.note"]
    show(table([t(c, lang) for c in cols], rows))
    _item_excerpt(item, ab, docs.get(u.doc_id))
