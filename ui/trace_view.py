"""What several pages read off a ``Trace``, as plain values and escaped HTML; no Streamlit.

Inspect and Compare draw these through ``ui.render``; the Lecture view (``ui.lecture.view``)
and its slide export build on them directly, so every page words and marks a Trace the same
way. Nothing here ranks, scores or gates: every fact comes from the ``Trace``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rag_core.answer.support import contradicts
from rag_core.answer.support_head import SIGNS
from rag_core.evaluation.answer_marks import answer_mark
from rag_core.types import (
    Chunk,
    Claim,
    Evidence,
    GenerationStage,
    NeedleLoss,
    Question,
    SupportStage,
    Trace,
)

from .html import Mark, Markup, join, snippet, span, tag
from .i18n import TEXT, notice_text, said, t, tv

VERDICTS = (
    "supported",
    "supported-elsewhere",
    "uncited",
    "unsupported",
    "contradicted",
    "invalid-citation",
    "not-a-claim",
)


def gold_ids(trace: Trace) -> set[str]:
    """Chunk ids that wholly contain some gold needle (from ``trace.gold``)."""
    if trace.gold is None:
        return set()
    return {cid for ids in trace.gold.chunk_ids for cid in ids}


def chunk_label(chunk: Chunk | None, chunk_id: str) -> str:
    if chunk is None:
        return chunk_id
    return f"{chunk.doc_id} #{chunk.ordinal}"


def fmt(value: float | None, digits: int = 4) -> str:
    if value is None:
        return "—"
    return f"{value:.{digits}f}"


def best_rank(values: Iterable[int | None] | None) -> int | None:
    vals = [v for v in values or () if v is not None]
    return min(vals) if vals else None


def destroyed_needles(trace: Trace) -> list[NeedleLoss]:
    """The chunking's destroyed needles that belong to this question's gold (none without gold)."""
    g = trace.gold
    if g is None:
        return []
    own = {(n.doc_id, n.text) for n in g.needles}
    return [x for x in trace.chunking.destroyed if (x.doc_id, x.needle) in own]


def citations_fell_back(config: Mapping[str, Any], generation: GenerationStage) -> bool:
    """True when the config asked for enforced citations and the generator ran with free ones.

    Read from data: the Trace's config (``generation.citations``) against the citation
    mode the generation stage records in its ``params``, not from its message's wording.
    """
    asked = config.get("generation", {}).get("citations")
    return (
        generation.status == "ok"
        and asked == "enforced"
        and generation.params.get("citations") == "free"
    )


def cite_free_text(generation: GenerationStage, lang: str) -> str:
    """Why enforced citations ran free: an endpoint's own reason (no grammar for the server,
    none sent, refused, ignored; ``params["citations_why"]``), else the in-process one."""
    p = generation.params
    why = p.get("citations_why")
    if why in ("no_grammar", "grammar_none", "refused", "ignored"):
        return t(
            f"ins.cite_free.{why}",
            lang,
            endpoint=p.get("endpoint") or "—",
            kind=p.get("endpoint_grammar") or "—",
        )
    return t("ins.cite_free", lang, model=generation.model or "—")


def token_strip(pieces: Sequence[str], cut: int, lang: str) -> Markup:
    """The prompt as tokens; a marker at ``cut`` and the tokens beyond it greyed."""
    out: list[Markup] = []
    for i, p in enumerate(pieces):
        if i == cut:
            out.append(span(t("ins.cut_here", lang), "ri-trunc"))
        out.append(span(p, "ri-tok ri-beyond" if i >= cut else "ri-tok", str(i)))
    return tag("div", join(out), cls="ri-tokens")


def generation_status(trace: Trace, lang: str) -> tuple[str, str]:
    """``(kind, text)`` of the generation stage: kind is ``info``/``warning``/``error`` when
    no answer was made (the text says why), ``ok`` with the model, timing and token facts."""
    g = trace.generation
    if g.status == "skipped" and trace.config.get("generation", {}).get("model") == "none":
        return "info", t("ins.gen_off", lang)  # worded here, not the core's English reason
    if g.status == "skipped":
        return "info", t("ins.gen_skipped", lang, message=said(g, lang))
    if g.status == "unavailable":
        return "warning", t(
            "ins.gen_unavailable", lang, model=g.model or "—", message=said(g, lang)
        )
    if g.status == "error":
        return "error", said(g, lang)
    params = g.params or {}
    facts = [
        f"{g.model} · {params['dtype']}" if g.model and params.get("dtype") else g.model or "",
        citation_mode_label(g, lang),
        t(
            "ins.gen_facts",
            lang,
            seconds=fmt(g.seconds, 2),
            tin=g.input_tokens if g.input_tokens is not None else "—",
            tout=g.output_tokens if g.output_tokens is not None else "—",
        ),
    ]
    if params.get("prefill_tokens_per_s"):
        decode = params.get("decode_tokens_per_s")
        facts.append(
            t(
                "ins.gen_speed",
                lang,
                first=fmt(params["prefill_seconds"], 1),
                prefill=f"{params['prefill_tokens_per_s']:.0f}",
                decode=f"{decode:.1f}" if decode else "—",
            )
        )
    facts += endpoint_facts(params, lang)
    if g.cached:
        facts.append(t("ins.cached", lang))
    return "ok", " · ".join(f for f in facts if f)


def endpoint_facts(params: Mapping[str, Any], lang: str) -> list[str]:
    """For an endpoint's answer: where it came from and how it was sent, and our prompt count
    next to the server's ``usage.prompt_tokens`` (equal, different, or approximate)."""
    if not params.get("endpoint"):
        return []
    ours, server = params.get("prompt_tokens_ours"), params.get("prompt_tokens_server")
    if params.get("prompt_tokens_ours_exact") is False:
        verdict = t("ins.ep_count_approx", lang)
    elif server is None:
        verdict = t("ins.ep_count_unreported", lang)
    else:
        verdict = t("ins.ep_count_equal" if ours == server else "ins.ep_count_differ", lang)
    sent = params.get("sent_as") or "—"
    return [
        t("ins.ep_sent", lang, endpoint=params["endpoint"], sent=t(f"ins.ep_sent.{sent}", lang))
        if f"ins.ep_sent.{sent}" in TEXT
        else t("ins.ep_sent", lang, endpoint=params["endpoint"], sent=sent),
        t(
            "ins.ep_counts",
            lang,
            ours=ours if ours is not None else "—",
            server=server if server is not None else "—",
            verdict=verdict,
        ),
    ]


