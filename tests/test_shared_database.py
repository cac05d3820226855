"""The run's shared test database (tests/shared_database.py): the first worker builds and the
others copy, and a worker whose builder never finishes builds its own after a while instead of
waiting for ever."""

from __future__ import annotations

from tests import shared_database
from tests.shared_database import SharedDatabase


def test_the_first_builds_and_the_next_copies(tmp_path):
    first = SharedDatabase(tmp_path)
    assert first.copy_to(str(tmp_path / "first.sqlite3")) is False  # nothing built yet: it builds
    (tmp_path / shared_database.BUILT).write_bytes(b"built")  # what keep() writes
    first.release()
    second = SharedDatabase(tmp_path)
    assert second.copy_to(str(tmp_path / "second.sqlite3")) is True
    assert (tmp_path / "second.sqlite3").read_bytes() == b"built"


def test_a_worker_stops_waiting_for_a_builder_that_never_finishes(tmp_path, monkeypatch):
    monkeypatch.setattr(shared_database, "WAIT_FOR_BUILDER", 0.5)
    builder = SharedDatabase(tmp_path)  # holds the lock, as a builder whose setup failed
    builder.copy_to(str(tmp_path / "builder.sqlite3"))
    waiting = SharedDatabase(tmp_path)  # returns after about half a second
    (tmp_path / shared_database.BUILT).write_bytes(b"late")
    # It gave up: it builds its own, copies nothing and leaves nothing for the others.
    assert waiting.copy_to(str(tmp_path / "waiting.sqlite3")) is False
    assert not (tmp_path / "waiting.sqlite3").exists()
    waiting.keep()
    assert (tmp_path / shared_database.BUILT).read_bytes() == b"late"
    builder.release()
