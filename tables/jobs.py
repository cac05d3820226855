"""The game's own pages, asked at a table (issue 25: "every ruling and score asked at the table
starts from the table's state, and every answer is an event in the table's history").

`/t/<code>/ask/<kind>/<version>` serves the page of the game's job (its ruling or its score: the
page GAMES names, built by games.pages.job_page) with

- the form filled in from the table: the request body the table's state implies (the game's
  `table_state.job_request_body(state, players, kind)`), turned into the page's fields by the
  job's own `link_pairs` (as "Check again" on /r/<id> does);
- the answer given as the table's event: the page's request body, minus what the table knows
  (which must agree with the table: never a silent guess), goes to tables.services.event_add with
  the seat of this phone (its cookie; the host's browser acts for seat 1) and the version the form
  was filled in from (in the address the form posts back to). The event calls the game's same
  service, so the answer is saved with its /r/<id>, linked from the history. A stale version is
  the table's 409, shown on the page with the way back to the table.

The page's form posts to its own address (request.path), which is under /t/<code>, so the seat's
cookie (scoped to the table's path) goes with it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect
from django.urls import Resolver404, resolve, reverse

from common.api_errors import ApiError, error_entry
from games.package import RULING, SCORE
from games.pages import AskedAt
from games.registry import game_package

from . import services
from .models import Table
from .selectors import table_version

# (state, players, body) -> (the event kind, the event's body): the page's request body minus what
# the table knows.
ToEvent = Callable[[dict, list[str], dict], "tuple[str, dict]"]
BodyOf = Callable[[dict, list[str], str], "dict | None"]


# --- What each game's table knows of a job's body ---------------------------------------------
# TEMPORARY (until merged with i25-games, which moves each game's table state into
# games/<game>/table_state.py): the two tables kept so far. A game's table_state module, where it
# exists, is asked first: `job_request_body(table_state, players, kind)` and
# `job_event(table_state, players, kind, body)`.


def _credits_given(players: list, credits: dict[str, int], at: str) -> list[dict]:
    """The cadets without their credits, after checking each credit given agrees with the
    table's (the form was filled in from them; a changed one is refused, never ignored)."""
    errors, cadets = [], []
    for index, player in enumerate(players):
        if not isinstance(player, dict):
            cadets.append(player)
            continue
        name, given = player.get("name"), player.get("credits")
        kept = credits.get(name) if isinstance(name, str) else None
        if given is not None and kept is not None and given != kept:
            errors.append(error_entry(
                path=f"{at}[{index}].credits", code="table_knows",
                detail=f"The table has {name} at {kept} credit{'s' if kept != 1 else ''}, not "
                       f"{given}: the table keeps the credits (the host may undo a round)."))
        cadets.append({key: value for key, value in player.items() if key != "credits"})
    if errors:
        raise ApiError(status_code=400, code="invalid_input", detail=errors[0]["detail"] if
                       len(errors) == 1 else f"{len(errors)} credits differ from the table's; "
                       "each is listed in errors.", errors=errors)
    return cadets


def _ac_body(state: dict, players: list[str], kind: str) -> dict | None:
    cadets = [{"name": name, "credits": state["credits"].get(name, 0)} for name in players]
    if kind == SCORE:
        body: dict[str, Any] = {"players": cadets}
        if state.get("starter"):
            body["starter"] = state["starter"]
        return body
    if kind == RULING:
        return {"position": {"players": cadets}}
    return None


def _ac_event(state: dict, players: list[str], kind: str, body: dict) -> tuple[str, dict]:
    if kind == SCORE:
        event = {**body, "players": _credits_given(body.get("players") or [], state["credits"],
                                                   "players")}
        starter = event.get("starter")
        if state.get("round") and "starter" in event:
            if starter != state.get("starter"):
                detail = (f"The table knows who starts this round ({state.get('starter')}), "
                          f"not {starter}.")
                raise ApiError(status_code=400, code="invalid_input", detail=detail,
                               errors=[error_entry(path="starter", code="table_knows",
                                                   detail=detail)])
            del event["starter"]
        return "round", event
    given = body.get("position")
    position: dict = given if isinstance(given, dict) else {}
    cadets = _credits_given(position.get("players") or [], state["credits"], "position.players")
    return "ruling", {**body, "position": {**position, "players": cadets}}


def _nothing_known(state: dict, players: list[str], kind: str) -> dict | None:
    return None


def _asked_as_is(state: dict, players: list[str], kind: str, body: dict) -> tuple[str, dict]:
    """A ruling the table reads nothing into (a Star Trek: Missions turn): the event "ruling"."""
    if kind != RULING:
        raise LookupError(kind)
    return "ruling", body


def _stm_event(state: dict, players: list[str], kind: str, body: dict) -> tuple[str, dict]:
    """Star Trek: Missions: a hand scored on "Score a hand" is the seat's "hand" (its cards and
    the choices fixed); a turn checked is a "ruling"."""
    if kind == SCORE:
        return "hand", {key: body[key] for key in ("hand", "choices") if key in body}
    return _asked_as_is(state, players, kind, body)


