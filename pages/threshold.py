"""Threshold: where the gate should say no — the best hit per group, live outcome counts and a sweep."""

from __future__ import annotations

import streamlit as st

from rag_core.evalrun import ranking_config
from rag_core.sweep import (
    OUTCOMES,
    counts_at,
    default_thresholds,
    distribution,
    midpoint_threshold,
    operating_point,
    report,
    value_range,
)
from ui import measure, sidebar, state
from ui import threshold_sections as sections
from ui.html import md, show, style, table
from ui.i18n import t
from ui.views import threshold as view

ctx = sidebar.context(__file__)
lang, ss, qsets = ctx.lang, st.session_state, ctx.question_sets
show(style())
show(measure.style())
st.title(t("page.threshold", lang))
st.caption(t("thr.intro", lang))
if not qsets:
    st.info(t("ev.no_sets", lang))
    st.stop()

# ------------------------------------------------------------------ settings
qset, phrasings, metric, use_labels = sections.settings(list(qsets), lang)
config = ctx.config
methods = ", ".join(config.retrieval.methods)
st.caption(md(t("thr.config", lang, methods=methods, k=config.retrieval.k,
                rerank=config.rerank.method, sig=config.chunker.signature)))


def _add_dense() -> None:
    """Callback: add dense retrieval to the sidebar's retrievers (cosine distances for the gate)."""
    current = list(ss.get(state.K_METHODS) or [])
    if "dense" not in current:
        ss[state.K_METHODS] = [*current, "dense"]


if not any(m == "dense" for m, _ in config.retrieval.method_specs):
    c1, c2 = st.columns([3, 1])
    c1.info(t("thr.no_dense", lang))
    c2.button(t("thr.add_dense", lang), key="thr.add_dense", on_click=_add_dense, width="stretch")

store = measure.open_store(lang, quiet=True) if use_labels else None
if use_labels and store is None:
    st.warning(md(t("ev.no_store", lang, path=str(measure.store_path()))))
labels, store_path, version = measure.labels_state(store, qset)
data = measure.run_guarded(lambda: measure.collect(
    ctx.corpus_key, ranking_config(config).to_json(sort_keys=True), qset, phrasings, metric,
    (store_path, version), t("thr.running", lang, set=qset), ctx.corpus, qsets[qset], labels,
    _runs=ctx.runs), lang)
if data is None:
    st.stop()
for line in view.notice_lines(data.warnings, lang):
    st.caption(md(line))
is_distance = data.metric == "distance"
what = t("thr.what.distance" if is_distance else "thr.what.score", lang)
st.markdown(t("thr.facts", lang, n=len(data.queries), ans=data.n_answerable, una=data.n_unanswerable,
              depth=data.depth, what=what, seconds=f"{data.seconds:.2f}"))
if not data.n_answerable or not data.n_unanswerable:
    st.warning(t("thr.one_group", lang))
rng = value_range(data)
if rng is None:
    st.warning(t("thr.no_candidates", lang))
    st.stop()

# ------------------------------------------------------------------ sliders
s = view.slider_for(*rng, is_distance)
key_t = state.K_THR_T_PREFIX + data.metric
cuts_default = default_thresholds(data)
ss[key_t] = view.start_threshold(ss.get(key_t), s, midpoint_threshold(data), cuts_default)
ss[state.K_THR_MAX_KEPT] = view.start_max_kept(ss.get(state.K_THR_MAX_KEPT), data.depth)
c1, c2, c3 = st.columns([4, 3, 2])
c1.slider(t("thr.threshold", lang, op="≤" if is_distance else "≥"), s.lo, s.hi, key=key_t,
          step=s.step, format=f"%.{s.decimals}f", help=t("help.thr.threshold", lang))
c2.slider(t("side.max_kept", lang), 1, data.depth, key=state.K_THR_MAX_KEPT,
          help=t("help.thr.max_kept", lang))
c3.toggle(t("thr.off", lang), key=state.K_THR_OFF, help=t("help.thr.off", lang))
threshold = None if ss.get(state.K_THR_OFF) else float(ss[key_t])
max_kept = int(ss[state.K_THR_MAX_KEPT])
counts = counts_at(data, threshold, max_kept)
labels_out = {o: t(f"thr.out.{o}", lang) for o in OUTCOMES}
for col, o in zip(st.columns(5), OUTCOMES):
    col.metric(labels_out[o], getattr(counts, o), help=t(f"help.thr.out.{o}", lang), border=True,
               delta=t("thr.of", lang, n=view.outcome_total(counts, o)), delta_color="off",
               delta_arrow="off")
st.markdown(md(t("thr.rates", lang, gold=view.rate_text(counts.gold_rate),
                 bluff=view.rate_text(counts.bluff_rate))))


def _apply() -> None:
    """Callback: put this threshold and max-kept into the sidebar's gate."""
    ss.update(view.gate_values(threshold, is_distance, max_kept))
    ss[state.K_THR_APPLIED] = True


st.button(t("thr.apply", lang), key="thr.apply", on_click=_apply, help=t("help.thr.apply", lang))
if ss.pop(state.K_THR_APPLIED, False):
    st.success(t("thr.applied", lang))
chart = {"config": {"displayModeBar": False}}

# ------------------------------------------------------------------ distributions
st.header(t("thr.h.hist", lang))
d = distribution(data)
st.plotly_chart(view.histogram(d, s, threshold, what, lang), key="thr.hist", **chart)
st.caption(md(" · ".join(view.distribution_facts(d, s.decimals, lang))))

# ------------------------------------------------------------------ sweep
st.header(t("thr.h.sweep", lang))
st.text_input(t("thr.range", lang), key=state.K_THR_RANGE, placeholder=t("thr.range_ph", lang),
              help=t("help.thr.range", lang))
cuts, error = view.sweep_cuts(ss.get(state.K_THR_RANGE), cuts_default)
if error:
    st.error(md(error))
rep = report(data, cuts, max_kept)
head, rows, classes = view.sweep_table(rep, threshold, s.decimals, labels_out, lang)
show(table(head, rows, row_classes=classes))
st.caption(t("thr.sweep_help", lang, m=max_kept))
st.info(t("thr.monotone", lang))
st.plotly_chart(view.sweep_chart(rep, threshold, labels_out, what, lang), key="thr.sweep", **chart)

# ------------------------------------------------------------------ risk–coverage
st.header(t("thr.h.rc", lang))
rc_now = operating_point(data, threshold, max_kept)
st.plotly_chart(view.risk_coverage_chart(rep, rc_now, lang), key="thr.rc", **chart)
st.caption(t("thr.rc.help", lang))
st.markdown(md(t("thr.rc.point", lang, coverage=view.rc_text(rc_now["coverage"]),
                 risk=view.rc_text(rc_now["risk"]))))
sections.operating_point_download(rc_now, qset, lang)

# ------------------------------------------------------------------ per query, downloads
with st.expander(t("thr.h.queries", lang)):
    sections.per_query(data, threshold, max_kept, s.decimals, labels_out, lang)
sections.downloads(rep, qset, lang)
