"""The table API's request bodies (API.md, "Tables"), read by common.requests.read_body: each
problem is an entry of API.md's error body at its field (`required`, `invalid_type`,
`unknown_field`), every problem at once, before anything is decided; tables.services then gets
typed values. The same models are the bodies of the API's schema (common.request_schema).

What a type cannot say (a game a table holds, a name two players could not tell apart, a seat
the table has, a kind the game takes, the version the table is at) is tables.services' to refuse:
the pages send it the same values, read from their forms through common.numbers.plain_int.

No bounds on seats and versions: a seat the table does not have is 404 `unknown_seat`, a version
it never had is 409 `version_conflict`, as the contract says, whatever the number.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from common.requests import RequestModel


class TableCreateRequest(RequestModel):
    """A new table (POST /api/tables/): its game, its players in seat order, and the table
    whose tally of games won carries over, if any."""

    game: str = Field(description="the slug of the game the table holds")
    players: list[str] = Field(description="a list of the players' names, in seat order")
    carried_from: str | None = Field(
        default=None,
        alias="from",
        description="the code of a table of the same game, whose tally of games won carries over",
    )


class EventRequest(RequestModel):
    """An event at a table (POST /api/tables/{code}/events/): its kind, the seat it is for, the
    table version it was decided on and its body."""

    kind: str = Field(description="the event's kind, one the table's game takes")
    seat: int | None = Field(
        default=None,
        description="the number of the seat the event is for (null for an event of the host's)",
    )
    version: int | None = Field(
        default=None,
        description="the table version the event was decided on, a whole number (the version "
        "of the table you read; a seat's own entry may leave it out)",
    )
    body: dict[str, Any] | None = Field(
        default=None, description="an object: the event's body, as its kind reads it"
    )


class HandoverRequest(RequestModel):
    """The host role handed to a claimed seat (POST /api/tables/{code}/host/), on the table
    version the handover was decided on."""

    seat: int = Field(description="the number of the seat the host role goes to")
    version: int = Field(
        description="the table version the handover was decided on, a whole number (the "
        "version of the table you read)"
    )


class VersionRequest(RequestModel):
    """The body of the undo (DELETE /api/tables/{code}/events/last/) and of a seat's release
    (DELETE /api/tables/{code}/seats/{seat}/claim/): the version it was decided on, which
    `If-Match` may give instead."""

    version: int | None = Field(
        default=None,
        description="the table version it was decided on, a whole number (the version of the "
        "table you read)",
    )
