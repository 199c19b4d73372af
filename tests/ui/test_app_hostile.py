"""Hostile input through AppTest and the pure helpers: model names from the URL,
URL state that cannot be honoured, a cleared question, a no-chunk upload.

(The browser-only checks — Markdown injection, two tabs — are in
``test_browser_hostile.py``.)
"""

from __future__ import annotations

import os

import pytest
from helpers.app import make_app, plain

from rag_core import modelnames
from rag_core.config import PipelineConfig
from ui.state import compare_config, config_from_query, config_from_url

PROBES = (
    "../../etc/passwd",
    "/etc",
    "/etc/passwd",
    "/no/such/folder",
    "~/.ssh",
    "sentence-transformers/x",
)


@pytest.fixture(autouse=True)
def no_generation(monkeypatch):
    monkeypatch.setenv("RAG_APP_SET", "generation.model=none")
    monkeypatch.delenv(modelnames.MODELS_ENV, raising=False)
    monkeypatch.delenv(modelnames.QDRANT_PATH_ENV, raising=False)
    monkeypatch.delenv(modelnames.QDRANT_URLS_ENV, raising=False)


# ------------------------------------------------------------------ 15.2 model names


@pytest.mark.parametrize("key", sorted(modelnames.BUNDLED))
def test_url_model_names_are_refused_with_one_message_whatever_exists(key):
    messages = set()
    for probe in PROBES:
        config, errors = config_from_query({key: probe})
        assert config == PipelineConfig(), probe  # the default is kept
        assert len(errors) == 1, probe
        messages.add(errors[0])
    assert len(messages) == 1  # nothing tells /etc (exists) from /no/such/folder (does not)
    (message,) = messages
    assert key in message and "RAG_INSPECTOR_MODELS is not set" in message
    assert not any(p in message for p in PROBES)


def test_bundled_model_names_pass():
    config, errors = config_from_query(
        {"generation.model": "smollm2-135m", "retrieval.dense_model": "e5-small"}
    )
    assert errors == []
    assert (config.generation.model, config.retrieval.dense_model) == ("smollm2-135m", "e5-small")


def test_paths_inside_the_models_folder_pass_and_nothing_escapes_it(tmp_path, monkeypatch):
    models = tmp_path / "models"
    (models / "mini").mkdir(parents=True)
    (models / "out").symlink_to("/etc")
    monkeypatch.setenv(modelnames.MODELS_ENV, str(models))
    ok_cfg, errors = config_from_query({"retrieval.dense_model": str(models / "mini")})
    assert errors == [] and ok_cfg.retrieval.dense_model == str(models / "mini")
    rel, errors = config_from_query({"retrieval.dense_model": "mini"})  # relative to the folder
    # resolved once against the folder: what is opened, never "mini" under the working directory
    assert errors == [] and rel.retrieval.dense_model == os.path.realpath(models / "mini")
    for probe in (
        str(models / ".." / "x"),
        "../x",
        str(models / "out" / "passwd"),
        "/etc",
        str(models),
    ):
        cfg, errors = config_from_query({"retrieval.dense_model": probe})
        assert (
            cfg.retrieval.dense_model == PipelineConfig().retrieval.dense_model and len(errors) == 1
        ), probe
        assert "a path inside $RAG_INSPECTOR_MODELS" in errors[0]


