"""The catalog admin: card list, filters and search; the per-attribute card form with its
validation and provenance; rulings inline; history with author and revert; the add flow."""

from __future__ import annotations

import datetime
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from cards.models import Card, CardAttributeValue, Game
from tests.factories import AttributeDefinitionFactory, CardFactory, CardRulingFactory, GameFactory

pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------- helpers


class _FormScraper(HTMLParser):
    """What a browser would submit for one form of a page (inputs, selects, textareas)."""

    def __init__(self, form_id: str):
        super().__init__()
        self.form_id = form_id
        self.inside = False
        self.data: dict[str, list[str]] = {}
        self._select: str | None = None
        self._multiple = False
        self._options: list[tuple[str, bool]] = []
        self._textarea: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id") == self.form_id:
            self.inside = True
        if not self.inside:
            return
        if tag == "input":
            kind = a.get("type", "text")
            name = a.get("name")
            if not name or kind in ("submit", "button", "image", "file", "reset"):
                return
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.data.setdefault(name, []).append(a.get("value") or "on")
                return
            self.data.setdefault(name, []).append(a.get("value") or "")
        elif tag == "select":
            self._select, self._multiple, self._options = a.get("name"), "multiple" in a, []
        elif tag == "option" and self._select:
            self._options.append((a.get("value") or "", "selected" in a))
        elif tag == "textarea":
            self._textarea, self._text = a.get("name"), []

    def handle_endtag(self, tag):
        if tag == "form" and self.inside:
            self.inside = False
        elif tag == "select" and self._select:
            chosen = [value for value, selected in self._options if selected]
            if not chosen and not self._multiple and self._options:
                chosen = [self._options[0][0]]
            self.data[self._select] = chosen
            self._select = None
        elif tag == "textarea" and self._textarea:
            text = "".join(self._text)
            self.data[self._textarea] = [text[1:] if text.startswith("\n") else text]
            self._textarea = None

    def handle_data(self, data):
        if self._textarea:
            self._text.append(data)


def form_data(response, form_id: str = "card_form") -> dict[str, list[str]]:
    scraper = _FormScraper(form_id)
    scraper.feed(response.content.decode())
    assert scraper.data, f"no form #{form_id} on the page"
    return scraper.data


def change_url(card: Card) -> str:
    return reverse("admin:cards_card_change", args=[card.pk])


def form_errors(response) -> dict[str, list[str]]:
    return {
        name: list(errors) for name, errors in response.context["adminform"].form.errors.items()
    }


@pytest.fixture
def game():
    game = GameFactory(slug="test-game", name="Test Game")
    AttributeDefinitionFactory(
        game=game,
        key="power",
        label="Power",
        kind="integer",
        required=True,
        min_value=0,
        max_value=10,
        choices=[],
        position=0,
    )
    AttributeDefinitionFactory(game=game, key="colour", label="Colour", position=1)
    AttributeDefinitionFactory(
        game=game,
        key="traits",
        label="Traits",
        kind="multi_choice",
        position=2,
        choices=[{"value": "brave", "label": "Brave"}, {"value": "sly", "label": "Sly"}],
    )
    AttributeDefinitionFactory(
        game=game, key="note", label="Note", kind="text", choices=[], filterable=False, position=3
    )
    return game


@pytest.fixture
def card(game):
    return CardFactory(
        game=game,
        name="Brave Knight",
        slug="brave-knight",
        copies=2,
        attributes={"power": 3, "colour": "red", "traits": ["sly", "brave"], "note": None},
        field_provenance={
            "copies": "verified",
            "power": "verified",
            "colour": "provisional",
            "traits": "verified",
        },
    )


# --------------------------------------------------------------------------- list


