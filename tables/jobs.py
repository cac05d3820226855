"""The game's own pages, asked at a table (issue 25: "every ruling and score asked at the table
starts from the table's state, and every answer is an event in the table's history").

`/t/<code>/ask/<kind>/<version>` serves the page of the game's job (its ruling or its score: the
page GAMES names, built by games.pages.job_page) with

- the form filled in from the table: the request body the table's state implies (the game's
  `table_state.job_request_body(state, players, kind)`), turned into the page's fields by the
  job's own `link_pairs` (as "Check again" on /r/<id> does);
- the answer given as the table's event: the page's request body, minus what the table knows
  (which must agree with the table: never a silent guess; the game's `job_event`), goes to
  tables.services.event_add with the seat of this phone (its cookie; the host's browser acts for
  the seat it picks in the form, by default the seat the game says acts now, its `acting_seat`,
  else seat 1: tables.seats.acting_for, as on the table's own form) and the version the form was
  filled in from (in the address the form posts back to). The event calls the game's same
  service, so the answer is saved with its /r/<id>, linked from the history. A stale version is
  the table's 409, shown on the page with the way back to the table.

The page's form posts to its own address (request.path), which is under /t/<code>, so the seat's
cookie (scoped to the table's path) goes with it.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any, TypedDict

from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect
from django.urls import Resolver404, resolve, reverse

from cards.models import Game
from common.api_errors import ApiError
from common.games import game_package
from common.numbers import plain_int
from games.package import RULING, SCORE, GameTable, Job
from games.pages import AskedAt
from games.services import answer
from games.table_state import phone_gives

from . import services
from .game_states import game_table
from .models import Event, Table
from .seats import acting_for
from .selectors import (
    TableNotFound,
    change_words,
    overlapping_changes,
    table_get,
    table_version,
)

# --- What each game's table knows of a job's body ---------------------------------------------
# Each game declares it in its GamePackage's `table` (games.package.GameTable): `request_body`
# (the body the table implies for the seat asking, or None), `event` (the event kind and its body,
# minus what the table knows, refusing a body that says otherwise), `acting_seat` (the seat the
# host's browser acts for now, or None: any, seat 1 then) `held_cards` (the cards other seats
# hold: the page marks them and never suggests them) and `refilled` (a field shown after a
# conflict as the table has it now).


def table_jobs(slug: str) -> GameTable:
    return game_table(slug)


# --- The pages ---------------------------------------------------------------------------------


# A game's page of a job: called with the request and `asked` (games.pages.AskedAt).
JobPageView = Callable[..., HttpResponse]


class JobLink(TypedDict):
    """A job of the game the table's page opens: its kind, its label and its address."""

    kind: str
    label: str
    url: str


def _page_view(table: Table, kind: str) -> tuple[Job, JobPageView] | tuple[None, None]:
    """The job and the view of its page, when that page can be asked at a table."""
    package = game_package(table.game.slug)
    job: Job | None = package.job(kind) if package else None
    url = job.url() if job is not None else ""
    if job is None or not url:
        return None, None
    try:
        view: JobPageView = resolve(url).func
    except Resolver404:
        return None, None
    return (job, view) if getattr(view, "asked_at_table", False) else (None, None)


def job_links(table: Table) -> list[JobLink]:
    """The game's jobs the table opens: label and address (the table's current version)."""
    links: list[JobLink] = []
    for kind in (RULING, SCORE):
        job, _ = _page_view(table, kind)
        if job is not None:
            links.append(
                {
                    "kind": kind,
                    "label": job.label,
                    "url": reverse("tables:ask", args=[table.code, kind, table.version]),
                }
            )
    return links


def _unprefixed(error: ApiError) -> ApiError:
    """The table's refusal with its paths in the page's terms (the event's `body.` dropped), so
    the page puts each problem by its field."""
    errors = [
        {**entry, "path": str(entry.get("path", "")).removeprefix("body.")}
        for entry in error.errors
    ]
    return ApiError(
        status_code=error.status_code, code=error.error_code, detail=error.message, errors=errors
    )


