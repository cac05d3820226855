"""The tables' API (API.md, "Tables"): create, read (ETag, 304), claim a seat, add an event,
undo the last one, hand the host role to a seat. The views read the request and shape the answer; tables.services decides."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, TypedDict, TypeVar

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.api.serializers import ErrorSerializer
from common.api_errors import ApiError, error_body, error_entry
from common.numbers import plain_int
from common.parsers import request_object
from common.requests import RequestModel, read_body
from common.throttling import EvaluationRateThrottle, TableReadThrottle, client_address

from . import read_cache, services
from .bodies import EventRequest, HandoverRequest, TableCreateRequest, VersionRequest
from .selectors import (
    HistoryPageRead,
    TableNotFound,
    TableRead,
    change_words,
    history_data,
    table_data,
    table_events,
    table_get,
    table_version,
)


class NewTableRead(TableRead):
    """A table just started: the table, and the host's token (shown this once)."""

    host_token: str


class EventAnswer(TypedDict):
    """An event as the answer that added it gives it: the game's answer in `result` (the
    sender's own, whole, for an event; null for a handover)."""

    n: int
    kind: str
    seat: int | None
    result: dict[str, Any] | None


class EventAdded(TypedDict):
    event: EventAnswer
    table: TableRead


class UndoneEvent(TypedDict):
    n: int
    kind: str
    seat: int | None


class EventUndone(TypedDict):
    undone: UndoneEvent
    table: TableRead


Body = TypeVar("Body", bound=RequestModel)


def body_of(request: Request, model: type[Body]) -> Body:
    """The request's JSON body read as `model` (tables.bodies): a 400 in API.md's error body,
    naming every problem at its field, before anything is looked up or decided."""
    return read_body(model, request_object(request))


def etag_of(version: int) -> str:
    return f'"v{version}"'


def not_found(code: str) -> ApiError:
    detail = f"No table '{code[:40]}'."
    return ApiError(
        status_code=404,
        code="unknown_table",
        detail=detail,
        errors=[error_entry(path="code", code="unknown_table", detail=detail)],
    )


def bearer_token(request: Request) -> str | None:
    header: str = request.META.get("HTTP_AUTHORIZATION", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def table_response(data: Mapping[str, object], table: TableRead, *, status: int = 200) -> Response:
    """`data` is the table, or an answer holding it (`table`): its ETag is the table's version's."""
    response = Response(data, status=status)
    response["ETag"] = etag_of(table["version"])
    response["Cache-Control"] = "no-cache"
    return response


def conflict_response(conflict: services.VersionConflict, code: str) -> Response:
    """The 409 of a change that overlaps what changed since the version it names: the table now,
    and one error entry per overlapping change (its entry `n`, `kind`, `seat`, `undone`), so a
    client can say what changed next to the entry it keeps."""
    table = table_get(code=code)
    names = {seat.number: seat.name for seat in table.seats.all()}
    changed = [
        error_entry(
            path="version",
            code="changed_since",
            detail=f"Since version {conflict.named}, "
            f"{change_words(event, names, since=conflict.named)}.",
            event=event.n,
            kind=event.kind,
            seat=event.seat,
            undone=event.undone_at is not None and event.undone_at >= conflict.named,
        )
        for event in conflict.changes
    ]
    body = error_body(
        status_code=409,
        code="version_conflict",
        detail=f"The table is at version {conflict.current}, not {conflict.named}, and what "
        "changed since concerns this change: read it again and decide on what it shows "
        "now; nothing changed.",
        errors=changed
        or [
            error_entry(
                path="version",
                code="version_conflict",
                detail=f"The table has moved on to version {conflict.current}.",
            )
        ],
    )
    return Response({**body, "table": table_data(table)}, status=409)


class TableCreateApi(APIView):
    throttle_classes = [EvaluationRateThrottle]

    @extend_schema(
        summary="Start a table",
        description='Body: `{"game": slug, "players": [names in seat order], "from": '
        "code}` (`from`, optional: a table of the same game whose tally of games won "
        "the new table carries over). The answer holds the host's token (shown once: "
        "keep it) and the table's link.",
        request=TableCreateRequest,
        responses={
            201: OpenApiTypes.OBJECT,
            400: OpenApiResponse(
                ErrorSerializer,
                description="`invalid_input`, `invalid_player_count`, `not_available`.",
            ),
            429: OpenApiResponse(ErrorSerializer, description="`throttled`, `too_many_tables`."),
        },
    )
    def post(self, request: Request) -> Response:
        body = body_of(request, TableCreateRequest)
        new = services.table_create(
            game_slug=body.game,
            players=body.players,
            address=client_address(request),
            carried_from=body.carried_from,
        )
        data: NewTableRead = {**table_data(new.table), "host_token": new.host_token}
        return table_response(data, data, status=201)


def check_read(view: APIView, request: Request) -> None:
    """Count a read that does the work (an answer with the table, a page of its history) against
    the client's read limit (TableReadThrottle); 429 throttled past it. An unchanged poll (304)
    is not counted: one indexed query, as cheap as its refusal would be."""
    throttle = TableReadThrottle()
    if not throttle.allow_request(request, view):
        view.throttled(request, throttle.wait())


# A read refused before it reaches the view (config/asgi.py's TableReadsBound).
BUSY = (
    "`busy`, with `Retry-After`: too many reads of tables wait in this server process; read "
    "again after it."
)


class TableApi(APIView):
    @extend_schema(
        summary="A table, as every phone reads it",
        description="Never a token. `ETag` changes with `version`; send it back in "
        "`If-None-Match` and an unchanged table answers 304, from one query.",
        parameters=[OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER)],
        responses={
            200: OpenApiTypes.OBJECT,
            304: None,
            404: OpenApiResponse(ErrorSerializer, description="`unknown_table`."),
            503: OpenApiResponse(ErrorSerializer, description=BUSY),
        },
    )
    def get(self, request: Request, code: str) -> Response:
        version = table_version(code=code)
        if version is None:
            raise not_found(code)
        etag = etag_of(version)
        held: str = request.META.get("HTTP_IF_NONE_MATCH", "")
        if etag in [tag.strip() for tag in held.split(",")]:
            response = Response(status=304)
            response["ETag"] = etag
            response["Cache-Control"] = "no-cache"
            return response
        check_read(self, request)
        try:
            # An unchanged table's read is built once per version (tables.read_cache).
            read = read_cache.api_table(code, version, lambda: table_data(table_get(code=code)))
            return table_response(read, read)
        except TableNotFound:  # removed since its version was read
            raise not_found(code) from None


