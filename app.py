"""RAG Stage Inspector — the Streamlit entrypoint.

Only navigation and the shared sidebar live here (and the start of the lecture gallery's
background preparation, ``ui.gallery``); each page is one file under ``pages/`` and renders a
``Trace`` (see docs/ARCHITECTURE.md). Run with ``make run``.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui import cache, gallery, i18n, sidebar
from ui.check import text as check_text
from ui.chunks import text as chunks_text
from ui.compare import text as compare_text
from ui.evaluate import text as evaluate_text
from ui.html import md, show, style
from ui.i18n import coded, t
from ui.inspect import text as inspect_text
from ui.label import text as label_text
from ui.lecture import text as lecture_text
from ui.scenarios import text as scenarios_text
from ui.threshold import text as threshold_text

ROOT = Path(__file__).resolve().parent

#: Page registry: (group, page name). A page is ``pages/<name>.py`` with its
#: title under the i18n key ``page.<name>``, its icon in ICONS and its words in WORDS.
PAGES: tuple[tuple[str, str], ...] = (
    ("diagnose", "inspect"),
    ("diagnose", "check"),
    ("diagnose", "chunks"),
    ("diagnose", "compare"),
    ("diagnose", "scenarios"),
    ("diagnose", "lecture"),
    ("measure", "label"),
    ("measure", "evaluate"),
    ("measure", "threshold"),
)
ICONS = {
    "inspect": ":material/troubleshoot:",
    "check": ":material/fact_check:",
    "chunks": ":material/view_agenda:",
    "compare": ":material/compare:",
    "scenarios": ":material/school:",
    "lecture": ":material/co_present:",
    "label": ":material/label:",
    "evaluate": ":material/monitoring:",
    "threshold": ":material/tune:",
}
#: Each page's words (``ui/<page>/text.py``), registered with ``ui.i18n`` here, where the
#: page is: the shared ``ui/i18n.py`` imports no page.
WORDS = {
    "inspect": inspect_text.TEXT | coded(inspect_text.KOREAN),
    "check": check_text.TEXT,
    "chunks": chunks_text.TEXT,
    "compare": compare_text.TEXT,
    "scenarios": scenarios_text.TEXT,
    "lecture": lecture_text.TEXT,
    "label": label_text.TEXT,
    "evaluate": evaluate_text.TEXT,
    "threshold": threshold_text.TEXT,
}
for _name, _words in WORDS.items():
    i18n.register(_name, _words)


def build_pages(lang: str) -> dict[str, list[st.Page]]:
    """``{section title: [st.Page]}`` for every registered page."""
    sections: dict[str, list[st.Page]] = {}
    for group, name in PAGES:
        page = st.Page(
            str(ROOT / "pages" / f"{name}.py"),
            title=t(f"page.{name}", lang),
            icon=ICONS.get(name),
            url_path="" if name == "inspect" else name,  # the default page is the root
            default=name == "inspect",
        )
        sections.setdefault(t(f"nav.{group}", lang), []).append(page)
        if name == "inspect":
            # the default page is served at the root; its own name (a shared link, the page list)
            # reaches it too instead of Streamlit's "Page not found" dialog
            alias = st.Page(
                str(ROOT / "pages" / f"{name}.py"),
                title=t(f"page.{name}", lang),
                icon=ICONS.get(name),
                url_path=name,
                visibility="hidden",
            )
            sections[t(f"nav.{group}", lang)].append(alias)
    return sections


def unknown_page(
    asked_hash: str | None, asked_name: str | None, main_hash: str, known: dict[str, str]
) -> str | None:
    """The page an address asked for when the app has no such page, else ``None``.

    Streamlit then runs the default page (Inspect). A request names its page by
    URL path (a browser's first load: ``asked_name``) or by script hash (a rerun,
    ``AppTest``: ``asked_hash``); ``known`` maps each registered page's hash to its
    URL path, and ``main_hash`` (this entry script) is the hand-over of a page run on
    its own (``ui.sidebar.context``). A hash without a name is shown by its first 12
    characters.
    """
    if asked_hash:
        if asked_hash in known or asked_hash == main_hash:
            return None
        return asked_name or asked_hash[:12]
    if asked_name and asked_name not in known.values():
        return asked_name
    return None


def _asked_page_missing(pages: dict[str, list[st.Page]]) -> str | None:
    """:func:`unknown_page` of this script run (the hash of ``st.Page`` has no public
    accessor)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None:
        return None
    manager = ctx.pages_manager
    known = {str(getattr(p, "_script_hash", "")): p.url_path for s in pages.values() for p in s}
    return unknown_page(
        manager.intended_page_script_hash,
        manager.intended_page_name,
        manager.main_script_hash,
        known,
    )


def main() -> None:
    # an emoji favicon is an inline SVG; a :material/…: one is fetched from fonts.gstatic.com (no
    # network at run time)
    st.set_page_config(page_title="RAG Stage Inspector", page_icon="🔎", layout="wide")
    show(style())
    lang = sidebar.current_lang()
    pages = build_pages(lang)
    nav = st.navigation(pages, position="sidebar")
    missing = _asked_page_missing(pages)
    sidebar.render()
    gallery.start(lambda: cache.sample_index("sample"), sidebar.start_config()[0])  # once
    if notice := sidebar.page_notice(missing, sidebar.current_lang()):
        st.warning(md(notice))
    nav.run()


if __name__ == "__main__":  # streamlit runs the entrypoint as __main__; tests import PAGES
    main()
