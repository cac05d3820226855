"""Full reads of a table reach Django's thread one at a time in each process (config/asgi.py's
TableReadsBound; issue 30): the others wait in the event loop, so a request of any other kind
waits behind at most one read in its process, however many a flood sends; past the reads allowed
to wait, one more is a 503 `busy` with Retry-After. Read at once from several phones of a real
server (gunicorn, several processes), every read is answered."""

from __future__ import annotations

import asyncio
import json
import urllib.request

import pytest

import config.asgi as served
from config.asgi import TableReadsBound
from tests.event_loop import run
from tests.test_tables_concurrency import call, new_table, together


@pytest.fixture
def bound(monkeypatch):
    """One read in Django's thread, one waiting; a fresh semaphore (each test has a loop of its
    own); a busy answer sent at once."""
    monkeypatch.setattr(TableReadsBound, "slots", None)
    monkeypatch.setattr(TableReadsBound, "waiting", 0)
    monkeypatch.setattr(served, "TABLE_READS_PER_PROCESS", 1)
    monkeypatch.setattr(served, "TABLE_READS_WAITING", 1)
    monkeypatch.setattr(served, "REFUSAL_HOLD_SECONDS", 0.0)


def test_a_read_past_the_bound_waits_and_other_requests_pass_it(bound):
    events: list[str] = []
    answers: dict[str, tuple[int, dict, bytes]] = {}

    async def main():
        first_reached = asyncio.Event()
        first_may_answer = asyncio.Event()

        async def django(scope, receive, send):  # stands for Django's thread
            events.append(f"{scope['method']} {scope['path']} reached Django")
            if scope["path"] == "/api/tables/first/":
                first_reached.set()
                await first_may_answer.wait()
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"{}"})

        app = TableReadsBound(django)

        async def one(path: str, method: str = "GET") -> None:
            sent: dict = {}

            async def receive():
                return {"type": "http.request", "body": b"", "more_body": False}

            async def send(message):
                if message["type"] == "http.response.start":
                    sent["status"] = message["status"]
                    sent["headers"] = dict(message["headers"])
                    events.append(f"{method} {path} answered {message['status']}")
                else:
                    sent["body"] = message.get("body", b"")

            await app(
                {"type": "http", "method": method, "path": path, "headers": []}, receive, send
            )
            answers[f"{method} {path}"] = (sent["status"], sent["headers"], sent["body"])

        first = asyncio.create_task(one("/api/tables/first/"))
        await first_reached.wait()
        second = asyncio.create_task(one("/t/second/live"))
        while TableReadsBound.waiting < 1:  # the second read waits in the loop
            await asyncio.sleep(0)
        # Not a table's read (or not a read): straight on, past the waiting read.
        await one("/api/games/")
        await one("/api/tables/first/events/", method="POST")
        # One more read than may wait: 503 at once, never reaching Django.
        await one("/api/tables/third/events/")
        await one("/t/fourth")
        first_may_answer.set()
        await asyncio.gather(first, second)

    run(main())
    assert events == [
        "GET /api/tables/first/ reached Django",
        "GET /api/games/ reached Django",
        "GET /api/games/ answered 200",
        "POST /api/tables/first/events/ reached Django",
        "POST /api/tables/first/events/ answered 200",
        "GET /api/tables/third/events/ answered 503",
        "GET /t/fourth answered 503",
        "GET /api/tables/first/ answered 200",
        "GET /t/second/live reached Django",
        "GET /t/second/live answered 200",
    ]
    status, headers, body = answers["GET /api/tables/third/events/"]
    assert headers[b"retry-after"] == b"1" and headers[b"content-type"] == b"application/json"
    refused = json.loads(body)
    assert refused["status"] == 503 and refused["code"] == "busy" and refused["errors"] == []
    status, headers, body = answers["GET /t/fourth"]
    assert headers[b"retry-after"] == b"1" and b"busy" in body
    assert TableReadsBound.waiting == 0 and not TableReadsBound.slots.locked()


def test_a_read_that_fails_gives_its_place_back(bound):
    async def main():
        async def django(scope, receive, send):
            raise RuntimeError("the view failed before answering")

        app = TableReadsBound(django)
        for _ in range(3):
            with pytest.raises(RuntimeError):
                await app(
                    {"type": "http", "method": "GET", "path": "/t/abc", "headers": []}, None, None
                )
        assert not TableReadsBound.slots.locked()

    run(main())


def test_phones_reading_at_once_are_all_answered(tables_site):
    """Twenty-four reads of one table at once (the API's, the page, its polled part), across the
    server's processes: each waits its turn, none is refused, each shows the table."""
    code = new_table(tables_site)["code"]

    def page(path: str):
        def read() -> tuple[int, str]:
            with urllib.request.urlopen(tables_site + path, timeout=60) as response:
                return response.status, response.read().decode()

        return read

    jobs = [
        (lambda: call(tables_site, "GET", f"/api/tables/{code}/")),
        page(f"/t/{code}"),
        page(f"/t/{code}/live"),
    ] * 8
    answers = together(jobs)
    assert [status for status, _ in answers] == [200] * len(jobs), answers
    assert all(read["code"] == code for _, read in answers[0::3])
    assert all(f"/t/{code}/live" in text for _, text in answers[1::3])
    assert call(tables_site, "GET", "/api/games/")[0] == 200
