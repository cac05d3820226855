"""Bad-input benchmark: the slowest requests an attacker could send, next to a normal one.

Run with `make bench`. Each request goes through the whole Django stack in-process (middleware,
parsing, name resolution, the service, the error body), on its own SQLite database in the temp
folder (or BENCH_DATABASE_URL), under the test settings (whose throttle rate is out of the way). Before the bound of issue 12, the
60 long names took 12.4 s, the one 60,000-character name 8.7 s and the fuzzy GET 1.3 s.

Printed per request: its body size, status, and the median and worst of BENCH_BAD_RUNS runs
(after one unmeasured warm-up run).
"""

from __future__ import annotations

import json
import logging
import os
import random
import string
import time

import harness  # bench/harness.py: this folder is first on sys.path until harness.start()

harness.start("tableside-bench-bad.sqlite3")

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from cards.services import catalog_load  # noqa: E402

RUNS = int(os.environ.get("BENCH_BAD_RUNS", "5"))
SCORE = "/api/games/star-trek-missions/score/"
RULING = "/api/games/academy-credits/rulings/"


def random_text(rng: random.Random, length: int) -> str:
    return "".join(rng.choice(string.ascii_letters + string.digits + " ") for _ in range(length))


def requests(rng: random.Random) -> list[tuple[str, str, str, bytes | dict]]:
    """(label, method, url, body or query)."""
    normal = {"hand": ["Lieutenant Worf", "Commander Kurn", "Ambassador K'Ehleyr",
                       "Commander Sela", "Diplomatic Conference", "Photon Torpedoes", "Bridge"]}
    long_names = {"hand": [random_text(rng, 1_000) for _ in range(60)]}
    one_name = {"hand": [random_text(rng, 60_000)]}
    # Names just within the length limit (3x the longest), as many as a hand may list: the most
    # fuzzy work a body can still ask for.
    within = {"hand": [random_text(rng, 78) for _ in range(74)]}
    typos = {"hand": [name[:-1] + "x" for name in normal["hand"]] * 10}
    surrogates = '{"hand": [' + ", ".join(['"Ana\\ud800"'] * 4000) + "]}"
    return [
        ("normal: score the rulebook's hand", "POST", SCORE, json.dumps(normal).encode()),
        ("60 names x 1,000 random characters", "POST", SCORE, json.dumps(long_names).encode()),
        ("one name of 60,000 characters", "POST", SCORE, json.dumps(one_name).encode()),
        ("74 random names of 78 characters", "POST", SCORE, json.dumps(within).encode()),
        ("70 names with a typo each", "POST", SCORE, json.dumps(typos).encode()),
        ("4,000 lone surrogates", "POST", SCORE, surrogates.encode()),
        ("normal: GET named/?fuzzy=jet renno", "GET",
         "/api/games/academy-credits/cards/named/", {"fuzzy": "jet renno"}),
        ("GET named/?fuzzy=<4,000 characters>", "GET",
         "/api/games/academy-credits/cards/named/", {"fuzzy": random_text(rng, 4_000)}),
        ("normal: GET /api/games/", "GET", "/api/games/", {}),
    ]


def main() -> None:
    call_command("migrate", verbosity=0)
    catalog_load()
    logging.getLogger("django.request").setLevel(logging.ERROR)  # a 400 is the expected answer
    client = Client()
    rng = random.Random(12)
    print(f"Bad input, in-process, SQLite unless BENCH_DATABASE_URL; {RUNS} runs each.")
    print(f"{'request':<40} {'bytes':>7} {'status':>6} {'p50 ms':>8} {'max ms':>8}")
    worst = 0.0
    for label, method, url, payload in requests(rng):
        times, status = [], None
        size = len(payload) if isinstance(payload, bytes) else len(json.dumps(payload))
        for run in range(RUNS + 1):  # the first run warms up and is not counted
            start = time.perf_counter()
            if method == "POST":
                response = client.post(url, payload, content_type="application/json")
            else:
                assert isinstance(payload, dict)  # a GET's query
                response = client.get(url, payload)
            if run:
                times.append((time.perf_counter() - start) * 1000)
            status = response.status_code
        times.sort()
        if not label.startswith("normal"):
            worst = max(worst, times[-1])
        print(f"{label:<40} {size:>7} {status:>6} {times[len(times) // 2]:>8.1f} {times[-1]:>8.1f}")
    print(f"Slowest bad-input request: {worst:.1f} ms (target: well under 1,000 ms).")


if __name__ == "__main__":
    main()
