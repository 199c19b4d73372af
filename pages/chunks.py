"""Chunks: one document drawn with its chunk boundaries, and the chunking's diagnostics."""

from __future__ import annotations

import streamlit as st

from ui import cache, render, sidebar
from ui.chunks import keys, view, widgets
from ui.html import md, show, style, table, tag
from ui.i18n import t

ctx = sidebar.context(__file__)
lang = ctx.lang
show(style())
st.title(t("page.chunks", lang))

chunking = cache.get_chunking(
    ctx.corpus, ctx.config.chunker, progress_label=t("chk.running", lang), lang=lang
)
if chunking is None:
    st.stop()
# the window and token counts of the embedder this corpus is searched with (e5: 512, its own
# tokenizer)
dense_model = ctx.config.retrieval.dense_model
counted = ctx.corpus.window_counts(ctx.config.chunker, dense_model)
chunking = view.with_window(
    chunking,
    ctx.corpus.windowed(ctx.config.chunker, dense_model),
    counted[1] if counted else None,
)
d = chunking.diagnostics
docs = ctx.corpus.docs
st.caption(t("chk.signature", lang, sig=chunking.signature, n=d.n_documents))

# diagnostics ----------------------------------------------------------------
render.chunking_metrics(d, lang, token_range=True)
st.caption(
    t("chk.chars", lang, lo=d.chars_min, mean=f"{d.chars_mean:.0f}", hi=d.chars_max)
    + (" · " + t("chk.skipped_blocks", lang, n=d.n_skipped_blocks) if d.n_skipped_blocks else "")
)
if d.not_in_corpus:  # reported, not counted as destroyed
    ids = view.not_in_corpus_ids(d)
    st.warning(md(t("chk.not_in_corpus", lang, n=len(d.not_in_corpus), ids=ids)))
if d.n_hard_cuts:  # cut mid-word where the text had no boundary
    st.warning(t("chk.hard_cuts", lang, n=d.n_hard_cuts))
unknown = view.unknown_line(ctx.corpus.unknown_chars(ctx.config.chunker, dense_model), lang)
if unknown:  # MiniLM embeds a share of the text as [UNK]
    st.warning(unknown)

doc_id = widgets.doc_picker(ctx, docs, lang)  # page widget, mirrored in the URL
v = view.doc_view(chunking, docs[doc_id], ctx.corpus.needles, ctx.gold, lang)
st.subheader(t("chk.h.document", lang, doc=md(doc_id)), anchor=False)
st.caption(view.doc_facts(v, lang))
show(tag("div", view.legend(lang), cls="ri-legend"))
for line, close_up in view.lost_close_ups(v, lang):
    st.error(md(line))
    show(close_up)  # the cut up close, before the whole document below
show(view.whole_map(v, lang))

# token-length histogram ------------------------------------------------------
st.subheader(t("chk.h.histogram", lang))
fig = view.token_histogram(chunking, v, lang)
if fig is not None:
    st.plotly_chart(fig, key=keys.K_CHUNKS_HIST, config={"displayModeBar": False})
else:
    st.caption(t("chk.no_tokens", lang))

# lists -------------------------------------------------------------------------
left, right = st.columns(2)
with left:
    st.markdown(f"**{t('chk.h.over', lang, window=d.encoder_window)}**")
    rows, n_more = view.over_window_rows(chunking)
    show(table(view.over_window_columns(lang), rows, empty=t("chk.none_over", lang)))
    if n_more:
        st.caption(t("chk.more", lang, n=n_more))
with right:
    st.markdown(f"**{t('chk.h.destroyed', lang)}**")
    rows = view.destroyed_rows(d, lang)
    show(table(view.destroyed_columns(lang), rows, empty=t("chk.none_destroyed", lang)))

with st.expander(t("chk.h.table", lang, n=len(v.chunks))):
    rows, classes = view.chunk_rows(v)
    show(table(view.chunk_columns(lang), rows, row_classes=classes))
