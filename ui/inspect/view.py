"""The Inspect view model: a Trace's warnings, worded, and those of the corpus load; the
answer preview of the first screen."""

from __future__ import annotations

from collections.abc import Iterable

from rag_core.corpus.loaders.files import NOT_LOADED
from rag_core.types import FailedDocument, Question, Trace

from ..html import Markup, snippet, span, tag
from ..i18n import notice_text, t
from ..trace_view import answer_mark_chip, generation_status


def not_loaded(trace: Trace) -> int:
    """How many files or rows the corpus load skipped (the Trace's ``load.not_loaded``
    notices; the page words them from ``CorpusIndex.failed``)."""
    return sum(n.code == NOT_LOADED for n in trace.notices)


def skipped_lines(failed: Iterable[FailedDocument], lang: str) -> list[str]:
    """``<path>: <why>`` for each file or row the corpus load skipped, in ``lang``."""
    return [f"{f.path}: {notice_text(f.notice, lang)}" for f in failed]


def warning_lines(trace: Trace, lang: str) -> list[str]:
    """The question's and the gate's warnings (``Trace.notices`` but the corpus load's lines)
    in ``lang``."""
    return [notice_text(n, lang) for n in trace.notices if n.code != NOT_LOADED]


#: The answer preview's states: the answer is in the Trace, still being made, stopped, or its
#: stream ended without one (an error, said in section ⑦).
PREVIEW_STATES = ("done", "pending", "stopped", "failed")
#: Characters of the answer the preview shows (the whole answer is in section ⑦).
PREVIEW_CHARS = 220


def answer_preview(
    trace: Trace, lang: str, *, question: Question | None = None, state: str = "done"
) -> Markup:
    """The first screen's answer line: the answer's own mark and its first
    :data:`PREVIEW_CHARS` characters, or why there is none, with a link to section ⑦
    (``#answer``). Read off ``trace`` only; ``state``: one of :data:`PREVIEW_STATES`."""
    if state not in PREVIEW_STATES:
        raise ValueError(
            f"state = {state!r} is not valid; valid choices: {', '.join(PREVIEW_STATES)}"
        )
    head = span(t("ins.preview.head", lang), "ri-preview-h")
    link = tag("a", t("ins.preview.link", lang), cls="ri-preview-a", attrs={"href": "#answer"})
    g = trace.generation
    kind = "none"
    if state == "pending":
        body: Markup = span(t("ins.preview.pending", lang), "ri-muted")
    elif state == "stopped":
        body = span(t("ins.preview.stopped", lang), "ri-muted")
    elif state == "failed":
        body = span(t("ins.no_answer", lang), "ri-muted")
    elif g.status == "ok" and g.answer is not None:
        kind = "ok"
        body = (
            answer_mark_chip(trace, question, lang, short=True)
            + " "
            + span(snippet(g.answer, PREVIEW_CHARS), "ri-preview-text")
        )
    else:
        kind, text = generation_status(trace, lang)
        body = span(text, "ri-muted")
        if trace.gate.refused:  # a refusal is judged whether or not a model ran
            body = answer_mark_chip(trace, question, lang, short=True) + " " + body
    if state == "pending":  # it streams right here: no link to section 7
        link = Markup("")
    return tag(
        "div",
        head + " " + body + " " + link,
        cls=f"ri-preview {kind}",
        attrs={"data-preview": state, "data-generation": g.status},
    )
