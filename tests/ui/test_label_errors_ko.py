"""A Korean Label page words the label store's and the label files' refusals in Korean.

The refusals are ``label.*`` notices (``rag_core.gold.labels``, ``NoticeError``); the page shows
them through ``ui.label.view.say`` / ``ui.i18n.error_text``. What stays Latin is data: the
file name, the quoted ids and texts, the JSONL field names and the store's path.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers.app import make_app, plain
from helpers.latin import latin_sentences
from helpers.paths import ROOT
from streamlit.testing.v1 import AppTest

from rag_core.formats.questions import load_questions
from rag_core.gold.label_files import JSONL_FIELDS
from rag_core.gold.relevance import locate
from rag_core.gold.store import LabelStore

EN = load_questions(ROOT / "sample_corpus" / "questions" / "en.jsonl")


#: Every test gets its own label store and generation off (``label_store`` in tests/conftest.py).
pytestmark = pytest.mark.usefixtures("label_store")


def make(entry: Path) -> AppTest:
    return make_app(entry, {"lang": "ko", "qset": "en", "qid": EN[0].id}, page="label")


def prose(text: str) -> str:
    """``text`` without its data: quoted values, the JSONL field names, the file name."""
    text = re.sub(r'"[^"]*"', "", text)
    text = re.sub(r"'[^']*'", "", text)
    text = text.replace("labels.jsonl", "")
    return re.sub(r"\b(?:" + "|".join(JSONL_FIELDS) + r")\b", "", text)


def assert_korean(shown: str) -> None:
    assert re.search("[가-힣]", shown), shown
    assert not latin_sentences(prose(shown)), (shown, latin_sentences(prose(shown)))


def _row(sample_corpus, **over):
    q = EN[0]
    needle = q.needles[0]
    text = sample_corpus.docs[needle.doc_id].text
    start, end = locate(text, needle)
    row = {
        "question_set": "en",
        "question_id": q.id,
        "doc_id": needle.doc_id,
        "start": start,
        "end": end,
        "text": text[start:end],
        "grade": 1,
    }
    row.update(over)
    return row


def _bad_files(sample_corpus) -> dict[str, tuple[str, str]]:
    """Case → (file text, Korean the error must show)."""
    good = _row(sample_corpus)
    doc_len = len(sample_corpus.docs[good["doc_id"]].text)
    return {
        "unknown field": (
            json.dumps(_row(sample_corpus, colour="red")),
            "labels.jsonl 1행: 모르는 필드가 있습니다: colour; 알려진 필드: label_id,",
        ),
        "missing field": (
            json.dumps({"question_set": "en", "question_id": EN[0].id}),
            "labels.jsonl 1행: 필드가 빠졌습니다: doc_id, start, end, text, grade",
        ),
        "bad grade": (
            json.dumps(_row(sample_corpus, grade=7)),
            "labels.jsonl 1행: 등급 = 7: 올바른 등급이 아닙니다. 가능한 등급: 0, 1, 2, 3",
        ),
        "outside the document": (
            json.dumps(_row(sample_corpus, start=doc_len, end=doc_len + 3, text="abc")),
            f"의 범위를 벗어납니다 (문서는 {doc_len}자)",
        ),
        "text not matching": (
            json.dumps(_row(sample_corpus, text="x" * (good["end"] - good["start"]))),
            "위치 글과 다릅니다: 라벨은 'xxx",
        ),
        "same span twice": (
            json.dumps(good) + "\n" + json.dumps(_row(sample_corpus, grade=2)),
            "labels.jsonl 2행: 1행과 같은 질문·구간입니다 (라벨 하나에 한 줄)",
        ),
        "not an object": ("[1, 2]", "labels.jsonl 1행: 라벨은 JSON 객체여야 합니다"),
    }


CASES = (
    "unknown field",
    "missing field",
    "bad grade",
    "outside the document",
    "text not matching",
    "same span twice",
    "not an object",
)


@pytest.mark.parametrize("case", CASES)
def test_a_bad_label_file_is_refused_in_korean(entry, label_store, sample_corpus, case):
    body, korean = _bad_files(sample_corpus)[case]
    at = make(entry)
    at.file_uploader(key="label.imp.file").set_value(
        [("labels.jsonl", (body + "\n").encode(), "application/jsonl")]
    ).run()
    at.button(key="label.imp.go").click().run()
    assert not at.exception
    errors = [plain(e.value) for e in at.error]
    (shown,) = [e for e in errors if e.startswith("가져오지 않았습니다 — ")]
    assert korean in shown, (korean, shown)
    assert shown.endswith("저장소는 그대로입니다.")
    assert_korean(shown)
    assert LabelStore(label_store).version() == 0


def test_a_store_path_that_is_a_directory_is_refused_in_korean(entry, tmp_path):
    at = make(entry)
    at.text_input(key="label.store.w").set_value(str(tmp_path)).run()
    at.button(key="label.store.use").click().run()
    assert not at.exception
    (shown,) = [plain(e.value) for e in at.error]
    assert shown == (
        f"라벨 저장소를 열 수 없습니다: 라벨 저장소 {tmp_path}은(는) 파일이 아니라 폴더입니다"
    )
    assert_korean(shown)


def test_a_default_store_that_is_a_directory_is_refused_in_korean(entry, label_store):
    label_store.mkdir(parents=True)
    at = make(entry)
    assert not at.exception
    (shown,) = [plain(e.value) for e in at.error]
    assert shown == (
        f"라벨 저장소를 열 수 없습니다: 라벨 저장소 {label_store}은(는) 파일이 아니라 폴더입니다"
    )
    assert_korean(shown)


def test_nothing_to_undo_is_said_in_korean(entry, label_store):
    at = make(entry)
    at.text_input(key="label.annotator").set_value("alice").run()
    at.button(key="label.save").click().run()
    at.text_input(key="label.annotator").set_value("bob").run()
    at.button(key="label.undo_mine").click().run()  # alice's label is not bob's to undo
    assert not at.exception
    (shown,) = [plain(e.value) for e in at.error]
    assert "라벨러 'bob'에게는 취소할 것이 없습니다" in shown, shown
    assert_korean(shown)
    assert len(LabelStore(label_store).current()) == 1
