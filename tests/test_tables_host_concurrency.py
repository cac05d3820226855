"""A handover racing other changes (real concurrent requests against several app processes, as
tests/test_tables_concurrency.py; SQLite by default, PostgreSQL under scripts/with-postgres): of a
handover to seat 2, one to seat 3 and the undo of the last entry, all naming the version the host
read, exactly one applies; the others are refused (409 holding the current table, or 403 once
the token is no longer the host's) and change nothing."""

from tests.test_tables_concurrency import TOMALAK, call, new_table, together


def test_a_handover_and_other_host_acts_naming_one_version_exactly_one_applies(tables_site):
    table = new_table(tables_site)
    code, host = table["code"], table["host_token"]
    tokens = {
        seat: call(tables_site, "POST", f"/api/tables/{code}/seats/{seat}/claim/")[1]["seat_token"]
        for seat in (1, 2, 3)
    }
    status, _ = call(
        tables_site,
        "POST",
        f"/api/tables/{code}/events/",
        {
            "kind": "hand",
            "seat": 1,
            "version": call(tables_site, "GET", f"/api/tables/{code}/")[1]["version"],
            "body": {"hand": TOMALAK},
        },
        tokens[1],
    )
    assert status == 201
    version = call(tables_site, "GET", f"/api/tables/{code}/")[1]["version"]
    answers = together(
        [
            lambda: call(
                tables_site,
                "POST",
                f"/api/tables/{code}/host/",
                {"seat": 2, "version": version},
                host,
            ),
            lambda: call(
                tables_site,
                "POST",
                f"/api/tables/{code}/host/",
                {"seat": 3, "version": version},
                host,
            ),
            lambda: call(
                tables_site,
                "DELETE",
                f"/api/tables/{code}/events/last/",
                {"version": version},
                host,
            ),
        ]
    )
    statuses = [status for status, _ in answers]
    applied = [i for i, status in enumerate(statuses) if status in (200, 201)]
    assert len(applied) == 1, answers
    winner = applied[0]
    for status, payload in [answer for i, answer in enumerate(answers) if i != winner]:
        # Refused: decided on a version the table has left, or (read after a handover applied)
        # sent with a token that is no longer the host's.
        if status == 409:
            assert payload["code"] == "version_conflict"
            assert payload["table"]["version"] == version + 1
        else:
            assert (status, payload["code"], winner != 2) == (403, "host_only", True), payload
    _, now = call(tables_site, "GET", f"/api/tables/{code}/")
    assert now["version"] == version + 1
    if winner == 2:  # the undo: the hand is gone, the role still the first phone's
        assert now["host_seat"] is None and now["events"] == []
    else:  # one handover: the hand stays, the role with its seat
        assert now["host_seat"] == (2, 3)[winner]
        assert [(e["kind"], e["seat"]) for e in now["events"]] == [
            ("hand", 1),
            ("handover", (2, 3)[winner]),
        ]
