"""A Star Trek: Missions table's own hand form with the hand's choices (issue 25), without
JavaScript: the seat types its cards, "Show this hand's choices" brings the controls of "Score a
hand" for the cards that ask for one (nothing entered yet), the seat picks one and enters the
hand; the table's standings use that choice, exactly as the stateless score endpoint scores the
same hand with the same choice. The page then shows the hand entered, filled in, with the choice
made, for a correction; a hand entered without touching a choice gets the best one (STM-R4),
shown as Tableside's."""

import pytest
from django.test import Client

from tables.models import Table
from tests.test_tables_pages import start, text

pytestmark = pytest.mark.django_db

# Mysterious Plague names a lifeform: 8 for each card of it (5 if Human). By the cards' text:
# Ambassador Sarek 0 (no non-Federation Captain), Spock 6 (with Ambassador Sarek), Commander
# William Riker 0 (no Transporter, Troi or Away Team), Vice Admiral Nakamura 7 (Riker is another
# Federation Command). Vulcan (Sarek, Spock) 2 × 8 = 16, the best; Human (Riker, Nakamura)
# 2 × 5 = 10. So 29 with the best choice, 23 with Human.
PLAGUE = [
    "Mysterious Plague",
    "Ambassador Sarek",
    "Spock",
    "Commander William Riker",
    "Vice Admiral Nakamura",
]
BEST, HUMAN = 29, 23
HOLODECK = ["Holodeck 1", "Leah Brahms"]  # 13


def stateless(hand, choices=None) -> dict:
    body = {"hand": hand, **({"choices": choices} if choices else {})}
    response = Client().post(
        "/api/games/star-trek-missions/score/", body, content_type="application/json"
    )
    assert response.status_code == 200, response.content.decode()[:500]
    return response.json()


def seated() -> tuple[str, Client, Client, Client]:
    host = Client()
    code = start(host)
    ana, ben = Client(), Client()
    assert ana.post(f"/t/{code}/claim", {"seat": "1"}).status_code == 302
    assert ben.post(f"/t/{code}/claim", {"seat": "2"}).status_code == 302
    return code, host, ana, ben


def test_the_hand_totals_are_the_stateless_scores():
    assert stateless(PLAGUE)["total"] == BEST
    assert stateless(PLAGUE, {"Mysterious Plague": {"lifeform": "human"}})["total"] == HUMAN


def test_a_seat_shows_its_hands_choices_picks_one_and_the_standings_use_it():
    code, _, ana, ben = seated()
    # Before any card is typed, the form says where the choices will come.
    assert "shows its choices here once the cards are typed" in text(ana.get(f"/t/{code}"))
    shown = ana.post(f"/t/{code}/form", {"hand": "\n".join(PLAGUE), "preview": "1"})
    assert shown.status_code == 200
    html = shown.content.decode()
    assert '<legend class="choice__title">Mysterious Plague' in html
    assert 'name="choice-mysterious-plague"' in html and '<option value="human">' in html
    assert Table.objects.get(code=code).version == 3  # two claims; nothing entered
    # The cards typed stay in the textarea.
    assert "Vice Admiral Nakamura" in html.split('id="hand-cards"')[1].split("</textarea>")[0]

    entered = ana.post(
        f"/t/{code}/form", {"hand": "\n".join(PLAGUE), "choice-mysterious-plague": "human"}
    )
    assert entered.status_code == 302
    table = Table.objects.get(code=code)
    assert table.state["hands"] == [HUMAN, None]
    assert table.state["choices"][0] == {"Mysterious Plague": {"lifeform": "human"}}
    page = ana.get(f"/t/{code}")
    words = text(page)
    assert f"Ana entered a hand: {HUMAN} points" in words
    assert f"Your hand as entered: {HUMAN} points" in words
    # Filled in for a correction: the cards and the choice made, said to be the player's.
    html = page.content.decode()
    assert "Spock" in html.split('id="hand-cards"')[1].split("</textarea>")[0]
    assert '<option value="human" selected>' in html
    assert "Mysterious Plague: Human Your choice" in words

    assert ben.post(f"/t/{code}/form", {"hand": "\n".join(HOLODECK)}).status_code == 302
    table = Table.objects.get(code=code)
    assert [(row["name"], row["total"]) for row in table.state["standings"]] == [
        ("Ana", HUMAN),
        ("Ben", 13),
    ]
    assert "Ana wins." in text(ben.get(f"/t/{code}"))


