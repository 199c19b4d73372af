"""Label: gold evidence as document spans, judged from a pooled candidate list, stored so that none is lost."""

from __future__ import annotations

import streamlit as st

from rag_core.config import ANALYZERS, PRESET_LABELS, PRESETS, RETRIEVAL_METHODS, VECTOR_METHODS, preset
from rag_core.evalrun import ranking_config
from rag_core.labels import GRADES, LabelStore, LabelStoreError, StaleLabel, gold_for, stale_labels
from rag_core.pooling import DEFAULT_POOL_RETRIEVERS, POOL_ORDERS
from rag_core.relevance import locate, relevant_chunk_ids
from rag_core.spans import label_on, labels_within, occurrences, sentence_containing, sentence_spans
from ui import measure, sidebar
from ui.html import Mark, div, join, marked_text, md, show, snippet, span, style, table
from ui.i18n import t
from ui.state import K_QID, K_QMODE, K_QPHRASING, K_QSET

ctx = sidebar.context(__file__)
lang = ctx.lang
ss = st.session_state
show(style())
show(measure.style())
st.title(t("page.label", lang))
st.caption(t("lab.intro", lang))

qsets = ctx.question_sets
if not qsets:
    st.info(t("lab.no_sets", lang))
    st.stop()

# ------------------------------------------------------------------ store + annotator
store = measure.open_store(lang)
c1, c2 = st.columns([3, 2])
with c1:
    st.markdown(t("lab.store", lang, path=md(str(measure.store_path()))))
    if sidebar.ROOT in measure.store_path().resolve().parents:
        st.warning(t("lab.store_in_tree", lang))
    with st.expander(t("lab.store_change", lang)):
        if "label.store.w" not in ss:
            ss["label.store.w"] = str(measure.store_path())
        st.text_input(t("lab.store_path", lang), key="label.store.w", help=t("help.lab.store_path", lang))
        if st.button(t("lab.store_use", lang), key="label.store.use"):
            wanted = ss["label.store.w"].strip()
            try:
                LabelStore(wanted)  # opens (or creates) it: a bad path is reported, the old store stays
            except (LabelStoreError, OSError) as exc:
                st.error(md(t("lab.store_error", lang, error=str(exc))))
            else:
                ss[measure.K_STORE_PATH] = wanted
                st.rerun()
with c2:
    st.text_input(t("lab.annotator", lang), key="label.annotator", persist_state="session",
                  placeholder=t("lab.annotator_ph", lang), help=t("help.lab.annotator", lang))
annotator = (ss.get("label.annotator") or "").strip()
if store is None:
    st.stop()

# ------------------------------------------------------------------ question
names = list(qsets)
sb = (ss.get(K_QSET), ctx.gold.id) if ctx.gold is not None and ss.get(K_QSET) in qsets else None
if sb is not None and ss.get("label._sb") != sb:  # the sidebar moved: follow it
    ss["label.qset"], ss["label.qid"] = sb
ss["label._sb"] = sb
if ss.get("label.qset") not in qsets:
    ss["label.qset"] = names[0]
qset = ss["label.qset"]
questions = qsets[qset]
by_id = {q.id: q for q in questions}
if ss.get("label.qid") not in by_id:
    ss["label.qid"] = questions[0].id


def _follow(qid: str | None = None) -> None:
    """Callback: the page's question becomes the sidebar's (and the URL's)."""
    if qid is not None:
        ss["label.qid"] = qid
    name = ss["label.qset"]
    ids = [q.id for q in qsets[name]]
    if ss.get("label.qid") not in ids:
        ss["label.qid"] = ids[0]
    ss[K_QMODE], ss[K_QSET], ss[K_QID], ss[K_QPHRASING] = "set", name, ss["label.qid"], 0
    ss["label._sb"] = (name, ss["label.qid"])


