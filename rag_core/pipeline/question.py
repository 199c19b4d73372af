"""The question stage: the user's text cleaned, or a clear refusal of unusable input."""

from __future__ import annotations

import unicodedata
from collections import Counter
from functools import lru_cache
from typing import Any

from ..types import Notice
from ..wording import declare, notice, refused

#: Longest question accepted (characters). Longer input is an error, not a prompt.
MAX_QUESTION_CHARS = 2000


_KNOWN_SCRIPTS = {"LATIN", "HANGUL", "DIGIT"}


#: The question's warnings (``Trace.notices``).
QUESTION_NO_LETTERS = declare("question.no_letters")
QUESTION_OTHER_SCRIPT = declare("question.other_script", "script")
#: Why a question cannot be run.
QUESTION_NOT_TEXT = declare("question.not_text", "kind")
QUESTION_EMPTY = declare("question.empty")
QUESTION_TOO_LONG = declare("question.too_long", "chars", "limit")


def validate_question(question: Any) -> tuple[str, tuple[Notice, ...]]:
    """Clean a question; raise ``ValueError`` (a :class:`~rag_core.wording.NoticeError`) for
    unusable input.

    Returns the NFC-normalised, stripped question and its warnings as notices (no letters,
    or mostly a script the corpus does not use).
    """
    if not isinstance(question, str):
        raise refused(QUESTION_NOT_TEXT, kind=type(question).__name__)
    q = unicodedata.normalize("NFC", question).replace("\r\n", "\n").strip()
    if not q:
        raise refused(QUESTION_EMPTY)
    if len(q) > MAX_QUESTION_CHARS:
        raise refused(QUESTION_TOO_LONG, chars=len(q), limit=MAX_QUESTION_CHARS)
    warnings: list[Notice] = []
    if q.isascii():  # the common case: digits and Latin letters only, both known scripts
        if not any(map(str.isalnum, q)):
            warnings.append(notice(QUESTION_NO_LETTERS))
        return q, tuple(warnings)
    scripts = Counter(map(_script, filter(str.isalnum, q)))
    if not scripts:
        warnings.append(notice(QUESTION_NO_LETTERS))
    else:
        script, n = scripts.most_common(1)[0]
        if script not in _KNOWN_SCRIPTS and n / sum(scripts.values()) >= 0.5:
            warnings.append(notice(QUESTION_OTHER_SCRIPT, script=script.title()))
    return q, tuple(warnings)


@lru_cache(maxsize=65536)
def _script(ch: str) -> str:
    """The Unicode script word of ``ch``'s name (``HANGUL``, ``LATIN``…), memoised per character."""
    if ch.isdigit():
        return "DIGIT"
    try:
        return unicodedata.name(ch).split()[0]
    except ValueError:
        return "UNKNOWN"