def test_a_hand_entered_without_a_choice_gets_the_best_shown_as_tablesides():
    code, _, ana, _ = seated()
    # Names as a player types them: any case, spaces around.
    typed = "\n".join(f"  {name.lower()} " for name in PLAGUE)
    assert ana.post(f"/t/{code}/form", {"hand": typed}).status_code == 302
    table = Table.objects.get(code=code)
    assert table.state["hands"] == [BEST, None]
    assert table.state["cards"][0] == PLAGUE and table.state["choices"][0] == {}
    words = text(ana.get(f"/t/{code}"))
    assert "Mysterious Plague: Vulcan Tableside's choice" in words
    # The correction: a card changed, the choice picked; the new entry replaces the old.
    corrected = [*PLAGUE[:3], "Commander Bruce Maddox", PLAGUE[4]]
    assert (
        ana.post(
            f"/t/{code}/form", {"hand": "\n".join(corrected), "choice-mysterious-plague": "human"}
        ).status_code
        == 302
    )
    expected = stateless(corrected, {"Mysterious Plague": {"lifeform": "human"}})["total"]
    # Maddox scores 0 (no Android or Hologram) and is no Command: Nakamura 0; Spock 6; Human
    # (Maddox, Nakamura) 2 × 5 = 10.
    assert expected == 16
    assert Table.objects.get(code=code).state["hands"] == [expected, None]


def test_a_choice_the_form_does_not_offer_is_read_as_the_best_as_on_score_a_hand():
    code, _, ana, _ = seated()
    # Wesley copies a System or another Engineer; Riker is neither. The control never offers
    # him, and a value the control does not hold is read as "Best", as "Score a hand" reads it.
    hand = ["Ensign Wesley Crusher", "Commander William Riker", "Away Team"]
    response = ana.post(
        f"/t/{code}/form",
        {"hand": "\n".join(hand), "choice-ensign-wesley-crusher": "commander-william-riker"},
    )
    assert response.status_code == 302
    table = Table.objects.get(code=code)
    assert table.state["choices"][0] == {}
    assert table.state["hands"][0] == stateless(hand)["total"]


def test_the_host_enters_a_seats_hand_with_its_choice_and_sees_that_seat_again():
    code, host, _, _ = seated()
    response = host.post(
        f"/t/{code}/form",
        {"seat": "2", "hand": "\n".join(PLAGUE), "choice-mysterious-plague": "human"},
    )
    assert response.status_code == 302 and response["Location"] == f"/t/{code}?seat=2"
    page = host.get(response["Location"])
    words = text(page)
    assert f"Seat 2's hand as entered: {HUMAN} points" in words
    html = page.content.decode()
    assert '<option value="2" selected>' in html and '<option value="human" selected>' in html
    assert Table.objects.get(code=code).state["hands"] == [None, HUMAN]


def test_once_every_hand_is_in_the_table_offers_score_the_table_filled_in():
    code, _, ana, ben = seated()
    assert (
        ana.post(
            f"/t/{code}/form", {"hand": "\n".join(PLAGUE), "choice-mysterious-plague": "human"}
        ).status_code
        == 302
    )
    html = ana.get(f"/t/{code}").content.decode()
    assert 'id="score-the-table"' not in html  # Ben has not entered a hand yet
    assert ben.post(f"/t/{code}/form", {"hand": "\n".join(HOLODECK)}).status_code == 302
    live = ana.get(f"/t/{code}/live")  # the polled part offers it too
    link = live.content.decode().split('id="score-the-table"')[0].rsplit('href="', 1)[1]
    link = link.split('"')[0].replace("&amp;", "&")
    assert link.startswith("/games/star-trek-missions/table/?")
    page = Client().get(link)
    assert page.status_code == 200
    words = text(page)
    # Every hand and Ana's choice, as entered: the same standings as the table's.
    assert "Ana wins" in words and f"{HUMAN}" in words
    assert '<option value="human" selected>' in page.content.decode()