def citation_mode_label(g: Any, lang: str) -> str:
    """ "citations enforced by constrained decoding" or "citations free", from the mode the
    generation used."""
    mode = (g.params or {}).get("citations")
    return t(f"ins.citations_{mode}", lang) if mode in ("free", "enforced") else ""


def claim_marks(answer: str, support: SupportStage, selected: int | None) -> list[Mark]:
    """Marks for claims (by verdict) and for their numbers found in no source."""
    marks: list[Mark] = []
    for i, c in enumerate(support.claims):
        cls = f"ri-claim ri-v-{c.verdict}" + (" ri-sel" if i == selected else "")
        marks.append(Mark(c.start, c.end, cls, c.verdict))
        for num in c.numbers_in_no_source:
            j = answer.find(num, c.start, c.end)
            if j >= 0:
                marks.append(Mark(j, j + len(num), "ri-nonum", "number in no source"))
        if c.suspect and c.suspect != ((c.start, c.end),):
            marks += [Mark(a, b, "ri-suspect", "suspect words") for a, b in c.suspect]
    return marks


def support_threshold(support: SupportStage, config: Mapping[str, Any]) -> float | None:
    """The ``support.min_p`` the claims were judged with (the stage's params, else the Trace's
    config; None when neither says)."""
    value = (support.params or {}).get("min_p", config.get("support", {}).get("min_p"))
    return float(value) if isinstance(value, int | float) else None


def is_evidence(e: Evidence, min_p: float | None) -> bool:
    """Is this window evidence for its claim: one that backs it (``p_supported ≥ min_p``) or
    one that contradicts it (the checker's veto, :func:`~rag_core.answer.support.contradicts`:
    another value in a window covering most of the claim)? A source's best window that does
    neither — another number in a window about something else included — is only a candidate
    the checker looked at (its score is in the evidence table), and is not painted."""
    return contradicts(e) or (min_p is not None and e.score >= min_p)


