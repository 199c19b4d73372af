"""Rendering of the Label page: tables and marked excerpt as escaped HTML, and widget groups.

Every builder lays out what ``ui.label.view`` computed; every text from a
document, a label or a store goes through ``ui.html`` (escaped). The widget
groups draw widgets under the session-state keys of ``ui.label.keys`` and hand
their callbacks to the view model; they decide nothing themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import streamlit as st
import streamlit.components.v1 as components

from rag_core.config import PRESET_LABELS
from rag_core.evaluation.pooling import POOL_ORDERS
from rag_core.gold.labels import GRADES, Label, LabelEvent
from rag_core.gold.states import annotator_state
from rag_core.gold.store import LabelStore
from rag_core.types import Document, Question

from .. import measure
from ..html import CSS, Mark, Markup, div, join, marked_text, md, show, snippet, span, table
from ..i18n import error_text, t
from ..state import Context
from . import agree_widgets, files, origins, saving, spans, view
from . import keys as K
from .origins import GoldRow, PoolView
from .spans import MarkSpec, SpanPick, excerpt_window
from .view import Msg, SetProgress, say


def do(transition: Callable[..., view.Change], *args: Any) -> None:
    """Widget callback: apply a view-model transition to the session state."""
    view.apply(st.session_state, transition(st.session_state, *args))


def done(outcome: view.Outcome, lang: str) -> None:
    """Apply an action's outcome: its state change, then its error or a rerun."""
    view.apply(st.session_state, outcome.change)
    if outcome.error is not None:
        st.error(md(say(outcome.error, lang)))
    elif outcome.rerun:
        st.rerun()


def origin_class(origin: str) -> str:
    """Chip classes for a gold origin (``needle``, ``label``, ``needle+label``) or ``zero``
    (judged not relevant)."""
    return "ri-chip ri-o-" + origin.replace("+", "-")


def _origin(origin: str, lang: str) -> Markup:
    return span(t(f"lab.origin.{origin}", lang), origin_class(origin))


def _when(stamp: str) -> str:
    return stamp[:19].replace("T", " ")


def gold_table(rows: Sequence[GoldRow], lang: str) -> Markup:
    """The question's gold spans (and grade-0 labels) with where they are."""
    cells = [
        [
            _origin(r.origin, lang),
            span(r.doc_id, "ri-mono"),
            f"{r.span[0]}–{r.span[1]}" if r.span else t("lab.not_in_corpus", lang),
            r.grade,
            snippet(r.text, 140),
        ]
        for r in rows
    ]
    cols = ["lab.col.origin", "ins.doc", "lab.col.span", "lab.col.grade", "lab.col.text"]
    return table([t(c, lang) for c in cols], cells, empty=t("lab.no_gold", lang))


def pool_table(pool: PoolView, lang: str) -> Markup:
    """The pooled candidates; ranks and runs only when the pool is in rank order."""
    cols = [
        "#",
        *([t("lab.col.best", lang), t("lab.col.runs", lang)] if pool.by_rank else []),
        t("ins.doc", lang),
        t("lab.col.span", lang),
        t("lab.col.judged", lang),
        t("ins.snippet", lang),
    ]
    rows = []
    for r in pool.rows:
        marks = [_origin(o, lang) for o in r.origins]
        marks += [span(t("lab.judged_grade", lang, grade=0), "ri-chip ri-g0")] * r.zeros
        c = r.chunk
        rows.append(
            [
                r.position,
                *([r.best_rank, span(r.runs, "ri-mono")] if pool.by_rank else []),
                span(f"{c.doc_id} #{c.ordinal}", "ri-mono"),
                f"{c.start}–{c.end}",
                join(marks, " ") if marks else span(t("lab.not_judged", lang), "ri-muted"),
                snippet(c.content, 150),
            ]
        )
    classes = ["ri-goldrow" if r.gold else None for r in pool.rows]
    return table(cols, rows, row_classes=classes, empty=t("lab.pool.empty", lang))


def table_or_info(markup: Markup, rows: Sequence[object], empty: str) -> None:
    """A table, or its empty state as an info box (an empty table is not an error)."""
    if rows:
        show(markup)
    else:
        st.info(empty)


def line(messages: Sequence[Msg], lang: str) -> str:
    """Messages worded and joined by `` · `` (plain text: escape for Markdown)."""
    return " · ".join(say(m, lang) for m in messages)


