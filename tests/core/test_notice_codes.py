"""Every notice code the core declares has an English template and a Korean UI text with
exactly its params, and the pages say the core's English (or a marked override); the gate, the
skipped stages and the loaders raise them."""

from __future__ import annotations

import importlib
import pkgutil
import re

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
from rag_core.pipeline.answering import GENERATION_SKIPPED_GATE, not_run
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


def test_every_declared_code_has_korean_and_the_pages_say_the_cores_english(page_words):
    from ui.i18n import TEXT
    from ui.text import EN_OVERRIDES

    codes = _declare_all()
    assert len(codes) >= 20
    problems = []
    for code, params in sorted(codes.items()):
        if fields(ENGLISH[code]) != params:
            problems.append(f"{code}: English template fields {sorted(fields(ENGLISH[code]))}")
        pair = TEXT.get(f"notice.{code}")
        if pair is None:
            problems.append(
                f"{code}: no Korean in a ui catalogue (KOREAN in ui/text.py or a page's)"
            )
            continue
        ko, en = pair
        if fields(ko) != params:
            problems.append(f"{code} (ko): fields {sorted(fields(ko))} != {sorted(params)}")
        if code not in EN_OVERRIDES and en != ENGLISH[code]:
            problems.append(f"{code}: the pages' English is not the core's template")
    for code, en in EN_OVERRIDES.items():
        if en == ENGLISH.get(code):
            problems.append(f"{code}: EN_OVERRIDES repeats the core's template")
        if fields(en) != codes.get(code):
            problems.append(f"{code} (en override): fields {sorted(fields(en))}")
    stale = {k.removeprefix("notice.") for k in TEXT if k.startswith("notice.")} - set(codes)
    assert not stale, f"catalogue entries for codes nobody declares: {sorted(stale)}"
    assert not problems, "\n".join(problems)


def test_no_catalogue_writes_a_core_code_as_a_korean_english_pair():
    """A core code's English is the core's: a catalogue's ``TEXT`` holds no ``notice.<code>``."""
    from pathlib import Path

    import ui

    root = Path(ui.__file__).parent
    paired = []
    for path in [root / "text.py", *sorted(root.glob("*/text.py"))]:
        name = ".".join(path.relative_to(root.parent).with_suffix("").parts)
        catalogue = importlib.import_module(name).TEXT
        paired += [f"{name}: {k}" for k in catalogue if k.startswith("notice.")]
    assert paired == []


def test_a_catalogue_cannot_word_a_code_the_core_does_not_declare():
    from ui.i18n import coded

    entry = coded({GATE_REFUSED_NO_CANDIDATES: "후보 없음"}, {})
    assert entry == {
        f"notice.{GATE_REFUSED_NO_CANDIDATES}": ("후보 없음", ENGLISH[GATE_REFUSED_NO_CANDIDATES])
    }
    assert coded({"gate.beyond_max_kept": "가"}, {"gate.beyond_max_kept": "over {max_kept}"}) == {
        "notice.gate.beyond_max_kept": ("가", "over {max_kept}")
    }
    with pytest.raises(ValueError, match=re.escape("does not declare: ['no.such.code']")):
        coded({"no.such.code": "가"})
    with pytest.raises(ValueError, match=re.escape("it has no Korean for: ['gold.not_kept']")):
        coded({}, {"gold.not_kept": "x"})


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


def test_a_refused_gate_skips_the_later_stages_with_its_notice_inside(tiny_corpus):
    from rag_core.pipeline import run

    cfg = PipelineConfig().with_overrides(
        {"retrieval.methods": "bm25:char", "gate.min_score": "1000"}
    )
    trace = run(cfg, "KV cache", tiny_corpus)
    gate, context, generation, support = trace.gate, trace.context, trace.generation, trace.support
    best = trace.rerank.hits[0].score
    assert gate.refused and gate.reason == f"nothing scored at least 1000 (best {best:.4g})"
    assert gate.notice == Notice(GATE_REFUSED_MIN_SCORE, {"threshold": 1000.0, "best": best})
    assert generation.notice == Notice(GENERATION_SKIPPED_GATE, {"gate": gate.notice})
    assert generation.message == f"gate refused: {gate.reason} — the model was not called"
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


# ---------------------------------------------- the codes finished (context, question, gold…)


def test_the_context_stage_says_its_parts_as_notices_and_the_message_joins_their_english():
    from helpers.fakes import FakeGenerator, context

    from rag_core.answer.context import CONTEXT_HARD_CUT, CONTEXT_SENT

    stage = context(FakeGenerator(), policy="hard-cut", budget_tokens=200)
    assert stage.status == "ok" and stage.notices
    assert stage.notices[0].code == CONTEXT_SENT
    assert stage.notices[0].params["hits"] == 1
    assert any(n.code == CONTEXT_HARD_CUT for n in stage.notices)  # 200 ids cut the prompt
    assert stage.message == "; ".join(english(n) for n in stage.notices)
    assert stage.message.startswith(f"{stage.notices[0].params['sent']} of 1 candidates sent (")
    assert stage.notice is None


