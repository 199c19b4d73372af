"""Evaluate page, answers section: run the full pipeline on a question set and show what users
would see.

Rendering only: the scoring is :mod:`rag_core.evaluation.answers`. The run goes query by
query with a progress bar and a cancel button; rows done so far live in the
session, so a cancel (or any rerun mid-run) shows them labelled *partial*.
"""

from __future__ import annotations

import json
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from rag_core.evaluation.answers import LOSS_STAGES, assemble, compare_answers, evaluate_answers
from rag_core.evaluation.stats import format_p
from ui.html import md, show, span, table
from ui.i18n import t

RATES = (
    "answered_correctly",
    "false_refusal",
    "bluff",
    "correct_refusal",
    "claims_supported",
    "claims_supported_cited",
    "claims_uncited",
    "claims_unsupported",
    "claims_invalid_citation",
    "hallucinated_numbers",
    "answers_with_hallucinated_number",
    "context_utilisation",
)


def rate_cell(r: dict[str, Any] | None, lang: str) -> list[Any]:
    if r is None:
        return [span("—", "ri-muted"), 0, span(t("ans.no_items", lang), "ri-muted")]
    return [
        span(f"{r['rate']:.3f}", "ri-num"),
        f"{r['k']}/{r['n']}",
        span(f"[{r['low']:.3f}, {r['high']:.3f}]", "ri-ci ri-num"),
    ]


def funnel_figure(summary: dict[str, Any], lang: str) -> go.Figure:
    """From "asked" to "answered correctly": answerable queries left after each stage's losses."""
    steps = summary["funnel"]
    fig = go.Figure(
        go.Funnel(
            y=[t(f"ans.stage.{s['stage']}", lang) for s in steps],
            x=[s["remaining"] for s in steps],
            customdata=[s["lost"] for s in steps],
            texttemplate="%{value}",
            hovertemplate="%{y}: %{value} (−%{customdata})<extra></extra>",
            marker={"color": ["#0969da"] + ["#8c959f"] * len(LOSS_STAGES) + ["#1a7f37"]},
        )
    )
    fig.update_layout(height=60 + 30 * len(steps), margin={"l": 10, "r": 20, "t": 10, "b": 10})
    return fig


def render(ctx: Any, lang: str, questions: Any, qset: str, config_a: Any, config_b: Any) -> None:
    """The answers section (toggle, run with progress and cancel, metrics, loss stages, per-query
    rows)."""
    ss = st.session_state
    st.header(t("ans.h", lang))
    st.caption(t("ans.intro", lang))
    n_all = len(questions)
    if not isinstance(ss.get("eval.ans.n"), int) or not 1 <= ss["eval.ans.n"] <= n_all:
        ss["eval.ans.n"] = min(6, n_all)
    c1, c2 = st.columns([2, 3])
    c1.number_input(
        t("ans.n", lang),
        min_value=1,
        max_value=n_all,
        step=1,
        key="eval.ans.n",
        help=t("help.ans.n", lang),
    )
    chosen = list(questions[: int(ss["eval.ans.n"])])
    sides = {"A": config_a} if config_b is None else {"A": config_a, "B": config_b}
    key = (ctx.corpus_key, qset, len(chosen), *(c.to_json(sort_keys=True) for c in sides.values()))
    c2.caption(
        t(
            "ans.plan",
            lang,
            n=len(chosen),
            answerable=sum(q.answerable for q in chosen),
            sides=len(sides),
        )
    )
    if st.button(t("ans.run", lang), key="eval.ans.run", icon=":material/play_arrow:"):
        ss["eval.ans.live"] = {"key": key, "rows": {s: [] for s in sides}, "done": {}}
        ss["eval.ans.cancel"] = False
        ss.pop("eval.ans.result", None)
    live = ss.get("eval.ans.live")
    if live is not None and live["key"] == key:
        _run(ctx, lang, chosen, sides, live)
    res = ss.get("eval.ans.result")
    if res is None:
        st.info(t("ans.press_run", lang))
        return
    if res["key"] != key:
        st.info(t("ev.stale", lang))
    _show(res, lang)


