"""Hidden cards at a table (issue 29): no phone shows another seat's hidden cards. A move's
answer names its mover's hand (a conquest's cards "no longer enemy", the alternatives of an
illegal move, the hand an illegal play did not find its card in); the table's history (page and
API) links a public copy of it, saved as a result of its own, which names only what the move
makes public; the full answer goes back to the mover's phone alone."""

import html
import json
import re

import pytest

from results.models import SavedResult
from tests.test_tables_factions import AMBUSH, ATTACK, PEAK, SETUP, c, event, hands, post, read

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
    tokens = {
        name.lower(): post(api, f"/api/tables/{code}/seats/{number}/claim/", {}).json()[
            "seat_token"
        ]
        for number, name in enumerate(players, start=1)
    }
    return {"code": code, "host": created["host_token"], "api": api, **tokens}


@pytest.fixture
def factions(api):
    table = seated(api, "factions", ["Ana", "Ben"])
    assert event(table, "setup", 1, SETUP, table["ana"]).status_code == 201
    return table


def test_a_conquests_public_answer_names_the_ambush_not_the_rest_of_anas_hand(factions, client):
    t = factions
    spy, defence = c("Spy", "ashen-peaks"), c("Defence", "ashen-peaks")
    sent = event(
        t,
        "move",
        1,
        {"position": hands([c("Ambush", "amber-coast"), spy, defence]), "move": AMBUSH},
        t["ana"],
    )
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
    assert public["outcome"]["conquests"][0]["no_longer_enemy"] == [
        {"withheld": True},
        {"withheld": True},
    ]
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
    sent = event(
        t,
        "move",
        1,
        {"position": hands([c("Spy", "ashen-peaks"), c("Doctor", "amber-coast")]), "move": ATTACK},
        t["ana"],
    )
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
    sent = event(
        t, "move", 1, {"position": hands([c("Attack", "amber-coast")]), "move": ATTACK}, t["ana"]
    )
    own = sent.json()["event"]["result"]
    assert history_result(t) == own and "withheld" not in own


def test_a_kept_copy_of_the_played_card_is_withheld_from_a_conquest(factions):
    """FAC-F1: two AMBUSH cards per faction. Ana ambushes Peak Sentinel, Ben's last unit, with
    one Ambush of Ashen Peaks and keeps the other: the conquest makes it no longer an enemy card
    in her hand (FAC-14), which every phone reads as a hidden card, while the one played stays
    named. The neighbour: holding that one Ambush alone, nothing is hidden."""
    t = factions
    ambush = c("Ambush", "ashen-peaks")
    move = {"action": "play", "card": ambush, "target_unit": PEAK}
    sent = event(t, "move", 1, {"position": hands([ambush, ambush]), "move": move}, t["ana"])
    assert sent.status_code == 201, sent.json()
    own = sent.json()["event"]["result"]
    assert own["outcome"]["conquests"][0]["no_longer_enemy"] == [ambush]
    public = history_result(t)
    text = json.dumps(public)
    assert public["outcome"]["conquests"][0]["no_longer_enemy"] == [{"withheld": True}]
    assert "in Ana's hand, a hidden card." in text and "in Ana's hand, Ambush" not in text
    assert "with Ambush (Ashen Peaks)" in text  # played: every phone saw it
    moved = public["outcome"]["cards_moved"][0]
    assert (moved["card"], moved["from"], moved["to"]) == (
        ambush,
        {"player": "Ana"},
        {"place": "discard_pile"},
    )


def test_a_move_playing_its_one_copy_names_it_everywhere(factions):
    """The neighbour of the kept copy: Ana's hand is the one Ambush she plays."""
    t = factions
    ambush = c("Ambush", "ashen-peaks")
    move = {"action": "play", "card": ambush, "target_unit": PEAK}
    sent = event(t, "move", 1, {"position": hands([ambush]), "move": move}, t["ana"])
    assert sent.status_code == 201, sent.json()
    own = sent.json()["event"]["result"]
    assert own["outcome"]["conquests"][0]["no_longer_enemy"] == []
    assert history_result(t) == own and "withheld" not in own


def test_a_card_taken_at_random_from_the_movers_hand_stays_the_two_players(factions):
    """FAC-F2: Ana discards an enemy SACK (Ashen Peaks is Ben's) and Ben takes a card at random
    from her hand: her other Sack of Ashen Peaks (two per faction). Ana and Ben see which;
    every other phone reads a hidden card taken, and the Sack discarded, named."""
    t = factions
    sack = c("Sack", "ashen-peaks")
    move = {"action": "discard", "card": sack}
    sent = event(t, "move", 1, {"position": hands([sack, sack]), "move": move}, t["ana"])
    assert sent.status_code == 201, sent.json()
    own = sent.json()["event"]["result"]
    assert "Ben takes Sack (Ashen Peaks) at random from Ana's hand" in json.dumps(own)
    public = history_result(t)
    text = json.dumps(public)
    assert "Ben takes a hidden card at random from Ana's hand" in text
    assert "takes Sack" not in text and "Ana discards Sack (Ashen Peaks)" in text
    moved = public["outcome"]["cards_moved"]
    assert moved[0]["card"] == sack and moved[0]["to"] == {"place": "discard_pile"}
    assert moved[1]["card"] == {"withheld": True} and moved[1]["to"] == {"player": "Ben"}


