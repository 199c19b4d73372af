"""The checks behind :class:`rag_core.config.PipelineConfig`'s validation: one function per
kind of value (a choice, an integer or a number in range, a flag, a model name, an endpoint
URL, a key's environment-variable name), each raising :class:`ConfigError` with a declared code
that names the key, the value and what would be valid."""

from __future__ import annotations

import math
import re
from typing import Any
from urllib.parse import urlsplit

from .wording import NoticeError, declare, notice

CONFIG_NOT_A_CHOICE = declare("config.not_a_choice", "key", "value", "choices")
CONFIG_NOT_AN_INTEGER = declare("config.not_an_integer", "key", "value")
CONFIG_NOT_A_NUMBER = declare("config.not_a_number", "key", "value")
CONFIG_NOT_FINITE = declare("config.not_finite", "key", "value")
CONFIG_OUT_OF_RANGE = declare("config.out_of_range", "key", "value", "bound")
CONFIG_BOUND_AT_LEAST = declare("config.bound.at_least", "low")
CONFIG_BOUND_ABOVE = declare("config.bound.above", "low")
CONFIG_BOUND_BETWEEN = declare("config.bound.between", "low", "high")
CONFIG_BOUND_AT_LEAST_AT_MOST = declare("config.bound.at_least_at_most", "low", "high")
CONFIG_BOUND_ABOVE_AT_MOST = declare("config.bound.above_at_most", "low", "high")
CONFIG_NOT_A_BOOL = declare("config.not_a_bool", "key", "value")
CONFIG_NOT_A_MODEL_NAME = declare("config.not_a_model_name", "key", "value")
CONFIG_ENDPOINT_EMPTY = declare("config.endpoint_empty", "key")
CONFIG_ENDPOINT_CREDENTIALS = declare("config.endpoint_credentials", "key")
CONFIG_ENDPOINT_SCHEME = declare("config.endpoint_scheme", "key", "url")
CONFIG_ENDPOINT_QUERY = declare("config.endpoint_query", "key")
CONFIG_ENDPOINT_PORT = declare("config.endpoint_port", "key")
CONFIG_KEY_ENV_NOT_TEXT = declare("config.key_env_not_text")
CONFIG_KEY_ENV_NOT_NAME = declare("config.key_env_not_name")


class ConfigError(NoticeError):
    """A bad configuration value, key or override; ``notice`` says why (code + params), the
    exception's text is its English (``rag_core.wording.english``)."""


def fail(code: str, **params: Any) -> ConfigError:
    """The :class:`ConfigError` of a declared ``code`` with ``params`` (to ``raise``)."""
    return ConfigError(notice(code, **params))


def choice(path: str, value: Any, choices: tuple[str, ...]) -> None:
    """``value`` is one of ``choices``."""
    if value not in choices:
        raise fail(CONFIG_NOT_A_CHOICE, key=path, value=value, choices=", ".join(choices))


def int_range(path: str, value: Any, low: int, high: int | None = None) -> None:
    """``value`` is an integer (not a bool) with ``low <= value`` (``<= high`` when given)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(CONFIG_NOT_AN_INTEGER, key=path, value=value)
    if value < low or (high is not None and value > high):
        bound = (
            notice(CONFIG_BOUND_AT_LEAST, low=low)
            if high is None
            else notice(CONFIG_BOUND_BETWEEN, low=low, high=high)
        )
        raise fail(CONFIG_OUT_OF_RANGE, key=path, value=value, bound=bound)


def float_range(
    path: str, value: Any, low: float, high: float | None = None, *, low_open: bool = False
) -> None:
    """``value`` is a finite number above ``low`` (``low_open``) or at least ``low``, and at
    most ``high`` when given."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise fail(CONFIG_NOT_FINITE, key=path, value=value)
    too_low = value <= low if low_open else value < low
    if too_low or (high is not None and value > high):
        if high is None:
            bound = notice(CONFIG_BOUND_ABOVE if low_open else CONFIG_BOUND_AT_LEAST, low=low)
        else:
            code = CONFIG_BOUND_ABOVE_AT_MOST if low_open else CONFIG_BOUND_AT_LEAST_AT_MOST
            bound = notice(code, low=low, high=high)
        raise fail(CONFIG_OUT_OF_RANGE, key=path, value=value, bound=bound)


def boolean(path: str, value: Any) -> None:
    """``value`` is ``True`` or ``False``."""
    if not isinstance(value, bool):
        raise fail(CONFIG_NOT_A_BOOL, key=path, value=value)


def model_name(path: str, value: Any) -> None:
    """``value`` is a non-blank string."""
    if not isinstance(value, str) or not value.strip():
        raise fail(CONFIG_NOT_A_MODEL_NAME, key=path, value=value)


#: The prefix of an endpoint generator's name: ``openai:MODEL`` (``rag_core.models.endpoint``).
ENDPOINT_PREFIX = "openai:"
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def is_endpoint_model(name: Any) -> bool:
    """Whether a generator name is an endpoint model (``openai:MODEL``)."""
    return isinstance(name, str) and name.startswith(ENDPOINT_PREFIX)


def check_endpoint_url(url: Any, key: str = "generation.endpoint") -> str:
    """``url`` without a trailing slash, after checking it is a plain ``http(s)://host[:port]/…``.

    Raises:
        ConfigError: Another scheme, no host, credentials in the URL (keys belong in
            ``generation.api_key_env``), a query string, a fragment or a bad port.
    """
    if not isinstance(url, str) or not url.strip():
        raise fail(CONFIG_ENDPOINT_EMPTY, key=key)
    text = url.strip()
    parts = urlsplit(text)
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise fail(CONFIG_ENDPOINT_CREDENTIALS, key=key)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise fail(CONFIG_ENDPOINT_SCHEME, key=key, url=text)
    if parts.query or parts.fragment:
        raise fail(CONFIG_ENDPOINT_QUERY, key=key)
    try:
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        raise fail(CONFIG_ENDPOINT_PORT, key=key) from None
    return text.rstrip("/")


def check_key_env(name: Any) -> str:
    """``name`` stripped when it is a valid environment variable name (or empty: no key).

    Raises:
        ConfigError: Not a name (a key pasted here by mistake is refused without echoing it).
    """
    if not isinstance(name, str):
        raise fail(CONFIG_KEY_ENV_NOT_TEXT)
    text = name.strip()
    if text and not _ENV_NAME.match(text):
        raise fail(CONFIG_KEY_ENV_NOT_NAME)
    return text
