"""The lecture view: one Trace as four panes side by side, revealed stage by stage.

(1) candidates per stage as a rank-flow, (2) the prompt tokens as sent,
(3) the answer, (4) the claims with the evidence of the selected one. Every
builder returns escaped :class:`~ui.html.Markup` from ``ui.html`` and the
pieces Inspect draws with (``ui.trace_view``), so the Lecture page and the slide
export (``ui.lecture.slides``) show the same thing and document or model text is
never markup. Nothing here ranks or scores: membership and reasons come from
the ``Trace`` (the gate's notes, the context's source statuses).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rag_core.config import PipelineConfig
from rag_core.evaluation.verdict import Verdict, verdict
from rag_core.types import Hit, Question, Trace

from ..html import Mark, Markup, div, join, marked_text, snippet, span, tag
from ..i18n import note_text, notice_text, said, t, tv
from ..state import overrides_text, query_from_config
from ..trace_view import (
    answer_mark_chip,
    chunk_label,
    claim_label,
    claim_marks,
    claim_reason,
    fmt,
    generation_status,
    gold_ids,
    token_strip,
    verdict_legend,
)

#: The panes in pipeline order; step ``n`` reveals the first ``n``.
PANES = ("candidates", "prompt", "answer", "claims")
STEPS = len(PANES)
#: What the viewer has seen after each step (``rag_core.evaluation.verdict.SEEN``): the
#: candidates, the prompt, the answer — its support and its own mark only at the last step.
STEP_SEEN = ("gate", "context", "answer", "answer")
#: The step from which the answer's claims are judged (coloured, picked, marked).
JUDGED_STEP = PANES.index("claims") + 1
#: The before/after toggle: configuration A (the failure) and B (the working baseline).
SIDES = ("a", "b")


def parse_side(value: object) -> str:
    """The side a URL value asks for: ``b`` shows configuration B, anything else A."""
    return "b" if str(value) == "b" else "a"


def parse_step(value: object) -> int:
    """The step a URL value asks for: an integer 1…:data:`STEPS`; anything else shows every pane."""
    try:
        step = int(str(value))
    except ValueError:
        return STEPS
    return step if 1 <= step <= STEPS else STEPS


def step_honoured(value: object) -> bool:
    """Whether a URL ``step`` value is shown as asked: empty (every pane) or an integer
    1…:data:`STEPS`."""
    if value in (None, ""):
        return True
    try:
        return 1 <= int(str(value)) <= STEPS
    except ValueError:
        return False


# ---------------------------------------------------------------- rank flow


@dataclass(frozen=True)
class FlowColumn:
    """One stage's ranked list as the rank-flow draws it.

    ``drop`` says, per chunk id of this column that the next stage does not
    carry on, why (already localised text from the Trace).
    """

    key: str
    title: str
    hits: tuple[Hit, ...]
    drop: dict[str, str]


def _code(i: int) -> str:
    """A, B, …, Z, AA, AB, … (spreadsheet column letters) for the i-th chunk (0-based)."""
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(65 + r) + out
    return out


def flow_columns(trace: Trace, lang: str) -> list[FlowColumn]:
    """Retriever lists → fused → reranked → kept, each with why items were not passed on."""
    r = trace.retrieval
    gate_notes = {h.chunk_id: note_text(h, lang) for h in trace.gate.rejected}
    sources = {s.chunk_id: s for s in trace.context.sources}
    raw: list[tuple[str, str, Sequence[Hit]]] = []
    for lst in r.lists:
        if lst.status == "ok":
            raw.append(("list", lst.name, lst.hits))
    if r.fused is not None:
        raw.append(("fused", t("lec.col.fused", lang), r.fused.hits))
    if trace.rerank.method != "none" and trace.rerank.hits:
        raw.append(("rerank", t("lec.col.rerank", lang), trace.rerank.hits))
    raw.append(("kept", t("lec.col.kept", lang), trace.gate.kept))
    why_next = {"fused": t("lec.why.fusion", lang), "rerank": t("lec.why.shortlist", lang)}
    cols: list[FlowColumn] = []
    for i, (key, title, hits) in enumerate(raw):
        drop: dict[str, str] = {}
        if key == "kept":
            for h in hits:
                s = sources.get(h.chunk_id)
                if s is not None and s.status == "dropped":
                    drop[h.chunk_id] = t(
                        "lec.why.context", lang, reason=tv("reason", s.reason, lang)
                    )
        else:
            # parallel retriever lists all feed the first column after them
            following = next(c for c in raw[i + 1 :] if c[0] != "list")
            carried = {h.chunk_id for h in following[2]}
            for h in hits:
                if h.chunk_id not in carried:
                    drop[h.chunk_id] = (
                        gate_notes.get(h.chunk_id) or t("lec.why.gate", lang)
                        if following[0] == "kept"
                        else why_next[following[0]]
                    )
        cols.append(FlowColumn(key, title, tuple(hits), drop))
    return cols


def rank_flow(trace: Trace, lang: str) -> Markup:
    """Pane 1: a table of stages × ranks with one letter per chunk, gold ★, dropped greyed;
    below, each chunk's label and fate (where it left and why, or its ``[n]`` in the prompt)."""
    cols = flow_columns(trace, lang)
    gids = gold_ids(trace)
    codes: dict[str, str] = {}
    for c in cols:
        for h in c.hits:
            codes.setdefault(h.chunk_id, _code(len(codes)))
    sources = {s.chunk_id: s for s in trace.context.sources}
    depth = max((len(c.hits) for c in cols), default=0)
    head = join(tag("th", span(c.title, "ri-lf-h"), title=c.title) for c in cols)
    body: list[Markup] = []
    for rank in range(depth):
        cells: list[Markup] = []
        for c in cols:
            if rank >= len(c.hits):
                cells.append(tag("td", ""))
                continue
            h = c.hits[rank]
            cls = (
                "ri-lf"
                + (" ri-lf-gold" if h.chunk_id in gids else "")
                + (" ri-lf-drop" if h.chunk_id in c.drop else "")
            )
            text = codes[h.chunk_id] + ("★" if h.chunk_id in gids else "")
            s = sources.get(h.chunk_id)
            if c.key == "kept" and s is not None and s.n is not None:
                text += f" [{s.n}]"
            title = chunk_label(trace.chunks.get(h.chunk_id), h.chunk_id) + (
                f" — {c.drop[h.chunk_id]}" if h.chunk_id in c.drop else ""
            )
            cells.append(tag("td", span(text, cls, title)))
        body.append(tag("tr", tag("td", span(rank + 1, "ri-num ri-muted")) + join(cells)))
    if not depth:
        body.append(
            tag(
                "tr",
                tag("td", t("lec.no_candidates", lang), attrs={"colspan": len(cols) + 1}),
                cls="ri-empty",
            )
        )
    grid = tag(
        "table",
        tag("thead", tag("tr", tag("th", "#") + head)) + tag("tbody", join(body)),
        cls="ri-lf-table",
    )
    return grid + _fates(trace, cols, codes, gids, lang)