# --- Academy Credits: a play that depends on the target's card waits for the target's phone ------

AC = "academy-credits"


def ac_play(t, hand, play, target=None, guess=None, *, seat=1, token=None, discards=None):
    players = [{"name": "Ana"}, {"name": "Ben"}]
    for name, cards in (discards or {}).items():
        next(p for p in players if p["name"] == name)["discards"] = cards
    return event(
        t,
        "ruling",
        seat,
        {
            "position": {"players": players, "turn": "Ana", "hand": hand, "deck_count": 10},
            "move": {"play": play, "target": target, "guess": guess},
        },
        token or t["ana"],
    )


def page_of(client, t, seat_token: str | None, seat: int) -> str:
    client.cookies.clear()
    if seat_token:
        client.cookies[f"seat_{t['code']}"] = f"{seat}:{seat_token}"
    return client.get(f"/t/{t['code']}").content.decode()


def buttons(page: str) -> list[str]:
    return [
        html.unescape(label) for label in re.findall(r'name="answer" value="[^"]+">([^<]+)<', page)
    ]


def test_a_guess_waits_for_the_targets_yes_or_no_and_no_phone_sees_the_kept_card(api, client):
    t = seated(api, AC, ["Ana", "Ben"])
    sent = ac_play(t, ["Lura Thok", "Caleb Mir"], "Lura Thok", "Ben", "The Doctor")
    assert sent.status_code == 201, sent.json()
    own = sent.json()["event"]["result"]
    assert own["verdict"] == "legal" and own["outcome"]["cases"]  # it depends on Ben's card
    state = read(t)["state"]
    pending = state["pending"]
    assert (pending["by"], pending["target"], pending["seat"], pending["question"]) == (
        "Ana",
        "Ben",
        2,
        "guess",
    )
    assert pending["rule"] == "AC-R4" and "depends on Ben's card" in pending["reason"]
    assert "sealed" not in state and "Caleb Mir" not in json.dumps(read(t))
    # Every phone sees whom the table waits for; Ben's phone alone offers his two answers.
    ana_page = page_of(client, t, t["ana"], 1)
    assert "Waiting for Ben (seat 2) to answer Ana's Lura Thok" in words_of(ana_page)
    assert buttons(ana_page) == [] and "Caleb Mir" not in ana_page
    ben_page = page_of(client, t, t["ben"], 2)
    assert "Your answer: Ana plays Lura Thok at you, naming The Doctor" in words_of(ben_page)
    assert buttons(ben_page) == ["Yes, I hold The Doctor", "No, I do not hold The Doctor"]
    assert "Caleb Mir" not in ben_page
    assert "Caleb Mir" not in page_of(client, t, None, 0)  # nobody's phone
    # The history's ruling names the card played and the guess, never Ana's other card.
    public = read(t)["events"][-1]["result"]
    assert "Caleb Mir" not in json.dumps(public) and "The Doctor" in json.dumps(public)
    assert "Caleb Mir" not in words(client.get(public["url"]))
    # Nothing else goes on until Ben answers; Ana cannot answer for him, nor Ben off the list.
    round_end = event(
        t, "round", 1, {"players": [{"name": "Ana"}, {"name": "Ben"}], "deck_count": 0}, t["ana"]
    )
    assert round_end.status_code == 409 and round_end.json()["code"] == "awaiting_answer"
    assert event(t, "answer", 1, {"answer": "no"}, t["ana"]).json()["code"] == "not_your_turn"
    wrong = event(t, "answer", 2, {"answer": "maybe"}, t["ben"])
    assert wrong.status_code == 400 and wrong.json()["errors"][0]["code"] == "invalid_choice"
    # Ben answers from his phone's page: he holds it, and is out.
    version = read(t)["version"]
    client.cookies[f"seat_{t['code']}"] = f"2:{t['ben']}"
    posted = client.post(
        f"/t/{t['code']}/form", {"answer": "yes", "seat": "2", "version": str(version)}
    )
    assert posted.status_code == 302, posted.content.decode()[:1500]
    state = read(t)["state"]
    assert state["pending"] is None
    answered = read(t)["events"][-1]
    assert answered["kind"] == "answer" and answered["seat"] == 2
    assert answered["result"]["outcome"]["eliminated"] == ["Ben"]
    assert "Caleb Mir" not in json.dumps(answered["result"])
    live = words(client.get(f"/t/{t['code']}/live"))
    assert "Ben answered: Legal: Ana plays Lura Thok" in live and "Caleb Mir" not in live