def pool_section(pool: PoolView, lang: str) -> None:
    """Warnings of retrievers that could not run, the pool's facts and table (if it ran)."""
    if pool.facts is None:
        return
    for m in pool.warnings:
        st.warning(md(say(m, lang)))
    st.caption(say(pool.facts, lang))
    with st.container(height=min(420, 60 + 40 * len(pool.rows)) if pool.rows else "content"):
        table_or_info(pool_table(pool, lang), pool.rows, t("lab.pool.empty", lang))
    if not pool.by_rank:
        st.caption(t("lab.pool.blind", lang))


def excerpt(pick: SpanPick, marks: Sequence[MarkSpec], whole: bool, lang: str) -> Markup:
    """The document around the picked span (or all of it) with the marks."""
    lo, hi = excerpt_window(pick, whole)
    shown = [Mark(m.start, m.end, m.cls, say(m.title, lang)) for m in marks]
    return marked_text(pick.doc.text[lo:hi], shown, base=lo, cls="ri-doc ri-text")


#: The excerpt with mouse selection: a v1 component served from this package (no network).
_SELECTABLE = components.declare_component(
    "label_span_select", path=str(Path(__file__).parent / "selection")
)


def selectable_excerpt(
    pick: SpanPick, marks: Sequence[MarkSpec], whole: bool, docs: Mapping[str, Document], lang: str
) -> None:
    """:func:`excerpt` in a component where selecting text with the mouse picks that range
    (``ui.label.spans.mouse_span``); the markup is built escaped, as :func:`excerpt` builds it."""
    lo, _hi = excerpt_window(pick, whole)
    _SELECTABLE(
        html=str(excerpt(pick, marks, whole, lang)),
        css=CSS,
        base=lo,
        doc=pick.doc.doc_id,
        scroll=True,
        key=K.K_LAB_MOUSE,
        default=None,
        on_change=lambda: do(spans.mouse_span, docs, st.session_state.get(K.K_LAB_MOUSE)),
    )


def legend(lang: str) -> Markup:
    """What the excerpt's marks mean."""
    grades = (span(t("lab.judged_grade", lang, grade=g), f"ri-lab ri-g{g}") for g in GRADES)
    return div(
        join(
            [
                span(t("lab.legend.pick", lang), "ri-pick"),
                span(t("lab.legend.gold", lang), "ri-gold"),
                *grades,
            ],
            " ",
        ),
        "ri-legend",
    )


def labels_table(labels: Sequence[Label], lang: str) -> Markup:
    """The question's current labels."""
    rows = [
        [
            span(lab.doc_id, "ri-mono"),
            f"{lab.start}–{lab.end}",
            span(lab.grade, f"ri-chip ri-g{lab.grade}"),
            snippet(lab.text, 100),
            lab.note,
            lab.annotator or "—",
            _when(lab.created_at),
            t(f"lab.kind.{lab.kind}", lang),
        ]
        for lab in labels
    ]
    cols = [
        "ins.doc",
        "lab.col.span",
        "lab.col.grade",
        "lab.col.text",
        "lab.note",
        "lab.col.who",
        "lab.col.when",
        "lab.col.kind",
    ]
    return table([t(c, lang) for c in cols], rows, empty=t("lab.none_yet", lang))


def history_table(events: Sequence[LabelEvent], lang: str) -> Markup:
    """The question's events, newest first; undone events and undos dimmed."""
    newest = list(reversed(events))
    rows = [
        [
            e.event_id,
            _when(e.recorded_at),
            e.annotator or "—",
            t(f"lab.kind.{e.kind}", lang) + (f" → #{e.target}" if e.target else ""),
            span(e.doc_id, "ri-mono"),
            f"{e.start}–{e.end}",
            "—" if e.grade is None else e.grade,
            e.note,
            f"#{e.undone_by}" if e.undone_by else "",
        ]
        for e in newest
    ]
    cols = [
        "lab.col.when",
        "lab.col.who",
        "lab.col.kind",
        "ins.doc",
        "lab.col.span",
        "lab.col.grade",
        "lab.note",
        "lab.col.undone",
    ]
    return table(
        ["#", *(t(c, lang) for c in cols)],
        rows,
        row_classes=["ri-dim" if e.undone_by or e.kind == "undo" else None for e in newest],
        empty=t("lab.none_yet", lang),
    )


