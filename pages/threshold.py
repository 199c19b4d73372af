"""Threshold: where the gate should say no — the best hit per group, live outcome counts and a sweep."""

from __future__ import annotations

import math

import plotly.graph_objects as go
import streamlit as st

from rag_core.evalrun import ranking_config, rows_csv
from rag_core.stats import parse_range
from rag_core.sweep import (
    DEFAULT_MAX_KEPT,
    METRIC_CHOICES,
    OUTCOMES,
    counts_at,
    default_thresholds,
    distribution,
    midpoint_threshold,
    operating_point,
    outcomes,
    report,
    risk_coverage_at,
    value_range,
)
from rag_core.types import dumps
from ui import measure, sidebar
from ui.html import md, show, span, style, table
from ui.i18n import t
from ui.state import K_METHODS, K_QSET

ctx = sidebar.context(__file__)
lang = ctx.lang
ss = st.session_state
show(style())
show(measure.style())
st.title(t("page.threshold", lang))
st.caption(t("thr.intro", lang))

qsets = ctx.question_sets
if not qsets:
    st.info(t("ev.no_sets", lang))
    st.stop()

# ------------------------------------------------------------------ settings
names = list(qsets)
if ss.get("thr.qset") not in qsets:
    ss["thr.qset"] = ss.get(K_QSET) if ss.get(K_QSET) in qsets else names[0]
c1, c2, c3, c4 = st.columns([2, 3, 3, 2])
c1.selectbox(t("side.qset", lang), names, key="thr.qset", persist_state="session")
c2.radio(t("ev.phrasings", lang), ("all", "0", "1", "question"), key="thr.phrasings", horizontal=True,
         persist_state="session", format_func=lambda p: t(f"ev.phrasings.{p}", lang))
c3.radio(t("thr.metric", lang), METRIC_CHOICES, key="thr.metric", horizontal=True, persist_state="session",
         format_func=lambda m: t(f"thr.metric.{m}", lang), help=t("help.thr.metric", lang))
c4.toggle(t("ev.labels", lang), value=True, key="thr.labels", persist_state="session", help=t("help.ev.labels", lang))
qset = ss["thr.qset"]
questions = qsets[qset]
phrasings = ss.get("thr.phrasings") or "all"
metric = ss.get("thr.metric") or "auto"
config = ctx.config
methods = ", ".join(config.retrieval.methods)
st.caption(md(t("thr.config", lang, methods=methods, k=config.retrieval.k, rerank=config.rerank.method,
                sig=config.chunker.signature)))


def _add_dense() -> None:
    """Callback: add dense retrieval to the sidebar's retrievers (cosine distances for the gate)."""
    current = list(ss.get(K_METHODS) or [])
    if "dense" not in current:
        ss[K_METHODS] = [*current, "dense"]


if not any(m == "dense" for m, _ in config.retrieval.method_specs):
    c1, c2 = st.columns([3, 1])
    c1.info(t("thr.no_dense", lang))
    c2.button(t("thr.add_dense", lang), key="thr.add_dense", on_click=_add_dense, width="stretch")

use_labels = bool(ss.get("thr.labels", True))
store = measure.open_store(lang, quiet=True) if use_labels else None
if use_labels and store is None:
    st.warning(md(t("ev.no_store", lang, path=str(measure.store_path()))))
labels, store_path, version = measure.labels_state(store, qset)
data = measure.run_guarded(lambda: measure.collect(
    ctx.corpus_key, ranking_config(config).to_json(sort_keys=True), qset, phrasings, metric,
    (store_path, version), t("thr.running", lang, set=qset), ctx.corpus, questions, labels,
    _runs=ctx.runs), lang)
if data is None:
    st.stop()
if data.metric == "score":  # say which score in the UI's language (rag_core's note is English)
    which = t("thr.score.fused" if len(config.retrieval.method_specs) > 1 else "thr.score.single", lang)
    if config.rerank.method != "none":
        which += " " + t("thr.score.rerank", lang, method=config.rerank.method)
    st.caption(md(t("thr.score_note", lang, which=which)))
for w in data.warnings:
    if not w.startswith("thresholds apply to the final score"):
        st.caption(md(t("thr.note", lang, note=w)))
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
lo, hi = rng
if is_distance:
    step = 0.005
