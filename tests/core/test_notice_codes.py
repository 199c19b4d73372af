"""Every notice code the core declares has an English template and Korean/English UI text
with exactly its params; the gate, the skipped stages and the loaders raise them."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import rag_core
from rag_core import wording
from rag_core.answer.gate import (
    GATE_DISTANCE_NOT_APPLIED,
    GATE_REFUSED_MAX_DISTANCE,
    GATE_REFUSED_MIN_SCORE,
    GATE_REFUSED_NO_CANDIDATES,
    apply_gate,
)
from rag_core.config import GateConfig, PipelineConfig
from rag_core.models.errors import MODEL_OFFLINE, MODEL_UNAVAILABLE, ModelUnavailable
from rag_core.pipeline.answering import GENERATION_SKIPPED_GATE, model_stages, not_run
from rag_core.types import GateStage, Hit, Notice
from rag_core.wording import CODES, ENGLISH, english, notice
from rag_core.wording import fields_of as fields


def _declare_all() -> dict[str, frozenset[str]]:
    """Import every rag_core module (codes are declared at import), then the registry."""
    for info in pkgutil.walk_packages(rag_core.__path__, "rag_core."):
        if info.name.endswith("__main__"):
            continue
        importlib.import_module(info.name)
    return dict(CODES)


def test_every_declared_code_is_worded_in_english_korean_and_the_ui_english():
    from ui.i18n import TEXT

    codes = _declare_all()
    assert len(codes) >= 20
    problems = []
    for code, params in sorted(codes.items()):
        if fields(ENGLISH[code]) != params:
            problems.append(f"{code}: English template fields {sorted(fields(ENGLISH[code]))}")
        pair = TEXT.get(f"notice.{code}")
        if pair is None:
            problems.append(f"{code}: no ui catalogue entry notice.{code}")
            continue
        for lang, text in zip(("ko", "en"), pair, strict=True):
            if fields(text) != params:
                problems.append(
                    f"{code} ({lang}): fields {sorted(fields(text))} != {sorted(params)}"
                )
    stale = {k.removeprefix("notice.") for k in TEXT if k.startswith("notice.")} - set(codes)
    assert not stale, f"catalogue entries for codes nobody declares: {sorted(stale)}"
    assert not problems, "\n".join(problems)


def test_notice_checks_its_params_and_declare_needs_a_template():
    with pytest.raises(ValueError, match="takes params"):
        notice(GATE_REFUSED_MAX_DISTANCE, threshold=0.3)
    with pytest.raises(ValueError, match="not declared"):
        notice("no.such.code")
    with pytest.raises(ValueError, match="no English template"):
        wording.declare("no.such.code")


def _hits(*distances: float | None) -> list[Hit]:
    return [Hit(f"c{i}", "d", i + 1, 1.0 / (i + 1), distance=d) for i, d in enumerate(distances)]


def test_gate_refusals_are_notices_and_the_reason_is_their_english():
    refused = apply_gate(_hits(0.5, 0.6), GateConfig(max_distance=0.3))
    assert refused.notice == Notice(GATE_REFUSED_MAX_DISTANCE, {"threshold": 0.3, "best": 0.5})
    assert refused.reason == "nothing under cosine distance 0.300 (best candidate at 0.500)"
    assert refused.reason == english(refused.notice)
    empty = apply_gate([], GateConfig(max_distance=0.3))
    assert empty.notice == Notice(GATE_REFUSED_NO_CANDIDATES, {})
    by_score = apply_gate(_hits(None, None), GateConfig(max_distance=None, min_score=5.0))
    assert by_score.notice is not None and by_score.notice.code == GATE_REFUSED_MIN_SCORE
    assert by_score.reason == "nothing scored at least 5 (best 1)"
    not_applied = apply_gate(_hits(None), GateConfig(max_distance=0.3))
    assert not not_applied.refused
    assert not_applied.notice == Notice(GATE_DISTANCE_NOT_APPLIED, {"threshold": 0.3})
    kept = apply_gate(_hits(0.1), GateConfig(max_distance=0.3))
    assert kept.notice is None and kept.reason == ""


def test_a_refused_gate_skips_the_later_stages_with_its_notice_inside():
    gate = apply_gate(_hits(0.5), GateConfig(max_distance=0.3))
    context, generation, support = model_stages(PipelineConfig(), "q?", gate, corpus=None)  # type: ignore[arg-type]
    assert generation.notice == Notice(GENERATION_SKIPPED_GATE, {"gate": gate.notice})
    assert generation.message == (
        "gate refused: nothing under cosine distance 0.300 (best candidate at 0.500)"
        " — the model was not called"
    )
    assert context.message == "gate refused: " + gate.reason
    assert support.message == "no answer to check" and support.notice is not None
    for stage in not_run(PipelineConfig(), notice("stages.not_run.retrieval_only")):
        assert stage.message == "not run (retrieval-only evaluation)"


def test_model_unavailable_carries_a_notice():
    exc = ModelUnavailable("/no/model", notice(MODEL_OFFLINE))
    assert exc.notice.code == MODEL_OFFLINE
    assert exc.reason == ENGLISH[MODEL_OFFLINE]
    assert str(exc) == f"model '/no/model' is unavailable: {ENGLISH[MODEL_OFFLINE]}"
    loose = ModelUnavailable("x", "the weights are elsewhere")
    assert loose.notice == Notice(MODEL_UNAVAILABLE, {"detail": "the weights are elsewhere"})
    assert loose.reason == "the weights are elsewhere"


def test_gate_stage_default_has_no_notice():
    assert GateStage("none", None, None, (), (), False).notice is None