judged, not_judged = store.progress(qset, [q.id for q in questions])
judged_set = set(judged)
c1, c2 = st.columns([1, 3])
c1.selectbox(t("side.qset", lang), names, key="label.qset", on_change=_follow)
c2.selectbox(
    t("side.qid", lang), list(by_id), key="label.qid", on_change=_follow,
    # the labels must not change with a save: Streamlit derives the widget's identity from them, and a
    # new identity resets the browser's value to the first question at the next interaction
    format_func=lambda i: f"{i} · {by_id[i].question[:70]}",
    help=t("help.lab.qid", lang),
)
q = by_id[ss["label.qid"]]
c1, c2 = st.columns([3, 1])
with c1:
    st.progress(len(judged) / max(len(questions), 1),
                text=md(t("lab.progress", lang, judged=len(judged), total=len(questions), set=qset)))
with c2:
    after = [i for i in not_judged if i != q.id]
    nxt = next((i for i in after if list(by_id).index(i) > list(by_id).index(q.id)), after[0] if after else None)
    st.button(t("lab.next", lang), key="label.next", disabled=nxt is None, on_click=_follow, args=(nxt,),
              width="stretch")

labels_q = store.current(qset, q.id)
docs = ctx.corpus.docs
st.markdown(f"**{md(q.id)}** · {md(q.question)}")
if len(q.phrasings) > 1:
    st.caption(md(" · ".join(f"{i}: {p}" for i, p in enumerate(q.phrasings))))
facts = [t("lab.q_judged", lang, n=len(labels_q)) if labels_q else t("lab.q_not_judged", lang),
         t("lab.answerable" if q.answerable else "lab.unanswerable", lang)]
if q.tags:
    facts.append(t("lab.tags", lang, tags=", ".join(q.tags)))
st.caption(md(" · ".join(facts)))

gold = gold_for(q, labels_q, docs, question_set=qset)
zeros = [lab for lab in labels_q if lab.grade == 0]
rows = []
for n in gold:
    text = docs[n.doc_id].text if n.doc_id in docs else None
    where = locate(text, n) if text is not None else None
    rows.append([
        span(t(f"lab.origin.{n.origin}", lang), measure.origin_class(n.origin)),
        span(n.doc_id, "ri-mono"),
        f"{where[0]}–{where[1]}" if where else t("lab.not_in_corpus", lang),
        n.grade,
        snippet(n.text, 140),
    ])
for lab in zeros:
    rows.append([span(t("lab.origin.zero", lang), measure.origin_class("zero")), span(lab.doc_id, "ri-mono"),
                 f"{lab.start}–{lab.end}", 0, snippet(lab.text, 140)])
st.subheader(t("lab.h.gold", lang))
show(table([t("lab.col.origin", lang), t("ins.doc", lang), t("lab.col.span", lang), t("lab.col.grade", lang),
            t("lab.col.text", lang)], rows, empty=t("lab.no_gold", lang)))
st.caption(t("lab.gold_help", lang))

# ------------------------------------------------------------------ pool
st.header(t("lab.h.pool", lang))
specs = [f"{m}:{a}" for m in RETRIEVAL_METHODS if m not in VECTOR_METHODS for a in ANALYZERS] + ["dense"]
if "label.pool.retrievers" not in ss:
    ss["label.pool.retrievers"] = list(DEFAULT_POOL_RETRIEVERS)
c1, c2, c3, c4 = st.columns([3, 2, 2, 1])
c1.multiselect(t("lab.pool.retrievers", lang), specs, key="label.pool.retrievers", persist_state="session",
               help=t("help.lab.pool.retrievers", lang))
c2.slider(t("lab.pool.depth", lang), 1, 50, 10, key="label.pool.depth", persist_state="session",
          help=t("help.lab.pool.depth", lang))
c3.radio(t("lab.pool.order", lang), POOL_ORDERS, key="label.pool.order", horizontal=True, persist_state="session",
         format_func=lambda o: t(f"lab.pool.order.{o}", lang), help=t("help.lab.pool.order", lang))