def _cancel() -> None:
    st.session_state["eval.ans.cancel"] = True


def _run(
    ctx: Any, lang: str, chosen: list[Any], sides: dict[str, Any], live: dict[str, Any]
) -> None:
    """Run (or, after a cancel, close) the live answer evaluation; store the result in the
    session."""
    from rag_core.models import ModelUnavailable, get_generator

    ss = st.session_state
    cancelled = bool(ss.get("eval.ans.cancel"))
    out: dict[str, Any] = {}
    for side, cfg in sides.items():
        if side in live["done"]:
            out[side] = live["done"][side]
            continue
        if cancelled:
            try:
                gen = get_generator(cfg.generation.model, dtype=cfg.generation.dtype)
            except ModelUnavailable:
                gen = None
            out[side] = assemble(cfg, chosen, ctx.corpus, live["rows"][side], gen, status="partial")
            continue
        slot = st.empty()
        slot.button(
            t("ans.cancel", lang),
            key=f"eval.ans.cancel.{side}",
            on_click=_cancel,
            icon=":material/stop:",
        )
        bar = st.progress(0.0, text=t("ans.running", lang, side=side, done=0, n=len(chosen)))
        live["rows"][side] = []

        def progress(done: int, total: int, side: str = side, bar: Any = bar) -> None:
            bar.progress(done / total, text=t("ans.running", lang, side=side, done=done, n=total))

        try:
            ev = evaluate_answers(
                cfg,
                chosen,
                ctx.corpus,
                progress=progress,
                on_row=live["rows"][side].append,
                should_stop=lambda: bool(ss.get("eval.ans.cancel")),
            )
        except ValueError as exc:
            st.error(md(str(exc)))
            ss.pop("eval.ans.live", None)
            return
        bar.empty()
        slot.empty()
        live["done"][side] = ev
        out[side] = ev
    cmp = None
    if len(out) == 2 and all(ev.rows for ev in out.values()):
        cmp = compare_answers(out["A"], out["B"])
    ss["eval.ans.result"] = {"key": live["key"], "sides": out, "cmp": cmp}
    ss.pop("eval.ans.live", None)