def _fates(
    trace: Trace, cols: Sequence[FlowColumn], codes: dict[str, str], gids: set[str], lang: str
) -> Markup:
    """One line per chunk: code, ★, document #ordinal, snippet, and where it ended."""
    sources = {s.chunk_id: s for s in trace.context.sources}
    kept = {h.chunk_id for h in trace.gate.kept}
    lines: list[Markup] = []
    order = sorted(codes, key=lambda cid: (cid not in gids, cid not in kept, codes[cid].rjust(3)))
    for cid in order:
        chunk = trace.chunks.get(cid)
        fate: Markup
        s = sources.get(cid)
        if cid in kept and s is not None and s.n is not None:
            fate = span(
                t("lec.fate.prompt", lang, n=s.n, status=tv("source", s.status, lang)), "ri-chip ok"
            )
        else:
            where = [(c.title, c.drop[cid]) for c in cols if cid in c.drop]
            if where:
                stage, why = where[-1]
                fate = span(
                    t("lec.fate.dropped", lang, stage=stage, why=why),
                    "ri-chip lost" if cid in gids else "ri-muted",
                )
            elif cid in kept:
                fate = span(t("lec.fate.kept", lang), "ri-chip ok")
            else:
                fate = Markup("")
        label = span(chunk_label(chunk, cid), "ri-mono")
        text = span(snippet(chunk.content, 70), "ri-muted") if chunk else Markup("")
        cls = (
            "ri-lf-fate"
            + (" ri-goldrow" if cid in gids else "")
            + (" ri-dimrow" if cid not in kept else "")
        )
        lines.append(
            div(
                span(codes[cid] + ("★" if cid in gids else ""), "ri-lf-code")
                + " "
                + label
                + " "
                + fate
                + div(text),
                cls,
            )
        )
    return div(join(lines), "ri-lf-fates")


