"""Evaluate: a question set through configuration A (and B) — metrics with intervals, never bare point estimates."""

from __future__ import annotations

import json
import time

import plotly.graph_objects as go
import streamlit as st

from rag_core.config import PRESET_LABELS, PRESETS
from rag_core.evalrun import compare_configs, per_query_table, question_rows, ranking_config, report_dict, rows_csv
from rag_core.metrics import CUT_METRICS
from ui import measure, render, sidebar
from ui.html import md, show, span, style, table, tag
from ui.i18n import t
from ui.state import (
    K_EV_ANSWERS, K_EV_B_JSON, K_EV_B_MODE, K_EV_B_OVERRIDES, K_EV_B_PRESET, K_EV_B_URL, K_EV_BD_METRIC,
    K_EV_CURVE, K_EV_ESCAPE, K_EV_GAIN, K_EV_KS, K_EV_LABELS, K_EV_PHRASINGS, K_EV_Q_FILTER, K_EV_Q_OPEN,
    K_EV_QSET, K_EV_READING_METRIC, K_EV_RESULT, K_EV_RUN, K_QSET, overrides_text, query_from_config,
)
from ui.views import compare as cmp_view
from ui.views import evaluate as view

ctx = sidebar.context(__file__)
lang = ctx.lang
ss = st.session_state
show(style())
show(measure.style())
st.title(t("page.evaluate", lang))
st.caption(t("ev.intro", lang))

qsets = ctx.question_sets
if not qsets:
    st.info(t("ev.no_sets", lang))
    st.stop()

# ------------------------------------------------------------------ settings
ss[K_EV_QSET] = view.pick_qset(ss.get(K_EV_QSET), ss.get(K_QSET), list(qsets))
ss.setdefault(K_EV_KS, list(view.DEFAULT_KS))
c1, c2, c3, c4 = st.columns([2, 3, 3, 2])
c1.selectbox(t("side.qset", lang), list(qsets), key=K_EV_QSET, persist_state="session")
c2.radio(t("ev.phrasings", lang), view.PHRASINGS, key=K_EV_PHRASINGS, horizontal=True, persist_state="session",
         format_func=lambda p: t(f"ev.phrasings.{p}", lang), help=t("help.ev.phrasings", lang))
c3.multiselect(t("ev.ks", lang), view.KS, key=K_EV_KS, persist_state="session", help=t("help.ev.ks", lang))
c4.toggle(t("ev.labels", lang), value=True, key=K_EV_LABELS, persist_state="session",
          help=t("help.ev.labels", lang))
qset = ss[K_EV_QSET]
questions = qsets[qset]
phrasings = ss.get(K_EV_PHRASINGS) or "all"
ks = view.sorted_ks(ss.get(K_EV_KS))
use_labels = bool(ss.get(K_EV_LABELS, True))
doc_qrels = ctx.dataset_qrels.get(qset)
gain = "binary"
if doc_qrels is not None:  # graded document-level qrels: the nDCG gain is a choice
    st.radio(t("ev.gain", lang), view.GAINS, key=K_EV_GAIN, horizontal=True, persist_state="session",
             format_func=lambda g: t(f"ev.gain.{g}", lang), help=t("help.ev.gain", lang))
    gain = ss.get(K_EV_GAIN) or "binary"

# ------------------------------------------------------------------ configurations
config_a = ctx.config
diff_a = query_from_config(config_a)
show(tag("div", tag("strong", t("ev.config_a", lang)) + " "
         + (span(overrides_text(diff_a), "ri-mono") if diff_a else t("ev.default", lang))))
st.radio(t("ev.b_mode", lang), view.B_MODES, key=K_EV_B_MODE, horizontal=True, persist_state="session",
         format_func=lambda m: t(f"ev.b_mode.{m}", lang), help=t("help.ev.b_mode", lang))
mode = ss.get(K_EV_B_MODE) or "none"
if mode == "preset":
    st.selectbox(t("ev.b_preset", lang), list(PRESETS), key=K_EV_B_PRESET, persist_state="session",
                 format_func=lambda p: PRESET_LABELS[p])
elif mode == "overrides":
    st.text_area(t("cmp.b", lang), key=K_EV_B_OVERRIDES, height=80, persist_state="session",
                 placeholder="retrieval.analyzer=char", help=t("cmp.b_help", lang))