def words_of(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(page)))


def test_a_guess_no_cadet_can_hold_is_ruled_at_once(api):
    """The neighbour: both copies of The Doctor are face up, so Ben cannot hold it and the
    table rules the play without asking him."""
    t = seated(api, AC, ["Ana", "Ben"])
    sent = ac_play(
        t,
        ["Lura Thok", "Jett Reno"],
        "Lura Thok",
        "Ben",
        "The Doctor",
        discards={"Ben": ["The Doctor", "The Doctor"]},
    )
    assert sent.status_code == 201, sent.json()
    assert not sent.json()["event"]["result"]["outcome"]["cases"]
    assert read(t)["state"]["pending"] is None


def test_a_comparison_waits_for_the_targets_card_and_shows_only_the_loser(api, client):
    t = seated(api, AC, ["Ana", "Ben"])
    sent = ac_play(t, ["Unnamed card (3)", "Jett Reno"], "Unnamed card (3)", "Ben")
    assert sent.status_code == 201, sent.json()
    pending = read(t)["state"]["pending"]
    assert (pending["question"], pending["rule"]) == ("card", "AC-R3")
    public = read(t)["events"][-1]["result"]
    # The cases would tell the value of Ana's card ("lower than 7"): the public copy has none.
    assert "cases" not in public["outcome"] and "7" not in json.dumps(public["outcome"])
    ben = buttons(page_of(client, t, t["ben"], 2))
    # Every card not all face up: Jett Reno too (Ana's hand is not Ben's to learn by omission).
    assert ben[0] == "Charles Vance (0)" and "Jett Reno (7)" in ben
    assert "Unnamed card (3)" in ben and len(ben) == 11
    # The one copy of Jett Reno is Ana's: Ben's answer is refused without saying where it is.
    impossible = event(t, "answer", 2, {"answer": "Jett Reno"}, t["ben"])
    assert impossible.status_code == 400
    assert impossible.json()["errors"][0]["code"] == "answer_impossible"
    assert "Ana" not in json.dumps(impossible.json())
    answered = event(t, "answer", 2, {"answer": "The Doctor"}, t["ben"])
    assert answered.status_code == 201, answered.json()
    # Ben's phone gets the ruling as every phone sees it: Ana's card is not his to read.
    bens = answered.json()["event"]["result"]
    assert bens["outcome"]["eliminated"] == ["Ben"] and "Jett Reno" not in json.dumps(
        bens["outcome"]
    )
    public = read(t)["events"][-1]["result"]
    assert bens == public
    text = json.dumps(public["outcome"])
    assert "Jett Reno" not in text and "The Doctor" in text  # Ben's card goes face up
    assert public["outcome"]["eliminated"] == ["Ben"]
    assert "Ana's card beats Ben's The Doctor (6): Ben is out of the round." in text
    # Jett Reno is named once: in AC-4.1, worded alike whatever the hand (not as Ana's card).
    assert [c["detail"] for c in public["checks"] if "Jett Reno" in c["detail"]] == [NAHLA_RULE]


NAHLA_RULE = "The hand does not hold Nahla Ake (9) together with Darem Reymi (5) or Jett Reno (7)."


def test_a_look_does_not_wait_and_a_card_of_another_cadet_is_not_taken(api):
    """The neighbour of the comparison: a look (value 2) does the same whatever Ben holds, so
    the table rules at once; and Ana's phone cannot tell the table Ben's card."""
    t = seated(api, AC, ["Ana", "Ben"])
    sent = ac_play(t, ["Unnamed card (2)", "Jett Reno"], "Unnamed card (2)", "Ben")
    assert sent.status_code == 201 and read(t)["state"]["pending"] is None
    told = event(
        t,
        "ruling",
        1,
        {
            "position": {
                "players": [{"name": "Ana"}, {"name": "Ben", "hand": "The Doctor"}],
                "turn": "Ana",
                "hand": ["Unnamed card (3)", "Jett Reno"],
                "deck_count": 10,
            },
            "move": {"play": "Unnamed card (3)", "target": "Ben"},
        },
        t["ana"],
    )
    assert told.status_code == 400
    assert told.json()["errors"][0]["path"] == "body.position.players[1].hand"
    assert told.json()["errors"][0]["code"] == "hidden_card"
    # Nor can Ben's phone give Ana's two cards: they are hers.
    bens = ac_play(
        t, ["Unnamed card (2)", "Jett Reno"], "Unnamed card (2)", "Ben", seat=2, token=t["ben"]
    )
    assert bens.status_code == 400
    assert bens.json()["errors"][0]["code"] == "not_your_cards"


