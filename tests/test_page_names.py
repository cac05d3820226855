"""Every page reads a card name the same way (web.page_names): exact, slug, unique prefix or
word, then a unique close spelling; what still names no card gets "Did you mean …?" links (or, on
the score page, buttons) that fill the field in. The API keeps API.md's exact names."""

import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

from cards.models import Game
from games.star_trek_missions.pages import Deck
from web.page_names import filled_pairs, read_name
from web.page_results import link_pairs

TURN = "/games/star-trek-missions/check-move/"


def field_errors(html: str) -> dict[str, str]:
    return {
        m.group(1): m.group(2)
        for m in re.finditer(r'<p class="field__error" id="([^"]+)-error">(.*?)</p>', html, re.S)
    }


def turn(client, **fields):
    data = {"action": "take_discard", **fields}
    return client.post(TURN, data)


def star_trek_missions_names():
    game = Game.objects.get(slug="star-trek-missions")
    return [c.name for c in game.cards.all()]


LEGAL_TURN = {
    "hand": [
        "Captain Jean-Luc Picard",
        "Commander William Riker",
        "worf",
        "Photon Torpedoes",
        "Bridge",
        "Away Team",
        "Borg Cube",
    ],
    "discard_area": ["Tricorder", "Time Distortion"],
    "galaxy_deck": "30",
    "mission_deck": "14",
    "action": "take_discard",
    "take": "tricorder",
    "discard": "bridge",
}


def test_check_turn_reads_worf_and_kurn_as_the_score_page_does(client, catalog):
    deck = Deck(Game.objects.get(slug="star-trek-missions"))
    for typed in ("worf", "kurn"):
        card, problem = deck.find(typed)
        assert card is not None, problem
        response = client.post(
            TURN,
            {
                **LEGAL_TURN,
                "hand": [typed if name == "worf" else name for name in LEGAL_TURN["hand"]],
            },
        )
        html = unescape(response.content.decode())
        assert response.status_code == 200, field_errors(html)
        assert "Ruling: Legal" in html
        # The ruling names the card the player meant.
        assert card.name in html


def test_a_name_that_names_no_card_offers_links_that_fill_the_field(client, catalog):
    response = turn(client, hand=["Worf", "jet renno zz"], discard_area=["picrad"])
    errors = field_errors(response.content.decode())
    message = errors["discard-area-1"]
    assert "No card named" in unescape(message) and "Did you mean" in message
    links = re.findall(r'<a class="fill-link" href="([^"]+)">([^<]+)</a>', message)
    assert links, message
    href, name = links[0]
    assert name in star_trek_missions_names()
    query = parse_qs(urlsplit(unescape(href)).query)
    assert urlsplit(unescape(href)).path == TURN
    # The link is the form's input with the name in place of what was typed.
    assert query["discard_area"] == [name]
    assert query["hand"][0] == "Worf"
    assert "picrad" not in unescape(href)


def test_the_api_keeps_exact_names(client, catalog):
    body = {
        "position": {"hand": ["worf"], "discard_area": [], "galaxy_deck": 10, "mission_deck": 10},
        "move": {"action": "take_discard"},
    }
    response = client.post(
        "/api/games/star-trek-missions/rulings/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "unknown_card"


def test_score_page_suggestions_are_buttons_that_add_the_card(client, catalog):
    url = "/games/star-trek-missions/score/"
    html = client.post(url, {"add": "jet renno zz", "action": "add"}).content.decode()
    error = field_errors(html).get("add-card", "")
    buttons = re.findall(
        r'<button type="submit" class="fill-button" name="pick" value="([^"]+)"', error
    )
    assert buttons, error
    name = unescape(buttons[0])
    html = client.post(url, {"add": "jet renno zz", "pick": name}).content.decode()
    hand = re.findall(r'<li class="hand-card[^"]*" id="[^"]+">(.*?)</li>', html, re.S)
    assert len(hand) == 1 and name in unescape(hand[0])
    assert "add-card-error" not in html
    assert 'value="jet renno zz"' not in html  # the field is emptied once the card is in


def test_filled_pairs_replace_a_whole_field_or_one_item_of_a_list():
    pairs = [("hand", "wrof"), ("discards", "Jett Reno, wrof"), ("name", "wrofx")]
    assert filled_pairs(pairs, "wrof", "Worf") == [
        ("hand", "Worf"),
        ("discards", "Jett Reno, Worf"),
        ("name", "wrofx"),
    ]


def test_read_name_is_exact_then_prefix_then_word_then_close(catalog):
    from cards.naming import NamedCard

    named = [
        NamedCard(n, n.lower().replace(" ", "-"))
        for n in ("Jett Reno", "Jean Picard", "Jean Luc", "Worf")
    ]
    assert read_name("jett-reno", named).card.name == "Jett Reno"
    assert read_name("jet", named).card.name == "Jett Reno"
    assert read_name("picard", named).card.name == "Jean Picard"
    assert read_name("wrof", named).card is None or read_name("wrof", named).card.name == "Worf"
    assert read_name("jean", named).card is None  # two cards: suggestions, never a guess
    assert set(read_name("jean", named).suggestions) == {"Jean Picard", "Jean Luc"}


def test_link_pairs_leave_out_the_token():
    from django.http import QueryDict

    assert link_pairs(QueryDict("csrfmiddlewaretoken=x&hand=a&hand=")) == [("hand", "a")]


def test_every_game_page_reads_a_typo_it_can(client, catalog):
    from tests.test_academy_credits_pages import CHECK as AC_CHECK
    from tests.test_academy_credits_pages import play_form
    from tests.test_star_realms_academy_pages import CHECK as SRA_CHECK
    from tests.test_star_realms_academy_pages import TURN as SRA_TURN
    from tests.test_star_realms_academy_pages import board

    ac = client.post(AC_CHECK, play_form(play="Jet Reno"))
    assert "No card named" not in unescape(ac.content.decode())
    assert "Jett Reno" in unescape(ac.content.decode())
    sra = client.post(
        SRA_CHECK,
        board(action_0="play", card_0="Scout", hand=["Imperial Frigat"], active_health="16"),
    )
    assert "No card named" not in unescape(sra.content.decode())
    sra_turn = client.post(
        SRA_TURN, board(action_1="play", card_1="Scout", action_3="play", card_3="Survay Ship")
    )
    assert "No card named" not in unescape(sra_turn.content.decode())
    assert "Survey Ship" in unescape(sra_turn.content.decode())
