"""The one error every model loader raises when weights are not there."""

from __future__ import annotations


class ModelUnavailable(ValueError):
    """A named model cannot be loaded here; ``reason`` says why in plain words.

    A subclass of ``ValueError`` so that a command line that reports bad input
    in one line reports a missing model the same way.

    Attributes:
        name: The model name, hub id or path the user gave.
        reason: What is missing and what to do about it.
    """

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.reason = reason
        super().__init__(f"model {name!r} is unavailable: {reason}")