# ------------------------------------------------------------------ prompt


#: Tokens kept from the prompt's start, before the cut and after it when a hard cut falls deep
#: in the prompt: the pane then fits a screen with the cut marker in view (a scroll pane would
#: hide it ~1,000 px down).
CUT_HEAD, CUT_BEFORE, CUT_AFTER = 24, 48, 24


def cut_window(pieces: Sequence[str], cut: int, lang: str) -> Markup:
    """The prompt as tokens with the budget-cut marker in view: the first :data:`CUT_HEAD`
    tokens, :data:`CUT_BEFORE` before the cut and :data:`CUT_AFTER` after it, each gap named
    by its token count (the whole strip when it is short or has no cut)."""
    if cut >= len(pieces) or cut <= CUT_HEAD + CUT_BEFORE:
        return token_strip(pieces, cut, lang)
    spans = [(0, CUT_HEAD), (cut - CUT_BEFORE, min(len(pieces), cut + CUT_AFTER))]
    out: list[Markup] = []
    prev = 0
    for lo, hi in spans:
        if lo > prev:
            out.append(span(t("lec.tokens_elided", lang, n=lo - prev), "ri-muted ri-lec-gap"))
        for i in range(lo, hi):
            if i == cut:
                out.append(span(t("ins.cut_here", lang), "ri-trunc"))
            out.append(span(pieces[i], "ri-tok ri-beyond" if i >= cut else "ri-tok", str(i)))
        prev = hi
    if prev < len(pieces):
        out.append(span(t("lec.tokens_elided", lang, n=len(pieces) - prev), "ri-muted ri-lec-gap"))
    return tag("div", join(out), cls="ri-tokens")


def prompt_pane(trace: Trace, lang: str, pieces: tuple[Sequence[str], int] | None) -> Markup:
    """Pane 2: the token counts, the truncation warning and the prompt as tokens, beyond the cut
    greyed."""
    ctx = trace.context
    if ctx.status == "skipped":
        return div(t("ins.context_skipped", lang, message=said(ctx, lang)), "ri-lec-note")
    facts = t(
        "cmp.tokens",
        lang,
        before=ctx.tokens_before if ctx.tokens_before is not None else "—",
        after=ctx.tokens_after if ctx.tokens_after is not None else "—",
        budget=ctx.budget_tokens,
    )
    out = div(facts + " · " + tv("policy", ctx.policy, lang), "ri-muted ri-lec-facts")
    if ctx.truncated:
        out += div(t("ins.truncated", lang), "ri-lec-warn")
    if ctx.question_cut:
        out += div(t("ins.question_cut", lang), "ri-lec-warn")
    if pieces:
        return out + cut_window(pieces[0], pieces[1], lang)
    return (
        out
        + div(t("ins.no_pieces", lang), "ri-muted")
        + div(ctx.actual_input_text or ctx.prompt_text, "ri-text ri-mono")
    )


# ------------------------------------------------------------ answer, claims


def selected_claim(trace: Trace, value: object) -> int | None:
    """The claim index a URL/widget value names, clipped to the Trace's claims (None when there are
    none)."""
    claims = trace.support.claims if trace.support.status == "ok" else ()
    if not claims:
        return None
    try:
        i = int(str(value))
    except ValueError:
        return 0
    return i if 0 <= i < len(claims) else 0


