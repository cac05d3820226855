"""Every pair of a table's changing actions, raced (issue 30): real concurrent requests against
several app processes (tests/tables_server.py; SQLite by default, PostgreSQL under
scripts/with-postgres), each pair many times, each round on a table of its own.

The oracle is a model of the table that shares none of the service's code: for each round the two
answers and the table afterwards must be those of one of the two serial orders (the requests were
decided one at a time under the table's lock), and the invariants of docs/TABLES.md must hold:
the host seat is always a claimed seat, every applied change adds one to the version, nothing
refused changed anything.

The race that made this test: the host releasing seat 2 while handing the host role to seat 2
ended, in 4 of 20 rounds, with the role on an unclaimed seat that anyone with the link could
claim (the release checked the host seat before its transaction)."""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass, field, replace

from tests.test_tables_concurrency import (
    CONFRONTATION,
    HOLODECK,
    TOMALAK,
    call,
    new_table,
    together,
)

# Rounds per pair: a few for every pair, many for the pairs that touch the host role and a seat at
# once (the race found before). TABLES_RACE_ROUNDS=… runs more of each (e.g. a night's hunt).
ROUNDS = int(os.environ.get("TABLES_RACE_ROUNDS", "2"))
HOST_RACE_ROUNDS = max(ROUNDS, 12)


@dataclass(frozen=True)
class Model:
    """What the table is, as far as who acts and what happened: the model's own reading of the
    API's contract (docs/API.md, Tables)."""

    version: int
    claimed: frozenset[int]
    host_seat: int | None  # None: the starting phone's token (H) is the host's
    events: tuple[tuple[str, int | None], ...]  # the history shown: (kind, seat)
    # What the race applied so far: (kind, seat), an undo with the seat of the entry it took
    # back. Not part of what a reader sees.
    since: tuple[tuple[str, int | None], ...] = field(default=(), compare=False)

    @property
    def starting_phone_hosts(self) -> bool:
        return self.host_seat is None


# An action: its name, what it sends (given the round), and the model's reading of it: the codes
# that would refuse it in a state (any of them may be the one given: a request checks some
# things before the lock and again under it), or the state it leaves.
def refusals_and_next(
    action: str, state: Model, version: int
) -> tuple[set[tuple[int, str]], Model | None]:
    reasons: set[tuple[int, str]] = set()
    stale = state.version != version
    if action == "claim 3":
        if 3 in state.claimed:
            return {(409, "seat_claimed")}, None
        return set(), replace(
            state,
            version=state.version + 1,
            claimed=state.claimed | {3},
            since=(*state.since, ("claim", 3)),
        )
    if action.startswith("release "):
        seat = int(action.split()[1])
        if not state.starting_phone_hosts:
            return {(403, "host_only")}, None
        if seat == state.host_seat:
            return {(409, "host_seat")}, None
        return set(), replace(
            state,
            version=state.version + 1,
            claimed=state.claimed - {seat},
            since=(*state.since, ("release", seat)),
        )
    if action.startswith("handover to "):
        seat = int(action.split()[-1])
        if stale:
            reasons.add((409, "version_conflict"))
        if not state.starting_phone_hosts:
            reasons.add((403, "host_only"))
        if seat not in state.claimed:
            reasons.add((409, "seat_not_claimed"))
        if reasons:
            return reasons, None
        return set(), replace(
            state,
            version=state.version + 1,
            host_seat=seat,
            events=(*state.events, ("handover", seat)),
            since=(*state.since, ("handover", seat)),
        )
    if action.startswith("hand of seat "):
        seat = int(action.split()[-1])
        # A seat's own entry conflicts only with a change of the same seat's entry since the
        # version it names (another hand of it, or an undo taking one back): a claim, a
        # release, a handover or another seat's hand since is no overlap (docs/API.md).
        if ("hand", seat) in state.since or ("undo", seat) in state.since:
            reasons.add((409, "version_conflict"))
        if seat not in state.claimed:
            reasons.add((403, "not_your_seat"))
        if reasons:
            return reasons, None
        return set(), replace(
            state,
            version=state.version + 1,
            events=(*state.events, ("hand", seat)),
            since=(*state.since, ("hand", seat)),
        )
    if action == "undo":
        if stale:
            reasons.add((409, "version_conflict"))
        if not state.starting_phone_hosts:
            reasons.add((403, "host_only"))
        game_events = [i for i, (kind, _) in enumerate(state.events) if kind != "handover"]
        if not game_events:
            reasons.add((409, "nothing_to_undo"))
        if reasons:
            return reasons, None
        last = game_events[-1]
        return set(), replace(
            state,
            version=state.version + 1,
            events=state.events[:last] + state.events[last + 1 :],
            since=(*state.since, ("undo", state.events[last][1])),
        )
    raise AssertionError(action)


ACTIONS = [
    "claim 3",
    "release 1",
    "release 2",
    "handover to 2",
    "handover to 3",
    "hand of seat 1",
    "hand of seat 2",
    "undo",
]
HANDS = {1: TOMALAK, 2: HOLODECK}


def send(
    base: str, code: str, host: str, tokens: dict[int, str], action: str, version: int
) -> tuple[int, dict]:
    if action == "claim 3":
        return call(base, "POST", f"/api/tables/{code}/seats/3/claim/")
    if action.startswith("release "):
        return call(
            base, "DELETE", f"/api/tables/{code}/seats/{action.split()[1]}/claim/", None, host
        )
    if action.startswith("handover to "):
        return call(
            base,
            "POST",
            f"/api/tables/{code}/host/",
            {"seat": int(action.split()[-1]), "version": version},
            host,
        )
    if action.startswith("hand of seat "):
        seat = int(action.split()[-1])
        return call(
            base,
            "POST",
            f"/api/tables/{code}/events/",
            {"kind": "hand", "seat": seat, "version": version, "body": {"hand": HANDS[seat]}},
            tokens[seat],
        )
    if action == "undo":
        return call(base, "DELETE", f"/api/tables/{code}/events/last/", {"version": version}, host)
    raise AssertionError(action)