c4.number_input(t("lab.pool.seed", lang), 0, 1_000_000, 0, key="label.pool.seed", persist_state="session")
retrievers = tuple(ss.get("label.pool.retrievers") or ())
chunking = ctx.corpus.chunking(ctx.config.chunker)
entries: tuple = ()
if not retrievers:
    st.info(t("lab.pool.none", lang))
else:
    with st.spinner(t("lab.pool.running", lang)):
        result = measure.run_guarded(lambda: measure.pool(
            ctx.corpus_key, ranking_config(ctx.config).to_json(sort_keys=True), (qset, q.id), retrievers,
            int(ss["label.pool.depth"]), ss["label.pool.order"], int(ss["label.pool.seed"]), ctx.corpus, q), lang)
    if result is not None:
        entries = result.entries
        for msg in result.unavailable:
            st.warning(md(t("lab.pool.unavailable", lang, message=msg)))
        pooled = [chunking.by_id[e.item] for e in entries]
        origins: dict[str, list[str]] = {}
        for n, ids in zip(gold, relevant_chunk_ids(pooled, gold, docs)):
            for cid in ids:
                origins.setdefault(cid, []).append(n.origin)
        by_rank = result.order == "rank"
        cols = ["#", *( [t("lab.col.best", lang), t("lab.col.runs", lang)] if by_rank else []),
                t("ins.doc", lang), t("lab.col.span", lang), t("lab.col.judged", lang), t("ins.snippet", lang)]
        rows, classes = [], []
        for e, c in zip(entries, pooled):
            inside = labels_within(labels_q, c.doc_id, c.start, c.end)
            marks = [span(t(f"lab.origin.{o}", lang), measure.origin_class(o)) for o in dict.fromkeys(origins.get(c.chunk_id, ()))]
            marks += [span(t("lab.judged_grade", lang, grade=lab.grade), f"ri-chip ri-g{lab.grade}")
                      for lab in inside if lab.grade == 0]
            judged_cell = join(marks, " ") if marks else span(t("lab.not_judged", lang), "ri-muted")
            row = [e.position]
            if by_rank:
                row += [e.best_rank, span(", ".join(f"{n}#{r}" for n, r in e.ranks), "ri-mono")]
            row += [span(f"{c.doc_id} #{c.ordinal}", "ri-mono"), f"{c.start}–{c.end}", judged_cell,
                    snippet(c.content, 150)]
            rows.append(row)
            classes.append("ri-goldrow" if c.chunk_id in origins else None)
        st.caption(t("lab.pool.facts", lang, n=len(entries), runs=len(result.runs), depth=result.depth,
                     sig=result.chunker_signature))
        show(table(cols, rows, row_classes=classes, empty=t("lab.pool.empty", lang)))
        if not by_rank:
            st.caption(t("lab.pool.blind", lang))

# ------------------------------------------------------------------ document + span
st.header(t("lab.h.span", lang))
flash = ss.pop("label.flash", None)  # shown next to the buttons that caused it
doc_ids = list(docs)
pool_chunks = {e.position: chunking.by_id[e.item] for e in entries}


def _open_candidate() -> None:
    c = pool_chunks.get(ss.get("label.cand"))
    if c is not None:
        ss["label.doc"], ss["label.chunk"], ss["label.mode"] = c.doc_id, c.chunk_id, "chunk"


if ss.get("label._for") != (qset, q.id):  # a new question opens on its first pooled candidate
    ss["label._for"] = (qset, q.id)
    for key in ("label.cand", "label.doc", "label.chunk", "label.sent", "label.start", "label.end", "label.find",
                "label.occs", "label._last"):
        ss.pop(key, None)
    if pool_chunks:
        ss["label.cand"] = min(pool_chunks)
        _open_candidate()
if pool_chunks:
    if ss.get("label.cand") not in pool_chunks:
        ss["label.cand"] = min(pool_chunks)
    st.selectbox(
        t("lab.cand", lang), list(pool_chunks), key="label.cand", on_change=_open_candidate,
        format_func=lambda p: f"#{p} · {pool_chunks[p].doc_id} #{pool_chunks[p].ordinal} · {snippet(pool_chunks[p].content, 70)}",
    )
