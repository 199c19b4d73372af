"""Helpers of the AppTest test files (see ui/apptest.py for the entry wrapper)."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from .paths import ROOT

TIMEOUT = 300

#: Document lines that would run script if any page inserted them as HTML.
PAYLOAD_LINES = (
    "<script>window.__xss = 1; alert('script')</script>",
    "<img src=x onerror=\"window.__xss = 1; alert('img')\">",
    '<svg onload="window.__xss = 1; alert(\'svg\')"><circle r="4"/></svg>',
)

#: The Inspect page's stage headings in English, in page order.
STAGE_HEADINGS_EN = (
    "① Chunking",
    "② Retrieval",
    "③ Fusion",
    "④ Rerank",
    "⑤ Gate",
    "⑥ Context",
    "⑦ Answer | sources",
)


def write_payload_docs(tmp_path: Path) -> Path:
    """``tmp_path/docs`` with a Markdown and a text document made of :data:`PAYLOAD_LINES`."""
    docs = tmp_path / "docs"
    docs.mkdir()
    body = "\n\n".join(
        f"Zebrafish tank note {i}: {line} The tank holds 42 litres."
        for i, line in enumerate(PAYLOAD_LINES)
    )
    (docs / "payload-notes.md").write_text(
        f"# Tank <script>window.__xss=1</script> notes\n\n{body}\n", encoding="utf-8"
    )
    (docs / "payload-plain.txt").write_text(body + "\n", encoding="utf-8")
    return docs


def make_app(entry: Path, query: dict[str, str] | None = None, page: str | None = None) -> AppTest:
    """Run the app once with ``query`` in the URL, switched to ``pages/<page>.py``."""
    at = AppTest.from_file(str(entry), default_timeout=TIMEOUT)
    if query:
        at.query_params.update(query)
    if page:
        at.switch_page(str(ROOT / "pages" / f"{page}.py"))
    return at.run()


def ok(at: AppTest) -> None:
    """No exception and no error element on the page."""
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def plain(markdown: str) -> str:
    """The text a Markdown element shows (the app backslash-escapes untrusted text and
    puts an invisible word joiner, U+2060, into would-be autolinks)."""
    return re.sub(r"\\(.)", r"\1", markdown).replace("\u2060", "")


def html(at: AppTest) -> str:
    """All ``st.html`` bodies of the page, joined."""
    return "\n".join(h.value for h in at.html)


ROW = re.compile(r"<tr[ >]")


def rows_of(at: AppTest, list_name: str) -> int | None:
    """Body rows of the table (or zero box) tagged ``data-list="<name>"``; None when absent."""
    for h in at.html:
        body = h.value
        if f'data-list="{list_name}"' not in body:
            continue
        if "ri-zero" in body:
            return 0
        tbody = body.split("<tbody>", 1)[1]
        return len(ROW.findall(tbody))
    return None
