"""The dtype and the measured speeds on screen: the answer's caption and the sidebar labels."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from rag_core.models.dtype import machine_dtype
from rag_core.types import GenerationStage
from ui.render import generation_status
from ui.sidebar import GENERATORS, dtype_label, generator_label


def _trace(params):
    g = GenerationStage(
        "ok",
        "qwen2.5-coder-0.5b",
        answer="Hallasan is 1,947 m high [1].",
        seconds=2.0,
        input_tokens=960,
        output_tokens=11,
        params=params,
    )
    return SimpleNamespace(generation=g, config={"generation": {"model": "qwen2.5-coder-0.5b"}})


@pytest.mark.parametrize(
    ("lang", "speed"),
    [("en", "prefill 640 tokens/s · decode 20.0 tokens/s"), ("ko", "프롬프트 처리 640 토큰/초")],
)
def test_caption_names_the_dtype_and_the_measured_speeds(lang, speed):
    params = {
        "citations": "free",
        "dtype": "bfloat16",
        "prefill_seconds": 1.5,
        "decode_seconds": 0.5,
        "prefill_tokens_per_s": 640.0,
        "decode_tokens_per_s": 20.0,
    }
    kind, text = generation_status(_trace(params), lang)
    assert kind == "ok" and "qwen2.5-coder-0.5b · bfloat16" in text
    assert speed in text and "1.5" in text


def test_caption_without_timing_or_dtype_stays_as_before():
    kind, text = generation_status(_trace({"citations": "free"}), "en")
    assert kind == "ok" and text.startswith("qwen2.5-coder-0.5b · ") and "tokens/s" not in text
    assert "bfloat16" not in text and "float32" not in text


def test_picker_labels_say_what_each_model_is():
    for name in GENERATORS:
        if name != "none":
            assert generator_label(name, "en").startswith(name + " · ")
    assert "1.5B" in generator_label("qwen2.5-coder-1.5b", "en")
    assert "Apache-2.0" in generator_label("qwen2.5-coder-1.5b", "ko")
    assert generator_label("/my/model", "en") == "/my/model"
    assert (
        machine_dtype() in dtype_label("auto", "en") and dtype_label("float32", "ko") == "float32"
    )


def test_qint8_label_states_what_it_costs():
    # measured on the 24-question set (docs/MODELS.md): half as many right answers as float32
    assert dtype_label("qint8", "en").startswith("qint8 (") and "half" in dtype_label("qint8", "en")
    assert dtype_label("qint8", "ko").startswith("qint8 (") and "절반" in dtype_label("qint8", "ko")