if ss.get("label.doc") not in docs:
    ss["label.doc"] = doc_ids[0]
st.selectbox(t("lab.doc", lang), doc_ids, key="label.doc",
             format_func=lambda d: f"{d} · {docs[d].title}", help=t("help.lab.doc", lang))
doc = docs[ss["label.doc"]]
doc_chunks = [c for c in chunking.chunks if c.doc_id == doc.doc_id]
MODES = ("chunk", "sentence", "range")
if ss.get("label.mode") not in MODES:
    ss["label.mode"] = "chunk"
st.radio(t("lab.mode", lang), MODES, key="label.mode", horizontal=True,
         format_func=lambda m: t(f"lab.mode.{m}", lang), help=t("help.lab.mode", lang))
mode = ss["label.mode"]
chunk_ids = [c.chunk_id for c in doc_chunks]
last = ss.get("label._last")  # (doc, start, end) of the span shown last: where a new mode opens
last_span = (last[1], last[2]) if last and last[0] == doc.doc_id else None
if ss.get("label.chunk") not in chunk_ids and chunk_ids:
    near = [c for c in doc_chunks if last_span and c.start <= last_span[0] < c.end]
    ss["label.chunk"] = (near[0] if near else doc_chunks[0]).chunk_id
anchor = last_span[0] if last_span else (chunking.by_id[ss["label.chunk"]].start if chunk_ids else 0)
start = end = 0
if mode == "chunk":
    if not chunk_ids:
        st.info(t("lab.no_chunks", lang))
    else:
        by_cid = {c.chunk_id: c for c in doc_chunks}
        st.selectbox(t("lab.chunk", lang), chunk_ids, key="label.chunk",
                     format_func=lambda i: f"#{by_cid[i].ordinal} · {by_cid[i].start}–{by_cid[i].end} · "
                                           f"{snippet(by_cid[i].content, 70)}")
        c = by_cid[ss["label.chunk"]]
        start, end = c.start, c.end
elif mode == "sentence":
    sents = sentence_spans(doc.text)
    if not sents:
        st.info(t("lab.no_sentences", lang))
    else:
        if not isinstance(ss.get("label.sent"), int) or not 0 <= ss["label.sent"] < len(sents):
            ss["label.sent"] = sentence_containing(doc.text, anchor) or 0
        st.selectbox(t("lab.sentence", lang), list(range(len(sents))), key="label.sent",
                     format_func=lambda i: f"{i + 1} · {sents[i][0]}–{sents[i][1]} · "
                                           f"{snippet(doc.text[sents[i][0]:sents[i][1]], 80)}")
        start, end = sents[ss["label.sent"]]
else:
    n_chars = len(doc.text)

    def _find() -> None:
        found = occurrences(doc.text, ss.get("label.find") or "")
        ss["label.occs"] = found
        if found:
            ss["label.start"], ss["label.end"] = found[0]
            ss["label.occ"] = 0

    def _pick_occ() -> None:
        found = ss.get("label.occs") or ()
        i = ss.get("label.occ") or 0
        if 0 <= i < len(found):
            ss["label.start"], ss["label.end"] = found[i]

    if "label.start" not in ss or "label.end" not in ss:
        base = chunking.by_id.get(ss.get("label.chunk") or "")
        ss["label.start"], ss["label.end"] = last_span or ((base.start, base.end) if base else (0, min(n_chars, 200)))
    for key in ("label.start", "label.end"):
        ss[key] = min(max(int(ss[key]), 0), n_chars)
    st.text_input(t("lab.find", lang), key="label.find", on_change=_find, help=t("help.lab.find", lang))
    found = ss.get("label.occs") or ()
    if ss.get("label.find"):
        if not found:
            st.warning(t("lab.find_none", lang))
        elif len(found) > 1:
            if not isinstance(ss.get("label.occ"), int) or ss["label.occ"] >= len(found):
                ss["label.occ"] = 0
            st.selectbox(t("lab.find_many", lang, n=len(found)), list(range(len(found))), key="label.occ",
                         on_change=_pick_occ, format_func=lambda i: f"{found[i][0]}–{found[i][1]}")
    c1, c2 = st.columns(2)
    c1.number_input(t("lab.start", lang), 0, n_chars, key="label.start", step=1)
    c2.number_input(t("lab.end", lang), 0, n_chars, key="label.end", step=1)
    start, end = int(ss["label.start"]), int(ss["label.end"])

