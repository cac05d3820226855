"""Phones acting at once never lose an update, and a seat's own entry is never refused for
another seat's (issue 25, issue 29): real concurrent requests against several app processes
(gunicorn, three workers) sharing one database, not a mock. On SQLite by default (a database file
of its own); under `scripts/with-postgres` (DATABASE_URL set to PostgreSQL) the same test runs
against PostgreSQL.

Each scenario releases its requests together (a barrier) and then checks the table: eight seats
entering their own hands in the same moment are all recorded, without any client retrying, and the
standings are the stateless whole-table score's; changes that do overlap (the same seat's entry
sent three times on one version) are applied once, the others are 409s naming that change; an
entry sent again with its key (Idempotency-Key) is recorded once."""

import json
import threading
import urllib.error
import urllib.request

TOMALAK = [
    "Commander Tomalak",
    "Captain Jean-Luc Picard",
    "Commander William Riker",
    "Lieutenant Commander Data",
]  # 13
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
    status, table = call(
        base,
        "POST",
        "/api/tables/",
        {"game": "star-trek-missions", "players": ["Ana", "Ben", "Cy"]},
    )
    assert status == 201, table
    return table


# Eight hands of seven cards (six Galaxy cards and a Mission, the last two Missions), no card in
# two hands: the catalog's order, leaving out the cards whose text asks for a choice.
EIGHT_HANDS = [
    [
        "Ambassador K'Ehleyr",
        "Ambassador Sarek",
        "Bat'leth",
        "Bridge",
        "Captain Jean-Luc Picard",
        "Chancellor Gowron",
        "Away Team",
    ],
    [
        "Commander Bruce Maddox",
        "Commander Kurn",
        "Commander Sela",
        "Commander Tomalak",
        "Commander William Riker",
        "Computer",
        "Computer Virus",
    ],
    [
        "Counselor Deanna Troi",
        "Crystal Entity",
        "Daimon Bok",
        "Daimon Tog",
        "Doctor Beverly Crusher",
        "Engine Room",
        "Conflicting Orders",
    ],
    [
        "Hand Phaser",
        "Holodeck 1",
        "Holodeck 2",
        "James Moriarty",
        "Leah Brahms",
        "Lieutenant Commander Data",
        "Diplomatic Conference",
    ],
    [
        "Lieutenant Geordi La Forge",
        "Lieutenant Worf",
        "Lore",
        "Lursa and B'Etor",
        "Lwaxana Troi",
        "Minuet",
        "Distress Call",
    ],
    [
        "Photon Torpedoes",
        "Quarters",
        "Shields",
        "Sickbay",
        "Sovak",
        "Spock",
        "Do Machines Have Rights?",
    ],
    [
        "Stone of Gol",
        "Ten-Forward",
        "The Traveler",
        "Tolian Soran",
        "Tox Uthat",
        "Tractor Beam",
        "Enemies to Friends",
    ],
    [
        "Transporter",
        "Tricorder",
        "Turbolift",
        "Vash",
        "Vice Admiral Nakamura",
        "Enterprise Goes Haywire",
        "Ethical Dilemma",
    ],
]
EIGHT = ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"]


def test_the_same_seats_entry_sent_three_times_on_one_version_applies_once(tables_site):
    table = new_table(tables_site)
    code, host, version = table["code"], table["host_token"], table["version"]
    hands = [TOMALAK, HOLODECK, CONFRONTATION]
    answers = together(
        [
            (
                lambda hand=hand: call(
                    tables_site,
                    "POST",
                    f"/api/tables/{code}/events/",
                    {"kind": "hand", "seat": 1, "version": version, "body": {"hand": hand}},
                    host,
                )
            )
            for hand in hands
        ]
    )
    statuses = sorted(status for status, _ in answers)
    assert statuses == [201, 409, 409], answers
    _, winner = next(answer for answer in answers if answer[0] == 201)
    for status, payload in answers:
        if status == 409:
            assert payload["code"] == "version_conflict"
            assert payload["table"]["version"] == version + 1
            # The change that overlaps: seat 1's entry, the one that was applied.
            assert [
                (entry["code"], entry["event"], entry["seat"]) for entry in payload["errors"]
            ] == [("changed_since", winner["event"]["n"], 1)]
    _, now = call(tables_site, "GET", f"/api/tables/{code}/")
    assert now["version"] == version + 1
    assert [e["seat"] for e in now["events"]] == [1]
    assert sum(total is not None for total in now["state"]["hands"]) == 1


