"""Evaluate page sections: config B's input, the per-question table, the downloads.

Rendering only: what to show comes from :mod:`ui.evaluate.view`; the page
(``pages/evaluate.py``) calls these in order.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

import streamlit as st

from rag_core.config import PRESET_LABELS, PRESETS, PipelineConfig
from rag_core.evaluation.run import per_query_table, question_rows, report_dict
from rag_core.formats.spreadsheet import rows_csv

from .. import measure, render, sidebar
from ..html import md, show, tag
from ..i18n import error_text, t
from ..state import K_QSET, Context, config_diff
from . import view
from .keys import (
    K_EV_B_JSON,
    K_EV_B_MODE,
    K_EV_B_OVERRIDES,
    K_EV_B_PRESET,
    K_EV_B_URL,
    K_EV_ESCAPE,
    K_EV_GAIN,
    K_EV_KS,
    K_EV_LABELS,
    K_EV_PHRASINGS,
    K_EV_Q_FILTER,
    K_EV_Q_OPEN,
    K_EV_QSET,
    K_EV_READING_METRIC,
)

_KEEP: dict[str, Any] = {"persist_state": "session"}
_DL: dict[str, Any] = {"icon": ":material/download:", "on_click": "ignore"}
#: The session key of each way to give B (see ``view.B_MODES``).
B_INPUTS = {
    "preset": K_EV_B_PRESET,
    "overrides": K_EV_B_OVERRIDES,
    "json": K_EV_B_JSON,
    "url": K_EV_B_URL,
}


def settings(
    qsets: Mapping[str, Any], dataset_qrels: Mapping[str, Any], lang: str
) -> tuple[str, str, tuple[int, ...], bool, str]:
    """Question set, phrasings, cut-offs, labels toggle and (graded qrels only) the nDCG gain."""
    ss = st.session_state
    ss[K_EV_QSET] = view.pick_qset(ss.get(K_EV_QSET), ss.get(K_QSET), list(qsets))
    ss.setdefault(K_EV_KS, list(view.DEFAULT_KS))
    # the cut-offs wide enough for the four default chips and the toggle's label whole at 1280 px
    c1, c2, c3, c4 = st.columns([2, 3, 4, 3])
    c1.selectbox(t("side.qset", lang), list(qsets), key=K_EV_QSET, **_KEEP)
    if view.has_phrasings(qsets.get(ss[K_EV_QSET], ())):  # a BEIR/TREC set has one wording
        c2.radio(
            t("ev.phrasings", lang),
            view.PHRASINGS,
            key=K_EV_PHRASINGS,
            horizontal=True,
            **_KEEP,
            format_func=lambda p: t(f"ev.phrasings.{p}", lang),
            help=t("help.ev.phrasings", lang),
        )
    c3.multiselect(t("ev.ks", lang), view.KS, key=K_EV_KS, **_KEEP, help=t("help.ev.ks", lang))
    c4.toggle(
        t("ev.labels", lang), value=True, key=K_EV_LABELS, **_KEEP, help=t("help.ev.labels", lang)
    )
    qset = ss[K_EV_QSET]
    gain = "binary"
    if dataset_qrels.get(qset) is not None:  # graded document-level qrels: the gain is a choice
        st.radio(
            t("ev.gain", lang),
            view.GAINS,
            key=K_EV_GAIN,
            horizontal=True,
            **_KEEP,
            format_func=lambda g: t(f"ev.gain.{g}", lang),
            help=t("help.ev.gain", lang),
        )
        gain = ss.get(K_EV_GAIN) or "binary"
    phrasings = ss.get(K_EV_PHRASINGS) or "all"
    ks = view.sorted_ks(ss.get(K_EV_KS))
    return qset, phrasings, ks, bool(ss.get(K_EV_LABELS, True)), gain


def summary(res: Mapping[str, Any], sides: Mapping[str, Any], lang: str) -> None:
    """The run's facts (set, queries, phrasings, time, labels) and the notes under each side."""
    a = res["a"]
    lab_path, lab_version, lab_n = res["labels"]
    if lab_path:
        used = t("ev.labels_used", lang, n=lab_n, version=lab_version)
    else:
        used = t("ev.needles_only", lang)
    facts = t(
        "ev.facts",
        lang,
        set=res["qset"],
        questions=a.n_questions,
        queries=a.n_queries,
        labels=used,
        phrasings=t(
            "ev.phrasings.single"
            if a.n_queries == a.n_questions
            else f"ev.phrasings.{res['phrasings']}",
            lang,
        ),
        seconds=view.seconds_text(list(sides), res["seconds"], lang),
    )
    st.caption(md(facts))
    for col, (side, ev) in zip(st.columns(len(sides)), sides.items(), strict=True):
        methods = md(", ".join(ev.config["retrieval"]["methods"]))
        col.markdown(f"**{side}** · {md(ev.chunker_signature)} · " + methods)
        for kind, text in view.side_notes(ev, lang):
            getattr(col, kind)(md(text))