ok_span = 0 <= start < end <= len(doc.text)
if ok_span:
    ss["label._last"] = (doc.doc_id, start, end)
if not ok_span and mode == "range":
    st.error(t("lab.bad_span", lang, start=start, end=end, n=len(doc.text)))
existing = label_on(labels_q, doc.doc_id, start, end) if ok_span else None
if ss.get("label._span") != (qset, q.id, doc.doc_id, start, end):  # a new span: show its label, if any
    ss["label._span"] = (qset, q.id, doc.doc_id, start, end)
    if existing is not None:
        ss["label.grade"], ss["label.note"] = existing.grade, existing.note
    else:
        ss["label.note"] = ""

# the excerpt: selected span, gold needles and labels of this question in this document
marks: list[Mark] = []
for n in gold:
    if n.doc_id == doc.doc_id:
        where = locate(doc.text, n)
        if where:
            marks.append(Mark(where[0], where[1], "ri-gold", t(f"lab.origin.{n.origin}", lang)))
for lab in labels_q:
    if lab.doc_id == doc.doc_id:
        marks.append(Mark(lab.start, lab.end, f"ri-lab ri-g{lab.grade}",
                          t("lab.mark_label", lang, grade=lab.grade, who=lab.annotator or "—")))
if ok_span:
    marks.append(Mark(start, end, "ri-pick", t("lab.mark_pick", lang)))
whole = st.toggle(t("lab.whole", lang), key="label.whole")
if whole:
    lo, hi = 0, len(doc.text)
else:
    lo, hi = max(0, (start if ok_span else 0) - 500), min(len(doc.text), (end if ok_span else 0) + 500)
excerpt = marked_text(doc.text[lo:hi], marks, base=lo, cls="ri-doc ri-text")
show(excerpt)
show(div(join([span(t("lab.legend.pick", lang), "ri-pick"), span(t("lab.legend.gold", lang), "ri-gold"),
               *(span(t("lab.judged_grade", lang, grade=g), f"ri-lab ri-g{g}") for g in GRADES)], " "), "ri-legend"))

if ok_span:
    st.markdown(t("lab.selected", lang, doc=md(doc.doc_id), start=start, end=end, n=end - start))
    if existing is None:
        st.caption(t("lab.span_not_judged", lang))
    else:
        st.caption(md(t("lab.span_judged", lang, grade=existing.grade, who=existing.annotator or "—",
                        when=existing.created_at, kind=t(f"lab.kind.{existing.kind}", lang))))


def _write(key: tuple, doc, existing, grade: int, note: str, who: str, expected: int | None) -> None:
    """Add or change the label of span ``key`` = (set, question, doc, start, end), expecting its version to be
    ``expected`` (else StaleLabel)."""
    name, qid, doc_id, lo, hi = key
    if existing is None:
        lab = store.add(name, qid, doc_id, lo, hi, grade, text=doc.text[lo:hi], note=note,
                        annotator=who, doc=doc, expected_event=expected)
        ss["label.flash"] = t("lab.saved", lang, grade=lab.grade, start=lo, end=hi)
    elif (existing.grade, existing.note) == (grade, note):
        ss["label.flash"] = t("lab.unchanged", lang)
    else:
        lab = store.change(existing.label_id, grade=grade, note=note, annotator=who, expected_event=expected)
        ss["label.flash"] = t("lab.changed", lang, grade=lab.grade)


