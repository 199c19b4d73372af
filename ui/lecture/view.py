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

from rag_core.evaluation.verdict import Verdict, verdict
from rag_core.types import Hit, Question, Trace

from ..html import Mark, Markup, div, join, marked_text, snippet, span, tag
from ..i18n import note_text, notice_text, said, t, tv
from ..state import config_changes
from ..trace_view import (
    VERDICTS,
    answer_mark_chip,
    chunk_label,
    claim_label,
    claim_marks,
    claim_reason,
    fmt,
    generation_status,
    gold_ids,
    is_evidence,
    support_quality,
    support_threshold,
    verdict_legend,
)
from . import fit

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


#: Heights in ems of the lecture font (measured in chromium): the rank-flow's heading row and
#: one rank row, one line of a chunk's fate (0.82em; two lines at most, the rest ellipsised) and
#: a marker (two lines at most).
FLOW_HEAD_EM, FLOW_ROW_EM, FATE_LINE_EM, MORE_EM = 1.5, 1.5, 1.32, 2.4
FATE_SIZE = 0.82
#: The rank rows may take this share of pane 1 when the fates do not fit beside them.
FLOW_SHARE = 0.6


def rank_flow(trace: Trace, lang: str, *, large: bool = False) -> Markup:
    """Pane 1: a table of stages × ranks with one letter per chunk, gold ★, dropped greyed;
    below, each chunk's label and fate (where it left and why, or its ``[n]`` in the prompt).

    What does not fit the pane at 1280×720 (``large``: in large text) is left out with a
    marker: the deepest ranks first down to :data:`FLOW_SHARE` of the pane, then the last
    fates (gold and kept chunks come first)."""
    cols = flow_columns(trace, lang)
    gids = gold_ids(trace)
    codes: dict[str, str] = {}
    for c in cols:
        for h in c.hits:
            codes.setdefault(h.chunk_id, _code(len(codes)))
    sources = {s.chunk_id: s for s in trace.context.sources}
    depth = max((len(c.hits) for c in cols), default=0)
    room = fit.box("candidates", large).height
    rows = depth
    if FLOW_HEAD_EM + depth * FLOW_ROW_EM > room * FLOW_SHARE:
        rows = max(1, int((room * FLOW_SHARE - FLOW_HEAD_EM - MORE_EM) // FLOW_ROW_EM))
    head = join(tag("th", span(c.title, "ri-lf-h"), title=c.title) for c in cols)
    body: list[Markup] = []
    for rank in range(rows):
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
    if rows < depth:
        hidden = {h.chunk_id for c in cols for h in c.hits[rows:]}
        key = "lec.more.ranks_gold" if hidden & gids else "lec.more.ranks"
        body.append(
            tag(
                "tr",
                tag(
                    "td",
                    span(t(key, lang, a=rows + 1, b=depth), "ri-lec-more"),
                    attrs={"colspan": len(cols) + 1},
                ),
            )
        )
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
    used = FLOW_HEAD_EM + (rows + (rows < depth)) * FLOW_ROW_EM + 0.5  # its bottom margin
    return grid + _fates(trace, cols, codes, gids, lang, room - used, large)


def _fates(
    trace: Trace,
    cols: Sequence[FlowColumn],
    codes: dict[str, str],
    gids: set[str],
    lang: str,
    room: float | None = None,
    large: bool = False,
) -> Markup:
    """One or two lines per chunk: code, ★, where it ended, document #ordinal and a snippet;
    gold first, then kept. ``room``: the ems there are (a last line says how many chunks were
    left out when they do not all fit)."""
    sources = {s.chunk_id: s for s in trace.context.sources}
    kept = {h.chunk_id for h in trace.gate.kept}
    lines: list[Markup] = []
    order = sorted(codes, key=lambda cid: (cid not in gids, cid not in kept, codes[cid].rjust(3)))
    width = fit.box("candidates", large).width
    left = (room if room is not None else float("inf")) - MORE_EM
    for k, cid in enumerate(order):
        chunk = trace.chunks.get(cid)
        s = sources.get(cid)
        fate_text, fate_cls = "", ""
        if cid in kept and s is not None and s.n is not None:
            fate_text = t("lec.fate.prompt", lang, n=s.n, status=tv("source", s.status, lang))
            fate_cls = "ri-chip ok"
        else:
            where = [(c.key, c.title, c.drop[cid]) for c in cols if cid in c.drop]
            if where:
                key, stage, why = where[-1]
                # a kept chunk the context left out: its why names the context stage itself
                fate_text = (
                    why if key == "kept" else t("lec.fate.dropped", lang, stage=stage, why=why)
                )
                fate_cls = "ri-chip lost" if cid in gids else "ri-muted"
            elif cid in kept:
                fate_text, fate_cls = t("lec.fate.kept", lang), "ri-chip ok"
        fate = span(fate_text, fate_cls) if fate_text else Markup("")
        label = span(chunk_label(chunk, cid), "ri-mono")
        text = span(snippet(chunk.content, 90), "ri-muted") if chunk else Markup("")
        cls = (
            "ri-lf-fate"
            + (" ri-goldrow" if cid in gids else "")
            + (" ri-dimrow" if cid not in kept else "")
        )
        title = chunk_label(chunk, cid) + (" · " + snippet(chunk.content, 200) if chunk else "")
        line = div(
            span(codes[cid] + ("★" if cid in gids else ""), "ri-lf-code")
            + " "
            + fate
            + " "
            + label
            + " "
            + text,
            cls,
            title,
        )
        plain = f"{codes[cid]}★ {fate_text} {chunk_label(chunk, cid)} " + (
            snippet(chunk.content, 90) if chunk else ""
        )
        tall = min(2, fit.text_lines(plain, width, size=FATE_SIZE)) * FATE_LINE_EM + 0.1
        rest = len(order) - k - 1
        if tall > left + (MORE_EM if not rest else 0.0):
            lines.append(div(t("lec.more.chunks", lang, n=len(order) - k), "ri-lec-more"))
            break
        left -= tall
        lines.append(line)
    return div(join(lines), "ri-lf-fates")


# ------------------------------------------------------------------ prompt


#: The token strip in the lecture (``.ri-lec .ri-tokens``): font size and line height in ems of
#: the lecture font, and each token's border and padding in pixels.
TOK_SIZE, TOK_LINE_EM, TOK_PAD_PX = 0.8, 1.28, 3
#: Line heights in ems of the lecture font: a facts line (0.85em), a warning line (0.9em) with its
#: box, body text (``.ri-text``) and its small print.
FACTS_LINE_EM, WARN_LINE_EM, WARN_BOX_EM, TEXT_LINE_EM = 1.25, 1.35, 0.8, 1.55
#: Shares of the token lines when a prompt does not fit: with a cut, its head, the run before the
#: cut and the run after it; without one, its head and its end (the question).
CUT_SHARES, TAIL_SHARES = (0.3, 0.45, 0.25), (0.6, 0.4)


def prompt_windows(
    pieces: Sequence[str], cut: int, room: fit.Box, lines: int
) -> list[tuple[int, int]]:
    """The runs ``[lo, hi)`` of ``pieces`` a token strip of ``lines`` lines in ``room`` shows:
    all of it when it fits; else its head and, when there is a cut, the runs before and after
    the cut (the marker in view), or else its end; a line is kept for each gap's marker."""
    size, pad = TOK_SIZE, TOK_PAD_PX * room.px
    n = len(pieces)
    ends = fit.strip_lines(pieces, room.width, size=size, pad=pad)
    if not ends or ends[-1] < lines:
        return [(0, n)]
    take = {"size": size, "pad": pad}
    if cut < n:
        h, bf, af = (max(1, int((lines - 2) * share)) for share in CUT_SHARES)
        head = fit.take_forward(pieces, 0, h, room.width, **take)
        lo = max(head, fit.take_back(pieces, cut, bf, room.width, **take))
        hi = fit.take_forward(pieces, cut, af, room.width, **take)
        spans = [(0, head), (lo, hi)] if lo > head else [(0, hi)]
    else:
        h, tl = (max(1, int((lines - 1) * share)) for share in TAIL_SHARES)
        head = fit.take_forward(pieces, 0, h, room.width, **take)
        lo = max(head, fit.take_back(pieces, n, tl, room.width, **take))
        spans = [(0, head), (lo, n)] if lo > head else [(0, n)]
    return [sp for sp in spans if sp[1] > sp[0]]


def cut_window(
    pieces: Sequence[str], cut: int, lang: str, *, room: fit.Box | None = None, lines: int = 30
) -> Markup:
    """The prompt as tokens in ``lines`` lines of ``room`` (default: pane 2 at 1280×720),
    beyond the cut greyed, the budget-cut marker in view: :func:`prompt_windows`, each gap
    named by its token count."""
    room = room or fit.box("prompt", False)
    out: list[Markup] = []
    prev = 0
    for lo, hi in prompt_windows(pieces, cut, room, lines):
        if lo > prev:
            out.append(span(t("lec.tokens_elided", lang, n=lo - prev), "ri-lec-gap ri-lec-more"))
        for i in range(lo, hi):
            if i == cut:
                out.append(span(t("ins.cut_here", lang), "ri-trunc"))
            out.append(span(pieces[i], "ri-tok ri-beyond" if i >= cut else "ri-tok", str(i)))
        prev = hi
    if prev < len(pieces):
        out.append(
            span(t("lec.tokens_elided", lang, n=len(pieces) - prev), "ri-lec-gap ri-lec-more")
        )
    return tag("div", join(out), cls="ri-tokens")


def _em_lines(text: str, room: fit.Box, size: float, line_em: float) -> float:
    """The height in ems of ``text`` at font ``size`` wrapped in ``room``, ``line_em`` a line."""
    return fit.text_lines(text, room.width, size=size) * line_em


def prompt_pane(
    trace: Trace, lang: str, pieces: tuple[Sequence[str], int] | None, *, large: bool = False
) -> Markup:
    """Pane 2: the token counts, the truncation warning and the prompt as tokens, beyond the cut
    greyed; what does not fit the pane at 1280×720 left out with its token count."""
    ctx = trace.context
    if ctx.status == "skipped":
        return div(t("ins.context_skipped", lang, message=said(ctx, lang)), "ri-lec-note")
    room = fit.box("prompt", large)
    facts = t(
        "cmp.tokens",
        lang,
        before=ctx.tokens_before if ctx.tokens_before is not None else "—",
        after=ctx.tokens_after if ctx.tokens_after is not None else "—",
        budget=ctx.budget_tokens,
    )
    facts += " · " + tv("policy", ctx.policy, lang)
    out = div(facts, "ri-muted ri-lec-facts")
    used = _em_lines(facts, room, 0.85, FACTS_LINE_EM) + 0.4
    warnings = [
        w
        for w, on in (("ins.truncated", ctx.truncated), ("ins.question_cut", ctx.question_cut))
        if on
    ]
    for key in warnings:
        out += div(t(key, lang), "ri-lec-warn")
        used += _em_lines(t(key, lang), room, 0.9, WARN_LINE_EM) + WARN_BOX_EM
    lines = int((room.height - used) // TOK_LINE_EM)
    if pieces:
        return out + cut_window(pieces[0], pieces[1], lang, room=room, lines=lines)
    text = ctx.actual_input_text or ctx.prompt_text
    out += div(t("ins.no_pieces", lang), "ri-muted")
    used += _em_lines(t("ins.no_pieces", lang), room, 1.0, TEXT_LINE_EM)
    n = fit.fit_text(text, room.width, int((room.height - used) // TEXT_LINE_EM) - 1, mono=True)
    out += div(text[:n], "ri-text ri-mono")
    if n < len(text):
        out += div(t("lec.more.chars", lang, n=len(text) - n), "ri-lec-more")
    return out


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


#: Heights in ems of the lecture font: the answer's mark chip, a claim line (1.5) and its
#: margins, the selected claim's rule, an evidence box's border, padding and margin (pixels).
MARK_EM, CLAIM_LINE_EM, LEGEND_LINE_EM, QUALITY_LINE_EM = 1.9, 1.5, 1.45, 1.15
CLAIM_GAP_PX, DETAIL_PX, SRC_BOX_PX = 6, 11, 20


@dataclass(frozen=True)
class Making:
    """An answer still being made, as pane 3 shows it: ``line`` says so (the prompt's size,
    the time estimate and the seconds so far; its Stop is in the toolbar) and ``text`` is what
    the model wrote so far."""

    line: str
    text: str = ""


def making_pane(making: Making, large: bool = False) -> Markup:
    """Pane 3 while its answer is made: the line, then the text so far (its head when it is
    longer than the pane; no verdict, no mark: nothing is judged yet)."""
    room = fit.box("answer", large)
    used = _em_lines(making.line, room, 0.85, FACTS_LINE_EM) + 1.0
    n = fit.fit_text(making.text, room.width, int((room.height - used) // TEXT_LINE_EM) - 1)
    body = div(making.line, "ri-lec-note ri-lec-making")
    if making.text:
        body += marked_text(making.text[:n] + " ▌", [])
    return body


def answer_pane(
    trace: Trace,
    lang: str,
    selected: int | None,
    *,
    judged: bool = True,
    question: Question | None = None,
    large: bool = False,
    making: Making | None = None,
) -> Markup:
    """Pane 3: the generator's facts and the answer; once ``judged`` (the claims' step), its own
    mark (does it answer the question?) and every claim coloured by its support verdict. An
    answer longer than the pane at 1280×720 ends in a marker with the characters left out.
    ``making``: the answer is still being made (:func:`making_pane`)."""
    if making is not None:
        return making_pane(making, large)
    g = trace.generation
    kind, text = generation_status(trace, lang)
    mark = answer_mark_chip(trace, question, lang) if judged else Markup("")
    if kind != "ok" or g.answer is None:
        return div(text, f"ri-lec-note {kind}") + (mark if trace.gate.refused else Markup(""))
    room = fit.box("answer", large)
    used = _em_lines(text, room, 0.85, FACTS_LINE_EM) + 0.4 + (MARK_EM if judged else 0.0)
    n = fit.fit_text(g.answer, room.width, int((room.height - used) // TEXT_LINE_EM) - 1)
    shown = g.answer[:n]
    more = (
        div(t("lec.more.answer", lang, n=len(g.answer) - n), "ri-lec-more")
        if n < len(g.answer)
        else Markup("")
    )
    if not judged:  # the answer as the model wrote it: no verdict before its step
        return div(text, "ri-muted ri-lec-facts") + marked_text(shown, []) + more
    return (
        div(text, "ri-muted ri-lec-facts")
        + div(mark)
        + marked_text(shown, claim_marks(g.answer, trace.support, selected))
        + more
    )


def claims_pane(trace: Trace, lang: str, selected: int | None, *, large: bool = False) -> Markup:
    """Pane 4: each claim as a verdict-coloured line; the selected claim's evidence, best
    first. What does not fit the pane at 1280×720 is left out with a marker: the last claims
    (down to half the pane when one is selected), then the lesser evidence."""
    sup = trace.support
    if sup.status != "ok":
        status = tv("status", sup.status, lang)
        note = t("ins.support_status", lang, status=status, message=said(sup, lang))
        return div(note, "ri-lec-note")
    if not sup.claims:
        return div(t("lec.no_claims", lang), "ri-lec-note")
    room = fit.box("claims", large)
    legend_text = " ".join(tv("verdict", v, lang) for v in VERDICTS) + " " + t("ins.nonum", lang)
    legend_text += " " + t("ins.suspect", lang)
    quality = support_quality(sup, lang)  # what judged the claims and how often it is right
    left = room.height - _em_lines(legend_text, room, 0.8, LEGEND_LINE_EM) - 0.3
    left -= _em_lines(quality, room, 0.75, QUALITY_LINE_EM) + 0.3
    claims_room = left * (0.5 if selected is not None else 1.0) - MORE_EM
    items = []
    shown = 0
    for i, c in enumerate(sup.claims):
        label = claim_label(sup, i, lang, limit=200)
        tall = _em_lines(label, room, 1.0, CLAIM_LINE_EM) + CLAIM_GAP_PX * room.px
        if tall > claims_room and i != selected:
            continue
        claims_room -= tall
        left -= tall
        shown += 1
        cls = f"ri-claim ri-v-{c.verdict}" + (" ri-sel" if i == selected else "")
        items.append(div(span(label, cls), "ri-lec-claim"))
    if shown < len(sup.claims):
        items.append(div(t("lec.more.claims", lang, n=len(sup.claims) - shown), "ri-lec-more"))
        left -= MORE_EM
    out = verdict_legend(lang) + div(quality, "ri-lec-quality") + div(join(items), "ri-lec-claims")
    if selected is None:
        return out
    return out + _claim_detail(trace, selected, lang, room, left)


def _claim_detail(trace: Trace, selected: int, lang: str, room: fit.Box, left: float) -> Markup:
    """The selected claim's verdict, warning and reason, then its evidence, best first, in
    the ``left`` em of the pane ``room`` (:func:`claims_pane`)."""
    sup = trace.support
    claim = sup.claims[selected]
    cites = ", ".join(f"[{n}]" for n in claim.citations) or "—"
    word = tv("verdict", claim.verdict, lang)
    head = t("lec.claim_head", lang, i=selected + 1, verdict=word, cites=cites)
    detail = div(head, "ri-lec-facts")
    left -= DETAIL_PX * room.px + _em_lines(head, room, 0.85, FACTS_LINE_EM) + 0.3
    if claim.numbers_in_no_source:
        warn = t("ins.numbers_missing", lang, numbers=", ".join(claim.numbers_in_no_source))
        detail += div(warn, "ri-lec-warn")
        left -= _em_lines(warn, room, 0.9, WARN_LINE_EM) + WARN_BOX_EM
    if claim.reason:
        reason = claim_reason(claim, lang)
        detail += div(reason, "ri-muted")
        left -= _em_lines(reason, room, 1.0, FACTS_LINE_EM * 1.15)
    ranked = sorted(claim.evidence, key=lambda e: -e.score)
    min_p, painted = support_threshold(sup, trace.config), 0
    if not ranked:
        detail += div(t("ins.no_evidence", lang), "ri-muted")
    left -= MORE_EM
    for j, e in enumerate(ranked):
        size = 1.0 if j == 0 else 0.9
        h_text = f"[{e.n}] " + t(
            "lec.ev_score", lang, score=fmt(e.score, 2), overlap=fmt(e.overlap, 2)
        )
        box_em = SRC_BOX_PX * room.px + _em_lines(h_text, room, 0.85 * size, FACTS_LINE_EM)
        width = room.width - 18 * room.px  # the box's padding and border
        lines = int((left - box_em) // (TEXT_LINE_EM * size))
        n = fit.fit_text(e.sentence, width, lines, size=size)
        if n < min(len(e.sentence), 40):  # not even a useful head of it: say what is left
            detail += div(t("lec.more.evidence", lang, n=len(ranked) - j), "ri-lec-more")
            break
        sentence = e.sentence[:n] + ("…" if n < len(e.sentence) else "")
        left -= box_em + fit.text_lines(sentence, width, size=size) * TEXT_LINE_EM * size
        head_span = span(h_text, "ri-src-h")
        paint = []  # only evidence is painted, in the claim's colour (the best one outlined)
        if is_evidence(e, min_p):
            best = " ri-ev-best" if not painted else ""
            paint = [Mark(0, len(sentence), f"ri-ev ri-v-{claim.verdict}{best}")]
            painted += 1
        body = marked_text(sentence, paint)
        detail += div(head_span + body, "ri-src" + ("" if j == 0 else " ri-lec-minor"))
    return div(detail, "ri-lec-detail")


# --------------------------------------------------------------------- view


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
    making: Making | None = None,
) -> Markup:
    """The verdict line and the four panes side by side (``height`` tall); panes after ``step``
    show only their question. ``question``: the set question asked (its gold and whether it
    can be answered), None for free text; ``making``: the answer is still being made (pane 3
    says so, pane 4 waits for it)."""
    if not 1 <= step <= STEPS:
        raise ValueError(f"step = {step!r} is not valid; valid choices: 1 to {STEPS}")
    judged = step >= JUDGED_STEP
    bodies = {
        "candidates": lambda: rank_flow(trace, lang, large=large),
        "prompt": lambda: prompt_pane(trace, lang, pieces, large=large),
        "answer": lambda: answer_pane(
            trace,
            lang,
            selected if judged else None,
            judged=judged,
            question=question,
            large=large,
            making=making,
        ),
        "claims": lambda: (
            div(t("lec.claims_wait", lang), "ri-lec-note")
            if making is not None
            else claims_pane(trace, lang, selected, large=large)
        ),
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
    changed = config_changes(trace.config)
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
