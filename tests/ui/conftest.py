"""The pages' tests see every page's words, as the app does."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def _every_page_registered(page_words: None) -> None:
    """``page_words`` (``tests/conftest.py``) for every test here."""