def _on_save(key: tuple, doc) -> None:
    """Save button callback: the span's label as stored now, the grade/note/annotator as sent with the click.

    A label changed elsewhere since this session showed it is not overwritten: the run asks.
    """
    now = label_on(store.current(key[0], key[1]), key[2], key[3], key[4])
    now_ev = now.event_id if now is not None else None
    seen_ = ss.get("label._seen")
    seen_ev = seen_[1] if seen_ and seen_[0] == key else now_ev
    g, n, who = int(ss["label.grade"]), ss.get("label.note") or "", (ss.get("label.annotator") or "").strip()
    if not who:  # the name was cleared with this click: nothing is saved, the page asks for it
        return
    if seen_ev != now_ev:
        ss["label._stale"] = (key, g, n)
        return
    try:
        _write(key, doc, now, g, n, who, seen_ev)
    except StaleLabel:  # written elsewhere between the read and the write: ask
        ss["label._stale"] = (key, g, n)
        ss["label._seen"] = (key, seen_ev)
    except ValueError as exc:
        ss["label.save_error"] = str(exc)
    else:
        ss.pop("label._seen", None)


def _keep_current(lab_grade: int, lab_note: str) -> None:
    ss["label.grade"], ss["label.note"] = lab_grade, lab_note
    ss.pop("label._stale", None)
    ss["label.flash"] = t("lab.stale_kept", lang, grade=lab_grade)


span_key = (qset, q.id, doc.doc_id, start, end)
c1, c2 = st.columns([2, 3])
with c1:
    if ss.get("label.grade") not in GRADES:
        ss["label.grade"] = 1
    st.radio(t("lab.grade", lang), GRADES, key="label.grade", format_func=lambda g: t(f"lab.grade.{g}", lang),
             help=t("help.lab.grade", lang))
with c2:
    st.text_input(t("lab.note", lang), key="label.note", max_chars=500)
    if not annotator:
        st.warning(t("lab.need_annotator", lang))
    b1, b2, b3 = st.columns(3)
    # the save runs in the button's callback, before the next run: that one run shows the stored label and
    # its confirmation (one run per save, not a run and an st.rerun)
    b1.button(t("lab.change" if existing else "lab.save", lang), key="label.save", type="primary",
              disabled=not (annotator and ok_span), width="stretch", on_click=_on_save, args=(span_key, doc))
    undo_this = b2.button(t("lab.undo_this", lang), key="label.undo_this", disabled=not (annotator and existing),
                          width="stretch")
    undo_mine = b3.button(t("lab.undo_mine", lang), key="label.undo_mine", disabled=not annotator,
                          width="stretch")
    if flash:
        st.success(md(flash))
    save_error = ss.pop("label.save_error", None)
    if save_error:
        st.error(md(save_error))
grade, note = int(ss["label.grade"]), ss.get("label.note") or ""
now_event = existing.event_id if existing is not None else None
seen = ss.get("label._seen")  # (span, label version) as the previous run showed them
seen_event = seen[1] if seen and seen[0] == span_key else now_event
save = False  # a plain save ran in _on_save; an overwrite after the question below saves here
stale = ss.get("label._stale")
if stale and stale[0] == span_key:
    grade, note = stale[1], stale[2]
    st.warning(md(t("lab.stale_edit", lang, seen="—" if seen is None or seen_event is None else next(
        (str(e.grade) for e in store.history(qset, q.id) if e.event_id == seen_event), "—"),
        now=existing.grade if existing else "—", who=(existing.annotator or "—") if existing else "—")))
    s1, s2 = st.columns(2)
    overwrite = s1.button(t("lab.stale_overwrite", lang), key="label.stale.overwrite", type="primary")
    s2.button(t("lab.stale_keep", lang), key="label.stale.keep", on_click=_keep_current,
              args=(existing.grade if existing else 1, existing.note if existing else ""))
    if overwrite:
        ss.pop("label._stale", None)
        save, seen_event = True, now_event
    else:
        save = False
