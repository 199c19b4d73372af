"""Fixtures of the real-browser tests: served apps and one headless chromium per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from helpers.browser import CHROMIUM, CHROMIUM_ARGS, serve


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    """The app with generation off (fast); Qdrant folders under pytest's temporary root may be
    named in the URL."""
    with serve(
        tmp_path_factory.mktemp("server") / "streamlit.log",
        RAG_INSPECTOR_QDRANT=str(tmp_path_factory.getbasetemp()),
    ) as url:
        yield url


@pytest.fixture(scope="module")
def server_gen(tmp_path_factory) -> Iterator[str]:
    """The app with its default configuration: the real generator (answers replay from the cache
    after the first run)."""
    with serve(tmp_path_factory.mktemp("server-gen") / "streamlit.log", None) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
