"""The server's table-read slots (config/read_slots.py; issue 30), held by real processes: never
more holders than slots, a slot of a killed process given back, a forked process never holding
its parent's slot. No time is asserted: the holders write down when they held a slot (the
machine's monotonic clock, one for every process) and the test checks the order of those times.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest

from config.read_slots import ServerReadSlots, configured_count, default_count, server_slots

FORK = multiprocessing.get_context("fork")


def _holder(directory: str, count: int, turns: int, record: str) -> None:
    """Take a slot `turns` times (waiting as a read does), hold it a moment, give it back; write
    each holding's start and end."""
    slots = ServerReadSlots(directory, count)
    with open(record, "a") as out:
        for _ in range(turns):
            while (slot := slots.try_take()) is None:
                time.sleep(0.001)
            started = time.monotonic()
            time.sleep(0.005)
            ended = time.monotonic()
            out.write(f"{started} {ended}\n")
            out.flush()
            slots.give_back(slot)


def _most_at_once(records: list[Path]) -> int:
    moments: list[tuple[float, int]] = []
    for record in records:
        for line in record.read_text().splitlines():
            started, ended = (float(part) for part in line.split())
            moments += [(started, 1), (ended, -1)]
    holding = most = 0
    for _, change in sorted(moments, key=lambda moment: (moment[0], moment[1])):
        holding += change
        most = max(most, holding)
    return most


@pytest.mark.parametrize("count", [1, 2])
def test_processes_never_hold_more_slots_than_there_are(tmp_path, count):
    records = [tmp_path / f"holder-{n}.txt" for n in range(4)]
    processes = [
        FORK.Process(target=_holder, args=(str(tmp_path), count, 15, str(record)))
        for record in records
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=120)
        assert process.exitcode == 0
    assert sum(len(record.read_text().splitlines()) for record in records) == 60
    assert _most_at_once(records) <= count


def _hold_until_killed(directory: str, taken) -> None:
    slots = ServerReadSlots(directory, 1)
    while slots.try_take() is None:
        time.sleep(0.001)
    taken.set()
    time.sleep(600)


def test_a_killed_holders_slot_is_given_back(tmp_path):
    taken = FORK.Event()
    holder = FORK.Process(target=_hold_until_killed, args=(str(tmp_path), taken))
    holder.start()
    try:
        assert taken.wait(timeout=60)
        slots = ServerReadSlots(str(tmp_path), 1)
        assert slots.try_take() is None  # the holder's, while it lives
        os.kill(holder.pid, signal.SIGKILL)
        holder.join(timeout=60)
        deadline = time.monotonic() + 60
        while (slot := slots.try_take()) is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert slot == 0
    finally:
        if holder.is_alive():
            holder.kill()


def _try_in_child(slots: ServerReadSlots, answer) -> None:
    answer.put(slots.try_take())


def test_a_forked_process_never_shares_its_parents_slot(tmp_path):
    """The same object, carried through fork (as gunicorn's preloaded app is), opens its own
    descriptors: the parent's slot is held against the child too."""
    slots = ServerReadSlots(str(tmp_path), 1)
    assert slots.try_take() == 0
    answer = FORK.Queue()
    child = FORK.Process(target=_try_in_child, args=(slots, answer))
    child.start()
    assert answer.get(timeout=60) is None
    child.join(timeout=60)
    slots.give_back(0)
    child = FORK.Process(target=_try_in_child, args=(slots, answer))
    child.start()
    assert answer.get(timeout=60) == 0  # given back: the next process takes it
    child.join(timeout=60)


def test_one_process_takes_each_slot_once(tmp_path):
    """A second flock of a process's own descriptor would succeed: its held slots are skipped."""
    slots = ServerReadSlots(str(tmp_path), 2)
    assert slots.try_take() == 0
    assert slots.try_take() == 1
    assert slots.try_take() is None
    slots.give_back(0)
    assert slots.try_take() == 0


def test_the_slots_are_the_servers_only_when_gunicorn_made_their_folder(tmp_path, monkeypatch):
    """Django's development server (one process) has none; gunicorn's on_starting hook makes the
    folder, and TABLE_READS_AT_ONCE sets their number (by default a core less than the machine
    has, at least one)."""
    # Set (to nothing) through monkeypatch, so that its value before the test is put back
    # whatever on_starting writes: a folder left named after on_exit removed it would reach the
    # next test's reads.
    monkeypatch.setenv("TABLE_READ_SLOTS_DIR", "")
    assert server_slots() is None
    gunicorn_config: dict = {}
    exec(Path("config/gunicorn.py").read_text(), gunicorn_config)
    gunicorn_config["on_starting"](None)
    made = os.environ["TABLE_READ_SLOTS_DIR"]
    try:
        assert Path(made).is_dir()
        slots = server_slots()
        assert slots is not None and slots.directory == made
        assert slots.count == default_count() >= 1
        monkeypatch.setenv("TABLE_READS_AT_ONCE", "2")
        assert server_slots().count == 2
    finally:
        gunicorn_config["on_exit"](None)
    assert not Path(made).exists()


def test_slots_whose_folder_was_removed_are_made_again(tmp_path):
    """A cleaner of the temporary folder removing the slots' folder never fails a read."""
    folder = tmp_path / "removed"
    slots = ServerReadSlots(str(folder), 1)
    assert slots.try_take() == 0
    slots.give_back(0)
    assert folder.is_dir()


def test_a_count_of_reads_that_is_no_count_stops_the_server(monkeypatch):
    """TABLE_READS_AT_ONCE is read when gunicorn starts: "two" or "²" stops it with a message,
    where it would otherwise fail every table read; 0 or nothing is the default."""
    gunicorn_config: dict = {}
    exec(Path("config/gunicorn.py").read_text(), gunicorn_config)
    monkeypatch.setenv("TABLE_READ_SLOTS_DIR", "")
    for given in ("two", "\u00b2", "-1"):
        monkeypatch.setenv("TABLE_READS_AT_ONCE", given)
        with pytest.raises(SystemExit, match="TABLE_READS_AT_ONCE must be a whole number"):
            gunicorn_config["on_starting"](None)
        assert os.environ["TABLE_READ_SLOTS_DIR"] == ""
    for given, count in (("0", default_count()), ("", default_count()), ("3", 3)):
        monkeypatch.setenv("TABLE_READS_AT_ONCE", given)
        assert configured_count() == count
