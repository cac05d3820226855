"""Two phones acting at once never lose an update (issue 25): real concurrent requests against
several app processes (gunicorn, three workers) sharing one database, not a mock. On SQLite by
default (a database file of its own); under `scripts/with-postgres` (DATABASE_URL set to
PostgreSQL) the same test runs against PostgreSQL.

Each scenario releases its requests together (a barrier) and then checks the table: exactly one
of several events naming the same version applies, the others are 409s holding the current table;
and three seats entering their hands at once, each retrying on a 409 with the version it was
given, all end up in the state, with one event per version."""

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOMALAK = ["Commander Tomalak", "Captain Jean-Luc Picard", "Commander William Riker",
           "Lieutenant Commander Data"]  # 13
HOLODECK = ["Holodeck 1", "Leah Brahms"]  # 13
CONFRONTATION = ["Space Confrontation", "Daimon Bok", "Daimon Tog", "Vice Admiral Nakamura"]  # 12
WORKERS = 3


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        url = f"sqlite:///{tmp_path_factory.mktemp('tables') / 'tables.sqlite3'}"
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings.test",
           "WEB_CONCURRENCY": str(WORKERS), "GUNICORN_ACCESS_LOG": "/dev/null"}
    python = sys.executable
    for command in (["migrate", "--noinput", "-v0"], ["load_catalog", "-v0"]):
        subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True)
    port = free_port()
    env["PORT"] = str(port)
    process = subprocess.Popen(
        [str(Path(python).parent / "gunicorn"), "-c", "config/gunicorn.py", "config.wsgi"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/api/games/", timeout=2):
                break
        except OSError:
            time.sleep(0.3)
    else:
        process.terminate()
        pytest.fail("the app server did not start")
    yield base
    process.terminate()
    process.wait(timeout=20)


def call(base: str, method: str, path: str, data=None, token=None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    body = json.dumps(data).encode() if data is not None else None
    request = urllib.request.Request(base + path, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def together(jobs):
    """Run the jobs in threads released at the same moment; their answers in order."""
    barrier = threading.Barrier(len(jobs))
    answers: list = [None] * len(jobs)

    def run(index, job):
        barrier.wait()
        answers[index] = job()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def new_table(base):
    status, table = call(base, "POST", "/api/tables/",
                         {"game": "star-trek-missions", "players": ["Ana", "Ben", "Cy"]})
    assert status == 201, table
    return table


def test_of_events_naming_one_version_exactly_one_applies(server):
    table = new_table(server)
    code, host, version = table["code"], table["host_token"], table["version"]
    hands = {1: TOMALAK, 2: HOLODECK, 3: CONFRONTATION}
    answers = together([
        (lambda seat=seat: call(server, "POST", f"/api/tables/{code}/events/",
                                {"kind": "hand", "seat": seat, "version": version,
                                 "body": {"hand": hands[seat]}}, host))
        for seat in (1, 2, 3)
    ])
    statuses = sorted(status for status, _ in answers)
    assert statuses == [201, 409, 409], answers
    _, winner = next(answer for answer in answers if answer[0] == 201)
    for status, payload in answers:
        if status == 409:
            assert payload["code"] == "version_conflict"
            assert payload["table"]["version"] == version + 1
    _, now = call(server, "GET", f"/api/tables/{code}/")
    assert now["version"] == version + 1
    assert [e["seat"] for e in now["events"]] == [winner["event"]["seat"]]
    assert sum(total is not None for total in now["state"]["hands"]) == 1


def test_three_phones_entering_hands_at_once_lose_none(server):
    table = new_table(server)
    code = table["code"]
    tokens = {}
    for seat in (1, 2, 3):
        status, claimed = call(server, "POST", f"/api/tables/{code}/seats/{seat}/claim/")
        assert status == 201
        tokens[seat] = claimed["seat_token"]
    _, start = call(server, "GET", f"/api/tables/{code}/")
    hands = {1: TOMALAK, 2: HOLODECK, 3: CONFRONTATION}

    def phone(seat):
        version, conflicts = start["version"], 0
        while True:  # what the page does: on a 409, decide again on the table it was given
            status, payload = call(server, "POST", f"/api/tables/{code}/events/",
                                   {"kind": "hand", "seat": seat, "version": version,
                                    "body": {"hand": hands[seat]}}, tokens[seat])
            if status != 409:
                return status, conflicts
            conflicts += 1
            version = payload["table"]["version"]

    answers = together([lambda seat=seat: phone(seat) for seat in (1, 2, 3)])
    assert [status for status, _ in answers] == [201, 201, 201], answers
    _, final = call(server, "GET", f"/api/tables/{code}/")
    assert final["state"]["hands"] == [13, 13, 12]
    assert final["state"]["winners"] == ["Ana", "Ben"]
    versions = [event["version"] for event in final["events"]]
    assert len(versions) == 3 and len(set(versions)) == 3
    assert final["version"] == start["version"] + 3