def test_qdrant_folders_and_servers_from_the_url_are_allow_listed(tmp_path, monkeypatch):
    """A Qdrant local-mode folder opens (and creates files in) a path; a server URL makes the
    server connect to a host: from the address both follow an allow-list, one message each."""
    messages = set()
    for probe in PROBES:
        cfg, errors = config_from_query({"retrieval.qdrant_path": probe})
        assert cfg == PipelineConfig() and len(errors) == 1, probe
        messages.add(errors[0])
    assert len(messages) == 1 and "RAG_INSPECTOR_QDRANT is not set" in next(iter(messages))
    for probe in ("http://169.254.169.254", "http://127.0.0.1:22", "https://evil.example:6333"):
        cfg, errors = config_from_query({"retrieval.qdrant_url": probe})
        assert cfg == PipelineConfig() and len(errors) == 1, probe
        assert probe not in errors[0] and "http://localhost:6333" in errors[0]
    cfg, errors = config_from_query({"retrieval.qdrant_url": "http://localhost:6333/"})
    assert errors == [] and cfg.retrieval.qdrant_url == "http://localhost:6333/"
    root = tmp_path / "qdrant"
    (root / "sample").mkdir(parents=True)
    monkeypatch.setenv(modelnames.QDRANT_PATH_ENV, str(root))
    monkeypatch.setenv(modelnames.QDRANT_URLS_ENV, "http://qdrant.internal:6333")
    cfg, errors = config_from_query({"retrieval.qdrant_path": str(root / "sample")})
    assert errors == [] and cfg.retrieval.qdrant_path == str(root / "sample")
    for probe in (str(root / ".." / "x"), "/etc", str(root)):
        cfg, errors = config_from_query({"retrieval.qdrant_path": probe})
        assert cfg.retrieval.qdrant_path != probe and len(errors) == 1, probe
    cfg, errors = config_from_query({"retrieval.qdrant_url": "http://localhost:6333"})
    assert len(errors) == 1  # the list replaces the default
    cfg, errors = config_from_query({"retrieval.qdrant_url": "http://qdrant.internal:6333"})
    assert errors == []


def test_compare_b_and_pasted_addresses_are_visitor_input_too():
    b, errors = compare_config(PipelineConfig(), "retrieval.k=3; generation.model=../../etc/passwd")
    assert b.retrieval.k == 3 and b.generation.model == PipelineConfig().generation.model
    assert len(errors) == 1 and "generation.model" in errors[0]
    cfg, errors = config_from_url("http://host/evaluate?retrieval.dense_model=/etc&retrieval.k=7")
    assert (
        cfg.retrieval.k == 7
        and cfg.retrieval.dense_model == PipelineConfig().retrieval.dense_model
        and len(errors) == 1
    )


def test_the_app_never_loads_a_model_path_from_the_url(entry, monkeypatch):
    import rag_core.models as models

    asked: list[str] = []

    def record(name, *a, **k):
        asked.append(name)
        raise models.ModelUnavailable(name, "test: not loaded")

    monkeypatch.setattr(models, "get_embedder", record)
    at = make_app(
        entry, {"retrieval.methods": "bm25,dense", "retrieval.dense_model": "/etc", "lang": "en"}
    )
    assert not at.exception
    warnings = [plain(w.value) for w in at.warning]
    assert any(
        "retrieval.dense_model: this value is not accepted from the address" in w for w in warnings
    )
    assert "/etc" not in " ".join(warnings)
    assert (
        at.session_state["_ctx"].config.retrieval.dense_model
        == PipelineConfig().retrieval.dense_model
    )
    assert "/etc" not in asked


# ------------------------------------------------------------------ 15.9 URL state


@pytest.mark.parametrize(
    ("query", "page", "expected"),
    [
        (
            {"qid": "no-such-question"},
            None,
            "The address asked for qid=no-such-question, which cannot be shown; showing question ",
        ),
        ({"qid": "ko-01", "ph": "99"}, None, "The address asked for ph=99"),
        ({"qid": "ko-01", "ph": "abc"}, None, "The address asked for ph=abc"),
        ({"q": ""}, None, "The address asked for q=, which cannot be shown; showing question "),
        (
            {"qset": "no-such-set"},
            "label",
            "The address asked for qset=no-such-set, which cannot be shown; showing question set ",
        ),
        (
            {"doc": "no-such-doc"},
            "chunks",
            "The address asked for doc=no-such-doc, which cannot be shown; showing ",
        ),
    ],
    ids=["qid", "ph=99", "ph=abc", "q-empty", "qset-on-label", "doc-on-chunks"],
)
def test_url_state_that_cannot_be_honoured_gets_one_notice(entry, query, page, expected):
    at = make_app(entry, {**query, "lang": "en"}, page=page)
    assert not at.exception
    notices = [plain(w.value) for w in at.warning if "The address asked for" in plain(w.value)]
    assert len([n for n in notices if n.startswith(expected)]) >= 1, notices
    param = expected.split("asked for ", 1)[1].split("=", 1)[0]
    assert len({n for n in notices if n.startswith(f"The address asked for {param}=")}) == 1, (
        notices
    )


