"""Catalog integrity through the admin (issue 22): renaming a card keeps every rule that names it
(so no other card's score changes), and the CSV export never hands a spreadsheet a live formula."""

import csv
import io
import json

import pytest
from django.urls import reverse

from cards import imports
from cards.models import Card, Game

from .test_admin import change_url, form_data

pytestmark = pytest.mark.django_db

STM = "star-trek-missions"
SCORE = f"/api/games/{STM}/score/"


def score(client, hand):
    response = client.post(SCORE, json.dumps({"hand": hand}), content_type="application/json")
    assert response.status_code == 200, response.json()
    return response.json()


def rename(admin_client, card: Card, new_name: str):
    data = form_data(admin_client.get(change_url(card)))
    data["name"] = new_name
    return admin_client.post(change_url(card), data, follow=True)


def test_renaming_a_card_in_the_admin_keeps_the_scores_of_the_cards_naming_it(
    admin_client, client, catalog
):
    before = score(client, ["Captain Jean-Luc Picard", "Bridge"])
    assert before["total"] == 5 and before["steps"][0]["detail"] == "5 with Bridge"
    bridge = Card.objects.get(game__slug=STM, name="Bridge")
    naming = sorted(
        card.name
        for card in Card.objects.filter(game__slug=STM)
        if "Bridge" in json.dumps(card.rule)
    )
    assert "Captain Jean-Luc Picard" in naming

    page = rename(admin_client, bridge, "Main Bridge")
    assert page.status_code == 200
    html = page.content.decode()
    assert "now use its new name" in html and "Captain Jean-Luc Picard" in html

    after = score(client, ["Captain Jean-Luc Picard", "Main Bridge"])
    assert after["total"] == 5 and after["steps"][0]["detail"] == "5 with Main Bridge"
    # Every rule that named the card names it by its new name; none names the old one.
    for card in Card.objects.filter(game__slug=STM):
        rule = json.dumps(card.rule)
        assert '"Bridge"' not in rule, card.name
    renamed = sorted(
        card.name
        for card in Card.objects.filter(game__slug=STM)
        if '"Main Bridge"' in json.dumps(card.rule)
    )
    assert renamed == naming
    picard = Card.objects.get(game__slug=STM, name="Captain Jean-Luc Picard")
    assert "Main Bridge" in picard.text
    assert picard.history.first().name == "Captain Jean-Luc Picard"  # a history row of its own


def test_an_edit_that_keeps_the_name_changes_no_other_card(admin_client, catalog):
    bridge = Card.objects.get(game__slug=STM, name="Bridge")
    picard = Card.objects.get(game__slug=STM, name="Captain Jean-Luc Picard")
    history = picard.history.count()
    assert rename(admin_client, bridge, "Bridge").status_code == 200
    assert picard.history.count() == history


def test_renaming_a_star_realms_academy_card_follows_in_the_ally_rules(admin_client, catalog):
    corvette = Card.objects.get(game__slug="star-realms-academy", name="Corvette")
    rename(admin_client, corvette, "Corvette Mk II")
    frigate = Card.objects.get(game__slug="star-realms-academy", name="Imperial Frigate")
    assert frigate.rule["same_faction_as"] == ["Corvette Mk II"]
    assert frigate.rule_problems() == []


# --- CSV export: no live formulas ------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ['=HYPERLINK("https://evil.example","Click")', "+1+2", "-2+3", "@SUM(A1)", "'=already quoted"],
)
def test_the_csv_export_neutralises_cells_a_spreadsheet_would_run(admin_client, catalog, name):
    game = Game.objects.get(slug="academy-credits")
    card = Card.objects.get(game=game, slug="lura-thok")
    card.name = name
    card.provenance_note = "=1+1"
    card.save()
    response = admin_client.get(reverse("admin:cards_card_export", args=[game.pk, "csv"]))
    rows = {row["slug"]: row for row in csv.DictReader(io.StringIO(response.content.decode()))}
    assert rows["lura-thok"]["name"] == "'" + name
    assert rows["lura-thok"]["provenance_note"] == "'=1+1"
    # No cell of the file starts with a formula character.
    for row in csv.reader(io.StringIO(response.content.decode())):
        assert not any(cell[:1] in ("=", "+", "-", "@") for cell in row), row
    # Ordinary text is left as it is.
    assert rows["jett-reno"]["name"] == "Jett Reno"


def test_a_neutralised_export_imports_back_unchanged(catalog):
    game = Game.objects.get(slug="academy-credits")
    card = Card.objects.get(game=game, slug="lura-thok")
    card.name = '=HYPERLINK("x")'
    card.provenance_note = "'quoted"
    card.save()
    preview = imports.preview_import(
        game=game, content=imports.export_cards_csv(game=game), file_format="csv"
    )
    assert preview.errors == []
    assert preview.counts["changed"] == 0 and preview.counts["added"] == 0
