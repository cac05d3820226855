"""Every game's pages under the same words (issue 31): /games/<game>/check-move/ and
/games/<game>/score/. The addresses before that send on with 308, the query kept, so a bookmark,
a shared link or QR code, and a form queued offline on a page loaded before the change (a POST:
308 keeps its method and body) still reach the page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from common.games import games

EARLIER = [
    ("/games/academy-credits/check-play/", "academy_credits:ruling"),
    ("/games/academy-credits/score-round/", "academy_credits:score"),
    ("/games/factions/standings/", "factions:score"),
    ("/games/star-realms-academy/turn/", "star_realms_academy:score"),
    ("/games/star-trek-missions/check-turn/", "star_trek_missions:ruling"),
]


def test_every_game_checks_a_move_and_scores_at_the_same_words():
    for game in games():
        app = game.package.rsplit(".", 1)[1]
        assert reverse(f"{app}:ruling") == f"/games/{game.slug}/check-move/"
        assert reverse(f"{app}:score") == f"/games/{game.slug}/score/"


@pytest.mark.parametrize(("earlier", "url_name"), EARLIER)
def test_an_earlier_address_sends_on_with_its_query(client, catalog, earlier, url_name):
    moved = client.get(earlier + "?hand=Guard&table=2")
    assert moved.status_code == 308
    assert moved["Location"] == reverse(url_name) + "?hand=Guard&table=2"
    bare = client.get(earlier)
    assert bare.status_code == 308 and bare["Location"] == reverse(url_name)
    # Followed, the page answers as at its own address.
    assert client.get(earlier, follow=True).status_code == 200


def test_a_form_sent_to_an_earlier_address_is_sent_again_as_it_was(client, catalog):
    """A POST keeps its method and body through the 308: the page answers the form."""
    form = {"cards": "Captain Jean-Luc Picard\nCommander William Riker"}
    direct = client.post(reverse("academy_credits:score"), form)
    moved = client.post("/games/academy-credits/score-round/", form, follow=True)
    assert moved.redirect_chain == [(reverse("academy_credits:score"), 308)]
    assert moved.request["REQUEST_METHOD"] == "POST"
    # The form's own answer (here: its problems, 400), where a GET would show an empty form.
    assert direct.status_code == moved.status_code == 400
    assert client.get(reverse("academy_credits:score")).status_code == 200