def answer_pane(
    trace: Trace,
    lang: str,
    selected: int | None,
    *,
    judged: bool = True,
    question: Question | None = None,
) -> Markup:
    """Pane 3: the generator's facts and the answer; once ``judged`` (the claims' step), its own
    mark (does it answer the question?) and every claim coloured by its support verdict."""
    g = trace.generation
    kind, text = generation_status(trace, lang)
    mark = answer_mark_chip(trace, question, lang) if judged else Markup("")
    if kind != "ok" or g.answer is None:
        return div(text, f"ri-lec-note {kind}") + (mark if trace.gate.refused else Markup(""))
    if not judged:  # the answer as the model wrote it: no verdict before its step
        return div(text, "ri-muted ri-lec-facts") + marked_text(g.answer, [])
    return (
        div(text, "ri-muted ri-lec-facts")
        + div(mark)
        + marked_text(g.answer, claim_marks(g.answer, trace.support, selected))
    )


def claims_pane(trace: Trace, lang: str, selected: int | None) -> Markup:
    """Pane 4: each claim as a verdict-coloured line; the selected claim's best evidence
    sentence."""
    sup = trace.support
    if sup.status != "ok":
        return div(
            t(
                "ins.support_status",
                lang,
                status=tv("status", sup.status, lang),
                message=said(sup, lang),
            ),
            "ri-lec-note",
        )
    if not sup.claims:
        return div(t("lec.no_claims", lang), "ri-lec-note")
    items = []
    for i, c in enumerate(sup.claims):
        cls = f"ri-claim ri-v-{c.verdict}" + (" ri-sel" if i == selected else "")
        items.append(div(span(claim_label(sup, i, lang, limit=200), cls), "ri-lec-claim"))
    out = verdict_legend(lang) + div(join(items), "ri-lec-claims")
    if selected is None:
        return out
    claim = sup.claims[selected]
    detail = div(
        t(
            "lec.claim_head",
            lang,
            i=selected + 1,
            verdict=tv("verdict", claim.verdict, lang),
            cites=", ".join(f"[{n}]" for n in claim.citations) or "—",
        ),
        "ri-lec-facts",
    )
    if claim.numbers_in_no_source:
        detail += div(
            t("ins.numbers_missing", lang, numbers=", ".join(claim.numbers_in_no_source)),
            "ri-lec-warn",
        )
    if claim.reason:
        min_p = trace.config.get("support", {}).get("min_p", "—")
        detail += div(claim_reason(claim, min_p, lang), "ri-muted")
    ranked = sorted(claim.evidence, key=lambda e: -e.score)
    if not ranked:
        detail += div(t("ins.no_evidence", lang), "ri-muted")
    for j, e in enumerate(ranked):
        head = span(
            f"[{e.n}] " + t("lec.ev_score", lang, score=fmt(e.score, 2), overlap=fmt(e.overlap, 2)),
            "ri-src-h",
        )
        sentence = marked_text(
            e.sentence, [Mark(0, len(e.sentence), "ri-ev-sel" if j == 0 else "ri-ev")]
        )
        detail += div(head + sentence, "ri-src" + ("" if j == 0 else " ri-lec-minor"))
    return out + div(detail, "ri-lec-detail")


# --------------------------------------------------------------------- view


def config_changes(trace: Trace) -> str:
    """The Trace's configuration as ``key=value`` items that differ from ``PipelineConfig()`` (""
    when none)."""
    try:
        config = PipelineConfig.from_dict(trace.config)
    except (ValueError, TypeError, KeyError):
        return ""
    return overrides_text(query_from_config(config))


def lecture_verdict(trace: Trace, question: Question | None, step: int) -> Verdict:
    """The verdict as far as step ``step`` has shown (:data:`STEP_SEEN`)."""
    if not 1 <= step <= STEPS:
        raise ValueError(f"step = {step!r} is not valid; valid choices: 1 to {STEPS}")
    return verdict(trace, question, seen=STEP_SEEN[step - 1])


def verdict_kind(v: Verdict) -> str:
    """The verdict line's look: ``lost`` (a failure), ``ok`` (the pipeline did its part),
    ``open`` (the gold still in play), ``none`` (nothing to judge)."""
    if v.failed:
        return "lost"
    if v.kind in ("sent", "refused"):
        return "ok"
    return "open" if v.kind == "kept" else "none"