def test_changelist_filters_per_game_attribute_and_search(admin_client, card, game):
    other_game = GameFactory(slug="other-game", name="Other Game")
    CardFactory(game=other_game, name="Stranger")
    CardFactory(
        game=game,
        name="Blue Mage",
        slug="blue-mage",
        attributes={"power": 5, "colour": "blue", "traits": [], "note": None},
        field_provenance={
            "copies": "verified",
            "power": "verified",
            "colour": "verified",
            "traits": "verified",
        },
    )
    url = reverse("admin:cards_card_changelist")

    page = admin_client.get(url, {"all": ""})
    assert page.status_code == 200
    names = {c.name for c in page.context["cl"].result_list}
    assert {"Brave Knight", "Blue Mage", "Stranger"} <= names  # with the shipped catalog
    assert "Power: 3 · Colour: Red · Traits: Sly, Brave" in page.content.decode()

    by_game = admin_client.get(url, {"game__id__exact": game.pk})
    assert {c.name for c in by_game.context["cl"].result_list} == {"Brave Knight", "Blue Mage"}
    # The attribute filter offers the game's values, labelled.
    content = by_game.content.decode()
    assert "Colour = Red" in content and "Traits = Brave" in content and "Power = 5" in content
    assert f"?game={game.pk}" in content  # import link of this game
    assert reverse("admin:cards_card_export", args=[game.pk, "csv"]) in content

    by_colour = admin_client.get(url, {"game__id__exact": game.pk, "attribute": "colour=blue"})
    assert [c.name for c in by_colour.context["cl"].result_list] == ["Blue Mage"]
    by_trait = admin_client.get(url, {"attribute": "traits=brave"})  # without a game filter
    assert [c.name for c in by_trait.context["cl"].result_list] == ["Brave Knight"]
    by_power = admin_client.get(url, {"attribute": "power=5"})
    assert [c.name for c in by_power.context["cl"].result_list] == ["Blue Mage"]

    scoped = {"game__id__exact": game.pk}
    found = admin_client.get(url, {**scoped, "q": "knight"})
    assert [c.name for c in found.context["cl"].result_list] == ["Brave Knight"]
    by_slug = admin_client.get(url, {"q": "blue-mage"})
    assert [c.name for c in by_slug.context["cl"].result_list] == ["Blue Mage"]
    by_text = admin_client.get(url, {"q": "must play"})  # searches the rendered card text
    assert {c.game.slug for c in by_text.context["cl"].result_list} == {"academy-credits"}

    provisional = admin_client.get(url, {**scoped, "provenance": "provisional"})
    assert [c.name for c in provisional.context["cl"].result_list] == ["Brave Knight"]


def test_attribute_filter_is_scoped_to_the_filtered_game(admin_client, game, catalog):
    url = reverse("admin:cards_card_changelist")
    academy = Game.objects.get(slug="academy-credits")
    page = admin_client.get(url, {"game__id__exact": academy.pk})
    lookups = dict(page.context["cl"].filter_specs[2].lookup_choices)
    assert lookups["effect=guess_card"] == "Effect = Guess a card"
    assert "value=10" in lookups
    assert not any(key.startswith("colour=") for key in lookups)
    guessers = admin_client.get(
        url, {"game__id__exact": academy.pk, "attribute": "effect=guess_card"}
    )
    assert [c.name for c in guessers.context["cl"].result_list] == ["Lura Thok"]


def test_changelist_with_the_real_catalog_loads_in_few_queries(
    admin_client, catalog, django_assert_max_num_queries
):
    with django_assert_max_num_queries(20):
        page = admin_client.get(reverse("admin:cards_card_changelist"), {"all": ""})
    assert page.status_code == 200
    assert len(page.context["cl"].result_list) == Card.objects.count()


# --------------------------------------------------------------------------- change form


def test_change_form_has_one_field_per_attribute(admin_client, card):
    page = admin_client.get(change_url(card))
    assert page.status_code == 200
    form = page.context["adminform"].form
    for key in ("power", "colour", "traits", "note"):
        assert f"attr__{key}" in form.fields and f"prov__{key}" in form.fields
    assert form.fields["attr__power"].required and not form.fields["attr__colour"].required
    assert form.fields["attr__power"].max_value == 10
    assert form.fields["attr__colour"].choices[0] == ("", "Unknown / none")
    assert "Currently: provisional" in form.fields["prov__colour"].help_text
    data = form_data(page)
    assert data["attr__power"] == ["3"] and data["attr__colour"] == ["red"]
    assert sorted(data["attr__traits"]) == ["brave", "sly"]
    assert data["prov__colour"] == ["provisional"] and data["prov__note"] == [""]
    assert "attributes" not in form.fields and "field_provenance" not in form.fields


