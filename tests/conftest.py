"""Shared fixtures: a tiny inline corpus for fast pipeline tests."""

from __future__ import annotations

import os

import pytest
from helpers.paths import entry_point

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# no background preparation of the lecture gallery in the tests' apps (ui/gallery.py): a test
# that wants it sets RAG_PREPARE_GALLERY=1 for its own server
os.environ.setdefault("RAG_PREPARE_GALLERY", "0")

TINY_DOCS = {
    "jeju.md": """---
title: 제주의 자연
source: test fixture
version: 1
lang: ko
---
# 제주의 자연

## 지형

한라산은 제주도 한가운데 솟은 화산이며 해발 1,947m로 남한에서 가장 높은 산이다. 정상에는 백록담이라는 화구호가 있다.

## 동물

한라산에는 노루가 많이 산다. 한라산을 오르면 노루를 자주 만난다.
""",  # noqa: E501 (one paragraph per line: the chunkers split on blank lines)
    "kv.md": """---
title: Inference
source: test fixture
version: 1
lang: en
---
# Inference

## The KV cache

During decode the model reuses the keys and values of earlier tokens. The KV cache grows with every generated token.

## Error codes

Error E17 means the door latch did not close. Error E21 means the water inlet is blocked.
""",  # noqa: E501 (one paragraph per line: the chunkers split on blank lines)
}


@pytest.fixture(autouse=True)
def no_reader_unless_slow(request, monkeypatch):
    """Fast tests check answers without the bundled reader (``RAG_INSPECTOR_READER=none``: the
    lexical head, no model load); tests marked ``slow`` read with the real model."""
    if request.node.get_closest_marker("slow") is None:
        monkeypatch.setenv("RAG_INSPECTOR_READER", "none")


@pytest.fixture(scope="session")
def page_words() -> None:
    """Every page's words registered with ``ui.i18n`` as the app registers them (``app.WORDS``;
    the shared ``ui/i18n.py`` imports no page). Autouse for ``tests/ui``."""
    entry_point()  # loading the entry point registers them


@pytest.fixture()
def tiny_corpus_dir(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in TINY_DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
    return tmp_path


@pytest.fixture()
def tiny_corpus(tiny_corpus_dir):
    from rag_core.index import load_corpus_index

    return load_corpus_index(tiny_corpus_dir, questions=[])


@pytest.fixture(scope="module")
def entry(tmp_path_factory):
    """The AppTest entry script (runs app.py through st.navigation)."""
    from ui.apptest import write_entry

    return write_entry(tmp_path_factory.mktemp("app"))


@pytest.fixture(scope="module")
def sample_corpus():
    """The bundled corpus (its default load), once per module."""
    from rag_core.index import load_corpus_index

    return load_corpus_index()


@pytest.fixture()
def label_store(monkeypatch, tmp_path):
    """A page test's own label store (``RAG_INSPECTOR_DATA`` = a temporary folder), with
    generation off; returns the store file's path (not created yet)."""
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none")
    monkeypatch.setenv("RAG_INSPECTOR_DATA", str(tmp_path / "data"))
    return tmp_path / "data" / "labels.sqlite3"
