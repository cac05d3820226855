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
STANDINGS = "/games/factions/standings/"
BASE = {"p1-name": "Ana", "p2-name": "Ben", "f-amber-coast-controller": "1",
        "f-ashen-peaks-controller": "2", "turn": "1"}


def test_the_url_names():
    assert reverse("factions:check-move") == CHECK
    assert reverse("factions:standings") == STANDINGS


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
    assert re.search(r'id="f-amber-coast-controller".*?<option value="1" selected>', html,
                     re.S)


def test_check_move_lists_the_action_cards_per_faction(client, catalog):
    html = client.get(CHECK).content.decode()
    assert '<option value="attack@amber-coast">Attack (Amber Coast)</option>' in html
    assert '<option value="ambush@frost-reach">Ambush (Frost Reach)</option>' in html
    # The pending attack lists only ATTACK and AMBUSH cards.
    pending = html[html.index('id="pending_card"'):html.index('id="pending_target"')]
    assert "Attack (Amber Coast)" in pending and "Spy (" not in pending


def test_a_renamed_faction_shows_its_new_name(client, catalog):
    definition = AttributeDefinition.objects.get(game__slug="factions", key="faction")
    definition.choices = [{**c, "label": "The Gilded Shore"} if c["value"] == "amber-coast"
                          else c for c in definition.choices]
    definition.save()
    html = client.get(CHECK).content.decode()
    assert "The Gilded Shore" in html and "Amber Coast" not in html


def test_the_form_makes_the_api_body(catalog):
    catalog_ = PageCatalog(Game.objects.get(slug="factions"))
    data = {**BASE, "p1-hand-1": "attack@amber-coast", "p1-hand-3": "spy@ashen-peaks",
            "p2-lost": "2", "p3-own": "frost-reach", "f-ashen-peaks-peak-sentinel-defeated": "on",
            "turn_lost": "", "action": "play", "card": "attack@amber-coast",
            "target_unit": "ashen-peaks@ash-seer", "target_player": "2"}
    body = TableForm(catalog_, data, with_move=True).body()
    position = body["position"]
    assert [p["name"] for p in position["players"]] == ["Ana", "Ben", "Player 3"]
    assert position["players"][0]["hand"] == [{"card": "attack", "faction": "amber-coast"},
                                              {"card": "spy", "faction": "ashen-peaks"}]
    assert position["players"][1]["lost_turns"] == 2
    assert position["players"][2] == {"name": "Player 3", "hand": [], "lost_turns": 0,
                                      "faction": "frost-reach"}
    assert [(f["name"], f["controller"]) for f in position["factions"]] == [
        ("amber-coast", "Ana"), ("ashen-peaks", "Ben")]
    peak = next(u for u in position["factions"][1]["units"] if u["name"] == "Peak Sentinel")
    assert peak == {"name": "Peak Sentinel", "alive": False}
    assert position["turn"] == "Ana" and "pending" not in position
    assert body["move"] == {"action": "play", "card": {"card": "attack", "faction": "amber-coast"},
                            "target_player": "Ben",
                            "target_unit": {"faction": "ashen-peaks", "unit": "ash-seer"}}
    standings = TableForm(catalog_, data, with_move=False).body()
    assert set(standings) == {"factions", "players"}
    assert "hand" not in standings["players"][0]


def test_a_plain_post_shows_the_ruling_and_saves_it(client, catalog):
    data = {**BASE, "p1-hand-1": "sabotage@ashen-peaks", "action": "discard",
            "card": "sabotage@ashen-peaks"}
    response = client.post(CHECK, data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Ruling: Legal" in html and "legal_discard" in html
    assert 'href="/games/factions/#rule-FAC-F2"' in html
    assert "Ana&#x27;s next turn is lost" in html
    result = SavedResult.objects.get(kind="ruling")
    assert f'href="http://testserver/r/{result.id}"' in html
    assert result.request["move"] == {"action": "discard",
                                      "card": {"card": "Sabotage", "faction": "ashen-peaks"}}
    # The form keeps the values.
    assert '<option value="sabotage@ashen-peaks" selected>' in html


def test_an_illegal_move_describes_the_alternatives(client, catalog):
    data = {**BASE, "p1-hand-1": "defence@amber-coast", "action": "play",
            "card": "defence@amber-coast"}
    html = client.post(CHECK, data).content.decode()
    assert "Ruling: Illegal" in html and "defence_is_reactive" in html
    assert "<li>Discard Defence (Amber Coast)</li>" in html
    assert "<li>End the turn</li>" in html


def test_a_pending_attack_and_its_answer(client, catalog):
    data = {**BASE, "p2-hand-1": "defence@ashen-peaks", "pending_card": "attack@amber-coast",
            "pending_target": "ashen-peaks@ember-smith", "action": "pass"}
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
    data = {**BASE, "p1-hand-1": "spy@amber-coast", "p1-hand-2": "spy@amber-coast",
            "p2-hand-5": "spy@amber-coast", "action": "pass"}
    response = client.post(CHECK, data)
    assert response.status_code == 400
    html = response.content.decode()
    assert "The move could not be checked" in html
    assert 'href="#p2-hand-5"' in html  # the third Spy is the one too many
    assert re.search(r'id="p2-hand-5" name="p2-hand-5" aria-invalid="true"', html)


def test_a_required_target_needs_information(client, catalog):
    data = {**BASE, "p1-hand-1": "doctor@amber-coast", "f-amber-coast-tide-archer-defeated": "on",
            "action": "play", "card": "doctor@amber-coast"}
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
    response = client.post(CHECK, {**BASE, "p1-own": "amber-coast", "p2-own": "amber-coast",
                                   "action": "pass"}, headers=headers)
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