def test_the_host_answers_only_for_a_target_seat_no_phone_holds(api, client):
    t = seated(api, AC, ["Ana", "Ben"])
    assert (
        ac_play(t, ["Lura Thok", "Caleb Mir"], "Lura Thok", "Ben", "The Doctor").status_code == 201
    )
    client.cookies[f"host_{t['code']}"] = t["host"]
    assert buttons(client.get(f"/t/{t['code']}").content.decode()) == []
    # The API holds the same rule: Ben's phone holds his seat, so it answers.
    before = read(t)
    refused = event(t, "answer", 2, {"answer": "no"}, t["host"])
    assert refused.status_code == 403, refused.json()
    assert refused.json()["code"] == "seat_answers"
    assert refused.json()["detail"].startswith("Ben's phone answers for seat 2")
    after = read(t)
    assert (after["version"], after["state"]) == (before["version"], before["state"])
    released = api.delete(
        f"/api/tables/{t['code']}/seats/2/claim/", HTTP_AUTHORIZATION=f"Bearer {t['host']}"
    )
    assert released.status_code == 200
    page = client.get(f"/t/{t['code']}").content.decode()
    assert "No phone holds Ben's seat: as the host, you answer for Ben." in words_of(page)
    assert buttons(page) == ["Yes, I hold The Doctor", "No, I do not hold The Doctor"]
    answered = event(t, "answer", 2, {"answer": "no"}, t["host"])
    assert answered.status_code == 201, answered.json()
    assert answered.json()["event"]["result"]["outcome"]["eliminated"] == []
    assert read(t)["state"]["pending"] is None


def public_view(t) -> dict:
    """What every phone reads of a table's last entry: the history's answer (without the id and
    address of its saved copy) and whom the table waits for, and why."""
    table = read(t)
    result = {key: value for key, value in table["events"][-1]["result"].items()}
    for key in ("id", "url"):
        result.pop(key, None)
    return {"result": result, "pending": table["state"]["pending"]}


def test_the_host_answers_for_a_seat_never_claimed_and_a_seat_for_itself(api):
    """The neighbours of the refusal: the host's token answers for a seat no phone ever held;
    a seat's own token answers for it; and the host still acts for a claimed seat where no
    hidden card is given (Ana's next ruling, asked from the host's phone)."""
    created = post(api, "/api/tables/", {"game": AC, "players": ["Ana", "Ben"]}).json()
    code = created["code"]
    ana = post(api, f"/api/tables/{code}/seats/1/claim/", {}).json()["seat_token"]
    t = {"code": code, "host": created["host_token"], "api": api, "ana": ana}
    assert (
        ac_play(t, ["Lura Thok", "Caleb Mir"], "Lura Thok", "Ben", "The Doctor").status_code == 201
    )
    answered = event(t, "answer", 2, {"answer": "no"}, t["host"])
    assert answered.status_code == 201, answered.json()
    assert read(t)["events"][-1]["by_host"] is True
    asked = ac_play(
        t, ["Lura Thok", "Caleb Mir"], "Lura Thok", "Ben", "The Doctor", token=t["host"]
    )
    assert asked.status_code == 201, asked.json()
    t["ben"] = post(api, f"/api/tables/{code}/seats/2/claim/", {}).json()["seat_token"]
    assert event(t, "answer", 2, {"answer": "no"}, t["host"]).json()["code"] == "seat_answers"
    own = event(t, "answer", 2, {"answer": "no"}, t["ben"])
    assert own.status_code == 201, own.json()
    assert read(t)["events"][-1]["by_host"] is False


def test_the_hosts_token_answers_an_attack_only_for_a_seat_no_phone_holds(factions):
    """FAC-R4: Ben's DEFENCE, or letting the ATTACK through, is his phone's answer: the host's
    token is refused while his phone holds the seat, and answers once it is released. The host
    still sends Ana's move for her claimed seat."""
    t = factions
    sent = event(
        t, "move", 1, {"position": hands([c("Attack", "amber-coast")]), "move": ATTACK}, t["host"]
    )
    assert sent.status_code == 201, sent.json()
    through = {
        "position": {
            "players": [
                {"name": "Ana", "hand": []},
                {"name": "Ben", "hand": [], "hand_complete": False},
            ]
        },
        "move": {"action": "pass"},
    }
    before = read(t)
    refused = event(t, "move", 2, through, t["host"])
    assert refused.status_code == 403 and refused.json()["code"] == "seat_answers"
    assert "Ben's phone answers" in refused.json()["detail"]
    assert read(t)["version"] == before["version"]
    released = t["api"].delete(
        f"/api/tables/{t['code']}/seats/2/claim/", HTTP_AUTHORIZATION=f"Bearer {t['host']}"
    )
    assert released.status_code == 200
    answered = event(t, "move", 2, through, t["host"])
    assert answered.status_code == 201, answered.json()
    assert answered.json()["event"]["result"]["code"] == "legal_let_through"