def _show(res: dict[str, Any], lang: str) -> None:
    sides = res["sides"]
    for side, ev in sides.items():
        if ev.status == "partial":
            st.warning(t("ans.partial", lang, side=side, done=len(ev.rows), n=ev.n_planned))
        elif ev.status == "retrieval_only":
            st.warning(md(t("ans.fallback", lang, side=side, reason=ev.message)))
        for w in ev.warnings:
            st.caption(md(w))
        st.caption(md(t("ans.hash", lang, side=side, hash=ev.result_hash, model=ev.model or "—")))
    live = [s for s, ev in sides.items() if ev.status != "retrieval_only"]
    if not live:
        for side, ev in sides.items():
            means = (ev.retrieval or {}).get("means") or {}
            rows = [
                [
                    k,
                    span(f"{m['mean']:.3f}", "ri-num"),
                    m.get("n", ""),
                    span(f"[{m['low']:.3f}, {m['high']:.3f}]", "ri-ci ri-num"),
                ]
                for k, m in means.items()
                if m is not None
            ]
            if rows:
                st.markdown(f"**{side}** · {t('ans.retrieval_only', lang)}")
                show(
                    table(
                        [
                            t("ev.col.metric", lang),
                            t("ans.col.value", lang),
                            "n",
                            t("ev.col.ci", lang),
                        ],
                        rows,
                    )
                )
        return
    head = [t("ev.col.metric", lang)]
    for s in live:
        head += [f"{s} {t('ans.col.value', lang)}", "k/n", f"{s} {t('ev.col.ci', lang)}"]
    rows = []
    for key in RATES:
        row: list[Any] = [t(f"ans.rate.{key}", lang)]
        for s in live:
            row += rate_cell(sides[s].summary["rates"].get(key), lang)
        rows.append(row)
    show(table(head, rows))
    st.caption(t("ans.rates_help", lang))

    st.subheader(t("ans.h.loss", lang))
    cols = st.columns(len(live))
    for col, s in zip(cols, live, strict=True):
        summ = sides[s].summary
        with col:
            st.markdown(f"**{s}**")
            st.plotly_chart(
                funnel_figure(summ, lang),
                key=f"eval.ans.funnel.{s}",
                config={"displayModeBar": False},
            )
            st.caption(
                md(
                    t(
                        "ans.loss_sum",
                        lang,
                        failed=summ["n_failed"],
                        total=sum(summ["loss_stages"].values()),
                        n=summ["n_answerable"],
                    )
                )
            )

    cmp = res.get("cmp")
    if cmp:
        st.subheader(t("ans.h.compare", lang))
        crow = []
        for metric, c in cmp["metrics"].items():
            crow.append(
                [
                    t(f"ans.rate.{metric}", lang),
                    c["n"],
                    c["only_a"],
                    c["only_b"],
                    span(
                        (
                            f"{100 * c['difference']:+.1f} [{100 * c['low']:+.1f}, "
                            f"{100 * c['high']:+.1f}]"
                        ),
                        "ri-num",
                    ),
                    span(format_p(c["p"]).replace("= ", ""), "ri-num"),
                    span(format_p(c["p_holm"]).replace("= ", ""), "ri-num"),
                    t(f"ans.verdict.{c['verdict']}", lang),
                ]
            )
        show(
            table(
                [
                    t("ev.col.metric", lang),
                    "n",
                    t("ans.col.only_a", lang),
                    t("ans.col.only_b", lang),
                    t("ans.col.diff", lang),
                    "McNemar p",
                    "Holm p",
                    t("ev.col.reading", lang),
                ],
                crow,
            )
        )
        for metric, c in cmp["metrics"].items():
            st.caption(
                md(
                    t(
                        "ans.mde",
                        lang,
                        metric=t(f"ans.rate.{metric}", lang),
                        n=c["n"],
                        discordant=c["only_a"] + c["only_b"],
                        mde=f"{100 * c['mde']:.1f}",
                    )
                )
            )

    st.subheader(t("ans.h.rows", lang))
    side = (
        live[0]
        if len(live) == 1
        else st.radio(t("ans.side", lang), live, key="eval.ans.side", horizontal=True)
    )
    ev = sides[side]
    table_rows = [
        {
            "query": r.query_id,
            "outcome": t(f"ans.outcome.{r.outcome}", lang),
            "loss": t(f"ans.stage.{r.loss_stage}", lang) if r.loss_stage else "",
            "text": r.text,
            "answer": r.answer or "",
            "claims": ", ".join(c["verdict"] for c in r.claims),
        }
        for r in ev.rows
    ]
    st.dataframe(
        table_rows,
        hide_index=True,
        key="eval.ans.table",
        column_config={
            "query": st.column_config.TextColumn(t("ev.col.query", lang)),
            "outcome": st.column_config.TextColumn(t("ans.col.outcome", lang)),
            "loss": st.column_config.TextColumn(t("ans.col.loss", lang)),
            "text": st.column_config.TextColumn(t("ev.col.text", lang), width="medium"),
            "answer": st.column_config.TextColumn(t("ans.col.answer", lang), width="large"),
            "claims": st.column_config.TextColumn(t("ans.col.claims", lang)),
        },
    )
    data = {s: e.to_dict() for s, e in sides.items()}
    if cmp:
        data["comparison"] = cmp
    st.download_button(
        t("ans.dl", lang),
        data=json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1),
        file_name="answers.json",
        mime="application/json",
        key="eval.ans.dl",
        icon=":material/download:",
        on_click="ignore",
    )
