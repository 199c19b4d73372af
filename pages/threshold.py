"""Threshold: where the gate should say no.

The best hit per group, live outcome counts and a sweep.
"""

from __future__ import annotations

import streamlit as st

from rag_core.evaluation.sweep import (
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
from ui.html import md, show, table
from ui.i18n import t
from ui.threshold import keys, view, widgets

ctx = sidebar.context(__file__)
lang, ss, qsets = ctx.lang, st.session_state, ctx.question_sets
measure.page_head(ctx, "page.threshold", "thr.intro")

# ------------------------------------------------------------------ settings
qset, phrasings, metric, use_labels = widgets.settings(qsets, lang)
config = ctx.config
methods = ", ".join(config.retrieval.methods)
st.caption(
    md(
        t(
            "thr.config",
            lang,
            methods=methods,
            k=config.retrieval.k,
            rerank=config.rerank.method,
            sig=config.chunker.signature,
        )
    )
)


def _add_dense() -> None:
    """Callback: add dense retrieval to the sidebar's retrievers (cosine distances for the gate)."""
    current = list(ss.get(state.K_METHODS) or [])
    if "dense" not in current:
        ss[state.K_METHODS] = [*current, "dense"]


if not any(m == "dense" for m, _ in config.retrieval.method_specs):
    c1, c2 = st.columns([3, 1])
    c1.info(t("thr.no_dense", lang))
    c2.button(
        t("thr.add_dense", lang), key=keys.K_THR_ADD_DENSE, on_click=_add_dense, width="stretch"
    )

data = widgets.collect(ctx, qset, phrasings, metric, use_labels, lang)
if data is None:
    st.stop()
is_distance = data.metric == "distance"
what = t("thr.what.distance" if is_distance else "thr.what.score", lang)
widgets.facts(data, what, lang)
if not data.n_answerable or not data.n_unanswerable:
    st.warning(t("thr.one_group", lang))
rng = value_range(data)
if rng is None:
    st.warning(t("thr.no_candidates", lang))
    st.stop()

# ------------------------------------------------------------------ sliders
s = view.slider_for(*rng, is_distance)
cuts_default = default_thresholds(data)
threshold, max_kept = widgets.sliders(data, s, midpoint_threshold(data), cuts_default, lang)
counts = counts_at(data, threshold, max_kept)
labels_out = {o: t(f"thr.out.{o}", lang) for o in OUTCOMES}
widgets.outcome_counts(counts, labels_out, lang)


def _apply() -> None:
    """Callback: put this threshold and max-kept into the sidebar's gate."""
    ss.update(view.gate_values(threshold, is_distance, max_kept))
    ss[keys.K_THR_APPLIED] = True


st.button(
    t("thr.apply", lang), key=keys.K_THR_APPLY, on_click=_apply, help=t("help.thr.apply", lang)
)
if ss.pop(keys.K_THR_APPLIED, False):
    st.success(t("thr.applied", lang))
chart = {"config": {"displayModeBar": False}}

# ------------------------------------------------------------------ distributions
st.header(t("thr.h.hist", lang))
d = distribution(data)
st.plotly_chart(view.histogram(d, s, threshold, what, lang), key=keys.K_THR_HIST, **chart)
st.caption(md(" · ".join(view.distribution_facts(d, s.decimals, lang))))

# ------------------------------------------------------------------ sweep
st.header(t("thr.h.sweep", lang))
st.text_input(
    t("thr.range", lang),
    key=keys.K_THR_RANGE,
    placeholder=t("thr.range_ph", lang),
    help=t("help.thr.range", lang),
)
cuts, error = view.sweep_cuts(ss.get(keys.K_THR_RANGE), cuts_default, lang)
if error:
    st.error(md(error))
rep = report(data, cuts, max_kept)
head, rows, classes = view.sweep_table(rep, threshold, s.decimals, labels_out, lang)
show(table(head, rows, row_classes=classes))
st.caption(t("thr.sweep_help", lang, m=max_kept))
st.info(t("thr.monotone", lang))
st.plotly_chart(
    view.sweep_chart(rep, threshold, labels_out, what, lang), key=keys.K_THR_SWEEP, **chart
)

# ------------------------------------------------------------------ risk–coverage
st.header(t("thr.h.rc", lang))
rc_now = operating_point(data, threshold, max_kept)
st.plotly_chart(view.risk_coverage_chart(rep, rc_now, lang), key=keys.K_THR_RC, **chart)
st.caption(t("thr.rc.help", lang))
st.markdown(
    md(
        t(
            "thr.rc.point",
            lang,
            coverage=view.rc_text(rc_now["coverage"]),
            risk=view.rc_text(rc_now["risk"]),
        )
    )
)
widgets.operating_point_download(rc_now, qset, lang)

# ------------------------------------------------------------------ per query, downloads
with st.expander(t("thr.h.queries", lang)):
    widgets.per_query(data, threshold, max_kept, s.decimals, labels_out, lang)
widgets.downloads(rep, qset, lang)