def test_a_guess_of_the_card_the_mover_keeps_waits_as_any_guess_does(api, client):
    """AC-R4, AC-R2: two copies of The Doctor, one face up in front of Ben. Ana names The Doctor
    while keeping the other: the game knows Ben cannot hold it, but a table ruling at once would
    tell every phone that the last copy is in Ana's hand. So it waits for Ben as it does when
    Ana keeps Caleb Mir and the other copy is unseen (the neighbour), and every phone reads the
    two tables alike, before Ben's answer and after it."""
    kept = seated(api, AC, ["Ana", "Ben"])
    other = seated(api, AC, ["Ana", "Ben"])
    own = {}
    for t, hand in ((kept, ["Lura Thok", "The Doctor"]), (other, ["Lura Thok", "Caleb Mir"])):
        sent = ac_play(t, hand, "Lura Thok", "Ben", "The Doctor", discards={"Ben": ["The Doctor"]})
        assert sent.status_code == 201, sent.json()
        own[t["code"]] = sent.json()["event"]["result"]
    # Ana's phone is told, with her hand, that Ben cannot hold it.
    assert "accounted for" in json.dumps(own[kept["code"]])
    assert read(kept)["state"]["pending"]["question"] == "guess"
    assert public_view(kept) == public_view(other)
    assert buttons(page_of(client, kept, kept["ben"], 2)) == [
        "Yes, I hold The Doctor",
        "No, I do not hold The Doctor",
    ]
    # Ben cannot say yes: refused without naming where the copy is.
    impossible = event(kept, "answer", 2, {"answer": "yes"}, kept["ben"])
    assert impossible.status_code == 400
    assert impossible.json()["errors"][0]["code"] == "answer_impossible"
    assert impossible.json()["detail"].startswith("The Doctor cannot be Ben's card")
    assert "Ana" not in json.dumps(impossible.json())
    for t in (kept, other):
        answered = event(t, "answer", 2, {"answer": "no"}, t["ben"])
        assert answered.status_code == 201, answered.json()
    public = public_view(kept)
    assert public == public_view(other) and public["pending"] is None
    assert "accounted for" not in json.dumps(public)
    assert (
        "Ben does not hold The Doctor (6): nothing happens."
        in public["result"]["outcome"]["summary"]
    )


def test_a_kept_copy_of_the_played_card_is_withheld_and_the_played_one_shown(api, client):
    """AC-R2: six copies of Lura Thok. Ana plays one and keeps another: every phone reads the
    card played, never the one kept, though they share a name. Word for word, it reads as the
    same play keeping Caleb Mir (the neighbour), before Ben's answer and after it."""
    twin = seated(api, AC, ["Ana", "Ben"])
    other = seated(api, AC, ["Ana", "Ben"])
    sent = ac_play(twin, ["Lura Thok", "Lura Thok"], "Lura Thok", "Ben", "The Doctor")
    assert sent.status_code == 201, sent.json()
    assert "keeps Lura Thok (1)" in json.dumps(sent.json()["event"]["result"])  # Ana's own
    assert (
        ac_play(other, ["Lura Thok", "Caleb Mir"], "Lura Thok", "Ben", "The Doctor").status_code
        == 201
    )
    public = public_view(twin)
    assert public == public_view(other)
    text = json.dumps(public)
    assert "keeps Lura Thok" not in text and "Lura Thok (1) and Lura Thok (1)" not in text
    assert public["result"]["outcome"]["summary"][0] == (
        "Ana plays Lura Thok (1) at Ben, naming The Doctor (6)."
    )
    page = words(client.get(read(twin)["events"][-1]["result"]["url"]))
    assert "Ana plays Lura Thok (1) at Ben" in page and "keeps Lura Thok" not in page
    for t in (twin, other):
        answered = event(t, "answer", 2, {"answer": "yes"}, t["ben"])
        assert answered.status_code == 201, answered.json()
    public = public_view(twin)
    assert public == public_view(other)
    outcome = public["result"]["outcome"]
    assert outcome["eliminated"] == ["Ben"] and outcome["discarded"][0]["card"] == "The Doctor"
    assert "keeps Lura Thok" not in json.dumps(public)
    live = words(client.get(f"/t/{twin['code']}/live"))
    assert "Ben holds The Doctor (6) and is out of the round." in live
    assert "keeps Lura Thok" not in live


def test_a_comparison_awaiting_its_answer_reads_the_same_whatever_the_mover_keeps(api):
    """AC-R3: Ana's Unnamed card (3) at Ben. Keeping Tarima Sadel (10) she beats any card Ben
    may hold, so the game has one case; keeping Lura Thok (1), several. Until Ben answers, every
    phone reads both alike: the play, and that the table waits for Ben; not how many cases, nor
    who would be out (either would tell Ana's card)."""
    high = seated(api, AC, ["Ana", "Ben"])
    low = seated(api, AC, ["Ana", "Ben"])
    sent = ac_play(high, ["Unnamed card (3)", "Tarima Sadel"], "Unnamed card (3)", "Ben")
    assert sent.status_code == 201, sent.json()
    own = sent.json()["event"]["result"]["outcome"]
    assert own["eliminated"] == ["Ben"] and len(own["cases"]) == 1  # Ana's phone sees it
    assert (
        ac_play(low, ["Unnamed card (3)", "Lura Thok"], "Unnamed card (3)", "Ben").status_code
        == 201
    )
    public = public_view(high)
    assert public == public_view(low)
    assert "cases" not in public["pending"]["reason"]
    outcome = public["result"]["outcome"]
    assert (outcome["eliminated"], outcome["round_ends"], outcome["in_round"]) == ([], None, None)
    assert outcome["summary"] == [
        "Ana plays Unnamed card (3) at Ben.",
        "What happens depends on Ben's card: the table waits for Ben's phone to answer.",
    ]