class SeatClaimApi(APIView):
    throttle_classes = [EvaluationRateThrottle]

    @extend_schema(
        summary="Claim a seat: its token, shown once",
        request=None,
        responses={
            201: OpenApiTypes.OBJECT,
            404: OpenApiResponse(ErrorSerializer, description="`unknown_table`, `unknown_seat`."),
            409: OpenApiResponse(ErrorSerializer, description="`seat_claimed`."),
        },
    )
    def post(self, request: Request, code: str, seat: int) -> Response:
        try:
            claimed, token = services.seat_claim(code=code, number=seat)
        except TableNotFound:
            raise not_found(code) from None
        return Response(
            {"seat": claimed.number, "name": claimed.name, "seat_token": token}, status=201
        )

    @extend_schema(
        summary="The host releases a seat (a lost phone)",
        description="Header `Authorization: Bearer <host token>`. May name the version it was "
        'decided on, as the undo does (`{"version": n}` or `If-Match: '
        '"v<n>"`): a stale one is a 409 `version_conflict`. The seat holding the '
        "host role is never released (409 `host_seat`), however the release races "
        "a handover.",
        parameters=[OpenApiParameter("If-Match", str, OpenApiParameter.HEADER)],
        responses={
            200: OpenApiTypes.OBJECT,
            400: OpenApiResponse(
                ErrorSerializer, description="`invalid_input`: a malformed version or If-Match."
            ),
            401: OpenApiResponse(ErrorSerializer, description="`token_required`."),
            403: OpenApiResponse(ErrorSerializer, description="`host_only`."),
            409: OpenApiResponse(
                ErrorSerializer,
                description="`host_seat`: the seat holds the host role; `version_conflict`.",
            ),
        },
    )
    def delete(self, request: Request, code: str, seat: int) -> Response:
        try:
            table = services.seat_release(
                code=code, number=seat, token=bearer_token(request), version=undo_version(request)
            )
        except TableNotFound:
            raise not_found(code) from None
        except services.VersionConflict as conflict:
            return conflict_response(conflict, code)
        read = table_data(table)
        return table_response(read, read)


