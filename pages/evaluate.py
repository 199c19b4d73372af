"""Evaluate: a question set through configuration A (and B).

Metrics with intervals, never bare point estimates.
"""

from __future__ import annotations

import streamlit as st

from rag_core.evaluation.metrics import CUT_METRICS
from rag_core.evaluation.run import compare_configs, ranking_config
from ui import measure, sidebar
from ui.evaluate import keys, view, widgets
from ui.html import md, show, span, table, tag
from ui.i18n import t
from ui.state import diff_text, overrides_text, query_from_config

ctx = sidebar.context(__file__)
lang, ss, qsets = ctx.lang, st.session_state, ctx.question_sets
measure.page_head(ctx, "page.evaluate", "ev.intro")

# ------------------------------------------------------------------ settings
qset, phrasings, ks, use_labels, gain = widgets.settings(qsets, ctx.dataset_qrels, lang)

# ------------------------------------------------------------------ configurations
config_a = ctx.config
diff_a = query_from_config(config_a)
a_text = span(overrides_text(diff_a), "ri-mono") if diff_a else t("ev.default", lang)
show(tag("div", tag("strong", t("ev.config_a", lang)) + " " + a_text))
config_b, diff = widgets.b_config(config_a, lang)

# ------------------------------------------------------------------ run
store = measure.open_store(lang, quiet=True) if use_labels else None
if use_labels and store is None:
    st.warning(md(t("ev.no_store", lang, path=str(measure.store_path()))))
if store is not None:
    measure.gold_picker(store, qset, lang)
labels, store_path, version = measure.labels_state(store, qset)
jsons = {
    side: ranking_config(c).to_json(sort_keys=True)
    for side, c in (("A", config_a), ("B", config_b))
    if c is not None
}
key = (ctx.corpus_key, jsons["A"], jsons.get("B"), qset, phrasings, ks, store_path, version, gain)
if not ks:
    st.warning(t("ev.no_ks", lang))
if st.button(
    t("ev.run", lang),
    key=keys.K_EV_RUN,
    type="primary",
    disabled=not ks,
    icon=":material/play_arrow:",
):
    store_key = (store_path, version)
    done = widgets.evaluate_sides(ctx, jsons, qset, phrasings, ks, store_key, labels, lang, gain)
    if done is not None:
        evals, seconds = done
        a, b = evals["A"], evals.get("B")
        cmp = measure.run_guarded(lambda: compare_configs(a, b), lang) if b is not None else None
        ss[keys.K_EV_RESULT] = {
            "key": key,
            "a": a,
            "b": b,
            "cmp": cmp,
            "qset": qset,
            "phrasings": phrasings,
            "seconds": seconds,
            "config_a": config_a,
            "b_text": diff_text(diff),
            "labels": (store_path, version, len(labels)),
        }

# ------------------------------------------------------------------ answers (generation on)
st.toggle(
    t("ans.toggle", lang),
    key=keys.K_EV_ANSWERS,
    persist_state="session",
    help=t("help.ans.toggle", lang),
)
if ss.get(keys.K_EV_ANSWERS):
    from ui.evaluate import answers_widgets

    answers_widgets.render(ctx, lang, qsets[qset], qset, config_a, config_b)
    st.divider()
res = ss.get(keys.K_EV_RESULT)
if res is None:
    st.info(t("ev.press_run", lang))
    st.stop()
if res["key"] != key:
    st.info(t("ev.stale", lang))
a, b, cmp = res["a"], res["b"], res["cmp"]
sides = {"A": a} if b is None else {"A": a, "B": b}

# ------------------------------------------------------------------ summary
st.header(t("ev.h.summary", lang))
widgets.summary(res, sides, lang)

# ------------------------------------------------------------------ metrics
st.header(t("ev.h.metrics", lang))
head, rows, classes = view.metrics_table(a, sides, cmp, lang)
show(table(head, rows, row_classes=classes))
st.caption(view.metrics_help(a, lang))
if cmp:
    widgets.reading(a, cmp, ks, lang)

# ------------------------------------------------------------------ curve
st.header(t("ev.h.curve", lang))
name = (
    st.segmented_control(
        t("ev.curve_metric", lang),
        CUT_METRICS,
        key=keys.K_EV_CURVE,
        default="recall",
        format_func=lambda n: view.NAMES[n] + "@k",
        required=True,
    )
    or "recall"
)
st.plotly_chart(
    view.curve_figure(sides, name, a.ks, lang),
    key=keys.K_EV_CURVE_FIG,
    config={"displayModeBar": False},
)

# ------------------------------------------------------------------ breakdown
st.header(t("ev.h.breakdown", lang))
k_bd = keys.K_EV_BD_METRIC
ss[k_bd] = view.default_metric(a.result.metrics, a.ks, ss.get(k_bd))
st.selectbox(t("ev.col.metric", lang), a.result.metrics, key=k_bd, format_func=view.metric_label)
show(
    table(
        [t("ev.col.group", lang), t("ev.col.tag", lang), "n", *sides],
        view.breakdown_rows(sides, ss[k_bd], lang),
    )
)
st.caption(t("ev.breakdown_help", lang))

# ------------------------------------------------------------------ per question
st.header(t("ev.h.questions", lang))
widgets.questions(res, lang)

# ------------------------------------------------------------------ downloads
st.header(t("ev.h.downloads", lang))
widgets.downloads(res, sides, lang)
st.caption(t("ev.dl_help", lang))

# ------------------------------------------------------------------ per gold state
if use_labels and ctx.dataset_qrels.get(qset) is None:
    from ui.evaluate import states_widgets

    states_widgets.section(ctx, store, qset, phrasings, ks, (config_a, config_b), lang)