else:
    step = 10.0 ** math.floor(math.log10((hi - lo) / 200)) if hi > lo else 0.01
decimals = max(0, -math.floor(math.log10(step)))
lo_s = round(math.floor(lo / step) * step - step, decimals)
hi_s = round(math.ceil(hi / step) * step + step, decimals)
key_t = f"thr.t.{data.metric}"
cuts_default = default_thresholds(data)
if not isinstance(ss.get(key_t), float) or not lo_s <= ss[key_t] <= hi_s:
    start = midpoint_threshold(data)
    start = cuts_default[len(cuts_default) // 2] if start is None else start
    ss[key_t] = float(min(max(round(round(start / step) * step, decimals), lo_s), hi_s))
if not isinstance(ss.get("thr.m"), int) or not 1 <= ss["thr.m"] <= data.depth:
    ss["thr.m"] = min(DEFAULT_MAX_KEPT, data.depth)
c1, c2, c3 = st.columns([4, 3, 2])
c1.slider(t("thr.threshold", lang, op="≤" if is_distance else "≥"), lo_s, hi_s, key=key_t, step=step,
          format=f"%.{decimals}f", help=t("help.thr.threshold", lang))
c2.slider(t("side.max_kept", lang), 1, data.depth, key="thr.m", help=t("help.thr.max_kept", lang))
c3.toggle(t("thr.off", lang), key="thr.off", help=t("help.thr.off", lang))
threshold = None if ss.get("thr.off") else float(ss[key_t])
max_kept = int(ss["thr.m"])
counts = counts_at(data, threshold, max_kept)

labels_out = {o: t(f"thr.out.{o}", lang) for o in OUTCOMES}
cols = st.columns(5)
for col, o in zip(cols, OUTCOMES):
    total = counts.n_answerable if o in OUTCOMES[:3] else counts.n_unanswerable
    col.metric(labels_out[o], getattr(counts, o), help=t(f"help.thr.out.{o}", lang), border=True,
               delta=t("thr.of", lang, n=total), delta_color="off", delta_arrow="off")


def rate_text(r) -> str:
    return "—" if r is None else f"{r.k}/{r.n} = {r.rate:.1%} [{r.low:.1%}, {r.high:.1%}]"


def rate_cell(r) -> str:
    return "—" if r is None else f"{100 * r.rate:.1f}% [{100 * r.low:.1f}–{100 * r.high:.1f}]"


st.markdown(md(t("thr.rates", lang, gold=rate_text(counts.gold_rate), bluff=rate_text(counts.bluff_rate))))


def _apply() -> None:
    """Callback: put this threshold and max-kept into the sidebar's gate."""
    if threshold is None:
        ss["gate.max_distance"] = ss["gate.min_score"] = None
    elif is_distance:
        ss["gate.max_distance"], ss["gate.min_score"] = threshold, None
    else:
        ss["gate.max_distance"], ss["gate.min_score"] = None, threshold
    ss["gate.max_kept"] = max_kept
    ss["thr.applied"] = True


st.button(t("thr.apply", lang), key="thr.apply", on_click=_apply, help=t("help.thr.apply", lang))
if ss.pop("thr.applied", False):
    st.success(t("thr.applied", lang))

# ------------------------------------------------------------------ distributions
st.header(t("thr.h.hist", lang))
d = distribution(data)
size = max((hi_s - lo_s) / 40, step)
fig = go.Figure()
for values, name, color in ((d.answerable, t("thr.answerable", lang), "#1a7f37"),
                            (d.unanswerable, t("thr.unanswerable", lang), "#cf222e")):
    xs = [v for v in values if v is not None]
    fig.add_trace(go.Histogram(x=xs, name=f"{name} ({len(xs)})", opacity=0.55, marker_color=color,
                               xbins={"start": lo_s, "end": hi_s + size, "size": size}))
if threshold is not None:
    fig.add_vline(x=threshold, line_dash="dash", line_color="#1f2328")
    fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", line={"dash": "dash", "color": "#1f2328"},
                             name=t("thr.line", lang, value=f"{threshold:.{decimals}f}")))
fig.update_layout(barmode="overlay", height=300, margin={"l": 40, "r": 20, "t": 30, "b": 40},
                  xaxis_title=what, yaxis_title=t("thr.queries", lang), legend={"orientation": "h", "y": 1.15})