def test_a_bad_value_is_reported_on_its_field_and_changes_nothing(admin_client, card):
    data = form_data(admin_client.get(change_url(card)))
    data["attr__power"] = ["11"]
    data["name"] = ["Renamed"]
    response = admin_client.post(change_url(card), data)
    assert response.status_code == 200
    assert form_errors(response) == {"attr__power": ["Power must be at most 10."]}
    assert "Power must be at most 10." in response.content.decode()
    card.refresh_from_db()
    assert card.name == "Brave Knight" and card.attributes["power"] == 3


def test_model_validation_messages_land_on_the_attribute_field(admin_client, card):
    data = form_data(admin_client.get(change_url(card)))
    data["prov__colour"] = ["unknown"]  # but the card holds a colour
    response = admin_client.post(change_url(card), data)
    assert response.status_code == 200
    errors = form_errors(response)
    assert list(errors) == ["attr__colour"]
    assert "marked unknown but holds a value" in errors["attr__colour"][0]
    card.refresh_from_db()
    assert card.field_provenance["colour"] == "provisional"


def test_a_required_attribute_cannot_be_cleared(admin_client, card):
    data = form_data(admin_client.get(change_url(card)))
    data["attr__power"] = [""]
    response = admin_client.post(change_url(card), data)
    assert form_errors(response) == {"attr__power": ["Power is required."]}


def test_a_duplicate_name_is_reported_on_the_name(admin_client, card, game):
    CardFactory(
        game=game,
        name="Taken",
        slug="taken",
        attributes={"power": 1},
        field_provenance={"copies": "verified", "power": "verified"},
    )
    data = form_data(admin_client.get(change_url(card)))
    data["name"] = ["Taken"]
    response = admin_client.post(change_url(card), data)
    assert "already has a card with the name 'Taken'" in form_errors(response)["name"][0]


def test_a_valid_edit_saves_marks_the_field_verified_and_recomputes_provenance(admin_client, card):
    assert card.provenance == "provisional"
    data = form_data(admin_client.get(change_url(card)))
    data["attr__colour"] = ["blue"]
    data["attr__traits"] = ["brave", "sly"]  # same values, other order: not a change
    response = admin_client.post(change_url(card), data)
    assert response.status_code == 302, form_errors(response)
    card.refresh_from_db()
    assert card.attributes == {
        "power": 3,
        "colour": "blue",
        "traits": ["sly", "brave"],
        "note": None,
    }
    assert card.field_provenance["colour"] == "verified"
    assert card.provenance == "verified"
    assert set(card.attribute_values.values_list("key", "value")) == {
        ("power", "3"),
        ("colour", "blue"),
        ("traits", "sly"),
        ("traits", "brave"),
        ("note", ""),
    } - {("note", "")}


def test_clearing_a_value_marks_it_unknown_and_an_explicit_choice_wins(admin_client, card):
    data = form_data(admin_client.get(change_url(card)))
    data["attr__colour"] = [""]
    data["attr__note"] = ["Printed in gold"]
    data["prov__note"] = ["provisional"]
    assert admin_client.post(change_url(card), data).status_code == 302
    card.refresh_from_db()
    assert card.attributes["colour"] is None and card.field_provenance["colour"] == "unknown"
    assert card.attributes["note"] == "Printed in gold"
    assert card.field_provenance["note"] == "provisional"
    assert card.provenance == "incomplete"
    assert not card.attribute_values.filter(key="colour").exists()


def test_an_empty_multi_choice_is_none_when_verified(admin_client, card):
    data = form_data(admin_client.get(change_url(card)))
    data.pop("attr__traits")  # nothing ticked
    assert admin_client.post(change_url(card), data).status_code == 302
    card.refresh_from_db()
    assert card.attributes["traits"] is None and card.field_provenance["traits"] == "unknown"

    data = form_data(admin_client.get(change_url(card)))
    data.pop("attr__traits", None)
    data["prov__traits"] = ["verified"]  # "has no traits", known
    assert admin_client.post(change_url(card), data).status_code == 302
    card.refresh_from_db()
    assert card.attributes["traits"] == [] and card.field_provenance["traits"] == "verified"