def progress_table(rows: Sequence[SetProgress], lang: str) -> Markup:
    """Judged / not judged / total per question set."""
    cols = [
        t("side.qset", lang),
        t("lab.col.judged", lang),
        t("lab.not_judged", lang),
        t("lab.col.total", lang),
        "%",
    ]
    return table(cols, [[r.name, r.judged, r.not_judged, r.total, r.share] for r in rows])


# ---------------------------------------------------------------- widget groups


def store_section(lang: str, root: Any) -> tuple[LabelStore | None, str]:
    """The store in use (a box chooses another) and the annotator: ``(store, annotator)``."""
    ss = st.session_state
    store = measure.open_store(lang)
    c1, c2 = st.columns([3, 2])
    with c1:
        st.markdown(t("lab.store", lang, path=md(measure.store_shown())))
        if view.inside(measure.store_path(), root):
            st.warning(t("lab.store_in_tree", lang))
        with st.expander(t("lab.store_change", lang)):
            view.apply(ss, view.store_box(ss, Path(measure.store_shown())))
            st.text_input(
                t("lab.store_path", lang), key=K.K_LAB_STORE_W, help=t("help.lab.store_path", lang)
            )
            if st.button(t("lab.store_use", lang), key=K.K_LAB_STORE_USE):
                done(view.use_store(ss), lang)
    with c2:
        agree_widgets.remember_annotator(view.annotator(ss))
    c2.text_input(
        t("lab.annotator", lang),
        key=K.K_LAB_ANNOTATOR,
        persist_state="session",
        placeholder=t("lab.annotator_ph", lang),
        help=t("help.lab.annotator", lang),
    )
    return store, view.annotator(ss)


def pool_settings(lang: str, run_tags: Sequence[str] = ()) -> origins.PoolRequest:
    """Retrievers (ours, and ``run:TAG`` for each imported run), depth, order and seed."""
    ss = st.session_state
    view.apply(ss, origins.pool_defaults(ss))
    specs = [*origins.POOL_SPECS, *(f"run:{tag}" for tag in run_tags)]
    ss[K.K_LAB_POOL_RETRIEVERS] = [x for x in ss[K.K_LAB_POOL_RETRIEVERS] if x in specs]
    c1, c2, c3, c4 = st.columns([3, 2, 2, 1])
    c1.multiselect(
        t("lab.pool.retrievers", lang),
        specs,
        key=K.K_LAB_POOL_RETRIEVERS,
        persist_state="session",
        help=t("help.lab.pool.retrievers", lang),
    )
    c2.slider(
        t("lab.pool.depth", lang),
        1,
        50,
        10,
        key=K.K_LAB_POOL_DEPTH,
        persist_state="session",
        help=t("help.lab.pool.depth", lang),
    )
    c3.radio(
        t("lab.pool.order", lang),
        POOL_ORDERS,
        key=K.K_LAB_POOL_ORDER,
        horizontal=True,
        persist_state="session",
        format_func=lambda o: t(f"lab.pool.order.{o}", lang),
        help=t("help.lab.pool.order", lang),
    )
    c4.number_input(
        t("lab.pool.seed", lang), 0, 1_000_000, 0, key=K.K_LAB_POOL_SEED, persist_state="session"
    )
    return origins.pool_request(ss)


