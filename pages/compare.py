"""Compare: configuration A (the sidebar) and B (A plus a few overrides) on the same question."""

from __future__ import annotations

import streamlit as st

from rag_core.types import Trace
from ui import cache, render, sidebar
from ui.html import md, show, span, style, table
from ui.i18n import t, tv
from ui.state import K_COMPARE_B, compare_config, format_value

ctx = sidebar.context(__file__)
lang = ctx.lang
show(style())
st.title(t("page.compare", lang))
st.caption(t("cmp.intro", lang))

#: Example B overrides (label key, text); each shows one failure mode of docs/ARCHITECTURE.md.
EXAMPLES = (
    ("cmp.ex.char", "retrieval.analyzer=char"),
    ("cmp.ex.kiwi", "retrieval.analyzer=kiwi"),
    ("cmp.ex.header", "chunker.preset=E"),
    ("cmp.ex.overlap", "chunker.preset=B"),
    ("cmp.ex.hybrid", "retrieval.methods=bm25,dense"),
    ("cmp.ex.threshold", "retrieval.methods=dense; gate.max_distance=0.6"),
    ("cmp.ex.rerank", "rerank.method=overlap; gate.max_kept=2"),
    ("cmp.ex.hardcut", "context.policy=hard-cut; context.budget_tokens=256"),
)
W = "compare.b.w"
if W not in st.session_state:
    st.session_state[W] = ctx.compare_b


def _sync() -> None:
    sidebar.shadow_set(K_COMPARE_B, st.session_state[W])


def _example(text: str) -> None:
    st.session_state[W] = text
    sidebar.shadow_set(K_COMPARE_B, text)


st.text_area(t("cmp.b", lang), key=W, on_change=_sync, height=80, help=t("cmp.b_help", lang),
             placeholder="retrieval.analyzer=char")
cols = st.columns(4)
for i, (label, text) in enumerate(EXAMPLES):
    cols[i % 4].button(t(label, lang), key=f"cmp.ex.{i}", on_click=_example, args=(text,), width="stretch")

config_a = ctx.config
config_b, problems = compare_config(config_a, st.session_state[W])
for p in problems:
    st.warning(md(t("cmp.bad_line", lang, error=p)))

flat_a, flat_b = config_a.flat(), config_b.flat()
diff = [k for k in flat_a if flat_a[k] != flat_b[k]]
if not diff:
    st.info(t("cmp.same", lang))
else:
    show(table([t("cmp.key", lang), "A", "B"],
               [[span(k, "ri-mono"), format_value(flat_a[k]), format_value(flat_b[k])] for k in diff],
               row_classes=["ri-diff"] * len(diff)))

res_a = cache.get_trace(ctx.corpus, ctx.corpus_key, config_a, ctx.question, ctx.gold,
                        progress_label=t("cmp.running", lang, side="A"), runs=ctx.runs)
res_b = cache.get_trace(ctx.corpus, ctx.corpus_key, config_b, ctx.question, ctx.gold,
                        progress_label=t("cmp.running", lang, side="B"), runs=ctx.runs)
for side, res in (("A", res_a), ("B", res_b)):
    if res.trace is None:
        st.error(md(t("cmp.no_trace", lang, side=side, error=res.error)))
if res_a.trace is None or res_b.trace is None:
    st.stop()
a, b = res_a.trace, res_b.trace
st.markdown(f"**{t('ins.question', lang)}** {md(a.question)}")


# summary: one row per stage fact, differing rows marked -----------------------------
def _gold(trace: Trace, key: str) -> str:
    if trace.gold is None:
        return "—"
    ranks = [r for r in trace.gold.stage_ranks.get(key, ()) if r is not None]
    if not ranks:
        return "✗"
    best = min(ranks)
    return f"[{best}]" if key == "context" else str(best)


