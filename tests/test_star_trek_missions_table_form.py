"""The whole-table page without a browser: a name typed with a typo for a player's hand is
answered with "Did you mean …?" buttons (as on the score page), and a button adds that card."""

import html
import re

TABLE = "/games/star-trek-missions/table/"


def page_text(response) -> str:
    return html.unescape(" ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split()))


def test_a_typo_offers_buttons_and_a_button_adds_the_card(client, catalog):
    typo = client.post(
        TABLE, {"players": "1", "current": "0", "p0-name": "Ana", "add": "picrad", "action": "add"}
    )
    assert 'name="pick" value="Captain Jean-Luc Picard"' in typo.content.decode()
    assert "Did you mean Captain Jean-Luc Picard" in page_text(typo)
    picked = client.post(
        TABLE, {"players": "1", "current": "0", "p0-name": "Ana", "pick": "Captain Jean-Luc Picard"}
    )
    assert picked.status_code == 200
    assert 'name="p0-hand" value="Captain Jean-Luc Picard"' in picked.content.decode()


def test_a_button_for_a_card_another_player_holds_adds_nothing(client, catalog):
    response = client.post(
        TABLE,
        {
            "players": "2",
            "current": "1",
            "p0-name": "Ana",
            "p0-hand": "Captain Jean-Luc Picard",
            "p1-name": "Ben",
            "pick": "Captain Jean-Luc Picard",
        },
    )
    assert "Captain Jean-Luc Picard is in Ana's hand: every card exists once." in page_text(
        response
    )
    assert 'name="p1-hand" value="Captain Jean-Luc Picard"' not in response.content.decode()