def verdict_text(v: Verdict, lang: str) -> str:
    """The verdict line's sentence, and why (each lost needle's reason) after it."""
    if v.kind == "lost":
        head = t(
            "lec.v.lost", lang, stage=tv("stage", v.stage, lang), loss=tv("loss", v.stage, lang)
        )
    elif v.kind == "kept":
        head = t("lec.v.kept", lang, rank=v.rank if v.rank is not None else "—")
    elif v.kind == "sent":
        head = t("lec.v.sent", lang, n=v.source if v.source is not None else "—")
    elif v.kind in ("should_refuse", "refused"):
        head = t(f"lec.v.{v.kind}.{v.stage}", lang, n=v.kept)
    else:
        head = t(f"lec.v.{v.kind}", lang)
    whys = "; ".join(notice_text(n, lang) for n in v.notices)
    return f"{head} — {whys}" if whys else head


def verdict_line(trace: Trace, question: Question | None, lang: str, step: int) -> Markup:
    """The line above the panes: where the gold was lost (or that it should have been refused),
    told only as far as ``step`` has revealed."""
    v = lecture_verdict(trace, question, step)
    return tag(
        "div",
        verdict_text(v, lang),
        cls=f"ri-lec-verdict {verdict_kind(v)}",
        attrs={"data-verdict": v.kind, "data-stage": v.stage},
    )


def lecture_view(
    trace: Trace,
    lang: str,
    *,
    step: int = STEPS,
    selected: int | None = None,
    pieces: tuple[Sequence[str], int] | None = None,
    large: bool = False,
    height: str = "100vh",
    question: Question | None = None,
) -> Markup:
    """The verdict line and the four panes side by side (``height`` tall); panes after ``step``
    show only their question. ``question``: the set question asked (its gold and whether it
    can be answered), None for free text."""
    if not 1 <= step <= STEPS:
        raise ValueError(f"step = {step!r} is not valid; valid choices: 1 to {STEPS}")
    judged = step >= JUDGED_STEP
    bodies = {
        "candidates": lambda: rank_flow(trace, lang),
        "prompt": lambda: prompt_pane(trace, lang, pieces),
        "answer": lambda: answer_pane(
            trace, lang, selected if judged else None, judged=judged, question=question
        ),
        "claims": lambda: claims_pane(trace, lang, selected),
    }
    panes = []
    for i, name in enumerate(PANES, start=1):
        shown = i <= step
        head = tag("h3", t(f"lec.pane.{name}", lang), cls="ri-lec-h")
        body = (
            bodies[name]()
            if shown
            else div(span("?", "ri-lec-q") + div(t(f"lec.ask.{name}", lang)), "ri-lec-hidden")
        )
        panes.append(
            tag(
                "section",
                head + div(body, "ri-lec-body"),
                cls="ri-lec-pane" + ("" if shown else " hidden"),
                attrs={"data-pane": name, "data-shown": "1" if shown else "0"},
            )
        )
    top = (
        span(t("ins.question", lang), "ri-lec-label")
        + " "
        + span(trace.question, "ri-lec-question")
    )
    if question is not None and not question.answerable:  # a fact of the question, no spoiler
        top += " " + span(
            t("lec.should_refuse", lang), "ri-chip lost", t("lec.should_refuse_help", lang)
        )
    changed = config_changes(trace)
    if changed:
        top += span(" · " + t("lec.config", lang, changes=changed), "ri-muted")
    head_line = div(top, "ri-lec-top", title=trace.question + (f" · {changed}" if changed else ""))
    return tag(
        "div",
        head_line + verdict_line(trace, question, lang, step) + div(join(panes), "ri-lec-grid"),
        cls="ri-lec" + (" ri-lec-big" if large else ""),
        style=f"height:{height}",
        attrs={"data-step": step},
    )


