"""Evaluate: a question set through configuration A (and B) — metrics with intervals, never bare point estimates."""

from __future__ import annotations

import json
import time

import plotly.graph_objects as go
import streamlit as st

from rag_core.config import PRESET_KEY, PRESET_LABELS, PRESETS, PipelineConfig
from rag_core.evalrun import (
    NOT_IN_CORPUS,
    TAG_GROUPS,
    compare_configs,
    per_query_table,
    question_rows,
    ranking_config,
    report_dict,
    rows_csv,
    tag_group,
)
from rag_core.evaluation import breakdown, curve
from rag_core.metrics import CUT_METRICS, parse_metric_key
from rag_core.stats import format_p
from rag_core.trec import format_qrels, format_run
from ui import measure, sidebar
from ui.html import Markup, md, show, span, style, table, tag
from ui.i18n import t
from ui.state import (
    K_QID,
    K_QMODE,
    K_QPHRASING,
    K_QSET,
    compare_config,
    config_from_url,
    format_value,
    overrides_text,
    query_from_config,
)

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

KS = (1, 2, 3, 4, 5, 8, 10, 15, 20, 30, 50, 100)
PHRASINGS = ("all", "0", "1", "question")
GAINS = ("binary", "linear", "exp")
NAMES = {"hit": "Hit", "recall": "Recall", "p": "P", "ndcg": "nDCG", "rr": "MRR", "ap": "MAP"}


def metric_label(key: str) -> str:
    name, k = parse_metric_key(key)
    return f"{NAMES[name]}@{k}" if k is not None else NAMES[name]


# ------------------------------------------------------------------ settings
names = list(qsets)
if ss.get("eval.qset") not in qsets:
    ss["eval.qset"] = ss.get(K_QSET) if ss.get(K_QSET) in qsets else names[0]
if "eval.ks" not in ss:
    ss["eval.ks"] = [1, 4, 8, 20]
c1, c2, c3, c4 = st.columns([2, 3, 3, 2])
c1.selectbox(t("side.qset", lang), names, key="eval.qset", persist_state="session")
c2.radio(t("ev.phrasings", lang), PHRASINGS, key="eval.phrasings", horizontal=True, persist_state="session",
         format_func=lambda p: t(f"ev.phrasings.{p}", lang), help=t("help.ev.phrasings", lang))
c3.multiselect(t("ev.ks", lang), KS, key="eval.ks", persist_state="session", help=t("help.ev.ks", lang))
c4.toggle(t("ev.labels", lang), value=True, key="eval.labels", persist_state="session",
          help=t("help.ev.labels", lang))
qset = ss["eval.qset"]
questions = qsets[qset]
phrasings = ss.get("eval.phrasings") or "all"
ks = tuple(sorted(int(k) for k in ss.get("eval.ks") or ()))
use_labels = bool(ss.get("eval.labels", True))
doc_qrels = ctx.dataset_qrels.get(qset)
gain = "binary"
if doc_qrels is not None:  # graded document-level qrels: the nDCG gain is a choice
    st.radio(t("ev.gain", lang), GAINS, key="eval.gain", horizontal=True, persist_state="session",
             format_func=lambda g: t(f"ev.gain.{g}", lang), help=t("help.ev.gain", lang))
    gain = ss.get("eval.gain") or "binary"

# ------------------------------------------------------------------ configurations
config_a = ctx.config
diff_a = query_from_config(config_a)
show(tag("div", tag("strong", t("ev.config_a", lang)) + " "
         + (span(overrides_text(diff_a), "ri-mono") if diff_a else t("ev.default", lang))))
MODES = ("none", "preset", "overrides", "json", "url")
st.radio(t("ev.b_mode", lang), MODES, key="eval.b.mode", horizontal=True, persist_state="session",
         format_func=lambda m: t(f"ev.b_mode.{m}", lang), help=t("help.ev.b_mode", lang))
mode = ss.get("eval.b.mode") or "none"
config_b: PipelineConfig | None = None
problems: list[str] = []
if mode == "preset":
    st.selectbox(t("ev.b_preset", lang), list(PRESETS), key="eval.b.preset", persist_state="session",
                 format_func=lambda p: PRESET_LABELS[p])
    config_b = config_a.with_overrides({PRESET_KEY: ss["eval.b.preset"]})
elif mode == "overrides":
    st.text_area(t("cmp.b", lang), key="eval.b.overrides", height=80, persist_state="session",
                 placeholder="retrieval.analyzer=char", help=t("cmp.b_help", lang))
    config_b, problems = compare_config(config_a, ss.get("eval.b.overrides") or "")