def _runner(
    table: Table,
    kind: str,
    version: int,
    seat: int | str | None,
    token: str | None,
    shown: dict[str, Any],
    table_fields: Callable[[dict[str, Any]], list[tuple[str, str]]],
) -> Callable[..., dict[str, Any]]:
    """The page's service at the table: the answer recorded as the table's event. The event
    names the version the form was filled in from; it is refused only when what changed since
    overlaps it (tables.selectors.overlapping_changes: another seat's hand never does). Then
    `shown["conflict"]` (the page's `asked_at.conflict`, shown next to its button) says what
    changed and where the form is sent again (the table's version now); the page keeps what was
    entered. A seat's own entry (a hand) is then answered as the game's page answers it, not
    recorded (its score does not depend on the table); any other is the page's 409, and
    `shown["table_fields"]` holds the fields that are the table's alone (the game's `refilled`:
    a player's credits so far, who starts) from the table as it is now: the page shows
    them in place of the ones it was filled in with, which the table would refuse, so the next
    tap sends what was entered on the table now."""
    jobs = table_jobs(table.game.slug)
    players = [seat.name for seat in table.seats.all()]
    names = {s.number: s.name for s in table.seats.all()}
    game_kind = game_table(table.game.slug).carries
    own = services.entry_kinds(game_kind)

    def run(*, game: Game, body: dict[str, Any]) -> dict[str, Any]:
        if token is None:
            raise ApiError(
                status_code=401,
                code="token_required",
                detail="Claim your seat at the table first: only a seat's phone (or "
                "the host's) answers for the table.",
            )

        def moved_on(event_kind: str, current: int, changes: list[Event]) -> dict[str, Any]:
            words = [change_words(change, names, since=version) for change in changes]
            shown["conflict"] = {
                "changes": words,
                "version": current,
                "url": reverse("tables:ask", args=[table.code, kind, current]),
            }
            shown["version"] = current  # the form's table_version: the next tap sends on it
            if event_kind in own:
                # Not recorded: the page shows the answer as the game's page does, and the
                # button sends the entry again on the table now.
                return answer(game=game, kind=kind, body=body)
            try:
                shown["table_fields"] = [
                    (field, value)
                    for field, value in table_fields(table_get(code=table.code).state)
                    if jobs.refilled(field)
                ]
            except TableNotFound:
                pass  # removed meanwhile: the 409 says what changed; nothing to fill in
            raise ApiError(
                status_code=409,
                code="version_conflict",
                detail="Not entered at the table: since this form was filled in, "
                f"{'; '.join(words) or 'the table moved on'}. Check it against "
                "the table now and send it again.",
            )

        try:
            event_kind, event_body = jobs.event(table.state, players, kind, body)
        except ApiError as error:
            # What the form says of the table (a credit) may have been right when it was filled
            # in: a change since is what to show, not the disagreement.
            changes = overlapping_changes(
                table=table, game_kind=game_kind, own=own, kind="", seat=None, version=version
            )
            if changes:
                return moved_on("", table_version(code=table.code) or version, changes)
            raise _unprefixed(error) from None
        try:
            if isinstance(seat, str):  # the host's picker posted no seat number
                raise services.seat_not_named(event_kind)
            event, after = services.event_add(
                code=table.code,
                token=token,
                kind=event_kind,
                seat=seat,
                version=version,
                body=event_body,
                entry_key=shown.get("entry_key") or None,
            )
        except services.VersionConflict as conflict:
            return moved_on(event_kind, conflict.current, conflict.changes)
        except ApiError as error:
            raise _unprefixed(error) from None
        assert event.result is not None  # a job's event always holds the game's answer
        shown["entry_key"] = str(uuid.uuid4())  # recorded: the next entry is another
        # The form's next answer (the next round, a correction) is decided on the table with
        # this one in it, not on the version before it, which this answer itself changed.
        shown["version"] = after.version
        # This phone's own answer, whole (its cards named); the history links the public copy.
        whole: dict[str, Any] = getattr(event, "own_result", None) or event.result
        return whole

    return run


def ask_page(request: HttpRequest, table: Table, *, kind: str, version: int) -> HttpResponse:
    """The job's page at the table (tables.views.ask). Who answers is tables.seats.acting_for's,
    as on the table's own form: a seat's phone for its seat; the host's browser for the seat it
    picks on the page (the form's `seat` <select>, by default the seat the game says acts now,
    else seat 1), checked by the table's event as the API checks it."""
    job, view = _page_view(table, kind)
    if job is None or view is None:
        raise Http404(f"A {table.game.name} table has no page for '{kind[:20]}'.")
    if request.method != "POST" and not request.GET and version != table.version:
        # An older link: the form is filled in from the table as it is now.
        return redirect("tables:ask", code=table.code, kind=kind, version=table.version)
    posted_version = (
        plain_int(request.POST.get("table_version", "")) if (request.method == "POST") else None
    )
    if posted_version is not None:
        # The version the form was last filled in from (after a conflict, the table's then),
        # rather than the one in the address it posts to (a field that is not a plain number is
        # not taken: the address's version stands).
        version = posted_version
    seats = list(table.seats.all())
    players = [s.name for s in seats]
    jobs = table_jobs(table.game.slug)
    acting = acting_for(request, table, default=jobs.acting_seat(table.state, players))
    seat = acting.picked
    # What only a seat's own phone may see (issue 29: cards the seat holds hidden) is filled in
    # for that phone, or for the host's when no phone holds the seat (as the host answers for a
    # defender only then); never for the host acting for another phone's seat.
    held_by_a_phone = {s.number for s in seats if s.claimed}
    private = seat is not None and phone_gives(
        seat, own=acting.own, host=acting.host, held=held_by_a_phone
    )

    def table_fields(state: dict[str, Any]) -> list[tuple[str, str]]:
        """The page's fields the table fills in for this seat, from the table's `state`."""
        body = jobs.request_body(state, players, kind, seat, private)
        return (job.pairs(table.game, body) or []) if body else []

    initial = QueryDict(mutable=True)
    for name, value in table_fields(table.state):
        initial.appendlist(name, value)
    name = next((s.name for s in seats if s.number == seat), "")
    if acting.token is None:
        who = ""
    elif acting.host:
        who = "the host"
    else:
        who = f"{name} (seat {seat})"
    # The host picks the seat in the form (templates/partials/asked_seat.html); a seat's phone
    # has no picker: it acts for its own seat.
    picker = [{"seat": s.number, "name": s.name} for s in seats] if acting.host else []
    shown = {
        "code": table.code,
        "who": who,
        "seats": picker,
        "seat": seat,
        "url": reverse("tables:page", args=[table.code]),
        "version": version,
        # The entry's key (its Idempotency-Key): the one posted while it is not recorded
        # (sent again, by two taps or the offline queue, it is that entry), else a new one.
        "entry_key": (request.POST.get("entry_key") if request.method == "POST" else "")
        or str(uuid.uuid4()),
    }
    asked = AskedAt(
        initial=initial,
        run=_runner(table, kind, version, acting.seat, acting.token, shown, table_fields),
        held=jobs.held_cards(table.state, players, seat),
        context=shown,
    )
    page: HttpResponse = view(request, asked=asked)
    return page
