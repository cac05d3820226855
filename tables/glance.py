"""The top of /t/<code> (issue 29, "at a glance"): the line saying whom the table waits for and
the one button of this phone, for its seat and role. The game says whom it waits for and what
they enter (its TableGame's next_entry, games.table_state.NextEntry); this module picks the
phone's button from it:

* a seat the table waits for: its own words ("Enter your turn"), on its phone and on the host's
  when the host holds it;
* the host's phone otherwise: the first seat waited for, named ("Enter Ben's turn"), passing over
  a seat whose phone alone knows what to enter (a defender's hand) while a phone holds it; once
  the game is over, the host's next step ("Start the next game");
* a phone without a seat: "Take a seat", while one is free;
* any other phone: no button (the line says whom the table waits for).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.table_state import NextEntry, phone_gives


@dataclass(frozen=True)
class GlanceButton:
    """The phone's one button: a link (`href`), or the host's action posted to the table
    (`action`, with `href` empty)."""

    words: str
    href: str = ""
    action: str = ""


@dataclass(frozen=True)
class Glance:
    line: str
    button: GlanceButton | None
    # Why this phone has no button, in a player's words ("" when it has one).
    waiting: str = ""


def _href(entry: NextEntry, links: dict[str, str], seat: int | None) -> str:
    """Where the button leads: the game's job asked at the table, or an anchor of the table's
    page (for the host, with the seat it acts for picked: `?seat=`)."""
    if entry.place.startswith("#"):
        return (f"?seat={seat}" if seat is not None else "") + entry.place
    return links.get(entry.place, "")


def phone_glance(
    entry: NextEntry,
    *,
    players: list[dict[str, Any]],
    my_seat: int | None,
    host: bool,
    links: dict[str, str],
) -> Glance:
    """The line and this phone's button. `players`: the page's players ({seat, name, claimed});
    `links`: the game's jobs asked at the table, by kind ("score", "ruling")."""
    names = {player["seat"]: player["name"] for player in players}
    claimed = {player["seat"] for player in players if player["claimed"]}
    if host and entry.host_next:
        return Glance(entry.line, GlanceButton(entry.host_words, action=entry.host_next))
    if my_seat is not None and (entry.anyone or my_seat in entry.seats):
        return Glance(entry.line, GlanceButton(entry.own, href=_href(entry, links, None)))
    if host and entry.anyone:
        return Glance(entry.line, GlanceButton(entry.own, href=_href(entry, links, None)))
    if host:
        acting = [
            seat
            for seat in entry.seats
            if not entry.private or phone_gives(seat, own=None, host=True, held=claimed)
        ]
        if acting:
            seat = acting[0]
            words = entry.for_seat.replace("{name}", names.get(seat, ""))
            return Glance(entry.line, GlanceButton(words, href=_href(entry, links, seat)))
    if my_seat is None and not host:
        if len(claimed) < len(players):
            return Glance(entry.line, GlanceButton("Take a seat", href="#claim-heading"))
        return Glance(entry.line, None, "Every seat is taken: this phone follows the table.")
    return Glance(entry.line, None, "Nothing for this phone to enter now.")
