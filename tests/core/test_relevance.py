"""Gold needles ↔ chunks: a chunk is relevant when its content holds a needle entirely."""

from __future__ import annotations

import random

from rag_core.chunking import chunk_document
from rag_core.config import ChunkerConfig
from rag_core.gold.relevance import grades_for, locate, relevant_chunk_ids
from rag_core.types import Document, Needle

TEXT = "Hallasan is 1,947 m high. Jeju is a volcanic island. Hallasan is 1,947 m high again."


def test_locate_uses_consistent_span_else_finds_text():
    first = TEXT.index("1,947 m")
    second = TEXT.index("1,947 m", first + 1)
    assert locate(TEXT, Needle("d", "1,947 m")) == (first, first + len("1,947 m"))
    # a labeled span pointing at the second occurrence is kept as labeled
    assert locate(TEXT, Needle("d", "1,947 m", second, second + 7)) == (second, second + 7)
    # an inconsistent span falls back to finding the text
    assert locate(TEXT, Needle("d", "volcanic", 0, 8)) == (
        TEXT.index("volcanic"),
        TEXT.index("volcanic") + 8,
    )
    assert locate(TEXT, Needle("d", "not there")) is None
    assert locate(TEXT, Needle("d", "")) is None
    assert locate(TEXT, Needle("d", "x", 5, 500)) is None


def brute_force(chunks, needles, docs):
    out = []
    for n in needles:
        doc = docs.get(n.doc_id)
        span = locate(doc.text, n) if doc else None
        if span is None:
            out.append(())
            continue
        s, e = span
        out.append(
            tuple(
                c.chunk_id
                for c in chunks
                if c.doc_id == n.doc_id
                and c.start <= s
                and e <= c.end
                and c.content[s - c.start : e - c.start] == n.text
            )
        )
    return out


def random_corpus(seed: int) -> tuple[dict[str, Document], list[Needle]]:
    rng = random.Random(seed)
    words = ["alpha", "beta", "gamma", "한라산", "높이", "E17", "error", "dryer"]
    docs = {}
    needles = []
    for i in range(12):
        paras = [
            " ".join(rng.choices(words, k=rng.randint(3, 30))) + "."
            for _ in range(rng.randint(1, 15))
        ]
        text = "\n\n".join(paras)
        doc = Document(doc_id=f"d{i}", title=f"Doc {i}", text=text)
        docs[doc.doc_id] = doc
        for _ in range(10):
            s = rng.randrange(len(text))
            e = min(len(text), s + rng.randint(1, 80))
            needles.append(Needle(doc.doc_id, text[s:e], s, e, grade=rng.randint(1, 3)))
    needles.append(Needle("missing-doc", "alpha"))
    needles.append(Needle("d0", "a string that is in no document"))
    return docs, needles


def test_relevant_chunk_ids_equal_brute_force():
    for seed in range(4):
        docs, needles = random_corpus(seed)
        for cfg in (
            ChunkerConfig(strategy="blind", target=64),
            ChunkerConfig(strategy="blind", target=64, overlap=32),
            ChunkerConfig(strategy="boundaries", target=120, overlap=40),
            ChunkerConfig(strategy="html", min_chars=20, overlap=10),
        ):
            chunks = [c for d in docs.values() for c in chunk_document(d, cfg, count_tokens=False)]
            rng = random.Random(seed)
            rng.shuffle(chunks)  # order of the input must not matter
            got = relevant_chunk_ids(chunks, needles, docs)
            assert list(got) == brute_force(
                sorted(chunks, key=lambda c: (c.doc_id, c.ordinal)), needles, docs
            )
            assert got[-2:] == ((), ())


def test_relevance_is_containment_not_overlap():
    doc = Document(doc_id="d", title="T", text="abcdefghij" * 3)
    chunks = chunk_document(doc, ChunkerConfig(strategy="blind", target=16), count_tokens=False)
    inside = Needle("d", doc.text[2:10])
    straddling = Needle("d", doc.text[12:20], 12, 20)
    assert relevant_chunk_ids(chunks, [inside, straddling], {"d": doc}) == (
        (chunks[0].chunk_id,),
        (),
    )
    with_overlap = chunk_document(
        doc, ChunkerConfig(strategy="blind", target=16, overlap=6), count_tokens=False
    )
    assert relevant_chunk_ids(with_overlap, [straddling], {"d": doc}) == (
        (with_overlap[1].chunk_id,),
    )
    # documents may also be given as plain text
    assert relevant_chunk_ids(chunks, [inside], {"d": doc.text}) == ((chunks[0].chunk_id,),)


def test_grades_for_takes_the_highest_grade():
    doc = Document(doc_id="d", title="T", text="one two three four five six seven eight")
    chunks = chunk_document(
        doc, ChunkerConfig(strategy="blind", target=20, overlap=10), count_tokens=False
    )
    needles = [
        Needle("d", "two", grade=1),
        Needle("d", "three", grade=3),
        Needle("d", "seven", grade=2),
    ]
    ids = relevant_chunk_ids(chunks, needles, {"d": doc})
    expected: dict[str, int] = {}
    for n, cids in zip(needles, ids, strict=True):
        for cid in cids:
            expected[cid] = max(expected.get(cid, 0), n.grade)
    grades = grades_for(chunks, needles, {"d": doc})
    assert grades == expected
    assert grades[chunks[0].chunk_id] == max(n.grade for n in needles[:2])
    assert set(grades) == {cid for cids in ids for cid in cids}