def test_the_targets_card_named_as_the_played_card_stays_his_unless_face_up(api, client):
    """AC-R3, AC-R2: two copies of Unnamed card (3). Ana plays one at Ben, who answers that he
    holds the other. Keeping Lura Thok (1), Ana loses: she is out and her card face up (AC-6.4);
    Ben's card stays his, though it shares its name with the card played. The neighbour: Ana
    keeps Jett Reno (7) and wins, so Ben's Unnamed card (3) goes face up, named, and Jett Reno
    stays Ana's."""
    t = seated(api, AC, ["Ana", "Ben"])
    assert (
        ac_play(t, ["Unnamed card (3)", "Lura Thok"], "Unnamed card (3)", "Ben").status_code == 201
    )
    answered = event(t, "answer", 2, {"answer": "Unnamed card (3)"}, t["ben"])
    assert answered.status_code == 201, answered.json()
    public = history_result(t)
    assert answered.json()["event"]["result"] == public  # Ben's phone reads the public copy
    outcome = public["outcome"]
    assert outcome["eliminated"] == ["Ana"]
    assert [(d["player"], d["card"]) for d in outcome["discarded"]] == [("Ana", "Lura Thok")]
    assert "Ben's card beats Ana's Lura Thok (1): Ana is out of the round." in outcome["summary"]
    assert "Ben's Unnamed card (3)" not in json.dumps(public)
    live = words(client.get(f"/t/{t['code']}/live"))
    assert "Ben's card beats Ana's Lura Thok (1)" in live and "Ben's Unnamed" not in live

    won = seated(api, AC, ["Ana", "Ben"])
    assert (
        ac_play(won, ["Unnamed card (3)", "Jett Reno"], "Unnamed card (3)", "Ben").status_code
        == 201
    )
    answered = event(won, "answer", 2, {"answer": "Unnamed card (3)"}, won["ben"])
    assert answered.status_code == 201, answered.json()
    outcome = history_result(won)["outcome"]
    assert outcome["eliminated"] == ["Ben"]
    assert "Ana's card beats Ben's Unnamed card (3): Ben is out of the round." in outcome["summary"]
    assert "Jett Reno" not in json.dumps(outcome)
    assert "keeps Jett Reno" not in json.dumps(history_result(won))


def test_a_guess_the_card_played_takes_not_is_no_reason_to_show_the_targets_card(api):
    """A comparison takes no guess (AC-R3): one sent is ignored (the ruling warns). Ben answers
    that he holds The Doctor, the card that guess named, and beats Ana's Lura Thok: his card
    stays his (he is still in), and the ignored guess stays named as sent."""
    t = seated(api, AC, ["Ana", "Ben"])
    sent = ac_play(t, ["Unnamed card (3)", "Lura Thok"], "Unnamed card (3)", "Ben", "The Doctor")
    assert sent.status_code == 201, sent.json()
    assert read(t)["state"]["pending"]["question"] == "card"
    answered = event(t, "answer", 2, {"answer": "The Doctor"}, t["ben"])
    assert answered.status_code == 201, answered.json()
    public = history_result(t)
    assert public["outcome"]["eliminated"] == ["Ana"]
    assert (
        "Ben's card beats Ana's Lura Thok (1): Ana is out of the round."
        in public["outcome"]["summary"]
    )
    assert "Ben's The Doctor" not in json.dumps(public) and "The Doctor (6)" not in json.dumps(
        public
    )


def test_a_card_discarded_face_up_is_named_though_the_mover_keeps_one_of_its_name(api, client):
    """AC-R4: Ana's Darem Reymi makes Ben discard his card face up, a Lura Thok; Ana keeps
    another Lura Thok (six copies, AC-R2). Every phone reads Ben's discard, named; never Ana's
    card."""
    t = seated(api, AC, ["Ana", "Ben"])
    assert ac_play(t, ["Darem Reymi", "Lura Thok"], "Darem Reymi", "Ben").status_code == 201
    assert read(t)["state"]["pending"]["question"] == "card"
    answered = event(t, "answer", 2, {"answer": "Lura Thok"}, t["ben"])
    assert answered.status_code == 201, answered.json()
    public = history_result(t)
    outcome = public["outcome"]
    assert [(d["player"], d["card"]) for d in outcome["discarded"]] == [("Ben", "Lura Thok")]
    assert (
        "Ben discards Lura Thok (1) face up without its effect and draws a new card from the deck."
        in outcome["summary"]
    )
    checks = " ".join(check["detail"] for check in public["checks"])
    assert "Ana keeps the other." in checks and "keeps Lura Thok" not in checks
    assert "[hidden card]" not in json.dumps(public)
    live = words(client.get(f"/t/{t['code']}/live"))
    assert "Ben discards Lura Thok (1) face up" in live


