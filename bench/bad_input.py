"""Bad-input benchmark: the slowest requests an attacker could send, next to a normal one.

Run with `make bench`. Each request goes through the whole Django stack in-process (middleware,
parsing, name resolution, the service, the error body), on its own SQLite database in the temp
folder (or BENCH_DATABASE_URL), under the test settings (whose throttle rate is out of the way). Before the bound of issue 12, the
60 long names took 12.4 s, the one 60,000-character name 8.7 s and the fuzzy GET 1.3 s.

Printed per request: its body size, status, and the median and worst of BENCH_BAD_RUNS runs
(after one unmeasured warm-up run).

Then the served cases (issue 22), against the production server as `make serve` runs it
(gunicorn -c config/gunicorn.py, production settings, BENCH_SERVED_WORKERS workers, default 2,
on its own SQLite file in the temp folder): GET /api/games/ while ten slow clients dribble their
headers and bodies (its worst latency); the 61 kB body of long nested keys, and one within the
depth cap, posted BENCH_SERVED_POSTS times (the workers' memory growth, from /proc); oversized
page forms (each answer's latency); and a page GET of a ten-player table, first and cached.
"""

from __future__ import annotations

import json
import logging
import os
import random
import secrets
import signal
import socket
import string
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import harness  # bench/harness.py: this folder is first on sys.path until harness.start()

harness.start("tableside-bench-bad.sqlite3")

# After start(): until then this folder's http.py hides the standard library's http package.
import urllib.error  # noqa: E402
import urllib.request  # noqa: E402

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from cards.services import catalog_load  # noqa: E402

RUNS = int(os.environ.get("BENCH_BAD_RUNS", "5"))
SCORE = "/api/games/star-trek-missions/score/"
RULING = "/api/games/academy-credits/rulings/"


def random_text(rng: random.Random, length: int) -> str:
    return "".join(rng.choice(string.ascii_letters + string.digits + " ") for _ in range(length))


def requests(rng: random.Random) -> list[tuple[str, str, str, bytes | dict[str, Any]]]:
    """(label, method, url, body or query)."""
    normal = {
        "hand": [
            "Lieutenant Worf",
            "Commander Kurn",
            "Ambassador K'Ehleyr",
            "Commander Sela",
            "Diplomatic Conference",
            "Photon Torpedoes",
            "Bridge",
        ]
    }
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
        (
            "normal: GET named/?fuzzy=jet renno",
            "GET",
            "/api/games/academy-credits/cards/named/",
            {"fuzzy": "jet renno"},
        ),
        (
            "GET named/?fuzzy=<4,000 characters>",
            "GET",
            "/api/games/academy-credits/cards/named/",
            {"fuzzy": random_text(rng, 4_000)},
        ),
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
    served()


# --- Served: the production server, slow clients, memory, page forms ---------------------------

