"""Star Trek: Missions scoring benchmark: random legal hands through the engine and through the API.

Run with `make bench`. The engine part scores 10,000 random legal hands (BENCH_STM_HANDS) and
prints hands per second on one core, for hands without choice cards and for all hands, with p50
and p99 per hand. The API part posts 1,000 of them (BENCH_STM_API_HANDS) to
POST /api/games/star-trek-missions/score/ through the whole Django stack in-process (parsing,
name resolution, scoring, saving the result), on its own SQLite database in the temp folder.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as `python bench/<name>.py`, this folder comes first on sys.path, where bench/http.py would
# hide the standard library's http package: put the project there instead.
if sys.path and Path(sys.path[0]).resolve() == ROOT / "bench":
    sys.path.pop(0)
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
os.environ["DATABASE_URL"] = os.environ.get(
    "BENCH_DATABASE_URL", f"sqlite:///{Path(tempfile.gettempdir()) / 'tableside-bench-stm.sqlite3'}"
)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from cards.models import Game  # noqa: E402
from cards.services import catalog_load  # noqa: E402
from scoring.engines.star_trek_missions import score_hand  # noqa: E402
from scoring.services.star_trek_missions import card_spec, vocabulary_and_labels  # noqa: E402

ENGINE_HANDS = int(os.environ.get("BENCH_STM_HANDS", "10000"))
API_HANDS = int(os.environ.get("BENCH_STM_API_HANDS", "1000"))
CHOICE_EFFECTS = {"wild", "change_affiliation", "assimilate", "choose", "copy_score"}


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def random_hands(specs, count: int, rng: random.Random):
    galaxy = [s for s in specs if s.deck == "galaxy"]
    missions = [s for s in specs if s.deck == "mission" and not _effects(s) & {"hand_size"}]
    for _ in range(count):
        n_missions = rng.choice([1, 2])
        yield rng.sample(galaxy, 7 - n_missions) + rng.sample(missions, n_missions)


def _effects(spec) -> set[str]:
    return {e["kind"] for e in (spec.rule or {}).get("effects", [])}


def main() -> None:
    call_command("migrate", verbosity=0)
    catalog_load(directory=settings.CATALOG_DIR)
    game = Game.objects.get(slug="star-trek-missions")
    specs = [card_spec(card) for card in game.cards.all()]
    vocabulary, labels = vocabulary_and_labels(game)
    rng = random.Random(2026)

    hands = list(random_hands(specs, ENGINE_HANDS, rng))
    plain, chosen = [], []
    for hand in hands:
        started = time.perf_counter()
        score_hand(hand, vocabulary=vocabulary, labels=labels)
        elapsed = (time.perf_counter() - started) * 1000
        (chosen if any(_effects(s) & CHOICE_EFFECTS for s in hand) else plain).append(elapsed)
    every = plain + chosen
    print(f"Engine: {len(hands)} random legal hands, one core")
    print(f"{'hands':<26}{'count':>7}{'hands/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for label, times in (("without choice cards", plain), ("with choice cards", chosen), ("all", every)):
        print(f"{label:<26}{len(times):>7}{len(times) / (sum(times) / 1000):>10.0f}"
              f"{percentile(times, 0.5):>9.2f}{percentile(times, 0.99):>9.2f}{max(times):>9.2f}")

    client = Client()
    api_times = []
    for hand in hands[:API_HANDS]:
        body = json.dumps({"hand": [s.name for s in hand]})
        started = time.perf_counter()
        response = client.post("/api/games/star-trek-missions/score/", body,
                               content_type="application/json")
        api_times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.content[:300]
    print(f"\nAPI: {len(api_times)} hands through POST /api/games/star-trek-missions/score/ "
          f"(in-process, {os.environ['DATABASE_URL'].split(':')[0]})")
    print(f"hands/s {len(api_times) / (sum(api_times) / 1000):.0f}   p50 {percentile(api_times, 0.5):.2f} ms"
          f"   p99 {percentile(api_times, 0.99):.2f} ms   max {max(api_times):.2f} ms")


if __name__ == "__main__":
    main()
