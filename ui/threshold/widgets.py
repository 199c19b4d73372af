"""Threshold page sections: the settings row, the per-query table, the downloads.

Rendering only: what to show comes from :mod:`ui.threshold.view`; the page
(``pages/threshold.py``) calls these in order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from rag_core.evaluation.run import ranking_config
from rag_core.evaluation.sweep import (
    METRIC_CHOICES,
    OUTCOMES,
    GateCounts,
    SweepData,
    SweepReport,
    outcomes,
)
from rag_core.formats.spreadsheet import rows_csv
from rag_core.types import dumps

from .. import measure
from ..evaluate.view import PHRASINGS, has_phrasings, pick_qset
from ..html import md
from ..i18n import t
from ..state import K_QSET, Context
from . import view
from .keys import (
    K_THR_LABELS,
    K_THR_MAX_KEPT,
    K_THR_METRIC,
    K_THR_OFF,
    K_THR_PHRASINGS,
    K_THR_Q_FILTER,
    K_THR_QSET,
    K_THR_T_PREFIX,
)

_KEEP: dict[str, Any] = {"persist_state": "session"}
_DL: dict[str, Any] = {"icon": ":material/download:", "on_click": "ignore"}


def settings(qsets: Mapping[str, Any], lang: str) -> tuple[str, str, str, bool]:
    """Question set, phrasings (only for a set whose questions have several), metric and
    labels toggle; returns their values."""
    ss = st.session_state
    names = list(qsets)
    ss[K_THR_QSET] = pick_qset(ss.get(K_THR_QSET), ss.get(K_QSET), names)
    c1, c2, c3, c4 = st.columns([2, 3, 3, 3])  # the toggle's label whole at 1280 px
    c1.selectbox(t("side.qset", lang), names, key=K_THR_QSET, **_KEEP)
    if has_phrasings(qsets.get(ss[K_THR_QSET], ())):  # a BEIR/TREC set has one wording
        c2.radio(
            t("ev.phrasings", lang),
            PHRASINGS,
            key=K_THR_PHRASINGS,
            horizontal=True,
            **_KEEP,
            format_func=lambda p: t(f"ev.phrasings.{p}", lang),
        )
    c3.radio(
        t("thr.metric", lang),
        METRIC_CHOICES,
        key=K_THR_METRIC,
        horizontal=True,
        **_KEEP,
        format_func=lambda m: t(f"thr.metric.{m}", lang),
        help=t("help.thr.metric", lang),
    )
    c4.toggle(
        t("ev.labels", lang), value=True, key=K_THR_LABELS, **_KEEP, help=t("help.ev.labels", lang)
    )
    phrasings, metric = ss.get(K_THR_PHRASINGS) or "all", ss.get(K_THR_METRIC) or "auto"
    return ss[K_THR_QSET], phrasings, metric, bool(ss.get(K_THR_LABELS, True))


def collect(
    ctx: Context, qset: str, phrasings: str, metric: str, use_labels: bool, lang: str
) -> SweepData | None:
    """The sweep's candidates (cached; labels from the store when ``use_labels``), or ``None``."""
    store = measure.open_store(lang, quiet=True) if use_labels else None
    if use_labels and store is None:
        st.warning(md(t("ev.no_store", lang, path=measure.store_shown())))
    if store is not None:
        measure.gold_picker(store, qset, lang)
    labels, store_path, version = measure.labels_state(store, qset)
    config_json = ranking_config(ctx.config).to_json(sort_keys=True)
    label = t("thr.running", lang, set=qset)
    return measure.run_guarded(
        lambda: measure.collect(
            ctx.corpus_key,
            config_json,
            qset,
            phrasings,
            metric,
            (store_path, version),
            label,
            ctx.corpus,
            ctx.question_sets[qset],
            labels,
            _runs=ctx.runs,
        ),
        lang,
    )


def facts(data: SweepData, what: str, lang: str) -> None:
    """The sweep's notices, its size and the warning when one group is empty."""
    for line in view.notice_lines(data.warnings, lang):
        st.caption(md(line))
    n, depth, seconds = len(data.queries), data.depth, f"{data.seconds:.2f}"
    ans, una = data.n_answerable, data.n_unanswerable
    st.markdown(
        t("thr.facts", lang, n=n, ans=ans, una=una, depth=depth, what=what, seconds=seconds)
    )


