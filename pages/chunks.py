"""Chunks: one document drawn with its chunk boundaries, and the chunking's diagnostics."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from rag_core.gold.relevance import locate
from ui import cache, render, sidebar
from ui.html import (
    ChunkBox,
    NeedleMark,
    chunk_map,
    esc,
    join,
    md,
    show,
    snippet,
    span,
    style,
    table,
    tag,
)
from ui.i18n import t, tv
from ui.state import K_CHUNKS_DOC

ctx = sidebar.context(__file__)
lang = ctx.lang
show(style())
st.title(t("page.chunks", lang))

chunking = cache.get_chunking(ctx.corpus, ctx.config.chunker, progress_label=t("chk.running", lang))
if chunking is None:
    st.stop()
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
    st.warning(
        md(
            t(
                "chk.not_in_corpus",
                lang,
                n=len(d.not_in_corpus),
                ids=", ".join(f"{x.doc_id} “{snippet(x.needle, 40)}”" for x in d.not_in_corpus[:5]),
            )
        )
    )
if d.n_hard_cuts:  # cut mid-word where the text had no boundary
    st.warning(t("chk.hard_cuts", lang, n=d.n_hard_cuts))

# document picker (page widget, mirrored in the URL through the sidebar's shadow state)
ids = list(docs)
gold_docs = [n.doc_id for n in ctx.gold.needles if n.doc_id in docs] if ctx.gold is not None else []
current = ctx.chunks_doc if ctx.chunks_doc in docs else (gold_docs[0] if gold_docs else ids[0])
if ctx.chunks_doc in docs:
    sidebar.url_honoured("doc")
elif notice := sidebar.url_notice("doc", current, lang):  # say what is shown instead
    st.warning(md(notice))
if st.session_state.get("chunks.doc.w") not in docs:
    st.session_state["chunks.doc.w"] = current


def _remember_doc() -> None:
    sidebar.shadow_set(K_CHUNKS_DOC, st.session_state["chunks.doc.w"])


doc_id = st.selectbox(
    t("chk.doc", lang),
    ids,
    key="chunks.doc.w",
    on_change=_remember_doc,
    format_func=lambda i: f"{i} · {docs[i].title}" + ("  ★" if i in gold_docs else ""),
)
doc = docs[doc_id]
doc_chunks = [c for c in chunking.chunks if c.doc_id == doc_id]
over = set(d.over_window)
losses = {(x.doc_id, x.needle): x for x in d.destroyed}

needles = []
seen: set[tuple[int, int]] = set()
gold_texts = {n.text for n in ctx.gold.needles} if ctx.gold is not None else set()
for n in ctx.corpus.needles:
    if n.doc_id != doc_id:
        continue
    span_ = locate(doc.text, n)
    if span_ is None or span_ in seen:
        continue
    seen.add(span_)
    loss = losses.get((n.doc_id, n.text))
    mine = n.text in gold_texts
    label = t("chk.needle_lost" if loss else "chk.needle_ok", lang) + (
        " · " + t("chk.this_question", lang) if mine else ""
    )
    needles.append(
        NeedleMark(span_[0], span_[1], loss is not None, loss.cut_at if loss else (), label, mine)
    )

n_lost = sum(1 for x in needles if x.destroyed)
st.subheader(t("chk.h.document", lang, doc=md(doc_id)), anchor=False)
st.caption(
    t(
        "chk.doc_facts",
        lang,
        chunks=len(doc_chunks),
        over=sum(1 for c in doc_chunks if c.chunk_id in over),
        needles=len(needles),
        lost=n_lost,
    )
)
legend = join(
    [
        span(t("chk.legend.chunk", lang, n=0), "ri-c0"),
        " ",
        span(t("chk.legend.chunk", lang, n=1), "ri-c1"),
        " ",
        span(t("chk.legend.overlap", lang), "ri-ov"),
        " ",
        span(t("chk.legend.header", lang), "ri-header"),
        " ",
        span(t("chk.legend.gold", lang), "ri-gold"),
        " ",
        span(t("chk.legend.lost", lang), "ri-lost"),
        " ",
        span("✂ " + t("chk.legend.cut", lang), "ri-cut"),
        " ",
        span(t("chk.legend.gap", lang), "ri-gap"),
    ]
)
show(tag("div", legend, cls="ri-legend"))
boxes = [
    ChunkBox(c.ordinal, c.start, c.own_start, c.end, c.header, c.tokens, c.chunk_id in over)
    for c in doc_chunks
]
labels = {
    "overlap": t("chk.legend.overlap", lang),
    "gap": t("chk.legend.gap", lang),
    "boundary": t("chk.legend.boundary", lang),
    "header": t("chk.legend.header", lang),
    "cut": t("chk.legend.cut", lang),
}
for x in needles:
    if x.destroyed:
        st.error(
            md(
                t(
                    "chk.lost_line",
                    lang,
                    needle=snippet(doc.text[x.start : x.end], 90),
                    start=x.start,
                    end=x.end,
                    cuts=", ".join(map(str, x.cut_at)) or "—",
                )
            )
        )
        # the cut up close: the needle and its surroundings, before the whole document below
        show(
            chunk_map(doc.text, boxes, needles, labels=labels, window=(x.start - 160, x.end + 160))
        )
show(chunk_map(doc.text, boxes, needles, labels=labels))

# token-length histogram ------------------------------------------------------
st.subheader(t("chk.h.histogram", lang))
tokens_all = [c.tokens for c in chunking.chunks if c.tokens is not None]
if tokens_all:
    fig = go.Figure()
    fig.add_trace(
        go.Histogram(
            x=tokens_all,
            name=t("chk.all_chunks", lang),
            marker_color="#8c959f",
            opacity=0.6,
            nbinsx=40,
        )
    )
    here = [c.tokens for c in doc_chunks if c.tokens is not None]
    if here:
        fig.add_trace(
            go.Histogram(x=here, name=esc(doc_id), marker_color="#1f6feb", opacity=0.8, nbinsx=40)
        )
    fig.add_vline(
        x=d.encoder_window,
        line_dash="dash",
        line_color="#cf222e",
        annotation_text=esc(t("chk.window_line", lang, window=d.encoder_window)),
    )
    fig.update_layout(
        barmode="overlay",
        height=280,
        margin={"l": 40, "r": 20, "t": 20, "b": 40},
        xaxis_title=t("chk.tokens_axis", lang),
        yaxis_title=t("chk.count_axis", lang),
    )
    st.plotly_chart(fig, key="chk.hist", config={"displayModeBar": False})
else:
    st.caption(t("chk.no_tokens", lang))

# lists -------------------------------------------------------------------------
left, right = st.columns(2)
with left:
    st.markdown(f"**{t('chk.h.over', lang, window=d.encoder_window)}**")
    by_id = chunking.by_id
    rows = [
        [
            span(cid, "ri-mono"),
            span(by_id[cid].tokens, "ri-num"),
            by_id[cid].section,
            span(len(by_id[cid].header), "ri-num"),
        ]
        for cid in d.over_window[:200]
    ]
    show(
        table(
            [
                t("chk.chunk", lang),
                t("ins.tokens", lang),
                t("ins.section", lang),
                t("chk.header_chars", lang),
            ],
            rows,
            empty=t("chk.none_over", lang),
        )
    )
    if len(d.over_window) > 200:
        st.caption(t("chk.more", lang, n=len(d.over_window) - 200))
with right:
    st.markdown(f"**{t('chk.h.destroyed', lang)}**")
    rows = [
        [
            span(x.doc_id, "ri-mono"),
            snippet(x.needle, 80),
            tv("lossreason", x.reason, lang),
            span(", ".join(map(str, x.cut_at)) or "—", "ri-num"),
        ]
        for x in d.destroyed
    ]
    show(
        table(
            [t("ins.doc", lang), t("ins.needle", lang), t("ins.why", lang), t("chk.cut_at", lang)],
            rows,
            empty=t("chk.none_destroyed", lang),
        )
    )

with st.expander(t("chk.h.table", lang, n=len(doc_chunks))):
    rows = [
        [
            span(c.ordinal, "ri-num"),
            span(f"{c.start}–{c.end}", "ri-num"),
            span(c.own_start - c.start, "ri-num"),
            span(len(c.content), "ri-num"),
            span(c.tokens if c.tokens is not None else "—", "ri-num"),
            c.section,
            c.header,
            snippet(c.content, 80),
        ]
        for c in doc_chunks
    ]
    show(
        table(
            [
                "#",
                t("chk.span", lang),
                t("chk.overlap_chars", lang),
                t("chk.chars_col", lang),
                t("ins.tokens", lang),
                t("ins.section", lang),
                t("chk.header", lang),
                t("ins.snippet", lang),
            ],
            rows,
            row_classes=["ri-bad" if c.chunk_id in over else "" for c in doc_chunks],
        )
    )