elif mode == "json":
    st.text_area(t("ev.b_json", lang), key=K_EV_B_JSON, height=140, persist_state="session",
                 placeholder='{"retrieval": {"methods": ["bm25", "dense"]}}', help=t("help.ev.b_json", lang))
elif mode == "url":
    st.text_input(t("ev.b_url", lang), key=K_EV_B_URL, persist_state="session",
                  placeholder="http://localhost:8501/inspect?retrieval.analyzer=char", help=t("help.ev.b_url", lang))
config_b, problems = view.resolve_b(config_a, mode, {
    "preset": ss.get(K_EV_B_PRESET), "overrides": ss.get(K_EV_B_OVERRIDES), "json": ss.get(K_EV_B_JSON),
    "url": ss.get(K_EV_B_URL)})
for p in problems:
    st.warning(md(t("ev.b_bad", lang, error=p)))
if mode != "none" and config_b is None and not problems:
    st.info(t("ev.b_empty", lang))
b_text = ""
if config_b is not None:
    diff = cmp_view.config_diff(config_a, config_b)
    b_text = cmp_view.diff_text(diff)
    render.config_diff_table(diff, lang, dim_non_ranking=True)
    if diff and not any(r.ranking for r in diff):
        st.caption(t("ev.b_same_ranking", lang))

# ------------------------------------------------------------------ run
store = measure.open_store(lang, quiet=True) if use_labels else None
if use_labels and store is None:
    st.warning(md(t("ev.no_store", lang, path=str(measure.store_path()))))
labels, store_path, version = measure.labels_state(store, qset)
json_a = ranking_config(config_a).to_json(sort_keys=True)
json_b = ranking_config(config_b).to_json(sort_keys=True) if config_b is not None else None
key = (ctx.corpus_key, json_a, json_b, qset, phrasings, ks, store_path, version, gain)
if not ks:
    st.warning(t("ev.no_ks", lang))
clicked = st.button(t("ev.run", lang), key=K_EV_RUN, type="primary", disabled=not ks, icon=":material/play_arrow:")
if clicked:
    def job(js: str, side: str):
        return measure.evaluate(ctx.corpus_key, js, qset, phrasings, ks, (store_path, version),
                                t("ev.running", lang, side=side, set=qset), ctx.corpus, questions, labels,
                                _runs=ctx.runs, _doc_qrels=doc_qrels, gain=gain)

    def timed(js: str, side: str):
        """``(evaluation, seconds now, seconds when computed)``; now ≪ computed means a cache hit."""
        t0 = time.perf_counter()
        out = measure.run_guarded(lambda: job(js, side), lang)
        return None if out is None else (out[0], time.perf_counter() - t0, out[1])

    run_a = timed(json_a, "A")
    run_b = timed(json_b, "B") if run_a is not None and json_b is not None else None
    if run_a is not None and (json_b is None or run_b is not None):
        a, b = run_a[0], (run_b[0] if run_b else None)
        cmp = measure.run_guarded(lambda: compare_configs(a, b), lang) if b is not None else None
        ss[K_EV_RESULT] = {
            "key": key, "a": a, "b": b, "cmp": cmp, "qset": qset, "phrasings": phrasings,
            "seconds": tuple(r[1:] for r in (run_a, run_b) if r), "config_a": config_a, "b_text": b_text,
            "labels": (store_path, version, len(labels)),
        }

# ------------------------------------------------------------------ answers (full pipeline, generation on)
st.toggle(t("ans.toggle", lang), key=K_EV_ANSWERS, persist_state="session", help=t("help.ans.toggle", lang))
if ss.get(K_EV_ANSWERS):
    from ui import answers_view

    answers_view.render(ctx, lang, questions, qset, config_a, config_b)
    st.divider()

res = ss.get(K_EV_RESULT)
if res is None:
    st.info(t("ev.press_run", lang))
    st.stop()
if res["key"] != key:
    st.info(t("ev.stale", lang))
a, b, cmp = res["a"], res["b"], res["cmp"]
sides = {"A": a} if b is None else {"A": a, "B": b}

