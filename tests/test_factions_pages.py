"""The Factions pages through Django's test client: "Check a move" and "Standings" render the
catalog's names, turn the form into the API body, call the same services, and show each problem
by its field (plain POST and htmx)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from cards.models import AttributeDefinition, Game
from games.factions.pages import PageCatalog, TableForm
from results.models import SavedResult

pytestmark = pytest.mark.django_db

CHECK = "/games/factions/check-move/"
STANDINGS = "/games/factions/score/"
BASE = {
    "p1-name": "Ana",
    "p2-name": "Ben",
    "f-amber-coast-controller": "1",
    "f-ashen-peaks-controller": "2",
    "turn": "1",
}


def test_the_url_names():
    assert reverse("factions:ruling") == CHECK
    assert reverse("factions:score") == STANDINGS


@pytest.mark.parametrize("url", [CHECK, STANDINGS])
def test_the_pages_render_the_catalog(client, catalog, url):
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("Amber Coast", "Frost Reach", "Harbour Captain", "Sled Driver"):
        assert name in html
    assert "badge--provisional" in html  # the sample names say so
    assert "<script>" not in html and "<script " not in html.replace("<script src=", "")
    assert "style=" not in html
    assert not re.search(r'(src|href)="(https?:)?//', html)
    assert 'name="csrfmiddlewaretoken"' in html
    # The first two seats control the first two factions to start with.
    assert re.search(r'id="f-amber-coast-controller".*?<option value="1" selected>', html, re.S)


def test_check_move_lists_the_action_cards_per_faction(client, catalog):
    html = client.get(CHECK).content.decode()
    assert '<option value="attack@amber-coast">Attack (Amber Coast)</option>' in html
    assert '<option value="ambush@frost-reach">Ambush (Frost Reach)</option>' in html
    # The pending attack lists only ATTACK and AMBUSH cards.
    pending = html[html.index('id="pending_card"') : html.index('id="pending_target"')]
    assert "Attack (Amber Coast)" in pending and "Spy (" not in pending


def test_a_renamed_faction_shows_its_new_name(client, catalog):
    definition = AttributeDefinition.objects.get(game__slug="factions", key="faction")
    definition.choices = [
        {**c, "label": "The Gilded Shore"} if c["value"] == "amber-coast" else c
        for c in definition.choices
    ]
    definition.save()
    html = client.get(CHECK).content.decode()
    assert "The Gilded Shore" in html and "Amber Coast" not in html


def test_the_form_makes_the_api_body(catalog):
    catalog_ = PageCatalog(Game.objects.get(slug="factions"))
    data = {
        **BASE,
        "p1-hand-1": "attack@amber-coast",
        "p1-hand-3": "spy@ashen-peaks",
        "p2-lost": "2",
        "p3-own": "frost-reach",
        "f-ashen-peaks-peak-sentinel-defeated": "on",
        "turn_lost": "",
        "action": "play",
        "card": "attack@amber-coast",
        "target_unit": "ashen-peaks@ash-seer",
        "target_player": "2",
    }
    body = TableForm(catalog_, data, with_move=True).body()
    position = body["position"]
    assert [p["name"] for p in position["players"]] == ["Ana", "Ben", "Player 3"]
    assert position["players"][0]["hand"] == [
        {"card": "attack", "faction": "amber-coast"},
        {"card": "spy", "faction": "ashen-peaks"},
    ]
    assert position["players"][1]["lost_turns"] == 2
    assert position["players"][2] == {
        "name": "Player 3",
        "hand": [],
        "lost_turns": 0,
        "faction": "frost-reach",
    }
    # Player 3's own faction is theirs: the controller follows the choice.
    assert [(f["name"], f["controller"]) for f in position["factions"]] == [
        ("amber-coast", "Ana"),
        ("ashen-peaks", "Ben"),
        ("frost-reach", "Player 3"),
    ]
    peak = next(u for u in position["factions"][1]["units"] if u["name"] == "Peak Sentinel")
    assert peak == {"name": "Peak Sentinel", "alive": False}
    assert position["turn"] == "Ana" and "pending" not in position
    assert body["move"] == {
        "action": "play",
        "card": {"card": "attack", "faction": "amber-coast"},
        "target_player": "Ben",
        "target_unit": {"faction": "ashen-peaks", "unit": "ash-seer"},
    }
    standings = TableForm(catalog_, data, with_move=False).body()
    assert set(standings) == {"factions", "players"}
    assert "hand" not in standings["players"][0]


def test_a_plain_post_shows_the_ruling_and_saves_it(client, catalog):
    data = {
        **BASE,
        "p1-hand-1": "sabotage@ashen-peaks",
        "action": "discard",
        "card": "sabotage@ashen-peaks",
    }
    response = client.post(CHECK, data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Ruling: Legal" in html and "legal_discard" in html
    assert 'href="/games/factions/#rule-FAC-F2"' in html
    assert "Ana&#x27;s next turn is lost" in html
    result = SavedResult.objects.get(kind="ruling")
    assert f'href="http://testserver/r/{result.id}"' in html
    assert result.request["move"] == {
        "action": "discard",
        "card": {"card": "Sabotage", "faction": "ashen-peaks"},
    }
    # The form keeps the values.
    assert '<option value="sabotage@ashen-peaks" selected>' in html


def test_an_illegal_move_describes_the_alternatives(client, catalog):
    data = {
        **BASE,
        "p1-hand-1": "defence@amber-coast",
        "action": "play",
        "card": "defence@amber-coast",
    }
    html = client.post(CHECK, data).content.decode()
    assert "Ruling: Illegal" in html and "defence_is_reactive" in html
    assert "<li>Discard Defence (Amber Coast)</li>" in html
    assert "<li>End the turn</li>" in html


def test_a_pending_attack_and_its_answer(client, catalog):
    data = {
        **BASE,
        "p2-hand-1": "defence@ashen-peaks",
        "pending_card": "attack@amber-coast",
        "pending_target": "ashen-peaks@ember-smith",
        "action": "pass",
    }
    html = client.post(CHECK, data).content.decode()
    assert "Ruling: Legal" in html and "legal_let_through" in html
    assert "Ember Smith (Ashen Peaks) is defeated (FAC-6)." in html
    data["action"] = "discard"
    data["card"] = "defence@ashen-peaks"
    html = client.post(CHECK, data).content.decode()
    assert "awaiting_answer" in html
    assert "<li>Defend with Defence (Ashen Peaks)</li>" in html
    assert "<li>Let the attack through (pass)</li>" in html


def test_problems_are_shown_by_their_field(client, catalog):
    data = {
        **BASE,
        "p1-hand-1": "spy@amber-coast",
        "p1-hand-2": "spy@amber-coast",
        "p2-hand-5": "spy@amber-coast",
        "action": "pass",
    }
    response = client.post(CHECK, data)
    assert response.status_code == 400
    html = response.content.decode()
    assert "The move could not be checked" in html
    assert 'href="#p2-hand-5"' in html  # the third Spy is the one too many
    assert re.search(r'id="p2-hand-5" name="p2-hand-5" aria-invalid="true"', html)


def test_a_required_target_needs_information(client, catalog):
    data = {
        **BASE,
        "p1-hand-1": "doctor@amber-coast",
        "f-amber-coast-tide-archer-defeated": "on",
        "action": "play",
        "card": "doctor@amber-coast",
    }
    html = client.post(CHECK, data).content.decode()
    assert "Ruling: Needs information" in html and "Missing information" in html
    assert "one of Tide Archer (Amber Coast)" in html


def test_htmx_gets_the_fragment_and_the_form_out_of_band_on_errors(client, catalog):
    headers = {"HX-Request": "true"}
    response = client.post(CHECK, {**BASE, "action": "end_turn"}, headers=headers)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert "Ruling: Legal" in html and 'hx-swap-oob="true"' not in html
    assert response["Vary"] and "HX-Request" in response["Vary"]
    response = client.post(
        CHECK,
        {**BASE, "p1-own": "amber-coast", "p2-own": "amber-coast", "action": "pass"},
        headers=headers,
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="move-form" method="post" hx-swap-oob="true"' in html
    assert "both chose Amber Coast" in html


def test_standings_plain_and_htmx(client, catalog):
    data = {**BASE, "p1-own": "amber-coast", "p2-own": "ashen-peaks"}
    for unit in ("peak-sentinel", "ember-smith", "cliff-runner", "ash-seer", "stone-drummer"):
        data[f"f-ashen-peaks-{unit}-defeated"] = "on"
    response = client.post(STANDINGS, data)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ana wins" in html and "Eliminated" in html
    assert "Only Ana still controls a surviving unit: Ana wins (FAC-18)." in html
    assert SavedResult.objects.get(kind="score").response["winner"] == "Ana"
    response = client.post(STANDINGS, {**BASE}, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert "<html" not in html and "No winner yet" in html


def test_standings_errors_by_field(client, catalog):
    response = client.post(STANDINGS, {**BASE, "f-frost-reach-controller": "2"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "3 factions in play for 2 players" in html
    assert 'href="#f-amber-coast-controller"' in html


# The page's defaults (seat 1 controls the first faction, seat 2 the second) as a browser without
# JavaScript sends them: each controller with the hidden field saying the page chose it.
DEFAULTS = {
    "f-amber-coast-controller": "1",
    "f-amber-coast-controller-auto": "1",
    "f-ashen-peaks-controller": "2",
    "f-ashen-peaks-controller-auto": "2",
    "f-frost-reach-controller": "",
    "f-frost-reach-controller-auto": "",
    "f-verdant-march-controller": "",
    "f-verdant-march-controller-auto": "",
}


def test_the_controller_follows_each_players_own_faction(client, catalog):
    """Issue 23: Ana chooses Frost Reach and Ben Verdant March, leaving the controllers as the
    page set them by seat order; the table is an ordinary one, not "cannot exist"."""
    data = {
        **DEFAULTS,
        "p1-name": "Ana",
        "p2-name": "Ben",
        "p1-own": "frost-reach",
        "p2-own": "verdant-march",
    }
    catalog_ = PageCatalog(Game.objects.get(slug="factions"))
    standings = TableForm(catalog_, data, with_move=False).body()
    assert sorted((f["name"], f["controller"]) for f in standings["factions"]) == [
        ("frost-reach", "Ana"),
        ("verdant-march", "Ben"),
    ]
    response = client.post(STANDINGS, data)
    html = response.content.decode()
    assert "cannot exist" not in html and "could not be" not in html
    assert "No winner yet" in html
    assert "Ana controls Frost Reach (own faction)" in html
    assert "Ben controls Verdant March (own faction)" in html
    # The form shows the controllers that were scored.
    assert re.search(r'id="f-frost-reach-controller".*?<option value="1" selected>', html, re.S)
    amber = re.search(r'id="f-amber-coast-controller".*?</select>', html, re.S).group(0)
    assert "selected" not in amber  # "Not in play"


def test_a_controller_a_person_chose_stays_chosen(catalog):
    """Ana's own Frost Reach was conquered by Ben: the controller chosen by hand (no longer the
    page's default) is kept, and Ana's default faction still gives way."""
    data = {
        **DEFAULTS,
        "p1-name": "Ana",
        "p2-name": "Ben",
        "p1-own": "frost-reach",
        "p2-own": "ashen-peaks",
        "f-frost-reach-controller": "2",
        "f-frost-reach-controller-auto": "chosen",
    }
    catalog_ = PageCatalog(Game.objects.get(slug="factions"))
    body = TableForm(catalog_, data, with_move=False).body()
    assert sorted((f["name"], f["controller"]) for f in body["factions"]) == [
        ("ashen-peaks", "Ben"),
        ("frost-reach", "Ben"),
    ]


def test_the_neighbour_two_players_choosing_one_faction_is_still_refused(client, catalog):
    data = {
        **DEFAULTS,
        "p1-name": "Ana",
        "p2-name": "Ben",
        "p1-own": "frost-reach",
        "p2-own": "frost-reach",
    }
    html = client.post(STANDINGS, data).content.decode()
    assert "Ana and Ben both chose Frost Reach" in html