elif stale:
    ss.pop("label._stale", None)
if save:
    try:
        _write(span_key, doc, existing, grade, note, annotator, seen_event)
    except StaleLabel:  # written elsewhere between this run's read and the write: ask again
        ss["label._stale"] = (span_key, grade, note)
        ss["label._seen"] = (span_key, seen_event)
        st.rerun()
    except ValueError as exc:
        st.error(md(str(exc)))
    else:
        ss.pop("label._seen", None)
        st.rerun()
if undo_this or undo_mine:
    try:
        ev = store.undo(label_id=existing.label_id if undo_this else None, annotator=annotator)
    except ValueError as exc:
        st.error(md(str(exc)))
    else:
        ss["label.flash"] = t("lab.undone", lang, kind=ev.kind, doc=ev.doc_id, start=ev.start, end=ev.end)
        st.rerun()

ss["label._seen"] = (span_key, now_event) if not ss.get("label._stale") else ss.get("label._seen")

# ------------------------------------------------------------------ labels and history
st.header(t("lab.h.labels", lang))
rows = [[span(lab.doc_id, "ri-mono"), f"{lab.start}–{lab.end}", span(lab.grade, f"ri-chip ri-g{lab.grade}"),
         snippet(lab.text, 100), lab.note, lab.annotator or "—", lab.created_at[:19].replace("T", " "),
         t(f"lab.kind.{lab.kind}", lang)]
        for lab in labels_q]
show(table([t("ins.doc", lang), t("lab.col.span", lang), t("lab.col.grade", lang), t("lab.col.text", lang),
            t("lab.note", lang), t("lab.col.who", lang), t("lab.col.when", lang), t("lab.col.kind", lang)],
           rows, empty=t("lab.none_yet", lang)))
if labels_q:
    def _open_label() -> None:
        lab = next((x for x in labels_q if x.label_id == ss.get("label.pick")), None)
        if lab is not None:
            ss["label.doc"], ss["label.mode"] = lab.doc_id, "range"
            ss["label.start"], ss["label.end"], ss["label.find"] = lab.start, lab.end, ""

    c1, c2 = st.columns([3, 1])
    by_lid = {lab.label_id: lab for lab in labels_q}
    c1.selectbox(t("lab.pick", lang), list(by_lid), key="label.pick",
                 format_func=lambda i: f"{by_lid[i].doc_id} {by_lid[i].start}–{by_lid[i].end} · "
                                       f"{snippet(by_lid[i].text, 60)}")
    c2.button(t("lab.open", lang), key="label.open", on_click=_open_label, width="stretch")
with st.expander(t("lab.h.history", lang)):
    events = store.history(qset, q.id)
    show(table(
        ["#", t("lab.col.when", lang), t("lab.col.who", lang), t("lab.col.kind", lang), t("ins.doc", lang),
         t("lab.col.span", lang), t("lab.col.grade", lang), t("lab.note", lang), t("lab.col.undone", lang)],
        [[e.event_id, e.recorded_at[:19].replace("T", " "), e.annotator or "—",
          t(f"lab.kind.{e.kind}", lang) + (f" → #{e.target}" if e.target else ""), span(e.doc_id, "ri-mono"),
          f"{e.start}–{e.end}", "—" if e.grade is None else e.grade, e.note,
          f"#{e.undone_by}" if e.undone_by else ""] for e in reversed(events)],
        row_classes=["ri-dim" if e.undone_by or e.kind == "undo" else None for e in reversed(events)],
        empty=t("lab.none_yet", lang)))

# ------------------------------------------------------------------ progress per set
st.header(t("lab.h.progress", lang))
rows = []
for name, qs in qsets.items():
    j, nj = store.progress(name, [x.id for x in qs])
    rows.append([name, len(j), len(nj), len(qs), f"{len(j) / max(len(qs), 1):.0%}"])
show(table([t("side.qset", lang), t("lab.col.judged", lang), t("lab.not_judged", lang), t("lab.col.total", lang),
            "%"], rows))