def evidence_marks(
    trace: Trace, selected: int | None, n: int, offset: int, lang: str
) -> list[Mark]:
    """Marks on source ``[n]``'s quote (which starts at document offset ``offset``) for the
    evidence windows of claim ``selected``, each sentence in the claim's verdict colour, the
    best one outlined; nothing for a window that is not evidence (:func:`is_evidence`)."""
    sup = trace.support
    if selected is None or not 0 <= selected < len(sup.claims):
        return []
    claim = sup.claims[selected]
    min_p = support_threshold(sup, trace.config)
    windows = [e for e in claim.evidence if is_evidence(e, min_p)]
    best = max((e.score for e in windows), default=None)
    marks: list[Mark] = []
    for e in windows:
        if e.n != n:
            continue
        cls = f"ri-ev ri-v-{claim.verdict}" + (" ri-ev-best" if e.score == best else "")
        for a, b in e.spans or ((e.start, e.end),):  # each sentence of a window
            marks.append(
                Mark(a - offset, b - offset, cls, t("ins.evidence_of", lang, n=selected + 1))
            )
    return marks


def verdict_legend(lang: str) -> Markup:
    """One coloured chip per support verdict, and the number-in-no-source mark."""
    legend = join(span(tv("verdict", v, lang), f"ri-claim ri-v-{v}") + " " for v in VERDICTS)
    tail = span(t("ins.nonum", lang), "ri-nonum") + " " + span(t("ins.suspect", lang), "ri-suspect")
    return tag("div", legend + tail, cls="ri-legend")


def claim_reason(claim: Claim, lang: str) -> str:
    """Why the claim got its verdict (its ``notice``), in ``lang``; a claim from an older trace
    without one shows its English ``reason``."""
    return notice_text(claim.notice, lang) if claim.notice is not None else claim.reason


def claim_label(support: SupportStage, i: int, lang: str, limit: int = 70) -> str:
    """``"2. [verdict] claim text…"`` (plain text) for pickers."""
    c = support.claims[i]
    return f"{i + 1}. [{tv('verdict', c.verdict, lang)}] {snippet(c.text, limit)}"


def answer_mark_chip(
    trace: Trace, question: Question | None, lang: str, *, short: bool = False
) -> Markup:
    """The answer's own mark (:func:`rag_core.evaluation.answer_marks.answer_mark`) as a chip: green
    only when it answers the question (or rightly refuses), whatever its claims' support.
    ``short``: the mark alone, without its "Answer:" head (beside a heading that says it)."""
    mark = answer_mark(trace, question)
    worded = tv("mark", mark, lang)
    return span(
        worded if short else t("mark.head", lang, mark=worded),
        f"ri-mark ri-mark-{mark}",
        t("mark.help", lang),
    )


#: Each feature of the support head, for the signals a claim's evidence keeps.
SIGNAL_KEYS = (
    "coverage", "coverage_source", "cosine_z", "entity_novelty", "numbers_missing",
    "number_conflict", "numbers_found", "negation_mismatch", "log_terms", "log_novel",
    "negated_only", "question_coverage", "reading", "source_share", "logprob_mean",
    "logprob_min", "low_prob", "hidden",
)  # fmt: skip


def signal_word(name: str, value: float, lang: str) -> str:
    """What signal ``name`` saw, in ``lang``. A feature whose weight has a fixed sign
    (``support_head.SIGNS``) says which way it was ("names not in the source" when it lowered
    ``p_supported``, "its names are in the source" when it raised it); the others are named."""
    if name in SIGNS:
        return t(f"signal.{name}.{'up' if value >= 0 else 'down'}", lang)
    return t(f"signal.{name}", lang) if name in SIGNAL_KEYS else name


def signal_text(signals: Sequence[tuple[str, float]], lang: str) -> str:
    """``↑ the claim's words are in the window (+1.20) · ↓ …``: what moved ``p_supported`` most
    (``Evidence.signals``), in ``lang``; ↑ raised it, ↓ lowered it."""
    return " · ".join(
        f"{'↑' if value >= 0 else '↓'} {signal_word(name, value, lang)} ({value:+.2f})"
        for name, value in signals
    )


def support_quality(support: SupportStage, lang: str) -> str:
    """One line: what judged the claims and how good it measured (``params["quality"]``, the
    figures ``bench/fit_support.py`` measured on RAGTruth dev rows it was never fitted to)."""
    params = support.params or {}
    q = params.get("quality") or {}
    kind = t("sup.kind.readings" if params.get("readings") else "sup.kind.lexical", lang)
    if not q:
        return t("sup.quality.unmeasured", lang, kind=kind)
    return t(
        "sup.quality",
        lang,
        kind=kind,
        f1=float(q.get("F1", 0.0)),
        auroc=float(q.get("AUROC", 0.0)),
        wrong=float(q.get("red_wrong_in_10", 0.0)),
    )
