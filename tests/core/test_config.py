"""PipelineConfig: validation messages, JSON round trip, overrides, presets."""

import json
import pickle
import re

import pytest

from rag_core.config import (
    ANALYZERS,
    CHUNK_STRATEGIES,
    PRESETS,
    RESERVED_INSTRUCTION_TOKENS,
    ChunkerConfig,
    PipelineConfig,
    RetrievalConfig,
    preset,
)
from rag_core.config_checks import ConfigError
from rag_core.overrides import override_items, parse_overrides
from rag_core.types import Notice
from rag_core.wording import english


def test_default_round_trips_through_json():
    cfg = PipelineConfig()
    assert PipelineConfig.from_json(cfg.to_json()) == cfg


def test_non_default_round_trips_through_json():
    cfg = PipelineConfig().with_overrides(
        {
            "chunker.strategy": "blind",
            "chunker.overlap": "64",
            "retrieval.methods": "bm25:char,dense",
            "gate.max_distance": "0.55",
            "gate.max_kept": "4",
            "context.policy": "hard-cut",
        }
    )
    again = PipelineConfig.from_json(json.dumps(json.loads(cfg.to_json())))
    assert again == cfg
    assert again.retrieval.method_specs == (("bm25", "char"), ("dense", None))


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"retrieval.k": "0"}, "retrieval.k = 0 is out of range; it must be between 1 and 10000"),
        ({"retrieval.k": "-3"}, "retrieval.k = -3 is out of range"),
        (
            {"chunker.overlap": "512"},
            "chunker.overlap = 512 must be smaller than chunker.target = 512",
        ),
        (
            {"chunker.strategy": "semantic"},
            (
                "chunker.strategy = 'semantic' is not valid; valid choices: "
                f"{', '.join(CHUNK_STRATEGIES)}"
            ),
        ),
        (
            {"retrieval.analyzer": "porter"},
            f"retrieval.analyzer = 'porter' is not valid; valid choices: {', '.join(ANALYZERS)}",
        ),
        (
            {"retrieval.methods": "bm25,splade"},
            "retrieval.methods = 'splade' is not valid; valid choices: bm25, tfidf, dense",
        ),
        (
            {"retrieval.methods": "dense:char"},
            "retrieval.methods = 'dense:char': dense retrieval takes no analyzer",
        ),
        (
            {"context.budget_tokens": "100"},
            (
                f"context.budget_tokens = 100 is smaller than the {RESERVED_INSTRUCTION_TOKENS} "
                "tokens reserved for the instructions"
            ),
        ),
        ({"retrieval.b": "1.5"}, "retrieval.b = 1.5 is out of range; it must be >= 0.0 and <= 1.0"),
        (
            {"fusion.method": "borda"},
            "fusion.method = 'borda' is not valid; valid choices: rrf, minmax, zscore, weighted",
        ),
        ({"chunker.header": "maybe"}, "chunker.header = 'maybe' must be true or false"),
        ({"retrieval.k": "ten"}, "retrieval.k = 'ten' must be an integer"),
        ({"gate.max_distance": "3"}, "gate.max_distance = 3.0 is out of range"),
        (
            {"rerank.method": "cross-encoder"},
            "rerank.model is empty: the cross-encoder reranker needs",
        ),
    ],
)
def test_bad_values_name_field_value_and_choices(overrides, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        PipelineConfig().with_overrides(overrides)


def test_unknown_keys_and_sections_are_errors():
    with pytest.raises(
        ValueError,
        match=re.escape("unknown config key 'retrieval.depth'; valid keys: retrieval.methods"),
    ):
        PipelineConfig().with_overrides({"retrieval.depth": "3"})
    with pytest.raises(ValueError, match=re.escape("unknown config section(s) index")):
        PipelineConfig.from_dict({"index": {}})
    with pytest.raises(ValueError, match=re.escape("unknown key(s) chunker.size")):
        PipelineConfig.from_dict({"chunker": {"size": 3}})
    with pytest.raises(ValueError, match="not valid JSON"):
        PipelineConfig.from_json("{chunker:")


def test_optional_fields_parse_none():
    cfg = PipelineConfig().with_overrides({"gate.max_distance": "0.6"})
    assert cfg.with_overrides({"gate.max_distance": "none"}).gate.max_distance is None


def test_presets_match_the_seed_study():
    assert [preset(p).chunker.signature for p in "ABCDEF"] == [
        "blind-t512",
        "blind-t512-o64",
        "boundaries-t512",
        "boundaries-t512-o64",
        "boundaries-t512-h",
        "boundaries-t512-o64-h",
    ]
    with pytest.raises(
        ValueError, match=re.escape(f"unknown preset 'G'; valid choices: {', '.join(PRESETS)}")
    ):
        preset("G")


def test_flat_keys_are_accepted_by_with_overrides():
    cfg = preset("F").with_overrides({"retrieval.methods": "bm25,dense", "gate.max_kept": "3"})
    flat = {
        k: (",".join(v) if isinstance(v, list) else ("none" if v is None else str(v)))
        for k, v in cfg.flat().items()
    }
    assert PipelineConfig().with_overrides(flat) == cfg


def test_method_specs_default_analyzer():
    r = RetrievalConfig(methods=("bm25", "tfidf:char", "dense"), analyzer="kiwi")
    assert r.method_specs == (("bm25", "kiwi"), ("tfidf", "char"), ("dense", None))
    with pytest.raises(ValueError, match="lists a retriever twice"):
        RetrievalConfig(methods=("bm25", "bm25"))


def test_chunker_signature_html_includes_min_chars():
    assert ChunkerConfig(strategy="html", min_chars=40).signature == "html-t512-m40"


# ------------------------------------------------------ overrides as text


def test_parse_overrides_splits_lines_and_semicolons_skips_comments():
    text = "retrieval.k = 5; # a comment\n\ngate.max_kept=2  # keep two\nnot a pair;retrieval.k=6"
    overrides, errors = parse_overrides(text)
    assert overrides == {"retrieval.k": "6", "gate.max_kept": "2"}  # the later retrieval.k wins
    assert [english(e) for e in errors] == [
        "'not a pair' is not key=value (e.g. retrieval.analyzer=char)"
    ]
    with pytest.raises(ValueError, match=re.escape("overrides must be text, not int")):
        parse_overrides(5)


def test_override_items_are_the_cli_form_and_refuse_items_without_a_key():
    assert override_items(["retrieval.k=5", " gate.min_score = 3 ", "retrieval.k=6"]) == {
        "retrieval.k": "6",
        "gate.min_score": "3",
    }
    assert override_items(["retrieval.qdrant_url=http://h:6333/?a=b"]) == {
        "retrieval.qdrant_url": "http://h:6333/?a=b"
    }  # the first '=' splits
    for bad in ("retrieval.k", "=5"):
        message = f"{bad!r}: expected key=value, e.g. retrieval.k=5"
        with pytest.raises(ValueError, match=re.escape(message)):
            override_items([bad])


def test_preset_pseudo_key_is_applied_first_then_the_other_keys():
    assert PipelineConfig().with_overrides({"chunker.preset": "b"}) == preset("B")
    cfg = PipelineConfig().with_overrides(
        {"chunker.overlap": "32", "chunker.preset": "B", "retrieval.k": "3"}
    )
    assert cfg.chunker == ChunkerConfig(strategy="blind", target=512, overlap=32, header=False)
    assert cfg.retrieval.k == 3
    # the same text gives the same config whichever way it arrives
    text = "chunker.preset=B; chunker.overlap=32; retrieval.k=3"
    assert PipelineConfig().with_overrides(parse_overrides(text)[0]) == cfg
    assert PipelineConfig().with_overrides(override_items(text.split("; "))) == cfg
    with pytest.raises(
        ValueError,
        match=re.escape("chunker.preset = 'G' is not valid; valid choices: A, B, C, D, E, F"),
    ):
        PipelineConfig().with_overrides({"chunker.preset": "G"})


# ------------------------------------------------------ errors as notices


def test_a_config_error_carries_its_notice_and_its_text_is_the_english():
    with pytest.raises(ConfigError) as info:
        PipelineConfig().with_overrides({"retrieval.k": "0"})
    n = info.value.notice
    assert n.code == "config.out_of_range"
    assert n.params["key"] == "retrieval.k" and n.params["value"] == 0
    assert n.params["bound"] == Notice("config.bound.between", {"low": 1, "high": 10_000})
    assert str(info.value) == english(n)
    assert str(info.value) == "retrieval.k = 0 is out of range; it must be between 1 and 10000"
    assert isinstance(info.value, ValueError)  # every caller catching ValueError still does
    again = pickle.loads(pickle.dumps(info.value))
    assert again.notice == n and str(again) == str(info.value)


@pytest.mark.parametrize(
    ("overrides", "code"),
    [
        ({"retrieval.k": "abc"}, "config.not_an_integer"),
        ({"retrieval.analyzer": "nope"}, "config.not_a_choice"),
        ({"retrieval.b": "x"}, "config.not_a_number"),
        ({"support.judge": "maybe"}, "config.not_a_bool"),
        ({"chunker.overlap": "600"}, "config.overlap_too_big"),
        ({"retrieval.methods": "bm25,bm25"}, "config.method_twice"),
        ({"generation.model": "openai:x"}, "config.endpoint_needed"),
        ({"generation.api_key_env": "sk-1"}, "config.key_env_not_name"),
        ({"nosuch.key": "1"}, "config.unknown_key_section"),
        ({"retrieval.nosuch": "1"}, "config.unknown_key"),
        ({"chunker.preset": "Z"}, "config.not_a_choice"),
    ],
)
def test_each_kind_of_bad_override_raises_its_code(overrides, code):
    with pytest.raises(ConfigError) as info:
        PipelineConfig().with_overrides(overrides)
    assert info.value.notice.code == code
    assert str(info.value) == english(info.value.notice)


def test_items_without_a_pair_are_notices():
    overrides, problems = parse_overrides("retrieval.k=3; nope")
    assert overrides == {"retrieval.k": "3"}
    assert problems == [Notice("config.item_not_key_value", {"item": "nope"})]


def test_config_py_raises_no_plain_value_error():
    """Every error config.py raises is a ConfigError with a code (a plain ValueError's text
    would reach a Korean page in English)."""
    import ast
    from pathlib import Path

    import rag_core.config as config_module

    tree = ast.parse(Path(config_module.__file__).read_text(encoding="utf-8"))
    plain = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Raise)
        and isinstance(node.exc, ast.Call)
        and getattr(node.exc.func, "id", None) == "ValueError"
    ]
    assert not plain, f"rag_core/config.py raises a plain ValueError at lines {plain}"
