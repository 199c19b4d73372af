"""Threshold page sections: the settings row, the per-query table, the downloads.

Rendering only: what to show comes from :mod:`ui.views.threshold`; the page
(``pages/threshold.py``) calls these in order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from rag_core.evalrun import rows_csv
from rag_core.sweep import METRIC_CHOICES, OUTCOMES, SweepData, SweepReport, outcomes
from rag_core.types import dumps

from .i18n import t
from .state import (
    K_QSET,
    K_THR_LABELS,
    K_THR_METRIC,
    K_THR_PHRASINGS,
    K_THR_Q_FILTER,
    K_THR_QSET,
)
from .views import threshold as view
from .views.evaluate import PHRASINGS, pick_qset

_KEEP = {"persist_state": "session"}
_DL = {"icon": ":material/download:", "on_click": "ignore"}


def settings(names: Sequence[str], lang: str) -> tuple[str, str, str, bool]:
    """Question set, phrasings, metric and labels toggle; returns their values."""
    ss = st.session_state
    ss[K_THR_QSET] = pick_qset(ss.get(K_THR_QSET), ss.get(K_QSET), list(names))
    c1, c2, c3, c4 = st.columns([2, 3, 3, 2])
    c1.selectbox(t("side.qset", lang), list(names), key=K_THR_QSET, **_KEEP)
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