@dataclass(frozen=True)
class TableJobs:
    request_body: BodyOf
    event: Callable[[dict, list[str], str, dict], tuple[str, dict]]


TEMPORARY: dict[str, TableJobs] = {
    "academy-credits": TableJobs(_ac_body, _ac_event),
    "star-trek-missions": TableJobs(_nothing_known, _stm_event),
}


def table_jobs(slug: str) -> TableJobs:
    package = game_package(slug)
    module: Any = None
    if package is not None:
        try:
            module = importlib.import_module(f"{package.package}.table_state")
        except ModuleNotFoundError:
            module = None
    fallback = TEMPORARY.get(slug, TableJobs(_nothing_known, _asked_as_is))
    return TableJobs(
        getattr(module, "job_request_body", None) or fallback.request_body,
        getattr(module, "job_event", None) or fallback.event,
    )


# --- The pages ---------------------------------------------------------------------------------


def _page_view(table: Table, kind: str):
    """The job and the view of its page, when that page can be asked at a table."""
    package = game_package(table.game.slug)
    job = package.job(kind) if package else None
    url = job.url() if job else ""
    if not url:
        return None, None
    try:
        view = resolve(url).func
    except Resolver404:
        return None, None
    return (job, view) if getattr(view, "asked_at_table", False) else (None, None)


def job_links(table: Table) -> list[dict]:
    """The game's jobs the table opens: label and address (the table's current version)."""
    links = []
    for kind in (RULING, SCORE):
        job, _ = _page_view(table, kind)
        if job is not None:
            links.append({"kind": kind, "label": job.label,
                          "url": reverse("tables:ask", args=[table.code, kind, table.version])})
    return links


def _unprefixed(error: ApiError) -> ApiError:
    """The table's refusal with its paths in the page's terms (the event's `body.` dropped), so
    the page puts each problem by its field."""
    errors = [{**entry, "path": str(entry.get("path", "")).removeprefix("body.")}
              for entry in error.errors]
    return ApiError(status_code=error.status_code, code=error.error_code, detail=error.message,
                    errors=errors)


def _runner(table: Table, kind: str, version: int, seat: int | None,
            token: str | None) -> Callable[..., dict]:
    jobs = table_jobs(table.game.slug)
    players = [seat.name for seat in table.seats.all()]

    def run(*, game, body: dict) -> dict:
        if token is None:
            raise ApiError(status_code=401, code="token_required",
                           detail="Claim your seat at the table first: only a seat's phone (or "
                                  "the host's) answers for the table.")
        def moved_on(current: int | None) -> ApiError:
            return ApiError(status_code=409, code="version_conflict",
                            detail=f"The table has moved on since this form was filled in "
                                   f"(version {version}, now {current}): go back to the table "
                                   "and open the form again.")

        # A stale form first (what it says of the table may be stale too); the event checks the
        # version again, in its transaction.
        current = table_version(code=table.code)
        if current != version:
            raise moved_on(current)
        event_kind, event_body = jobs.event(table.state, players, kind, body)
        try:
            event, _ = services.event_add(code=table.code, token=token, kind=event_kind,
                                          seat=seat, version=version, body=event_body)
        except services.VersionConflict as conflict:
            raise moved_on(conflict.current) from None
        except ApiError as error:
            raise _unprefixed(error) from None
        assert event.result is not None  # a job's event always holds the game's answer
        return event.result

    return run


def ask_page(request: HttpRequest, table: Table, *, kind: str, version: int, seat: int | None,
             token: str | None, as_seat: bool) -> HttpResponse:
    """The job's page at the table (tables.views.ask): `seat` and `token` are this browser's
    (`as_seat`: its own seat, else the host's acting for seat 1)."""
    job, view = _page_view(table, kind)
    if job is None or view is None:
        raise Http404(f"A {table.game.name} table has no page for '{kind[:20]}'.")
    if request.method != "POST" and not request.GET and version != table.version:
        # An older link: the form is filled in from the table as it is now.
        return redirect("tables:ask", code=table.code, kind=kind, version=table.version)
    players = [s.name for s in table.seats.all()]
    body = table_jobs(table.game.slug).request_body(table.state, players, kind)
    initial = QueryDict(mutable=True)
    for name, value in (job.pairs(table.game, body) or []) if body else []:
        initial.appendlist(name, value)
    name = next((s.name for s in table.seats.all() if s.number == seat), "")
    who = "" if token is None else (f"{name} (seat {seat})" if as_seat else "the host")
    asked = AskedAt(initial=initial, run=_runner(table, kind, version, seat, token),
                    context={"code": table.code, "who": who,
                             "url": reverse("tables:page", args=[table.code])})
    return view(request, asked=asked)