def _facts(trace: Trace) -> dict[str, str]:
    out: dict[str, str] = {}
    g = trace.gold
    out[t("cmp.row.verdict", lang)] = (
        "—" if g is None else (tv("loss", g.lost_at, lang) if g.lost_at else t("cmp.reached", lang))
    )
    d = trace.chunking
    out[t("cmp.row.chunking", lang)] = f"{trace.index_stamp.chunker_signature} · {d.n_chunks}"
    out[t("chk.over_window", lang, window=d.encoder_window)] = str(len(d.over_window))
    mine = [x for x in d.destroyed if g is not None and any(x.doc_id == n.doc_id and x.needle == n.text for n in g.needles)]
    out[t("cmp.row.destroyed", lang)] = str(len(mine)) if g is not None else "—"
    over = set(d.over_window)
    if g is not None:
        gold_over = any(cid in over for ids in g.chunk_ids for cid in ids)
        out[t("cmp.row.gold_over", lang, window=d.encoder_window)] = t("cmp.yes" if gold_over else "cmp.no", lang)
    for lst in trace.retrieval.lists:
        status = "" if lst.status == "ok" else f" ({tv('status', lst.status, lang)})"
        out[t("cmp.row.list", lang, name=lst.name)] = f"{len(lst.hits)} / {lst.n_candidates}{status} · ★ {_gold(trace, 'retrieval:' + lst.name)}"
    if trace.retrieval.fused is not None:
        out[t("cmp.row.fusion", lang)] = f"{trace.retrieval.fused.method} · ★ {_gold(trace, 'fusion')}"
    out[t("cmp.row.rerank", lang)] = f"{trace.rerank.label} · ★ {_gold(trace, 'rerank')}"
    gate = trace.gate
    out[t("cmp.row.gate", lang)] = (t("cmp.refused", lang) if gate.refused else
                                    f"{len(gate.kept)} / {len(gate.kept) + len(gate.rejected)}") + f" · ★ {_gold(trace, 'gate')}"
    c = trace.context
    n_in = sum(1 for s in c.sources if s.status != "dropped")
    out[t("cmp.row.context", lang)] = (f"{tv('status', c.status, lang)}" if c.status != "ok" else
                                       f"{n_in} · {c.tokens_after}/{c.budget_tokens} tok") + f" · ★ {_gold(trace, 'context')}"
    out[t("cmp.row.question_cut", lang)] = t("cmp.yes" if c.question_cut else "cmp.no", lang)
    gen = trace.generation
    out[t("cmp.row.answer", lang)] = (
        f"{gen.answer} ({render.citation_mode_label(gen, lang)})" if gen.status == "ok" and gen.answer
        else tv("status", gen.status, lang)
    )
    if trace.support.status == "ok":
        counts: dict[str, int] = {}
        for cl in trace.support.claims:
            counts[cl.verdict] = counts.get(cl.verdict, 0) + 1
        out[t("cmp.row.support", lang)] = ", ".join(f"{tv('verdict', k, lang)} {v}" for k, v in counts.items()) or "—"
    return out


fa, fb = _facts(a), _facts(b)
keys = list(dict.fromkeys([*fa, *fb]))
rows, classes = [], []
for k in keys:
    va, vb = fa.get(k, "—"), fb.get(k, "—")
    rows.append([k, va, vb, "≠" if va != vb else ""])
    classes.append("ri-diff" if va != vb else "")
st.header(t("cmp.h.summary", lang))
show(table([t("cmp.stage", lang), "A", "B", ""], rows, row_classes=classes))

left, right = st.columns(2)
with left:
    st.markdown("**A**")
    render.verdict(a, lang)
with right:
    st.markdown("**B**")
    render.verdict(b, lang)

same_chunking = a.index_stamp.chunker_signature == b.index_stamp.chunker_signature
if not same_chunking:
    st.caption(t("cmp.other_chunking", lang))


def _ids(hits) -> set[str]:
    return {h.chunk_id for h in hits}


def _only(mine, other) -> set[str] | None:
    return (_ids(mine) - _ids(other)) if same_chunking else None


# stage by stage --------------------------------------------------------------------
st.header(t("ins.h.retrieval", lang))
st.caption(t("cmp.mark_help", lang))
names = list(dict.fromkeys([lst.name for lst in a.retrieval.lists] + [lst.name for lst in b.retrieval.lists]))
la = {lst.name: lst for lst in a.retrieval.lists}
lb = {lst.name: lst for lst in b.retrieval.lists}
for name in names:
    c1, c2 = st.columns(2)
    with c1:
        if name in la:
            render.retriever_column(la[name], a, lang, mark=_only(la[name].hits, lb[name].hits if name in lb else ()))
        else:
            st.caption(t("cmp.not_in", lang, name=name, side="A"))
    with c2:
        if name in lb:
            render.retriever_column(lb[name], b, lang, mark=_only(lb[name].hits, la[name].hits if name in la else ()))
        else:
            st.caption(t("cmp.not_in", lang, name=name, side="B"))

st.header(t("ins.h.fusion", lang))
c1, c2 = st.columns(2)
with c1:
    render.fusion_table(a, lang, mark=_only(a.retrieval.hits, b.retrieval.hits))
with c2:
    render.fusion_table(b, lang, mark=_only(b.retrieval.hits, a.retrieval.hits))

st.header(t("ins.h.rerank", lang))
c1, c2 = st.columns(2)
with c1:
    render.rerank_section(a, lang, key="cmp.bump.a")
with c2:
    render.rerank_section(b, lang, key="cmp.bump.b")

st.header(t("ins.h.gate", lang))
c1, c2 = st.columns(2)
with c1:
    render.gate_section(a, lang, key="cmp.gate.a")
with c2:
    render.gate_section(b, lang, key="cmp.gate.b")

st.header(t("ins.h.context", lang))
c1, c2 = st.columns(2)
for col, trace in ((c1, a), (c2, b)):
    with col:
        if trace.context.status == "skipped":
            st.info(md(t("ins.context_skipped", lang, message=trace.context.message)))
        else:
            if trace.context.question_cut:
                st.error(t("ins.question_cut", lang))
            show(render.sources_table(trace.context, trace, lang))
            st.caption(t("cmp.tokens", lang, before=trace.context.tokens_before, after=trace.context.tokens_after,
                         budget=trace.context.budget_tokens))

st.header(t("ins.h.answer", lang))
c1, c2 = st.columns(2)
with c1:
    render.generation_section(a, lang)
    render.answer_and_sources(a, lang, key="cmp.claim.a")
with c2:
    render.generation_section(b, lang)
    render.answer_and_sources(b, lang, key="cmp.claim.b")