def test_eight_seats_entering_their_hands_in_one_moment_are_all_recorded(tables_site):
    status, table = call(
        tables_site, "POST", "/api/tables/", {"game": "star-trek-missions", "players": EIGHT}
    )
    assert status == 201, table
    code = table["code"]
    tokens = {}
    for seat in range(1, 9):
        status, claimed = call(tables_site, "POST", f"/api/tables/{code}/seats/{seat}/claim/")
        assert status == 201
        tokens[seat] = claimed["seat_token"]
    _, start = call(tables_site, "GET", f"/api/tables/{code}/")

    def phone(seat):
        # The odd seats name the version they read (the same one for all), the even seats none:
        # neither is refused for another seat's entry. No retry: one request each.
        event = {"kind": "hand", "seat": seat, "body": {"hand": EIGHT_HANDS[seat - 1]}}
        if seat % 2:
            event["version"] = start["version"]
        return call(tables_site, "POST", f"/api/tables/{code}/events/", event, tokens[seat])

    answers = together([lambda seat=seat: phone(seat) for seat in range(1, 9)])
    assert [status for status, _ in answers] == [201] * 8, answers
    _, final = call(tables_site, "GET", f"/api/tables/{code}/")
    assert sorted(event["seat"] for event in final["events"]) == list(range(1, 9))
    versions = [event["version"] for event in final["events"]]
    assert len(set(versions)) == 8
    assert final["version"] == start["version"] + 8
    # The standings are the stateless whole-table score of the eight hands, whatever the order.
    status, whole = call(
        tables_site,
        "POST",
        "/api/games/star-trek-missions/score/",
        {
            "players": [
                {"name": name, "hand": hand} for name, hand in zip(EIGHT, EIGHT_HANDS, strict=True)
            ]
        },
    )
    assert status == 200, whole
    assert final["state"]["standings"] == whole["standings"]
    assert final["state"]["winners"] == whole["winners"]
    assert final["state"]["hands"] == [row["total"] for row in whole["players"]]


def test_an_entry_sent_four_times_with_its_key_is_recorded_once(tables_site):
    table = new_table(tables_site)
    code = table["code"]
    status, claimed = call(tables_site, "POST", f"/api/tables/{code}/seats/2/claim/")
    assert status == 201

    def send():
        headers = {
            "Content-Type": "application/json",
            "Idempotency-Key": "entry-2-a",
            "Authorization": f"Bearer {claimed['seat_token']}",
        }
        request = urllib.request.Request(
            tables_site + f"/api/tables/{code}/events/",
            method="POST",
            headers=headers,
            data=json.dumps({"kind": "hand", "seat": 2, "body": {"hand": HOLODECK}}).encode(),
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return (
                response.status,
                response.headers.get("Idempotent-Replayed"),
                json.loads(response.read()),
            )

    answers = together([send for _ in range(4)])
    assert sorted(replayed or "" for _, replayed, _ in answers) == ["", "true", "true", "true"]
    assert {status for status, _, _ in answers} == {201}
    assert {payload["event"]["n"] for _, _, payload in answers} == {1}
    _, now = call(tables_site, "GET", f"/api/tables/{code}/")
    assert [event["seat"] for event in now["events"]] == [2]
    assert now["state"]["hands"][1] == 13