def span_widgets(pick: SpanPick, pool: PoolView, docs: Mapping[str, Document], lang: str) -> None:
    """Candidate, document, mode, then the mode's widgets (chunk, sentence, or find and range)."""
    if pool.candidates:
        st.selectbox(
            t("lab.cand", lang),
            list(pool.options),
            key=K.K_LAB_CAND,
            on_change=do,
            args=(spans.open_candidate, pool.candidates),
            format_func=pool.options.__getitem__,
        )
    st.selectbox(
        t("lab.doc", lang),
        list(docs),
        key=K.K_LAB_DOC,
        format_func=lambda d: f"{d} · {docs[d].title}",
        help=t("help.lab.doc", lang),
    )
    st.radio(
        t("lab.mode", lang),
        spans.MODES,
        key=K.K_LAB_MODE,
        horizontal=True,
        format_func=lambda m: t(f"lab.mode.{m}", lang),
        help=t("help.lab.mode", lang),
    )
    if pick.empty is not None:
        st.info(say(pick.empty, lang))
    elif pick.picker:
        label = t(f"lab.{pick.mode}", lang)  # lab.chunk, lab.sentence
        st.selectbox(
            label, list(pick.options), key=pick.picker, format_func=pick.options.__getitem__
        )
    else:
        st.text_input(
            t("lab.find", lang),
            key=K.K_LAB_FIND,
            on_change=do,
            args=(spans.find, pick.doc.text),
            help=t("help.lab.find", lang),
        )
        if pick.find_none:
            st.warning(t("lab.find_none", lang))
        if pick.occ_options:
            st.selectbox(
                t("lab.find_many", lang, n=len(pick.occ_options)),
                list(pick.occ_options),
                key=K.K_LAB_OCC,
                on_change=do,
                args=(spans.pick_occurrence,),
                format_func=pick.occ_options.__getitem__,
            )
        c1, c2 = st.columns(2)
        c1.number_input(t("lab.start", lang), 0, len(pick.doc.text), key=K.K_LAB_START, step=1)
        c2.number_input(t("lab.end", lang), 0, len(pick.doc.text), key=K.K_LAB_END, step=1)
    if pick.bad is not None:
        st.error(say(pick.bad, lang))


def labels_section(
    store: LabelStore,
    qset: str,
    qid: str,
    labels: Sequence[Label],
    lang: str,
    who: str = "",
    review: bool = False,
) -> None:
    """The annotator's labels of the question (one can be opened as a range) and its history:
    theirs, or everyone's in review."""
    st.header(t("lab.h.labels", lang))
    table_or_info(labels_table(labels, lang), labels, t("lab.none_yet", lang))
    if labels:
        options = view.label_options(labels)
        c1, c2 = st.columns([3, 1])
        c1.selectbox(
            t("lab.pick", lang), list(options), key=K.K_LAB_PICK, format_func=options.__getitem__
        )
        c2.button(
            t("lab.open", lang),
            key=K.K_LAB_OPEN,
            on_click=do,
            args=(spans.open_label, labels),
            width="stretch",
        )
    with st.expander(t("lab.h.history", lang)):
        events = store.history(qset, qid)
        if not review:  # blind: another annotator's events would show their grades
            events = tuple(e for e in events if e.owner == who and not e.adjudicated)
        table_or_info(history_table(events, lang), events, t("lab.none_yet", lang))


def export_section(
    ctx: Context,
    store: LabelStore,
    qsets: Mapping[str, Sequence[Question]],
    qset: str,
    lang: str,
    own: str | None = None,
) -> None:
    """Labels as JSONL, and qrels for a chosen chunking, of this set or of all, from one gold
    state — annotator ``own``'s while labeling (blind: no one else's), else the one picked (each
    annotator's, the adjudicated, a merge rule) —, its name in the file names. The files are made
    from the store when the button is clicked, and the counts are drawn with every save (this
    section reruns with the keyboard's saves), so a download never lags."""
    st.subheader(t("lab.h.export", lang))
    scope = st.radio(
        t("lab.exp.scope", lang),
        ("set", "all"),
        key=K.K_LAB_EXP_SCOPE,
        horizontal=True,
        format_func=lambda s: t(f"lab.exp.scope.{s}", lang, set=qset),
    )
    plan = files.export_plan(scope, qset, list(qsets))
    if own is None:
        chosen = measure.gold_picker(store, plan.jsonl_set, lang)
    else:
        chosen = annotator_state(own)
    resolved = store.resolve(plan.jsonl_set, state=chosen)
    state, slug = resolved.state, files.state_slug(resolved.state)
    st.download_button(
        t("lab.exp.jsonl", lang),
        data=lambda: store.export_jsonl(plan.jsonl_set, state=state),
        file_name=f"labels-{plan.stem}-{slug}.jsonl",
        mime="application/jsonl",
        key=K.K_LAB_EXP_JSONL,
        icon=":material/download:",
        on_click="ignore",
    )
    sidebar_sig = ctx.config.chunker.signature
    st.selectbox(
        t("lab.exp.chunking", lang),
        files.EXPORT_CHUNKINGS,
        key=K.K_LAB_EXP_CHUNKING,
        format_func=lambda o: (
            t("lab.exp.sidebar", lang, sig=sidebar_sig) if o == "sidebar" else PRESET_LABELS[o]
        ),
        help=t("help.lab.exp.chunking", lang),
    )
    e1, e2 = st.columns(2)
    phr = e1.radio(
        t("lab.exp.phrasings", lang),
        ("all", "question"),
        key=K.K_LAB_EXP_PHRASINGS,
        horizontal=True,
        format_func=lambda p: t(f"lab.exp.phrasings.{p}", lang),
    )
    escape = e2.checkbox(
        t("lab.exp.escape", lang), key=K.K_LAB_EXP_ESCAPE, help=t("help.lab.exp.escape", lang)
    )
    if not _qrels_download(ctx, store, qsets, plan, (phr, escape), state, slug, lang):
        return
    questions = len({(lab.question_set, lab.question_id) for lab in resolved.labels})
    st.caption(
        t(
            "lab.exp.counts",
            lang,
            labels=len(resolved.labels),
            questions=questions,
            state=md(measure.state_name(state, lang)),
        )
    )


