"""Streamlit pieces that draw a Trace, shared by Inspect and Compare (and Lecture, Evaluate).

Nothing here ranks, scores, gates or budgets: every number shown comes from
the ``Trace``. HTML is built with ``ui.html`` (escaped); charts with plotly,
whose labels get the same escaping.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from rag_core.answer.checkfile import SUPPORT_JUDGE_UNAVAILABLE
from rag_core.types import (
    AnalyzerView,
    ChunkingDiagnostics,
    Claim,
    ContextStage,
    Hit,
    Question,
    RetrieverList,
    Trace,
)

from . import cache, stream
from .html import Mark, Markup, marked_text, md, show, snippet, span, table, tag
from .i18n import note_text, notice_text, said, t, tv
from .state import Context, DiffRow, format_value
from .trace_view import (
    answer_mark_chip,
    best_rank,
    chunk_label,
    citation_mode_label,
    citations_fell_back,
    cite_free_text,
    claim_label,
    claim_marks,
    claim_reason,
    evidence_marks,
    fmt,
    generation_status,
    gold_ids,
    signal_text,
    support_quality,
    verdict_legend,
)


def caption(key: str, lang: str, **fields: Any) -> None:
    """``st.caption`` of the Markdown-escaped text ``t(key, lang, **fields)``."""
    st.caption(md(t(key, lang, **fields)))


def star(is_gold: bool, lang: str) -> Markup:
    return span("★", "ri-star", t("ins.gold_here", lang)) if is_gold else Markup("")


def page_trace(ctx: Context, *, staged: bool = False) -> cache.TraceResult:
    """The Trace of the sidebar's question and config; when the pipeline cannot run it, the
    reason on the page (and a bug's traceback in an expander), then ``st.stop()``.

    ``staged``: a run whose answer is still being made returns its ``stages`` Trace at once
    (``ui.stream``; the page draws the answer pane with :func:`answer_pane`), and the
    session's generation for another Trace (a knob moved) is cancelled."""
    lang = ctx.lang
    if staged:
        key = cache.trace_key(ctx.corpus_key, ctx.config, ctx.question, ctx.gold)
        stream.cancel_others({key})
        res = stream.staged_trace(
            ctx.corpus, ctx.corpus_key, ctx.config, ctx.question, ctx.gold, lang, runs=ctx.runs
        )
    else:
        res = cache.get_trace(
            ctx.corpus,
            ctx.corpus_key,
            ctx.config,
            ctx.question,
            ctx.gold,
            progress_label=t("ins.running", lang),
            runs=ctx.runs,
            lang=lang,
        )
    if res.trace is None:
        st.error(md(t("ins.no_trace", lang, error=res.error)))
        if res.crash:
            with st.expander(t("ins.crash", lang)):
                st.code(res.crash, language=None)
        st.stop()
    return res


def answer_pane(
    res: cache.TraceResult,
    lang: str,
    *,
    key: str,
    question: Question | None = None,
    top: Any = None,
    top_head: Markup | None = None,
) -> Trace | None:
    """The answer section of a page: streamed with a Stop button while it is being made
    (``ui.stream.follow``), the stopped state, or the Trace's generation and claims (with the
    answer's own mark against ``question``: :func:`answer_and_sources`).

    ``top``: a slot at the top of the page (an ``st.empty``) where an answer being made is
    streamed — its progress, estimate and Stop where the reader is — while this section says
    so (``top_head`` heads it there); drawn here once the stream ends without a rerun.

    Returns the Trace whose answer it drew (the full one once a stream ended), None when it
    drew no answer (no Trace, stopped, or a stream cancelled or failed)."""
    trace = res.trace
    if trace is None:  # page_trace has said why and stopped the page
        return None
    if res.pending is not None:
        here = st.container()
        if top is not None:
            with here:
                caption("stream.at_top", lang)
            with top.container(border=True):
                if top_head is not None:
                    show(top_head)
                final = stream.follow(res.pending, lang, key=f"{key}.stop")
            here = here.empty()
        else:
            final = stream.follow(res.pending, lang, key=f"{key}.stop")
        if final is None:
            return None
        with here.container():
            generation_section(final, lang)
            answer_and_sources(final, lang, key=key, question=question)
        return final
    elif res.stopped:
        stream.stopped_pane(res.key, lang, widget=f"{key}.resume")
        return None
    generation_section(trace, lang)
    answer_and_sources(trace, lang, key=key, question=question)
    return trace


# ------------------------------------------------------------------ verdict


def verdict(trace: Trace, lang: str, *, pending: bool = False) -> None:
    """The verdict line: the first stage where gold was lost, and why. ``pending``: the answer
    is still being made (the line says so instead of a result that does not exist yet)."""
    gold = trace.gold
    if gold is None:
        show(tag("div", t("ins.verdict.nogold", lang), cls="ri-verdict none"))
        return
    if gold.lost_at:
        head = t(
            "ins.verdict.lost",
            lang,
            stage=tv("stage", gold.lost_at, lang),
            loss=tv("loss", gold.lost_at, lang),
        )
        cls = "ri-verdict lost"
    elif pending:
        head = t("ins.verdict.pending", lang)
        cls = "ri-verdict kept"
    elif trace.generation.status == "ok":
        head = t("ins.verdict.used", lang)
        cls = "ri-verdict kept"
    else:
        head = t("ins.verdict.prompt", lang)
        cls = "ri-verdict kept"
    body = tag("strong", head)
    whys = gold.needle_notices or (None,) * len(gold.needle_losses)
    lost = [
        (i, code, notice_text(n, lang) if n is not None else reason)
        for i, (code, reason, n) in enumerate(
            zip(gold.needle_losses, gold.needle_reasons, whys, strict=True)
        )
        if code
    ]
    if lost:
        for i, code, why in lost:
            body = body + tag(
                "div",
                t("ins.verdict.needle", lang, i=i + 1, loss=tv("loss", code, lang), why=why),
                cls="ri-muted",
            )
    show(tag("div", body, cls=cls))
    gold_path(trace, lang)


def gold_path(trace: Trace, lang: str) -> None:
    """Per needle: where it is at each stage (rank, or — when absent)."""
    gold = trace.gold
    if gold is None or not gold.needles:
        return
    stages = list(gold.stage_ranks)
    cols = [t("ins.needle", lang), t("stage.corpus", lang), t("stage.chunking", lang)]
    cols += [_stage_column(s, lang) for s in stages]
    rows = []
    for i, n in enumerate(gold.needles):
        said = snippet(n.text, 60) if n.text.strip() else t("ins.needle_doc", lang, doc=n.doc_id)
        row: list[object] = [tag("span", said, title=n.doc_id)]  # a qrels needle: its document
        row.append(_cell(gold.in_corpus[i], lang))
        row.append(_cell(bool(gold.chunk_ids[i]), lang, _chunks_n(len(gold.chunk_ids[i]), lang)))
        for s in stages:
            r = gold.stage_ranks[s][i]
            label = (
                ("[" + str(r) + "]")
                if s == "context" and r is not None
                else (str(r) if r is not None else "—")
            )
            row.append(span(label, "ri-num" if r is not None else "ri-muted"))
        rows.append(row)
    show(table(cols, rows))


def _chunks_n(n: int, lang: str) -> str:
    """``"1 chunk"`` / ``"3 chunks"`` (``청크 n개``)."""
    return t("ins.chunks_1" if n == 1 else "ins.chunks_n", lang, n=n)


def _stage_column(key: str, lang: str) -> str:
    if key.startswith("retrieval:"):
        return key.split(":", 1)[1]
    return tv("stage", key, lang)


def _cell(ok: bool, lang: str, detail: str = "") -> Markup:
    if ok:
        return span("✓ " + detail if detail else "✓", "ri-num")
    return span("✗ " + t("ins.absent", lang), "ri-chip lost")


# ---------------------------------------------------------------- hit tables


def hits_table(
    hits: Sequence[Hit],
    trace: Trace,
    lang: str,
    *,
    score_label: str | None = None,
    distance: bool = False,
    extra: Sequence[tuple[str, Any]] = (),
    mark: set[str] | None = None,
    dim: set[str] | None = None,
    list_name: str = "",
) -> Markup:
    """Rank, score (or cosine distance), doc, section, snippet; gold rows marked.

    ``extra`` adds ``(header, fn(hit) -> cell)`` columns; ``mark`` ids get the
    "differs" tint (Compare), ``dim`` ids are greyed.
    """
    gids = gold_ids(trace)
    cols = ["#", "", score_label or t("ins.score", lang)]
    if distance:
        cols.append(t("ins.distance", lang))
    cols += [h for h, _ in extra] + [
        t("ins.doc", lang),
        t("ins.section", lang),
        t("ins.snippet", lang),
    ]
    rows, classes = [], []
    for h in hits:
        c = trace.chunks.get(h.chunk_id)
        row: list[object] = [
            span(h.rank, "ri-num"),
            star(h.chunk_id in gids, lang),
            span(fmt(h.score), "ri-num"),
        ]
        if distance:
            row.append(span(fmt(h.distance, 3), "ri-num"))
        row += [fn(h) for _, fn in extra]
        row += [
            span(chunk_label(c, h.chunk_id), "ri-mono", h.chunk_id),
            c.section if c else "",
            snippet(c.content, 140)
            if c and c.content
            else (span(t("ins.text_unavailable", lang), "ri-muted") if c else ""),
        ]
        rows.append(row)
        if mark and h.chunk_id in mark:
            classes.append("ri-diff")
        elif h.chunk_id in gids:
            classes.append("ri-goldrow")
        elif dim and h.chunk_id in dim:
            classes.append("ri-dim")
        else:
            classes.append("")
    return table(
        cols, rows, row_classes=classes, attrs={"data-list": list_name} if list_name else None
    )


def retriever_column(
    lst: RetrieverList, trace: Trace, lang: str, *, mark: set[str] | None = None
) -> None:
    """One retriever's list: header, status, hits or "0 candidates", analyzer view."""
    st.markdown(f"**{md(lst.name)}**")
    facts = [t("ins.candidates", lang, n=lst.n_candidates)]
    if lst.model:
        facts.append(lst.model)
    # the embedder's why in the page's language, not the params' English copy of it
    params = {k: v for k, v in lst.params.items() if not (lst.choice and k == "model_choice")}
    if params:
        facts.append(", ".join(f"{k}={v}" for k, v in params.items()))
    if lst.choice is not None:
        facts.append(notice_text(lst.choice, lang))
    if trace.gold is not None:
        r = best_rank(trace.gold.stage_ranks.get(f"retrieval:{lst.name}"))
        facts.append(t("ins.gold_rank", lang, rank=r if r is not None else "—"))
    st.caption(md(" · ".join(facts)))
    if lst.status != "ok":
        st.warning(md(t("ins.unavailable", lang, name=lst.name, message=said(lst, lang))))
        return
    if lst.notice is not None and lst.hits:  # hits left out, or scores that are distances
        st.caption(md(said(lst, lang)))
    if not lst.hits:
        show(
            tag(
                "div",
                t("ins.zero", lang),
                cls="ri-zero",
                attrs={"data-list": lst.name, "data-count": 0},
            )
        )
    else:
        run_notes = (
            [(t("ins.why", lang), lambda h: note_text(h, lang))] if lst.method == "run" else []
        )
        show(
            hits_table(
                lst.hits,
                trace,
                lang,
                distance=_has_distance(lst),
                mark=mark,
                list_name=lst.name,
                score_label=_score_label(lst, lang),
                extra=run_notes,
            )
        )
    if lst.analyzer_view is not None:
        analyzer_view(lst.analyzer_view, bool(lst.hits), lang)


def analyzer_view(view: AnalyzerView, has_hits: bool, lang: str) -> None:
    """The query's terms as the analyzer made them: qtf, df, idf; df = 0 terms flagged (open
    when they explain an empty list)."""
    zero = view.zero_df_terms
    title = t(
        "ins.analyzer_view",
        lang,
        analyzer=tv("analyzer", view.analyzer, lang),
        n=len(view.terms),
    )
    if zero:
        title += " · " + t("ins.zero_df", lang, n=len(zero))
    with st.expander(title, expanded=bool(zero) and not has_hits):
        caption("ins.idf_form", lang, form=view.idf_form, n=view.n_docs)
        rows, classes = [], []
        for term in view.terms:
            rows.append(
                [
                    span(term.term, "ri-mono"),
                    term.qtf,
                    term.df,
                    fmt(term.idf, 3),
                    span("df = 0", "ri-chip lost") if term.df == 0 else "",
                ]
            )
            classes.append("ri-bad" if term.df == 0 else "")
        show(
            table(
                [t("ins.term", lang), "qtf", "df", "idf", ""],
                rows,
                row_classes=classes,
                empty=t("ins.no_terms", lang),
            )
        )
        if view.segments:
            st.caption(t("ins.analyzer_runs", lang))
            show(
                table(
                    [t("ins.run", lang), t("ins.run_analyzer", lang), t("ins.term", lang)],
                    [
                        [
                            span(run, "ri-mono"),
                            tv("analyzer", name, lang),
                            span(" · ".join(terms), "ri-mono"),
                        ]
                        for run, name, terms in view.segments
                    ],
                )
            )


def _has_distance(lst: RetrieverList) -> bool:
    return lst.method == "dense" or (
        lst.method == "qdrant" and any(h.distance is not None for h in lst.hits)
    )


def _score_label(lst: RetrieverList, lang: str) -> str | None:
    """Dense: cosine; Qdrant: its score as Qdrant returns it, named by the collection's distance."""
    if lst.method == "dense":
        return t("ins.cosine", lang)
    if lst.method == "qdrant":
        return t("ins.qdrant_score", lang, distance=lst.params.get("distance", "?"))
    return None


def fusion_table(trace: Trace, lang: str, *, mark: set[str] | None = None) -> None:
    fused = trace.retrieval.fused
    if fused is None:
        st.caption(t("ins.no_fusion", lang))
        return
    caption(
        "ins.fusion_facts",
        lang,
        method=tv("fusion", fused.method, lang),
        union=fused.union,
        params=", ".join(f"{k}={v}" for k, v in fused.params.items()) or "—",
    )
    extra = []
    for name in fused.inputs:
        extra.append((name, _contrib(name)))
    show(
        hits_table(
            fused.hits,
            trace,
            lang,
            extra=extra,
            mark=mark,
            score_label=t("ins.fused_score", lang),
            list_name="fused",
        )
    )


def _contrib(name: str):
    def cell(h: Hit) -> Markup:
        r = h.list_ranks.get(name)
        c = h.contributions.get(name)
        if r is None and c is None:
            return span("—", "ri-muted")
        return span(f"#{r if r is not None else '—'} · +{fmt(c, 4)}", "ri-num")

    return cell


# ----------------------------------------------------------------- context


def sources_table(ctx: ContextStage, trace: Trace, lang: str) -> Markup:
    gids = gold_ids(trace)
    rows, classes = [], []
    for s in ctx.sources:
        rows.append(
            [
                span(f"[{s.n}]" if s.n else "—", "ri-num"),
                star(s.chunk_id in gids, lang),
                span(
                    tv("source", s.status, lang),
                    f"ri-chip {'ok' if s.status == 'included' else 'lost'}",
                ),
                tv("reason", s.reason, lang) if s.reason else "",
                span(f"{s.doc_id} {s.locator}", "ri-mono", s.chunk_id),
                s.section,
                span(s.tokens, "ri-num"),
                span(s.cut_at if s.cut_at is not None else "", "ri-num"),
            ]
        )
        classes.append(
            "ri-goldrow"
            if s.chunk_id in gids and s.status != "dropped"
            else ("ri-dim" if s.status == "dropped" else "")
        )
    cols = [
        "[n]",
        "",
        t("ins.status", lang),
        t("ins.why", lang),
        t("ins.doc", lang),
        t("ins.section", lang),
        t("ins.tokens", lang),
        t("ins.cut_at", lang),
    ]
    return table(
        cols,
        rows,
        row_classes=classes,
        empty=t("ins.no_sources", lang),
        attrs={"data-list": "sources"},
    )


# -------------------------------------------------------------- generation


def generation_section(trace: Trace, lang: str) -> None:
    kind, text = generation_status(trace, lang)
    if kind == "info":
        st.info(md(text))
    elif kind == "warning":
        st.warning(md(text))
    elif kind == "error":
        st.error(md(text))
    else:
        st.caption(md(text))
    if citations_fell_back(trace.config, trace.generation):
        st.warning(md(cite_free_text(trace.generation, lang)))


def evidence_table(claim: Claim, lang: str) -> Markup:
    """Each source's best sentence for ``claim`` with its overlap, cosine and score."""
    rows = [
        [
            f"[{e.n}]",
            e.sentence,
            fmt(e.overlap, 2),
            fmt(e.cosine, 2),
            fmt(e.score, 2),
            ", ".join(e.missing_terms),
            ", ".join(e.missing_numbers),
            signal_text(e.signals, lang),
        ]
        for e in claim.evidence
    ]
    return table(
        [
            "[n]",
            t("ins.evidence", lang),
            t("ins.overlap", lang),
            "cos",
            t("ins.score", lang),
            t("ins.missing_terms", lang),
            t("ins.missing_numbers", lang),
            t("ins.signals", lang),
        ],
        rows,
        empty=t("ins.no_evidence", lang),
    )


def answer_and_sources(
    trace: Trace, lang: str, *, key: str, question: Question | None = None
) -> None:
    """Answer with claims coloured and its own mark (does it answer ``question``, or the
    Trace's gold) | sources with evidence and gold highlighted."""
    g, sup = trace.generation, trace.support
    if g.status != "ok" or g.answer is None:
        st.caption(t("ins.no_answer", lang))
        return
    show(verdict_legend(lang))
    selected: int | None = None
    if sup.status == "ok" and sup.claims:
        options = list(range(len(sup.claims)))
        selected = st.radio(
            t("ins.pick_claim", lang),
            options,
            key=key,
            horizontal=False,
            format_func=lambda i: md(claim_label(sup, i, lang)),
        )
    elif sup.status != "ok":
        caption(
            "ins.support_status",
            lang,
            status=tv("status", sup.status, lang),
            message=said(sup, lang),
        )
    if sup.status == "ok":
        st.caption(support_quality(sup, lang))
    if sup.notice is not None and sup.notice.code == SUPPORT_JUDGE_UNAVAILABLE:
        st.warning(md(said(sup, lang)))  # support.judge is on but verdicts came without it
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{t('ins.answer', lang)}**")
        show(answer_mark_chip(trace, question, lang))
        mode = citation_mode_label(g, lang)
        if mode:
            st.caption(mode)
        show(marked_text(g.answer, claim_marks(g.answer, sup, selected)))
        if selected is not None:
            claim = sup.claims[selected]
            st.markdown(
                t(
                    "ins.claim_detail",
                    lang,
                    verdict=tv("verdict", claim.verdict, lang),
                    cites=", ".join(f"[{n}]" for n in claim.citations) or "—",
                )
            )
            if claim.reason:
                st.caption(md(claim_reason(claim, lang)))
            if claim.numbers_in_no_source:
                st.error(
                    md(
                        t(
                            "ins.numbers_missing",
                            lang,
                            numbers=", ".join(claim.numbers_in_no_source),
                        )
                    )
                )
            show(evidence_table(claim, lang))
    with right:
        st.markdown(f"**{t('ins.sources', lang)}**")
        _sources_panel(trace, lang, selected)


def _sources_panel(trace: Trace, lang: str, selected: int | None) -> None:
    ctx = trace.context
    needles = trace.gold.needles if trace.gold else ()
    for s in ctx.sources:
        if s.status == "dropped" or s.n is None:
            continue
        marks: list[Mark] = []
        for nd in needles:
            if nd.doc_id == s.doc_id:
                j = s.quote.find(nd.text)
                if j >= 0:
                    marks.append(Mark(j, j + len(nd.text), "ri-gold", t("ins.gold_needle", lang)))
        # only the selected claim's evidence, in its colour (evidence offsets are document
        # offsets; the quote starts at s.start)
        marks += evidence_marks(trace, selected, s.n, s.start, lang)
        head = tag(
            "div",
            f"[{s.n}] {s.title} › {s.section}  {s.locator} · {tv('source', s.status, lang)}",
            cls="ri-src-h",
        )
        # a table's column rows, sent before rows quoted without them (not the quote's words)
        lead = tag("div", s.lead.rstrip("\n"), cls="ri-src-lead", title=t("ins.lead", lang))
        show(
            tag("div", head + (lead if s.lead else "") + marked_text(s.quote, marks), cls="ri-src")
        )


# -------------------------------------------------------------- config diff, chunking


def config_diff_table(rows: Sequence[DiffRow], lang: str, *, dim_non_ranking: bool = False) -> None:
    """The A/B config diff (``ui.state.config_diff`` rows): an info line when B equals A.

    ``dim_non_ranking``: dim the keys that act after the gate (Evaluate ranks only).
    """
    if not rows:
        st.info(t("cmp.same", lang))
        return
    classes = ["ri-diff" if r.ranking or not dim_non_ranking else "ri-dim" for r in rows]
    show(
        table(
            [t("cmp.key", lang), "A", "B"],
            [[span(r.key, "ri-mono"), format_value(r.a), format_value(r.b)] for r in rows],
            row_classes=classes,
        )
    )


def chunking_metrics(d: ChunkingDiagnostics, lang: str, *, token_range: bool = False) -> None:
    """The chunking metrics row: chunks, over the window, destroyed needles, header share.

    ``token_range`` adds the min–max token column (Chunks page).
    """
    cols = st.columns(5 if token_range else 4)
    cols[0].metric(t("chk.chunks", lang), d.n_chunks)
    cols[1].metric(t("chk.over_window", lang, window=d.encoder_window), len(d.over_window))
    cols[2].metric(t("chk.destroyed", lang), f"{len(d.destroyed)} / {d.n_needles}")
    cols[3].metric(
        t("chk.header_share", lang),
        f"{d.header_token_share:.1%}" if d.header_token_share is not None else "—",
    )
    if token_range:
        mean = f"{d.tokens_mean:.0f}" if d.tokens_mean is not None else "—"
        cols[4].metric(
            t("chk.tokens_range", lang),
            f"{d.tokens_min}–{d.tokens_max}" if d.tokens_min is not None else "—",
            help=t("chk.tokens_mean", lang, mean=mean),
        )
