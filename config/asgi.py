"""The ASGI application `make serve` and production run (config/gunicorn.py: gunicorn's processes,
each an event loop of uvicorn's): a slow client costs a connection, never a worker.

Under the sync workers a client sending one header line every 2 s held a whole worker until the
timeout, and five such clients froze the site. Here the event loop reads the request line, the
headers and the whole body, however slowly they come, and only a complete request reaches Django
(whose views run one at a time in each process's thread, as before). A slow reader of the answer
costs the loop a buffer, not the thread.

Django's ASGI handler reads the whole body before any middleware looks at its length, and would
keep reading for as long as a client sends. `BodyLimit` stops at the limit of the request's path
(common.middleware.body_limit_for): a body that declares more is handed on without its bytes, for
RequestSizeLimitMiddleware to refuse by its Content-Length; a chunked one is handed on cut a byte
past the limit, which that middleware refuses as "more than" the limit.
"""

import asyncio
import json
import os
import re
import warnings
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any, cast

from a2wsgi import WSGIMiddleware
from django.core.wsgi import get_wsgi_application

# whitenoise answers a static file with a FileResponse, a synchronous iterator, which Django's ASGI
# handler reads in a thread (whole: the site's files are a few kB compressed) and warns about on
# every file.
warnings.filterwarnings("ignore", message="StreamingHttpResponse must consume synchronous")

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.development")
# Django itself runs as a WSGI app in one thread of each process (a2wsgi), behind the event loop:
# the loop reads the request (BodyLimit below reads the whole body) and only a complete request
# reaches Django, as under Django's own ASGI handler, but without that handler's hops between
# the loop and the thread for each signal and the view (a GET /api/games/ took 3.7 ms of CPU
# through it, 1.8 ms through a2wsgi, measured in-process).
django_application = WSGIMiddleware(get_wsgi_application(), workers=1)  # type: ignore[arg-type]  # django-stubs types WSGIHandler.__call__ with its own environ and response types

from asgiref.sync import sync_to_async  # noqa: E402
from django.db import DatabaseError, close_old_connections  # noqa: E402

from common.middleware import body_limit_for  # noqa: E402  (needs the settings loaded)
from config import read_slots  # noqa: E402
from tables.middleware import HEADERS as POLL_HEADERS  # noqa: E402
from tables.middleware import is_poll, unchanged_poll  # noqa: E402

# The ASGI interface, as plain types (asgiref.typing's TypedDicts are stricter than these
# pass-through layers need).
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = body_limit_for(scope["path"])
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            return await self.app(scope, _body([], receive), send)  # refused by its length
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None  # the client left before its body ended: nothing to answer
            chunk = message.get("body", b"")
            chunks.append(chunk[: limit + 1 - size])
            size += len(chunks[-1])
            if size > limit or not message.get("more_body", False):
                break
        return await self.app(scope, _body(chunks, receive), send)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _body(chunks: list[bytes], server_receive: Receive) -> Receive:
    """An ASGI `receive` handing on the body read so far in one message; then the server's, for
    Django to hear the client go (any rest of a body cut at the limit is read and dropped: the
    server answers "disconnect" once the response is sent)."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        while True:
            message = await server_receive()
            if message["type"] != "http.request":
                return message

    return receive


class TablePolls:
    """A table's unchanged poll (tables.middleware), answered 304 before Django's handler: one
    indexed query in the thread Django's own views run in, no request object, no middleware.
    Anything else, or a database error, goes on to Django as usual."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            held = _header(scope, b"if-none-match")
            if is_poll(scope["method"], scope["path"], held):
                try:
                    etag = await sync_to_async(_unchanged_poll, thread_sensitive=True)(
                        scope["path"], held
                    )
                except DatabaseError:
                    etag = None
                if etag is not None:
                    headers = [
                        (b"etag", etag.encode()),
                        *[
                            (name.lower().encode(), value.encode())
                            for name, value in POLL_HEADERS.items()
                        ],
                    ]
                    await send({"type": "http.response.start", "status": 304, "headers": headers})
                    await send({"type": "http.response.body", "body": b""})
                    return None
        return await self.app(scope, receive, send)


def _unchanged_poll(path: str, held: str | None) -> str | None:
    """unchanged_poll, then what Django does at a request's end: a connection past its age (or
    any, with PostgreSQL's pool: back to the pool) is closed."""
    try:
        return unchanged_poll(path, held)
    finally:
        close_old_connections()


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


# How long a 429 is held before it is sent (never longer than its Retry-After).
REFUSAL_HOLD_SECONDS = float(os.environ.get("REFUSAL_HOLD_SECONDS", "1"))