# --- Star Trek: Missions: a turn checked at the table names the mover's hand --------------------

STM_HAND = [
    "Captain Jean-Luc Picard",
    "Commander William Riker",
    "Lieutenant Worf",
    "Photon Torpedoes",
    "Bridge",
    "Away Team",
    "Borg Cube",
]


def test_a_star_trek_missions_turns_public_answer_names_the_discard_area_only(api, client):
    t = seated(api, "star-trek-missions", ["Ana", "Ben"])
    turn = {
        "position": {
            "hand": STM_HAND,
            "discard_area": ["Tricorder", "Time Distortion"],
            "galaxy_deck": 30,
            "mission_deck": 14,
        },
        "move": {"action": "take_discard", "take": "Tricorder", "discard": ["Bridge"]},
    }
    sent = event(t, "ruling", 1, turn, t["ana"])
    assert sent.status_code == 201, sent.json()
    own = sent.json()["event"]["result"]
    assert own["verdict"] == "legal" and "Lieutenant Worf" in json.dumps(own)
    public = read(t)["events"][-1]["result"]
    text = json.dumps({key: value for key, value in public.items() if key != "rule"})
    for kept in STM_HAND[:4] + STM_HAND[5:]:
        assert kept not in text
    assert "Tricorder" in text and "Bridge" in text  # taken from and put in the discard area
    page = words(client.get(public["url"]))
    assert "Lieutenant Worf" not in page and "Borg Cube" not in page and "Tricorder" in page


def test_a_star_trek_missions_hand_at_game_end_is_shown_as_entered(api):
    """The neighbour: a hand entered at the game's end is scored face up, so the history links
    its answer as it is."""
    t = seated(api, "star-trek-missions", ["Ana", "Ben"])
    sent = event(t, "hand", 1, {"hand": STM_HAND}, t["ana"])
    assert sent.status_code == 201, sent.json()
    assert read(t)["events"][-1]["result"] == sent.json()["event"]["result"]


# --- Star Realms Academy: the cards a player keeps in hand are theirs ---------------------------

SRA_TURN = {
    "active": {"hand": ["Viper", "Scout", "Imperial Frigate"]},
    "shop_row": ["Ram", "Corvette", "The Hive", "Barter World", "Survey Ship"],
    "actions": [
        {"action": "play", "card": "Viper"},
        {"action": "attack", "target": "health", "amount": 1},
        {"action": "end_turn"},
    ],
}


def test_a_star_realms_turn_keeps_the_cards_left_in_hand_from_the_other_phone(api, client):
    t = seated(api, "star-realms-academy", ["Ana", "Ben"])
    sent = event(t, "turn", 1, SRA_TURN, t["ana"])
    assert sent.status_code == 201, sent.json()
    own = sent.json()["event"]["result"]
    assert own["final"]["active"]["hand"] == ["Scout", "Imperial Frigate"]
    table = read(t)
    # How many Ana kept is seen; which ones is not, in the state or the history's answer.
    assert table["state"]["kept"] == {"Ana": 2, "Ben": 0}
    public = table["events"][-1]["result"]
    assert public["final"]["active"]["hand"] == [{"withheld": True}, {"withheld": True}]
    text = json.dumps(table)
    assert "Imperial Frigate" not in text and "Scout" not in text and "Viper" in text
    assert "Imperial Frigate" not in words(client.get(public["url"]))
    assert "Imperial Frigate" not in words(client.get(f"/t/{t['code']}"))


def test_a_star_realms_turns_public_request_lists_the_scout_played_not_the_one_kept(api):
    """SRA-3.4: Ana plays a Scout and keeps another Scout in hand. The public request lists the
    cards played, one Scout; the hand's list reads as many withheld cards as she kept."""
    t = seated(api, "star-realms-academy", ["Ana", "Ben"])
    turn = {
        "active": {"hand": ["Viper", "Scout", "Scout"]},
        "shop_row": SRA_TURN["shop_row"],
        "actions": [
            {"action": "play", "card": "Viper"},
            {"action": "play", "card": "Scout"},
            {"action": "end_turn"},
        ],
    }
    sent = event(t, "turn", 1, turn, t["ana"])
    assert sent.status_code == 201, sent.json()
    assert sent.json()["event"]["result"]["final"]["active"]["hand"] == ["Scout"]
    public = read(t)["events"][-1]["result"]
    assert public["final"]["active"]["hand"] == [{"withheld": True}]
    # The request the public copy answers, as its page (/r/<id>) shows it.
    assert SavedResult.objects.get(pk=public["id"]).request["active"]["hand"] == ["Viper", "Scout"]


