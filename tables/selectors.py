"""Reads of tables: the table as a reader sees it (never a token), and the version alone (what an
unchanged poll costs: one query on the unique index of `code`).

A read costs the same at event 2,000 as at event 2 (issue 30): the state is on the table's row,
read without the history, and the history comes a page at a time (HISTORY_PAGE events, the newest
page first; `before` = the `n` of the oldest event shown gives the page before it), read through
the index on (table, n) with LIMIT and without the stored state each event keeps for the undo."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypedDict

from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from games.table_state import SEALED, State, TableGame

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
    table = Table.objects.select_related("game").prefetch_related("seats").filter(code=code).first()
    if table is None:
        raise TableNotFound(code)
    return table


# Events in one page of the history (the API's, the page's and its polled part's).
HISTORY_PAGE = 20


@dataclass(frozen=True)
class HistoryPage:
    """Events of the history, oldest first within the page (undone ones left out unless asked
    for); `before` is the cursor of the page before it (the `n` of its oldest event), None when
    it is the first."""

    events: list[Event]
    before: int | None


def table_events(
    *, table: Table, before: int | None = None, size: int = HISTORY_PAGE, with_undone: bool = False
) -> HistoryPage:
    """The newest page of the history (or the page of events numbered below `before`): one query
    of at most size + 1 rows, whatever the history's length. The state each event keeps for the
    undo and the body are not read (no page shows them). Undone events are left out (the API's
    history), or kept in their place (`with_undone`: the page's, which shows them as undone)."""
    rows = table.events.all() if with_undone else table.events.filter(undone=False)
    if before is not None:
        rows = rows.filter(n__lt=before)
    newest = list(rows.defer("state_before", "body").order_by("-n")[: size + 1])
    shown = newest[:size]
    shown.reverse()
    return HistoryPage(shown, shown[0].n if len(newest) > size else None)


def last_undoable(*, table: Table, passed_over: str) -> Event | None:
    """The event the host's undo takes back: the last not undone, of another kind than
    `passed_over` (the handover, which tables.services.event_undo passes over); one query."""
    return (
        table.events.filter(undone=False)
        .exclude(kind=passed_over)
        .defer("state_before", "body")
        .order_by("-n")
        .first()
    )


def table_ended(table: Table) -> str:
    """Why the table takes no more events, as far as its row tells (tables.services' bounds: its
    age, its history's bytes within a tenth of TABLE_MAX_MB; a count of events reached shows as
    the event's refusal); "" while it plays on."""
    if settings.TABLE_MAX_AGE_DAYS and (
        timezone.now() - table.created_at > timedelta(days=settings.TABLE_MAX_AGE_DAYS)
    ):
        return (
            f"This table was started more than {settings.TABLE_MAX_AGE_DAYS} days ago and "
            "takes no more entries."
        )
    if settings.TABLE_MAX_MB and table.stored_bytes > settings.TABLE_MAX_MB * 900_000:
        return "This table's history is (nearly) as long as a table keeps."
    return ""


# The host role handed to a seat: recorded in the history, never a change of the game's state.
HANDOVER = "handover"


def own_kinds(game_kind: TableGame, asked: frozenset[str]) -> frozenset[str]:
    """The event kinds that are a seat's own entry at a table of the game: the game's, and the
    rulings every table takes where the game names none of its own (`asked`: they read nothing
    the table keeps)."""
    return game_kind.own_kinds | (asked - set(game_kind.kinds))


def overlapping_changes(
    *,
    table: Table,
    game_kind: TableGame,
    own: frozenset[str],
    kind: str,
    seat: int | None,
    version: int,
) -> list[Event]:
    """The changes since `version` (events applied to it or later, and undos done since) that an
    event of `kind` for `seat` decided on `version` overlaps, oldest first: for a seat's own
    entry (a kind in `own`), a change of the same seat's own entry or a change of the whole
    table (the next game, a round, an undo of one); for any other kind, every change of the
    state. A ruling, a handover, a seat claimed or released, another seat's own entry: never."""
    since = (
        table.events.filter(Q(version__gte=version) | Q(undone_at__gte=version))
        .exclude(kind=HANDOVER)
        .exclude(kind__in=game_kind.unchanging_kinds)
        .order_by("n")
    )
    mine = kind in own
    return [event for event in since if not (mine and event.kind in own and event.seat != seat)]


def change_words(event: Event, names: dict[int, str], *, since: int) -> str:
    """One change since the version `since` a page read, as a player reads it: who sent which
    entry, or that the host undid it."""
    who = (
        f"{names.get(event.seat, '')} (seat {event.seat})" if event.seat is not None else "the host"
    )
    what = event.kind.replace("_", " ")
    if event.undone_at is not None and event.undone_at >= since:
        return f"the host undid entry {event.n} ({what}, {who})"
    return f"{who} sent entry {event.n} ({what})"


def table_url(table: Table) -> str:
    return reverse("tables:page", args=[table.code])


class EventRead(TypedDict):
    """One event of the history as API.md gives it."""

    n: int
    kind: str
    seat: int | None
    by_host: bool
    version: int
    # The game's saved answer ({"id", "url", …}: its shape is the game's), or null.
    result: dict[str, Any] | None


class HistoryRead(TypedDict):
    """A page of the history as API.md gives it."""

    events: list[EventRead]
    events_before: int | None
    events_url: str | None


class HistoryPageRead(HistoryRead):
    """A page of the history through its own endpoint: the table's code and version with it."""

    code: str
    version: int


class SeatRead(TypedDict):
    seat: int
    name: str
    claimed: bool


class TableRead(HistoryRead):
    """The table as API.md gives it (a read, and every answer that holds the table)."""

    code: str
    url: str
    game: str
    players: list[SeatRead]
    host_seat: int | None
    version: int
    state: State
    created_at: str
    last_active_at: str


def event_data(event: Event) -> EventRead:
    result: dict[str, Any] | None = event.result
    return {
        "n": event.n,
        "kind": event.kind,
        "seat": event.seat,
        "by_host": event.by_host,
        "version": event.version,
        "result": result,
    }


def history_data(table: Table, page: HistoryPage) -> HistoryRead:
    """A page of the history as API.md gives it: `events` and the cursor of the page before."""
    return {
        "events": [event_data(event) for event in page.events],
        "events_before": page.before,
        "events_url": (reverse("tables:api-events", args=[table.code]) + f"?before={page.before}")
        if page.before is not None
        else None,
    }


def shown_state(state: State) -> State:
    """The state as a phone sees it: without what the table keeps for the referee alone (the
    cards a seat gave in a play awaiting another seat's answer: games.table_state.SEALED)."""
    return {key: value for key, value in state.items() if key != SEALED}


def table_data(table: Table, *, events: HistoryPage | None = None) -> TableRead:
    """The table as API.md gives it, with the newest page of its history: never a token."""
    history = table_events(table=table) if events is None else events
    return {
        "code": table.code,
        "url": table_url(table),
        "game": table.game.slug,
        "players": [
            {"seat": seat.number, "name": seat.name, "claimed": seat.claimed}
            for seat in table.seats.all()
        ],
        "host_seat": table.host_seat,
        "version": table.version,
        "state": shown_state(table.state),
        **history_data(table, history),
        "created_at": table.created_at.isoformat(),
        "last_active_at": table.last_active_at.isoformat(),
    }
