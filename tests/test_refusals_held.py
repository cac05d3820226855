"""A refusal (429) is held a moment before it is sent, by the event loop, not by Django's thread
(config/asgi.py's HeldRefusals; issue 30): a client flooding with refused requests sends one a
second per connection, and everything else is answered meanwhile."""

from __future__ import annotations

import asyncio

import pytest

import config.asgi as served
from config.asgi import HeldRefusals, refusal_hold
from tests.event_loop import run


def test_a_refusal_is_held_at_most_its_retry_after(monkeypatch):
    monkeypatch.setattr(served, "REFUSAL_HOLD_SECONDS", 1.0)
    assert refusal_hold([(b"retry-after", b"30")]) == 1.0
    assert refusal_hold([(b"Retry-After", b"0")]) == 0.0
    assert refusal_hold([]) == 1.0
    assert refusal_hold([(b"retry-after", b"Wed, 21 Oct 2026 07:28:00 GMT")]) == 1.0


def run_together(app, paths: list[str]) -> list[str]:
    """Each path requested at once through `app`; the events in the order they happened."""
    events: list[str] = []

    async def one(path: str) -> None:
        scope = {"type": "http", "method": "POST", "path": path, "headers": []}

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            if message["type"] == "http.response.start":
                events.append(f"{path} sent {message['status']}")

        await app(scope, receive, send)

    async def main():
        await asyncio.gather(*(one(path) for path in paths))

    run(main())
    return events


@pytest.mark.parametrize("hold", [0.2, 0.0])
def test_a_held_refusal_holds_nobody_else(monkeypatch, hold):
    monkeypatch.setattr(served, "REFUSAL_HOLD_SECONDS", hold)

    async def django(scope, receive, send):  # stands for Django's handler: answers at once
        status = 429 if scope["path"] == "/refused" else 200
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"retry-after", b"12")] if status == 429 else [],
            }
        )
        await send({"type": "http.response.body", "body": b""})

    events = run_together(HeldRefusals(django), ["/refused", "/games"])
    if hold:
        # The refusal was decided first, but the other request's answer went out before it.
        assert events == ["/games sent 200", "/refused sent 429"]
    else:  # REFUSAL_HOLD_SECONDS=0: sent as soon as decided
        assert events == ["/refused sent 429", "/games sent 200"]