st.plotly_chart(fig, key="thr.hist", config={"displayModeBar": False})
none_a = sum(1 for v in d.answerable if v is None)
none_u = sum(1 for v in d.unanswerable if v is None)
facts = [t("thr.worst", lang, value="—" if d.worst_answerable is None else f"{d.worst_answerable:.{decimals + 1}f}",
           id=d.worst_answerable_id or "—"),
         t("thr.best_un", lang, value="—" if d.best_unanswerable is None else f"{d.best_unanswerable:.{decimals + 1}f}",
           id=d.best_unanswerable_id or "—")]
if d.separable is True:
    facts.append(t("thr.separable", lang))
elif d.overlap is not None:
    facts.append(t("thr.overlap", lang, low=f"{d.overlap[0]:.{decimals + 1}f}", high=f"{d.overlap[1]:.{decimals + 1}f}"))
if none_a or none_u:
    facts.append(t("thr.none_best", lang, a=none_a, u=none_u))
st.caption(md(" · ".join(facts)))

# ------------------------------------------------------------------ sweep
st.header(t("thr.h.sweep", lang))
st.text_input(t("thr.range", lang), key="thr.range", placeholder=t("thr.range_ph", lang),
              help=t("help.thr.range", lang))
cuts = cuts_default
raw = (ss.get("thr.range") or "").strip()
if raw:
    try:
        cuts = parse_range(raw)
    except ValueError as exc:
        st.error(md(str(exc)))
rep = report(data, cuts, max_kept)
rows, classes = [], []
nearest = None if threshold is None else min(range(len(rep.rows)), key=lambda i: abs(rep.rows[i].threshold - threshold))
for i, row in enumerate((rep.no_threshold, *rep.rows)):
    cut = t("thr.none", lang) if row.threshold is None else f"{row.threshold:.{max(decimals, 3)}g}"
    rows.append([span(cut, "ri-num"), row.answered_with_gold, row.answered_without_gold, row.refused_answerable,
                 row.bluffed, row.refused_unanswerable, span(rate_cell(row.gold_rate), "ri-num"),
                 span(rate_cell(row.bluff_rate), "ri-num")])
    classes.append("ri-goldrow" if nearest is not None and i == nearest + 1 else ("ri-dim" if i == 0 else None))
show(table([t("thr.col.threshold", lang), *(labels_out[o] for o in OUTCOMES), t("thr.col.gold_rate", lang),
            t("thr.col.bluff_rate", lang)], rows, row_classes=classes))
st.caption(t("thr.sweep_help", lang, m=max_kept))
st.info(t("thr.monotone", lang))

fig = go.Figure()
palette = {"answered_with_gold": "#1a7f37", "answered_without_gold": "#9a6700", "refused_answerable": "#8250df",
           "bluffed": "#cf222e", "refused_unanswerable": "#8c959f"}
for o in OUTCOMES:
    fig.add_trace(go.Scatter(x=list(rep.thresholds), y=[getattr(r, o) for r in rep.rows], mode="lines+markers",
                             name=labels_out[o], line={"color": palette[o], "dash": "dot" if o == OUTCOMES[-1] else None}))
if threshold is not None:
    fig.add_vline(x=threshold, line_dash="dash", line_color="#1f2328")
fig.update_layout(height=320, margin={"l": 40, "r": 20, "t": 30, "b": 40}, xaxis_title=what,
                  yaxis_title=t("thr.queries", lang), legend={"orientation": "h", "y": 1.2})
st.plotly_chart(fig, key="thr.sweep", config={"displayModeBar": False})