elif mode == "json":
    st.text_area(t("ev.b_json", lang), key="eval.b.json", height=140, persist_state="session",
                 placeholder='{"retrieval": {"methods": ["bm25", "dense"]}}', help=t("help.ev.b_json", lang))
    text = (ss.get("eval.b.json") or "").strip()
    if text:
        try:
            config_b = PipelineConfig.from_json(text)
        except ValueError as exc:
            problems.append(str(exc))
elif mode == "url":
    st.text_input(t("ev.b_url", lang), key="eval.b.url", persist_state="session",
                  placeholder="http://localhost:8501/inspect?retrieval.analyzer=char", help=t("help.ev.b_url", lang))
    text = (ss.get("eval.b.url") or "").strip()
    if text:
        try:
            config_b, problems = config_from_url(text)
        except ValueError as exc:
            problems.append(str(exc))
for p in problems:
    st.warning(md(t("ev.b_bad", lang, error=p)))
if mode != "none" and config_b is None and not problems:
    st.info(t("ev.b_empty", lang))
flat_a = config_a.flat()
b_text = ""
if config_b is not None:
    flat_b = config_b.flat()
    diff = [k for k in flat_a if flat_a[k] != flat_b[k]]
    b_text = overrides_text({k: flat_b[k] for k in diff})
    relevant = [k for k in diff if k.split(".")[0] in ("chunker", "retrieval", "fusion", "rerank")]
    if not diff:
        st.info(t("cmp.same", lang))
    else:
        show(table([t("cmp.key", lang), "A", "B"],
                   [[span(k, "ri-mono"), format_value(flat_a[k]), format_value(flat_b[k])] for k in diff],
                   row_classes=["ri-diff" if k in relevant else "ri-dim" for k in diff]))
        if not relevant:
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
clicked = st.button(t("ev.run", lang), key="eval.run", type="primary", disabled=not ks, icon=":material/play_arrow:")
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
        ss["eval.result"] = {
            "key": key, "a": a, "b": b, "cmp": cmp, "qset": qset, "phrasings": phrasings,
            "seconds": tuple(r[1:] for r in (run_a, run_b) if r), "config_a": config_a, "b_text": b_text,
            "labels": (store_path, version, len(labels)),
        }

# ------------------------------------------------------------------ answers (full pipeline, generation on)
st.toggle(t("ans.toggle", lang), key="eval.answers", persist_state="session", help=t("help.ans.toggle", lang))
if ss.get("eval.answers"):
    from ui import answers_view

    answers_view.render(ctx, lang, questions, qset, config_a, config_b)
    st.divider()

res = ss.get("eval.result")
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
                seconds=" · ".join(
                    f"{s} {now:.2f} s" if now > computed / 2 else t("ev.cached", lang, side=s, seconds=f"{computed:.2f}")
                    for s, (now, computed) in zip(sides, res["seconds"])),
                labels=t("ev.labels_used", lang, n=lab_n, version=lab_version) if lab_path else t("ev.needles_only", lang))))
cols = st.columns(len(sides))
for col, (side, ev) in zip(cols, sides.items()):
    with col:
        st.markdown(f"**{side}** · {md(ev.chunker_signature)} · " + md(", ".join(ev.config["retrieval"]["methods"])))
        if ev.level == "document":
            share = sum(ev.judged_share.values()) / max(len(ev.judged_share), 1)
            st.caption(md(t("ev.doc_level", lang, share=f"{share:.2f}")))
        n_destroyed = len(ev.destroyed)
        msg = t("ev.destroyed", lang, n=n_destroyed, total=ev.n_queries)
        (st.warning if n_destroyed else st.caption)(md(msg))
        if n_destroyed:
            st.caption(md(", ".join(ev.destroyed)))
        for w in ev.warnings:
            st.warning(md(w if NOT_IN_CORPUS in w else t("ev.stage_problem", lang, problem=w)))
        if ev.result.not_judged:
            st.caption(md(t("ev.not_judged", lang, n=len(ev.result.not_judged))))


def cell(m) -> Markup:
    if m is None:
        return span("—", "ri-muted")
    return span(f"{m.mean:.3f}", "ri-num") + span(f" [{m.low:.3f}, {m.high:.3f}]", "ri-ci ri-num")


# ------------------------------------------------------------------ metrics
st.header(t("ev.h.metrics", lang))
head = [t("ev.col.metric", lang), *(f"{s} {t('ev.col.ci', lang)}" for s in sides)]
if cmp:
    head += [t("ev.col.wins", lang), t("ev.col.losses", lang), t("ev.col.ties", lang), "p", t("ev.col.reading", lang)]
rows, classes = [], []
for k in a.result.metrics:
    row = [metric_label(k), *(cell(ev.result.means.get(k)) for ev in sides.values())]
    cls = None
    if cmp and k in cmp:
        c = cmp[k]
        reading = c.reading_ko if lang == "ko" else c.reading
        row += [c.wins, c.losses, c.ties, span(format_p(c.p).replace("= ", ""), "ri-num"), reading]
        cls = "ri-diff" if c.verdict != "not_distinguishable" else None
    rows.append(row)
    classes.append(cls)
