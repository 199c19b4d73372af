"""A BEIR folder in a real browser: what a page switch keeps.

Streamlit drops the state of the sidebar's widgets when a button's callback switches pages (the
new page's run starts before they render again), so the sidebar must carry the person's corpus
choice, the folder path and the question over the switch itself. AppTest does not switch pages
as the browser does; this test opens a BEIR folder, runs Evaluate and opens a query in Inspect.
"""

from __future__ import annotations

from urllib.parse import urlencode

from helpers.browser import MARKS, WAIT_MS, wait_idle
from helpers.datasets import QUERIES, write_beir

pytestmark = MARKS


def test_a_beir_query_opened_from_evaluate_stays_on_its_folder(server, browser, tmp_path):
    folder = write_beir(tmp_path / "mini")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server}/evaluate?" + urlencode({"lang": "en", "corpus": "beir"}))
    wait_idle(page)
    side = page.locator("[data-testid=stSidebar]")
    box = side.get_by_role("textbox", name="BEIR or TREC folder path").first
    box.fill(str(folder))
    box.press("Enter")
    wait_idle(page)
    assert "Loaded 5 documents, 3 judged queries" in side.inner_text()
    page.get_by_role("button", name="Run the evaluation").click()
    page.get_by_role("button", name="Open in Inspect").wait_for(timeout=WAIT_MS)
    wait_idle(page)
    page.get_by_role("button", name="Open in Inspect").click()
    page.wait_for_selector("h1:has-text('Inspect')", timeout=WAIT_MS)
    wait_idle(page)
    asked = {q["_id"]: q["text"] for q in QUERIES}["q1"]  # the first judged query, preselected
    assert "corpus=beir" in page.url and "qid=q1" in page.url, page.url
    assert f"Question: {asked}" in page.locator("[data-testid=stMain]").inner_text()
    assert "Loaded 5 documents, 3 judged queries" in side.inner_text()
    # and back through the navigation: the folder is still the corpus
    side.get_by_role("link", name="Label").click()
    page.wait_for_selector("h1:has-text('Label')", timeout=WAIT_MS)
    wait_idle(page)
    assert "corpus=beir" in page.url, page.url
    assert "Loaded 5 documents, 3 judged queries" in side.inner_text()
    page.close()
