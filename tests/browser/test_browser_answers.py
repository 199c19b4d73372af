"""Evaluate → answers in a real browser with the real generator (Qwen 0.5B, ≤ 6 questions).

Marked ``browser`` and ``slow``: a fresh machine generates 3 answers (a few
minutes on 2 cores); a second run replays them from the generation cache.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from helpers.browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    IDLE,
    MARKS,
    full_page_shot,
    serve,
    wait_idle,
)

pytestmark = [*MARKS, pytest.mark.slow]
RUN_MS = 1_500_000  # generation of 3 answers on a loaded 2-core machine


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("server") / "streamlit.log", None) as url:
        yield url


def test_evaluate_page_shows_answer_metrics_and_the_loss_stage_chart(server, tmp_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 2600})
        page.goto(f"{server}/evaluate?lang=en")
        wait_idle(page)
        page.get_by_text("Evaluate answers too (generation, slow)").click()
        wait_idle(page)
        box = page.get_by_role("spinbutton", name="Questions (from the start of the set)")
        box.fill("3")
        box.press("Enter")
        wait_idle(page)
        page.get_by_role("button", name="Run the answer evaluation").click()
        page.get_by_text("failed answerable questions =", exact=False).wait_for(timeout=RUN_MS)
        page.wait_for_selector(IDLE, timeout=RUN_MS)
        wait_idle(page)
        main = page.locator("[data-testid=stMain]")
        for text in (
            "answered correctly",
            "false refusal",
            "bluff",
            "claims: supported and cited",
            "context utilisation",
            "result hash",
        ):
            assert main.get_by_text(text, exact=False).count() >= 1, text
        chart = page.locator("[data-testid=stPlotlyChart]").first
        chart.scroll_into_view_if_needed()
        assert chart.locator("text", has_text="asked").count() >= 1
        assert chart.locator("text", has_text="answered correctly").count() >= 1
        assert page.get_by_text("Answers per question").count() == 1
        full_page_shot(page, tmp_path, "evaluate-answers.png")
        browser.close()