def test_transcribing_a_star_realms_card_makes_it_verified(admin_client, catalog):
    shuttle = Card.objects.get(game__slug="star-realms-academy", slug="federation-shuttle")
    assert shuttle.field_provenance["cost"] == "unknown" and shuttle.provenance == "incomplete"
    page = admin_client.get(change_url(shuttle))
    assert 'name="attr__primary_coin"' in page.content.decode()
    data = form_data(page)
    data.update(
        {
            "attr__cost": ["1"],
            "attr__primary_coin": ["2"],
            "attr__ally_health": ["4"],
            "attr__ally_draw": ["0"],
        }
    )
    response = admin_client.post(change_url(shuttle), data)
    assert response.status_code == 302, form_errors(response)
    shuttle.refresh_from_db()
    assert shuttle.attributes["cost"] == 1
    assert shuttle.attributes["primary"] == {"coin": 2}
    assert shuttle.attributes["ally"] == {"health": 4}
    assert {shuttle.field_provenance[k] for k in ("cost", "primary", "ally")} == {"verified"}
    assert "defense" not in shuttle.field_provenance  # a ship's defense still does not apply
    assert shuttle.provenance == "provisional"  # the inferred faction is still provisional
    assert "Primary: 2 Coin." in shuttle.text and "4 Health" in shuttle.text  # rendered again


def test_an_abilities_error_is_per_field(admin_client, catalog):
    shuttle = Card.objects.get(game__slug="star-realms-academy", slug="federation-shuttle")
    data = form_data(admin_client.get(change_url(shuttle)))
    data["attr__primary_combat"] = ["-1"]
    response = admin_client.post(change_url(shuttle), data)
    assert form_errors(response) == {
        "attr__primary": ["Primary ability: combat cannot be negative."]
    }


def test_rulings_inline_saves(admin_client, card):
    data = form_data(admin_client.get(change_url(card)))
    assert data["rulings-TOTAL_FORMS"] == ["1"]
    data.update(
        {
            "rulings-0-date": ["2026-12-01"],
            "rulings-0-rule_id": ["TG-1"],
            "rulings-0-text": ["Counts twice at night."],
        }
    )
    response = admin_client.post(change_url(card), data)
    assert response.status_code == 302, form_errors(response)
    ruling = card.rulings.get()
    assert (ruling.date, ruling.rule_id, ruling.text) == (
        datetime.date(2026, 12, 1),
        "TG-1",
        "Counts twice at night.",
    )


# --------------------------------------------------------------------------- history


def test_history_records_the_author_and_revert_restores(admin_client, admin_user, card):
    data = form_data(admin_client.get(change_url(card)))
    data["attr__colour"] = [""]
    data["copies"] = ["5"]
    assert admin_client.post(change_url(card), data).status_code == 302
    card.refresh_from_db()
    assert (card.copies, card.provenance, card.attributes["colour"]) == (5, "incomplete", None)

    latest, original = card.history.all()[:2]
    assert latest.history_user == admin_user
    assert latest.history_type == "~"

    history = admin_client.get(reverse("admin:cards_card_history", args=[card.pk]))
    content = history.content.decode()
    assert history.status_code == 200
    assert admin_user.username in content
    assert (
        "colour: red → (empty)" in content
        and "provenance of colour: provisional → unknown" in content
    )

    revert_url = reverse("admin:cards_card_simple_history", args=[card.pk, original.history_id])
    revert_page = admin_client.get(revert_url)
    assert revert_page.status_code == 200
    response = admin_client.post(revert_url, form_data(revert_page, "historicalcard_form"))
    assert response.status_code == 302
    card.refresh_from_db()
    assert card.copies == 2
    assert card.attributes["colour"] == "red"
    assert card.field_provenance["colour"] == "provisional"
    assert card.provenance == "provisional"  # derived again on save
    assert card.attribute_values.filter(key="colour", value="red").exists()
    assert card.history.first().history_user == admin_user


