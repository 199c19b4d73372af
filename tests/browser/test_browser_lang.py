"""A language switch changes words only, in a real browser (the app mirrors every setting that
differs from the default into the URL, so the URL before and after tells whether one moved).

Streamlit takes a widget whose label changed for a new widget; before the sidebar wrote every
widget value back to its key, switching 한국어/English reset ``generation.citations`` to
``free``, "no generator" to the default model and k to its minimum.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from helpers.browser import MARKS, wait_idle

pytestmark = MARKS

START = (
    "generation.model=none&generation.citations=enforced&retrieval.k=7&context.budget_tokens=900"
)


def settings(url: str) -> dict[str, list[str]]:
    """The URL's parameters without the language."""
    q = parse_qs(urlsplit(url).query)
    q.pop("lang", None)
    return q


#: Every page (the root is Inspect); Lecture opens with its sidebar folded away.
PAGES = ("", "check", "chunks", "compare", "scenarios", "lecture", "label", "evaluate", "threshold")


@pytest.mark.parametrize("page_path", PAGES)
def test_switching_language_keeps_every_setting(server, browser, page_path):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{server}/{page_path}?lang=ko&{START}")
    wait_idle(page)
    if not page.locator("[data-testid=stSidebar]").get_by_text("English", exact=True).is_visible():
        page.locator("[data-testid=stExpandSidebarButton]").click()
        page.wait_for_timeout(500)
    before = settings(page.url)
    assert before["retrieval.k"] == ["7"] and before["generation.model"] == ["none"]
    assert "generation.citations" not in before  # the default (enforced) is left out of the URL
    for label, lang in (("English", "en"), ("한국어", "ko"), ("English", "en")):
        page.locator("[data-testid=stSidebar]").get_by_text(label, exact=True).click()
        wait_idle(page)
        assert parse_qs(urlsplit(page.url).query).get("lang") == [lang]
        assert settings(page.url) == before, f"switching to {lang} on /{page_path}"
    page.close()
