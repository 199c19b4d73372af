"""A live Qdrant collection as one more retriever list, and building one from our chunks.

Qdrant (https://qdrant.tech, client ``qdrant-client``) is reached either as a
server (``retrieval.qdrant_url``, e.g. ``http://localhost:6333``; starting it —
``docker run qdrant/qdrant`` — is the user's business, we only connect) or in
the client's embedded local mode (``retrieval.qdrant_path``, a folder; the same
client code path, exact search in-process, no server).

The question is encoded with ``retrieval.qdrant_model``, which must be the
model that built the collection: its dimension is checked against the
collection's vector size before searching. Each hit's score is the value
Qdrant returns (for a ``Cosine`` collection the cosine similarity, so the
cosine distance ``1 − score`` is attached for the gate; ``Dot``: the dot
product; ``Euclid``/``Manhattan``: Qdrant's distance, for which lower is better).

A hit names its chunk by the payload field ``chunk_id`` (written by
:func:`build_collection`), else by its point id; ``retrieval.qdrant_doc_field``
and ``retrieval.qdrant_text_field`` name the payload fields holding the
document id and the text. Every problem — no server, no collection, a missing
payload field, a dimension mismatch — raises :class:`QdrantError` with one
sentence saying what and how to fix it.
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from ..types import Notice
from ..wording import declare, english, notice

#: Seconds a server request may wait for the next bytes (httpx's per-read timeout).
TIMEOUT_S = 5
#: Seconds one server call may take in total. The per-read timeout restarts on every byte, so
#: a server that drips one byte every 2 s would hold a call (and the page) for ever; past this
#: deadline the call is abandoned, the client dropped, and the list reports the server unreachable.
DEADLINE_S = 20.0
#: Points sent per upload request by :func:`build_collection`.
UPLOAD_BATCH = 256
#: Qdrant distances whose score grows with similarity.
_SIMILARITIES = ("Cosine", "Dot")


#: Why a Qdrant collection cannot serve the query (``QdrantError.notice``).
QDRANT_NONE_GIVEN = declare("qdrant.none_given")
QDRANT_BOTH_GIVEN = declare("qdrant.both_given")
QDRANT_NO_FOLDER = declare("qdrant.no_folder", "path")
QDRANT_FOLDER_UNOPENABLE = declare("qdrant.folder_unopenable", "path", "error")
QDRANT_BAD_URL = declare("qdrant.bad_url", "url")
QDRANT_NOT_FOUND = declare("qdrant.not_found", "where", "error")
QDRANT_UNREACHABLE = declare("qdrant.unreachable", "where", "what", "error")
QDRANT_DEADLINE = declare("qdrant.deadline", "where", "seconds", "what")
QDRANT_NO_COLLECTION = declare("qdrant.no_collection", "where", "collection", "names")
QDRANT_NAMED_VECTORS = declare("qdrant.named_vectors", "collection", "n", "names")
QDRANT_DIMENSION = declare(
    "qdrant.dimension_mismatch", "collection", "dimension", "model", "model_dimension"
)
QDRANT_QUERY_DIMENSION = declare(
    "qdrant.query_dimension_mismatch", "collection", "dimension", "query_dimension"
)
QDRANT_NO_PAYLOAD_FIELD = declare(
    "qdrant.no_payload_field", "collection", "point", "field", "key", "fields"
)
QDRANT_OTHER_MODEL = declare("qdrant.other_model", "collection", "others", "model")
QDRANT_EXISTS = declare("qdrant.exists", "collection", "where", "n")


class QdrantError(ValueError):
    """A Qdrant server, collection or payload that cannot serve the query (``notice`` says why;
    the exception's text is its English).

    ``kind`` is ``"unavailable"`` (cannot connect, nothing configured) or
    ``"error"`` (connected, but the collection does not fit the config).
    """

    def __init__(self, why: Notice, kind: str = "error") -> None:
        super().__init__(english(why))
        self.notice = why
        self.kind = kind


@dataclass(frozen=True)
class QdrantTarget:
    """Where a collection lives: exactly one of ``url`` (server) or ``path`` (embedded local
    mode)."""

    url: str = ""
    path: str = ""

    def __post_init__(self) -> None:
        if bool(self.url) == bool(self.path):
            raise QdrantError(
                notice(QDRANT_NONE_GIVEN if not self.url else QDRANT_BOTH_GIVEN),
                kind="unavailable",
            )

    @property
    def where(self) -> str:
        return self.url or f"local folder {self.path}"


@dataclass(frozen=True)
class QdrantHit:
    """One point as Qdrant returned it."""

    point_id: str
    chunk_id: str
    doc_id: str
    text: str
    score: float
    embedding_model: str | None = None  # payload ``embedding_model`` (written by build_collection)


@dataclass(frozen=True)
class CollectionFacts:
    """What a collection holds: vector size, distance, point count and (optional) vector name."""

    name: str
    dimension: int
    distance: str
    points: int
    vector_name: str | None = None


_clients: dict[tuple[str, str], Any] = {}
_clients_lock = threading.Lock()
_close_registered = False


def connect(target: QdrantTarget, *, create: bool = False) -> Any:
    """A ``QdrantClient`` for ``target``, one per server URL or folder per process.

    Local mode locks its folder against other processes, so the client is kept
    and shared rather than opened per query; calls to a local-mode client are
    serialised (see :func:`_call`), as its in-process storage is not made for
    concurrent threads (Streamlit sessions are threads).

    Args:
        target: Server URL or local folder.
        create: Allow a local folder that does not exist yet (index building).

    Raises:
        QdrantError: The folder does not exist or another process holds it.
    """
    key = (target.url, str(Path(target.path).resolve()) if target.path else "")
    with _clients_lock:
        if key in _clients:
            return _clients[key]
        # lazy: an optional heavy dependency, imported on first use
        from qdrant_client import QdrantClient

        if target.path:
            if not create and not Path(target.path).is_dir():
                raise QdrantError(notice(QDRANT_NO_FOLDER, path=target.path), kind="unavailable")
            try:
                client = QdrantClient(path=target.path, force_disable_check_same_thread=True)
            except (RuntimeError, OSError) as exc:
                raise QdrantError(
                    notice(QDRANT_FOLDER_UNOPENABLE, path=target.path, error=str(exc)),
                    kind="unavailable",
                ) from None
        else:
            if not target.url.startswith(("http://", "https://")):
                raise QdrantError(notice(QDRANT_BAD_URL, url=target.url), kind="unavailable")
            client = QdrantClient(url=target.url, timeout=TIMEOUT_S, check_compatibility=False)
        _clients[key] = client
        global _close_registered
        if not _close_registered:
            # close before interpreter teardown: a local-mode client closed by its
            # __del__ during shutdown prints a traceback (qdrant-client 1.20)
            atexit.register(close_all)
            _close_registered = True
        return client


def close_all() -> None:
    """Close every cached client (frees local-mode folder locks)."""
    with _clients_lock:
        for client in _clients.values():
            client.close()
        _clients.clear()


_local_lock = threading.Lock()


def _within_deadline(target: QdrantTarget, what: str, fn: Callable[[], Any]) -> Any:
    """``fn()`` on a daemon thread, waited for at most :data:`DEADLINE_S` seconds in total.

    Past the deadline the call is abandoned (its thread ends when the socket does),
    the target's cached client is dropped so the next call opens a fresh connection,
    and ``QdrantError`` (``unavailable``) says so.
    """
    box: dict[str, Any] = {}
    done = threading.Event()

    def work() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - re-raised on the caller's thread
            box["error"] = exc
        finally:
            done.set()

    threading.Thread(target=work, name="qdrant-call", daemon=True).start()
    if not done.wait(DEADLINE_S):
        forget(target)
        raise QdrantError(
            notice(QDRANT_DEADLINE, where=target.where, seconds=f"{DEADLINE_S:g}", what=what),
            kind="unavailable",
        )
    if "error" in box:
        raise box["error"]
    return box.get("value")


def forget(target: QdrantTarget) -> None:
    """Drop the cached client of a server ``target`` (after a failure: the next call
    connects afresh rather than reusing a broken connection)."""
    if target.path:
        return
    with _clients_lock:
        client = _clients.pop((target.url, ""), None)
    if client is not None:
        threading.Thread(target=client.close, daemon=True).start()  # may block on the socket


def _call(target: QdrantTarget, what: str, fn: Callable[[], Any]) -> Any:
    """Run one client call (one at a time in local mode; within :data:`DEADLINE_S` against
    a server); a failure becomes one clear ``QdrantError``."""
    try:
        if target.path:
            with _local_lock:
                return fn()
        return _within_deadline(target, what, fn)
    except QdrantError:
        raise
    except Exception as exc:  # noqa: BLE001 - the client raises many types (httpx, grpc, its own)
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if "not found" in text.lower() and "collection" in text.lower():
            raise QdrantError(notice(QDRANT_NOT_FOUND, where=target.where, error=text)) from None
        forget(target)  # a failed connection is not kept for the next visit
        raise QdrantError(
            notice(QDRANT_UNREACHABLE, where=target.where, what=what, error=text),
            kind="unavailable",
        ) from None


def collection_facts(client: Any, target: QdrantTarget, collection: str) -> CollectionFacts:
    """Vector size, distance and point count of ``collection``.

    Raises:
        QdrantError: Unreachable server, no such collection (lists the ones
            there), or a collection with several named vectors.
    """
    exists = _call(target, "listing collections", lambda: client.collection_exists(collection))
    if not exists:
        names = _call(
            target,
            "listing collections",
            lambda: [c.name for c in client.get_collections().collections],
        )
        listed = ", ".join(sorted(names)) or "none"
        raise QdrantError(
            notice(QDRANT_NO_COLLECTION, where=target.where, collection=collection, names=listed)
        )
    info = _call(target, "reading the collection", lambda: client.get_collection(collection))
    vectors = info.config.params.vectors
    name = None
    if isinstance(vectors, dict):
        if len(vectors) != 1:
            raise QdrantError(
                notice(
                    QDRANT_NAMED_VECTORS,
                    collection=collection,
                    n=len(vectors),
                    names=", ".join(sorted(vectors)),
                )
            )
        name, vectors = next(iter(vectors.items()))
    distance = getattr(vectors.distance, "value", str(vectors.distance))
    return CollectionFacts(
        collection, int(vectors.size), str(distance), int(info.points_count or 0), name
    )


def check_dimension(facts: CollectionFacts, embedder: Any) -> None:
    """Raise ``QdrantError`` unless ``embedder`` gives vectors of the collection's size."""
    if int(embedder.dimension) != facts.dimension:
        raise QdrantError(
            notice(
                QDRANT_DIMENSION,
                collection=facts.name,
                dimension=facts.dimension,
                model=embedder.model_id,
                model_dimension=embedder.dimension,
            )
        )


def search(
    target: QdrantTarget,
    collection: str,
    query_vector: np.ndarray,
    k: int,
    *,
    text_field: str = "text",
    doc_field: str = "doc_id",
    facts: CollectionFacts | None = None,
) -> tuple[list[QdrantHit], CollectionFacts]:
    """The ``k`` nearest points to ``query_vector``, in Qdrant's order, with their payload.

    Raises:
        QdrantError: Unreachable server, missing collection, dimension
            mismatch, or a hit without ``text_field`` / ``doc_field`` (names the
            fields the point has).
    """
    client = connect(target)
    facts = facts or collection_facts(client, target, collection)
    vec = np.asarray(query_vector, dtype=np.float32).reshape(-1)
    if vec.shape[0] != facts.dimension:
        raise QdrantError(
            notice(
                QDRANT_QUERY_DIMENSION,
                collection=collection,
                dimension=facts.dimension,
                query_dimension=vec.shape[0],
            )
        )
    res = _call(
        target,
        "searching",
        lambda: client.query_points(
            collection, query=vec.tolist(), using=facts.vector_name, limit=k, with_payload=True
        ),
    )
    hits = []
    for p in res.points:
        payload = p.payload or {}
        for field, key in (
            (text_field, "retrieval.qdrant_text_field"),
            (doc_field, "retrieval.qdrant_doc_field"),
        ):
            if field not in payload:
                raise QdrantError(
                    notice(
                        QDRANT_NO_PAYLOAD_FIELD,
                        collection=collection,
                        point=p.id,
                        field=field,
                        key=key,
                        fields=", ".join(sorted(payload)) or "none",
                    )
                )
        chunk_id = payload.get("chunk_id")
        hits.append(
            QdrantHit(
                point_id=str(p.id),
                chunk_id=str(chunk_id) if chunk_id is not None else str(p.id),
                doc_id=str(payload[doc_field]),
                text=str(payload[text_field]),
                score=float(p.score),
                embedding_model=payload.get("embedding_model"),
            )
        )
    return hits, facts


def check_model(hits: Sequence[QdrantHit], collection: str, embedder: Any) -> None:
    """Raise ``QdrantError`` when a hit says it was embedded by another model than the question's.

    Only points that carry an ``embedding_model`` payload field are checked
    (ours do; a foreign collection usually does not, and then only the
    dimension check applies).
    """
    others = sorted(
        {
            h.embedding_model
            for h in hits
            if h.embedding_model and h.embedding_model != embedder.model_id
        }
    )
    if others:
        raise QdrantError(
            notice(
                QDRANT_OTHER_MODEL,
                collection=collection,
                others=", ".join(others),
                model=embedder.model_id,
            )
        )


def distance_of(facts: CollectionFacts, score: float) -> float | None:
    """The cosine distance ``1 − score`` for a ``Cosine`` collection, else None (not a cosine)."""
    return 1.0 - score if facts.distance == "Cosine" else None


def higher_is_better(facts: CollectionFacts) -> bool:
    """True for `Cosine` and `Dot` collections (similarity scores); False for `Euclid`/`Manhattan`
    distances."""
    return facts.distance in _SIMILARITIES


def check_writable(target: QdrantTarget, collection: str, *, recreate: bool = False) -> bool:
    """Check that ``collection`` can be written (before any embedding work); True when it exists.

    Raises:
        QdrantError: Unreachable server, or the collection exists and
            ``recreate`` is false.
    """
    client = connect(target, create=True)
    exists = bool(
        _call(target, "listing collections", lambda: client.collection_exists(collection))
    )
    if exists and not recreate:
        n = _call(target, "counting points", lambda: client.count(collection, exact=True).count)
        raise QdrantError(notice(QDRANT_EXISTS, collection=collection, where=target.where, n=n))
    return exists


def build_collection(
    target: QdrantTarget,
    collection: str,
    chunks: Sequence[Any],
    vectors: np.ndarray,
    *,
    model_id: str,
    chunker_signature: str,
    recreate: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> CollectionFacts:
    """Write ``chunks`` and their (unit) ``vectors`` as a ``Cosine`` collection.

    Point ``i`` is chunk ``i``; its payload holds ``chunk_id``, ``doc_id``,
    ``text`` (the embedded text, header included), ``embedding_model`` and
    ``chunker``.

    Raises:
        QdrantError: The collection exists and ``recreate`` is false, or the
            server is unreachable.
    """
    # lazy: an optional heavy dependency, imported on first use
    from qdrant_client import models

    vectors = np.asarray(vectors, dtype=np.float32)
    if vectors.ndim != 2 or vectors.shape[0] != len(chunks):
        raise ValueError(
            f"{len(chunks)} chunks but vectors of shape {vectors.shape}; give one row per chunk"
        )
    client = connect(target, create=True)
    if check_writable(target, collection, recreate=recreate):
        _call(target, "deleting the old collection", lambda: client.delete_collection(collection))
    _call(
        target,
        "creating the collection",
        lambda: client.create_collection(
            collection,
            vectors_config=models.VectorParams(
                size=int(vectors.shape[1]), distance=models.Distance.COSINE
            ),
        ),
    )
    n = len(chunks)
    for lo in range(0, n, UPLOAD_BATCH):
        hi = min(lo + UPLOAD_BATCH, n)
        points = [
            models.PointStruct(
                id=i,
                vector=vectors[i].tolist(),
                payload={
                    "chunk_id": chunks[i].chunk_id,
                    "doc_id": chunks[i].doc_id,
                    "text": chunks[i].text,
                    "embedding_model": model_id,
                    "chunker": chunker_signature,
                },
            )
            for i in range(lo, hi)
        ]
        _call(
            target,
            "uploading points",
            partial(client.upsert, collection, points=points, wait=True),
        )
        if progress:
            progress(hi, n)
    return collection_facts(client, target, collection)
