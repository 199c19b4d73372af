"""Evaluate's "does the conclusion survive the annotator?" section (Streamlit side).

The same configurations (A, B, chosen chunking presets) against each annotator's gold and the
adjudicated gold, each evaluation cached by ``ui.measure.evaluate`` under its state's labels;
the rows come from :mod:`ui.evaluate.states_view`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import streamlit as st

from rag_core.config import PRESET_LABELS, PipelineConfig
from rag_core.evaluation.annotators import compare_states
from rag_core.evaluation.run import ranking_config
from rag_core.gold.store import LabelStore

from .. import measure
from ..html import md, show, table
from ..i18n import t
from ..state import Context
from . import states_view as sv
from .keys import K_EV_ST_METRIC, K_EV_ST_PRESETS, K_EV_ST_RESULT, K_EV_ST_RUN
from .view import default_metric, metric_label


def section(
    ctx: Context,
    store: LabelStore | None,
    qset: str,
    phrasings: str,
    ks: tuple[int, ...],
    configs: tuple[PipelineConfig, PipelineConfig | None],
    lang: str,
) -> None:
    """The section: states compared, the presets ranked, the run button, then the tables."""
    ss = st.session_state
    st.header(t("ev.h.states", lang))
    st.caption(t("ev.st.intro", lang))
    snap = store.snapshot(qset) if store is not None else None
    states = sv.states_to_compare(snap) if snap is not None else ()
    if len(states) < 2 or not ks:
        st.info(t("ev.st.need_two", lang))
        return
    names = {s.spec: measure.state_name(s, lang) for s in states}
    ss.setdefault(K_EV_ST_PRESETS, list(sv.DEFAULT_PRESETS))
    c1, c2 = st.columns([3, 2])
    c1.multiselect(
        t("ev.st.presets", lang),
        sv.RANKED_PRESETS,
        key=K_EV_ST_PRESETS,
        format_func=PRESET_LABELS.__getitem__,
        help=t("help.ev.st.presets", lang),
    )
    ranked = sv.configs_to_rank(configs[0], configs[1], ss[K_EV_ST_PRESETS])
    keys = [f"{m}@{k}" for m in ("ndcg", "recall", "hit") for k in ks] + ["rr", "ap"]
    ss[K_EV_ST_METRIC] = default_metric(keys, ks, ss.get(K_EV_ST_METRIC))
    c2.selectbox(t("ev.col.metric", lang), keys, key=K_EV_ST_METRIC, format_func=metric_label)
    run_key = (qset, phrasings, ks, tuple(ranked), store.version() if store else 0)
    clicked = st.button(t("ev.st.run", lang, n=len(ranked) * len(states)), key=K_EV_ST_RUN)
    if clicked and snap is not None:
        evaluations = _evaluate(ctx, store, snap, states, ranked, qset, phrasings, ks, lang)
        if evaluations is not None:
            pair = ("A", "B") if "B" in ranked else None
            cmp = measure.run_guarded(
                lambda: compare_states(evaluations, ss[K_EV_ST_METRIC], pair=pair), lang
            )
            ss[K_EV_ST_RESULT] = {"key": run_key, "cmp": cmp}
    done = ss.get(K_EV_ST_RESULT)
    if done is None or done["cmp"] is None:
        return
    if done["key"] != run_key:
        st.info(t("ev.stale", lang))
    _show(done["cmp"], {**names, **{s: s for s in done["cmp"].states if s not in names}}, lang)


def _evaluate(
    ctx: Context,
    store: Any,
    snap: Any,
    states: Sequence[Any],
    ranked: dict[str, PipelineConfig],
    qset: str,
    phrasings: str,
    ks: tuple[int, ...],
    lang: str,
) -> dict[str, dict[str, Any]] | None:
    """Every configuration under every state (``ui.measure.evaluate``, cached); None when one
    failed (its error is on the page)."""
    out: dict[str, dict[str, Any]] = {}
    version = store.version()
    for state in states:
        labels = snap.resolve(state).labels
        out[state.spec] = {}
        for name, cfg in ranked.items():
            js = ranking_config(cfg).to_json(sort_keys=True)
            label = t("ev.st.running", lang, config=name, state=measure.state_name(state, lang))
            run = partial(
                measure.evaluate,
                ctx.corpus_key,
                js,
                qset,
                phrasings,
                ks,
                (f"{store.path}|{state.spec}", version),
                label,
                ctx.corpus,
                ctx.question_sets[qset],
                labels,
                _runs=ctx.runs,
            )
            got = measure.run_guarded(run, lang)
            if got is None:
                return None
            out[state.spec][name] = got[0]
    return out


def _show(cmp: Any, names: dict[str, str], lang: str) -> None:
    st.markdown(md(sv.summary_line(cmp, names, lang)))
    head, rows = sv.means_rows(cmp, names, lang)
    show(table(head, rows))
    st.caption(t("ev.st.means_help", lang, metric=metric_label(cmp.metric)))
    heads = [t("ev.st.state", lang), t("ev.st.state", lang), "τ"]
    show(table(heads, sv.tau_rows(cmp, names)))
    st.caption(t("ev.st.tau_help", lang))
    if cmp.pair is not None:
        st.subheader(t("ev.st.verdicts", lang, a=cmp.pair[0], b=cmp.pair[1]))
        for line in sv.verdict_lines(cmp, names, lang):
            st.markdown(line)
