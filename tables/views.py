"""The table's pages: /t/ (start a table), /t/<code> (the table: players and seats, the state at a
glance, the history with its /r/<id> links, the QR code of the link), /t/<code>/live (the part
every phone polls every 2 s through htmx, answered 304 from the version alone when nothing
changed), and the forms the page posts (claim a seat, enter a hand, the host's undo, new game and
release). Everything works without JavaScript: each form posts and the page comes back (the
"Reload" link shows what the others did).

A phone's seat is a cookie for this table's path only: `seat_<code>` holding "<seat>:<token>"; the
host's token is `host_<code>`. Both HttpOnly, SameSite=Lax, Secure over HTTPS. Which seat a form
acts for, and with which token, is tables.seats' (shared with the game's pages at the table).
"""

from __future__ import annotations

import io
import ipaddress
import re
import uuid
from typing import Any

import segno
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, QueryDict
from django.http.request import split_domain_port
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cards.models import Game
from common.api_errors import ApiError, error_entry
from common.numbers import plain_int
from common.page_throttle import check_page_throttle, check_read_throttle
from common.throttling import client_address
from games.table_state import phone_gives

from . import read_cache, services
from .game_states import game_table, table_slugs
from .glance import phone_glance
from .jobs import ask_page, job_links
from .models import Table
from .seats import acting_for, host_token, my_seat
from .selectors import (
    HANDOVER,
    TableNotFound,
    change_words,
    last_undoable,
    shown_state,
    table_ended,
    table_events,
    table_get,
    table_version,
)

COOKIE_AGE = 60 * 60 * 24 * 30  # a month: as long as an idle table is kept


def _table_or_404(code: str) -> Table:
    try:
        return table_get(code=code)
    except TableNotFound:
        raise Http404(f"No table '{code[:40]}'.") from None


def _cookie(response: HttpResponse, request: HttpRequest, name: str, value: str, code: str) -> None:
    response.set_cookie(
        name,
        value,
        max_age=COOKIE_AGE,
        path=f"/t/{code}",
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )


