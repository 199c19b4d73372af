"""Layout of every page at 1280×720, 1280×800 and 1920×1080, in Korean and in English.

One served app (generation off, ``generation.model=none``) and one headless chromium; each
page is opened once per language and the viewport resized through the three screens. In the
page a script looks for (a) horizontal overflow (the document wider than the window, or a
visible element, not clipped by a scrolling ancestor, whose right edge passes the viewport),
(b) text of one column of a row painted over a sibling column, and (c) in the Lecture panes
a clipped scroll container hiding the prompt's budget-cut marker; (d) a dialog on arrival
(``/inspect`` opened Streamlit's "Page not found"). Screenshots go to
``$RAG_LAYOUT_SHOTS`` (else pytest's temporary folder; the path is printed).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers.browser import MARKS, wait_idle

pytestmark = MARKS

#: The app's root (its default page) and every page under pages/.
PATHS = ("", "inspect", "check", "chunks", "compare", "scenarios", "lecture", "label",
         "evaluate", "threshold")  # fmt: skip
SCREENS = ((1280, 720), (1280, 800), (1920, 1080))

#: Returns a list of defects, each a short string naming the element.
FIND_DEFECTS = r"""
() => {
  const vw = window.innerWidth, out = [];
  const main = document.querySelector('[data-testid=stMain]') || document.body;
  const name = e => {
    let s = e.tagName.toLowerCase();
    if (e.dataset && e.dataset.testid) s += `[${e.dataset.testid}]`;
    if (e.className && typeof e.className === 'string') s += '.' + e.className.trim().split(/\s+/).slice(0, 2).join('.');
    const txt = (e.innerText || '').trim().slice(0, 40).replace(/\s+/g, ' ');
    return txt ? `${s} "${txt}"` : s;
  };
  const visible = e => {
    const st = getComputedStyle(e), r = e.getBoundingClientRect();
    return st.visibility !== 'hidden' && st.display !== 'none' && r.width > 0 && r.height > 0;
  };
  // the rectangle of e left visible by its clipping ancestors (null: wholly clipped)
  const shown = e => {
    let r = e.getBoundingClientRect();
    let box = {l: r.left, t: r.top, r: r.right, b: r.bottom};
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const st = getComputedStyle(a);
      const clipX = st.overflowX !== 'visible', clipY = st.overflowY !== 'visible';
      if (!clipX && !clipY) continue;
      const ar = a.getBoundingClientRect();
      if (clipX) { box.l = Math.max(box.l, ar.left); box.r = Math.min(box.r, ar.right); }
      if (clipY) { box.t = Math.max(box.t, ar.top); box.b = Math.min(box.b, ar.bottom); }
      if (box.r - box.l < 1 || box.b - box.t < 1) return null;
    }
    return box;
  };
  // (a) horizontal overflow
  const sw = document.documentElement.scrollWidth;
  if (sw > vw + 1) out.push(`overflow: document ${sw} px wide > window ${vw}`);
  let n = 0;
  for (const e of main.querySelectorAll('*')) {
    if (e.closest('svg, iframe, [data-testid=stSidebar]') || !visible(e)) continue;
    const b = shown(e);
    if (b && b.r > vw + 1 && n++ < 5) out.push(`overflow: ${name(e)} right edge ${Math.round(b.r)} > ${vw}`);
  }
  // (b) text of a column painted over a sibling column of the same row
  for (const row of main.querySelectorAll('[data-testid=stHorizontalBlock]')) {
    const cols = [...row.children].filter(visible);
    for (const c of cols) {
      const others = cols.filter(o => o !== c).map(o => [o, o.getBoundingClientRect()]);
      let hit = null;
      for (const e of c.querySelectorAll('*')) {
        if (hit || e.closest('svg, iframe') || e.children.length || !(e.textContent || '').trim() || !visible(e)) continue;
        const b = shown(e);
        if (!b) continue;
        for (const [o, r] of others) {
          if (b.l < r.right - 2 && b.r > r.left + 2 && b.t < r.bottom - 2 && b.b > r.top + 2) { hit = [e, o]; break; }
        }
      }
      if (hit) out.push(`overlap: ${name(hit[0])} over the column ${name(hit[1])}`);
    }
  }
  // (c) a Lecture pane's clipping hides the budget-cut marker
  for (const m of document.querySelectorAll('[data-pane] .ri-trunc')) {
    const b = shown(m), r = m.getBoundingClientRect();
    if (!b || b.b - b.t < r.height - 1) out.push(`clipped: the budget-cut marker is hidden in ${name(m.closest('[data-pane]'))}`);
  }
  // (e) a Python exception on the page
  for (const x of document.querySelectorAll('[data-testid=stException]')) out.push(`exception: ${name(x)}`);
  // (d) a dialog over the page on arrival (Streamlit's "Page not found")
  for (const d of document.querySelectorAll('[role=dialog]')) {
    if (visible(d)) out.push(`dialog: ${name(d)}`);
  }
  return out;
}
"""


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("RAG_LAYOUT_SHOTS") or tmp_path_factory.mktemp("layout-shots"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"layout screenshots in {folder}")
    return folder


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("path", PATHS)
def test_no_overflow_or_overlap_on_any_screen(server, browser, shots, path, lang):
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(f"{server}/{path}?lang={lang}&generation.model=none")
    wait_idle(page)
    found: list[str] = []
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(600)  # charts and columns re-lay themselves out
        where = f"{path or 'app'} {lang} {width}x{height}"
        page.screenshot(path=str(shots / f"{path or 'app'}-{lang}-{width}x{height}.png"))
        found += [f"{where}: {d}" for d in page.evaluate(FIND_DEFECTS)]
    page.close()
    assert not found, "\n".join(found)