def reading(a: Any, cmp: Mapping[str, Any], ks: Sequence[int], lang: str) -> None:
    """The sign test's reading of one chosen metric, in one sentence."""
    ss = st.session_state
    st.subheader(t("ev.h.reading", lang))
    options = [k for k in a.result.metrics if k in cmp]
    ss[K_EV_READING_METRIC] = view.default_metric(options, ks, ss.get(K_EV_READING_METRIC))
    st.selectbox(
        t("ev.col.metric", lang), options, key=K_EV_READING_METRIC, format_func=view.metric_label
    )
    c = cmp[ss[K_EV_READING_METRIC]]
    head = tag("strong", view.metric_label(ss[K_EV_READING_METRIC]) + ": ")
    cls = "ri-reading" + (" ri-sig" if view.significant(c) else "")
    show(tag("div", head + view.paired_reading(c, lang), cls=cls))
    st.caption(t("ev.sign_help", lang))


def b_config(config_a: PipelineConfig, lang: str) -> tuple[PipelineConfig | None, list[Any]]:
    """The B input (mode, then its widget), its problems and the A/B diff; B and the diff rows."""
    ss = st.session_state
    st.radio(
        t("ev.b_mode", lang),
        view.B_MODES,
        key=K_EV_B_MODE,
        horizontal=True,
        **_KEEP,
        format_func=lambda m: t(f"ev.b_mode.{m}", lang),
        help=t("help.ev.b_mode", lang),
    )
    mode = ss.get(K_EV_B_MODE) or "none"
    if mode == "preset":
        st.selectbox(
            t("ev.b_preset", lang),
            list(PRESETS),
            key=K_EV_B_PRESET,
            **_KEEP,
            format_func=lambda p: PRESET_LABELS[p],
        )
    elif mode == "overrides":
        st.text_area(
            t("cmp.b", lang),
            key=K_EV_B_OVERRIDES,
            height=80,
            **_KEEP,
            placeholder="retrieval.analyzer=char",
            help=t("cmp.b_help", lang),
        )
    elif mode == "json":
        st.text_area(
            t("ev.b_json", lang),
            key=K_EV_B_JSON,
            height=140,
            **_KEEP,
            placeholder='{"retrieval": {"methods": ["bm25", "dense"]}}',
            help=t("help.ev.b_json", lang),
        )
    elif mode == "url":
        st.text_input(
            t("ev.b_url", lang),
            key=K_EV_B_URL,
            **_KEEP,
            help=t("help.ev.b_url", lang),
            placeholder="http://localhost:8501/inspect?retrieval.analyzer=char",
        )
    config_b, problems = view.resolve_b(
        config_a, mode, {m: ss.get(k) for m, k in B_INPUTS.items()}, lang
    )
    for p in problems:
        st.warning(md(t("ev.b_bad", lang, error=p)))
    if mode != "none" and config_b is None and not problems:
        st.info(t("ev.b_empty", lang))
    if config_b is None:
        return None, []
    diff = config_diff(config_a, config_b)
    render.config_diff_table(diff, lang, dim_non_ranking=True)
    if diff and not any(r.ranking for r in diff):
        st.caption(t("ev.b_same_ranking", lang))
    return config_b, diff


