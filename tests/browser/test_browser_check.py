"""The "Check an answer" page in a real browser: a pasted answer's claims coloured by verdict,
the evidence window marked in its context, model and document text shown as text; screenshot."""

from __future__ import annotations

from helpers.browser import MARKS, WAIT_MS, full_page_shot, wait_idle

pytestmark = MARKS

CONTEXTS = (
    "The bridge opened on April 18, 2019. It is 1,200 m long. <img src=x onerror=window.__xss=1>"
    "\n---\nCats purr when they are content."
)
ANSWER = (
    "Sure! The bridge opened on April 21, 2019 [1]. It is 1,200 m long [1]. "
    "<script>window.__xss=1</script>"
)


def _fill(page, label: str, text: str) -> None:
    box = page.get_by_role("textbox", name=label, exact=True)
    box.fill(text)
    box.press("Control+Enter")  # a text area applies its value on Ctrl+Enter
    wait_idle(page)


def test_check_page_colours_pasted_claims_and_marks_their_evidence(server, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1400, "height": 1800})
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(f"{server}/check?lang=en")
    wait_idle(page)
    page.get_by_role("heading", name="Check an answer").wait_for(timeout=WAIT_MS)
    _fill(page, "Contexts — separate them with a line '---'", CONTEXTS)
    _fill(page, "Answer", ANSWER)
    page.get_by_text("Flagged: 1 of 3 claims unsupported or contradicted").wait_for(timeout=WAIT_MS)
    main = page.locator("[data-testid=stMain]")
    # each claim of the answer coloured by its verdict (the legend carries the same classes)
    for verdict, text in (
        ("not-a-claim", "Sure!"),
        ("contradicted", "The bridge opened on April"),  # "21" is its own mark inside
        ("supported", "It is 1,200 m long"),
    ):
        mark = main.locator(f".ri-claim.ri-v-{verdict}", has_text=text).first
        assert mark.is_visible(), verdict
    # the supported claim's evidence sentence is marked in context [1]
    page.get_by_text("3. [supported]", exact=False).click()
    wait_idle(page)
    ev = main.locator(".ri-src .ri-ev-best").first
    ev.wait_for(timeout=WAIT_MS)
    assert "1,200 m long" in ev.inner_text()
    # text from the answer and the contexts stays text
    assert main.get_by_text("<script>window.__xss=1</script>", exact=False).count() >= 1
    assert main.locator("script, img[src=x]").count() == 0
    assert page.evaluate("typeof window.__xss") == "undefined" and dialogs == []
    page.evaluate("window.scrollTo(0, 0)")
    full_page_shot(page, tmp_path, "check.png")
    page.close()