def history_cursor(request: Request) -> int | None:
    """`?before=<n>`: the page of the history before event n (the cursor a table's read gives as
    `events_before`); None without it."""
    raw: str | None = request.query_params.get("before")
    if raw is None:
        return None
    before = plain_int(raw, least=1)
    if before is None:
        detail = f"before is the number of an event (the table's events_before); not {raw[:20]!r}."
        raise ApiError(
            status_code=400,
            code="invalid_input",
            detail=detail,
            errors=[error_entry(path="query.before", code="invalid_type", detail=detail)],
        )
    return before


class EventsApi(APIView):
    def get_throttles(self) -> list[EvaluationRateThrottle]:
        # Adding an event counts as an evaluation, like a score; reading the history as a read
        # (check_read, in get).
        return [] if self.request.method == "GET" else [EvaluationRateThrottle()]

    @extend_schema(
        summary="A page of a table's history",
        description="`?before=n`: the events numbered below n, at most 20, oldest first within "
        "the page (undone events left out), with the cursor of the page before "
        "(`events_before`, null at the first). Without it, the newest page (as the "
        "table's read carries it).",
        parameters=[OpenApiParameter("before", int, OpenApiParameter.QUERY)],
        responses={
            200: OpenApiTypes.OBJECT,
            400: OpenApiResponse(
                ErrorSerializer, description="`invalid_input`: `before` is not a number."
            ),
            404: OpenApiResponse(ErrorSerializer, description="`unknown_table`."),
            503: OpenApiResponse(ErrorSerializer, description=BUSY),
        },
    )
    def get(self, request: Request, code: str) -> Response:
        check_read(self, request)
        before = history_cursor(request)
        version = table_version(code=code)
        if version is None:
            raise not_found(code)

        def history_page() -> HistoryPageRead:
            table = table_get(code=code)
            return {
                "code": table.code,
                "version": table.version,
                **history_data(table, table_events(table=table, before=before)),
            }

        try:
            # A page of an unchanged table's history is built once (tables.read_cache).
            response = Response(read_cache.api_history(code, version, before, history_page))
        except TableNotFound:  # removed since its version was read
            raise not_found(code) from None
        response["Cache-Control"] = "no-cache"
        return response

    @extend_schema(
        summary="Act at the table: one event",
        description="Header `Authorization: Bearer <token>` (the seat's or the host's), and "
        "optionally `Idempotency-Key: <the entry's key>` (sent again with the same "
        "key, the entry gets its first answer back and is never added twice). Body "
        '`{"kind", "seat", "version", "body"}`: `version` is the table '
        "version the event was decided on. A seat's own entry (a kind the game names "
        "so: a hand entered at game end) may leave it out and is applied to the table as it is; one that "
        "names it, and any other event, is a 409 `version_conflict` (its body holds "
        "the current `table` and the changes since) only when a change since "
        "overlaps it. The answer in the response is the sender's own, whole; the "
        "history links its public copy, which names no seat's hidden cards.",
        request=EventRequest,
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER)],
        responses={
            201: OpenApiTypes.OBJECT,
            400: OpenApiResponse(ErrorSerializer, description="A refused event."),
            401: OpenApiResponse(ErrorSerializer, description="`token_required`."),
            403: OpenApiResponse(
                ErrorSerializer,
                description="`not_your_seat`, `host_only`; `seat_answers`: the host's "
                "token answering a wait with the hidden cards of a seat a phone holds.",
            ),
            409: OpenApiResponse(
                ErrorSerializer,
                description="`version_conflict`; "
                "`table_full`, `table_closed`, `store_full`: the "
                "table's or the store's bound; `awaiting_answer`, "
                "`nothing_to_answer`: a play awaiting (or not) its "
                "target's answer.",
            ),
            422: OpenApiResponse(
                ErrorSerializer,
                description="`idempotency_key_reused`: the key was used for another entry.",
            ),
        },
    )
    def post(self, request: Request, code: str) -> Response:
        body = body_of(request, EventRequest)
        entry_key: str | None = request.META.get("HTTP_IDEMPOTENCY_KEY")
        try:
            event, table = services.event_add(
                code=code,
                token=bearer_token(request),
                kind=body.kind,
                seat=body.seat,
                version=body.version,
                body=body.body,
                entry_key=entry_key,
            )
        except TableNotFound:
            raise not_found(code) from None
        except services.VersionConflict as conflict:
            return conflict_response(conflict, code)
        data = table_data(table)
        # The sender's own answer, whole (issue 29: the history links its public copy).
        own: dict[str, Any] | None = getattr(event, "own_result", event.result)
        added: EventAdded = {
            "event": {"n": event.n, "kind": event.kind, "seat": event.seat, "result": own},
            "table": data,
        }
        response = table_response(added, data, status=201)
        if event.repeated:
            response["Idempotent-Replayed"] = "true"
        return response


