"""The key → JSON store behind the generation and judge caches (``rag_core.models.store``)."""

from __future__ import annotations

import sqlite3
import threading
import time

from rag_core.models.store import JsonStore, shared_store


def _race(open_store, db, n: int) -> tuple[list[object], list[BaseException]]:
    """``n`` threads call ``open_store(db)`` at the same moment."""
    got: list[object] = []
    errors: list[BaseException] = []
    start = threading.Barrier(n)

    def open_it() -> None:
        start.wait()
        try:
            got.append(open_store(db))
        except BaseException as exc:  # noqa: BLE001 - recorded for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return got, errors


def test_two_connections_creating_a_fresh_store_at_once_do_not_fail(tmp_path):
    """Both switch the new file to WAL; SQLite answers one of them 'database is locked' at once
    (no busy wait). Before the retry, 5 of 40 such races failed on this machine."""
    for i in range(40):
        _, errors = _race(JsonStore, tmp_path / f"s{i}" / "generations.sqlite", 2)
        assert errors == [], f"race {i}: {errors}"


def test_threads_of_one_process_share_one_store(tmp_path):
    """The app opens the generation cache from its script thread (time estimate) while the
    pipeline thread opens it to generate: one store, opened once."""
    db = tmp_path / "fresh" / "generations.sqlite"
    got, errors = _race(shared_store, db, 8)
    assert errors == []
    assert len(got) == 8 and all(s is got[0] for s in got)
    shared_store(db).put("k", {"v": 1})
    assert JsonStore(db).get("k") == {"v": 1}


def test_opening_waits_for_another_connection_that_holds_the_file(tmp_path):
    """Another process (here a connection) inside an exclusive transaction: opening the store
    waits for it instead of failing with 'database is locked'."""
    db = tmp_path / "generations.sqlite"
    holder = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("CREATE TABLE other (x)")
    release = threading.Timer(0.5, lambda: holder.execute("COMMIT"))
    release.start()
    t = time.monotonic()
    store = JsonStore(db)
    waited = time.monotonic() - t
    release.join()
    holder.close()
    store.put("a", [1, 2])
    assert store.get("a") == [1, 2]
    assert waited >= 0.3  # it waited for the holder rather than failing at once


def test_get_many_and_put_many(tmp_path):
    store = JsonStore(tmp_path / "s.sqlite")
    items = {f"k{i}": [i, "값"] for i in range(1_203)}  # more than one 500-key query
    store.put_many(items)
    assert store.get_many([*items, "absent", "k1"]) == items
    assert store.get("k7") == [7, "값"]
    assert store.get_many([]) == {}
