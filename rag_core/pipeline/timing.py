"""Stage timings: each stage's milliseconds, measured beside its result and shown rounded."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def timed(stage: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> tuple[R, float]:
    """``stage(*args, **kwargs)`` and the milliseconds it took (wall clock)."""
    t = time.perf_counter()
    made = stage(*args, **kwargs)
    return made, (time.perf_counter() - t) * 1000


def rounded_ms(timings: Mapping[str, float]) -> dict[str, float]:
    """A Trace's stage timings as shown: milliseconds to 3 decimals (rounded when first read)."""
    return {k: round(v, 3) for k, v in timings.items()}
