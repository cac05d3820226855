"""How many full reads of a table the whole server runs at once, across all its processes
(issue 30).

A flood of reads from many addresses, each address within its own limit, is real work in every
read. Bounded per process (config/asgi.py's TableReadsBound), gunicorn's five processes on two
cores each kept one read in Django's thread, the cores were all the flood's, and GET /api/games/
waited for one: on PostgreSQL its p99 went to 16 times the quiet one (docs/MEASUREMENTS.md).
Shared by the processes, the reads hold at most TABLE_READS_AT_ONCE cores (by default one less
than the machine has, at least one) and every other request finds a core free.

The slots are lock files in a folder config/gunicorn.py makes in the master before the workers
fork (TABLE_READ_SLOTS_DIR), each taken with flock: the kernel gives a slot back when the process
holding it dies (a worker killed mid-read never keeps it). A process opens the files itself, on
first use: a descriptor inherited through fork shares its lock with every other process that
inherited it. Without the folder (Django's development server, one process) there are no slots
to share and only the per-process bound applies.
"""

from __future__ import annotations

import asyncio
import fcntl
import os

# How long a process waiting for a slot sleeps between tries. Only one read in each process
# waits for a slot at a time (the others wait for that process's own bound), so a flood costs
# the waiting processes a few hundred wake-ups a second, where a thread blocked in flock could not
# be given back if its request ended while it waited.
POLL_SECONDS = 0.003


def default_count() -> int:
    """One less than the cores, at least one: a flood of reads leaves a core to the rest."""
    return max(1, (os.cpu_count() or 1) - 1)


class ServerReadSlots:
    """`count` slots shared by the processes that see the same `directory`."""

    def __init__(self, directory: str, count: int) -> None:
        self.directory = directory
        self.count = max(1, count)
        self._pid: int | None = None
        self._files: list[int] = []
        self._held: set[int] = set()

    def _opened(self) -> list[int]:
        """This process's own descriptors of the slot files (opened again after a fork)."""
        if self._pid != os.getpid():
            # Made again if something removed it (a cleaner of the temporary folder): a read
            # never fails for want of its slots.
            os.makedirs(self.directory, exist_ok=True)
            self._files = [
                os.open(
                    os.path.join(self.directory, f"slot-{index}"),
                    os.O_RDWR | os.O_CREAT | os.O_CLOEXEC,
                    0o600,
                )
                for index in range(self.count)
            ]
            self._pid = os.getpid()
            self._held = set()
        return self._files

    def try_take(self) -> int | None:
        """A free slot, now taken by this process, or None when every slot is held."""
        for index, descriptor in enumerate(self._opened()):
            # A process's second flock of its own descriptor succeeds: its own slots are skipped.
            if index in self._held:
                continue
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue
            self._held.add(index)
            return index
        return None

    async def take(self) -> int:
        """A slot, once one is free (the event loop goes on meanwhile)."""
        while (slot := self.try_take()) is None:
            await asyncio.sleep(POLL_SECONDS)
        return slot

    def give_back(self, slot: int) -> None:
        if slot in self._held and self._pid == os.getpid():
            self._held.discard(slot)
            fcntl.flock(self._files[slot], fcntl.LOCK_UN)


_made: dict[tuple[str, int], ServerReadSlots] = {}


def configured_count() -> int:
    """TABLE_READS_AT_ONCE, or the default when it is unset or 0. config/gunicorn.py reads it
    before the workers start, so a value that is no count stops the server with this message
    rather than failing reads."""
    given = os.environ.get("TABLE_READS_AT_ONCE", "").strip()
    if not given:
        return default_count()
    if not given.isascii() or not given.isdigit():
        raise ValueError(f"TABLE_READS_AT_ONCE must be a whole number of reads; got {given!r}.")
    return int(given) or default_count()


def server_slots() -> ServerReadSlots | None:
    """The server's slots when it made a folder for them (config/gunicorn.py), else None.

    Looked up at each read, not when config.asgi is imported: gunicorn preloads the app in its
    master before its on_starting hook makes the folder."""
    directory = os.environ.get("TABLE_READ_SLOTS_DIR", "")
    if not directory:
        return None
    count = configured_count()
    if (directory, count) not in _made:
        _made[(directory, count)] = ServerReadSlots(directory, count)
    return _made[(directory, count)]
