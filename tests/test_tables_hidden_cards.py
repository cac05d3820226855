"""Hidden cards at a table (issue 29): no phone shows another seat's hidden cards. A move's
answer names its mover's hand (a conquest's cards "no longer enemy", the alternatives of an
illegal move, the hand an illegal play did not find its card in); the table's history (page and
API) links a public copy of it, saved as a result of its own, which names only what the move
makes public; the full answer goes back to the mover's phone alone."""

import html
import json
import re

import pytest

from tests.test_tables_factions import AMBUSH, ATTACK, SETUP, c, event, hands, post, read

pytestmark = pytest.mark.django_db


def words(response) -> str:
    page = html.unescape(response.content.decode())
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def history_result(t) -> dict:
    """The last history entry's answer, as any phone reads the table (no token)."""
    return read(t)["events"][-1]["result"]


def seated(api, game: str, players: list[str]) -> dict:
    """A table of `game` with every seat claimed: its code, the host's token and each seat's
    (by the player's name in lower case)."""
    created = post(api, "/api/tables/", {"game": game, "players": players}).json()
    code = created["code"]
    tokens = {name.lower(): post(api, f"/api/tables/{code}/seats/{number}/claim/", {}).json()[
        "seat_token"] for number, name in enumerate(players, start=1)}
    return {"code": code, "host": created["host_token"], "api": api, **tokens}


@pytest.fixture
def factions(api):
    table = seated(api, "factions", ["Ana", "Ben"])
    assert event(table, "setup", 1, SETUP, table["ana"]).status_code == 201
    return table


def test_a_conquests_public_answer_names_the_ambush_not_the_rest_of_anas_hand(factions, client):
    t = factions
    spy, defence = c("Spy", "ashen-peaks"), c("Defence", "ashen-peaks")
    sent = event(t, "move", 1, {"position": hands([c("Ambush", "amber-coast"), spy, defence]),
                                "move": AMBUSH}, t["ana"])
    assert sent.status_code == 201, sent.json()
    own = sent.json()["event"]["result"]
    # Ana's phone gets its answer whole: the conquest names the Ashen Peaks cards in her hand.
    assert own["outcome"]["conquests"][0]["no_longer_enemy"] == [spy, defence]
    assert "Spy (Ashen Peaks)" in json.dumps(own)
    public = history_result(t)
    assert public["id"] != own["id"] and read(t)["state"]["last_result"]["id"] == public["id"]
    text = json.dumps(public)
    assert "Spy" not in text and "Defence" not in text
    assert "Ambush (Amber Coast)" in text  # played: every phone saw it
    assert public["outcome"]["conquests"][0]["no_longer_enemy"] == [{"withheld": True},
                                                                    {"withheld": True}]
    assert public["outcome"]["conquests"][0]["to"] == "Ana" and "withheld" in public
    # The same through the result's API and its page, as anyone (Ben's phone, or nobody's).
    api = t["api"].get(f"/api/results/{public['id']}/").json()
    assert "Spy" not in json.dumps(api) and api["verdict"] == "legal"
    page = words(client.get(public["url"]))
    assert "Ana ambushes" in page and "Ambush (Amber Coast)" in page
    assert "Spy" not in page and "Defence (Ashen" not in page
    # The history's entry links the public copy.
    live = client.get(f"/t/{t['code']}/live").content.decode()
    assert public["url"] in live and own["url"] not in live


def test_an_illegal_moves_public_answer_does_not_list_the_hand(factions, client):
    t = factions
    sent = event(t, "move", 1, {"position": hands([c("Spy", "ashen-peaks"),
                                                   c("Doctor", "amber-coast")]),
                                "move": ATTACK}, t["ana"])
    own = sent.json()["event"]["result"]
    assert own["code"] == "card_not_in_hand" and "Spy (Ashen Peaks)" in own["reason"]
    assert own["alternatives"]
    public = history_result(t)
    assert "Spy" not in json.dumps(public) and "Doctor" not in json.dumps(public)
    assert "alternatives" not in public
    assert "it holds a hidden card and a hidden card" in public["reason"]
    live = words(client.get(f"/t/{t['code']}/live"))
    assert "Ana's move: Illegal" in live and "Spy" not in live and "Doctor" not in live
    page = words(client.get(public["url"]))
    assert "Spy" not in page and "Doctor" not in page and "Attack (Amber Coast)" in page


def test_a_move_whose_hand_holds_only_the_played_card_is_linked_as_answered(factions):
    """The neighbour: nothing hidden (Ana's hand is the ATTACK she plays), so the history links
    the answer itself."""
    t = factions
    sent = event(t, "move", 1, {"position": hands([c("Attack", "amber-coast")]),
                                "move": ATTACK}, t["ana"])
    own = sent.json()["event"]["result"]
    assert history_result(t) == own and "withheld" not in own
