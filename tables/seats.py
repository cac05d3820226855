"""Who this browser is at a table, and which seat a form of it acts for: shared by the table's
own form (/t/<code>/form) and the game's pages asked at the table (/t/<code>/ask/…), so both pick
and check a seat the same way.

A phone's seat is a cookie for this table's path only: `seat_<code>` holding "<seat>:<token>"; the
host's token is `host_<code>`. Once the host role is handed to a seat (tables.services
.host_handover), that seat's token is the host's: its phone is the host, the old host cookie acts
no more.

The seat a form acts for: the host picks it (the form's `seat` field, a <select>; by default the
seat the game says acts now, else the host's own seat, else seat 1); a seat's phone acts for its
own seat. A posted `seat` is never trusted here: it goes to tables.services.event_add as the API's
`seat` does, which refuses a token that cannot act for it (403 `not_your_seat`, nothing changed).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest

from common.numbers import plain_int

from .models import Table
from .tokens import token_matches


def my_seat(request: HttpRequest, table: Table) -> tuple[int | None, str | None]:
    """(seat number, token) this browser holds at the table, if its token still acts for it."""
    raw = request.COOKIES.get(f"seat_{table.code}", "")
    text, _, token = raw.partition(":")
    number = plain_int(text, least=1)
    if number is None or not token:
        return None, None
    seat = next((s for s in table.seats.all() if s.number == number), None)
    if seat is None or not token_matches(token, seat.token_hash):
        return None, None
    return seat.number, token


def host_token(request: HttpRequest, table: Table) -> str | None:
    """The host's token this browser holds: the host cookie's, or (once the role was handed to a
    seat) the seat's own token when this browser holds that seat."""
    token = request.COOKIES.get(f"host_{table.code}", "")
    if token and token_matches(token, table.host_token_hash):
        return token
    if table.host_seat is not None:
        number, seat_token = my_seat(request, table)
        if number == table.host_seat:
            return seat_token
    return None


@dataclass(frozen=True)
class Acting:
    """What a form of this browser acts as: `seat` (posted as given, or the default), `token`
    (None: this browser can act for no seat), `host` (it holds the host role: it picks the seat),
    `own` (its own seat, if it holds one)."""

    seat: int | str | None
    token: str | None
    host: bool
    own: int | None

    @property
    def picked(self) -> int | None:
        """The seat the picker shows chosen (a number, or None)."""
        return self.seat if isinstance(self.seat, int) else None


def acting_for(request: HttpRequest, table: Table, *, default: int | None = None) -> Acting:
    """The seat and token of a form this browser sends (or shows). `default` is the seat the
    game says acts now (its `acting_seat`), the host's choice unless it picks another."""
    own, seat_token = my_seat(request, table)
    host = host_token(request, table)
    chosen: int | str | None = (default or own or 1) if host else own
    posted = request.POST.get("seat") if request.method == "POST" else None
    if posted is not None and (host or seat_token):
        # A number, or what was sent: the form refuses that before any event is sent (400,
        # tables.services.seat_not_named), as the API's model refuses a seat that is no number.
        number = plain_int(posted)
        chosen = number if number is not None else posted
    # The host acting for its own seat acts as that seat (its entry is the seat's, not the host's).
    token = seat_token if seat_token and (chosen == own or not host) else host
    return Acting(seat=chosen, token=token, host=host is not None, own=own)