def _qrels_download(
    ctx: Context,
    store: LabelStore,
    qsets: Mapping[str, Sequence[Question]],
    plan: files.ExportPlan,
    options: tuple[str, bool],
    state: Any,
    slug: str,
    lang: str,
) -> bool:
    """The qrels button of the chosen chunking (made from the store at the click); False when
    the chunking cannot be made (said on the page)."""
    chunker = files.export_chunker(st.session_state[K.K_LAB_EXP_CHUNKING], ctx.config.chunker)
    try:
        chunks = ctx.corpus.chunking(chunker).chunks
    except ValueError as exc:
        st.error(md(error_text(exc, lang)))
        return False
    docs, (phr, escape) = ctx.corpus.docs, options
    st.download_button(
        t("lab.exp.qrels", lang, sig=chunker.signature),
        data=lambda: files.qrels_text(store, chunks, qsets, plan, docs, phr, escape, state),
        file_name=f"qrels-{plan.stem}-{chunker.signature}-{slug}.txt",
        mime="text/plain",
        key=K.K_LAB_EXP_QRELS,
        icon=":material/download:",
        on_click="ignore",
    )
    return True


def import_section(store: LabelStore, docs: Mapping[str, Document], lang: str) -> None:
    """A JSONL file of labels, checked against the corpus unless unticked, and the report."""
    st.subheader(t("lab.h.import", lang))
    up = st.file_uploader(
        t("lab.imp.file", lang),
        type=["jsonl", "json", "txt"],
        key=K.K_LAB_IMP_FILE,
        help=t("help.lab.imp.file", lang),
    )
    check = st.checkbox(
        t("lab.imp.check", lang),
        value=True,
        key=K.K_LAB_IMP_CHECK,
        help=t("help.lab.imp.check", lang),
    )
    if st.button(t("lab.imp.go", lang), key=K.K_LAB_IMP_GO, disabled=up is None) and up is not None:
        done(files.import_labels(store, up.name, up.getvalue(), docs if check else None), lang)
    imported = st.session_state.pop(K.K_LAB_IMP_FLASH, None)
    if imported is not None:
        st.success(md(say(imported, lang)))


def question_widgets(
    qv: view.QuestionView, qsets: Mapping[str, Sequence[Question]], lang: str
) -> None:
    """Set and question pickers, progress and "next not judged", the question (its facts, which
    change with every save, are drawn in the page's fragment)."""
    q, qset = qv.question, st.session_state[K.K_LAB_QSET]
    c1, c2 = st.columns([1, 3])
    c1.selectbox(
        t("side.qset", lang), list(qsets), key=K.K_LAB_QSET, on_change=do, args=(view.follow, qsets)
    )
    c2.selectbox(
        t("side.qid", lang),
        list(qv.options),
        key=K.K_LAB_QID,
        on_change=do,
        args=(view.follow, qsets),
        format_func=qv.options.__getitem__,
        help=t("help.lab.qid", lang),
    )
    c1, c2 = st.columns([3, 1])
    c1.progress(
        qv.share, text=md(t("lab.progress", lang, judged=qv.judged, total=qv.total, set=qset))
    )
    c2.button(
        t("lab.next", lang),
        key=K.K_LAB_NEXT,
        disabled=qv.next_id is None,
        on_click=do,
        args=(view.follow, qsets, qv.next_id),
        width="stretch",
    )
    st.markdown(f"**{md(q.id)}** · {md(q.question)}")
    if qv.phrasings:
        st.caption(md(qv.phrasings))