def test_revert_recomputes_the_rendered_text(admin_client, catalog):
    card = Card.objects.get(game__slug="academy-credits", slug="lura-thok")
    text = card.text
    data = form_data(admin_client.get(change_url(card)))
    data["attr__effect"] = ["protection"]
    assert admin_client.post(change_url(card), data).status_code == 302
    card.refresh_from_db()
    assert card.text != text and card.field_provenance["effect"] == "verified"
    original = card.history.order_by("history_date")[0]
    revert_url = reverse("admin:cards_card_simple_history", args=[card.pk, original.history_id])
    revert_page = admin_client.get(revert_url)
    assert (
        admin_client.post(revert_url, form_data(revert_page, "historicalcard_form")).status_code
        == 302
    )
    card.refresh_from_db()
    assert card.text == text and card.attributes["effect"] == "guess_card"


# --------------------------------------------------------------------------- add


def test_add_asks_for_the_game_first_then_its_attributes(admin_client, game):
    url = reverse("admin:cards_card_add")
    page = admin_client.get(url)
    assert "save and continue to fill the attributes" in page.content.decode()
    assert not any(name.startswith("attr__") for name in page.context["adminform"].form.fields)

    data = form_data(page)
    data.update(
        {"game": [str(game.pk)], "name": ["New Squire"], "slug": ["new-squire"], "copies": ["3"]}
    )
    second = admin_client.post(url, data)
    assert second.status_code == 200
    assert not Card.objects.filter(slug="new-squire").exists()
    assert "Now fill in the attributes of this Test Game card" in second.content.decode()
    assert "attr__power" in second.context["adminform"].form.fields
    assert "attr__power" not in second.context["adminform"].form.errors

    data = form_data(second)
    data.update({"attr__power": ["4"], "attr__traits": ["brave"]})
    third = admin_client.post(url, data)
    assert third.status_code == 302, form_errors(third)
    card = Card.objects.get(slug="new-squire")
    assert card.attributes == {"power": 4, "colour": None, "traits": ["brave"], "note": None}
    assert card.field_provenance == {
        "copies": "verified",
        "power": "verified",
        "traits": "verified",
    }
    assert card.provenance == "verified"


def test_add_link_of_a_filtered_list_goes_straight_to_the_attributes(admin_client, game):
    changelist = admin_client.get(
        reverse("admin:cards_card_changelist"), {"game__id__exact": game.pk}
    )
    assert changelist.status_code == 200
    add_url = reverse("admin:cards_card_add") + f"?game={game.pk}"
    page = admin_client.get(add_url)
    form = page.context["adminform"].form
    assert "attr__power" in form.fields and form["game"].value() == game.pk
    data = form_data(page)
    data.update(
        {"name": ["Quick Add"], "slug": ["quick-add"], "copies": ["1"], "attr__power": ["11"]}
    )
    response = admin_client.post(add_url, data)
    assert form_errors(response) == {"attr__power": ["Power must be at most 10."]}
    data["attr__power"] = ["0"]
    assert admin_client.post(add_url, data).status_code == 302
    assert Card.objects.get(slug="quick-add").attributes["power"] == 0

    preserved = (
        reverse("admin:cards_card_add") + f"?_changelist_filters=game__id__exact%3D{game.pk}"
    )
    assert "attr__power" in admin_client.get(preserved).context["adminform"].form.fields


# --------------------------------------------------------------------------- other models


def test_game_admin_shows_attribute_definitions_and_options_inline(admin_client, catalog):
    game = Game.objects.get(slug="academy-credits")
    page = admin_client.get(reverse("admin:cards_game_change", args=[game.pk]))
    assert page.status_code == 200
    content = page.content.decode()
    assert 'name="attribute_definitions-0-key"' in content and 'value="value"' in content
    assert 'name="options-TOTAL_FORMS"' in content
    games = admin_client.get(reverse("admin:cards_game_changelist"))
    assert "Academy Credits" in games.content.decode()


def test_rule_sections_list_search_and_filter(admin_client, catalog):
    url = reverse("admin:cards_rulesection_changelist")
    academy = Game.objects.get(slug="academy-credits")
    by_game = admin_client.get(url, {"game__id__exact": academy.pk})
    assert by_game.status_code == 200
    assert {s.game_id for s in by_game.context["cl"].result_list} == {academy.pk}
    found = admin_client.get(url, {"q": "AC-R7"})
    assert [s.rule_id for s in found.context["cl"].result_list] == ["AC-R7", "FAC-R7"]
    found = admin_client.get(url, {"q": "AC-R7", "game__id__exact": academy.pk})
    assert [s.rule_id for s in found.context["cl"].result_list] == ["AC-R7"]


