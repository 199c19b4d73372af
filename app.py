"""RAG Stage Inspector — the Streamlit entrypoint.

Only navigation and the shared sidebar live here; each page is one file under
``pages/`` and renders a ``Trace`` (see docs/ARCHITECTURE.md). Run with ``make run``.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui import sidebar
from ui.html import show, style
from ui.i18n import t

ROOT = Path(__file__).resolve().parent

#: Page registry: (group, page name). A page is ``pages/<name>.py`` with its
#: title under the i18n key ``page.<name>`` and its icon in ICONS.
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


def build_pages(lang: str) -> dict[str, list[st.Page]]:
    """``{section title: [st.Page]}`` for every registered page."""
    sections: dict[str, list[st.Page]] = {}
    for group, name in PAGES:
        page = st.Page(
            str(ROOT / "pages" / f"{name}.py"),
            title=t(f"page.{name}", lang),
            icon=ICONS.get(name),
            url_path=name,
            default=name == "inspect",
        )
        sections.setdefault(t(f"nav.{group}", lang), []).append(page)
    return sections


def main() -> None:
    # an emoji favicon is an inline SVG; a :material/…: one is fetched from fonts.gstatic.com (no
    # network at run time)
    st.set_page_config(page_title="RAG Stage Inspector", page_icon="🔎", layout="wide")
    show(style())
    lang = sidebar.current_lang()
    nav = st.navigation(build_pages(lang), position="sidebar")
    sidebar.render()
    nav.run()


if __name__ == "__main__":  # streamlit runs the entrypoint as __main__; tests import PAGES
    main()