st.caption(t("lab.progress_help", lang))
stale = stale_labels(store.current(), docs)
stale = tuple(lab for lab in stale if lab.doc_id in docs)
if stale:
    st.warning(md(t("lab.stale", lang, n=len(stale),
                    ids=", ".join(f"{lab.question_id} {lab.doc_id} {lab.start}–{lab.end}" for lab in stale[:8]))))

# ------------------------------------------------------------------ export / import
st.header(t("lab.h.io", lang))
c1, c2 = st.columns(2)
with c1:
    st.subheader(t("lab.h.export", lang))
    scope = st.radio(t("lab.exp.scope", lang), ("set", "all"), key="label.exp.scope", horizontal=True,
                     format_func=lambda s: t(f"lab.exp.scope.{s}", lang, set=qset))
    chosen = [qset] if scope == "set" else names
    stem = qset if scope == "set" else "all"
    st.download_button(t("lab.exp.jsonl", lang), data=store.export_jsonl(qset if scope == "set" else None),
                       file_name=f"labels-{stem}.jsonl", mime="application/jsonl", key="label.exp.jsonl",
                       icon=":material/download:", on_click="ignore")
    options = ["sidebar", *PRESETS]
    st.selectbox(t("lab.exp.chunking", lang), options, key="label.exp.chunking",
                 format_func=lambda o: t("lab.exp.sidebar", lang, sig=ctx.config.chunker.signature)
                 if o == "sidebar" else PRESET_LABELS[o], help=t("help.lab.exp.chunking", lang))
    e1, e2 = st.columns(2)
    phr = e1.radio(t("lab.exp.phrasings", lang), ("all", "question"), key="label.exp.phrasings", horizontal=True,
                   format_func=lambda p: t(f"lab.exp.phrasings.{p}", lang))
    escape = e2.checkbox(t("lab.exp.escape", lang), key="label.exp.escape", help=t("help.lab.exp.escape", lang))
    choice = ss["label.exp.chunking"]
    chunker = ctx.config.chunker if choice == "sidebar" else preset(choice).chunker
    try:
        qchunks = ctx.corpus.chunking(chunker).chunks
        qrels = "".join(store.export_qrels(qchunks, qsets[name], docs, question_set=name, phrasings=phr,
                                           escape=escape) for name in chosen)
    except ValueError as exc:
        st.error(md(str(exc)))
    else:
        st.download_button(t("lab.exp.qrels", lang, sig=chunker.signature), data=qrels,
                           file_name=f"qrels-{stem}-{chunker.signature}.txt", mime="text/plain",
                           key="label.exp.qrels", icon=":material/download:", on_click="ignore")
        st.caption(t("lab.exp.qrels_help", lang, n=len({ln.split()[0] for ln in qrels.splitlines()})))
with c2:
    st.subheader(t("lab.h.import", lang))
    up = st.file_uploader(t("lab.imp.file", lang), type=["jsonl", "json", "txt"], key="label.imp.file",
                          help=t("help.lab.imp.file", lang))
    check = st.checkbox(t("lab.imp.check", lang), value=True, key="label.imp.check",
                        help=t("help.lab.imp.check", lang))
    if st.button(t("lab.imp.go", lang), key="label.imp.go", disabled=up is None):
        try:
            text = up.getvalue().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            st.error(md(t("lab.imp.bad", lang, reason=f"{up.name}: not UTF-8 text ({exc.reason} at byte {exc.start})")))
        else:
            try:
                rep = store.import_jsonl(text, docs=docs if check else None, source=up.name)
            except ValueError as exc:
                st.error(md(t("lab.imp.bad", lang, reason=str(exc))))
            else:
                ss["label.imp.flash"] = t("lab.imp.ok", lang, lines=rep.n_lines, added=rep.added,
                                          changed=rep.changed, unchanged=rep.unchanged)
                st.rerun()
    done = ss.pop("label.imp.flash", None)
    if done:
        st.success(md(done))
