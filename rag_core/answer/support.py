"""Per-claim support: is each claim of the answer backed by the sources, and how likely?

1. **Claims** (:mod:`rag_core.answer.claims`): sentences and whole list items, citations
   attached (``[n]``, ``[n, m]``, ``[n][m]``, ``Source n``/``Passage n``; trailing or leading
   style). Spans that assert nothing about the sources — refusals, framing, pleasantries, meta
   statements, bare citations — get the verdict ``not-a-claim`` and are never judged.
2. **Evidence** (:mod:`rag_core.answer.evidence`): for each claim and each source placed in the
   prompt, the window of 1–3 consecutive sentences (or the whole short source) with the
   highest ``p_supported``; :class:`~rag_core.types.Evidence` records the window's text, its
   document offsets and the offsets of every sentence in it (``spans``).
3. **Probability** (:mod:`rag_core.answer.support_head`): ``p_supported`` of a window is a
   head learned from RAGTruth's labelled answers over the window's lexical features (term
   coverage — stemmed English / Kiwi morphemes —, the corpus embedder's cosine, numbers found /
   missing / contradicted, negation, name novelty, the question's terms) and, when a local
   generator read the answer (:mod:`rag_core.answer.lookback`), what its attention and its
   probabilities say about the claim; with ``support.judge`` on, the judge's ``P(yes)`` is
   stacked on it (it can rescue as well as veto). A source **supports** the claim when
   ``p_supported ≥ support.min_p``. The readings are the claim's, the same for every source, so
   a source is capped at "no evidence either way" when its window states none of the claim's
   terms, or when it lacks a number of the claim while another source backs the claim with a
   window that states them all (:func:`values_stated_elsewhere`).
4. **Verdict**:

   - ``supported``: a cited source supports it;
   - ``invalid-citation``: some ``[n]`` is not a source in the prompt and no cited source
     supports it;
   - ``supported-elsewhere``: cited sources do not support it, another does;
   - ``uncited``: no citation, but a source supports it;
   - ``contradicted``: no source supports it and its best evidence states another number or
     date, the negation, or that the claim's day is a closed day (RAGTruth's "conflict");
   - ``unsupported``: no source supports it ("baseless");
   - ``not-a-claim``: step 1.

   A response is *flagged* (:func:`flagged`) when a claim is ``unsupported``,
   ``contradicted`` or ``invalid-citation`` (it names a source that is not there), or is
   ``supported-elsewhere`` while naming in words the passage that does not support it
   ("Passage 2 says …").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, get_args, get_type_hints

import numpy as np

from rag_core.answer.claims import (  # noqa: F401  (re-exported: the support API)
    CITATION_GROUP,
    NON_CLAIM_RULES,
    SOURCE_REF,
    citations_in,
    is_refusal,
    judged_start,
    non_claim_kind,
    split_claims,
    strip_citations,
)
from rag_core.answer.evidence import (  # noqa: F401  (re-exported)
    NUMBER,
    STOPWORDS,
    UNIT_ALIASES,
    Window,
    analyzer_for,
    conflicting,
    entity_terms,
    has_negation,
    is_unit,
    normalise_number,
    numbers_in,
    quantities_in,
    quantity_in,
    quote_sentences,
    quote_units,
    terms,
    windows,
)
from rag_core.answer.judge import apply_judge
from rag_core.answer.lookback import AnswerReading, ClaimReading, claim_readings
from rag_core.answer.schedule import closed_for, is_day_term
from rag_core.answer.support_head import LEXICAL, READING, Linear, SupportHead, load_head, sigmoid
from rag_core.answer.views import ClaimView, SourceView, claim_view, encode_cached, source_view
from rag_core.config import SupportConfig
from rag_core.models.generators import TextGenerator
from rag_core.types import Claim, ContextStage, Evidence, Notice, Source, SupportStage
from rag_core.wording import declare, joined, listed, notice

#: What the support stage says (``SupportStage.notice``; English in ``rag_core.wording``).
SUPPORT_SKIPPED_NO_ANSWER = declare("support.skipped.no_answer")
SUPPORT_NO_CLAIMS = declare("support.no_claims", "kinds")
SUPPORT_SUMMARY = declare("support.summary", "judged", "counts")
SUPPORT_COUNT = declare("support.count", "count", "verdict")
#: Each verdict of ``Claim.verdict`` as a code (its word in a count).
VERDICT_WORDS = {
    v: declare(f"support.verdict.{v}") for v in get_args(get_type_hints(Claim)["verdict"])
}
#: Why a claim got its verdict (``Claim.notice``): one code per verdict of step 4, and the
#: parts its wording is built from (an evidence's figures, the rule, optional tails).
WHY_SUPPORTED = declare("support.why.supported", "backing", "invalid")
WHY_INVALID = declare("support.why.invalid_citation", "numbers", "sources", "cited")
WHY_ELSEWHERE = declare("support.why.elsewhere", "cited", "rule", "others")
WHY_UNCITED = declare("support.why.uncited", "others")
WHY_CONTRADICTED = declare("support.why.contradicted", "head", "contradiction", "evidence")
WHY_UNSUPPORTED = declare("support.why.unsupported", "head", "rule", "closest")
WHY_NOT_A_CLAIM = declare("support.why.not_a_claim", "kind")
WHY_NOT_A_SOURCE = declare("support.why.not_a_source", "numbers")
WHY_ALSO_CITED = declare("support.why.also_cited", "evidence")
WHY_NO_CITATION = declare("support.why.no_citation")
WHY_CLOSEST = declare("support.why.closest", "evidence")
WHY_RULE = declare("support.why.rule", "min_p")
EVIDENCE = declare("support.evidence", "n", "p", "coverage", "cosine", "lacks", "judge")
EVIDENCE_COSINE = declare("support.evidence.cosine", "value")
EVIDENCE_LACKS = declare("support.evidence.lacks", "numbers")
EVIDENCE_JUDGE = declare("support.evidence.judge", "value")
#: What a span that is not a claim is, by the name of its rule in ``NON_CLAIM_RULES``.
KIND_WORDS = {
    name: declare(f"support.kind.{name.replace(' ', '_')}") for name, _rule in NON_CLAIM_RULES
}
KIND_EMPTY = declare("support.kind.empty")

Verdict = str
#: A negation mismatch contradicts only one prose sentence (≤ 400 characters) that states this
#: share of the claim's terms (a copied sentence with "not" added or dropped), not any negated
#: neighbour nor a long record such as a JSON object.
NEGATION_COVERAGE = 0.8
#: A different number contradicts only a window that states this share of the claim's terms.
CONFLICT_COVERAGE = 0.5
NUMBERS_FOUND = LEXICAL.index("numbers_found")
#: A positive claim is contradicted when its window states this share of its terms only in
#: explicitly negated units (a record's ``false``) and the source nowhere positively.
NEGATED_ONLY_SHARE = 0.5
#: Why a window contradicts a claim (a veto, :func:`contradicts`): another value for one of
#: the claim's numbers, one copied sentence with the negation added or dropped, or a record's
#: stated ``false`` for what the claim asserts.
CONFLICT_VALUE = declare("support.conflict.value", "numbers")
NEGATION_FLIP = declare("support.conflict.negation_flip")
NEGATED_FACT = declare("support.conflict.negated_fact")
CLOSED_DAY = declare("support.conflict.closed", "days")
#: Verdicts that flag a response as hallucinated (and ``supported-elsewhere`` when the claim
#: names the passage in words: :func:`flags`).
FLAG_VERDICTS = ("unsupported", "contradicted", "invalid-citation")
#: The head's measured figures a support stage carries (``params["quality"]``, shown on the
#: support pane): response F1, AUROC and how often in 10 a red claim is wrong.
QUALITY_KEYS = ("measured_on", "F1", "AUROC", "red_wrong_in_10")
#: A window that states none of the claim's own terms (only the question's, say) says nothing
#: for it: its ``p_supported`` is at most this, "no evidence either way" (a judge's confident
#: yes can still lift it). The readings do not lift it: they are the claim's, the same for
#: every source, and say that some source grounds it, not that this one does.
NO_TERMS_P = 0.5
#: How many of a claim's strongest signals its evidence keeps (``Evidence.signals``).
SIGNALS_KEPT = 3


def window_features(
    c: ClaimView, sv: SourceView, w: Window, cosine_z: float
) -> tuple[list[float], tuple[str, ...], Notice | None]:
    """The :data:`~rag_core.answer.support_head.LEXICAL` features of claim ``c`` against window
    ``w``, the claim's numbers the source lacks, and what contradicts (None when nothing).

    Negation is compared with the window's sentence that states most of the claim's terms (a
    negated neighbour — "Don't peek." beside the step the claim copies — is not the claim's)."""
    A = c.answer_terms
    wt = frozenset().union(*sv.sentence_terms[w.first : w.last + 1])
    own = max(range(w.first, w.last + 1), key=lambda i: len(A & sv.sentence_terms[i]))
    wn = set().union(*sv.sentence_numbers[w.first : w.last + 1])
    cov = len(A & wt) / len(A) if A else 0.0
    cov_src = len(A & sv.all_terms) / len(A) if A else 0.0
    ent = len(c.entities - sv.all_terms) / len(c.entities) if c.entities else 0.0
    missing = tuple(x for x, v, u in c.quantities if not quantity_in(v, u, set(sv.all_numbers)))
    conflict = [x for x, v, u in c.quantities if x in missing and conflicting(v, u, wn)]
    found = bool(c.quantities) and all(quantity_in(v, u, wn) for _x, v, u in c.quantities)
    neg = c.negated != sv.sentence_negated[own]
    f = [
        cov,
        cov_src,
        cosine_z,
        ent,
        len(missing) / len(c.quantities) if c.quantities else 0.0,
        float(bool(conflict)),
        float(found),
        float(neg),
        math.log1p(len(A)),
        math.log1p(len(A - sv.all_terms)),
        0.0 if c.negated or not A else len((A & sv.all_terms) - sv.positive_terms) / len(A),
        len(c.question_terms & wt) / len(c.question_terms) if c.question_terms else 1.0,
    ]
    why = None
    if conflict:
        why = notice(CONFLICT_VALUE, numbers=", ".join(conflict))
    elif neg and cov >= NEGATION_COVERAGE and w.first == w.last and w.end - w.start <= 400:
        why = notice(NEGATION_FLIP)
    elif not c.negated and A and _negated_here(A, sv, w) / len(A) >= NEGATED_ONLY_SHARE:
        why = notice(NEGATED_FACT)
    elif shut := closed_on(c, sv, w):
        why = notice(CLOSED_DAY, days=", ".join(shut))
    return f, missing, why


def values_unstated(c: ClaimView, sv: SourceView) -> bool:
    """Does ``sv`` lack one of short answer ``c``'s values (:attr:`ClaimView.values`) in every
    sentence that shares a term with the claim other than its numbers (anywhere, when the claim
    has no other term)? "2022년에는 내국인 관광객이 1명을 찾은 해가 되었다" is not backed by a
    source whose only "1명" is in "어른 1명 기준 5,000원"."""
    if not c.values:
        return False
    stated = sv.all_numbers if not c.about else frozenset().union(
        *(n for t, n in zip(sv.sentence_terms, sv.sentence_numbers, strict=True) if t & c.about)
    )  # fmt: skip
    return not all(quantity_in(v, u, stated) for v, u in c.values)


def closed_on(c: ClaimView, sv: SourceView, w: Window) -> tuple[str, ...]:
    """The claim's day phrases that window ``w`` says are closed for what the claim is about
    (:func:`rag_core.answer.schedule.closed_for`)."""
    if not c.days or not sv.closures:
        return ()
    # all its terms: "전화 상담" stays what the claim is about when the question asks it too
    other = frozenset(t for t in terms(c.text, c.analyzer) if not is_day_term(t))
    shut = [x for i in range(w.first, w.last + 1) for x in sv.closures[i]]
    return closed_for(c.days, other, shut, CONFLICT_COVERAGE)


def _negated_here(A: frozenset[str], sv: SourceView, w: Window) -> int:
    """How many of the claim's terms ``A`` window ``w`` states only in explicitly negated units
    (a record's ``false``), and the source nowhere positively ("has outdoor seating" against
    ``"OutdoorSeating": false``)."""
    neg = [sv.sentence_terms[i] for i in range(w.first, w.last + 1) if sv.stated_negated[i]]
    return len((A & frozenset().union(*neg)) - sv.positive_terms) if neg else 0


@dataclass(frozen=True)
class Judging:
    """What every claim of one answer is judged with: the head, the embedder's name (for its
    cosine statistics), ``min_p``, the judge (or None) and the generator's readings (or None)."""

    head: SupportHead
    emb_name: str
    min_p: float
    judge: TextGenerator | None
    reading: AnswerReading | None


def reading_features(cr: ClaimReading, r: float, k: int, hidden: float) -> list[float]:
    """:data:`~rag_core.answer.support_head.READING` of a claim against source ``k`` (0-based):
    ``r`` its token probe's reading, ``hidden`` its hidden-state probe's score."""
    share = float(cr.source_share[k]) if k < len(cr.source_share) else 0.0
    return [r, share, cr.logprob_mean, cr.logprob_min, cr.low_prob, hidden]


def best_evidence(
    c: ClaimView,
    sv: SourceView,
    cvec: np.ndarray | None,
    how: Judging,
    extra: Sequence[float] | None = None,
) -> tuple[Evidence, list[float]]:
    """The window of ``sv`` with the highest ``p_supported`` for claim ``c`` (the head with the
    reading features ``extra`` when the claim was read), as Evidence, and its features."""
    cos = (sv.vectors @ cvec) if (sv.vectors is not None and cvec is not None) else None
    head: Linear = how.head.head(readings=extra is not None, cosine=cos is not None)
    tail = list(extra or ())
    best: tuple[float, int, list[float], tuple[str, ...], Notice | None] | None = None
    veto: tuple[float, int, list[float], tuple[str, ...], Notice | None] | None = None
    rank = (-1.0, -1.0)  # the best window's (p, uncapped p): among capped windows, the closest
    states_all = False  # some window states every number of the claim
    unstated = values_unstated(c, sv)
    for i, w in enumerate(sv.windows):
        z = how.head.cosine_z(float(cos[i]), how.emb_name) if cos is not None else 0.0
        f, missing, why = window_features(c, sv, w, z)
        raw = sigmoid(head.score(f + tail))
        p = min(raw, NO_TERMS_P) if (f[0] == 0.0 and c.answer_terms) or unstated else raw
        states_all = states_all or f[NUMBERS_FOUND] == 1.0
        if (p, raw) > rank:
            best, rank = (p, i, f, missing, why), (p, raw)
        if why is not None and f[0] >= CONFLICT_COVERAGE and (veto is None or f[0] > veto[2][0]):
            veto = (p, i, f, missing, why)
    # stating the claim's values does not open a day the source says is closed
    states_all = states_all and not (veto is not None and veto[4] and veto[4].code == CLOSED_DAY)
    if best is None:
        raise ValueError("a source quote has at least one sentence")
    # a window that mostly covers the claim and states another value (or the negation) is the
    # source's evidence, whatever scores higher, unless another window states the claim's values
    p, i, f, missing, why = veto if veto is not None and not states_all else best
    w, s = sv.windows[i], sv.source
    wt = frozenset().union(*sv.sentence_terms[w.first : w.last + 1])
    ev = Evidence(
        n=s.n or 0,
        chunk_id=s.chunk_id,
        sentence=s.quote[w.start : w.end],
        start=s.start + w.start,
        end=s.start + w.end,
        overlap=round(f[0], 4),
        cosine=None if cos is None else round(float(cos[i]), 4),
        score=round(p, 4),
        missing_numbers=missing,
        judge=None,
        missing_terms=tuple(sorted(c.answer_terms - wt)),
        spans=tuple((s.start + a, s.start + b) for a, b in w.spans),
        p_supported=round(p, 4),
        contradiction=why,
        signals=head.contributions(f + tail)[:SIGNALS_KEPT],
    )
    return ev, f


def _said(e: Evidence) -> Notice:
    """``[n] p 0.83 (coverage 0.71, cos 0.88, lacks 12, judge 0.90)``: one source's figures."""
    return notice(
        EVIDENCE,
        n=e.n,
        p=e.score,
        coverage=e.overlap,
        cosine="" if e.cosine is None else notice(EVIDENCE_COSINE, value=e.cosine),
        lacks=(
            notice(EVIDENCE_LACKS, numbers=", ".join(e.missing_numbers))
            if e.missing_numbers
            else ""
        ),
        judge="" if e.judge is None else notice(EVIDENCE_JUDGE, value=e.judge),
    )


def _said_all(evidence: Sequence[Evidence]) -> Notice:
    """Several sources' figures, joined by "; "."""
    return joined([_said(e) for e in evidence])


def contradicts(e: Evidence) -> bool:
    """Does the window state another number, or the negation, of a claim it mostly covers (a
    veto: such a source never supports the claim, whatever its ``p_supported``)?"""
    return bool(e.contradiction) and e.overlap >= CONFLICT_COVERAGE


def evidence_supports(e: Evidence, min_p: float) -> bool:
    """Does ``e`` support its claim: ``p_supported ≥ min_p`` and no veto (:func:`contradicts`)?"""
    return e.score >= min_p and not contradicts(e)


def _verdict(
    cites: Sequence[int],
    by_n: dict[int, Source],
    evidence: Sequence[Evidence],
    min_p: float,
) -> tuple[Verdict, Notice]:
    """The verdict of step 4 of the module docstring, and why (a :class:`Notice`)."""
    ev = {e.n: e for e in evidence}
    supports = {e.n: evidence_supports(e, min_p) for e in evidence}
    valid = [n for n in cites if n in by_n]
    invalid = [n for n in cites if n not in by_n]
    backing = [ev[n] for n in valid if supports.get(n)]
    cited = [ev[n] for n in valid if n in ev]
    others = [ev[n] for n, ok in supports.items() if ok and n not in valid]
    rule = notice(WHY_RULE, min_p=min_p)
    bad = ", ".join(map(str, invalid))
    if backing:
        tail = notice(WHY_NOT_A_SOURCE, numbers=bad) if invalid else ""
        return "supported", notice(WHY_SUPPORTED, backing=_said_all(backing), invalid=tail)
    if invalid:
        also = notice(WHY_ALSO_CITED, evidence=_said_all(cited)) if cited else ""
        return "invalid-citation", notice(WHY_INVALID, numbers=bad, sources=len(by_n), cited=also)
    if valid and others:  # the cited sources fall short of min_p, or each contradicts it
        vetoes = [e.contradiction for e in cited if contradicts(e)]
        why_not = vetoes[0] if vetoes and len(vetoes) == len(cited) else rule
        return "supported-elsewhere", notice(
            WHY_ELSEWHERE, cited=_said_all(cited), rule=why_not, others=_said_all(others)
        )
    if not cites and others:
        return "uncited", notice(WHY_UNCITED, others=_said_all(others))
    best = max(evidence, key=lambda e: e.score, default=None)
    head = notice(WHY_NO_CITATION) if not cites else ""
    # the source that states the claim with another value (the one covering most of it), even
    # when another source scores higher: it contradicts, the other is merely closer
    veto = max((e for e in evidence if contradicts(e)), key=lambda e: e.overlap, default=None)
    if veto is not None and veto.contradiction is not None:
        return "contradicted", notice(
            WHY_CONTRADICTED, head=head, contradiction=veto.contradiction, evidence=_said(veto)
        )
    closest = notice(WHY_CLOSEST, evidence=_said(best)) if best else ""
    return "unsupported", notice(WHY_UNSUPPORTED, head=head, rule=rule, closest=closest)


def not_a_claim(answer: str, a: int, b: int, kind: str) -> Claim:
    """A span that asserts nothing about the sources (never judged); ``kind`` names its rule
    in ``NON_CLAIM_RULES``."""
    why = notice(WHY_NOT_A_CLAIM, kind=notice(KIND_WORDS[kind]))
    return Claim(
        text=answer[a:b],
        start=a,
        end=b,
        citations=citations_in(answer[a:b]),
        verdict="not-a-claim",
        evidence=(),
        notice=why,
    )


def values_stated_elsewhere(
    evidence: Sequence[Evidence], states_values: Sequence[bool], min_p: float
) -> list[Evidence]:
    """``evidence`` (one per source, of a claim that states numbers) with every source that
    lacks one of the claim's numbers capped at :data:`NO_TERMS_P`, when another source backs
    the claim with a window that states them all (``states_values``: does each source's window).

    The values are the claim's content: "15~17도" is backed by the source whose sentence says
    15~17도, not by a neighbour on the same topic that the readings (the claim's, the same for
    every source) lift as high. The backing source keeps ``p_supported ≥ min_p``, so the claim
    stays supported: the cap changes which sources are its evidence (and so what is painted,
    and whether a cited source backs it), never whether some source does."""
    if not any(
        s and evidence_supports(e, min_p) for e, s in zip(evidence, states_values, strict=True)
    ):
        return list(evidence)
    return [
        replace(e, score=min(e.score, NO_TERMS_P), p_supported=min(e.score, NO_TERMS_P))
        if e.missing_numbers
        else e
        for e in evidence
    ]


def judge_claim(
    answer: str,
    c: ClaimView,
    views: Sequence[SourceView],
    cvec: np.ndarray | None,
    how: Judging,
) -> Claim:
    """Evidence from every source (the reading features when the answer was read), the judge
    when given, the verdict: one :class:`Claim`."""
    cr = claim_readings(how.reading, c.start, c.end) if how.reading is not None else None
    r = how.head.reading(cr.token_x) if cr is not None else 0.0
    hidden = how.head.hidden(cr.hidden) if cr is not None else 0.0
    extras = [
        reading_features(cr, r, k, hidden) if cr is not None else None for k in range(len(views))
    ]
    found = [best_evidence(c, sv, cvec, how, x) for sv, x in zip(views, extras, strict=True)]
    evidence = [ev for ev, _f in found]
    if c.quantities:
        states = [f[NUMBERS_FOUND] == 1.0 for _ev, f in found]
        evidence = values_stated_elsewhere(evidence, states, how.min_p)
    if how.judge is not None:
        evidence = [apply_judge(ev, c.text, how.judge, how.head) for ev in evidence]
    cites = citations_in(answer[c.start : c.end])
    by_n = {sv.source.n: sv.source for sv in views if sv.source.n is not None}
    verdict, why = _verdict(cites, by_n, evidence, how.min_p)
    all_numbers = set().union(*(sv.all_numbers for sv in views)) if views else set()
    claim = Claim(
        text=answer[c.start : c.end],
        start=c.start,
        end=c.end,
        citations=cites,
        verdict=verdict,  # type: ignore[arg-type]
        evidence=tuple(evidence),
        numbers=tuple(w for w, _v, _u in c.quantities),
        numbers_in_no_source=tuple(
            w for w, v, u in c.quantities if not quantity_in(v, u, all_numbers)
        ),
        notice=why,
        p_supported=max((e.score for e in evidence), default=0.0),
    )
    if cr is None or not flags(claim):
        return claim
    return replace(claim, suspect=how.head.suspect(cr.token_x, cr.spans) or ((c.start, c.end),))


def _summary(claims: Sequence[Claim]) -> Notice:
    counts: dict[str, int] = {}
    for claim in claims:
        counts[claim.verdict] = counts.get(claim.verdict, 0) + 1
    judged = sum(c.verdict != "not-a-claim" for c in claims)
    said = [
        notice(SUPPORT_COUNT, count=v, verdict=notice(VERDICT_WORDS[k])) for k, v in counts.items()
    ]
    return notice(SUPPORT_SUMMARY, judged=judged, counts=listed(said) if said else "")


def _stage(claims: tuple[Claim, ...], params: dict[str, Any], said: Notice) -> SupportStage:
    return SupportStage("ok", claims, params, notice=said)


# ------------------------------------------------------------------- check


def claim_spans(answer: str) -> list[tuple[int, int]]:
    """The spans of ``answer`` that are judged (:func:`split_claims` minus ``not-a-claim``)."""
    return [(a, b) for a, b in split_claims(answer) if non_claim_kind(answer[a:b]) is None]


def check_support(
    answer: str | None,
    context: ContextStage,
    cfg: SupportConfig,
    *,
    embedder: Any = None,
    judge: TextGenerator | None = None,
    question: str = "",
    reading: AnswerReading | None = None,
    head: SupportHead | None = None,
) -> SupportStage:
    """Split ``answer`` into claims and give each a verdict, ``p_supported`` and its evidence.

    Args:
        answer: The generated answer.
        context: The context stage whose sources ``[n]`` the answer cites.
        cfg: ``min_p`` (the one threshold on ``p_supported``) and ``judge``.
        embedder: The corpus's embedder, for the cosine feature (None: the head without it).
        judge: A generator (its ``p_yes(system, user)``), asked when ``cfg.judge`` is on.
        question: The question; terms a claim merely repeats from it carry no evidence, and the
            share of its terms a window states is a feature.
        reading: The local generator's readings of ``answer`` after these sources, in their
            order (:func:`rag_core.answer.lookback.read_answer`); None: the lexical head.
        head: The support head (default: the committed ``support_head.json``).
    """
    head = head or load_head()
    use_judge = judge if (cfg.judge and judge is not None) else None
    emb_name = str(getattr(embedder, "name", "") or getattr(embedder, "model_id", "default"))
    params: dict[str, Any] = {
        "min_p": cfg.min_p,
        "model": "learned support head (rag_core/answer/support_head.json)",
        "features": list(LEXICAL + (READING if reading is not None else ())),
        "readings": reading is not None,
        "quality": {k: head.quality[k] for k in QUALITY_KEYS if k in head.quality},
        "judge": use_judge is not None,
        "embedder": getattr(embedder, "model_id", None),
    }
    if answer is None or not answer.strip():
        said = notice(SUPPORT_SKIPPED_NO_ANSWER)
        return SupportStage("skipped", params=params, notice=said)
    sources = [s for s in context.sources if s.n is not None]
    spans = split_claims(answer)
    kinds = [non_claim_kind(answer[a:b]) for a, b in spans]
    if all(k is not None for k in kinds):
        claims = tuple(
            not_a_claim(answer, a, b, k or "") for (a, b), k in zip(spans, kinds, strict=False)
        )
        named = [notice(KIND_WORDS[k]) for k in sorted({k or "" for k in kinds})]
        said = notice(SUPPORT_NO_CLAIMS, kinds=listed(named) if named else notice(KIND_EMPTY))
        return _stage(claims, params, said)
    # the question's terms under the analysers its claims need (an English answer loads no Kiwi)
    needed = {
        analyzer_for(answer[a:b]) for (a, b), k in zip(spans, kinds, strict=True) if k is None
    }
    qterms = {an: terms(question, an) for an in needed} if question else {}
    views_by: dict[str, list[SourceView]] = {}
    judged = [
        claim_view(answer, a, b, qterms.get(analyzer_for(answer[a:b])))
        for (a, b), k in zip(spans, kinds, strict=True)
        if k is None
    ]
    cvecs = encode_cached(embedder, [c.text for c in judged]) if embedder is not None else None
    out: list[Claim] = []
    it = iter(range(len(judged)))
    how = Judging(head, emb_name, cfg.min_p, use_judge, reading)
    for (a, b), k in zip(spans, kinds, strict=True):
        if k is not None:
            out.append(not_a_claim(answer, a, b, k))
            continue
        i = next(it)
        c = judged[i]
        if c.analyzer not in views_by:
            views_by[c.analyzer] = [source_view(s, c.analyzer, embedder) for s in sources]
        cvec = cvecs[i] if cvecs is not None else None
        out.append(judge_claim(answer, c, views_by[c.analyzer], cvec, how))
    return _stage(tuple(out), params, _summary(out))


def flags(claim: Claim) -> bool:
    """Does this claim flag its response (module docstring, step 4): ``unsupported``,
    ``contradicted``, ``invalid-citation``, or ``supported-elsewhere`` while it names in words
    the passage that does not back it ("Passage 2 says …")?"""
    if claim.verdict in FLAG_VERDICTS:
        return True
    return claim.verdict == "supported-elsewhere" and bool(SOURCE_REF.search(claim.text))


def flagged(stage: SupportStage) -> bool:
    """Is the response flagged: does some claim flag it (:func:`flags`)?"""
    return any(flags(c) for c in stage.claims)