# BENCH_SERVED_ROOT: serve another copy of the project (an older commit, for figures before).
ROOT = Path(os.environ.get("BENCH_SERVED_ROOT", Path(__file__).resolve().parent.parent))
BIN = Path(sys.executable).parent
WORKERS = int(os.environ.get("BENCH_SERVED_WORKERS", "2"))
POSTS = int(os.environ.get("BENCH_SERVED_POSTS", "20"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], str, int]:
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOCAL_HTTP": "1",
        "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
        "PORT": str(port),
        "WEB_CONCURRENCY": str(WORKERS),
        "GUNICORN_ACCESS_LOG": "/dev/null",
        "API_POST_RATE": "100000000/minute",
    }
    for command in (
        ["migrate", "--noinput", "-v0"],
        ["load_catalog"],
        ["collectstatic", "--noinput", "-v0"],
    ):
        subprocess.run(
            [BIN / "python", "manage.py", *command],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    log = open(folder / "serve.log", "w+")  # noqa: SIM115 - the server's, closed with it
    server = subprocess.Popen(
        [BIN / "gunicorn", "-c", "config/gunicorn.py"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/api/games/", timeout=2):
                return server, base, port
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the production server did not start; see {log.name}")


def worker_pids(server: subprocess.Popen[bytes]) -> list[int]:
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(
                line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line
            )
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(server.pid):
            found.append(int(status.parent.name))
    return found


def workers_rss_mb(server: subprocess.Popen[bytes]) -> float:
    total = 0
    for pid in worker_pids(server):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def timed(request: urllib.request.Request | str, timeout: float = 30) -> tuple[int, float]:
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        error.read()
        status = error.code
    except OSError:
        status = 0  # no answer within the timeout
    return status, (time.perf_counter() - start) * 1000


def dribble(port: int, head: bytes, drip: bytes, stop: threading.Event) -> None:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(head)
            while not stop.wait(1.0):
                sock.sendall(drip)
    except OSError:
        return


def slow_clients(base: str, port: int) -> None:
    stop = threading.Event()
    headers = (b"GET /api/games/ HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"X-Slow: 1\r\n")
    body = (
        b"POST /api/games/academy-credits/rulings/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n{",
        b" ",
    )
    clients = [
        threading.Thread(target=dribble, args=(port, *kind, stop), daemon=True)
        for kind in [headers] * 5 + [body] * 5
    ]
    for client in clients:
        client.start()
    time.sleep(2)
    times: list[tuple[int, float]] = []
    for _ in range(20):
        times.append(timed(base + "/api/games/", timeout=10))
        if sum(status != 200 for status, _ in times) == 3:
            break  # unanswered three times: the server is pinned
    stop.set()
    answered = [ms for status, ms in times if status == 200]
    worst = max(ms for _, ms in times)
    print(
        f"{'GET /api/games/ beside 10 slow clients':<52} answered {len(answered)}/{len(times)}"
        f" (10 s timeout), p50 {sorted(ms for _, ms in times)[len(times) // 2]:.1f} ms, "
        f"worst {worst:.1f} ms"
    )


def memory(server: subprocess.Popen[bytes], base: str) -> None:
    url = base + "/api/games/academy-credits/rulings/"
    reported = ('{"' + "k" * 150 + '":') * 200 + "[" + ",".join(["0"] * 15000) + "]" + "}" * 200
    within = ('{"' + "k" * 150 + '":') * 30 + "[" + ",".join(["0"] * 15000) + "]" + "}" * 30
    for _ in range(2 * WORKERS):  # every worker's first ruling imports and builds what it needs
        timed(
            urllib.request.Request(
                url, data=within.encode(), headers={"Content-Type": "application/json"}
            )
        )
    for label, body in (
        ("61 kB body, 200 levels of 150-character keys", reported),
        ("same, 30 levels (within the depth cap)", within),
    ):
        before = workers_rss_mb(server)
        results = [
            timed(
                urllib.request.Request(
                    url, data=body.encode(), headers={"Content-Type": "application/json"}
                )
            )
            for _ in range(POSTS)
        ]
        growth = workers_rss_mb(server) - before
        statuses = sorted({status for status, _ in results})
        print(
            f"{label:<52} x{POSTS}: status {statuses}, worst {max(ms for _, ms in results):.1f}"
            f" ms, workers' memory {growth:+.1f} MB"
        )


def page_forms(base: str) -> None:
    url = base + "/games/star-trek-missions/score/"
    for label, body in (
        ("page form: 2.6 MB of a=& pairs", b"a=&" * 870_000),
        ("page form: 60 kB of a=& pairs (20,000 fields)", b"a=&" * 20_000),
    ):
        results = [
            timed(
                urllib.request.Request(
                    url, data=body, headers={"Content-Type": "application/x-www-form-urlencoded"}
                )
            )
            for _ in range(5)
        ]
        print(
            f"{label:<52} status {sorted({s for s, _ in results})}, worst "
            f"{max(ms for _, ms in results):.1f} ms"
        )


def page_gets(base: str) -> None:
    """A ten-player table in the address: the first GET works it out, the same address again is
    answered from the cache of computed answers (web.computed)."""
    from urllib.parse import urlencode

    cards: list[dict[str, Any]] = []
    page: str | None = base + "/api/games/star-trek-missions/cards/?page_size=100"
    while page:
        with urllib.request.urlopen(page) as got:
            listing = json.load(got)
        cards += listing["results"]
        page = listing["next"]
    # Ten final hands of five Galaxy cards and two Missions each: the whole deck dealt.
    galaxy = sorted(card["name"] for card in cards if card.get("deck") == "galaxy")
    missions = sorted(card["name"] for card in cards if card.get("deck") != "galaxy")
    pairs = [("players", "10"), ("current", "0")]
    for seat in range(10):
        pairs.append((f"p{seat}-name", f"Player {seat}"))
        hand = galaxy[seat * 5 : seat * 5 + 5] + missions[seat * 2 : seat * 2 + 2]
        pairs += [(f"p{seat}-hand", name) for name in hand]
    url = base + "/games/star-trek-missions/table/?" + urlencode(pairs)
    # Each a new question (the first player's name differs): worked out every time.
    fresh = [timed(url.replace("Player+0", f"Player+0+{run}")) for run in range(10)]
    again = [timed(url) for _ in range(11)][1:]  # the first of these fills the cache
    for label, runs in (
        ("page GET: ten-player table, a new one each time", fresh),
        ("page GET: the same ten-player table again", again),
    ):
        times = sorted(ms for _, ms in runs)
        print(
            f"{label:<52} status {sorted({s for s, _ in runs})}, p50 {times[5]:.1f} ms, "
            f"worst {times[-1]:.1f} ms"
        )


def served() -> None:
    print()
    print(
        f"Served: gunicorn -c config/gunicorn.py, production settings, {WORKERS} workers, SQLite."
    )
    with tempfile.TemporaryDirectory(prefix="tableside-bench-served-") as folder:
        server, base, port = start_server(Path(folder))
        try:
            print(f"{'workers at rest':<52} {workers_rss_mb(server):.1f} MB")
            slow_clients(base, port)
            memory(server, base)
            page_forms(base)
            page_gets(base)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
