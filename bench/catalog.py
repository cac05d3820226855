"""Catalog benchmark: 100,000 synthetic cards, then p50/p95 latency of searches and filtered lists.

Run with `make bench`. It uses its own database: a SQLite file in the system temp folder, or the
database named by BENCH_DATABASE_URL (e.g. a PostgreSQL one). Requests go through the whole Django
stack in-process (URL routing, view, serializer, JSON rendering), so the figures are the server's
own time per request, without network or HTTP-server overhead.
"""

from __future__ import annotations

import os
import random
import statistics
import time

import harness  # bench/harness.py: this folder is first on sys.path until harness.start()

harness.start("tableside-bench.sqlite3")

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402

from cards.models import AttributeDefinition, Card, CardAttributeValue, Game  # noqa: E402

CARDS = int(os.environ.get("BENCH_CARDS", "100000"))
REQUESTS = int(os.environ.get("BENCH_REQUESTS", "200"))
SLUG = "bench-game"
FACTIONS = ["red", "blue", "green", "gold", "grey", "violet"]
TYPES = ["ship", "base", "crew", "event"]
WORDS = (
    "star fleet shield cannon trader scout pilot nebula comet harbour raider beacon "
    "engine drone relay vault lancer frigate corvette outpost"
).split()


def fill() -> Game:
    game = Game.objects.filter(slug=SLUG).first()
    if game and game.cards.count() == CARDS:
        return game
    if game:
        game.cards.all().delete()
        game.delete()
    rng = random.Random(7)
    game = Game.objects.create(slug=SLUG, name="Benchmark Game", min_players=2, max_players=4)
    AttributeDefinition.objects.bulk_create(
        [
            AttributeDefinition(
                game=game,
                key="faction",
                label="Faction",
                kind="choice",
                choices=[{"value": f, "label": f.title()} for f in FACTIONS],
                position=0,
            ),
            AttributeDefinition(
                game=game,
                key="type",
                label="Type",
                kind="multi_choice",
                choices=[{"value": t, "label": t.title()} for t in TYPES],
                position=1,
            ),
            AttributeDefinition(
                game=game, key="cost", label="Cost", kind="integer", min_value=0, position=2
            ),
        ]
    )
    batch = 5000
    for start in range(0, CARDS, batch):
        cards = []
        for n in range(start, min(start + batch, CARDS)):
            words = rng.sample(WORDS, 3)
            attributes = {
                "faction": rng.choice(FACTIONS),
                "type": rng.sample(TYPES, rng.randint(1, 2)),
                "cost": rng.randint(0, 10),
            }
            cards.append(
                Card(
                    game=game,
                    name=f"{words[0].title()} {words[1].title()} {n:06d}",
                    slug=f"card-{n:06d}",
                    copies=rng.randint(1, 4),
                    attributes=attributes,
                    field_provenance={"copies": "verified"},
                    provenance="verified",
                    text=f"Gain {rng.randint(1, 5)} {words[2]} for each other {words[0]}.",
                )
            )
        with transaction.atomic():
            created = Card.objects.bulk_create(cards)
            CardAttributeValue.objects.bulk_create(
                [
                    CardAttributeValue(card=card, key=key, value=str(v))
                    for card in created
                    for key, value in card.attributes.items()
                    for v in (value if isinstance(value, list) else [value])
                ]
            )
        print(f"  filled {min(start + batch, CARDS):>7} cards", end="\r", flush=True)
    print()
    if connection.vendor == "postgresql":
        # What autovacuum does to a long-lived database: planner statistics, and a visibility map
        # so index-only scans need not visit the table.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    return game


def measure(client: Client, urls: list[str]) -> tuple[float, float]:
    timings = []
    for url in urls:
        started = time.perf_counter()
        response = client.get(url)
        timings.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, (url, response.status_code, response.content[:300])
    timings.sort()
    return statistics.median(timings), timings[int(len(timings) * 0.95) - 1]


def main() -> None:
    print(f"Database: {connection.vendor} ({connection.settings_dict['NAME']})")
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    fill()
    print(f"{CARDS} cards ready in {time.perf_counter() - started:.1f} s")
    rng = random.Random(11)
    base = f"/api/games/{SLUG}/cards/"
    scenarios = {
        "search (q, name and text)": [f"{base}?q={rng.choice(WORDS)}" for _ in range(REQUESTS)],
        "search, rare word + filter": [
            f"{base}?q={rng.choice(WORDS)}%20{rng.choice(WORDS)}&faction={rng.choice(FACTIONS)}"
            for _ in range(REQUESTS)
        ],
        "filtered list (faction)": [
            f"{base}?faction={rng.choice(FACTIONS)}" for _ in range(REQUESTS)
        ],
        "filtered list (faction+type+cost)": [
            f"{base}?faction={rng.choice(FACTIONS)}&type={rng.choice(TYPES)}&cost={rng.randint(0, 10)}"
            for _ in range(REQUESTS)
        ],
        "ordered list (-cost), page 3": [f"{base}?ordering=-cost&page=3" for _ in range(REQUESTS)],
        "autocomplete": [
            f"/api/games/{SLUG}/cards/autocomplete/?q={rng.choice(WORDS)[:3]}"
            for _ in range(REQUESTS)
        ],
    }
    client = Client()
    client.get(base)  # warm caches and connections
    print(f"\n{'request':<36}{'p50 ms':>9}{'p95 ms':>9}   ({REQUESTS} requests each)")
    for label, urls in scenarios.items():
        p50, p95 = measure(client, urls)
        print(f"{label:<36}{p50:>9.1f}{p95:>9.1f}")


if __name__ == "__main__":
    main()
