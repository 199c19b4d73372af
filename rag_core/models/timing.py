"""Time to first token and decode time of one ``model.generate`` call.

transformers' ``generate`` hands its streamer the prompt ids once
(``put(prompt)``) and then every new token right after it is picked
(``put(token)``), and calls ``end()`` when it stops. :class:`FirstTokenClock`
is such a streamer: it stamps the first new token, so

- ``prefill_seconds`` = first new token − call start: the forward pass over the
  whole prompt (plus the first greedy pick), the cost that grows with the prompt;
- ``decode_seconds`` = call end − first new token: the remaining ``n − 1``
  tokens, one forward pass of one token each.

It forwards every call to an inner streamer (the answer's live text) when
one is given, so timing never changes what is streamed.
"""

from __future__ import annotations

import time
from typing import Any


class FirstTokenClock:
    """A ``generate`` streamer that records when the first new token arrives."""

    def __init__(self, inner: Any = None) -> None:
        self.inner = inner
        self.t_start: float | None = None
        self.t_first: float | None = None
        self.tokens = 0
        self._prompt_seen = False

    def start(self, t0: float) -> None:
        """The wall time (``time.perf_counter()``) at which ``generate`` was called."""
        self.t_start = t0

    def put(self, value: Any) -> None:
        """First call: the prompt (skipped); later calls: one new token each."""
        if not self._prompt_seen:
            self._prompt_seen = True
        else:
            if self.t_first is None:
                self.t_first = time.perf_counter()
            self.tokens += int(getattr(value, "numel", lambda: 1)())
        if self.inner is not None:
            self.inner.put(value)

    def end(self) -> None:
        if self.inner is not None:
            self.inner.end()

    def split(self, t_end: float) -> dict[str, float]:
        """``{"prefill_seconds", "decode_seconds"}`` for a call that ended at ``t_end``."""
        start = self.t_start if self.t_start is not None else t_end
        first = self.t_first if self.t_first is not None else t_end
        return {"prefill_seconds": first - start, "decode_seconds": max(t_end - first, 0.0)}


def rates(
    prompt_tokens: int, new_tokens: int, prefill_seconds: float, decode_seconds: float
) -> dict[str, float | None]:
    """Tokens per second: ``prompt_tokens / prefill_seconds`` and ``(new_tokens − 1) /
    decode_seconds`` (the first new token is the prefill's output), None where undefined."""
    prefill = prompt_tokens / prefill_seconds if prefill_seconds > 0 else None
    decode = (new_tokens - 1) / decode_seconds if new_tokens > 1 and decode_seconds > 0 else None
    return {"prefill_tokens_per_s": prefill, "decode_tokens_per_s": decode}