class HeldRefusals:
    """A refusal (429) is sent after REFUSAL_HOLD_SECONDS, at most its Retry-After: the event
    loop holds the connection, Django's thread has already gone on to the next request (a2wsgi
    hands the response over through a queue). A client that ignores Retry-After and floods then
    sends one request a second per connection, however cheap each refusal is to decide (issue
    30: eight connections receiving only 429s, answered at once, pushed GET /api/games/ to p99
    1.5 s). A person past the limit reads the same page a second later; nothing else waits."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or REFUSAL_HOLD_SECONDS <= 0:
            return await self.app(scope, receive, send)

        async def held_send(message: Message) -> None:
            if message["type"] == "http.response.start" and message.get("status") == 429:
                await asyncio.sleep(refusal_hold(message.get("headers", ())))
            await send(message)

        return await self.app(scope, receive, held_send)


def refusal_hold(headers: Iterable[tuple[bytes, bytes]]) -> float:
    """How long to hold a 429 with these headers: REFUSAL_HOLD_SECONDS, at most its
    Retry-After (in seconds, as every limit of the site writes it)."""
    for name, value in headers:
        if name.lower() == b"retry-after":
            try:
                return min(REFUSAL_HOLD_SECONDS, max(0.0, float(value)))
            except ValueError:
                break
    return REFUSAL_HOLD_SECONDS


# Full reads of a table (not an unchanged poll: TablePolls answers those) one process hands
# Django's thread at once; more wait in the event loop, and past TABLE_READS_WAITING of those
# the next is answered 503 busy (TableReadsBound).
TABLE_READS_PER_PROCESS = int(os.environ.get("TABLE_READS_PER_PROCESS", "1"))
TABLE_READS_WAITING = int(os.environ.get("TABLE_READS_WAITING", "32"))
TABLE_READS = re.compile(r"/api/tables/[a-z0-9]{1,16}/(?:events/)?|/t/[a-z0-9]{1,16}(?:/live)?")
BUSY_RETRY_SECONDS = 1


class TableReadsBound:
    """Full reads of a table reach Django's thread in this process TABLE_READS_PER_PROCESS at a
    time; the others wait in the event loop (a coroutine each: no thread, no query), and past
    TABLE_READS_WAITING waiting one more is answered 503 `busy` with Retry-After, held like a 429
    (REFUSAL_HOLD_SECONDS), without reaching Django.

    Issue 30: a flood of reads of tables from many addresses (each within its own limit, so every
    read is real work) queued several reads in each process's thread, and GET /api/games/ waited
    behind all of them: its p99 went to 5-8 times the quiet one. Now any other request waits
    behind at most TABLE_READS_PER_PROCESS reads in its process, and a phone's read in a quiet
    moment waits for nothing. A read holds its place until its answer starts.

    Past its process's place, a read also takes one of the server's slots
    (config/read_slots.py): five processes each reading kept both cores busy, so the reads of all
    processes together are bounded too, and leave a core to every other request."""

    slots: asyncio.Semaphore | None = None
    waiting = 0

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] not in ("GET", "HEAD")
            or not TABLE_READS.fullmatch(scope["path"])
        ):
            await self.app(scope, receive, send)
            return
        # And one of the whole server's: TABLE_READS_AT_ONCE across its processes
        # (config/read_slots.py), when gunicorn made the folder for them.
        server = read_slots.server_slots()
        if TableReadsBound.slots is None:  # made in the process's own event loop
            TableReadsBound.slots = asyncio.Semaphore(TABLE_READS_PER_PROCESS)
        slots = TableReadsBound.slots
        if slots.locked():
            if TableReadsBound.waiting >= TABLE_READS_WAITING:
                await busy(scope, send)
                return
            TableReadsBound.waiting += 1
            try:
                await slots.acquire()
            finally:
                TableReadsBound.waiting -= 1
        else:
            await slots.acquire()
        held = True
        server_slot: int | None = None

        def release() -> None:
            nonlocal held
            held = False
            if server is not None and server_slot is not None:
                server.give_back(server_slot)
            slots.release()

        async def releasing_send(message: Message) -> None:
            if held and message["type"] == "http.response.start":
                release()
            await send(message)

        try:
            if server is not None:
                # The process's own place first, then one of the server's: only one read of
                # each process waits for the server's slots.
                server_slot = await server.take()
            await self.app(scope, receive, releasing_send)
        finally:
            if held:
                release()


async def busy(scope: Scope, send: Send) -> None:
    """The 503 of a read past the reads waiting: API.md's error body for the API, a line of text
    for a page; held as a 429 is, so a client that floods sends one a second per connection."""
    if scope["path"].startswith("/api/"):
        body = json.dumps(
            {
                "status": 503,
                "code": "busy",
                "detail": (
                    "The server is busy reading other tables: read this one again in "
                    f"{BUSY_RETRY_SECONDS} s."
                ),
                "errors": [],
            }
        ).encode()
        kind = b"application/json"
    else:
        body = (
            b"<!doctype html><title>Busy</title><p>The server is busy reading other tables: "
            b"this page reloads in a moment (or reload it).</p>"
        )
        kind = b"text/html; charset=utf-8"
    await asyncio.sleep(min(REFUSAL_HOLD_SECONDS, BUSY_RETRY_SECONDS))
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", kind),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(BUSY_RETRY_SECONDS).encode()),
                (b"cache-control", b"no-store"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body if scope["method"] == "GET" else b""})


# The bound inside HeldRefusals: a read refused 429 leaves its place as soon as Django answers,
# not after the refusal is held. a2wsgi types the scope and messages as asgiref's TypedDicts;
# these layers hand them on as they came, so Django's application is one of theirs.
application = TablePolls(
    BodyLimit(HeldRefusals(TableReadsBound(cast(ASGIApp, django_application))))
)
