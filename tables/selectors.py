"""Reads of tables: the whole table as a reader sees it (never a token), and the version alone
(what an unchanged poll costs: one query on the unique index of `code`)."""

from __future__ import annotations

from django.db.models import Q
from django.urls import reverse

from games.table_state import TableGame

from .models import Event, Table, is_table_code


class TableNotFound(LookupError):
    pass


def table_version(*, code: str) -> int | None:
    """The table's version, or None when there is no such table: one indexed query (none for
    text that cannot be a table's code)."""
    if not is_table_code(code):
        return None
    return Table.objects.filter(code=code).values_list("version", flat=True).first()


def table_get(*, code: str) -> Table:
    if not is_table_code(code):
        raise TableNotFound(code)
    table = (Table.objects.select_related("game").prefetch_related("seats")
             .filter(code=code).first())
    if table is None:
        raise TableNotFound(code)
    return table


def table_events(*, table: Table) -> list[Event]:
    """The history, oldest first, without the undone events."""
    return list(table.events.filter(undone=False).order_by("n"))


# The host role handed to a seat: recorded in the history, never a change of the game's state.
HANDOVER = "handover"


def own_kinds(game_kind: TableGame, asked: frozenset[str]) -> frozenset[str]:
    """The event kinds that are a seat's own entry at a table of the game: the game's, and the
    rulings every table takes where the game names none of its own (`asked`: they read nothing
    the table keeps)."""
    return game_kind.own_kinds | (asked - set(game_kind.kinds))


def overlapping_changes(*, table: Table, game_kind: TableGame, own: frozenset[str], kind: str,
                        seat: int | None, version: int) -> list[Event]:
    """The changes since `version` (events applied to it or later, and undos done since) that an
    event of `kind` for `seat` decided on `version` overlaps, oldest first: for a seat's own
    entry (a kind in `own`), a change of the same seat's own entry or a change of the whole
    table (the next game, a round, an undo of one); for any other kind, every change of the
    state. A ruling, a handover, a seat claimed or released, another seat's own entry: never."""
    since = (table.events.filter(Q(version__gte=version) | Q(undone_at__gte=version))
             .exclude(kind=HANDOVER).exclude(kind__in=game_kind.unchanging_kinds).order_by("n"))
    mine = kind in own
    return [event for event in since
            if not (mine and event.kind in own and event.seat != seat)]


def change_words(event: Event, names: dict[int, str], *, since: int) -> str:
    """One change since the version `since` a page read, as a player reads it: who sent which
    entry, or that the host undid it."""
    who = (f"{names.get(event.seat, '')} (seat {event.seat})" if event.seat is not None
           else "the host")
    what = event.kind.replace("_", " ")
    if event.undone_at is not None and event.undone_at >= since:
        return f"the host undid entry {event.n} ({what}, {who})"
    return f"{who} sent entry {event.n} ({what})"


def table_url(table: Table) -> str:
    return reverse("tables:page", args=[table.code])


def event_data(event: Event) -> dict:
    result = event.result
    return {
        "n": event.n,
        "kind": event.kind,
        "seat": event.seat,
        "by_host": event.by_host,
        "version": event.version,
        "result": result,
    }


def table_data(table: Table, *, events: list[Event] | None = None) -> dict:
    """The table as API.md gives it: never a token."""
    history = table_events(table=table) if events is None else events
    return {
        "code": table.code,
        "url": table_url(table),
        "game": table.game.slug,
        "players": [{"seat": seat.number, "name": seat.name, "claimed": seat.claimed}
                    for seat in table.seats.all()],
        "host_seat": table.host_seat,
        "version": table.version,
        "state": table.state,
        "events": [event_data(event) for event in history],
        "created_at": table.created_at.isoformat(),
        "last_active_at": table.last_active_at.isoformat(),
    }
