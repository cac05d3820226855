"""Reads of tables: the whole table as a reader sees it (never a token), and the version alone
(what an unchanged poll costs: one query on the unique index of `code`)."""

from __future__ import annotations

from django.urls import reverse

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
