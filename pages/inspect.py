"""Inspect: one question through every stage, gold marked wherever it appears."""

from __future__ import annotations

import streamlit as st

from ui import cache, measure, render, sidebar, stage_charts
from ui.html import md, show, style
from ui.i18n import t
from ui.inspect import keys, widgets
from ui.inspect.view import answer_preview, not_loaded, skipped_lines, warning_lines
from ui.trace_view import destroyed_needles

ctx = measure.with_labels(sidebar.context(__file__))  # ★: the labels of the chosen gold state
lang = ctx.lang
show(style())
st.title(t("page.inspect", lang))

res = render.page_trace(ctx, staged=True)
trace = res.trace

st.markdown(f"**{t('ins.question', lang)}** {md(trace.question)}")
# the answer on the first screen (section 7 is ~2,700 px down at 1280x800): what the Trace holds
# now; while it is being made, its stream with progress, estimate and Stop (section 7 says so)
preview = st.empty()
state = "pending" if res.pending is not None else "stopped" if res.stopped else "done"
show(answer_preview(trace, lang, question=ctx.gold, state=state), preview)
for w in warning_lines(trace, lang):
    st.warning(md(w))
if skipped := not_loaded(trace):  # one box for the corpus load, however many it skipped
    with st.expander(t("ins.not_loaded", lang, n=skipped)):
        st.markdown("\n".join(f"- {md(w)}" for w in skipped_lines(ctx.corpus.failed, lang)))
render.verdict(trace, lang, pending=res.pending is not None)
st.caption(md(t("ins.next", lang)))  # what to do next, on the first screen
widgets.flow(trace, lang)

st.download_button(
    t("ins.download", lang),
    # keyed by how far the run got too: the model-free trace drawn while the answer is being
    # made must not be what a download after the answer gives
    data=cache.trace_json(
        (
            *cache.trace_key(ctx.corpus_key, ctx.config, ctx.question, ctx.gold),
            state,
            trace.generation.status,
            trace.support.status,
        ),
        trace,
    ),
    file_name="trace.json",
    mime="application/json",
    key=keys.K_INS_DOWNLOAD,
    icon=":material/download:",
    on_click="ignore",
)

# 1 · chunking -------------------------------------------------------------
st.header(t("ins.h.chunking", lang), anchor="chunking")
d = trace.chunking
render.chunking_metrics(d, lang)
st.caption(
    t(
        "ins.signature",
        lang,
        sig=trace.index_stamp.chunker_signature,
        fp=trace.index_stamp.corpus_fingerprint,
    )
)
for loss in destroyed_needles(trace):
    cuts = ", ".join(map(str, loss.cut_at)) or "—"
    st.error(md(t("ins.needle_destroyed", lang, needle=loss.needle, cuts=cuts)))
st.page_link(
    sidebar.page_path("chunks"), label=t("ins.open_chunks", lang), icon=":material/view_agenda:"
)

# 2 · retrieval --------------------------------------------------------------
st.header(t("ins.h.retrieval", lang), anchor="retrieval")
lists = trace.retrieval.lists
for col, lst in zip(st.columns(len(lists)), lists, strict=True):
    with col:
        render.retriever_column(lst, trace, lang)

# 3 · fusion -----------------------------------------------------------------
st.header(t("ins.h.fusion", lang), anchor="fusion")
render.fusion_table(trace, lang)

# 4 · rerank -----------------------------------------------------------------
st.header(t("ins.h.rerank", lang), anchor="rerank")
stage_charts.rerank_section(trace, lang, key=keys.K_INS_BUMP)

# 5 · gate -------------------------------------------------------------------
st.header(t("ins.h.gate", lang), anchor="gate")
stage_charts.gate_section(trace, lang, key=keys.K_INS_GATE)

# 6 · context ----------------------------------------------------------------
st.header(t("ins.h.context", lang), anchor="context")
if res.pending is not None and res.pending.converting:  # stages to the gate only, for now
    st.info(t("stream.context_waits", lang))
else:
    widgets.context_section(trace, lang, cache.token_pieces(trace))

# 7 · generation + support ---------------------------------------------------
st.header(t("ins.h.answer", lang), anchor="answer")
final = render.answer_pane(  # streamed at the top, with Stop, while it is made
    res,
    lang,
    key=keys.K_INS_CLAIM,
    question=ctx.gold,
    top=preview,
    top_head=answer_preview(trace, lang, question=ctx.gold, state="pending"),
)
if res.pending is not None:  # the stream ended here: the preview says how
    state = "done" if final is not None else "failed"
    show(answer_preview(final or trace, lang, question=ctx.gold, state=state), preview)

st.caption(
    t(
        "ins.timings",
        lang,
        total=trace.timings_ms.get("total", 0.0),
        cached=t("ins.cached", lang) if res.cached else "",
    )
)