show(table(head, rows, row_classes=classes))
st.caption(t("ev.metrics_help", lang, n=a.result.n_queries))
if cmp:
    st.subheader(t("ev.h.reading", lang))
    options = [k for k in a.result.metrics if k in cmp]
    default = f"recall@{max(ks)}" if f"recall@{max(ks)}" in options else options[0]
    if ss.get("eval.reading.metric") not in options:
        ss["eval.reading.metric"] = default
    st.selectbox(t("ev.col.metric", lang), options, key="eval.reading.metric", format_func=metric_label)
    c = cmp[ss["eval.reading.metric"]]
    show(tag("div", tag("strong", metric_label(ss["eval.reading.metric"]) + ": ")
             + (c.reading_ko if lang == "ko" else c.reading),
             cls="ri-reading" + (" ri-sig" if c.verdict != "not_distinguishable" else "")))
    st.caption(t("ev.sign_help", lang))

# ------------------------------------------------------------------ curve
st.header(t("ev.h.curve", lang))
name = st.segmented_control(t("ev.curve_metric", lang), CUT_METRICS, key="eval.curve", default="recall",
                            format_func=lambda n: NAMES[n] + "@k", required=True)
fig = go.Figure()
colors = {"A": ("#0969da", "rgba(9,105,218,0.15)"), "B": ("#bc4c00", "rgba(188,76,0,0.15)")}
for side, ev in sides.items():
    pts = [(k, m) for k, m in curve(ev.result, name or "recall") if m is not None]
    if not pts:
        continue
    xs = [k for k, _ in pts]
    line, band = colors[side]
    fig.add_trace(go.Scatter(x=xs + xs[::-1], y=[m.high for _, m in pts] + [m.low for _, m in pts][::-1],
                             fill="toself", fillcolor=band, line={"width": 0}, hoverinfo="skip", mode="lines",
                             name=f"{side} 95%", showlegend=True))
    fig.add_trace(go.Scatter(x=xs, y=[m.mean for _, m in pts], mode="lines+markers", name=side,
                             line={"color": line, "width": 2},
                             customdata=[[m.low, m.high, m.n] for _, m in pts],
                             hovertemplate="k=%{x}: %{y:.3f} [%{customdata[0]:.3f}, %{customdata[1]:.3f}] n=%{customdata[2]}"))
fig.update_layout(height=320, margin={"l": 40, "r": 20, "t": 10, "b": 40}, yaxis={"range": [0, 1.02]},
                  xaxis_title="k", yaxis_title=NAMES[name or "recall"] + "@k",
                  legend={"orientation": "h", "y": 1.1})
shown_ks = list(a.ks)
if len(shown_ks) > 1 and max(shown_ks) / min(shown_ks) >= 10:
    fig.update_xaxes(type="log", tickvals=shown_ks, ticktext=[str(k) for k in shown_ks], minor={"showgrid": False})
else:
    fig.update_xaxes(tickvals=shown_ks)
st.plotly_chart(fig, key="eval.curve.fig", config={"displayModeBar": False})

# ------------------------------------------------------------------ breakdown
st.header(t("ev.h.breakdown", lang))
default_bd = f"recall@{max(a.ks)}"
if ss.get("eval.bd.metric") not in a.result.metrics:
    ss["eval.bd.metric"] = default_bd if default_bd in a.result.metrics else a.result.metrics[0]
st.selectbox(t("ev.col.metric", lang), a.result.metrics, key="eval.bd.metric", format_func=metric_label)
bd_key = ss["eval.bd.metric"]
parts = {side: breakdown(ev.result, ev.tags) for side, ev in sides.items()}
tags_all = list(dict.fromkeys(tag_ for p in parts.values() for tag_ in p))
tags_all.sort(key=lambda x: (TAG_GROUPS.index(tag_group(x)), x))
rows = []
for tag_ in tags_all:
    ms = [parts[s].get(tag_, {}).get(bd_key) for s in sides]
    n = next((m.n for m in ms if m is not None), 0)
    rows.append([t(f"ev.group.{tag_group(tag_).replace(' ', '_')}", lang), span(tag_, "ri-mono"), n,
                 *(cell(m) for m in ms)])
show(table([t("ev.col.group", lang), t("ev.col.tag", lang), "n", *sides], rows))
st.caption(t("ev.breakdown_help", lang))

# ------------------------------------------------------------------ per question
st.header(t("ev.h.questions", lang))
qrows = question_rows(a, b)
FILTERS = ("all", "miss_a", "miss_b", "differ") if b is not None else ("all", "miss_a")
st.radio(t("ev.filter", lang), FILTERS, key="eval.q.filter", horizontal=True,
         format_func=lambda f: t(f"ev.filter.{f}", lang))
