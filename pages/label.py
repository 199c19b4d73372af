"""Label: gold evidence as document spans, judged from a pooled candidate list, stored so that none
is lost; each annotator blind to the others until they have judged a question, then their
agreement measured and their disagreements adjudicated.

The page only draws: its state and logic are ``ui.label.view`` (see its docstring), its tables and
widget groups ``ui.label.widgets`` and ``ui.label.agree_widgets``.
"""

from __future__ import annotations

import streamlit as st

from rag_core.evaluation.run import ranking_config
from ui import measure, sidebar
from ui.html import md, show, style
from ui.i18n import t
from ui.label import agree_widgets, origins, presses, saving, spans, view, widgets
from ui.label import keys as K

ctx = sidebar.context(__file__)
lang, ss, docs = ctx.lang, st.session_state, ctx.corpus.docs
show(style())
show(style(measure.CSS))
st.title(t("page.label", lang))
st.caption(t("lab.intro", lang))
qsets = ctx.question_sets
if not qsets:
    st.info(t("ev.no_sets", lang))
    st.stop()
store, annotator = widgets.store_section(lang, sidebar.ROOT)
if store is None:
    st.stop()
page = agree_widgets.page_view(lang)
if page == "agreement":
    agree_widgets.agreement_section(store, qsets, lang)
    st.header(t("lab.h.io", lang))
    widgets.export_section(ctx, store, qsets, ss[K.K_LAB_QSET], lang)  # any state: no longer blind
    st.stop()
if page == "adjudicate":
    agree_widgets.adjudication_section(store, qsets, docs, annotator, lang)
    st.stop()

# ------------------------------------------------------------------ question
view.apply(ss, view.follow_sidebar(ss, qsets, ctx.gold))
qset = ss[K.K_LAB_QSET]
qv = view.question_view(store, qset, qsets[qset], ss[K.K_LAB_QID], docs, annotator)
widgets.question_widgets(qv, qsets, lang)


@st.fragment
def annotate(qset: str, qid: str, judged_before: bool) -> None:
    """Everything a save changes: the question's facts, gold, pool, span, grade and save, the
    labels, the progress and the files. A key, a save or a span change reruns only this (the
    pool from its cache), and the exports and counts are never behind the store."""
    if (ss[K.K_LAB_QSET], ss[K.K_LAB_QID]) != (qset, qid):
        st.rerun()  # save-and-next moved past the last candidate: the whole page follows
    qv = view.question_view(store, qset, qsets[qset], qid, docs, annotator)
    if bool(qv.labels) != judged_before:
        st.rerun()  # the question's first label (or its last undone): the progress changes
    q = qv.question
    st.caption(md(widgets.line(qv.facts, lang)))
    review = agree_widgets.review_section(store, qset, q.id, bool(qv.labels), docs, lang)
    st.subheader(t("lab.h.gold", lang))
    gold = origins.gold_rows(qv.gold, qv.labels, docs)
    widgets.table_or_info(widgets.gold_table(gold, lang), gold, t("lab.no_gold", lang))
    st.caption(t("lab.gold_help", lang))

    # -------------------------------------------------------------- pool
    st.header(t("lab.h.pool", lang))
    req = widgets.pool_settings(lang, tuple(ctx.runs))
    chunking = ctx.corpus.chunking(ctx.config.chunker)
    result = None
    if not req.retrievers:
        st.info(t("lab.pool.none", lang))
    else:
        config_json = ranking_config(ctx.config).to_json(sort_keys=True)
        with st.spinner(t("lab.pool.running", lang)):
            result = measure.run_guarded(
                lambda: measure.pool(
                    ctx.corpus_key,
                    config_json,
                    (qset, q.id),
                    req.retrievers,
                    req.depth,
                    req.order,
                    req.seed,
                    ctx.corpus,
                    q,
                    ctx.runs,
                ),
                lang,
            )
    pv = origins.pool_view(result, chunking, qv.gold, qv.labels, docs)
    widgets.pool_section(pv, lang)

    # -------------------------------------------------------------- document + span, grade, save
    st.header(t("lab.h.span", lang))
    pick = spans.pick_span(ss, qset, q.id, pv.candidates, docs, chunking, qv.labels)
    view.apply(ss, pick.change)
    left, right = st.columns([3, 2])
    with left:
        widgets.span_widgets(pick, pv, docs, lang)
        whole = st.toggle(t("lab.whole", lang), key=K.K_LAB_WHOLE)
        st.caption(t("lab.mouse", lang))
        marks = spans.excerpt_marks(pick, qv.gold, qv.labels)
        widgets.selectable_excerpt(pick, marks, whole, docs, lang)
        show(widgets.legend(lang))
    with right:
        widgets.span_facts(pick, lang)
        span_key = (qset, q.id, pick.doc.doc_id, pick.start, pick.end)
        undo_this, undo_mine = widgets.save_widgets(
            pick, store, span_key, annotator, lang, pv, qsets, qv.next_id
        )
        # after the widgets the keys change: see ui/label/keyqueue/index.html
        agree_widgets.key_queue(
            presses.LABEL_KEYS,
            lambda: view.apply(
                ss,
                presses.press_label_keys(ss, store, docs, pv.candidates, qsets, qv.next_id),
            ),
            lang,
        )
        edit = saving.edit_of(ss, store, span_key, pick.existing)
        view.apply(ss, edit.change)
        if widgets.stale_question(edit, lang):
            widgets.done(
                saving.overwrite(store, span_key, pick.doc, pick.existing, edit, annotator), lang
            )
        if undo_this or undo_mine:
            widgets.done(saving.undo(store, pick.existing, undo_this, annotator), lang)
    view.apply(ss, saving.remember_seen(ss, span_key, pick.existing))

    # -------------------------------------------------------------- labels, progress, files
    widgets.labels_section(store, qset, q.id, qv.labels, lang, annotator, review)
    st.header(t("lab.h.progress", lang))
    show(widgets.progress_table(view.set_progress(store, qsets, annotator), lang))
    st.caption(t("lab.progress_help", lang))
    stale = view.stale_warning(store.current(), docs)
    if stale is not None:
        st.warning(md(view.say(stale, lang)))
    st.header(t("lab.h.io", lang))
    c1, c2 = st.columns(2)
    with c1:
        widgets.export_section(ctx, store, qsets, qset, lang, own=annotator)
    with c2:
        widgets.import_section(store, docs, lang)


annotate(qset, qv.question.id, bool(qv.labels))
