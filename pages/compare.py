"""Compare: configuration A (the sidebar) and B (A plus a few overrides) on the same question."""

from __future__ import annotations

import streamlit as st

from ui import cache, render, sidebar, stage_charts, stream
from ui.compare import keys, view, widgets
from ui.html import Markup, md, show, style, table
from ui.i18n import t
from ui.state import compare_config, config_diff
from ui.trace_view import citation_mode_label

ctx = sidebar.context(__file__)
lang = ctx.lang
show(style())
st.title(t("page.compare", lang))
st.caption(t("cmp.intro", lang))

b_text = widgets.b_box(ctx, lang)

config_a = ctx.config
config_b, problems = compare_config(config_a, b_text, lang=lang)
for p in problems:
    st.warning(md(t("cmp.bad_line", lang, error=p)))

render.config_diff_table(config_diff(config_a, config_b), lang)

configs = {"A": config_a, "B": config_b}
# stages first: each side's answer streams in its pane below; a moved knob cancels the old ones
stream.cancel_others(
    {cache.trace_key(ctx.corpus_key, c, ctx.question, ctx.gold) for c in configs.values()}
)
results = {
    side: stream.staged_trace(
        ctx.corpus, ctx.corpus_key, cfg, ctx.question, ctx.gold, lang, runs=ctx.runs
    )
    for side, cfg in configs.items()
}
for side, res in results.items():
    if res.trace is None:
        st.error(md(t("cmp.no_trace", lang, side=side, error=res.error)))
a, b = results["A"].trace, results["B"].trace
if a is None or b is None:
    st.stop()
st.markdown(f"**{t('ins.question', lang)}** {md(a.question)}")
# an answer being made streams here, on the first screen, with its progress and Stop
tops: dict[str, object] = {}
if any(r.pending is not None for r in results.values()):
    for side, col in zip(results, st.columns(2), strict=True):
        tops[side] = col.empty()


# summary: one row per stage fact, differing rows marked -----------------------------
rows, classes = view.summary_rows(
    view.stage_facts(a, lang, citation_mode_label(a.generation, lang)),
    view.stage_facts(b, lang, citation_mode_label(b.generation, lang)),
)
st.header(t("cmp.h.summary", lang))
show(table([t("cmp.stage", lang), "A", "B", ""], rows, row_classes=classes))

left, right = st.columns(2)
with left:
    st.markdown("**A**")
    render.verdict(a, lang, pending=results["A"].pending is not None)
with right:
    st.markdown("**B**")
    render.verdict(b, lang, pending=results["B"].pending is not None)

same = a.index_stamp.chunker_signature == b.index_stamp.chunker_signature
if not same:
    st.caption(t("cmp.other_chunking", lang))


# stage by stage --------------------------------------------------------------------
st.header(t("ins.h.retrieval", lang))
st.caption(t("cmp.mark_help", lang))
for name, la, lb in view.retriever_pairs(a, b):
    pair = ((la, lb, a, "A"), (lb, la, b, "B"))
    for col, (mine, other, trace, side) in zip(st.columns(2), pair, strict=True):
        with col:
            if mine is None:
                st.caption(t("cmp.not_in", lang, name=name, side=side))
            else:
                mark = view.only_in(mine.hits, other.hits if other else (), same)
                render.retriever_column(mine, trace, lang, mark=mark)

st.header(t("ins.h.fusion", lang))
c1, c2 = st.columns(2)
with c1:
    render.fusion_table(a, lang, mark=view.only_in(a.retrieval.hits, b.retrieval.hits, same))
with c2:
    render.fusion_table(b, lang, mark=view.only_in(b.retrieval.hits, a.retrieval.hits, same))

for stage, section, key in (
    ("rerank", stage_charts.rerank_section, keys.K_CMP_BUMP),
    ("gate", stage_charts.gate_section, keys.K_CMP_GATE),
):
    st.header(t(f"ins.h.{stage}", lang))
    c1, c2 = st.columns(2)
    for col, trace, side in ((c1, a, "a"), (c2, b, "b")):
        with col:
            section(trace, lang, key=f"{key}.{side}")

st.header(t("ins.h.context", lang))
c1, c2 = st.columns(2)
for col, trace in ((c1, a), (c2, b)):
    with col:
        widgets.context_column(trace, lang)

st.header(t("ins.h.answer", lang))
c1, c2 = st.columns(2)
for col, side in ((c1, "A"), (c2, "B")):
    with col:
        render.answer_pane(
            results[side],
            lang,
            key=f"{keys.K_CMP_CLAIM}.{side.lower()}",
            question=ctx.gold,
            top=tops.get(side),
            top_head=Markup(f"<strong>{side}</strong>"),
        )