flt = ss.get("eval.q.filter") if ss.get("eval.q.filter") in FILTERS else "all"
if flt == "miss_a":
    qrows = [r for r in qrows if r["first_gold_a"] is None]
elif flt == "miss_b":
    qrows = [r for r in qrows if r["first_gold_b"] is None]
elif flt == "differ":
    qrows = [r for r in qrows if r["first_gold_a"] != r["first_gold_b"]]
columns = {
    "query_id": st.column_config.TextColumn(t("ev.col.query", lang)),
    "question_id": None,
    "text": st.column_config.TextColumn(t("ev.col.text", lang), width="large"),
    "tags": st.column_config.TextColumn(t("ev.col.tag", lang), width="medium"),
    "destroyed_a": st.column_config.CheckboxColumn(t("ev.col.destroyed", lang, side="A")),
    "first_gold_a": st.column_config.NumberColumn(t("ev.col.first_gold", lang, side="A")),
}
if b is not None:
    columns["destroyed_b"] = st.column_config.CheckboxColumn(t("ev.col.destroyed", lang, side="B"))
    columns["first_gold_b"] = st.column_config.NumberColumn(t("ev.col.first_gold", lang, side="B"))
order = ["query_id", "first_gold_a", *(["first_gold_b"] if b is not None else []), "destroyed_a",
         *(["destroyed_b"] if b is not None else []), "text", "tags"]
st.dataframe(qrows, hide_index=True, column_config=columns, column_order=order, key="eval.q.table", height=320)
st.caption(t("ev.questions_help", lang, n=len(qrows), depth=max(a.ks)))
if qrows:
    by_q = {r["query_id"]: r for r in qrows}
    if ss.get("eval.q.open") not in by_q:
        ss["eval.q.open"] = qrows[0]["query_id"]

    def _open(page: str) -> None:
        row = by_q.get(ss.get("eval.q.open"))
        if row is None:
            return
        qid = row["query_id"]
        phr = int(qid.rsplit("#", 1)[1]) if "#" in qid and qid.rsplit("#", 1)[1].isdigit() else 0
        view = {K_QMODE: "set", K_QSET: res["qset"], K_QID: row["question_id"], K_QPHRASING: phr}
        if page == "compare":
            from ui.state import K_COMPARE_B

            view[K_COMPARE_B] = res["b_text"]
            ss["compare.b.w"] = res["b_text"]
        sidebar.load_view(res["config_a"], view)
        sidebar.request_page(page)

    c1, c2, c3 = st.columns([3, 1, 1])
    c1.selectbox(t("ev.open", lang), list(by_q), key="eval.q.open",
                 format_func=lambda i: f"{i} · {by_q[i]['text'][:80]}")
    c2.button(t("scn.open.inspect", lang), key="eval.q.inspect", on_click=_open, args=("inspect",), width="stretch")
    if b is not None:
        c3.button(t("scn.open.compare", lang), key="eval.q.compare", on_click=_open, args=("compare",),
                  width="stretch")

# ------------------------------------------------------------------ downloads
st.header(t("ev.h.downloads", lang))
escape = st.checkbox(t("lab.exp.escape", lang), key="eval.escape", help=t("help.lab.exp.escape", lang))
c1, c2, c3, c4 = st.columns(4)
c1.download_button(t("ev.dl.csv", lang), data=rows_csv(per_query_table(sides)), file_name=f"eval-{res['qset']}.csv",
                   mime="text/csv", key="eval.dl.csv", icon=":material/download:", on_click="ignore")
c2.download_button(t("ev.dl.json", lang),
                   data=json.dumps(report_dict(a, b), ensure_ascii=False, indent=2),
                   file_name=f"eval-{res['qset']}.json", mime="application/json", key="eval.dl.json",
                   icon=":material/download:", on_click="ignore")
try:
    runs = {side: format_run(ev.rankings, tag=f"rag_core-{side}", escape=escape) for side, ev in sides.items()}
    qrels = {ev.chunker_signature: format_qrels(ev.gold, escape=escape) for ev in sides.values()}
except ValueError as exc:
    st.error(md(str(exc)))
else:
    for side, text in runs.items():
        c3.download_button(t("ev.dl.run", lang, side=side), data=text, file_name=f"run-{res['qset']}-{side}.txt",
                           mime="text/plain", key=f"eval.dl.run.{side}", icon=":material/download:", on_click="ignore")
    for sig, text in qrels.items():
        c4.download_button(t("ev.dl.qrels", lang, sig=sig), data=text, file_name=f"qrels-{res['qset']}-{sig}.txt",
                           mime="text/plain", key=f"eval.dl.qrels.{sig}", icon=":material/download:",
                           on_click="ignore")
st.caption(t("ev.dl_help", lang))
