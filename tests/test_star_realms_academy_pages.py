"""The "Check a move" and "Break down a turn" pages without a browser: the form posts the API's
body to the same services, plain POST gives the whole page, htmx the fragment, problems land by
their fields, and missing card values link to the admin."""

import re

import pytest
from django.urls import reverse

from cards.models import Card
from results.models import SavedResult

pytestmark = pytest.mark.django_db

CHECK = "/games/star-realms-academy/check-move/"
TURN = "/games/star-realms-academy/score/"
HTMX = {"HTTP_HX_REQUEST": "true"}


def board(**extra):
    data = {
        "active_name": "Ana",
        "active_health": "15",
        "active_coins": "0",
        "active_combat": "0",
        "hand": ["Imperial Frigate", "Scout"],
        "opponent_name": "Ben",
        "opponent_health": "15",
        "opponent_coins": "1",
        "opponent_base_1": "The Hive",
        "opponent_base_1_damage": "0",
        "shop_row": ["Ram", "Corvette", "Freighter"],
    }
    data.update(extra)
    return data


def test_the_url_names_and_the_links_from_the_game_page(client, catalog):
    assert reverse("star_realms_academy:ruling") == CHECK
    assert reverse("star_realms_academy:score") == TURN
    page = client.get("/games/star-realms-academy/").content.decode()
    assert f'href="{CHECK}"' in page and f'href="{TURN}"' in page


def test_the_check_page_offers_every_card(client, catalog):
    response = client.get(CHECK)
    content = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Check a move</h1>" in content
    cards = re.search(r'<datalist id="sra-cards">(.*?)</datalist>', content, re.S).group(1)
    assert cards.count("<option") == 17
    assert '<option value="Ram">Blob · Ship · cost 1</option>' in cards
    targets = re.search(r'<datalist id="sra-targets">(.*?)</datalist>', content, re.S).group(1)
    assert '<option value="health">' in targets and '<option value="The Hive">' in targets
    assert 'list="sra-cards"' in content and "csrfmiddlewaretoken" in content
    assert "style=" not in content and "<script>" not in content  # a strict CSP


def test_a_move_without_javascript_gives_the_whole_page(client, catalog):
    data = board(action_0="play", card_0="imperial frigate")
    response = client.post(CHECK, data)
    content = response.content.decode()
    assert response.status_code == 200
    assert "<html" in content and "Ruling: Legal" in content
    assert "ship_played" in content and "Legal: Ana plays Imperial Frigate and gets 2 Combat." in (
        content
    )
    assert 'href="/games/star-realms-academy/#rule-SRA-6"' in content
    assert "After the move" in content
    result = SavedResult.objects.latest("created_at")
    assert f"/r/{result.id}" in content
    assert result.request["move"] == {"action": "play", "card": "Imperial Frigate"}  # understood
    # The values are kept in the form.
    assert 'value="imperial frigate"' in content


def test_htmx_gets_the_fragment(client, catalog):
    data = board(
        action_0="attack",
        target_0="health",
        amount_0="1",
        active_combat="2",
        in_play=["Imperial Frigate"],
    )
    response = client.post(CHECK, data, **HTMX)
    content = response.content.decode()
    assert response.status_code == 200 and "<html" not in content
    assert "Ruling: Illegal" in content and "base_shields_health" in content
    assert "Legal moves instead" in content and "Attack The Hive with 1 Combat" in content
    assert response["Vary"].endswith("HX-Request")


def test_missing_values_link_to_the_admin(client, catalog):
    corvette = Card.objects.get(game__slug="star-realms-academy", slug="corvette")
    from django.contrib.auth import get_user_model  # the fill-in button is for staff (issue 15)

    client.force_login(get_user_model().objects.create_user("staff", is_staff=True))
    response = client.post(CHECK, board(action_0="buy", card_0="Corvette", active_coins="5"))
    content = response.content.decode()
    assert "Ruling: Needs information" in content
    admin = reverse("admin:cards_card_change", args=[corvette.pk])
    assert f'href="{admin}"' in content and "Fill in Corvette's cost (admin)" in content
    assert 'href="/games/star-realms-academy/cards/corvette/"' in content


