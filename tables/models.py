"""A table: one game in progress that several phones share.

The table row carries everything a poll needs (its `version`, which changes with every change a
reader can see) and the game's state; seats hold the players' names and, once claimed, the hash
of the seat's token; events are the table's history, each with the state before it (so the host
can undo it) and the saved result it produced, if any.

Tokens are never stored: only their SHA-256. A token is 32 random bytes (256 bits), so a plain
hash suffices (no password stretching is needed for a secret nobody chose).
"""

from __future__ import annotations

import re
import secrets

from django.db import models

from cards.models import Game

CODE_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # no l/1, o/0: read aloud or typed from paper
CODE_LENGTH = 10  # 50 bits: a link cannot be guessed, and gives no right to act anyway


MAX_ENTRY_KEY = 100  # a UUID is 36; room for a client's own scheme, bounded
# What a table code can be (new ones are CODE_LENGTH letters of CODE_ALPHABET; the column holds
# 16): anything else names no table and is answered 404 before any query, so a NUL or a lone
# surrogate in a link (which PostgreSQL refuses in a query: DataError, a 500) never reaches one.
CODE_PATTERN = re.compile(r"[a-z0-9]{1,16}")


def is_table_code(code: object) -> bool:
    return isinstance(code, str) and CODE_PATTERN.fullmatch(code) is not None


def new_table_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Table(models.Model):
    code = models.CharField(max_length=16, unique=True, default=new_table_code)
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="tables")
    # Every change a reader can see (an event, an undo, a seat claimed or released) adds one: the
    # ETag of a read, and what an event names to say which state it was decided on.
    version = models.PositiveIntegerField(default=1)
    state = models.JSONField(default=dict)
    # The host acts for the whole table: the token given to whoever started it (its hash here),
    # until the host hands the role to a seat; then `host_seat` names that seat, whose own token
    # (Seat.token_hash) is the host's, and `host_token_hash` is empty (the old token acts no more).
    host_token_hash = models.CharField(max_length=64, blank=True)
    host_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The seat holding the host role, once handed over."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_active_at = models.DateTimeField(auto_now=True, db_index=True)
    # The bytes its events keep (Event.size, added up as each is stored): the table's bound
    # (TABLE_MAX_MB) and its share of the store's (STORE_MAX_MB) read this, not the events.
    stored_bytes = models.PositiveBigIntegerField(default=0)
    # Who started it: a keyed hash of the client's address (never the address), so the tables one
    # address starts a day are bounded (TABLES_PER_ADDRESS_PER_DAY).
    started_by = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        indexes = [
            models.Index(fields=["started_by", "created_at"], name="tables_table_started_by")
        ]

    def __str__(self) -> str:
        return f"{self.game.name} table {self.code}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(help_text="1, 2, …: the seat order.")
    name = models.CharField(max_length=40)
    token_hash = models.CharField(
        max_length=64, blank=True, default="", help_text="Empty until a phone claims the seat."
    )

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="tables_seat_number_unique"),
        ]

    def __str__(self) -> str:
        return f"Seat {self.number}: {self.name}"

    @property
    def claimed(self) -> bool:
        return bool(self.token_hash)


class Event(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    n = models.PositiveIntegerField(help_text="1, 2, …: the order of the table's history.")
    kind = models.CharField(max_length=30)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    by_host = models.BooleanField(default=False)
    body = models.JSONField(default=dict)
    # The table version the event was applied to (the table moved from it to the next). An event
    # that names the version it read is applied only to that version or to one whose changes since
    # do not overlap it (tables.services.event_add); a seat's own entry is applied to the version
    # the table is at.
    version = models.PositiveIntegerField()
    state_before = models.JSONField(default=dict)
    # The game's own answer, as saved (results.SavedResult), or null when the event made none.
    # Saved results outlive the table: the id is kept as text, not a foreign key.
    result = models.JSONField(null=True, blank=True)
    undone = models.BooleanField(default=False)
    # The table version the undo was applied to: a change since a reader's version, as an event.
    undone_at = models.PositiveIntegerField(null=True, blank=True)
    # The client's key of this entry (its Idempotency-Key): an entry sent again with it, after
    # a lost answer or from an offline queue, gets the first answer and is never added twice.
    entry_key = models.CharField(max_length=MAX_ENTRY_KEY, blank=True, default="")
    # The SHA-256 of the entry as sent (kind, seat, body) when it has a key: the stored body is
    # the game's reading of it, so a repeat of the key is matched against this.
    entry_digest = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    # Its body, result and state_before as JSON, in bytes (Table.stored_bytes adds them up).
    size = models.PositiveIntegerField(default=0)

    # Not stored: set on the event given back for an entry key the table had already recorded.
    repeated = False

    class Meta:
        ordering = ["table", "n"]
        constraints = [
            models.UniqueConstraint(fields=["table", "n"], name="tables_event_n_unique"),
            # No two events ever apply to the same version of a table.
            models.UniqueConstraint(
                fields=["table", "version"], name="tables_event_version_unique"
            ),
            # One event per entry key at a table: a repeat can never add a second.
            models.UniqueConstraint(
                fields=["table", "entry_key"],
                condition=~models.Q(entry_key=""),
                name="tables_event_entry_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table.code} #{self.n} {self.kind}"