def questions(res: Mapping[str, Any], lang: str) -> None:
    """Per-question table (filtered) and the buttons opening one question in Inspect or Compare."""
    ss = st.session_state
    a, b = res["a"], res["b"]
    filters = view.question_filters(b is not None)
    st.radio(
        t("ev.filter", lang),
        filters,
        key=K_EV_Q_FILTER,
        horizontal=True,
        format_func=lambda f: t(f"ev.filter.{f}", lang),
    )
    flt = str(ss.get(K_EV_Q_FILTER)) if ss.get(K_EV_Q_FILTER) in filters else "all"
    qrows = view.filter_questions(question_rows(a, b), flt)
    col = st.column_config
    columns = {
        "query_id": col.TextColumn(t("ev.col.query", lang)),
        "question_id": None,
        "text": col.TextColumn(t("ev.col.text", lang), width="large"),
        "tags": col.TextColumn(t("ev.col.tag", lang), width="medium"),
    }
    for side in ("A", "B") if b is not None else ("A",):
        s = side.lower()
        columns[f"destroyed_{s}"] = col.CheckboxColumn(t("ev.col.destroyed", lang, side=side))
        columns[f"first_gold_{s}"] = col.NumberColumn(t("ev.col.first_gold", lang, side=side))
    st.dataframe(
        qrows,
        hide_index=True,
        column_config=columns,
        key="eval.q.table",
        height=320,
        column_order=view.question_order(b is not None),
    )
    st.caption(t("ev.questions_help", lang, n=len(qrows), depth=max(a.ks)))
    if not qrows:
        return
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
    c1.selectbox(
        t("ev.open", lang),
        list(by_q),
        key=K_EV_Q_OPEN,
        format_func=lambda i: f"{i} · {by_q[i]['text'][:80]}",
    )
    c2.button(
        t("scn.open.inspect", lang),
        key="eval.q.inspect",
        on_click=_open,
        args=("inspect",),
        width="stretch",
    )
    if b is not None:
        c3.button(
            t("scn.open.compare", lang),
            key="eval.q.compare",
            on_click=_open,
            args=("compare",),
            width="stretch",
        )


def downloads(res: Mapping[str, Any], sides: Mapping[str, Any], lang: str) -> None:
    """Per-query CSV, the CLI's JSON, TREC runs per side and qrels per chunking."""
    escape = st.checkbox(
        t("lab.exp.escape", lang), key=K_EV_ESCAPE, help=t("help.lab.exp.escape", lang)
    )
    c1, c2, c3, c4 = st.columns(4)
    qs = res["qset"]
    c1.download_button(
        t("ev.dl.csv", lang),
        data=rows_csv(per_query_table(dict(sides))),
        file_name=f"eval-{qs}.csv",
        mime="text/csv",
        key="eval.dl.csv",
        **_DL,
    )
    report = json.dumps(report_dict(res["a"], res["b"]), ensure_ascii=False, indent=2)
    c2.download_button(
        t("ev.dl.json", lang),
        data=report,
        file_name=f"eval-{qs}.json",
        mime="application/json",
        key="eval.dl.json",
        **_DL,
    )
    try:
        runs, qrels = view.trec_files(sides, escape)
    except ValueError as exc:  # an id the TREC format cannot carry unescaped
        st.error(md(error_text(exc, lang)))
        return
    for side, text in runs.items():
        c3.download_button(
            t("ev.dl.run", lang, side=side),
            data=text,
            file_name=f"run-{qs}-{side}.txt",
            mime="text/plain",
            key=f"eval.dl.run.{side}",
            **_DL,
        )
    for sig, text in qrels.items():
        c4.download_button(
            t("ev.dl.qrels", lang, sig=sig),
            data=text,
            file_name=f"qrels-{qs}-{sig}.txt",
            mime="text/plain",
            key=f"eval.dl.qrels.{sig}",
            **_DL,
        )


# ------------------------------------------------------------------ run


def evaluate_sides(
    ctx: Context,
    jsons: dict[str, str],
    question_set: str,
    phrasings: str,
    ks: tuple[int, ...],
    labels_key: tuple[str, int],
    labels: Sequence[Any],
    lang: str,
    gain: str = "binary",
) -> tuple[dict[str, Any], tuple[tuple[float, float], ...]] | None:
    """Each side's ``ConfigEvaluation`` (``jsons``: side → ranking config JSON, run in order).

    ``ctx``: the page's context (corpus, question sets, imported runs, qrels).

    Also per side ``(seconds now, seconds when computed)``: now ≪ computed means
    a cache hit. ``None`` when a side failed (its error is on the page).
    """
    evals: dict[str, Any] = {}
    seconds = []
    for side, js in jsons.items():
        label = t("ev.running", lang, side=side, set=question_set)
        t0 = time.perf_counter()
        run = partial(
            measure.evaluate,
            ctx.corpus_key,
            js,
            question_set,
            phrasings,
            ks,
            labels_key,
            label,
            ctx.corpus,
            ctx.question_sets[question_set],
            labels,
            _runs=ctx.runs,
            _doc_qrels=ctx.dataset_qrels.get(question_set),
            gain=gain,
        )
        out = measure.run_guarded(run, lang)
        if out is None:
            return None
        evals[side] = out[0]
        seconds.append((time.perf_counter() - t0, out[1]))
    return evals, tuple(seconds)
