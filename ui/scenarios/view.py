"""The Scenarios view model: what a gallery card says and what loading it puts in the sidebar.

Plain functions of ``rag_core.scenarios.Scenario`` and the sample question sets; no Streamlit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rag_core.scenarios import Scenario
from rag_core.types import Question

from ..state import (
    K_CHUNKS_DOC,
    K_COMPARE_B,
    K_CORPUS,
    K_LEC_SIDE,
    K_LEC_STEP,
    K_QID,
    K_QMODE,
    K_QPHRASING,
    K_QSET,
    K_QTEXT,
    overrides_text,
)

QuestionSets = Mapping[str, Sequence[Question]]


def set_of(question_id: str, qsets: QuestionSets) -> str | None:
    """The name of the question set that holds ``question_id`` (None when none does)."""
    for name, questions in qsets.items():
        if any(q.id == question_id for q in questions):
            return name
    return None


def questions_by_id(qsets: QuestionSets) -> dict[str, Question]:
    """Every question of the sets by its id."""
    return {q.id: q for qs in qsets.values() for q in qs}


def question_line(s: Scenario, q: Question | None) -> str | None:
    """The card's question: ``id “text”`` when it is a set question, else the free question."""
    return (
        f"{s.question_id} “{s.question_text(q)}”"
        if q is not None
        else (s.question or s.question_id)
    )


def targets(s: Scenario) -> list[str]:
    """The pages a card opens: its own first, then Inspect and (with a B) Compare."""
    return [s.page] + [
        p for p in ("inspect", "compare") if p != s.page and (p != "compare" or s.compare)
    ]


def load_view(s: Scenario, page: str, qsets: QuestionSets) -> dict[str, object]:
    """The view keys that loading ``s`` for ``page`` sets: corpus, question, B, document, step."""
    view: dict[str, object] = {
        K_CORPUS: "sample",
        K_COMPARE_B: overrides_text(s.compare) if s.compare else "",
    }
    if s.question_id is not None:
        view.update(
            {
                K_QMODE: "set",
                K_QSET: set_of(s.question_id, qsets),
                K_QID: s.question_id,
                K_QPHRASING: s.phrasing,
            }
        )
    else:
        view.update({K_QMODE: "free", K_QTEXT: s.question})
    view[K_CHUNKS_DOC] = ""  # the Chunks page opens on the question's gold document
    view[K_LEC_STEP] = "1" if page == "lecture" else ""  # the lecture starts with the candidates
    view[K_LEC_SIDE] = ""  # … and with configuration A, the failure
    return view
