"""Threshold ranges: the text a person types for the thresholds a sweep tries.

``"start:stop:step"`` (stop included), a comma list or one number, as the Threshold page's
range box and ``python -m rag_core sweep --thresholds`` take it. A bad range is refused with
a coded notice (``range.*``) naming the part and the rule.
"""

from __future__ import annotations

import math
from typing import Any

from ..types import Notice
from ..wording import NoticeError, declare, notice, refused

MAX_RANGE_VALUES = 10_001

#: Why a threshold range box was refused (``range {text!r}: …`` for most).
RANGE_AT = declare("range.at", "text", "problem")
RANGE_EMPTY = declare("range.empty", "text")
RANGE_NOT_THREE = declare("range.not_three", "text")
RANGE_TOO_MANY = declare("range.too_many", "text", "count", "cap")
RANGE_PART = {n: declare(f"range.part.{n}") for n in ("value", "start", "stop", "step")}
RANGE_NOT_A_NUMBER = declare("range.not_a_number", "part", "value")
RANGE_NOT_FINITE = declare("range.not_finite", "part", "value")
RANGE_STEP_NOT_POSITIVE = declare("range.step_not_positive", "step")
RANGE_STOP_BELOW_START = declare("range.stop_below_start", "stop", "start")


def _named(part: str) -> Notice:
    """``start``/``stop``/``step``/``value`` as a code (the pages word the part's name)."""
    return notice(RANGE_PART[part])


def _range(text: str, code: str, **params: Any) -> NoticeError:
    """The refusal ``range '<text>': <problem>``."""
    return refused(RANGE_AT, text=text, problem=notice(code, **params))


def parse_range(text: str) -> tuple[float, ...]:
    """Parse ``"start:stop:step"`` into thresholds, ``stop`` included.

    ``"0.45:0.8:0.025"`` → ``(0.45, 0.475, …, 0.8)`` (15 values). Values are
    computed as ``start + i·step`` (no accumulated error) and rounded to 10
    decimals, so ``0.475`` prints as ``0.475``. A comma list (``"0.5,0.6"``) or
    a single number is accepted too.
    """
    if not isinstance(text, str) or not text.strip():
        raise refused(RANGE_EMPTY, text=text)

    def number(part: str, name: str) -> float:
        try:
            value = float(part)
        except ValueError:
            raise _range(text, RANGE_NOT_A_NUMBER, part=_named(name), value=part.strip()) from None
        if not math.isfinite(value):
            raise _range(text, RANGE_NOT_FINITE, part=_named(name), value=part.strip())
        return value

    if ":" not in text:
        return tuple(number(p, "value") for p in text.split(","))
    parts = text.split(":")
    if len(parts) != 3:
        raise refused(RANGE_NOT_THREE, text=text)
    start, stop, step = (
        number(p, n) for p, n in zip(parts, ("start", "stop", "step"), strict=True)
    )
    if step <= 0:
        raise _range(text, RANGE_STEP_NOT_POSITIVE, step=step)
    if stop < start:
        raise _range(text, RANGE_STOP_BELOW_START, stop=stop, start=start)
    count = math.floor((stop - start) / step + 1e-9) + 1
    if count > MAX_RANGE_VALUES:
        raise refused(RANGE_TOO_MANY, text=text, count=count, cap=MAX_RANGE_VALUES)
    return tuple(round(start + i * step, 10) for i in range(count))


__all__ = ["MAX_RANGE_VALUES", "parse_range"]
