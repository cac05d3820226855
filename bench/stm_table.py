"""Star Trek: Missions, the whole table at game end: six-hand tables scored in one request.

Run with `make bench`. Each table is a random deal from the shuffled decks, as the rules deal
it: five Galaxy cards and two Missions to each of six players (so Unidentified Ship, Thought
Maker, Borg Cube and the other choice cards are in whichever hands the deal gives them; Meddlesome
Q, whose hand is nine cards, is left out of the deal). BENCH_STM_TABLES tables (default 300) go
through the score service (parsing, the table's checks, six hands scored, the result saved) and
the same tables through POST /api/games/star-trek-missions/score/ (the whole Django stack,
in-process), on their own SQLite database in the temp folder. Printed: tables per second, p50 and
p99 per table, and the same for the tables whose deal holds a choice card.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Iterator, Sequence
from typing import Any

import harness  # bench/harness.py: this folder is first on sys.path until harness.start()

harness.start("tableside-bench-stm-table.sqlite3")

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from cards.models import Card, Game  # noqa: E402
from cards.services import catalog_load  # noqa: E402
from games.services import score  # noqa: E402  (the one flow)

TABLES = int(os.environ.get("BENCH_STM_TABLES", "300"))
SEATS = 6
CHOICE_EFFECTS = {"wild", "change_affiliation", "assimilate", "choose", "copy_score"}


def _effects(card: Card) -> set[str]:
    return {e.get("kind") for e in (card.rule or {}).get("effects", [])}


def deals(cards: Sequence[Card], count: int, rng: random.Random) -> Iterator[dict[str, Any]]:
    galaxy = [c.name for c in cards if c.attributes.get("deck") == "galaxy"]
    missions = [
        c.name
        for c in cards
        if c.attributes.get("deck") == "mission" and "hand_size" not in _effects(c)
    ]
    for _ in range(count):
        rng.shuffle(galaxy)
        rng.shuffle(missions)
        yield {
            "players": [
                {
                    "name": f"Player {seat + 1}",
                    "hand": galaxy[5 * seat : 5 * seat + 5] + missions[2 * seat : 2 * seat + 2],
                }
                for seat in range(SEATS)
            ]
        }


def report(label: str, times: list[float]) -> None:
    if not times:
        print(f"{label:<34}{0:>7}")
        return
    print(
        f"{label:<34}{len(times):>7}{len(times) / (sum(times) / 1000):>10.1f}"
        f"{harness.percentile(times, 0.5):>9.2f}{harness.percentile(times, 0.99):>9.2f}{max(times):>9.2f}"
    )


def main() -> None:
    call_command("migrate", verbosity=0)
    catalog_load()
    game = Game.objects.get(slug="star-trek-missions")
    cards = list(game.cards.all())
    choosing = {c.name for c in cards if _effects(c) & CHOICE_EFFECTS}
    tables = list(deals(cards, TABLES, random.Random(2026)))
    with_choices = [any(set(p["hand"]) & choosing for p in t["players"]) for t in tables]
    held = sum(len(set(p["hand"]) & choosing) for t in tables for p in t["players"])
    print(
        f"Star Trek: Missions tables: {len(tables)} random deals of {SEATS} hands "
        f"({sum(with_choices)} with a choice card; {held} choice cards dealt in all)"
    )
    print(f"{'':<34}{'tables':>7}{'tables/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")

    service_times = []
    for body in tables:
        started = time.perf_counter()
        answer = score(game=game, body=body)
        service_times.append((time.perf_counter() - started) * 1000)
        assert len(answer["standings"]) == SEATS and answer["winners"]
    report("service, all tables", service_times)
    report(
        "service, tables with choice cards",
        [t for t, chosen in zip(service_times, with_choices, strict=True) if chosen],
    )

    client = Client()
    api_times = []
    for body in tables:
        payload = json.dumps(body)
        started = time.perf_counter()
        response = client.post(
            "/api/games/star-trek-missions/score/", payload, content_type="application/json"
        )
        api_times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.content[:300]
    report(f"API ({os.environ['DATABASE_URL'].split(':')[0]}), all tables", api_times)
    report(
        "API, tables with choice cards",
        [t for t, chosen in zip(api_times, with_choices, strict=True) if chosen],
    )


if __name__ == "__main__":
    main()
