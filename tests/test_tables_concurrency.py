"""Two phones acting at once never lose an update (issue 25): real concurrent requests against
several app processes (gunicorn, three workers) sharing one database, not a mock. On SQLite by
default (a database file of its own); under `scripts/with-postgres` (DATABASE_URL set to
PostgreSQL) the same test runs against PostgreSQL.

Each scenario releases its requests together (a barrier) and then checks the table: exactly one
of several events naming the same version applies, the others are 409s holding the current table;
and three seats entering their hands at once, each retrying on a 409 with the version it was
given, all end up in the state, with one event per version."""

import json
import threading
import urllib.error
import urllib.request

TOMALAK = ["Commander Tomalak", "Captain Jean-Luc Picard", "Commander William Riker",
           "Lieutenant Commander Data"]  # 13
HOLODECK = ["Holodeck 1", "Leah Brahms"]  # 13
CONFRONTATION = ["Space Confrontation", "Daimon Bok", "Daimon Tog", "Vice Admiral Nakamura"]  # 12


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


def test_of_events_naming_one_version_exactly_one_applies(tables_site):
    table = new_table(tables_site)
    code, host, version = table["code"], table["host_token"], table["version"]
    hands = {1: TOMALAK, 2: HOLODECK, 3: CONFRONTATION}
    answers = together([
        (lambda seat=seat: call(tables_site, "POST", f"/api/tables/{code}/events/",
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
    _, now = call(tables_site, "GET", f"/api/tables/{code}/")
    assert now["version"] == version + 1
    assert [e["seat"] for e in now["events"]] == [winner["event"]["seat"]]
    assert sum(total is not None for total in now["state"]["hands"]) == 1


def test_three_phones_entering_hands_at_once_lose_none(tables_site):
    table = new_table(tables_site)
    code = table["code"]
    tokens = {}
    for seat in (1, 2, 3):
        status, claimed = call(tables_site, "POST", f"/api/tables/{code}/seats/{seat}/claim/")
        assert status == 201
        tokens[seat] = claimed["seat_token"]
    _, start = call(tables_site, "GET", f"/api/tables/{code}/")
    hands = {1: TOMALAK, 2: HOLODECK, 3: CONFRONTATION}

    def phone(seat):
        version, conflicts = start["version"], 0
        while True:  # what the page does: on a 409, decide again on the table it was given
            status, payload = call(tables_site, "POST", f"/api/tables/{code}/events/",
                                   {"kind": "hand", "seat": seat, "version": version,
                                    "body": {"hand": hands[seat]}}, tokens[seat])
            if status != 409:
                return status, conflicts
            conflicts += 1
            version = payload["table"]["version"]

    answers = together([lambda seat=seat: phone(seat) for seat in (1, 2, 3)])
    assert [status for status, _ in answers] == [201, 201, 201], answers
    _, final = call(tables_site, "GET", f"/api/tables/{code}/")
    assert final["state"]["hands"] == [13, 13, 12]
    assert final["state"]["winners"] == ["Ana", "Ben"]
    versions = [event["version"] for event in final["events"]]
    assert len(versions) == 3 and len(set(versions)) == 3
    assert final["version"] == start["version"] + 3
