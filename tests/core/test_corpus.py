"""The shipped sample corpus: validator + the failure modes that need no neural model.

These assertions are the lecture gallery's promises (failure modes of docs/ARCHITECTURE.md
1, 2, 3, 7 and 10) checked on the real corpus with the real chunkers and
sparse retrievers.
"""

from __future__ import annotations

import json
import re

import pytest

from rag_core.config import ChunkerConfig, preset
from rag_core.corpus import SAMPLE_CORPUS
from rag_core.corpus.check import check_corpus
from rag_core.corpus.loaders import load_corpus, load_directory
from rag_core.index import load_corpus_index
from rag_core.pipeline import run
from rag_core.retrieval.sparse.analyzers import get_analyzer


@pytest.fixture(scope="module")
def corpus():
    return load_corpus_index()


def sparse(p, **over):
    return preset(p).with_overrides({"generation.model": "none", **over})


def test_validator_passes_on_the_shipped_corpus():
    report = check_corpus()
    assert report.problems == ()
    assert report.ok
    assert report.counts["documents"] >= 15 and report.counts["characters"] >= 150_000
    assert report.needles_checked >= 100


def test_every_document_loads_with_title_source_version():
    report = load_corpus(SAMPLE_CORPUS)
    assert report.failed == ()
    for d in report.documents:
        assert d.title and d.source and d.version, d.doc_id
    html = load_directory(SAMPLE_CORPUS / "html")
    assert html.failed == () and html.documents and html.documents[0].format == "html"


def test_fm1_blind_cut_destroys_needles_that_overlap_keeps(corpus):
    destroyed = {
        p: {(n.doc_id, n.needle) for n in corpus.chunking(preset(p).chunker).diagnostics.destroyed}
        for p in "ABCDEF"
    }
    assert len(destroyed["A"] - destroyed["B"]) >= 3
    for p in "BDF":
        assert destroyed[p] == set(), p


def test_fm2_header_pushes_chunks_past_the_encoder_window(corpus):
    over = {p: corpus.chunking(preset(p).chunker).diagnostics.over_window for p in "CE"}
    assert len(over["E"]) > len(over["C"])
    # the same cut: the extra chunks are over the window only because of the header
    c_ids = {cid.replace("boundaries-t512", "X") for cid in over["C"]}
    pushed = [cid for cid in over["E"] if cid.replace("boundaries-t512-h", "X") not in c_ids]
    assert len(pushed) == len(over["E"]) - len(over["C"])
    assert sum(cid.startswith("en-course") for cid in pushed) >= 4


def particle_questions(corpus):
    qs = [q for q in corpus.questions if "korean-particle" in q.tags]
    assert len(qs) >= 4
    return qs


@pytest.mark.parametrize("method", ["bm25", "tfidf"])
def test_fm3_particle_questions_zero_word_candidates_but_char_and_kiwi_find(corpus, method):
    for q in particle_questions(corpus):
        word = run(
            sparse("C", **{"retrieval.methods": method, "retrieval.analyzer": "unicode"}),
            q.question,
            corpus,
            stop_after="gate",
        )
        lst = word.retrieval.lists[0]
        assert lst.n_candidates == 0 and lst.hits == (), q.id
        assert set(lst.analyzer_view.zero_df_terms) == set(get_analyzer("unicode")(q.question))
        for analyzer in ("char", "kiwi"):
            t = run(
                sparse("C", **{"retrieval.methods": method, "retrieval.analyzer": analyzer}),
                q.question,
                corpus,
                stop_after="gate",
            )
            assert t.retrieval.lists[0].n_candidates > 0, (q.id, analyzer)


def test_fm4_height_question_char_sources_lack_the_height(corpus):
    q = next(q for q in corpus.questions if q.id == "ko-01")
    t = run(
        sparse("C", **{"retrieval.analyzer": "char", "gate.max_kept": "4"}),
        q.question,
        corpus,
        gold=q,
        stop_after="gate",
    )
    kept = [t.chunks[h.chunk_id].content for h in t.gate.kept]
    assert kept and not any("1,947" in c for c in kept)
    assert t.gold.lost_at in ("retrieval", "gate")


def test_fm7_bm25_ranks_the_exact_code_first(corpus):
    qs = [q for q in corpus.questions if "fm7-exact-id" in q.tags]
    assert len(qs) >= 5
    for q in qs:
        code = re.search(r"\b[A-Z]{1,3}-?\d{2,4}\b", q.question).group(0)
        t = run(
            sparse("C", **{"retrieval.analyzer": "unicode"}),
            q.question,
            corpus,
            gold=q,
            stop_after="gate",
        )
        top = t.chunks[t.retrieval.hits[0].chunk_id]
        assert code in top.content, (q.id, code)
        assert t.gold.stage_ranks["rerank"][0] == 1, q.id


def test_fm10_overlap_puts_overlapping_chunks_in_the_same_top_k(corpus):
    crowded = 0
    qs = [q for q in corpus.questions if q.answerable][:40]
    for q in qs:
        t = run(sparse("B", **{"retrieval.k": "8"}), q.question, corpus, stop_after="gate")
        hits = [t.chunks[h.chunk_id] for h in t.retrieval.hits]
        if any(
            a.doc_id == b.doc_id and a.start < b.end and b.start < a.end
            for i, a in enumerate(hits)
            for b in hits[i + 1 :]
        ):
            crowded += 1
        # without overlap no two chunks of a document share text
        t0 = run(sparse("A", **{"retrieval.k": "8"}), q.question, corpus, stop_after="gate")
        hs = [t0.chunks[h.chunk_id] for h in t0.retrieval.hits]
        assert not any(
            a.doc_id == b.doc_id and a.start < b.end and b.start < a.end
            for i, a in enumerate(hs)
            for b in hs[i + 1 :]
        )
    assert crowded >= 10


def test_html_edition_loses_the_table_fact():
    report = load_directory(SAMPLE_CORPUS / "html")
    from rag_core.chunking import chunk_document
    from rag_core.config import ChunkerConfig

    doc = report.documents[0]
    assert "5,000원" in doc.text
    chunks = chunk_document(doc, ChunkerConfig(strategy="html", min_chars=40), count_tokens=False)
    assert chunks and not any("5,000원" in c.content for c in chunks)


def test_calibration_pairs_name_the_chunk_their_quote_starts_in(corpus):
    # ids shift after a chunk that a chunking change splits (en-course-06's 614-char table
    # became two chunks when long sentences were split at line breaks); a pair must not name
    # a neighbour of its quote
    path = SAMPLE_CORPUS / "calibration" / "support_pairs.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    by_id = corpus.chunking(ChunkerConfig()).by_id
    named = [r for r in rows if r.get("chunk_id")]
    assert len(named) >= 60
    for r in named:
        c = by_id.get(r["chunk_id"])
        assert c is not None, r["chunk_id"]
        assert c.doc_id == r["doc_id"] and c.start <= r["start"] < c.end, r["chunk_id"]