# ------------------------------------------------------------------ risk–coverage
st.header(t("thr.h.rc", lang))
rc_rows = [risk_coverage_at(r) for r in rep.rows]
rc_rows = [r for r in rc_rows if r["coverage"] is not None and r["risk"] is not None]
rc_now = operating_point(data, threshold, max_kept)
fig = go.Figure()
if rc_rows:
    xs = [r["coverage"]["rate"] for r in rc_rows]
    fig.add_trace(go.Scatter(x=xs + xs[::-1], y=[r["risk"]["high"] for r in rc_rows]
                             + [r["risk"]["low"] for r in rc_rows][::-1], fill="toself",
                             fillcolor="rgba(207,34,46,0.12)", line={"width": 0}, hoverinfo="skip",
                             name=t("thr.rc.risk", lang) + " 95%"))
    fig.add_trace(go.Scatter(
        x=xs, y=[r["risk"]["rate"] for r in rc_rows], mode="lines+markers", name=t("thr.rc.risk", lang),
        line={"color": "#cf222e"},
        error_x={"type": "data", "symmetric": False,
                 "array": [r["coverage"]["high"] - r["coverage"]["rate"] for r in rc_rows],
                 "arrayminus": [r["coverage"]["rate"] - r["coverage"]["low"] for r in rc_rows],
                 "thickness": 1, "color": "rgba(31,35,40,0.35)"},
        customdata=[[r["threshold"]] for r in rc_rows],
        hovertemplate="t=%{customdata[0]:.3f}: coverage %{x:.2f}, risk %{y:.2f}<extra></extra>"))
if rc_now["coverage"] is not None and rc_now["risk"] is not None:
    fig.add_trace(go.Scatter(x=[rc_now["coverage"]["rate"]], y=[rc_now["risk"]["rate"]], mode="markers",
                             marker={"size": 14, "color": "#1f2328", "symbol": "diamond"},
                             name=t("thr.rc.current", lang)))
fig.update_layout(height=320, margin={"l": 40, "r": 20, "t": 30, "b": 40}, xaxis={"range": [-0.02, 1.02]},
                  yaxis={"range": [-0.02, 1.02]}, xaxis_title=t("thr.rc.coverage", lang),
                  yaxis_title=t("thr.rc.risk", lang), legend={"orientation": "h", "y": 1.2})
st.plotly_chart(fig, key="thr.rc", config={"displayModeBar": False})
st.caption(t("thr.rc.help", lang))


def _rc_text(r) -> str:
    return "—" if r is None else f"{r['k']}/{r['n']} = {r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}]"


st.markdown(md(t("thr.rc.point", lang, coverage=_rc_text(rc_now["coverage"]), risk=_rc_text(rc_now["risk"]))))
st.download_button(t("thr.rc.export", lang), data=dumps(rc_now, indent=2), file_name=f"operating-point-{qset}.json",
                   mime="application/json", key="thr.rc.dl", icon=":material/download:", on_click="ignore")

# ------------------------------------------------------------------ per query
with st.expander(t("thr.h.queries", lang)):
    outs = outcomes(data, threshold, max_kept)
    st.multiselect(t("thr.filter", lang), OUTCOMES, key="thr.q.filter", format_func=lambda o: labels_out[o])
    chosen = set(ss.get("thr.q.filter") or OUTCOMES)
    st.dataframe(
        [{"query": o.query_id, "text": o.text, "answerable": o.answerable, "best": o.best, "kept": o.n_kept,
          "first_gold": o.first_gold_rank, "outcome": labels_out[o.outcome]} for o in outs if o.outcome in chosen],
        hide_index=True, key="thr.q.table",
        column_config={
            "query": st.column_config.TextColumn(t("ev.col.query", lang)),
            "text": st.column_config.TextColumn(t("ev.col.text", lang), width="large"),
            "answerable": st.column_config.CheckboxColumn(t("thr.answerable", lang)),
            "best": st.column_config.NumberColumn(t("thr.col.best", lang), format=f"%.{decimals + 1}f"),
            "kept": st.column_config.NumberColumn(t("thr.col.kept", lang)),
            "first_gold": st.column_config.NumberColumn(t("thr.col.first_gold", lang)),
            "outcome": st.column_config.TextColumn(t("thr.col.outcome", lang)),
        },
    )

# ------------------------------------------------------------------ downloads
c1, c2 = st.columns(2)
c1.download_button(t("thr.dl.json", lang), data=dumps({"report": rep}, indent=2), file_name=f"sweep-{qset}.json",
                   mime="application/json", key="thr.dl.json", icon=":material/download:", on_click="ignore")
csv_rows = [{"threshold": r.threshold, **{o: getattr(r, o) for o in OUTCOMES}, "max_kept": r.max_kept,
             "metric": rep.metric} for r in (rep.no_threshold, *rep.rows)]
c2.download_button(t("thr.dl.csv", lang), data=rows_csv(csv_rows), file_name=f"sweep-{qset}.csv", mime="text/csv",
                   key="thr.dl.csv", icon=":material/download:", on_click="ignore")
