"""A tiny registry of named functions: one obvious place to add a variant.

Chunkers, analyzers, idf forms, fusion methods and metrics are all looked up
by name through a :class:`Registry`, which raises a ``ValueError`` naming the
bad value and the valid choices (as bm25s' scoring dispatcher does).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class Registry(Generic[T]):
    """Named entries of one kind, e.g. ``Registry[Analyzer]("analyzer")``."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._entries: dict[str, T] = {}

    def register(self, name: str) -> Callable[[T], T]:
        """Decorator that stores ``obj`` under ``name``."""

        def deco(obj: T) -> T:
            if name in self._entries:
                raise ValueError(f"{self.kind} {name!r} is registered twice")
            self._entries[name] = obj
            return obj

        return deco

    def add(self, name: str, obj: T) -> None:
        """Store ``obj`` under ``name`` (non-decorator form)."""
        self.register(name)(obj)

    def get(self, name: str) -> T:
        """Return the entry, or raise ``ValueError`` listing the valid names."""
        try:
            return self._entries[name]
        except KeyError:
            raise ValueError(
                f"unknown {self.kind} {name!r}; valid choices: {', '.join(self.names())}"
            ) from None

    def names(self) -> tuple[str, ...]:
        return tuple(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)