def observed(table: dict) -> Model:
    return Model(
        version=table["version"],
        claimed=frozenset(p["seat"] for p in table["players"] if p["claimed"]),
        host_seat=table["host_seat"],
        events=tuple((e["kind"], e["seat"]) for e in table["events"]),
    )


def serial_orders_match(
    first: str,
    second: str,
    start: Model,
    version: int,
    answers: list[tuple[int, dict]],
    after: Model,
) -> list[str]:
    """The serial orders (first then second, second then first) that give these answers and
    leave this table."""
    matching = []
    for order in ((0, 1), (1, 0)):
        state, fits = start, True
        for index in order:
            action = (first, second)[index]
            status, payload = answers[index]
            refusals, following = refusals_and_next(action, state, version)
            if following is not None:
                fits &= status in (200, 201)
                state = following
            else:
                fits &= (status, payload.get("code")) in refusals
        if fits and state == after:
            matching.append(" then ".join((first, second)[i] for i in order))
    return matching


def one_round(base: str, first: str, second: str) -> None:
    table = new_table(base)
    code, host = table["code"], table["host_token"]
    tokens = {
        seat: call(base, "POST", f"/api/tables/{code}/seats/{seat}/claim/")[1]["seat_token"]
        for seat in (1, 2)
    }
    _, now = call(base, "GET", f"/api/tables/{code}/")
    status, _ = call(
        base,
        "POST",
        f"/api/tables/{code}/events/",
        {"kind": "hand", "seat": 2, "version": now["version"], "body": {"hand": CONFRONTATION}},
        tokens[2],
    )
    assert status == 201
    _, now = call(base, "GET", f"/api/tables/{code}/")
    start, version = observed(now), now["version"]
    answers = together(
        [
            lambda: send(base, code, host, tokens, first, version),
            lambda: send(base, code, host, tokens, second, version),
        ]
    )
    said = [
        (status, payload.get("code") if status >= 400 else "applied") for status, payload in answers
    ]
    assert all(status < 500 for status, _ in answers), answers
    _, table_after = call(base, "GET", f"/api/tables/{code}/")
    after = observed(table_after)
    seen = f"{first!r} and {second!r} raced from {start}: answers {said}, then {after}"
    # The invariants, whatever the order.
    assert after.host_seat is None or after.host_seat in after.claimed, seen
    applied = sum(status in (200, 201) for status, _ in answers)
    assert after.version == version + applied, seen
    assert serial_orders_match(first, second, start, version, answers, after), (
        f"{seen}: fits neither serial order"
    )
    if after.host_seat is not None:
        # The host's seat cannot be taken by a stranger with the link.
        status, payload = call(base, "POST", f"/api/tables/{code}/seats/{after.host_seat}/claim/")
        assert (status, payload["code"]) == (409, "seat_claimed")


def pairs() -> list[tuple[str, str]]:
    return list(itertools.combinations_with_replacement(ACTIONS, 2))


def touches_host_and_a_seat(first: str, second: str) -> bool:
    both = {first.split()[0], second.split()[0]}
    return "handover" in both and both & {"release", "claim"} != set()


def test_every_pair_of_changing_actions_raced_leaves_a_serial_order(tables_site):
    for first, second in pairs():
        rounds = HOST_RACE_ROUNDS if touches_host_and_a_seat(first, second) else ROUNDS
        for _ in range(rounds):
            one_round(tables_site, first, second)


def test_the_model_refuses_the_release_of_the_seat_the_role_went_to():
    """The oracle's own reading of the race that was found: once the role is on seat 2, the
    starting phone's release of seat 2 is refused (its token is no longer the host's), and a
    handover to a seat released first is refused too."""
    start = Model(version=5, claimed=frozenset({1, 2}), host_seat=None, events=(("hand", 2),))
    _, handed = refusals_and_next("handover to 2", start, 5)
    assert handed is not None and handed.host_seat == 2
    refused, after = refusals_and_next("release 2", handed, 5)
    assert after is None and refused == {(403, "host_only")}
    _, released = refusals_and_next("release 2", start, 5)
    assert released is not None and released.claimed == {1}
    refused, after = refusals_and_next("handover to 2", released, 5)
    assert after is None and refused == {(409, "version_conflict"), (409, "seat_not_claimed")}


def test_the_model_lets_seats_own_entries_pass_what_does_not_overlap_them():
    """Two seats' hands naming one version both apply; the same seat's twice, or a hand after
    the undo of that seat's hand, conflict; a hand after a claim or a handover does not."""
    start = Model(version=5, claimed=frozenset({1, 2}), host_seat=None, events=(("hand", 2),))
    _, first = refusals_and_next("hand of seat 1", start, 5)
    assert first is not None
    refused, other = refusals_and_next("hand of seat 2", first, 5)
    assert refused == set() and other is not None and other.version == 7
    refused, again = refusals_and_next("hand of seat 1", first, 5)
    assert again is None and refused == {(409, "version_conflict")}
    _, undone = refusals_and_next("undo", start, 5)
    refused, after = refusals_and_next("hand of seat 2", undone, 5)
    assert after is None and refused == {(409, "version_conflict")}
    _, handed = refusals_and_next("handover to 2", start, 5)
    refused, after = refusals_and_next("hand of seat 1", handed, 5)
    assert refused == set() and after is not None
