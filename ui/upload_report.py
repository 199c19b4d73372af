"""The upload report in the sidebar: what each file gave, its encoding, and every skipped file or
row.

Pure rendering of a :class:`rag_core.types.LoadReport`; every path, reason and
note comes from the uploaded data, so it is Markdown-escaped with :func:`ui.html.md`.
"""

from __future__ import annotations

import streamlit as st

from rag_core.types import LoadReport

from .html import md
from .i18n import notice_text, t


def file_lines(report: LoadReport, lang: str) -> list[str]:
    """One Markdown list item per file: name, encoding, documents, failures, seconds, notes."""
    lines: list[str] = []
    for f in report.files:
        encoding = f.encoding or t("upload.not_decoded", lang)
        line = t(
            "upload.file",
            lang,
            path=md(f.path),
            encoding=md(encoding),
            n=f.n_documents,
            failed=f.n_failed,
            seconds=f"{f.seconds:.2f}",
        )
        lines.append(f"- {line}")
        notes = [notice_text(n, lang) for n in f.notices] if f.notices else f.notes
        lines.extend(f"    - {md(note)}" for note in notes)
    return lines


def render_upload_report(report: LoadReport, lang: str) -> None:
    """Skipped files/rows (expanded when any) and the per-file table of encodings."""
    if report.failed:
        with st.expander(t("upload.skipped", lang, n=len(report.failed)), expanded=True):
            st.markdown(
                "\n".join(
                    f"- **{md(f.path)}** — {md(notice_text(f.notice, lang))}" for f in report.failed
                )
            )
    if report.files:
        with st.expander(t("upload.files", lang, n=len(report.files)), expanded=False):
            st.markdown("\n".join(file_lines(report, lang)))
