"""Per-claim support: is each sentence of the answer backed by the source it cites?

1. **Claims.** The answer is split into sentences (:func:`rag_core.answer.context.sentence_spans`:
   ``. ! ?`` + space, newlines; Korean ``…다.``/``…요.``/``…니다.`` end with a
   period). Citations are ``[n]``, ``[n, m]`` or ``[n][m]``. A citation group
   that follows a sentence's end belongs to the claim before it (trailing
   style) — unless the answer's first claim *starts* with a citation, in which
   case every leading group belongs to the sentence it opens (leading style).
   A refusal sentence (:data:`rag_core.answer.context.REFUSAL_TEXT` or the phrases in
   :data:`REFUSAL_PATTERNS`) is not a claim.
2. **Evidence.** For each claim and each source placed in the prompt, the
   source sentence with the highest score, where

   - ``overlap = |A ∩ T(sentence)| / |A|`` where ``A = T(claim) − T(question)``
     (the claim's *answer* terms; all its terms when it only restates the
     question) over distinct terms ``T``: Kiwi content morphemes when the
     claim contains Hangul (particles dropped, so ``한라산의`` meets
     ``한라산은``), else lowercase ``\\w+`` words minus :data:`STOPWORDS`;
     ``missing_terms`` lists the answer terms the best sentence lacks;
   - ``cosine`` = cosine of the embedder's vectors of claim and sentence
     (None without an embedder);
   - ``score = (overlap + cosine) / 2`` (``overlap`` alone without cosine).

   ``missing_numbers`` lists the claim's numbers and codes that the whole
   source quote lacks (``1,947`` = ``1947``; ``E17`` is one code, ≠ ``E21``;
   with units on both sides the units must agree: ``4,000미터`` ≠ ``4,000종``).
3. **Verdict.** A source *supports* a claim when its best sentence has
   ``overlap >= min_overlap`` and ``cosine >= min_cosine`` (when known), no
   claim number is missing from it, and — with the optional judge — the
   judge's ``P(supported) >= judge_threshold``. Then:

   - ``supported``: a cited source supports it;
   - ``invalid-citation``: some ``[n]`` is not a source in the prompt and no
     cited source supports it;
   - ``supported-elsewhere``: cited sources do not support it, another does;
   - ``uncited``: no citation, but a source supports it;
   - ``unsupported``: no source supports it (cited or not).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from rag_core.answer.prompt import REFUSAL_TEXT
from rag_core.config import SupportConfig
from rag_core.text import sentence_spans
from rag_core.types import Claim, ContextStage, Evidence, Source, SupportStage

CITATION_GROUP = re.compile(r"(?:\[\s*\d+(?:\s*[,;]\s*\d+)*\s*\])+")
#: "Source 2" written out, or a source's whole label line echoed by the model
#: ("Source 1 — Title › Section (doc #char=a,b):") — a reference to source n.
SOURCE_REF = re.compile(r"\b[Ss]ource\s+(\d+)\b(?:\s+—[^\n]*?\([^()\n]*#char=\d+,\d+\))?:?")
_SOURCE_WORD = re.compile(r"\b[Ss]ources?\s*:?\s*(?=\[\s*\d)")  # "Source [1]"
_CITE_NUM = re.compile(r"\d+")
_LEADING_CITE = re.compile(r"^\s*((?:\[\s*\d+(?:\s*[,;]\s*\d+)*\s*\]\s*)+)")
_ONLY_CITES = re.compile(r"^[\s\[\]\d,;.!?。]*$")
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_WORD = re.compile(r"\w+")

#: A number or code: optional letters glued in front (``E17``), digits with
#: thousands commas or a decimal part, then an optional unit. A hyphen and a
#: word may follow (``2-year``, ``65-billion-parameter``: the number counts);
#: a hyphen and a digit may not (``15-17`` and ids such as ``jeju-01-geo``
#: stay out).
NUMBER = re.compile(
    r"(?<![A-Za-z0-9.,\-_#=/])([A-Za-z]{0,4}-?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?"
    r"(\s?(?:%|km|cm|mm|m|kg|g|ms|s|GB|MB|KB|TB|KiB|MiB|GiB|°C|℃|㎞|㎢|"
    r"킬로미터|센티미터|밀리미터|제곱킬로미터|미터|킬로그램|그램|헥타르|리터|톤|퍼센트|"
    r"시간|년|월|일|분|초|개|명|원|배|종|마리|그루|곳|회|권|호|층|번|가지|차례|세|살|도))?"
    r"(?![A-Za-z0-9]|-\d)",
)

#: Units written differently that name the same unit (for comparing quantities).
UNIT_ALIASES = {
    "미터": "m",
    "킬로미터": "km",
    "㎞": "km",
    "센티미터": "cm",
    "밀리미터": "mm",
    "제곱킬로미터": "km²",
    "㎢": "km²",
    "킬로그램": "kg",
    "그램": "g",
    "퍼센트": "%",
    "℃": "°C",
    "도": "°C",
}

REFUSAL_PATTERNS = (
    REFUSAL_TEXT.lower().rstrip("."),
    "do not contain the answer",
    "does not contain the answer",
    "cannot answer",
    "can't answer",
    "not mentioned in the sources",
    "출처에",
    "포함되어 있지 않",
    "나와 있지 않",
    "알 수 없",
)

STOPWORDS = frozenset(
    "a an the is are was were be been being of in on at to and or it its this that these those "
    "with by for as from which who what when where how than then so such".split()
)

Verdict = str


# ------------------------------------------------------------------ pieces


def normalise_number(letters: str, digits: str, decimals: str | None) -> str:
    """``("E", "17", None) -> "e17"``; ``("", "1,947", None) -> "1947"``; ``("", "2", ".50") ->
    "2.5"``.

    A letter prefix (a code such as ``E17`` or ``WD-8412``) stays part of the
    number, lowercased, so ``E17`` never matches ``E21`` or a bare ``17``.
    """
    num = digits.replace(",", "")
    if decimals:
        frac = decimals.rstrip("0")
        num += frac if frac != "." else ""
    return (letters.lower() + num) if letters else num


def quantities_in(text: str) -> list[tuple[str, str, str | None]]:
    """``(as written, normalised value, canonical unit or None)`` per number (citations removed).

    ``4,000미터`` and ``4,000종`` have the same value but different units: a
    claim of 4,000 metres is not backed by a source counting 4,000 species.
    """
    clean = strip_citations(text)
    out = []
    for m in NUMBER.finditer(clean):
        unit = (m.group(4) or "").strip() or None
        if unit is not None:
            unit = UNIT_ALIASES.get(unit, unit)
        out.append((m.group(0).strip(), normalise_number(m.group(1), m.group(2), m.group(3)), unit))
    return out


def quantity_in(value: str, unit: str | None, found: set[tuple[str, str | None]]) -> bool:
    """Is ``value unit`` among ``found``? A unit-less number on either side matches any unit."""
    return any(v == value and (unit is None or u is None or u == unit) for v, u in found)


def numbers_in(text: str) -> list[tuple[str, str]]:
    """``(as written, normalised)`` for each number or code in ``text`` (citations removed)."""
    clean = strip_citations(text)
    out = []
    for m in NUMBER.finditer(clean):
        out.append((m.group(0).strip(), normalise_number(m.group(1), m.group(2), m.group(3))))
    return out


def strip_citations(text: str) -> str:
    """``text`` without ``[n]`` groups and ``Source n`` references (each replaced by a space)."""
    return SOURCE_REF.sub(" ", CITATION_GROUP.sub(" ", _SOURCE_WORD.sub(" ", text)))


def citations_in(text: str) -> tuple[int, ...]:
    """Every cited ``n`` — ``[n]``, ``[n, m]``, ``Source n`` — in order of appearance, without
    repeats."""
    found = [(g.start(), _CITE_NUM.findall(g.group(0))) for g in CITATION_GROUP.finditer(text)]
    found += [(m.start(), [m.group(1)]) for m in SOURCE_REF.finditer(text)]
    nums: list[int] = []
    for _pos, group in sorted(found):
        for n in group:
            if int(n) not in nums:
                nums.append(int(n))
    return tuple(nums)


def terms(text: str, analyzer: str) -> set[str]:
    """Distinct terms of ``text`` under ``analyzer`` (``kiwi`` or ``unicode`` minus stopwords)."""
    text = strip_citations(text)
    if analyzer == "kiwi":
        from rag_core.retrieval.sparse.analyzers import kiwi_terms

        return set(kiwi_terms(text))
    return {w for w in _WORD.findall(text.lower()) if w not in STOPWORDS}


def split_claims(answer: str) -> list[tuple[int, int]]:
    """Claim spans of ``answer`` with citations attached as the module docstring says."""
    spans = sentence_spans(answer)
    merged: list[list[int]] = []
    for a, b in spans:  # a span that is only citations/punctuation joins the previous claim
        if merged and _ONLY_CITES.match(answer[a:b]):
            merged[-1][1] = b
        else:
            merged.append([a, b])
    if not merged:
        return []
    leading = bool(_LEADING_CITE.match(answer[merged[0][0] : merged[0][1]]))
    if not leading:
        for k in range(1, len(merged)):
            m = _LEADING_CITE.match(answer[merged[k][0] : merged[k][1]])
            if m:
                merged[k - 1][1] = merged[k][0] + len(m.group(1).rstrip())
                merged[k][0] += m.end()
    return [(a, b) for a, b in merged if answer[a:b].strip()]


def is_refusal(text: str) -> bool:
    """True when ``text`` says the sources do not hold the answer."""
    low = " ".join(text.lower().split())
    return any(p in low for p in REFUSAL_PATTERNS)


# ------------------------------------------------------------------- check


def _source_sentences(src: Source) -> list[tuple[int, int, str]]:
    """``(doc start, doc end, text)`` of each sentence of the source quote."""
    return [(src.start + a, src.start + b, src.quote[a:b]) for a, b in sentence_spans(src.quote)]


def check_support(
    answer: str | None,
    context: ContextStage,
    cfg: SupportConfig,
    *,
    embedder: Any = None,
    judge: Any = None,
    question: str = "",
) -> SupportStage:
    """Split ``answer`` into claims and give each a verdict with its evidence (module docstring).

    Args:
        answer: The generated answer.
        context: The context stage whose sources ``[n]`` the answer cites.
        cfg: ``min_overlap``, ``min_cosine``, ``judge``, ``judge_threshold``.
        embedder: For the cosine part of the score (None: overlap only).
        judge: A generator asked ``P(supported)`` when ``cfg.judge`` is on.
        question: The question; terms a claim merely repeats from it carry no
            evidence ("The capital of France is Paris" over a source that only
            *asks* "what is the capital of France" has answer term ``paris``,
            found nowhere), so the overlap counts the claim's other terms.
    """
    params: dict[str, Any] = {
        "min_overlap": cfg.min_overlap,
        "min_cosine": cfg.min_cosine,
        "judge": bool(cfg.judge and judge is not None),
        "judge_threshold": cfg.judge_threshold,
        "embedder": getattr(embedder, "model_id", None),
        "score": "(overlap + cosine) / 2" if embedder is not None else "overlap",
    }
    if answer is None or not answer.strip():
        return SupportStage("skipped", params=params, message="no answer to check")
    sources = [s for s in context.sources if s.n is not None]
    by_n = {s.n: s for s in sources}
    spans = split_claims(answer)
    refusals = [answer[a:b] for a, b in spans if is_refusal(answer[a:b])]
    spans = [(a, b) for a, b in spans if not is_refusal(answer[a:b])]
    notes = []
    if refusals:
        notes.append(f"refusal not checked: {' '.join(refusals)!r}")
    if not spans:
        return SupportStage(
            "ok", (), params, "; ".join(notes) or "the answer makes no claim to check"
        )

    cleaned = [(a, b, " ".join(strip_citations(answer[a:b]).split())) for a, b in spans]
    bare = [answer[a:b] for a, b, t in cleaned if not _WORD.search(t)]
    if bare:
        notes.append(f"citation-only text not checked: {' '.join(bare)!r}")
    spans = [(a, b) for a, b, t in cleaned if _WORD.search(t)]
    claim_texts = [t for _a, _b, t in cleaned if _WORD.search(t)]
    if not spans:
        return SupportStage("ok", (), params, "; ".join(notes))
    sent_rows: list[tuple[Source, int, int, str]] = []
    for s in sources:
        sent_rows.extend((s, a, b, t) for a, b, t in _source_sentences(s))
    cos = None
    if embedder is not None and sent_rows:
        cvec = embedder.encode_queries(claim_texts)
        svec = embedder.encode_queries([t for *_x, t in sent_rows])
        cos = np.asarray(cvec @ svec.T, dtype=np.float64)
    src_numbers = {s.n: {(v, u) for _w, v, u in quantities_in(s.quote)} for s in sources}
    all_numbers = set().union(*src_numbers.values()) if src_numbers else set()

    claims: list[Claim] = []
    for ci, ((a, b), ctext) in enumerate(zip(spans, claim_texts, strict=True)):
        analyzer = "kiwi" if _HANGUL.search(ctext) else "unicode"
        cterms = terms(ctext, analyzer)
        novel = cterms - terms(question, analyzer) if question else cterms
        if novel:  # a claim that only restates the question keeps all its terms
            cterms = novel
        nums = quantities_in(ctext)
        evidence: list[Evidence] = []
        supports: dict[int, bool] = {}
        for s in sources:
            if s.n is None:  # filtered out above; this narrows the type for mypy
                continue
            best: Evidence | None = None
            for ri, (rs, sa, sb, stext) in enumerate(sent_rows):
                if rs is not s:
                    continue
                ov = len(cterms & terms(stext, analyzer)) / len(cterms) if cterms else 0.0
                c = float(cos[ci, ri]) if cos is not None else None
                score = (ov + c) / 2 if c is not None else ov
                if best is None or score > best.score:
                    best = Evidence(s.n, s.chunk_id, stext, sa, sb, ov, c, score)
                    best_terms = cterms - terms(stext, analyzer)
            if best is None:
                continue
            missing = tuple(w for w, v, u in nums if not quantity_in(v, u, src_numbers[s.n]))
            jp = None
            if cfg.judge and judge is not None:
                jp = judge_support(judge, ctext, s.quote)
            best = Evidence(
                best.n,
                best.chunk_id,
                best.sentence,
                best.start,
                best.end,
                round(best.overlap, 4),
                None if best.cosine is None else round(best.cosine, 4),
                round(best.score, 4),
                missing,
                jp,
                tuple(sorted(best_terms)),
            )
            evidence.append(best)
            supports[s.n] = evidence_supports(best, cfg)
        cites = citations_in(answer[a:b])
        verdict, reason = _verdict(cites, by_n, supports, evidence, cfg)
        claims.append(
            Claim(
                text=answer[a:b],
                start=a,
                end=b,
                citations=cites,
                verdict=verdict,  # type: ignore[arg-type]
                evidence=tuple(evidence),
                numbers=tuple(w for w, _v, _u in nums),
                numbers_in_no_source=tuple(
                    w for w, v, u in nums if not quantity_in(v, u, all_numbers)
                ),
                reason=reason,
            )
        )
    counts: dict[str, int] = {}
    for claim in claims:
        counts[claim.verdict] = counts.get(claim.verdict, 0) + 1
    summary = ", ".join(f"{v} {k}" for k, v in counts.items())
    return SupportStage(
        "ok", tuple(claims), params, "; ".join([f"{len(claims)} claims: {summary}", *notes])
    )


def evidence_supports(e: Evidence, cfg: SupportConfig) -> bool:
    """Does this source's best sentence support the claim (the rule of step 3 of the module
    docstring)?"""
    return (
        e.overlap >= cfg.min_overlap
        and (e.cosine is None or e.cosine >= cfg.min_cosine)
        and not e.missing_numbers
        and (e.judge is None or e.judge >= cfg.judge_threshold)
    )


def _fmt(e: Evidence) -> str:
    cos = "" if e.cosine is None else f", cos {e.cosine:.2f}"
    miss = f", lacks {', '.join(e.missing_numbers)}" if e.missing_numbers else ""
    judge = "" if e.judge is None else f", judge {e.judge:.2f}"
    return f"[{e.n}] overlap {e.overlap:.2f}{cos}{miss}{judge}"


def _verdict(
    cites: Sequence[int],
    by_n: dict[int | None, Source],
    supports: dict[int, bool],
    evidence: Sequence[Evidence],
    cfg: SupportConfig,
) -> tuple[Verdict, str]:
    ev = {e.n: e for e in evidence}
    valid = [n for n in cites if n in by_n]
    invalid = [n for n in cites if n not in by_n]
    backing = [n for n in valid if supports.get(n)]
    others = [n for n, ok in supports.items() if ok and n not in valid]
    rule = f"needs overlap ≥ {cfg.min_overlap}, cos ≥ {cfg.min_cosine}, no missing number"
    if backing:
        extra = f"; [{', '.join(map(str, invalid))}] is not a source" if invalid else ""
        return "supported", "supported by " + "; ".join(_fmt(ev[n]) for n in backing) + extra
    if invalid:
        return "invalid-citation", (
            f"cites [{', '.join(map(str, invalid))}], which is not among the {len(by_n)} sources"
            + (f"; cited {'; '.join(_fmt(ev[n]) for n in valid if n in ev)}" if valid else "")
        )
    if valid and others:
        return "supported-elsewhere", (
            f"cited {'; '.join(_fmt(ev[n]) for n in valid if n in ev)} does not support it "
            f"({rule}); supported by {'; '.join(_fmt(ev[n]) for n in others)}"
        )
    if not cites and others:
        return "uncited", "no citation; supported by " + "; ".join(_fmt(ev[n]) for n in others)
    best = max(evidence, key=lambda e: e.score, default=None)
    head = "no citation and " if not cites else ""
    return "unsupported", (
        f"{head}no source supports it ({rule})" + (f"; closest {_fmt(best)}" if best else "")
    )


JUDGE_SYSTEM = "You check facts. Reply with one word: yes or no."


def judge_support(judge: Any, claim: str, source_text: str) -> float:
    """``P(yes)`` of ``judge`` for "does the source support the claim?" (see
    ``Generator.yes_probability``)."""
    user = (
        f"Source:\n{source_text}\n\nClaim: {claim}\n\nDoes the source support the claim? Answer "
        "yes or no."
    )
    return float(judge.yes_probability(judge.prompt_ids(JUDGE_SYSTEM, user)))