def test_problems_show_by_their_fields(client, catalog):
    data = board(action_0="play", card_0="Scout", hand=["Imperial Zzzzz"], active_health="16")
    response = client.post(CHECK, data)
    content = response.content.decode()
    assert response.status_code == 400
    assert "The move could not be checked" in content
    assert re.search(r'id="hand-1"[^>]*aria-invalid="true"', content)
    assert re.search(
        r'Did you mean <a class="fill-link" href="[^"]*">Imperial Frigate</a>\?', content
    )
    assert '<a href="#hand-1">' in content
    # Fixed: an impossible position names its field too.
    data["hand"] = ["Imperial Frigate"]
    response = client.post(CHECK, data, **HTMX)
    content = response.content.decode()
    assert response.status_code == 400 and 'hx-swap-oob="true"' in content
    assert re.search(r'id="active-health"[^>]*aria-invalid="true"', content)
    assert "Health never goes above 15" in content


def test_the_turn_page_breaks_a_turn_down(client, catalog):
    data = board(
        action_1="play",
        card_1="Imperial Frigate",
        action_2="attack",
        target_2="The Hive",
        amount_2="1",
        action_3="attack",
        target_3="health",
        action_4="end_turn",
    )
    response = client.post(TURN, data)
    content = response.content.decode()
    assert response.status_code == 200
    assert "Every action is legal" in content
    assert "Ben lost 1 Health this turn; it is Ben's turn." in content
    rows = re.findall(r'<tr class="sra-steps__row sra-steps__row--legal">(.*?)</tr>', content, re.S)
    assert len(rows) == 4
    numbers = [re.findall(r'<td class="num">(\d+)</td>', row) for row in rows]
    # Coins, Combat, drawn, Health, the opponent's Health after each action.
    assert numbers == [
        ["0", "2", "0", "15", "15"],
        ["0", "1", "0", "15", "15"],
        ["0", "0", "0", "15", "14"],
        ["0", "0", "3", "15", "14"],
    ]
    assert "The Hive, 0 of 1" in content
    result = SavedResult.objects.latest("created_at")
    assert result.kind == "score" and f"/r/{result.id}" in content
    assert [a["action"] for a in result.request["actions"]] == [
        "play",
        "attack",
        "attack",
        "end_turn",
    ]


def test_the_turn_page_shows_where_it_stops(client, catalog):
    data = board(
        action_1="play", card_1="Scout", action_2="buy", card_2="Corvette", action_3="end_turn"
    )
    response = client.post(TURN, data, **HTMX)
    content = response.content.decode()
    assert response.status_code == 200 and "<html" not in content
    assert "Stopped at action 2: needs information" in content
    assert "Why action 2 stops the breakdown" in content
    # The missing value is named for everyone; the admin's link to fill it in is for staff only.
    assert "Corvette</a>: cost unknown" in content
    assert "Fill in Corvette's cost (admin)" not in content
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.create_user("staff", is_staff=True))
    content = client.post(TURN, data, **HTMX).content.decode()
    assert "Fill in Corvette's cost (admin)" in content


def test_the_turn_page_puts_problems_by_their_action(client, catalog):
    data = board(action_1="play", card_1="Scout", action_3="play", card_3="Survey Zzzz")
    response = client.post(TURN, data)
    content = response.content.decode()
    assert response.status_code == 400
    # The second filled row is request path actions[1]: the form's third row.
    assert re.search(r'id="card-3"[^>]*aria-invalid="true"', content)
    assert re.search(r'Did you mean <a class="fill-link" href="[^"]*">Survey Ship</a>', content)


def test_the_saved_results_pages(client, catalog):
    client.post(CHECK, board(action_0="end_turn"))
    ruling = SavedResult.objects.latest("created_at")
    assert client.get(f"/r/{ruling.id}").status_code == 200
    client.post(TURN, board(action_1="end_turn"))
    score = SavedResult.objects.latest("created_at")
    assert score.kind == "score" and client.get(f"/r/{score.id}").status_code == 200


def test_sra_r8_a_pool_with_no_source_is_shown_by_the_combat_field(client, catalog):
    data = board(action_0="attack", target_0="The Hive", amount_0="1", active_combat="2")
    response = client.post(CHECK, data, **HTMX)
    content = response.content.decode()
    assert response.status_code == 400
    assert re.search(r'id="active-combat"[^>]*aria-invalid="true"', content)
    assert "a Combat pool comes only from abilities used this turn" in content
    assert '<a href="#active-combat">' in content
    data["in_play"] = ["Imperial Frigate"]
    assert client.post(CHECK, data).status_code == 200
    # The turn page too, and a pool only an unknown value could explain needs it.
    turn = board(action_1="attack", target_1="The Hive", amount_1="1", active_combat="2")
    response = client.post(TURN, turn)
    assert response.status_code == 400
    assert re.search(r'id="active-combat"[^>]*aria-invalid="true"', response.content.decode())
    unknown = client.post(CHECK, {**data, "in_play": ["Corvette"]}).content.decode()
    assert "whether Corvette&#x27;s primary ability explains the rest is not known" in unknown


