"""A tiny test collection written to disk in BEIR and in TREC layout (five documents, four
queries, graded qrels)."""

from __future__ import annotations

import json
from pathlib import Path

# d1 is long (several chunks at target 120); d4 is never judged.
CORPUS = [
    {
        "_id": "d1",
        "title": "Volcano",
        "text": "Hallasan is a shield volcano on Jeju island. " * 3
        + "The crater lake is called Baengnokdam. " * 3
        + "Roe deer live on the slopes of the mountain. " * 3,
    },
    {
        "_id": "d2",
        "title": "Deer",
        "text": "Roe deer are small deer that live in forests and on mountain slopes.",
    },
    {
        "_id": "d3",
        "title": "",
        "text": "A crater lake fills the caldera of a volcano after an eruption.",
    },
    {
        "_id": "d4",
        "title": "Island",
        "text": "Jeju island has a volcano, beaches and many deer on the mountain.",
    },
    {
        "_id": "d5",
        "title": "Cache",
        "text": "The KV cache stores keys and values of earlier tokens.",
    },
]
QUERIES = [
    {"_id": "q1", "text": "crater lake volcano"},
    {"_id": "q2", "text": "roe deer mountain slopes"},
    {"_id": "q3", "text": "kv cache keys"},
    {"_id": "q4", "text": "unjudged question about deer"},
]
# graded judgements; q3 judges only a non-relevant document (grade 0)
QRELS = [
    ("q1", "d3", 2),
    ("q1", "d1", 1),
    ("q1", "d5", 0),
    ("q2", "d2", 2),
    ("q2", "d1", 1),
    ("q3", "d2", 0),
]


def write_beir(root: Path, qrels=QRELS, nested: str | None = None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "corpus.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in CORPUS), encoding="utf-8"
    )
    (root / "queries.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in QUERIES), encoding="utf-8"
    )
    body = "query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t{g}\n" for q, d, g in qrels)
    if nested:
        (root / "qrels").mkdir(exist_ok=True)
        (root / "qrels" / f"{nested}.tsv").write_text(body, encoding="utf-8")
    else:
        (root / "qrels.tsv").write_text(body, encoding="utf-8")
    return root


def write_trec(root: Path, qrels_text: str | None = None, topics: bool = True) -> Path:
    """A TREC folder: corpus.jsonl, topics.tsv (``qid<TAB>query``) and qrels.txt."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "corpus.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in CORPUS), encoding="utf-8"
    )
    if topics:
        (root / "topics.tsv").write_text(
            "".join(f"{q['_id']}\t{q['text']}\n" for q in QUERIES), encoding="utf-8"
        )
    if qrels_text is None:
        qrels_text = "".join(f"{q} 0 {d} {g}\n" for q, d, g in QRELS)
    (root / "qrels.txt").write_text(qrels_text, encoding="utf-8")
    return root
