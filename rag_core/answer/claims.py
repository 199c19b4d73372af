"""What a claim of an answer is: spans, citations, and the sentences that assert nothing.

A **claim** is a sentence of the answer (:func:`sentences`: abbreviation-aware) or a
whole list item, with its citations attached (``[n]``, ``[n, m]``, ``[n][m]``, written-out
``Source n`` / ``Passage n``; trailing or leading style, see :func:`split_claims`). A list
marker (``3.``, ``- ``, ``•``, ``(a)``) is never part of the claim text.

A span **asserts nothing about the sources** — verdict ``not-a-claim``, never judged — when
one of the named rules of :data:`NON_CLAIM_RULES` matches it:

- :func:`is_refusal`: the answer says the sources lack it ("Unable to answer based on given
  passages.", "The passages do not mention …", "제공된 자료에는 … 없습니다", "답할 수 없습니다");
- :func:`is_framing`: it announces the answer ("Based on the provided passages, here is …",
  "Here's the summary within 46 words:", "다음은 요약입니다:");
- :func:`is_pleasantry`: "Sure!", "I hope this helps!", "도움이 되셨기를 바랍니다.";
- :func:`is_meta`: it talks about the answer itself ("(Word count: 46)", "Note: this summary
  is based only on the passage.");
- :func:`is_citation_only`: nothing but citations and punctuation.

Each rule is a short list of documented regular expressions, English and Korean; a span is
tested after its citations are removed and its whitespace collapsed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rag_core.answer.prompt import REFUSAL_TEXT
from rag_core.text import sentence_spans

CITATION_GROUP = re.compile(r"(?:\[\s*\d+(?:\s*[,;]\s*\d+)*\s*\])+")
#: "Source 2" / "Passage 2" / "출처 2" written out, or a source's whole label line echoed by the
#: model ("Source 1 — Title › Section (doc #char=a,b):") — a reference to source n.
SOURCE_REF = re.compile(
    r"\b(?:[Ss]ource|[Pp]assage|[Dd]ocument|출처|자료|문서|문단)\s*(?:#|No\.\s*)?(\d+)(?![\d]|[.,]\d)"
    r"(?:\s+—[^\n]*?\([^()\n]*#char=\d+,\d+\))?:?"
)
_SOURCE_WORD = re.compile(r"\b(?:[Ss]ources?|[Pp]assages?)\s*:?\s*(?=\[\s*\d)")  # "Source [1]"
_CITE_NUM = re.compile(r"\d+")
_LEADING_CITE = re.compile(r"^\s*((?:\[\s*\d+(?:\s*[,;]\s*\d+)*\s*\]\s*)+)")
#: A span that is only citation groups and punctuation (no bare digit: "3." is a list marker).
_ONLY_CITES = re.compile(r"^(?:\s|[.,;:!?。]|\[\s*\d+(?:\s*[,;]\s*\d+)*\s*\])*$")
_WORD = re.compile(r"\w+")

#: A list marker at the start of a line: ``3.``, ``3)``, ``(3)``, ``(a)``, ``a.``, ``a)``,
#: ``- ``, ``* ``, ``• ``, ``· ``, ``– ``, optionally bold (``**3.**``), then whitespace.
LIST_MARKER = re.compile(
    r"^[ \t]*(?:\*\*)?(?:\d{1,3}[.)]|\(\d{1,3}\)|\([a-zA-Z]\)|[a-zA-Z][.)](?=\s)|[-*•·–])"
    r"(?:\*\*)?[ \t]+"
)


# ---------------------------------------------------------------- citations


def strip_citations(text: str) -> str:
    """``text`` without ``[n]`` groups and ``Source n`` / ``Passage n`` references (each replaced
    by a space)."""
    return SOURCE_REF.sub(" ", CITATION_GROUP.sub(" ", _SOURCE_WORD.sub(" ", text)))


#: A cited number longer than this (leading zeros aside) names no source: it is read as
#: ``10 ** _CITE_DIGITS``, never passed whole to ``int()`` (5,000 digits raise ValueError).
_CITE_DIGITS = 9


def _cite_number(digits: str) -> int:
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= _CITE_DIGITS else 10**_CITE_DIGITS


def citations_in(text: str) -> tuple[int, ...]:
    """Every cited ``n`` — ``[n]``, ``[n, m]``, ``Source n`` — in order of appearance, without
    repeats (a number of more than nine digits reads as ``10**9``: no source)."""
    found = [(g.start(), _CITE_NUM.findall(g.group(0))) for g in CITATION_GROUP.finditer(text)]
    found += [(m.start(), [m.group(1)]) for m in SOURCE_REF.finditer(text)]
    nums: list[int] = []
    for _pos, group in sorted(found):
        for n in map(_cite_number, group):
            if n not in nums:
                nums.append(n)
    return tuple(nums)


# ------------------------------------------------------------------- spans

#: Titles and short forms that end with a period and never end a sentence ("Dr. Kim").
_TITLE = re.compile(
    r"\b(?:Mr|Mrs|Ms|Dr|Prof|Sr|Jr|St|Sen|Rep|Gov|Gen|Col|Lt|Sgt|Capt|Rev|Mt|Ft|No|vs|approx)\.$"
)
#: Initials such as "U.S.", "U.N.", "p.m.": they end a sentence only when a usual sentence
#: opener (:data:`_OPENER`) follows.
_INITIALS = re.compile(r"(?:\b[A-Za-z]\.){2,}$")
_OPENER = re.compile(
    r"(?:The|A|An|He|She|It|They|We|I|You|This|That|These|Those|His|Her|Its|Their|Our|There"
    r"|In|On|At|But|And|However|After|Before|When|While|As|If)\b"
)
#: What a sentence never starts with in English: a lowercase letter, a digit, ``&``, ``(``.
_NOT_A_START = re.compile(r"[a-z0-9&(,;:]")
#: A Korean sentence end (``…했다.``, ``…니다.``): never an abbreviation, whatever follows.
_HANGUL_END = re.compile(r"[\uac00-\ud7a3]\.$")
#: A sentence that ends inside Markdown emphasis: ``**E21 — Water did not drain.** Meaning: …``.
_EMPHASIS_END = re.compile(r"[.!?。][*_]{1,3}(?=\s)")


def _emphasis_split(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """``(a, b)`` cut after each sentence end closed by Markdown emphasis (:data:`_EMPHASIS_END`),
    which :func:`~rag_core.text.sentence_spans` reads as no end."""
    out: list[tuple[int, int]] = []
    for m in _EMPHASIS_END.finditer(text, a, b):
        out.append((a, m.end()))
        a = m.end()
        while a < b and text[a].isspace():
            a += 1
    return [*out, (a, b)] if a < b else out


def sentences(text: str) -> list[tuple[int, int]]:
    """:func:`~rag_core.text.sentence_spans` with spans rejoined where a period ended
    an abbreviation rather than a sentence ("the U.S. Department …", "Dr. Kim", "Mon. & Sun.").

    A span is joined to the one after it, on the same line, when its last word is a title
    (:data:`_TITLE`), when it ends with initials and no usual sentence opener follows
    (:data:`_INITIALS`, :data:`_OPENER`), or when the next span starts as no English sentence
    does (:data:`_NOT_A_START`: a lowercase letter, a digit, ``&``) — never after a Korean
    sentence end (``…했다. 1702년에는 …``); a span is cut where a sentence end is closed by
    Markdown emphasis (``… in time.** Meaning: …``).
    """
    out: list[tuple[int, int]] = []
    for a, b in (s for span in sentence_spans(text) for s in _emphasis_split(text, *span)):
        if out:
            pa, pb = out[-1]
            gap = text[pb:a]
            tail = text[pa:pb].rsplit(None, 1)[-1]
            initials = _INITIALS.search(tail) and not _OPENER.match(text, a)
            end = text[pa:pb].rstrip("*_")
            if (
                "\n" not in gap
                and end.endswith(".")
                and not _HANGUL_END.search(end)
                and (_TITLE.search(tail) or initials or _NOT_A_START.match(text[a]))
            ):
                out[-1] = (pa, b)
                continue
        out.append((a, b))
    return out


def _line_units(answer: str) -> list[tuple[int, int]]:
    """Sentences of ordinary lines and whole list items (marker excluded), in order."""
    units: list[tuple[int, int]] = []
    pos = 0
    for line in answer.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        m = LIST_MARKER.match(body)
        if m:
            end = m.end()
            while (again := LIST_MARKER.match(body[end:])) is not None:  # "- (a) …"
                end += again.end()
            a, b = pos + end, pos + len(body)
            while b > a and answer[b - 1].isspace():
                b -= 1
            if b > a:
                units.append((a, b))
        else:
            units += [(pos + a, pos + b) for a, b in sentences(body)]
        pos += len(line)
    return units


def split_claims(answer: str) -> list[tuple[int, int]]:
    """Claim spans of ``answer``: sentences and whole list items, citations attached.

    A span that is only citations joins the claim before it (trailing style) — unless the
    answer's first claim *starts* with a citation, in which case every leading group belongs to
    the sentence it opens (leading style). List markers are left out of the spans.
    """
    merged: list[list[int]] = []
    for a, b in _line_units(answer):
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


# ------------------------------------------------------------ not a claim


def _plain(text: str) -> str:
    """Citations removed, whitespace collapsed, markdown emphasis dropped, lowercased."""
    return " ".join(strip_citations(text).replace("**", "").split()).lower()


_SRC_EN = r"(?:passages?|sources?|context|contexts|documents?|texts?|articles?|information|data|records?|excerpts?|materials?)"  # noqa: E501
_SRC_KO = r"(?:자료|문서|출처|문단|본문|지문|정보|내용|기사|글|텍스트|데이터)"

#: Refusals, English: an inability to answer, or the sources said to lack the answer.
REFUSAL_EN = (
    re.compile(re.escape(REFUSAL_TEXT.lower().rstrip("."))),
    re.compile(
        r"\b(?:unable to|cannot|can ?not|can't|could not|couldn't|am not able to"
        r"|is not possible to)"
        r" (?:be )?(?:answer|determine|find|provide|say|tell|confirm|identify|infer|know|answered)"
    ),
    re.compile(
        rf"\b(?:the |these |those |provided |given |above |available )*{_SRC_EN} "
        r"(?:do|does|did)(?: not|n't) (?:\w+ )?(?:mention|contain|provide|include|specify|say|state"
        r"|discuss|address|give|offer|answer|indicate|cover|reference|describe)"
    ),
    re.compile(
        rf"\b(?:there is|there's|there are) no (?:\w+ )?(?:information|mention|details?|data"
        rf"|answer|indication)\b.*\b(?:in|within|from) (?:the |these |provided |given )*{_SRC_EN}"
    ),
    re.compile(
        r"\b(?:is|are) not (?:mentioned|provided|specified|stated|given|included|found|"
        rf"available) in (?:the |these |provided |given )*{_SRC_EN}"
    ),
    re.compile(
        rf"\bnone of the (?:\w+ )?{_SRC_EN} (?:\w+ )?(?:mention|state|say|contain|provide|"
        r"specify|include|give|indicate|answer|address|discuss|explicitly|directly)"
    ),
    re.compile(r"^(?:no|insufficient) (?:relevant )?(?:information|answer|data)\b"),
    re.compile(r"\bnot (?:enough|sufficient) information\b"),
    re.compile(r"does not contain the answer|not mentioned in the sources"),
)
#: Refusals, Korean: "답할 수 없습니다", "제공된 자료에는 … 없습니다", "… 나와 있지 않습니다",
#: "언급되어 있지 않", "포함되어 있지 않", a final "알 수 없습니다".
REFUSAL_KO = (
    re.compile(r"답(?:변)?(?:할|하기|을 드릴|해 드릴) 수 없|답변(?:을|이) (?:드리기|하기) 어렵"),
    re.compile(
        rf"(?:(?:제공된|주어진|위의?|해당|검색된|참고한) ?{_SRC_KO}|출처|자료|문서|지문|본문)"
        r"(?:들)?(?:에|에서|에는|에서는|로는|만으로는).{0,40}"
        r"(?:없습니다|없다|없어요|없음|않습니다|않다|않아요|않음|찾을 수 없)"
    ),
    re.compile(r"(?:나와|언급되어|포함되어|제시되어|기재되어|명시되어) 있지 않"),
    re.compile(r"(?:언급|정보|내용)(?:이|은|가)? (?:없습니다|없다|없음)"),
    re.compile(r"알 수 없(?:습니다|다|어요|음)\W*$"),
)
#: Framing: the answer announced ("Here is a summary …", "Based on the provided passages, here
#: are …", "다음은 … 요약입니다"), or a short line ending with ``:`` that introduces what follows.
FRAMING = (
    re.compile(
        r"^(?:\w+[!,.]\s*)?(?:here is|here's|here are|below is|below are|the following is)\b"
    ),
    re.compile(
        r"^(?:based on|according to|using|from|drawing on|with) [^,]{0,60}"
        rf"{_SRC_EN}[^,]{{0,30}},\s*(?:here|below|the following|i )"
    ),
    re.compile(
        r"^(?:sure|certainly|okay|ok|of course)\b[^.!?]{0,80}\b(?:summary|overview|answer)\b"
    ),
    re.compile(
        r"^(?:다음은|아래는) .{0,40}(?:요약|정리|답변|내용|설명)입니다|(?:요약|답변)은 다음과"
    ),
)
#: Pleasantries with no content.
PLEASANTRY = (
    re.compile(
        r"^(?:sure|certainly|of course|okay|ok|absolutely|great question|good question|yes|"
        r"no problem|happy to help)\W*$"
    ),
    re.compile(
        r"\b(?:i hope (?:this|that|it) helps|hope (?:this|that) helps|let me know if|"
        r"feel free to|thank you|thanks for|you're welcome|glad to help)\b"
    ),
    re.compile(
        r"^(?:(?:sure|certainly|of course|absolutely|okay|ok|yes)\W+)?(?:i can|i'd be happy to|"
        r"i would be happy to|i'm happy to|i'll be happy to|let me|i'd be glad to) (?:help|answer|"
        r"assist|do that)\b[^.!?]{0,40}\W*$"
    ),
    re.compile(
        r"^(?:네|물론입니다|물론이죠|좋은 질문입니다)\W*$|도움이 (?:되었|됐|되셨)(?:기를|으면)"
    ),
)
#: Meta statements about the answer itself.
META = (
    re.compile(r"^\(?(?:word count|words?|total words|단어 수)\s*[:=]?\s*\d+\)?\W*$"),
    re.compile(r"^\(?\d+\s*(?:words?|단어)\)?\W*$"),
    re.compile(
        r"^(?:note|disclaimer|참고)\s*:|^(?:this|the above|my) (?:summary|overview|answer|response)"
        r" (?:is|was|has|contains|uses) (?:\w+ ){0,3}(?:words?|based|within|under|written)"
    ),
)


def is_refusal(text: str) -> bool:
    """True when ``text`` says the sources do not hold the answer (:data:`REFUSAL_EN`,
    :data:`REFUSAL_KO`)."""
    low = _plain(text)
    return any(p.search(low) for p in (*REFUSAL_EN, *REFUSAL_KO))


#: A line ending with ``:`` that introduces a list from the sources, however long ("Based on the
#: given passages, the benefits of … include:").
_FROM_SOURCES = re.compile(
    rf"^(?:based on|according to|from|in|using|as (?:stated|mentioned|described) in)\b.*{_SRC_EN}"
    rf"|{_SRC_EN}\b.*\b(?:include|are|is|as follows|the following)\b"
)


def is_framing(text: str) -> bool:
    """True for a sentence that announces the answer (:data:`FRAMING`), a short line (≤ 16
    words) ending with ``:``, or a line ending with ``:`` that introduces what the sources list
    (:data:`_FROM_SOURCES`)."""
    low = _plain(text)
    if low.endswith(":") and (len(low.split()) <= 16 or _FROM_SOURCES.search(low)):
        return True
    return any(p.search(low) for p in FRAMING)


#: Leading words that attribute or announce, not assert: "Based on the passages, …",
#: "Therefore, the answer to the question is: …", "Passage 2 states that …", "제공된 자료에
#: 따르면 …". :func:`judged_start` skips them, so the claim is judged on what it asserts.
LEAD_INS = (
    re.compile(
        r"(?:so|thus|therefore|hence|overall|in summary|in conclusion|to summari[sz]e|in short"
        r"|in other words|additionally|also|furthermore|moreover|finally)\s*,?\s+",
        re.I,
    ),
    re.compile(
        r"(?:based on|according to|as (?:stated|mentioned|described|noted) in|per|from)\s+"
        rf"(?:(?:the|these|those|provided|given|above|available|retrieved|first|second|third)\s+)*"
        rf"{_SRC_EN}(?:\s*\d+)?(?:\s*\[\d+\])?\s*,?\s*",
        re.I,
    ),
    re.compile(
        r"the (?:correct |short |final )?answer(?: to (?:the|your|this) question)?"
        r"(?: \W?[^\n:]{0,80}?\W?)? is\s*:?\s*",
        re.I,
    ),
    re.compile(
        rf"(?:{_SRC_EN}|[Ss]ource|[Pp]assage)\s*\d*\s*(?:\[\d+\])?\s*(?:states?|says?|mentions?|"
        r"notes?|explains?|indicates?|suggests?|reports?|describes?)(?: that)?\s*,?\s*",
        re.I,
    ),
    re.compile(
        rf"(?:(?:제공된|주어진|위의?|해당|검색된) ?)?{_SRC_KO}\s*\d*"
        r"(?:에 따르면|을 보면|를 보면|에서는|에는),?\s*"
    ),
)


def judged_start(text: str) -> int:
    """Offset in ``text`` where its assertion starts: past every lead-in of :data:`LEAD_INS`
    (the whole text stays the claim; only its judged part is shorter). Never skips everything."""
    pos = 0
    while True:
        for pat in LEAD_INS:
            m = pat.match(text, pos)
            if m and m.end() > pos and _WORD.search(strip_citations(text[m.end() :])):
                pos = m.end()
                break
        else:
            return pos


def is_pleasantry(text: str) -> bool:
    """True for "Sure!", "I hope this helps!" and the like (:data:`PLEASANTRY`)."""
    low = _plain(text)
    return any(p.search(low) for p in PLEASANTRY)


def is_meta(text: str) -> bool:
    """True for a statement about the answer itself (:data:`META`)."""
    low = _plain(text)
    return any(p.search(low) for p in META)


def is_citation_only(text: str) -> bool:
    """True when nothing but citations and punctuation is left."""
    return not _WORD.search(strip_citations(text))


#: The rules of the module docstring, in the order they are tried.
NON_CLAIM_RULES: tuple[tuple[str, Callable[[str], bool]], ...] = (
    ("citation only", is_citation_only),
    ("refusal", is_refusal),
    ("framing", is_framing),
    ("pleasantry", is_pleasantry),
    ("meta statement", is_meta),
)


def non_claim_kind(text: str) -> str | None:
    """The name of the first rule of :data:`NON_CLAIM_RULES` that matches ``text``, else None."""
    for name, rule in NON_CLAIM_RULES:
        if rule(text):
            return name
    return None