# ------------------------------------------------------------------ summary
st.header(t("ev.h.summary", lang))
lab_path, lab_version, lab_n = res["labels"]
st.caption(md(t("ev.facts", lang, set=res["qset"], questions=a.n_questions, queries=a.n_queries,
                phrasings=t(f"ev.phrasings.{res['phrasings']}", lang),
                seconds=view.seconds_text(list(sides), res["seconds"], lang),
                labels=t("ev.labels_used", lang, n=lab_n, version=lab_version) if lab_path else t("ev.needles_only", lang))))
for col, (side, ev) in zip(st.columns(len(sides)), sides.items()):
    with col:
        st.markdown(f"**{side}** · {md(ev.chunker_signature)} · " + md(", ".join(ev.config["retrieval"]["methods"])))
        if ev.level == "document":
            st.caption(md(t("ev.doc_level", lang, share=f"{view.judged_share(ev):.2f}")))
        msg = t("ev.destroyed", lang, n=len(ev.destroyed), total=ev.n_queries)
        (st.warning if ev.destroyed else st.caption)(md(msg))
        if ev.destroyed:
            st.caption(md(", ".join(ev.destroyed)))
        for w in view.stage_warnings(ev, lang):
            st.warning(md(w))
        if ev.result.not_judged:
            st.caption(md(t("ev.not_judged", lang, n=len(ev.result.not_judged))))

# ------------------------------------------------------------------ metrics
st.header(t("ev.h.metrics", lang))
head, rows, classes = view.metrics_table(a, sides, cmp, lang)
show(table(head, rows, row_classes=classes))
st.caption(t("ev.metrics_help", lang, n=a.result.n_queries))
if cmp:
    st.subheader(t("ev.h.reading", lang))
    options = [k for k in a.result.metrics if k in cmp]
    ss[K_EV_READING_METRIC] = view.default_metric(options, ks, ss.get(K_EV_READING_METRIC))
    st.selectbox(t("ev.col.metric", lang), options, key=K_EV_READING_METRIC, format_func=view.metric_label)
    c = cmp[ss[K_EV_READING_METRIC]]
    show(tag("div", tag("strong", view.metric_label(ss[K_EV_READING_METRIC]) + ": ") + view.paired_reading(c, lang),
             cls="ri-reading" + (" ri-sig" if view.significant(c) else "")))
    st.caption(t("ev.sign_help", lang))

# ------------------------------------------------------------------ curve
st.header(t("ev.h.curve", lang))
name = st.segmented_control(t("ev.curve_metric", lang), CUT_METRICS, key=K_EV_CURVE, default="recall",
                            format_func=lambda n: view.NAMES[n] + "@k", required=True) or "recall"
fig = go.Figure()
for side, pts in view.curve_points(sides, name).items():
    xs, ms = [k for k, _ in pts], [m for _, m in pts]
    line, band = view.COLORS[side]
    fig.add_trace(go.Scatter(x=xs + xs[::-1], y=[m.high for m in ms] + [m.low for m in ms][::-1],
                             fill="toself", fillcolor=band, line={"width": 0}, hoverinfo="skip", mode="lines",
                             name=f"{side} 95%", showlegend=True))
    fig.add_trace(go.Scatter(x=xs, y=[m.mean for m in ms], mode="lines+markers", name=side,
                             line={"color": line, "width": 2}, customdata=[[m.low, m.high, m.n] for m in ms],
                             hovertemplate="k=%{x}: %{y:.3f} [%{customdata[0]:.3f}, %{customdata[1]:.3f}] n=%{customdata[2]}"))
fig.update_layout(height=320, margin={"l": 40, "r": 20, "t": 10, "b": 40}, yaxis={"range": [0, 1.02]},
                  xaxis_title="k", yaxis_title=view.NAMES[name] + "@k", legend={"orientation": "h", "y": 1.1})
shown_ks = list(a.ks)
if view.log_axis(shown_ks):
    fig.update_xaxes(type="log", tickvals=shown_ks, ticktext=[str(k) for k in shown_ks], minor={"showgrid": False})
else:
    fig.update_xaxes(tickvals=shown_ks)
st.plotly_chart(fig, key="eval.curve.fig", config={"displayModeBar": False})

# ------------------------------------------------------------------ breakdown
st.header(t("ev.h.breakdown", lang))
ss[K_EV_BD_METRIC] = view.default_metric(a.result.metrics, a.ks, ss.get(K_EV_BD_METRIC))
st.selectbox(t("ev.col.metric", lang), a.result.metrics, key=K_EV_BD_METRIC, format_func=view.metric_label)
show(table([t("ev.col.group", lang), t("ev.col.tag", lang), "n", *sides],
           view.breakdown_rows(sides, ss[K_EV_BD_METRIC], lang)))
