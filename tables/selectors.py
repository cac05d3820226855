"""Reads of tables: the table as a reader sees it (never a token), and the version alone (what an
unchanged poll costs: one query on the unique index of `code`).

A read costs the same at event 2,000 as at event 2 (issue 30): the state is on the table's row,
read without the history, and the history comes a page at a time (HISTORY_PAGE events, the newest
page first; `before` = the `n` of the oldest event shown gives the page before it), read through
the index on (table, n) with LIMIT and without the stored state each event keeps for the undo."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from .models import Event, Table


class TableNotFound(LookupError):
    pass


def table_version(*, code: str) -> int | None:
    """The table's version, or None when there is no such table: one indexed query."""
    return Table.objects.filter(code=code).values_list("version", flat=True).first()


def table_get(*, code: str) -> Table:
    table = (Table.objects.select_related("game").prefetch_related("seats")
             .filter(code=code).first())
    if table is None:
        raise TableNotFound(code)
    return table


# Events in one page of the history (the API's, the page's and its polled part's).
HISTORY_PAGE = 20


@dataclass(frozen=True)
class HistoryPage:
    """Events of the history, oldest first within the page, undone ones left out; `before` is the
    cursor of the page before it (the `n` of its oldest event), None when it is the first."""

    events: list[Event]
    before: int | None


def table_events(*, table: Table, before: int | None = None,
                 size: int = HISTORY_PAGE) -> HistoryPage:
    """The newest page of the history (or the page of events numbered below `before`): one query
    of at most size + 1 rows, whatever the history's length. The state each event keeps for the
    undo and the body are not read (no page shows them)."""
    rows = table.events.filter(undone=False)
    if before is not None:
        rows = rows.filter(n__lt=before)
    newest = list(rows.defer("state_before", "body").order_by("-n")[:size + 1])
    shown = newest[:size]
    shown.reverse()
    return HistoryPage(shown, shown[0].n if len(newest) > size else None)


def last_undoable(*, table: Table, passed_over: str) -> Event | None:
    """The event the host's undo takes back: the last not undone, of another kind than
    `passed_over` (the handover, which tables.services.event_undo passes over); one query."""
    return (table.events.filter(undone=False).exclude(kind=passed_over)
            .defer("state_before", "body").order_by("-n").first())


def table_ended(table: Table) -> str:
    """Why the table takes no more events, as far as its row tells (tables.services' bounds: its
    age, its history's bytes within a tenth of TABLE_MAX_MB; a count of events reached shows as
    the event's refusal); "" while it plays on."""
    if settings.TABLE_MAX_AGE_DAYS and (
            timezone.now() - table.created_at > timedelta(days=settings.TABLE_MAX_AGE_DAYS)):
        return (f"This table was started more than {settings.TABLE_MAX_AGE_DAYS} days ago and "
                "takes no more entries.")
    if settings.TABLE_MAX_MB and table.stored_bytes > settings.TABLE_MAX_MB * 900_000:
        return "This table's history is (nearly) as long as a table keeps."
    return ""


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


def history_data(table: Table, page: HistoryPage) -> dict:
    """A page of the history as API.md gives it: `events` and the cursor of the page before."""
    return {"events": [event_data(event) for event in page.events],
            "events_before": page.before,
            "events_url": (reverse("tables:api-events", args=[table.code])
                           + f"?before={page.before}") if page.before is not None else None}


def table_data(table: Table, *, events: HistoryPage | None = None) -> dict:
    """The table as API.md gives it, with the newest page of its history: never a token."""
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
        **history_data(table, history),
        "created_at": table.created_at.isoformat(),
        "last_active_at": table.last_active_at.isoformat(),
    }