def test_question_warnings_are_notices_and_the_trace_words_them_in_english(tiny_corpus):
    from rag_core.pipeline import run
    from rag_core.pipeline.question import (
        QUESTION_NO_LETTERS,
        QUESTION_OTHER_SCRIPT,
        validate_question,
    )

    assert validate_question("?!")[1] == (Notice(QUESTION_NO_LETTERS, {}),)
    _, other = validate_question("Как высока гора?")
    assert other == (Notice(QUESTION_OTHER_SCRIPT, {"script": "Cyrillic"}),)
    cfg = PipelineConfig().with_overrides(
        {"retrieval.methods": "bm25:char", "generation.model": "none", "gate.max_distance": "0.3"}
    )
    # mostly Cyrillic letters, and one word the character analyzer finds (so the gate has
    # candidates, none with a distance)
    trace = run(cfg, "cache почему растёт вершина", tiny_corpus, stop_after="gate")
    assert [n.code for n in trace.notices] == [QUESTION_OTHER_SCRIPT, GATE_DISTANCE_NOT_APPLIED]
    assert trace.warnings == tuple(english(n) for n in trace.notices)


def test_a_gate_rejection_carries_its_why_as_a_notice():
    from rag_core.answer.gate import GATE_BEYOND_MAX_KEPT, GATE_OVER_DISTANCE

    gate = apply_gate(_hits(0.1, 0.2, 0.5), GateConfig(max_distance=0.3, max_kept=1))
    assert [h.notice for h in gate.rejected] == [
        Notice(GATE_BEYOND_MAX_KEPT, {"max_kept": 1}),
        Notice(GATE_OVER_DISTANCE, {"value": 0.5, "threshold": 0.3}),
    ]
    assert [h.note for h in gate.rejected] == ["beyond max kept (1)", "distance 0.500 > 0.300"]


def test_qdrant_errors_carry_notices():
    from rag_core.retrieval.qdrant import QDRANT_BAD_URL, QdrantError, QdrantTarget, connect

    with pytest.raises(QdrantError) as info:
        connect(QdrantTarget(url="localhost:6333"))
    assert info.value.notice == Notice(QDRANT_BAD_URL, {"url": "localhost:6333"})
    assert str(info.value) == (
        "retrieval.qdrant_url = 'localhost:6333' must start with http:// or https://"
    )
    assert info.value.kind == "unavailable"


def test_no_loader_in_rag_core_raises_a_missing_model_as_loose_text():
    """Every ``ModelUnavailable(name, reason)`` in rag_core gives a declared notice, not text
    (a loose string becomes ``model.unavailable``, which only outside callers should need)."""
    import ast
    from pathlib import Path

    loose = []
    for path in Path(rag_core.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "ModelUnavailable"
                and len(node.args) == 2
                and isinstance(node.args[1], (ast.Constant, ast.JoinedStr))
            ):
                loose.append(f"{path.name}:{node.lineno}")
    assert not loose, f"ModelUnavailable with a text reason: {loose}"


def test_progress_messages_are_notices(tiny_corpus, monkeypatch):
    """What a run reports while it works is a notice (the pages word it in their language)."""
    from dataclasses import replace

    from helpers.fakes import FakeGenerator

    import rag_core.models as models
    from rag_core.index import PROGRESS_CHUNKING
    from rag_core.pipeline import run
    from rag_core.pipeline.answering import PROGRESS_GENERATING, PROGRESS_LOADING_GENERATOR

    seen: list[tuple[object, float]] = []
    cfg = PipelineConfig().with_overrides(
        {"retrieval.methods": "bm25:char", "generation.model": "none", "chunker.target": "77"}
    )
    run(cfg, "Hallasan?", tiny_corpus, stop_after="gate", progress=lambda m, f: seen.append((m, f)))
    assert seen and all(isinstance(m, Notice) for m, _ in seen)
    assert {m.code for m, _ in seen} == {PROGRESS_CHUNKING}
    assert english(seen[0][0]) == f"chunking {cfg.chunker.signature}"
    seen.clear()
    monkeypatch.setattr(models, "get_generator", lambda name, **k: FakeGenerator())
    cfg = replace(cfg, generation=replace(cfg.generation, model="fake", citations="free"))
    run(cfg, "Hallasan?", tiny_corpus, progress=lambda m, f: seen.append((m, f)))
    codes = [m.code for m, _ in seen]
    assert codes[-2:] == [PROGRESS_LOADING_GENERATOR, PROGRESS_GENERATING]
    assert english(seen[-1][0]) == "generating with fake"


def test_the_pages_progress_box_words_a_notice_in_its_language():
    from rag_core.index import PROGRESS_EMBEDDING
    from ui.cache import Progress
    from ui.i18n import notice_text

    class Box:
        def __init__(self) -> None:
            self.texts: list[str] = []

        def status(self, label, expanded):
            return self

        def progress(self, value, text=None):
            self.texts.append(text)
            return self

        def update(self, label):
            self.texts.append(label)

    box = Box()
    n = notice(PROGRESS_EMBEDDING, chunks=3, model="minilm")
    Progress(box, "실행 중", "ko")(n, 0.5)
    korean = notice_text(n, "ko")
    assert korean != english(n) and "minilm" in korean
    assert box.texts[1:] == [korean, f"실행 중 — {korean}"]
