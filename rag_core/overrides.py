"""Configuration overrides as text: ``key=value`` items from a text box, a link's ``b=`` or the
CLI's repeated ``--set``, read into ``{key: value}`` for
:meth:`rag_core.config.PipelineConfig.with_overrides` (which types and checks each value)."""

from __future__ import annotations

from collections.abc import Iterable

from .config_checks import ConfigError
from .types import Notice
from .wording import declare, notice

CONFIG_OVERRIDES_NOT_TEXT = declare("config.overrides_not_text", "kind")
CONFIG_ITEM_NOT_PAIR = declare("config.item_not_pair", "item")
CONFIG_ITEM_NOT_KEY_VALUE = declare("config.item_not_key_value", "item")


def split_override(item: str) -> tuple[str, str] | None:
    """``"section.key=value"`` → ``(key, value)``, both stripped; None without ``=`` or a key."""
    key, sep, value = item.partition("=")
    if not sep or not key.strip():
        return None
    return key.strip(), value.strip()


def parse_overrides(text: str) -> tuple[dict[str, str], list[Notice]]:
    """Parse ``key=value`` items separated by newlines or ``;`` (a text box, a URL's ``b=``).

    Blank items and ``#`` comments are skipped. Returns the overrides (later
    keys win) and one ``config.item_not_key_value`` notice per item without ``=`` (for a page
    to word in its language). Apply them with :meth:`PipelineConfig.with_overrides`.

    Raises:
        ConfigError: ``text`` is not a string.
    """
    if not isinstance(text, str):
        raise ConfigError(notice(CONFIG_OVERRIDES_NOT_TEXT, kind=type(text).__name__))
    out: dict[str, str] = {}
    problems: list[Notice] = []
    for raw in text.replace(";", "\n").splitlines():
        item = raw.split("#", 1)[0].strip()
        if not item:
            continue
        pair = split_override(item)
        if pair is None:
            problems.append(notice(CONFIG_ITEM_NOT_KEY_VALUE, item=item))
            continue
        out[pair[0]] = pair[1]
    return out, problems


def override_items(items: Iterable[str]) -> dict[str, str]:
    """The CLI's repeated ``--set key=value`` items as overrides (later keys win).

    Raises:
        ConfigError: an item without ``=`` or without a key.
    """
    out: dict[str, str] = {}
    for item in items:
        pair = split_override(item)
        if pair is None:
            raise ConfigError(notice(CONFIG_ITEM_NOT_PAIR, item=item))
        out[pair[0]] = pair[1]
    return out