st.caption(t("ev.breakdown_help", lang))

# ------------------------------------------------------------------ per question
st.header(t("ev.h.questions", lang))
filters = view.question_filters(b is not None)
st.radio(t("ev.filter", lang), filters, key=K_EV_Q_FILTER, horizontal=True,
         format_func=lambda f: t(f"ev.filter.{f}", lang))
flt = ss.get(K_EV_Q_FILTER) if ss.get(K_EV_Q_FILTER) in filters else "all"
qrows = view.filter_questions(question_rows(a, b), flt)
columns = {
    "query_id": st.column_config.TextColumn(t("ev.col.query", lang)),
    "question_id": None,
    "text": st.column_config.TextColumn(t("ev.col.text", lang), width="large"),
    "tags": st.column_config.TextColumn(t("ev.col.tag", lang), width="medium"),
    "destroyed_a": st.column_config.CheckboxColumn(t("ev.col.destroyed", lang, side="A")),
    "first_gold_a": st.column_config.NumberColumn(t("ev.col.first_gold", lang, side="A")),
    "destroyed_b": st.column_config.CheckboxColumn(t("ev.col.destroyed", lang, side="B")),
    "first_gold_b": st.column_config.NumberColumn(t("ev.col.first_gold", lang, side="B")),
}
st.dataframe(qrows, hide_index=True, column_config=columns, column_order=view.question_order(b is not None),
             key="eval.q.table", height=320)
st.caption(t("ev.questions_help", lang, n=len(qrows), depth=max(a.ks)))
if qrows:
    by_q = {r["query_id"]: r for r in qrows}
    if ss.get(K_EV_Q_OPEN) not in by_q:
        ss[K_EV_Q_OPEN] = qrows[0]["query_id"]

    def _open(page: str) -> None:
        row = by_q.get(ss.get(K_EV_Q_OPEN))
        if row is None:
            return
        ss.update(view.widget_values(page, res["b_text"]))
        sidebar.load_view(res["config_a"], view.open_view(row, res["qset"], page, res["b_text"]))
        sidebar.request_page(page)

    c1, c2, c3 = st.columns([3, 1, 1])
    c1.selectbox(t("ev.open", lang), list(by_q), key=K_EV_Q_OPEN, format_func=lambda i: f"{i} · {by_q[i]['text'][:80]}")
    c2.button(t("scn.open.inspect", lang), key="eval.q.inspect", on_click=_open, args=("inspect",), width="stretch")
    if b is not None:
        c3.button(t("scn.open.compare", lang), key="eval.q.compare", on_click=_open, args=("compare",),
                  width="stretch")

# ------------------------------------------------------------------ downloads
st.header(t("ev.h.downloads", lang))
escape = st.checkbox(t("lab.exp.escape", lang), key=K_EV_ESCAPE, help=t("help.lab.exp.escape", lang))
c1, c2, c3, c4 = st.columns(4)
dl = {"icon": ":material/download:", "on_click": "ignore"}
c1.download_button(t("ev.dl.csv", lang), data=rows_csv(per_query_table(sides)), file_name=f"eval-{res['qset']}.csv",
                   mime="text/csv", key="eval.dl.csv", **dl)
c2.download_button(t("ev.dl.json", lang), data=json.dumps(report_dict(a, b), ensure_ascii=False, indent=2),
                   file_name=f"eval-{res['qset']}.json", mime="application/json", key="eval.dl.json", **dl)
try:
    runs, qrels = view.trec_files(sides, escape)
except ValueError as exc:
    st.error(md(str(exc)))
else:
    for side, text in runs.items():
        c3.download_button(t("ev.dl.run", lang, side=side), data=text, file_name=f"run-{res['qset']}-{side}.txt",
                           mime="text/plain", key=f"eval.dl.run.{side}", **dl)
    for sig, text in qrels.items():
        c4.download_button(t("ev.dl.qrels", lang, sig=sig), data=text, file_name=f"qrels-{res['qset']}-{sig}.txt",
                           mime="text/plain", key=f"eval.dl.qrels.{sig}", **dl)
st.caption(t("ev.dl_help", lang))