def undo_version(request: Request) -> int | None:
    """The version an undo names: `{"version": n}` in the body or `If-Match: "v<n>"` (both: they
    must agree); None when neither is given."""
    named = body_of(request, VersionRequest).version if request.body else None
    header: str = request.META.get("HTTP_IF_MATCH", "").strip()
    if header:
        match = re.fullmatch(r'(?:W/)?"v([^"]*)"', header)
        from_header = plain_int(match.group(1)) if match is not None else None
        if from_header is None:
            detail = f'If-Match holds the table\'s ETag ("v<version>"); not {header[:40]!r}.'
            raise ApiError(
                status_code=400,
                code="invalid_input",
                detail=detail,
                errors=[error_entry(path="If-Match", code="invalid_etag", detail=detail)],
            )
        if named is not None and named != from_header:
            detail = f"The body names version {named} and If-Match version {from_header}; name one."
            raise ApiError(
                status_code=400,
                code="invalid_input",
                detail=detail,
                errors=[error_entry(path="version", code="versions_differ", detail=detail)],
            )
        named = from_header
    return named


class LastEventApi(APIView):
    @extend_schema(
        summary="The host undoes the last event",
        description='Names the version it was decided on, like an event: `{"version": n}` in '
        'the body or `If-Match: "v<n>"` (the table\'s ETag). A stale one is a 409 '
        "`version_conflict` whose body holds the current `table`; nothing changes.",
        # drf-spectacular documents no DELETE body: the description gives this one.
        request=VersionRequest,
        parameters=[OpenApiParameter("If-Match", str, OpenApiParameter.HEADER)],
        responses={
            200: OpenApiTypes.OBJECT,
            400: OpenApiResponse(ErrorSerializer, description="`invalid_input`: no version."),
            401: OpenApiResponse(ErrorSerializer, description="`token_required`."),
            403: OpenApiResponse(ErrorSerializer, description="`host_only`."),
            409: OpenApiResponse(
                ErrorSerializer, description="`version_conflict`, `nothing_to_undo`."
            ),
        },
    )
    def delete(self, request: Request, code: str) -> Response:
        try:
            event, table = services.event_undo(
                code=code, token=bearer_token(request), version=undo_version(request)
            )
        except TableNotFound:
            raise not_found(code) from None
        except services.VersionConflict as conflict:
            return conflict_response(conflict, code)
        read = table_data(table)
        undone: EventUndone = {
            "undone": {"n": event.n, "kind": event.kind, "seat": event.seat},
            "table": read,
        }
        return table_response(undone, read)


class HostApi(APIView):
    throttle_classes = [EvaluationRateThrottle]

    @extend_schema(
        summary="The host hands the host role to a seat",
        description='Header `Authorization: Bearer <host token>`; body `{"seat", '
        "\"version\"}`. The seat's own token is the host's from then on; the token "
        "that was the host's acts no more. Names the version it was decided on, like "
        "an event: a stale one is a 409 `version_conflict` whose body holds the "
        "current `table`; nothing changes. Recorded in the history (kind "
        "`handover`); the undo passes over it.",
        request=HandoverRequest,
        responses={
            201: OpenApiTypes.OBJECT,
            400: OpenApiResponse(
                ErrorSerializer, description="`invalid_input`: no seat or version."
            ),
            401: OpenApiResponse(ErrorSerializer, description="`token_required`."),
            403: OpenApiResponse(ErrorSerializer, description="`host_only`."),
            404: OpenApiResponse(ErrorSerializer, description="`unknown_table`, `unknown_seat`."),
            409: OpenApiResponse(
                ErrorSerializer, description="`version_conflict`, `seat_not_claimed`."
            ),
        },
    )
    def post(self, request: Request, code: str) -> Response:
        body = body_of(request, HandoverRequest)
        try:
            event, table = services.host_handover(
                code=code, token=bearer_token(request), seat=body.seat, version=body.version
            )
        except TableNotFound:
            raise not_found(code) from None
        except services.VersionConflict as conflict:
            return conflict_response(conflict, code)
        read = table_data(table)
        handed: EventAdded = {
            "event": {"n": event.n, "kind": event.kind, "seat": event.seat, "result": event.result},
            "table": read,
        }
        return table_response(handed, read, status=201)