def test_ruling_admin_and_history_pages_load(admin_client, card):
    ruling = CardRulingFactory(card=card)
    assert (
        admin_client.get(reverse("admin:cards_cardruling_change", args=[ruling.pk])).status_code
        == 200
    )
    assert (
        admin_client.get(reverse("admin:cards_cardruling_history", args=[ruling.pk])).status_code
        == 200
    )


def test_the_admin_is_staff_only(client, card, django_user_model):
    user = django_user_model.objects.create_user("visitor", password="pw")
    client.force_login(user)
    for url in (
        change_url(card),
        reverse("admin:cards_card_import"),
        reverse("admin:cards_card_export", args=[card.game_id, "json"]),
    ):
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_attribute_index_row_count_is_unchanged_by_a_no_op_save(admin_client, card):
    before = CardAttributeValue.objects.count()
    data = form_data(admin_client.get(change_url(card)))
    assert admin_client.post(change_url(card), data).status_code == 302
    card.refresh_from_db()
    assert card.field_provenance["colour"] == "provisional"  # untouched stays as it was
    assert CardAttributeValue.objects.count() == before


def test_a_value_cannot_be_marked_not_applicable(admin_client, card):
    data = form_data(admin_client.get(change_url(card)))
    data["prov__power"] = [""]
    response = admin_client.post(change_url(card), data)
    assert form_errors(response) == {
        "prov__power": ["Power has a value, so it needs a provenance: verified or provisional."]
    }


def test_a_card_rule_is_edited_in_the_admin_with_errors_by_path(admin_client, catalog):
    import json

    data_card = Card.objects.get(game__slug="star-trek-missions", slug="lieutenant-commander-data")
    assert data_card.field_provenance["rule"] == "provisional"
    page = admin_client.get(change_url(data_card))
    assert 'name="rule"' in page.content.decode()
    data = form_data(page)
    bad = {"bonuses": [{"kind": "for_each", "points": 3, "match": {"name": "Lore Android"}}]}
    response = admin_client.post(change_url(data_card), {**data, "rule": [json.dumps(bad)]})
    assert response.status_code == 200
    assert any(
        "rule.bonuses[0].match.name: no card named 'Lore Android'" in message
        for message in form_errors(response)["rule"]
    )
    data_card.refresh_from_db()
    assert data_card.rule == {"bonuses": []}  # nothing saved

    good = {"bonuses": [{"kind": "for_each", "points": 3, "match": {"name": "Lore"}}]}
    response = admin_client.post(change_url(data_card), {**data, "rule": [json.dumps(good)]})
    assert response.status_code == 302, form_errors(response)
    data_card.refresh_from_db()
    assert data_card.rule == good
    assert data_card.field_provenance["rule"] == "verified"  # transcribed by an admin
    assert data_card.text == "3 for each Lore."


def test_the_card_list_reads_effects_in_words_and_forgives_typos(admin_client, catalog):
    """Issue 23: the list showed `draw:1|coin:2`; its search found nothing for a typo the
    catalog and score pages read."""
    url = reverse("admin:cards_card_changelist")
    sra = Game.objects.get(slug="star-realms-academy")
    page = admin_client.get(url, {"game__id__exact": sra.pk}).content.decode()
    assert "Primary ability: 1 Draw and 2 Coin" in page  # Survey Ship
    assert "draw:" not in page and "coin:" not in page
    star_trek_missions = Game.objects.get(slug="star-trek-missions")
    for typed, name in (
        ("kehleyr", "Ambassador K'Ehleyr"),
        ("Comander Kurn", "Commander Kurn"),
        ("picrad", "Captain Jean-Luc Picard"),
    ):
        found = admin_client.get(url, {"game__id__exact": star_trek_missions.pk, "q": typed})
        assert name in [c.name for c in found.context["cl"].result_list], typed
    # The neighbour: what names no card still finds nothing.
    nothing = admin_client.get(url, {"game__id__exact": star_trek_missions.pk, "q": "zzqxv"})
    assert list(nothing.context["cl"].result_list) == []