@pytest.mark.parametrize(
    "typed",
    ["health", "Health", "their Health", "Ben", "ben's health", "the opponent", "Ben’s Health"],
)
def test_an_attack_on_the_opponent_by_their_name_or_their_health(client, catalog, typed):
    """Issue 23: the opponent's name, or "their Health", is the opponent's Health on the page."""
    data = board(
        action_0="attack",
        target_0=typed,
        amount_0="1",
        active_combat="2",
        opponent_base_1="",
        in_play=["Imperial Frigate"],
    )
    content = client.post(CHECK, data, **HTMX).content.decode()
    assert "Ruling: Legal" in content
    assert SavedResult.objects.latest("created_at").request["move"]["target"] == "health"


def test_another_name_is_still_read_as_a_base(client, catalog):
    """The neighbour: a name that is not the opponent's stays a base's name (and is refused as
    one, with the bases it could be)."""
    data = board(
        action_0="attack",
        target_0="Bob",
        amount_0="1",
        active_combat="2",
        opponent_base_1="",
        in_play=["Imperial Frigate"],
    )
    content = client.post(CHECK, data, **HTMX).content.decode()
    assert "Ruling: Legal" not in content and "Bob" in content


# --- Issue 32: the pages say only what the position fixes (SRA-R9 to SRA-R11) -------------------

KEPT_ALL = ["Scout", "Scout", "Scout", "Scout", "Scout", "Viper"]


def test_the_check_page_shows_a_draw_the_counts_decide(client, catalog):
    content = client.post(CHECK, board(hand=KEPT_ALL, action_0="end_turn")).content.decode()
    assert "Ruling: Legal" in content
    assert "Ana draws up to 3 cards (give the deck and discard pile counts to know how many)" in (
        content
    )
    assert re.search(r"<dt>Cards drawn</dt><dd>up to 3</dd>", content)
    assert (
        "and up to 3 drawn cards not named (the deck and discard pile counts decide how "
        "many)" in content
    )
    assert "SRA-R9" in content
    # Its neighbour: the counts given, the number they fix.
    counted = client.post(
        CHECK, board(hand=KEPT_ALL, action_0="end_turn", active_deck="0", active_discard_pile="0")
    ).content.decode()
    assert "Ana draws 0 cards;" in counted
    assert re.search(r"<dt>Cards drawn</dt><dd>0</dd>", counted)
    assert "drawn cards not named" not in counted


def test_the_turn_page_asks_for_a_refill_not_named(client, catalog):
    row = ["Recycling Station", "Federation Shuttle", "Trade Escort", "Ram", "Corvette"]
    data = board(
        active_coins="2", shop_row=row, action_1="buy", card_1="Ram", action_2="buy", card_2="Ram"
    )
    content = client.post(TURN, data).content.decode()
    assert "Stopped at action 2: needs information" in content
    assert "Missing information" in content and "Missing card values" not in content
    assert "Which card refilled the shop row after Ram was bought (action 1)?" in content
    assert "SRA-R10" in content
    named = client.post(TURN, {**data, "refill_1": "Ram"}).content.decode()
    assert "Every action is legal" in named and "Missing information" not in named


def test_the_turn_page_keeps_combat_beyond_a_bases_defense_in_the_pool(client, catalog):
    data = board(
        in_play=["Imperial Frigate"],
        active_combat="2",
        action_1="attack",
        target_1="The Hive",
        amount_1="2",
        action_2="attack",
        target_2="health",
    )
    content = client.post(TURN, data).content.decode()
    assert "Every action is legal" in content
    assert "The Hive needed only 1 Combat to fall; the other 1 stays in the pool (SRA-R11)." in (
        content
    )
    assert "Ben lost 1 Health this turn" in content
    exact = client.post(TURN, {**data, "amount_1": "1"}).content.decode()
    assert "Every action is legal" in exact and "SRA-R11" not in exact
    assert "Ben lost 1 Health this turn" in exact