def qr_svg(url: str) -> str:
    """The link as a QR code, inline SVG (no script, no style attribute: the CSP holds). Sized
    by its viewBox alone (omitsize), so the page's CSS scales it whole: small at the top of the
    host's phone, large where the phones are brought in."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out,
        kind="svg",
        xmldecl=False,
        svgns=True,
        nl=False,
        scale=5,
        border=2,
        dark="#000",
        light="#fff",
        omitsize=True,
        title=f"QR code of {url}",
        svgclass="table-qr__code",
    )
    return out.getvalue().decode()


def opened_on_loopback(request: HttpRequest) -> bool:
    """Whether the page was opened on an address of this machine alone (localhost, 127.0.0.0/8,
    ::1, as `make run` serves): a link or QR code of it would lead another phone nowhere."""
    name, _ = split_domain_port(request.get_host())
    name = name.strip("[]")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def page_parts(table: Table) -> dict[str, str | None]:
    """The game's parts of /t/<code> (its TableGame, found through GAMES): the state at a
    glance (polled) and the form a seat fills in (None: the game has none on this page)."""
    kind = game_table(table.game.slug).carries
    return {
        "state_template": kind.state_template,
        "form_template": kind.form_template,
        "event_template": kind.event_template,
    }


def history_before(request: HttpRequest) -> int | None:
    """`?before=<n>`: the page of the history before event n ("Show earlier"); anything else is
    the newest page."""
    return plain_int(request.GET.get("before", ""), least=1)


def live_context(
    table: Table, *, host: bool = False, own_seat: int | None = None, before: int | None = None
) -> dict[str, Any]:
    state = shown_state(table.state)
    seats = list(table.seats.all())
    players = []
    for seat in seats:
        index = seat.number - 1
        players.append(
            {
                "seat": seat.number,
                "name": seat.name,
                "claimed": seat.claimed,
                "entered": (state.get("hands") or [None] * len(seats))[index] is not None,
                "tally": state.get("tally", {}).get(seat.name, 0),
                "credits": state.get("credits", {}).get(seat.name, 0),
                "host": seat.number == table.host_seat,
            }
        )
    names = {seat.number: seat.name for seat in seats}
    claimed_seats = {seat.number for seat in seats if seat.claimed}
    # The history players read numbers every entry, an undone one too (shown as undone): after
    # an undo the numbers go on without a gap, and "entry 3" means one line whatever phone reads.
    history = table_events(table=table, before=before, with_undone=True)
    events = history.events
    for event in events:
        # The history names players, not seat numbers.
        event.seat_name = names.get(event.seat or 0, "")  # type: ignore[attr-defined]
        if event.kind == HANDOVER and event.seat is not None:
            # The history names the seat the role went to.
            event.to_name = names.get(event.seat, "")  # type: ignore[attr-defined]
    game_kind = game_table(table.game.slug).carries
    more = game_kind.live_context
    undoable = last_undoable(table=table, passed_over=HANDOVER) if host else None
    glance = None
    if game_kind.next_entry is not None:
        glance = phone_glance(
            game_kind.next_entry(state, [seat.name for seat in seats]),
            players=players,
            my_seat=own_seat,
            host=host,
            links={link["kind"]: link["url"] for link in job_links(table)},
        )
    return {
        "table": table,
        "players": players,
        "state": state,
        **page_parts(table),
        "live_etag": live_etag(table.version),
        "events": events,
        "host": host,
        "my_seat": own_seat,
        # The history a page at a time: the cursor of the page before this one, and the page
        # shown (None: the newest, which the polled part follows).
        "earlier": history.before,
        "before": before,
        # The undo passes over a handover (tables.services.event_undo): its button names
        # the entry it takes back.
        "undoable": undoable,
        # A handover after it, which the undo passes over (its button says so).
        "undo_passes_handover": undoable is not None
        and table.events.filter(undone=False, n__gt=undoable.n).exists(),
        "glance": glance,
        "host_name": names.get(table.host_seat or 0, ""),
        "handover_seats": [p for p in players if p["claimed"] and not p["host"]],
        # The seats whose hidden cards this phone gives (an answer the table waits for: issue
        # 29): its own, and for the host each seat no phone holds (the rule the service holds,
        # tables.services: 403 seat_answers).
        "answers_for": [
            seat.number
            for seat in seats
            if phone_gives(seat.number, own=own_seat, host=host, held=claimed_seats)
        ],
        "ended": table_ended(table),
        "waiting": [p["name"] for p in players if not p["entered"]],
        # The key of an entry sent from the polled part (a defender's answer to an attack): its
        # Idempotency-Key, new with each drawing of the part (the page's own form's is set
        # by _page).
        "entry_key": str(uuid.uuid4()),
        **(more(state, [seat.name for seat in seats]) if more is not None else {}),
    }


def live_etag(version: int) -> str:
    """The ETag of the polled part at `version`. The page carries it (data-etag) and sends it as
    If-None-Match itself: left to the browser's cache, a 304 reaches the page as a 200 with the
    cached copy, and htmx would redraw the part every 2 s (losing a keyboard user's focus)."""
    return f'"p{version}"'


@require_GET
def live(request: HttpRequest, code: str) -> HttpResponse:
    version = table_version(code=code)
    if version is None:
        raise Http404
    etag = live_etag(version)
    if etag in [tag.strip() for tag in request.META.get("HTTP_IF_NONE_MATCH", "").split(",")]:
        # An unchanged poll: one indexed query, not counted (as cheap as its refusal would be).
        response: HttpResponse = HttpResponseNotModified()
    else:
        check_read_throttle(request)
        table = _table_or_404(code)
        host = host_token(request, table) is not None
        own_seat = my_seat(request, table)[0]
        before = history_before(request)
        # Built once per version and viewer (tables.read_cache): the next reads are a lookup.
        response = HttpResponse(
            read_cache.rendered(
                request,
                part="live",
                code=code,
                version=version,
                viewer=f"{'host' if host else 'guest'}:{own_seat}:{before}:{bool(table_ended(table))}",
                template="tables/_live_response.html",
                context=lambda: live_context(table, host=host, own_seat=own_seat, before=before),
            )
        )
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def _shown_seat(
    request: HttpRequest, seat: int | None, host: bool, posted: QueryDict | None
) -> int | None:
    """The seat whose form the page shows: for the host's browser the seat it picked (posted, or
    `?seat=` after it entered something for that seat), else its own seat if it holds one; a
    seat's phone's own."""
    if host:
        picked = (posted.get("seat") if posted is not None else None) or request.GET.get("seat", "")
        number = plain_int(picked, least=1)
        if number is not None:
            return number
    return seat


def form_version(raw: str, current: int | None) -> int | None:
    """The version a page form names (the one its page showed). A form without one acts on the
    table as it is now (`current`); one that is not a plain number is refused (400), never read
    as "now"."""
    if not raw.strip():
        return current
    number = plain_int(raw)
    if number is None:
        detail = (
            f"The form names the table version {raw[:20]!r}, which is not a version (a "
            "whole number); reload the table and send it again."
        )
        raise ApiError(
            status_code=400,
            code="invalid_input",
            detail=detail,
            errors=[error_entry(path="version", code="invalid_type", detail=detail)],
        )
    return number


def form_context(
    table: Table, context: dict[str, Any], seat: int | None, posted: QueryDict | None
) -> dict[str, Any]:
    """What the game's form on the page reads beyond the page's context (its TableGame's
    form_context), for the seat whose form is shown."""
    more = game_table(table.game.slug).carries.form_context
    if more is None:
        return {}
    return more(table.state, [s.name for s in table.seats.all()], seat, posted, context["events"])


def _page(
    request: HttpRequest,
    table: Table,
    *,
    errors: ApiError | None = None,
    posted: QueryDict | None = None,
    status: int = 200,
    notice: str = "",
    conflict: dict[str, Any] | None = None,
) -> HttpResponse:
    return render(
        request,
        "tables/table.html",
        _page_context(
            request, table, errors=errors, posted=posted, notice=notice, conflict=conflict
        ),
        status=status,
    )


def _page_context(
    request: HttpRequest,
    table: Table,
    *,
    errors: ApiError | None = None,
    posted: QueryDict | None = None,
    notice: str = "",
    conflict: dict[str, Any] | None = None,
) -> dict[str, Any]:
    seat, _ = my_seat(request, table)
    host = host_token(request, table) is not None
    link = request.build_absolute_uri(reverse("tables:page", args=[table.code]))
    # On a loopback address the page says how to let the phones in instead (issue 29).
    loopback = opened_on_loopback(request)
    live = live_context(table, host=host, own_seat=seat, before=history_before(request))
    if errors is not None and errors.error_code in ("table_full", "table_closed"):
        live["ended"] = live["ended"] or "This table is full."
    context = {
        **live,
        **form_context(table, live, _shown_seat(request, seat, host, posted), posted),
        "link": link,
        "qr": "" if loopback else qr_svg(link),
        "loopback": loopback,
        "my_seat": seat,
        "my_name": next((s.name for s in table.seats.all() if s.number == seat), ""),
        "error": errors,
        "posted": posted or {},
        "notice": notice,
        "job_links": job_links(table),
        "conflict": conflict,
        # The key of the entry the seat's form sends (its Idempotency-Key): the one posted while
        # the entry was not recorded (sent again, it is still that entry), else a new one.
        "entry_key": (posted.get("entry_key") if posted is not None else "") or str(uuid.uuid4()),
    }
    return context


@require_GET
def page(request: HttpRequest, code: str) -> HttpResponse:
    check_read_throttle(request)
    table = _table_or_404(code)
    seat = my_seat(request, table)[0]
    host = host_token(request, table) is not None
    # Built once per version and viewer (tables.read_cache): everything the page shows
    # differently is in `viewer` (the address it was opened at: the link, its QR code, the
    # loopback notice; the seat whose form the host's browser shows; whether the table has
    # ended, which its age decides without a new version).
    viewer = (
        f"{'host' if host else 'guest'}:{seat}:{_shown_seat(request, seat, host, None)}:"
        f"{history_before(request)}:{bool(table_ended(table))}:"
        f"{request.scheme}://{request.get_host()}"
    )
    return HttpResponse(
        read_cache.rendered(
            request,
            part="page",
            code=code,
            version=table.version,
            viewer=viewer,
            template="tables/table.html",
            context=lambda: _page_context(request, table),
        )
    )


@require_POST
def claim(request: HttpRequest, code: str) -> HttpResponse:
    table = _table_or_404(code)
    check_page_throttle(request)
    number = plain_int(request.POST.get("seat", ""), least=1)
    if number is None:
        return _page(
            request,
            table,
            status=400,
            errors=ApiError(
                status_code=400, code="invalid_input", detail="Choose a seat to claim."
            ),
        )
    try:
        seat, token = services.seat_claim(code=code, number=number)
    except ApiError as error:
        return _page(request, table, errors=error, status=error.status_code)
    response = redirect("tables:page", code=code)
    _cookie(response, request, f"seat_{code}", f"{seat.number}:{token}", code)
    return response


def card_lines(text: str) -> list[str]:
    return [line.strip() for line in re.split(r"[\r\n]+", text) if line.strip()]


@require_POST
def seat_form(request: HttpRequest, code: str) -> HttpResponse:
    """The seat's form of the table's game (its TableGame's form_event reads it into an event).
    A seat's phone acts for its seat; the host's browser for the seat it picks (seat 1 if none):
    tables.seats.acting_for, as on the game's pages at the table.
    Never refused for another seat's entry (tables.services.event_add); a change since the form
    was filled in that overlaps it (the same seat's hand, another round) is a 409 whose page says,
    next to the button, what changed, with everything typed kept and the form's version the
    table's now: one tap sends it again. The form's entry key (Idempotency-Key) makes a form sent
    twice (a double tap, the offline queue) one entry."""
    table = _table_or_404(code)
    check_page_throttle(request)
    game_kind = game_table(table.game.slug).carries
    if game_kind.form_event is None:
        raise Http404("This table's game has no form of its own.")
    posted = request.POST
    if posted.get("preview"):
        # "Show this hand's choices": the page again with what was typed, nothing entered.
        return _page(request, table, posted=posted)
    acting = acting_for(request, table)
    seat, token = acting.seat, acting.token
    if token is None:
        return _page(
            request,
            table,
            posted=posted,
            status=401,
            errors=ApiError(
                status_code=401,
                code="token_required",
                detail="Claim your seat first: only a seat's phone (or the host's) acts for a seat.",
            ),
        )
    try:
        kind, body = game_kind.form_event(posted, [s.name for s in table.seats.all()])
        version = form_version(posted.get("version", ""), None)
        if isinstance(seat, str):  # the host's picker posted no seat number
            raise services.seat_not_named(kind)
    except ApiError as error:
        return _page(request, table, posted=posted, errors=error, status=error.status_code)
    # The version the form was filled in from: a change since that overlaps the entry (the same
    # seat's hand changed, another round scored, an undo) refuses it; another seat's does not.
    # A form without one: a seat's own entry goes on the table as it is, any other is decided
    # on the table as it is now.
    if version is None and kind not in services.entry_kinds(game_kind):
        version = table.version
    try:
        services.event_add(
            code=code,
            token=token,
            kind=kind,
            seat=seat,
            version=version,
            body=body,
            entry_key=posted.get("entry_key") or None,
        )
    except services.VersionConflict as conflict:
        now = _table_or_404(code)
        names = {s.number: s.name for s in now.seats.all()}
        return _page(
            request,
            now,
            posted=posted,
            status=409,
            conflict={
                "changes": [
                    change_words(change, names, since=conflict.named) for change in conflict.changes
                ]
            },
        )
    except ApiError as error:
        return _page(
            request, _table_or_404(code), posted=posted, errors=error, status=error.status_code
        )
    if acting.host and isinstance(seat, int) and game_kind.form_context is not None:
        # The host's page comes back showing the seat it acted for (what was entered, where
        # the game's form shows a seat's own).
        return redirect(reverse("tables:page", args=[code]) + f"?seat={seat}")
    return redirect("tables:page", code=code)


@require_POST
def host(request: HttpRequest, code: str) -> HttpResponse:
    table = _table_or_404(code)
    check_page_throttle(request)
    token = host_token(request, table)
    action = request.POST.get("action", "")
    # What the host decided on: the version the page showed (the undo names the event it takes
    # back by it); a form without one acts on the table as it is now.
    posted = request.POST.get("version", "")
    seat = plain_int(request.POST.get("seat", ""), least=1)
    try:
        version = form_version(posted, table.version)
        if action == "undo":
            services.event_undo(code=code, token=token, version=form_version(posted, None))
        elif action in ("new_game", "new_match"):
            services.event_add(
                code=code, token=token, kind=action, seat=None, version=version, body={}
            )
        elif action == "release" and seat is not None:
            services.seat_release(code=code, number=seat, token=token)
        elif action == "handover":
            services.host_handover(code=code, token=token, version=version, seat=seat)
        else:
            raise ApiError(status_code=400, code="invalid_input", detail="Choose what to do.")
    except services.VersionConflict:
        return _page(
            request,
            _table_or_404(code),
            status=409,
            errors=ApiError(
                status_code=409,
                code="version_conflict",
                detail="The table changed just now; look at it again and choose again.",
            ),
        )
    except ApiError as error:
        return _page(request, _table_or_404(code), errors=error, status=error.status_code)
    return redirect("tables:page", code=code)


@require_http_methods(["GET", "POST"])
def start(request: HttpRequest) -> HttpResponse:
    offered = table_slugs()
    games = list(Game.objects.filter(slug__in=offered))
    chosen = request.GET.get("game") or request.POST.get("game") or next(iter(offered), "")
    players_text = request.POST.get("players", "")
    # A full or closed table's players going on at a new one: its tally carries over.
    carried_from = request.POST.get("from", "")[:16]
    if request.method == "POST":
        check_page_throttle(request)
        try:
            new = services.table_create(
                game_slug=chosen,
                players=card_lines(players_text),
                address=client_address(request),
                carried_from=carried_from or None,
            )
        except ApiError as error:
            return render(
                request,
                "tables/start.html",
                {
                    "games": games,
                    "chosen": chosen,
                    "players_text": players_text,
                    "error": error,
                    "carried_from": carried_from,
                },
                status=error.status_code,
            )
        code = new.table.code
        response = redirect("tables:page", code=code)
        _cookie(response, request, f"host_{code}", new.host_token, code)
        return response
    return render(
        request,
        "tables/start.html",
        {"games": games, "chosen": chosen, "players_text": players_text},
    )


@require_http_methods(["GET", "HEAD", "POST"])
def ask(request: HttpRequest, code: str, kind: str, version: int) -> HttpResponse:
    """The game's own page of a job (its ruling or its score), asked at the table: filled in from
    the table, its answer the table's event (tables.jobs)."""
    table = _table_or_404(code)
    return ask_page(request, table, kind=kind, version=version)