def test_a_star_realms_turn_that_plays_its_whole_hand_is_linked_as_answered(api):
    """The neighbour: every card of the hand is played face up, so nothing is withheld."""
    t = seated(api, "star-realms-academy", ["Ana", "Ben"])
    whole = {**SRA_TURN, "active": {"hand": ["Viper"]}}
    sent = event(t, "turn", 1, whole, t["ana"])
    assert sent.status_code == 201, sent.json()
    assert read(t)["events"][-1]["result"] == sent.json()["event"]["result"]


def test_an_illegal_play_shows_every_phone_its_verdict_not_why(api, client):
    """Why Ana's Jett Reno is refused is the Nahla Ake she holds (AC-4.1): her phone is told;
    every other phone reads that the play was not legal, and no card of her hand but the one
    she tried."""
    t = seated(api, AC, ["Ana", "Ben"])
    sent = ac_play(t, ["Nahla Ake", "Jett Reno"], "Jett Reno", "Ben")
    own = sent.json()["event"]["result"]
    assert (own["verdict"], own["code"]) == ("illegal", "must_play_nahla_ake")
    public = read(t)["events"][-1]["result"]
    assert (public["verdict"], public["code"]) == ("illegal", "withheld")
    assert "Nahla" not in json.dumps(public) and "AC-4.1" not in json.dumps(public)
    page = client.get(public["url"])
    assert page.status_code == 200 and "Nahla" not in words(page)
    assert "Nahla" not in words(client.get(f"/t/{t['code']}"))


def test_the_hosts_turn_page_fills_in_the_kept_cards_only_for_a_seat_no_phone_holds(api, client):
    """Ana's kept cards open her next turn's form on her phone. The host's browser, acting for
    her while her phone holds the seat, gets the form without them (no phone shows another
    seat's hidden cards); once her seat is released, the host acts for it whole."""
    t = seated(api, "star-realms-academy", ["Ana", "Ben"])
    assert event(t, "turn", 1, SRA_TURN, t["ana"]).status_code == 201
    bens = {
        "active": {"hand": ["Scout"]},
        "actions": [{"action": "play", "card": "Scout"}, {"action": "end_turn"}],
    }
    sent = event(t, "turn", 2, bens, t["ben"])
    assert sent.status_code == 201, sent.json()
    turn_page = f"/t/{t['code']}/ask/score/{read(t)['version']}"

    client.cookies.clear()
    client.cookies[f"seat_{t['code']}"] = f"1:{t['ana']}"
    assert hand_filled(client.get(turn_page)) == ["Scout", "Imperial Frigate"]

    client.cookies.clear()
    client.cookies[f"host_{t['code']}"] = t["host"]
    hosts = client.get(turn_page)
    assert 'value="1" selected' in hosts.content.decode()  # the host acts for Ana: her turn
    assert hand_filled(hosts) == []

    released = api.delete(
        f"/api/tables/{t['code']}/seats/1/claim/", HTTP_AUTHORIZATION=f"Bearer {t['host']}"
    )
    assert released.status_code == 200
    turn_page = f"/t/{t['code']}/ask/score/{read(t)['version']}"
    assert hand_filled(client.get(turn_page)) == ["Scout", "Imperial Frigate"]


def hand_filled(response) -> list[str]:
    """The hand fields' values on a turn page (its slots hand-1, hand-2, …), filled ones only."""
    fields = re.findall(r'<input[^>]*\bname="hand"[^>]*>', response.content.decode())
    values = [re.search(r'\bvalue="([^"]*)"', field) for field in fields]
    return [html.unescape(value.group(1)) for value in values if value and value.group(1)]


def test_a_star_realms_turns_public_answer_reads_the_same_whatever_the_copy_kept(api):
    """SRA-3.4: Ana plays a Viper and a Scout and keeps one card. Whether she keeps a second
    Scout or an Imperial Frigate (its neighbour), every phone reads the same answer: a kept card
    of the played card's name is never told apart from the one played (SRA-11: "… stays in the
    hand")."""

    def public_for(kept: str) -> dict:
        t = seated(api, "star-realms-academy", ["Ana", "Ben"])
        turn = {
            "active": {"hand": ["Viper", "Scout", kept]},
            "shop_row": SRA_TURN["shop_row"],
            "actions": [
                {"action": "play", "card": "Viper"},
                {"action": "play", "card": "Scout"},
                {"action": "end_turn"},
            ],
        }
        sent = event(t, "turn", 1, turn, t["ana"])
        assert sent.status_code == 201, sent.json()
        public = dict(read(t)["events"][-1]["result"])
        for own in ("id", "url"):
            public.pop(own, None)
        return public

    scout, frigate = public_for("Scout"), public_for("Imperial Frigate")
    assert "Imperial Frigate" not in json.dumps(frigate)
    assert scout == frigate
