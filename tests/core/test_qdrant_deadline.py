"""Bounded waits on Qdrant (issue 27): a server that drips one byte every 0.5 s is cut off by
the total deadline, not held by the per-read timeout; a failed connection is not kept."""

from __future__ import annotations

import socket
import time

import pytest
from helpers.drip import drip_server as dripping

from rag_core.retrieval import qdrant
from rag_core.retrieval.qdrant import QdrantError, QdrantTarget, collection_facts, connect


@pytest.fixture
def drip_server():
    """The tests' drip server (one byte every 0.5 s; only a total deadline ends the wait)."""
    with dripping(every_s=0.5) as url:
        yield url


def test_a_dripping_server_is_cut_off_by_the_total_deadline(drip_server, monkeypatch):
    monkeypatch.setattr(qdrant, "DEADLINE_S", 2.0)
    target = QdrantTarget(url=drip_server)
    client = connect(target)  # the first import of qdrant-client takes seconds: not timed
    start = time.perf_counter()
    with pytest.raises(QdrantError, match=r"did not answer within 2 s while listing collections"):
        collection_facts(client, target, "c")
    elapsed = time.perf_counter() - start
    assert elapsed < 4.0, elapsed  # the per-read timeout (5 s) never fires on a drip
    assert (drip_server, "") not in qdrant._clients  # the stuck client is not reused


def test_a_refused_connection_is_not_kept(monkeypatch):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    target = QdrantTarget(url=f"http://127.0.0.1:{port}")
    with pytest.raises(QdrantError) as info:
        collection_facts(connect(target), target, "c")
    assert info.value.kind == "unavailable"
    assert (target.url, "") not in qdrant._clients  # the next visit connects afresh


def test_a_trace_with_an_unreachable_qdrant_list_is_not_cached(tiny_corpus):
    from rag_core.config import PipelineConfig
    from rag_core.pipeline import run
    from ui.cache import cacheable

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = PipelineConfig().with_overrides(
        {
            "retrieval.methods": "bm25,qdrant",
            "retrieval.qdrant_url": f"http://127.0.0.1:{port}",
            "generation.model": "none",
        }
    )
    trace = run(cfg, "KV cache", tiny_corpus, stop_after="gate")
    assert any(
        lst.method == "qdrant" and lst.status == "unavailable" for lst in trace.retrieval.lists
    )
    assert not cacheable(trace)
    ok = run(
        PipelineConfig().with_overrides({"generation.model": "none"}),
        "KV cache",
        tiny_corpus,
        stop_after="gate",
    )
    assert cacheable(ok)