LECTURE_CSS = """
.ri-lec{display:flex;flex-direction:column;gap:6px;box-sizing:border-box;min-height:0;
  font-size:clamp(13px,calc(0.78vw + 3px),18px)}
.ri-lec *{box-sizing:border-box}
.ri-lec-verdict{border-radius:6px;padding:3px 10px;border:1px solid #d0d7de;font-weight:600;
  line-height:1.35;flex:0 0 auto}
.ri-lec-verdict.lost{background:#ffebe9;border-color:#ff8182;color:#82071e}
.ri-lec-verdict.ok{background:#ddf4ff;border-color:#54aeff;color:#0a3069}
.ri-lec-verdict.open{background:#fff8c5;border-color:#d4a72c;color:#4d2d00}
.ri-lec-verdict.none{background:#f6f8fa;color:#57606a;font-weight:400}
.ri-lec-top{flex:0 0 auto;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-size:1.0em}
.ri-lec-label{font-weight:700}
.ri-lec-question{font-weight:600;color:#0969da}
.ri-lec-grid{flex:1 1 auto;min-height:0;display:grid;
  grid-template-columns:1.35fr 1.1fr 0.95fr 1.05fr;gap:8px}
.ri-lec-pane{display:flex;flex-direction:column;min-height:0;min-width:0;border:1px solid #d0d7de;
  border-radius:8px;background:#fff}
.ri-lec-pane.hidden{background:#f6f8fa;border-style:dashed}
.ri-lec-h{flex:0 0 auto;margin:0;padding:4px 8px;font-size:1.0em;font-weight:700;
  border-bottom:1px solid #d0d7de;background:#f6f8fa;border-radius:8px 8px 0 0;line-height:1.4}
.ri-lec-body{flex:1 1 auto;min-height:0;overflow:auto;padding:6px 8px}
.ri-lec-hidden{height:100%;display:flex;flex-direction:column;align-items:center;
  justify-content:center;color:#57606a;text-align:center;gap:6px}
.ri-lec-q{font-size:3em;font-weight:700;color:#8c959f}
.ri-lec-facts{font-size:0.85em;margin-bottom:4px}
.ri-lec-warn{color:#82071e;background:#ffebe9;border-radius:4px;padding:2px 6px;margin:2px 0;
  font-size:0.9em}
.ri-lec-note{color:#57606a;background:#f6f8fa;border-radius:4px;padding:6px}
.ri-lec-note.warning,.ri-lec-note.error{background:#ffebe9;color:#82071e}
.ri-lec .ri-tokens{max-height:none;overflow:visible;border:0;padding:0;font-size:0.8em;
  line-height:1.6}
.ri-lec .ri-text{font-size:1em}
.ri-lec .ri-legend{font-size:0.8em;margin-bottom:4px;line-height:1.8}
.ri-lec-claim{margin:3px 0;line-height:1.5}
.ri-lec-detail{margin-top:6px;border-top:1px solid #d0d7de;padding-top:4px}
.ri-lec-minor{opacity:0.75;font-size:0.9em}
.ri-lf-table{border-collapse:collapse;width:100%;table-layout:fixed;font-size:0.85em;
  margin-bottom:6px}
.ri-lf-table th{font-weight:600;text-align:center;border-bottom:2px solid #d0d7de;padding:1px 2px;
  overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.ri-lf-table th:first-child,.ri-lf-table td:first-child{width:1.8em}
.ri-lf-table td{text-align:center;padding:1px 2px;border-bottom:1px solid #eaeef2;
  white-space:nowrap}
.ri-lf{display:inline-block;min-width:2.2em;border-radius:4px;padding:0 3px;background:#ddf4ff;
  font-weight:600}
.ri-lf-gold{background:#fff4c2;outline:2px solid #d4a72c;color:#1f2328}
.ri-lf-drop{background:#f6f8fa;color:#8c959f;text-decoration:line-through;font-weight:400}
.ri-lf-gold.ri-lf-drop{outline-color:#cf222e;background:#ffebe9;color:#82071e}
.ri-lf-fates{font-size:0.82em}
.ri-lf-fates .ri-mono{font-size:0.95em;word-break:break-all}
.ri-lf-fate{padding:2px 4px;border-bottom:1px solid #eaeef2}
.ri-lf-fate.ri-goldrow{background:#fff4c2}
.ri-lf-fate.ri-dimrow{color:#8c959f}
.ri-lf-code{display:inline-block;min-width:2em;font-weight:700}
.ri-lec.ri-lec-big{font-size:clamp(17px,calc(1vw + 4px),24px)}
.ri-lec .ri-chip{font-size:0.88em}
.ri-lec .ri-src-h{font-size:0.85em}
"""


def lecture_style() -> Markup:
    """The lecture stylesheet as one ``<style>`` tag (contains no document text)."""
    return Markup(f"<style>{LECTURE_CSS}</style>")