def test_honoured_url_state_gets_no_notice(entry):
    at = make_app(entry, {"qid": "ko-01", "ph": "1", "lang": "en"})
    assert not at.exception
    assert not [w for w in at.warning if "The address asked for" in plain(w.value)]
    assert at.session_state["_ctx"].gold.id == "ko-01"


# ------------------------------------------------------------------ 15.10


def test_a_cleared_question_box_does_not_run_the_default_question(entry):
    at = make_app(entry, {"q": "How tall is Hallasan?", "lang": "en"})
    assert at.session_state["_ctx"].question == "How tall is Hallasan?"
    at.text_area(key="q.text").set_value("").run()
    assert not at.exception
    assert at.session_state["_ctx"].question == ""
    assert at.text_area(key="q.text").value == ""
    assert any("The question is empty" in plain(c.value) for c in at.caption)
    assert any(
        "the question is empty" in plain(e.value) for e in at.error
    )  # Inspect: no trace, and why


def test_an_upload_of_headings_only_says_once_what_happened(entry):
    at = make_app(entry, {"corpus": "upload", "lang": "en"})
    at.file_uploader(key="uploads").set_value(
        [("heads.md", b"## Part A\n\n## Part B\n\n## Part C\n", "text/markdown")]
    ).run()
    assert not at.exception
    shown = " | ".join(plain(x.value) for x in [*at.success, *at.warning, *at.error, *at.info])
    assert "Indexed 1 documents" not in shown
    assert "cannot build a sparse index" not in shown
    assert (
        "Loaded 1 document(s), but the chunker (boundaries-t512) made no chunk from them" in shown
    )
    assert any("made no chunk from the 1 loaded document(s)" in plain(e.value) for e in at.error)


# ------------------------------------------------------------------ sizes a link may set

SLOW_LINK = (
    "/lecture?corpus=upload&generation.model=none&retrieval.k=2000&context.dedup=false"
    "&context.budget_tokens=1000000&context.max_source_chars=1000000"
)


def test_url_sizes_are_lowered_to_the_link_limits_with_one_message_each():
    from rag_core.config import URL_LIMITS

    config, errors = config_from_url(SLOW_LINK)
    assert config.retrieval.k == URL_LIMITS["retrieval.k"]
    assert config.context.budget_tokens == URL_LIMITS["context.budget_tokens"]
    assert config.context.max_source_chars == URL_LIMITS["context.max_source_chars"]
    assert config.context.dedup is False  # the rest of the link is honoured
    assert len(errors) == 3
    assert "retrieval.k=2000" in errors[0] and "200" in errors[0]
    ko = config_from_url(SLOW_LINK, lang="ko")[1]
    assert len(ko) == 3 and all("상한" in m for m in ko)
    # within the limits nothing is said and the value is kept
    config, errors = config_from_query({"retrieval.k": "150", "context.budget_tokens": "4096"})
    assert (config.retrieval.k, config.context.budget_tokens, errors) == (150, 4096, [])
    # the sidebar / CLI route (with_overrides) still goes higher
    assert PipelineConfig().with_overrides({"retrieval.k": 2000}).retrieval.k == 2000


def test_url_size_limit_notice_reaches_the_sidebar(entry):
    at = make_app(entry, {"retrieval.k": "5000", "lang": "en"})
    assert not at.exception
    notices = [plain(w.value) for w in at.warning if "retrieval.k=5000" in plain(w.value)]
    assert len(notices) == 1 and "lowered to 200" in notices[0], notices
    assert at.session_state["_cfg"].retrieval.k == 200


def test_a_question_that_cannot_run_is_refused_in_korean(entry):
    """The core's refusal (``question.empty`` / ``question.too_long``) in the page's language."""
    at = make_app(entry, {"q": "한라산의 높이는?", "lang": "ko"})
    at.text_area(key="q.text").set_value("").run()
    assert not at.exception
    assert any("질문이 비어 있습니다" in plain(e.value) for e in at.error), [
        e.value for e in at.error
    ]
    at.text_area(key="q.text").set_value("가" * 2_001).run()
    assert not at.exception
    shown = [plain(e.value) for e in at.error]
    assert any("질문이 2,001자입니다. 최대 2,000자까지 됩니다" in s for s in shown), shown
    assert not any("characters long" in s for s in shown)