def save_widgets(
    pick: SpanPick,
    store: LabelStore,
    key: view.SpanKey,
    annotator: str,
    lang: str,
    pool: PoolView,
    qsets: Mapping[str, Sequence[Question]],
    next_qid: str | None,
) -> tuple[bool, bool]:
    """Grade (keys 0–3), note, save, save-and-next (Enter) and undo buttons, the last action's
    message: ``(undo this, undo mine)``.

    The saves run in the buttons' callbacks, before the next run: that one run
    shows the stored label and its confirmation (one run per save, not a run
    and an ``st.rerun``).
    """
    existing = pick.existing
    can_save = bool(annotator and pick.ok)
    c1, c2 = st.columns([2, 3])
    with c1:
        st.radio(
            t("lab.grade", lang),
            GRADES,
            key=K.K_LAB_GRADE,
            format_func=lambda g: t(f"lab.grade.{g}", lang),
            help=t("help.lab.grade", lang),
        )
        for col, g in zip(st.columns(len(GRADES)), GRADES, strict=True):
            col.button(
                str(g),
                key=f"{K.K_LAB_GRADE_KEY}.{g}",
                help=t("help.lab.grade_key", lang, grade=g),
                on_click=do,
                args=(spans.set_grade, g),
                width="stretch",
            )
    with c2:
        st.text_input(t("lab.note", lang), key=K.K_LAB_NOTE, max_chars=500)
        if not annotator:
            st.warning(t("lab.need_annotator", lang))
        st.button(
            t("lab.save_next", lang),
            key=K.K_LAB_SAVE_NEXT,
            type="primary",
            disabled=not can_save,
            width="stretch",
            help=t("help.lab.save_next", lang),
            on_click=do,
            args=(saving.save_and_next, store, key, pick.doc, pool.candidates, qsets, next_qid),
        )
        b1 = b2 = b3 = st.container()  # one under the other: their labels fit a narrow column
        b1.button(
            t("lab.change" if existing else "lab.save", lang),
            key=K.K_LAB_SAVE,
            disabled=not can_save,
            width="stretch",
            on_click=do,
            args=(saving.save, store, key, pick.doc),
        )
        undo_this = b2.button(
            t("lab.undo_this", lang),
            key=K.K_LAB_UNDO_THIS,
            disabled=not (annotator and existing),
            width="stretch",
        )
        undo_mine = b3.button(
            t("lab.undo_mine", lang), key=K.K_LAB_UNDO_MINE, disabled=not annotator, width="stretch"
        )
        st.caption(t("lab.keys", lang))
        if pick.flash:
            st.success(md(say(pick.flash, lang)))
        if pick.save_error:
            st.error(md(say(pick.save_error, lang)))
    return undo_this, undo_mine


def stale_question(edit: saving.Edit, lang: str) -> bool:
    """Ask what to do with an edit refused as stale: True when "overwrite" was clicked."""
    if edit.ask is None:
        return False
    st.warning(md(say(edit.ask, lang)))
    s1, s2 = st.columns(2)
    overwrite = s1.button(
        t("lab.stale_overwrite", lang), key=K.K_LAB_STALE_OVERWRITE, type="primary"
    )
    s2.button(
        t("lab.stale_keep", lang),
        key=K.K_LAB_STALE_KEEP,
        on_click=view.apply,
        args=(st.session_state, saving.keep_current(*edit.keep)),
    )
    return overwrite


def span_facts(pick: SpanPick, lang: str) -> None:
    """The picked span's place and whether (and how) it is judged."""
    if not pick.ok:
        return
    st.markdown(
        t(
            "lab.selected",
            lang,
            doc=md(pick.doc.doc_id),
            start=pick.start,
            end=pick.end,
            n=pick.end - pick.start,
        )
    )
    existing = pick.existing
    st.caption(
        t("lab.span_not_judged", lang)
        if existing is None
        else md(say(spans.judged(existing), lang))
    )
