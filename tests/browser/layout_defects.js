// The layout defects of the page in view (tests/browser/test_browser_layout.py): a list of
// short strings, each naming the element.
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
  // (f) a Lecture pane whose content scrolls inside it (a pane leaves out what does not fit, with
  // a marker, rather than clip it)
  for (const b of document.querySelectorAll('[data-pane] .ri-lec-body')) {
    if (visible(b) && b.scrollHeight > b.clientHeight + 1) {
      out.push(`clipped: pane ${b.closest('[data-pane]').dataset.pane} holds ${b.scrollHeight} px in ${b.clientHeight} px`);
    }
  }
  // (g) text cut off by an ellipsis in the main area (a label or value that does not fit its box);
  // the Lecture view's one-line question and its chunk lines say what they cut (title, marker)
  let cut = 0;
  for (const e of main.querySelectorAll('*')) {
    if (e.closest('svg, iframe, .ri-lec, [data-testid=stSidebar]') || !visible(e)) continue;
    const st = getComputedStyle(e);
    if (st.textOverflow !== 'ellipsis' || st.overflowX === 'visible') continue;
    if (e.scrollWidth > e.clientWidth + 1 && cut++ < 5) out.push(`truncated: ${name(e)}`);
  }
  // (h) a table column squeezed to a character or two a line (Korean text broke between its
  // syllables: "고/지/대/의")
  let squeezed = 0;
  for (const td of main.querySelectorAll('.ri-table td')) {
    const text = (td.innerText || '').trim(), fs = parseFloat(getComputedStyle(td).fontSize);
    if (!visible(td) || text.length < 4) continue;
    const lines = td.getClientRects().length && Math.round(td.scrollHeight / (fs * 1.3));
    if (td.clientWidth < 2.6 * fs && lines >= 3 && squeezed++ < 3) out.push(`squeezed: ${name(td)} ${td.clientWidth} px wide`);
  }
  // (i) a legend chip broken over two lines ("뒷/받침 없음", "✂ 정답을 자/른 경계")
  let broken = 0;
  for (const c of document.querySelectorAll('.ri-legend > span')) {
    if (visible(c) && c.getClientRects().length > 1 && broken++ < 3) out.push(`broken chip: ${name(c)}`);
  }
  // (e) a Python exception on the page
  for (const x of document.querySelectorAll('[data-testid=stException]')) out.push(`exception: ${name(x)}`);
  // (d) a dialog over the page on arrival (Streamlit's "Page not found")
  for (const d of document.querySelectorAll('[role=dialog]')) {
    if (visible(d)) out.push(`dialog: ${name(d)}`);
  }
  return out;
}