def sliders(
    data: SweepData, s: view.Slider, midpoint: float | None, defaults: Sequence[float], lang: str
) -> tuple[float | None, int]:
    """Threshold slider, max-kept slider and the "no threshold" toggle; their values."""
    ss = st.session_state
    is_distance = data.metric == "distance"
    key_t = K_THR_T_PREFIX + data.metric
    ss[key_t] = view.start_threshold(ss.get(key_t), s, midpoint, defaults)
    ss[K_THR_MAX_KEPT] = view.start_max_kept(ss.get(K_THR_MAX_KEPT), data.depth)
    c1, c2, c3 = st.columns([4, 3, 2])
    c1.slider(
        t("thr.threshold", lang, op="≤" if is_distance else "≥"),
        s.lo,
        s.hi,
        key=key_t,
        step=s.step,
        format=f"%.{s.decimals}f",
        help=t("help.thr.threshold", lang),
    )
    c2.slider(
        t("side.max_kept", lang),
        1,
        data.depth,
        key=K_THR_MAX_KEPT,
        help=t("help.thr.max_kept", lang),
    )
    c3.toggle(t("thr.off", lang), key=K_THR_OFF, help=t("help.thr.off", lang))
    threshold = None if ss.get(K_THR_OFF) else float(ss[key_t])
    return threshold, int(ss[K_THR_MAX_KEPT])


def outcome_counts(counts: GateCounts, labels: Mapping[str, str], lang: str) -> None:
    """The five outcome counts (each of its group) and the gold and bluff rates."""
    for col, o in zip(st.columns(5), OUTCOMES, strict=True):
        col.metric(
            labels[o],
            getattr(counts, o),
            help=t(f"help.thr.out.{o}", lang),
            border=True,
            delta=t("thr.of", lang, n=view.outcome_total(counts, o)),
            delta_color="off",
            delta_arrow="off",
        )
    gold, bluff = view.rate_text(counts.gold_rate), view.rate_text(counts.bluff_rate)
    st.markdown(md(t("thr.rates", lang, gold=gold, bluff=bluff)))


def per_query(
    data: SweepData,
    threshold: float | None,
    max_kept: int,
    decimals: int,
    labels: Mapping[str, str],
    lang: str,
) -> None:
    """Each query's best value, kept count, first gold rank and outcome, filtered by outcome."""
    st.multiselect(
        t("thr.filter", lang), OUTCOMES, key=K_THR_Q_FILTER, format_func=lambda o: labels[o]
    )
    chosen = st.session_state.get(K_THR_Q_FILTER) or OUTCOMES
    col = st.column_config
    st.dataframe(
        view.query_rows(outcomes(data, threshold, max_kept), chosen, labels),
        hide_index=True,
        key="thr.q.table",
        column_config={
            "query": col.TextColumn(t("ev.col.query", lang)),
            "text": col.TextColumn(t("ev.col.text", lang), width="large"),
            "answerable": col.CheckboxColumn(t("thr.answerable", lang)),
            "best": col.NumberColumn(t("thr.col.best", lang), format=f"%.{decimals + 1}f"),
            "kept": col.NumberColumn(t("thr.col.kept", lang)),
            "first_gold": col.NumberColumn(t("thr.col.first_gold", lang)),
            "outcome": col.TextColumn(t("thr.col.outcome", lang)),
        },
    )


def operating_point_download(rc_now: Mapping[str, Any], qset: str, lang: str) -> None:
    """The current operating point (coverage and risk with intervals) as JSON."""
    st.download_button(
        t("thr.rc.export", lang),
        data=dumps(rc_now, indent=2),
        file_name=f"operating-point-{qset}.json",
        mime="application/json",
        key="thr.rc.dl",
        **_DL,
    )


def downloads(rep: SweepReport, qset: str, lang: str) -> None:
    """The sweep as JSON and its table as CSV."""
    c1, c2 = st.columns(2)
    c1.download_button(
        t("thr.dl.json", lang),
        data=dumps({"report": rep}, indent=2),
        file_name=f"sweep-{qset}.json",
        mime="application/json",
        key="thr.dl.json",
        **_DL,
    )
    c2.download_button(
        t("thr.dl.csv", lang),
        data=rows_csv(view.csv_rows(rep)),
        file_name=f"sweep-{qset}.csv",
        mime="text/csv",
        key="thr.dl.csv",
        **_DL,
    )
