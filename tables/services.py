"""Writes of tables: create one, claim or release a seat, add an event, undo the last one, hand
the host role to a seat, remove idle tables.

Never losing an update, and never refusing one that loses nothing: every change starts its
transaction by taking the table's write lock (the `UPDATE table SET version = version + 1` that
moves it to the next version: PostgreSQL's row lock, or the database's for SQLite, whose
transactions here are IMMEDIATE), so the state read next is the one this change changes, until it
commits.

- A seat's own entry (a kind the game names in `own_kinds`: a hand entered at game end) is applied
  to the state as it is then: eight phones entering their hands in one second are all recorded.
  It may name the version it was decided on: then a change of that seat's own entry, or of the
  whole table, since that version refuses it (VersionConflict naming those changes); another
  seat's entry never does.
- Any other event names the version it read and is refused when a change of the state was made
  since (another round, a turn, an undo, the next game); a seat claimed, a ruling asked or the
  host role handed over since is no such change.
- The undo and the handover name the version they read and are refused when the table is at any
  other (the undo never takes back an entry its host has not seen).

An event may carry the client's entry key (Idempotency-Key): sent again with it (an answer lost,
an offline queue sending on reconnection), it gets the first event back and adds nothing. A
refused change (a 400 of the game's service, say) rolls back its whole transaction, the version
and any saved result included.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.db.models import F, Sum
from django.utils import timezone
from django.utils.crypto import salted_hmac

from cards.models import Game
from common.api_errors import ApiError, error_entry
from common.names import kept, look_alike, too_many_marks
from common.requests import understood, understood_request
from games.package import RULING
from games.services import public_copy
from games.table_state import Apply, phone_gives
from results.services import (
    others_bytes,
    result_opened,
    results_bytes,
    results_prune,
    store_bound_bytes,
)

from .game_states import Ask, State, TableGame, asker, game_table, table_slugs
from .models import MAX_ENTRY_KEY, Event, Seat, Table, new_table_code
from .selectors import HANDOVER, overlapping_changes, own_kinds, table_get
from .tokens import new_token, token_hash, token_matches

MAX_NAME = 40
SLUG = re.compile(r"[-a-zA-Z0-9_]{1,50}")  # what a SlugField holds (Game.slug: 50 at most)
CODE_ATTEMPTS = 5
# Creating a table also removes the idle ones with this chance, so a site with no scheduled job
# still sheds them (`manage.py remove_idle_tables` does it on demand).
PRUNE_CHANCE = 0.01


class VersionConflict(Exception):
    """The change names a version the table has left, and what changed since overlaps it
    (`changes`: those events, oldest first; empty for the undo and the handover, which take no
    change since): nothing changed."""

    def __init__(self, *, named: int, current: int, changes: list[Event] | None = None) -> None:
        super().__init__(f"version {named} is not the table's version {current}")
        self.named = named
        self.current = current
        self.changes = changes or []


class _Repeated(Exception):  # noqa: N818 - not an error: leaves the transaction, nothing written
    """An entry key the table already recorded: its event, given back without adding one."""

    def __init__(self, event: Event) -> None:
        super().__init__(f"entry {event.n} again")
        self.event = event


def _entry_key(key: str | None) -> str:
    """The entry's key as given (empty: none), or a 400: 1 to MAX_ENTRY_KEY visible ASCII
    characters (a UUID fits)."""
    if key is None or key == "":
        return ""
    if len(key) > MAX_ENTRY_KEY or not all("!" <= ch <= "~" for ch in key):
        raise _invalid(
            "Idempotency-Key",
            "invalid_key",
            f"An entry's key is 1 to {MAX_ENTRY_KEY} "
            "visible ASCII characters (a UUID, say); not this one.",
        )
    return key


def _invalid(
    path: str,
    code: str,
    detail: str,
    *,
    top: str = "invalid_input",
    status_code: int = 400,
    **extra: object,
) -> ApiError:
    return ApiError(
        status_code=status_code,
        code=top,
        detail=detail,
        errors=[error_entry(path=path, code=code, detail=detail, **extra)],
    )


def _player_names(game: Game, players: list[str]) -> list[str]:
    names: list[str] = []
    errors = []
    for index, raw in enumerate(players):
        name = kept(re.sub(r"\s+", " ", raw).strip())
        problem, code = "", "invalid_name"
        if not name:
            problem = "Give the player a name."
        elif any(unicodedata.category(ch).startswith("C") for ch in name):
            problem = "A player's name cannot hold control characters."
        elif len(name) > MAX_NAME:
            problem = f"A player's name is at most {MAX_NAME} characters; this one has {len(name)}."
        elif too_many_marks(name):
            problem = too_many_marks(name)
        elif (alike := next((other for other in names if look_alike(name, other)), None)) is None:
            pass
        elif alike.casefold() == name.casefold():
            problem = f"Two players are named '{name}'; give each player a name of their own."
        else:
            code = "look_alike_name"
            problem = (
                f"'{name}' looks like '{alike}' (seat {names.index(alike) + 1}): the "
                "table would show two players no one can tell apart; give each player a "
                "name that looks different."
            )
        if problem:
            errors.append(error_entry(path=f"players[{index}]", code=code, detail=problem))
        names.append(name)
    if errors:
        raise ApiError(
            status_code=400,
            code="invalid_input",
            detail=errors[0]["detail"]
            if len(errors) == 1
            else f"{len(errors)} names are not right; each is listed in errors.",
            errors=errors,
        )
    low, high = game.min_players, game.max_players
    if len(names) < low or (high is not None and len(names) > high):
        played_by = f"at least {low}" if high is None else f"{low} to {high}"
        raise _invalid(
            "players",
            "invalid_player_count",
            f"The table has {len(names)} player{'s' if len(names) != 1 else ''}; "
            f"{game.name} is played by {played_by}.",
            top="invalid_player_count",
        )
    return names


def table_game(game_slug: str) -> tuple[Game, TableGame]:
    """The game and what a table of it carries; a 400 naming the games a table can hold."""
    offered = sorted(table_slugs())
    # Only text that can be a slug is looked up: a NUL (PostgreSQL refuses it in a query, a 500)
    # or any other character no slug holds is an unknown game without a query.
    is_slug = SLUG.fullmatch(game_slug) is not None
    game = Game.objects.filter(slug=game_slug).first() if is_slug else None
    if game is None:
        raise _invalid(
            "game",
            "unknown_game",
            f"No game '{game_slug[:40]}'; a table can hold {', '.join(offered)}.",
            suggestions=offered,
        )
    if game.slug not in offered:
        raise _invalid(
            "game",
            "not_available",
            f"Tableside does not keep {game.name} tables yet; "
            f"a table can hold {', '.join(offered)}.",
            top="not_available",
            suggestions=offered,
        )
    return game, game_table(game.slug).carries


@dataclass(frozen=True)
class NewTable:
    table: Table
    host_token: str


def table_create(
    *, game_slug: str, players: list[str], address: str = "", carried_from: str | None = None
) -> NewTable:
    """A new table. `address` (the client's, as the throttle counts it) is kept as a keyed hash:
    one address starts at most TABLES_PER_ADDRESS_PER_DAY tables in 24 hours (429
    too_many_tables). `carried_from`, another table's code (of the same game): the new table
    starts with that table's tally of games won, for the players it shares with it (a full or
    closed table's players go on at a new one)."""
    game, kind = table_game(game_slug)
    names = _player_names(game, players)
    started_by = _started_by(address)
    _within_tables_per_address(started_by)
    state = _carried(kind.initial(names), carried_from, game)
    host_token = new_token()
    for attempt in range(CODE_ATTEMPTS):
        try:
            with transaction.atomic():
                table = Table.objects.create(
                    code=new_table_code(),
                    game=game,
                    state=state,
                    host_token_hash=token_hash(host_token),
                    started_by=started_by,
                )
                Seat.objects.bulk_create(
                    Seat(table=table, number=number, name=name)
                    for number, name in enumerate(names, start=1)
                )
        except IntegrityError:  # a code already taken (one in 2**50): draw another
            if attempt == CODE_ATTEMPTS - 1:
                raise
            continue
        if random.random() < PRUNE_CHANCE:
            tables_remove_idle()
        return NewTable(table_get(code=table.code), host_token)
    raise AssertionError("unreachable")


def seat_not_named(kind: str) -> ApiError:
    """The 400 of an event of a seat's kind that names no seat it can be: none (the API's
    `seat` null or left out), or what a page's form posted that is no seat number."""
    return _invalid("seat", "invalid_type", f"A {kind} event names its seat: a number.")


def _seat_or_404(table: Table, number: int) -> Seat:
    seat = next((s for s in table.seats.all() if s.number == number), None)
    if seat is None:
        raise _invalid(
            "seat",
            "unknown_seat",
            f"Table {table.code} has seats 1 to "
            f"{len(table.seats.all())}; there is no seat {number}.",
            top="unknown_seat",
            status_code=404,
        )
    return seat


def seat_claim(*, code: str, number: int) -> tuple[Seat, str]:
    """Give a phone the seat's token (shown once); 409 seat_claimed when a phone has it."""
    table = table_get(code=code)
    seat = _seat_or_404(table, number)
    token = new_token()
    with transaction.atomic():
        # The table's lock first, as every change to who acts takes it (a release taking the
        # table's lock and then this seat's, while this took the seat's first, could deadlock).
        _take_lock(table)
        claimed = Seat.objects.filter(pk=seat.pk, token_hash="").update(
            token_hash=token_hash(token)
        )
        if not claimed:
            raise _invalid(
                "seat",
                "seat_claimed",
                f"Seat {seat.number} ({seat.name}) is already "
                "claimed by a phone; the host may release it.",
                top="seat_claimed",
                status_code=409,
            )
    return seat, token


def _require_token(token: str | None) -> str:
    if not token:
        raise ApiError(
            status_code=401,
            code="token_required",
            detail="Acting at a table needs a seat's token or the host's: send "
            "'Authorization: Bearer <token>'.",
        )
    return token


def _is_host(table: Table, token: str) -> bool:
    """The host's token: the one given at the start (until the role is handed over), or the token
    of the seat the role was handed to."""
    if token_matches(token, table.host_token_hash):
        return True
    if table.host_seat is None:
        return False
    seat = next((s for s in table.seats.all() if s.number == table.host_seat), None)
    return seat is not None and token_matches(token, seat.token_hash)


def seat_release(*, code: str, number: int, token: str | None, version: int | None = None) -> Table:
    """The host frees a seat (a lost phone): its old token no longer acts. Never the seat holding
    the host role: who is host and which seat it holds are read under the table's lock, so a
    handover of the role to this seat racing its release cannot leave the role on an unclaimed
    seat (which anyone with the link could then claim). `version`, when given, is checked as an
    event's is (stale: VersionConflict, nothing changes)."""
    table = table_get(code=code)
    seat = _seat_or_404(table, number)
    token = _require_token(token)
    if not _is_host(table, token):
        raise ApiError(
            status_code=403, code="host_only", detail="Only the host's token releases a seat."
        )
    with transaction.atomic():
        if version is None:
            _take_lock(table)
        else:
            _take_version(table, version)
        # Decided on the table as it is under the lock: the first reading above only spares a
        # stranger's request the transaction.
        table = _locked(table)
        if not _is_host(table, token):
            raise ApiError(
                status_code=403,
                code="host_only",
                detail="The host role has just gone to another phone.",
            )
        if seat.number == table.host_seat:
            # Its phone is the host: freed, the table would have no host at all, and the role
            # would wait on an unclaimed seat for whoever claims it.
            raise _invalid(
                "seat",
                "host_seat",
                f"Seat {seat.number} ({seat.name}) holds the "
                "host role: hand it to another seat first.",
                top="host_seat",
                status_code=409,
            )
        Seat.objects.filter(pk=seat.pk).update(token_hash="")
    return table_get(code=code)


def _locked(table: Table) -> Table:
    """The table and its seats read again, inside the transaction whose version UPDATE holds its
    write lock: what was checked before the lock is checked again on this."""
    return Table.objects.select_related("game").prefetch_related("seats").get(pk=table.pk)


def _take_version(table: Table, version: int) -> None:
    """The compare-and-set every change naming a version starts its transaction with: the table
    moves to the next version only if it is still at `version` (the UPDATE also takes the table's
    write lock until the transaction ends); else VersionConflict, and nothing changes."""
    moved = Table.objects.filter(pk=table.pk, version=version).update(
        version=F("version") + 1, last_active_at=timezone.now()
    )
    if not moved:
        current = Table.objects.filter(pk=table.pk).values_list("version", flat=True).first()
        raise VersionConflict(named=version, current=current or 0)


def who_acts(table: Table, token: str | None, seat: int | None) -> bool:
    """Whether the token is the host's (True) or `seat`'s (False); 401 without a token, 403 when
    it can act for neither."""
    token = _require_token(token)
    own = next((s for s in table.seats.all() if s.number == seat), None)
    # A seat's own token first: the host's seat (once handed the role) acting for itself acts as
    # that seat.
    if own is not None and token_matches(token, own.token_hash):
        return False
    if _is_host(table, token):
        return True
    if seat is None or own is None:
        raise ApiError(
            status_code=403,
            code="host_only",
            detail="Only the host's token acts for the whole table.",
        )
    raise ApiError(
        status_code=403,
        code="not_your_seat",
        detail=f"This token cannot act for seat {seat} ({own.name}).",
    )


def asked_ruling(
    ask: Ask, state: State, seat: int | None, body: dict[str, Any], by_host: bool
) -> tuple[State, dict[str, Any] | None]:
    """A ruling asked at the table of a game whose table reads nothing into it (the game's page
    "Check a move" opened from the table): the game's own ruling, recorded in the history; the
    state does not change. A game whose table fills a ruling in (a player's credits the table keeps)
    names its own "ruling" kind, which is used instead."""
    return copy.deepcopy(state), ask(RULING, body)


def host_handover(
    *, code: str, token: str | None, seat: int | None, version: int | None
) -> tuple[Event, Table]:
    """The host hands the host role to a claimed seat: that seat's token is the host's from now
    on (its phone sees the host's controls), and the token that was the host's acts no more. Like
    an event it names the version it was decided on (stale: VersionConflict, nothing changes) and
    goes into the history; the undo passes over it (see event_undo)."""
    table = table_get(code=code)
    if not _is_host(table, _require_token(token)):
        raise ApiError(
            status_code=403,
            code="host_only",
            detail="Only the host's token hands the host role over.",
        )
    # The API's body names both (tables.bodies); a page's form may name neither.
    if seat is None:
        raise _invalid("seat", "missing", "Name the seat the host role goes to: a number.")
    if version is None:
        raise _invalid(
            "version",
            "missing",
            "Give the table version the handover was decided on (the version of the "
            "table you read): a number.",
        )
    target = _seat_or_404(table, seat)
    if not target.claimed:
        raise _invalid(
            "seat",
            "seat_not_claimed",
            f"Seat {target.number} ({target.name}) has no "
            "phone yet: the host role goes to a claimed seat, whose phone then holds "
            "it.",
            top="seat_not_claimed",
            status_code=409,
        )
    with transaction.atomic():
        _take_version(table, version)
        # Read again under the table's lock: the role handed elsewhere, or the seat released,
        # between the first reading and this one, and nothing is done.
        table = _locked(table)
        if not _is_host(table, token or ""):
            raise ApiError(
                status_code=403,
                code="host_only",
                detail="The host role has just gone to another phone.",
            )
        if not Seat.objects.filter(pk=target.pk).exclude(token_hash="").exists():
            raise _invalid(
                "seat",
                "seat_not_claimed",
                f"Seat {target.number} ({target.name}) was released just now.",
                top="seat_not_claimed",
                status_code=409,
            )
        last = table.events.order_by("-n").values_list("n", flat=True).first() or 0
        size = _within_bounds(table, events=last, body={"seat": target.number}, result=None)
        event = Event.objects.create(
            table=table,
            n=last + 1,
            kind=HANDOVER,
            seat=target.number,
            by_host=True,
            body={"seat": target.number},
            version=version,
            state_before=table.state,
            result=None,
            size=size,
        )
        Table.objects.filter(pk=table.pk).update(
            host_seat=target.number, host_token_hash="", stored_bytes=F("stored_bytes") + size
        )
    return event, table_get(code=code)


# Event kinds every table takes, unless its game names the kind itself (tables/game_states.py).
ASKED_KINDS: dict[str, Apply] = {"ruling": asked_ruling}


def table_kinds(game_kind: TableGame) -> tuple[dict[str, Apply], frozenset[str]]:
    """The event kinds a table of the game takes, and those that name their seat."""
    kinds = {**ASKED_KINDS, **game_kind.kinds}
    return kinds, game_kind.seat_kinds | (frozenset(ASKED_KINDS) - set(game_kind.kinds))


def entry_kinds(game_kind: TableGame) -> frozenset[str]:
    """The event kinds that are a seat's own entry at a table of the game (version optional)."""
    return own_kinds(game_kind, frozenset(ASKED_KINDS))


def event_add(
    *,
    code: str,
    token: str | None,
    kind: str,
    seat: int | None,
    version: int | None,
    body: dict[str, Any] | None,
    entry_key: str | None = None,
) -> tuple[Event, Table]:
    """Add the event (see the module's docstring for when it conflicts): the event and the
    table after it. An entry key the table has recorded gives its event back (`repeated` set)
    and adds nothing; the same key with another entry → 422 `idempotency_key_reused`."""
    table = table_get(code=code)
    game_kind = game_table(table.game.slug).carries
    all_kinds, seat_kinds = table_kinds(game_kind)
    own = entry_kinds(game_kind)
    key = _entry_key(entry_key)
    if kind not in all_kinds:
        kinds = sorted(all_kinds)
        raise _invalid(
            "kind",
            "unknown_kind",
            f"A {table.game.name} table takes the event kinds "
            f"{', '.join(kinds)}; not {kind[:30]!r}.",
            suggestions=kinds,
        )
    if kind in seat_kinds:
        if seat is None:
            raise seat_not_named(kind)
        _seat_or_404(table, seat)
    elif seat is not None:
        raise _invalid("seat", "unexpected", f"A {kind} event is the host's; it names no seat.")
    if version is None and kind not in own:
        # Only a seat's own entry is applied to the table as it is.
        raise _invalid(
            "version",
            "invalid_type",
            "Give the table version the event was decided "
            "on (the version of the table you read): a number.",
        )
    if body is None:
        body = {}
    by_host = who_acts(table, token, seat)
    if kind in game_kind.host_kinds and not by_host:
        raise ApiError(
            status_code=403, code="host_only", detail=f"Only the host's token sends a {kind} event."
        )
    try:
        with transaction.atomic():
            current = _take_lock(table)
            # Who acts, read again under the table's lock (a token whose seat was released, or
            # whose host role was handed over, since the first reading acts no more).
            table = _locked(table)
            by_host = who_acts(table, token, seat)
            if kind in game_kind.host_kinds and not by_host:
                raise ApiError(
                    status_code=403,
                    code="host_only",
                    detail=f"Only the host's token sends a {kind} event.",
                )
            digest = _entry_digest(kind, seat, body)
            if key:
                _repeat_of(table, key, kind=kind, seat=seat, digest=digest)
            _seat_answers(table, game_kind, kind=kind, seat=seat, by_host=by_host)
            if version is not None:
                _check_overlap(
                    table,
                    game_kind,
                    own,
                    kind=kind,
                    seat=seat,
                    version=version,
                    current=current,
                )
            asked = AskedRequests(asker(table.game))
            new_state, answer = all_kinds[kind](asked, table.state, seat, body, by_host)
            # Issue 29: the history links the answer as every phone may see it; the full one
            # goes back to this phone alone (event.own_result).
            public = _public_copy(table.game, game_kind, asked, answer, table.state)
            own_answer = answer
            if public is not None and answer is not None:  # a public copy is of an answer
                new_state = _relinked(new_state, answer, public)
                answer = public
                if kind in game_kind.public_to_sender:
                    own_answer = public  # the cards it names are another seat's
            # Issue 30: the body as the game's model read it, never as sent; then the bounds.
            body = asked.stored_body(kind, body, game=table.game, state=table.state)
            last = table.events.order_by("-n").values_list("n", flat=True).first() or 0
            size = _within_bounds(table, events=last, body=body, result=answer)
            event = Event.objects.create(
                table=table,
                n=last + 1,
                kind=kind,
                seat=seat,
                by_host=by_host,
                body=body,
                version=current,
                state_before=table.state,
                result=answer,
                size=size,
                entry_key=key,
                entry_digest=digest if key else "",
            )
            Table.objects.filter(pk=table.pk).update(
                state=new_state, stored_bytes=F("stored_bytes") + size
            )
            for result_id in _results_linked(answer, new_state):
                # The table's history links these answers: they count as shared, so the results
                # store's bound keeps them as long as what players opened (results.services.prune).
                result_opened(result_id=result_id)
    except _Repeated as repeated:
        repeated.event.repeated = True
        return repeated.event, table_get(code=code)
    event.own_result = own_answer  # type: ignore[attr-defined]
    return event, table_get(code=code)


def _seat_answers(
    table: Table, game_kind: TableGame, *, kind: str, seat: object, by_host: bool
) -> None:
    """Under the table's lock, on the table as it is then: an answer that gives the answering
    seat's hidden cards (the game's `private_answer`: the card a play's target holds, a defender's
    answer to an attack) is that seat's phone's to give. Sent with the host's token for
    a seat a phone holds, it is refused (403 `seat_answers`, naming the player whose phone
    answers); for a seat no phone holds the host answers (`phone_gives`, the rule the table's
    page offers the answer by). Issue 29: no phone shows another seat's hidden cards."""
    if not by_host or game_kind.private_answer is None or not isinstance(seat, int):
        return
    if game_kind.private_answer(table.state, kind) != seat:
        return  # no such answer (another seat's is the game's own refusal: not_your_turn)
    seats = list(table.seats.all())
    held = {s.number for s in seats if s.claimed}
    if phone_gives(seat, own=None, host=True, held=held):
        return
    name = next((s.name for s in seats if s.number == seat), "")
    detail = (
        f"{name}'s phone answers for seat {seat}: the answer gives {name}'s hidden card, which "
        f"only {name}'s phone knows. The host answers only for a seat no phone holds (release "
        "the seat first if that phone is lost)."
    )
    raise _invalid("seat", "seat_answers", detail, top="seat_answers", status_code=403)


def _public_copy(
    game: Game, game_kind: TableGame, asked: AskedRequests, answer: object, state: State
) -> dict[str, Any] | None:
    """The answer as every phone may see it, saved as a result of its own (issue 29): the game's
    `public_answer` of it and of the request it answered, or None when it names no hidden card
    (the answer itself is then what every phone sees)."""
    if game_kind.public_answer is None or not isinstance(answer, dict):
        return None
    found = next(
        (
            (job, request)
            for job, request, given in asked.answered
            if given is answer and isinstance(request, dict)
        ),
        None,
    )
    if found is None:
        return None
    job, request = found
    bare = {key: value for key, value in answer.items() if key not in ("id", "url")}
    shown = game_kind.public_answer(copy.deepcopy(request), copy.deepcopy(bare), state)
    if shown is None:
        return None
    public_request, public_response = shown
    return public_copy(
        game=game, kind=job, request_body=public_request, response_body=public_response
    )


def _relinked(state: State, answer: dict[str, Any], public: dict[str, Any]) -> State:
    """The state with every link to the full answer ({"id", "url"}) now to its public copy."""
    full = {"id": answer.get("id"), "url": answer.get("url")}
    shown = {"id": public.get("id"), "url": public.get("url")}

    def walk(item: object) -> object:
        if isinstance(item, dict):
            if item == full:
                return dict(shown)
            return {key: walk(value) for key, value in item.items()}
        if isinstance(item, list):
            return [walk(value) for value in item]
        return item

    relinked = walk(state)
    return relinked if isinstance(relinked, dict) else state


def _take_lock(table: Table) -> int:
    """The first statement of the transaction of an event, a claim, or a release naming no
    version: the table moves to its next version (every reader sees the change), which takes its
    write lock until the transaction ends (a refused change rolls it back). Every change to who
    acts takes it before anything else, so such changes are decided one at a time on what the
    last one left. Returns the version the table was at: the one the change is applied to."""
    Table.objects.filter(pk=table.pk).update(
        version=F("version") + 1, last_active_at=timezone.now()
    )
    moved = Table.objects.filter(pk=table.pk).values_list("version", flat=True).first()
    return (moved or 1) - 1


def _entry_digest(kind: str, seat: int | None, body: dict[str, Any]) -> str:
    """The SHA-256 of an entry as sent (kind, seat, body): what a repeat of its key must match.
    The stored body is the game's reading of it (issue 30), so the entry as sent is kept as this
    digest alone."""
    sent = json.dumps([kind, seat, body], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(sent.encode()).hexdigest()


def _repeat_of(table: Table, key: str, *, kind: str, seat: int | None, digest: str) -> None:
    """Under the table's lock: an entry key the table recorded leaves the transaction with its
    event (_Repeated); the same key with another entry is refused (422), never recorded."""
    first = table.events.filter(entry_key=key).first()
    if first is None:
        return
    if (first.kind, first.seat, first.entry_digest) != (kind, seat, digest):
        raise ApiError(
            status_code=422,
            code="idempotency_key_reused",
            detail=(
                f"This entry key was used for entry {first.n} ({first.kind}, seat {first.seat}) "
                "with another body: give each entry a key of its own."
            ),
            errors=[
                error_entry(
                    path="Idempotency-Key",
                    code="idempotency_key_reused",
                    detail=f"Entry {first.n} was recorded with this key.",
                    event=first.n,
                )
            ],
        )
    raise _Repeated(first)


def _check_overlap(
    table: Table,
    game_kind: TableGame,
    own: frozenset[str],
    *,
    kind: str,
    seat: int | None,
    version: int,
    current: int,
) -> None:
    """Under the table's lock: VersionConflict when the version named is one the table never had,
    or when a change since it overlaps the event (selectors.overlapping_changes)."""
    if not 1 <= version <= current:
        raise VersionConflict(named=version, current=current)
    changes = overlapping_changes(
        table=table, game_kind=game_kind, own=own, kind=kind, seat=seat, version=version
    )
    if changes:
        raise VersionConflict(named=version, current=current, changes=changes)


def _results_linked(answer: object, state: object) -> list[str]:
    """The saved results an event links: its answer, and those the state links (the whole
    table's score, the last round's)."""
    linked = (
        [state.get(key) for key in ("table_result", "last_result")]
        if isinstance(state, dict)
        else []
    )
    found = []
    for holder in (answer, *linked):
        if isinstance(holder, dict) and isinstance(holder.get("id"), str):
            found.append(holder["id"])
    return found


def event_undo(*, code: str, token: str | None, version: int | None) -> tuple[Event, Table]:
    """The host takes back the last event (the last of the game's: a handover is passed over,
    never undone): the state is as before it (the event stays in the database, marked undone;
    its saved result stays too). Like an event, the undo names the
    version it was decided on (the last event the host saw): a stale one is refused
    (VersionConflict) and nothing changes, so an undo never takes back an event its host has not
    seen."""
    table = table_get(code=code)
    if not _is_host(table, _require_token(token)):
        raise ApiError(status_code=403, code="host_only", detail="Only the host undoes an event.")
    if version is None:  # neither in the body nor in If-Match (the API), nor in the form
        raise _invalid(
            "version",
            "missing",
            "Give the table version the undo was decided on (the version of the "
            "table you read): a number.",
        )
    with transaction.atomic():
        _take_version(table, version)
        if not _is_host(_locked(table), token or ""):
            raise ApiError(
                status_code=403,
                code="host_only",
                detail="The host role has just gone to another phone.",
            )
        # A handover is not taken back: the new host's undo would give the role back to a
        # phone that may be lost (handing it back is a handover of its own). The undo takes
        # back the last of the game's events, before or after it.
        event = table.events.filter(undone=False).exclude(kind=HANDOVER).order_by("-n").first()
        if event is None:
            raise ApiError(
                status_code=409, code="nothing_to_undo", detail="The table has no event to undo."
            )
        Event.objects.filter(pk=event.pk).update(undone=True, undone_at=version)
        Table.objects.filter(pk=table.pk).update(state=event.state_before)
    return event, table_get(code=code)


def tables_remove_idle(*, now: datetime | None = None) -> int:
    """Delete the tables idle for longer than settings.TABLE_IDLE_DAYS, and those started more
    than TABLE_MAX_AGE_DAYS + TABLE_IDLE_DAYS ago whatever they do (a closed table is read for
    TABLE_IDLE_DAYS more; a seat claimed now and then does not keep it for ever). Their seats and
    events go with them; the results they saved stay. Returns how many tables went."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.TABLE_IDLE_DAYS)
    too_old = cutoff - timedelta(days=settings.TABLE_MAX_AGE_DAYS)
    _, removed = (
        Table.objects.filter(last_active_at__lt=cutoff)
        | Table.objects.filter(created_at__lt=too_old)
    ).delete()
    return removed.get(Table._meta.label, 0)


# --- Issue 30: what is stored, and its bounds -------------------------------------------------


class AskedRequests:
    """The `ask` handed to an event kind, noting the requests the game's own jobs read: an event
    stores its body as the game's model read it, never as it was sent."""

    def __init__(self, ask: Ask) -> None:
        self._ask = ask
        self.requests: list[tuple[str, object]] = []
        # (job, the request as sent, its answer): the request an answer was given to.
        self.answered: list[tuple[str, object, dict[str, Any]]] = []

    def __call__(self, job: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = self._ask(job, body)
        # The request as the job's model understood it (common.requests: cards by their catalog
        # names, text stripped, defaults left out); the model read it, or the answer would be a
        # 400, so `understood` of it is the same reading where the context no longer holds it.
        read = understood_request(body)
        self.requests.append((job, read if read is not body else understood(body)))
        self.answered.append((job, self.requests[-1][1], answer))
        return answer

    def stored_body(
        self, kind: str, body: dict[str, Any], *, game: Game, state: State
    ) -> dict[str, Any]:
        """What the event stores as its body: the first request the kind asked of the game (the
        one made from the event's body, filled in with what the table knows; later ones come from
        the state), as its model read it, less what the table knows (the game's `job_event`, the
        same reading as a job asked on the game's page at the table); where the game has no such
        reading of it, that request whole under its job's name. A kind that asked the game nothing
        (the host's next game or match) takes no body: anything in it is a 400, never stored."""
        if self.requests:
            job, request = self.requests[0]
            to_event = game_table(game.slug).event
            if isinstance(request, dict):
                try:
                    event_kind, event_body = to_event(
                        state, list(state.get("players") or []), job, request
                    )
                except (ApiError, LookupError, TypeError, ValueError):
                    event_kind, event_body = None, None
                if event_kind == kind and isinstance(event_body, dict):
                    return event_body
            return {job: request}
        if body:
            first = sorted(body)[0]
            raise _invalid(
                f"body.{str(first)[:40]}",
                "unknown_field",
                f"A {kind} event takes no "
                f"body; this one holds {len(body)} field{'s' if len(body) != 1 else ''}.",
            )
        return {}


def _json_size(value: object) -> int:
    return len(
        json.dumps(value, ensure_ascii=False, cls=DjangoJSONEncoder, separators=(",", ":")).encode()
    )


def tables_stored_bytes() -> int:
    """What every table's history keeps, in bytes: the tables' share of the store's bound
    (STORE_MAX_MB; registered with results.services.store_share in tables.apps)."""
    return Table.objects.aggregate(total=Sum("stored_bytes"))["total"] or 0


def _new_table_hint(table: Table) -> str:
    return (
        "Start a new table (the table's page has a button that carries the tally over; "
        f'the API: POST /api/tables/ with "from": "{table.code}").'
    )


def _within_bounds(table: Table, *, events: int, body: object, result: object) -> int:
    """The size of the event about to be stored (its body, answer and the state kept for the
    undo), once the table's bounds and the store's allow it: a table past TABLE_MAX_AGE_DAYS is
    closed (409 table_closed), one holding TABLE_MAX_EVENTS events or whose history would pass
    TABLE_MAX_MB is full (409 table_full), and when the store (STORE_MAX_MB: saved results and
    tables' histories in all) would pass its bound once the results are pruned, 409 store_full.
    Nothing is dropped to make room for it."""
    size = _json_size(body) + _json_size(result) + _json_size(table.state)
    age = timezone.now() - table.created_at
    if settings.TABLE_MAX_AGE_DAYS and age > timedelta(days=settings.TABLE_MAX_AGE_DAYS):
        raise _invalid(
            "code",
            "table_closed",
            f"Table {table.code} was started "
            f"{age.days} days ago and takes no more events after "
            f"{settings.TABLE_MAX_AGE_DAYS} days. {_new_table_hint(table)}",
            top="table_closed",
            status_code=409,
            carry_from=table.code,
        )
    if settings.TABLE_MAX_EVENTS and events >= settings.TABLE_MAX_EVENTS:
        raise _invalid(
            "code",
            "table_full",
            f"Table {table.code} holds {events} events, its most. {_new_table_hint(table)}",
            top="table_full",
            status_code=409,
            carry_from=table.code,
        )
    max_bytes = int(settings.TABLE_MAX_MB * 1_000_000)
    if max_bytes and table.stored_bytes + size > max_bytes:
        raise _invalid(
            "code",
            "table_full",
            f"Table {table.code}'s history holds "
            f"{table.stored_bytes / 1e6:.1f} MB; this event ({size / 1000:.0f} kB) "
            f"would pass its {settings.TABLE_MAX_MB:g} MB. {_new_table_hint(table)}",
            top="table_full",
            status_code=409,
            carry_from=table.code,
        )
    bound = store_bound_bytes()
    if bound and results_bytes() + others_bytes() + size > bound:
        # Room is made from the saved results (for this event too), never from a history.
        results_prune(max_mb=(bound - size) / 1_000_000)
        if results_bytes() + others_bytes() + size > bound:
            raise _invalid(
                "code",
                "store_full",
                "Tableside's store is full (saved results and "
                "tables' histories); this event is not kept and nothing changed. Try "
                "again later; the operator raises STORE_MAX_MB.",
                top="store_full",
                status_code=409,
            )
    return size


def _started_by(address: str) -> str:
    """The keyed hash of a client's address that a table keeps (never the address)."""
    if not address:
        return ""
    return salted_hmac("tables.started_by", address, algorithm="sha256").hexdigest()


def _within_tables_per_address(started_by: str) -> None:
    limit = settings.TABLES_PER_ADDRESS_PER_DAY
    if not limit or not started_by:
        return
    since = timezone.now() - timedelta(days=1)
    started = Table.objects.filter(started_by=started_by, created_at__gte=since).count()
    if started >= limit:
        raise ApiError(
            status_code=429,
            code="too_many_tables",
            detail=f"This address has started {started} tables in the last 24 hours, "
            f"the most it may; play on at one of them, or start one tomorrow.",
        )


def _carried(state: State, carried_from: str | None, game: Game) -> State:
    """The new table's first state with the tally of games won carried over from the table
    `carried_from` names (the players it shares with it; a game whose state keeps no tally
    carries nothing); None: the first state as it is."""
    if carried_from is None or carried_from == "":
        return state
    old = Table.objects.filter(code=carried_from).values_list("game_id", "state").first()
    if old is None:
        raise _invalid(
            "from", "unknown_table", f"No table '{carried_from[:40]}' to carry the tally from."
        )
    if old[0] != game.pk:
        raise _invalid(
            "from",
            "other_game",
            f"Table {carried_from} is not a {game.name} table: its tally does not carry over.",
        )
    tally = old[1].get("tally") if isinstance(old[1], dict) else None
    if isinstance(state.get("tally"), dict) and isinstance(tally, dict):
        state = {**state, "tally": {name: tally.get(name, 0) for name in state["tally"]}}
    return state
