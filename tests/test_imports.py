"""Import and export of a game's cards (cards/imports.py), its admin pages and its commands."""

from __future__ import annotations

import base64
import csv
import io
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from cards import imports
from cards.models import Card, CardRuling, Game
from tests.factories import AttributeDefinitionFactory, CardFactory, GameFactory

pytestmark = pytest.mark.django_db

GAMES = ["academy-credits", "star-realms-academy", "factions", "star-trek-missions"]


def game_named(slug: str) -> Game:
    return Game.objects.get(slug=slug)


def snapshot(game: Game) -> list[tuple]:
    """Everything an import may write, to prove that nothing was."""
    cards = [
        (
            c.slug,
            c.name,
            c.copies,
            json.dumps(c.attributes, sort_keys=True),
            json.dumps(c.field_provenance, sort_keys=True),
            c.provenance_note,
            c.provenance,
            c.text,
        )
        for c in Card.objects.filter(game=game).order_by("slug")
    ]
    rulings = list(
        CardRuling.objects.filter(card__game=game).order_by("pk").values_list("card_id", "text")
    )
    return cards + rulings


def csv_rows(content: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(content)))


def to_csv(rows: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def errors_at(preview) -> set[tuple[int, str]]:
    return {(e["row"], e["field"]) for e in preview.errors}


# --------------------------------------------------------------------------- export


def test_json_export_has_the_catalog_card_shape(catalog):
    game = game_named("star-realms-academy")
    document = json.loads(imports.export_cards_json(game=game))
    assert document["game"] == {"slug": "star-realms-academy", "name": "Star Realms Academy"}
    cards = {c["slug"]: c for c in document["cards"]}
    assert len(cards) == 17
    frigate = cards["imperial-frigate"]
    assert set(frigate) == {
        "slug",
        "name",
        "copies",
        "attributes",
        "field_provenance",
        "provenance_note",
        "rulings",
    }
    assert list(frigate["attributes"]) == ["faction", "kind", "cost", "primary", "ally", "defense"]
    assert frigate["attributes"]["primary"] == {"combat": 2}
    assert frigate["field_provenance"]["cost"] == "unknown"


def test_csv_export_has_one_column_per_attribute(catalog):
    game = game_named("star-trek-missions")
    content = imports.export_cards_csv(game=game)
    rows = csv_rows(content)
    assert list(rows[0]) == [
        "slug",
        "name",
        "copies",
        "number",
        "deck",
        "type",
        "specialty",
        "lifeform",
        "affiliation",
        "provenance_note",
        "field_provenance",
    ]
    kehleyr = next(r for r in rows if r["slug"] == "ambassador-kehleyr")
    assert kehleyr["lifeform"] == "klingon|human" and kehleyr["copies"] == "1"
    assert kehleyr["field_provenance"].startswith("copies:verified|number:verified|")
    shuttle = next(
        r
        for r in csv_rows(imports.export_cards_csv(game=game_named("star-realms-academy")))
        if r["slug"] == "survey-ship"
    )
    assert shuttle["primary"] == "draw:1|coin:2" and shuttle["cost"] == "" and shuttle["ally"] == ""


@pytest.mark.parametrize("slug", GAMES)
@pytest.mark.parametrize("file_format", ["json", "csv"])
def test_export_then_import_is_all_unchanged(catalog, slug, file_format):
    game = game_named(slug)
    before = snapshot(game)
    content = imports.export_cards(game=game, file_format=file_format)
    preview = imports.preview_import(game=game, content=content, file_format=file_format)
    assert preview.errors == []
    assert preview.counts == {"added": 0, "changed": 0, "unchanged": game.cards.count()}
    assert not preview.has_changes
    imports.apply_import(game=game, content=content, file_format=file_format)
    assert snapshot(game) == before


def test_the_shipped_catalog_file_itself_imports_unchanged(catalog, settings):
    game = game_named("academy-credits")
    content = (Path("games/academy_credits/catalog.json")).read_text(encoding="utf-8")
    preview = imports.preview_import(game=game, content=content, file_format="json")
    assert preview.errors == [] and preview.counts["unchanged"] == 11


# --------------------------------------------------------------------------- preview and apply


def test_preview_lists_added_changed_and_unchanged_and_writes_nothing(catalog):
    game = game_named("academy-credits")
    rows = csv_rows(imports.export_cards_csv(game=game))
    changed = next(r for r in rows if r["slug"] == "lura-thok")
    changed["copies"] = "5"
    changed["name"] = "Lura Thok the Bold"
    rows.append(
        {
            **rows[0],
            "slug": "cadet-new",
            "name": "Cadet New",
            "copies": "1",
            "value": "4",
            "effect": "protection",
            "provenance_note": "",
            "field_provenance": "",
        }
    )
    before = snapshot(game)

    preview = imports.preview_import(game=game, content=to_csv(rows), file_format="csv")

    assert preview.errors == []
    assert preview.counts == {"added": 1, "changed": 1, "unchanged": 10}
    by_slug = {c.slug: c for c in preview.cards}
    assert by_slug["cadet-new"].status == "added" and by_slug["cadet-new"].row == 12
    lura = by_slug["lura-thok"]
    assert lura.status == "changed"
    assert {str(change) for change in lura.changes} == {
        "name: Lura Thok -> Lura Thok the Bold",
        "copies: 6 -> 5",
        "provenance of copies: provisional -> verified",
    }
    assert by_slug["charles-vance"].status == "unchanged" and by_slug["charles-vance"].changes == []
    assert snapshot(game) == before  # a preview writes nothing


def test_apply_writes_marks_set_values_verified_and_leaves_absent_cards_alone(catalog):
    game = game_named("star-realms-academy")
    content = "slug,name,cost,primary\nfederation-shuttle,Federation Shuttle,2,coin:2\n"
    untouched = Card.objects.get(game=game, slug="freighter")

    preview = imports.apply_import(game=game, content=content, file_format="csv")

    assert preview.counts == {"added": 0, "changed": 1, "unchanged": 0}
    shuttle = Card.objects.get(game=game, slug="federation-shuttle")
    assert shuttle.attributes["cost"] == 2 and shuttle.attributes["primary"] == {"coin": 2}
    assert shuttle.attributes["ally"] is None  # no column: left alone
    assert shuttle.field_provenance["cost"] == "verified"
    assert shuttle.field_provenance["primary"] == "verified"
    assert shuttle.field_provenance["ally"] == "unknown"
    assert shuttle.provenance == "incomplete"  # ally is still unknown
    assert "Primary: 2 Coin." in shuttle.text
    assert shuttle.attribute_values.filter(key="cost", value="2").exists()
    assert shuttle.history.first().history_change_reason == "Imported from CSV"
    assert Card.objects.get(pk=untouched.pk).attributes == untouched.attributes
    assert game.cards.count() == 17  # nothing deleted


def test_a_file_provenance_wins_and_a_new_card_without_one_is_verified(catalog):
    game = game_named("academy-credits")
    cards = json.loads(imports.export_cards_json(game=game))["cards"]
    vance = next(c for c in cards if c["slug"] == "charles-vance")
    vance["copies"] = 3
    vance["field_provenance"]["copies"] = "provisional"  # unchanged provenance: auto -> verified
    lura = next(c for c in cards if c["slug"] == "lura-thok")
    lura["field_provenance"]["effect"] = "provisional"  # explicit change of provenance only
    new = {
        "slug": "cadet-zed",
        "name": "Cadet Zed",
        "copies": 1,
        "attributes": {"value": 4, "effect": "protection"},
    }
    imports.apply_import(
        game=game, content=json.dumps({"cards": [vance, lura, new]}), file_format="json"
    )
    assert (
        Card.objects.get(game=game, slug="charles-vance").field_provenance["copies"] == "verified"
    )
    lura_card = Card.objects.get(game=game, slug="lura-thok")
    assert lura_card.field_provenance["effect"] == "provisional"
    zed = Card.objects.get(game=game, slug="cadet-zed")
    assert zed.field_provenance == {"copies": "verified", "value": "verified", "effect": "verified"}
    assert zed.provenance == "verified" and zed.text.startswith("Until the start of your next turn")


def test_rulings_in_json_are_added_once(catalog):
    game = game_named("academy-credits")
    document = json.loads(imports.export_cards_json(game=game))
    vance = next(c for c in document["cards"] if c["slug"] == "charles-vance")
    vance["rulings"].append({"date": "2026-12-24", "rule": "AC-R7", "text": "A new ruling."})
    content = json.dumps(document)
    preview = imports.preview_import(game=game, content=content, file_format="json")
    change = next(c for c in preview.cards if c.slug == "charles-vance")
    assert [str(x) for x in change.changes] == ["rulings:  -> + 2026-12-24 AC-R7: A new ruling."]
    imports.apply_import(game=game, content=content, file_format="json")
    card = Card.objects.get(game=game, slug="charles-vance")
    assert card.rulings.count() == 3
    again = imports.preview_import(game=game, content=content, file_format="json")
    assert again.counts["changed"] == 0


def test_multi_choice_cells_and_provenance(catalog):
    game = game_named("star-trek-missions")
    rows = csv_rows(imports.export_cards_csv(game=game))
    worf = next(r for r in rows if r["slug"] == "batleth")
    assert worf["lifeform"] == "" and "lifeform:verified" in worf["field_provenance"]
    worf["lifeform"] = "klingon"
    preview = imports.preview_import(game=game, content=to_csv([worf]), file_format="csv")
    assert [str(c) for c in preview.cards[0].changes] == ["lifeform: (none) -> klingon"]
    worf["lifeform"] = ""
    worf["field_provenance"] = worf["field_provenance"].replace(
        "lifeform:verified", "lifeform:unknown"
    )
    preview = imports.preview_import(game=game, content=to_csv([worf]), file_format="csv")
    assert {str(c) for c in preview.cards[0].changes} == {
        "lifeform: (none) -> (empty)",
        "provenance of lifeform: verified -> unknown",
    }


# --------------------------------------------------------------------------- errors


def test_bad_rows_are_reported_by_row_and_field_and_nothing_is_applied(catalog):
    game = game_named("academy-credits")
    header = "slug,name,copies,value,effect,provenance_note,field_provenance\n"
    content = header + (
        "lura-thok,Lura Thok,4,1,guess_card,,\n"  # 1: a valid change
        "charles-vance,Charles Vance,2,11,bonus_credit_if_sole,,\n"  # 2: value out of range
        "new-one,New One,two,5,,,\n"  # 3: bad copies, missing required effect
        "new-two,,1,5,fly_away,,\n"  # 4: missing name, unknown effect
        "lura-thok,Lura Again,1,1,guess_card,,\n"  # 5: duplicate slug
        "Bad Slug,Bad Slug,1,1,guess_card,,value:verified|size:big\n"  # 6
        "new-three,Lura Thok,1,1,guess_card,,\n"  # 7: name taken by another card
    )
    before = snapshot(game)
    preview = imports.preview_import(game=game, content=content, file_format="csv")
    assert errors_at(preview) == {
        (2, "value"),
        (3, "copies"),
        (3, "effect"),
        (4, "name"),
        (4, "effect"),
        (5, "slug"),
        (6, "slug"),
        (6, "size"),
        (7, "name"),
    }
    messages = {(e["row"], e["field"]): e["message"] for e in preview.errors}
    assert messages[(2, "value")] == "Value must be at most 10; got 11."
    assert messages[(3, "copies")] == "Copies must be a whole number of at least 1; got 'two'."
    assert messages[(3, "effect")] == "Effect is required."
    assert messages[(4, "name")] == "The name is missing."
    assert messages[(4, "effect")].startswith("Effect must be one of: bonus_credit_if_sole,")
    assert messages[(5, "slug")] == "The slug 'lura-thok' is also on row 1."
    assert "not a field of this game" in messages[(6, "size")]
    assert "two cards named 'Lura Thok'" in messages[(7, "name")]
    with pytest.raises(imports.ImportInvalid) as caught:
        imports.apply_import(game=game, content=content, file_format="csv")
    assert caught.value.preview.errors == preview.errors
    assert snapshot(game) == before


def test_file_level_errors_are_row_zero(catalog):
    game = game_named("academy-credits")
    header_error = imports.preview_import(
        game=game, content="slug,name,colour\nx,X,red\n", file_format="csv"
    )
    assert errors_at(header_error) == {(0, "colour")}
    assert "'colour' is not a column" in header_error.errors[0]["message"]
    assert header_error.cards == []

    broken = imports.preview_import(game=game, content='{"cards": [', file_format="json")
    assert errors_at(broken) == {(0, "file")} and "Not valid JSON" in broken.errors[0]["message"]

    other_game = imports.preview_import(
        game=game, content='{"game": {"slug": "factions"}, "cards": []}', file_format="json"
    )
    assert (
        other_game.errors[0]["message"]
        == "The file is for the game 'factions', not 'academy-credits'."
    )

    empty = imports.preview_import(game=game, content="", file_format="csv")
    assert errors_at(empty) == {(0, "file")}


def test_json_rows_report_unknown_attributes_and_bad_values(catalog):
    game = game_named("star-realms-academy")
    cards = [
        {"slug": "ram", "name": "Ram", "copies": 0, "attributes": {"colour": "red"}},
        {"slug": "viper", "name": "Viper", "attributes": {"primary": {"laser": 1}}, "flavour": "x"},
        {
            "slug": "scout",
            "name": "Scout",
            "attributes": {"ally": {"coin": 1}},
            "field_provenance": {"copies": "verified", "ally": "maybe"},
        },
        {
            "slug": "new-ship",
            "name": "New Ship",
            "copies": 1,
            "rulings": [{"date": "yesterday", "text": "x"}],
        },
    ]
    preview = imports.preview_import(game=game, content=json.dumps(cards), file_format="json")
    assert errors_at(preview) == {
        (1, "copies"),
        (1, "colour"),
        (2, "primary"),
        (2, "flavour"),
        (3, "ally"),
        (4, "rulings"),
    }
    messages = {(e["row"], e["field"]): e["message"] for e in preview.errors}
    assert messages[(1, "colour")].startswith("'colour' is not an attribute of this game")
    assert messages[(2, "primary")].startswith("Primary ability: 'laser' is not an effect")
    assert "Provenance of ally must be one of" in messages[(3, "ally")]


def test_apply_is_atomic_when_a_write_fails_half_way(catalog, monkeypatch):
    game = game_named("academy-credits")
    rows = csv_rows(imports.export_cards_csv(game=game))
    for row in rows:
        row["copies"] = str(int(row["copies"]) + 1)
    rows.append({**rows[0], "slug": "cadet-new", "name": "Cadet New"})
    content = to_csv(rows)
    before = snapshot(game)
    original = imports._apply_card
    calls = []

    def failing(**kwargs):
        calls.append(kwargs["plan"].parsed.slug)
        if len(calls) == 3:
            raise RuntimeError("the database went away")
        return original(**kwargs)

    monkeypatch.setattr(imports, "_apply_card", failing)
    with pytest.raises(RuntimeError):
        imports.apply_import(game=game, content=content, file_format="csv")
    assert len(calls) == 3  # two cards were written before the failure...
    assert snapshot(game) == before  # ...and rolled back with it
    assert not Card.objects.filter(slug="cadet-new").exists()


# --------------------------------------------------------------------------- admin pages


def test_admin_import_preview_then_confirm(admin_client, admin_user, catalog):
    game = game_named("academy-credits")
    rows = csv_rows(imports.export_cards_csv(game=game))
    next(r for r in rows if r["slug"] == "lura-thok")["copies"] = "7"
    url = reverse("admin:cards_card_import")

    page = admin_client.get(url, {"game": game.pk})
    assert page.status_code == 200 and page.context["upload_form"]["game"].value() == game.pk

    upload = SimpleUploadedFile("cards.csv", to_csv(rows).encode(), content_type="text/csv")
    preview_page = admin_client.post(url, {"game": game.pk, "file": upload, "_preview": "1"})
    assert preview_page.status_code == 200
    preview = preview_page.context["preview"]
    assert preview.counts == {"added": 0, "changed": 1, "unchanged": 10}
    assert "<strong>copies</strong>: 6 &rarr; 7" in preview_page.content.decode()
    assert Card.objects.get(game=game, slug="lura-thok").copies == 6  # not yet

    confirm = preview_page.context["confirm_form"]
    data = {name: confirm[name].value() for name in confirm.fields}
    data["_apply"] = "1"
    done = admin_client.post(url, data)
    assert done.status_code == 302
    assert done["Location"].endswith(f"?game__id__exact={game.pk}")
    lura = Card.objects.get(game=game, slug="lura-thok")
    assert lura.copies == 7 and lura.field_provenance["copies"] == "verified"
    assert lura.history.first().history_user == admin_user


def test_admin_import_shows_row_errors_and_offers_no_confirm(admin_client, catalog):
    game = game_named("academy-credits")
    upload = SimpleUploadedFile(
        "cards.json",
        json.dumps({"cards": [{"slug": "lura-thok", "name": "Lura Thok", "copies": -1}]}).encode(),
    )
    page = admin_client.post(
        reverse("admin:cards_card_import"), {"game": game.pk, "file": upload, "_preview": "1"}
    )
    assert page.status_code == 200
    assert page.context["confirm_form"] is None
    content = page.content.decode()
    assert "Copies must be a whole number of at least 1; got -1." in content
    assert 'id="import-errors"' in content


def test_admin_apply_revalidates_the_confirmed_content(admin_client, catalog):
    game = game_named("academy-credits")
    bad = imports.export_cards_csv(game=game).replace("lura-thok,Lura Thok,6,1", "lura-thok,,6,99")
    data = {
        "game": game.pk,
        "file_format": "csv",
        "_apply": "1",
        "content": base64.b64encode(bad.encode()).decode(),
    }
    page = admin_client.post(reverse("admin:cards_card_import"), data)
    assert page.status_code == 200
    assert {(e["row"], e["field"]) for e in page.context["preview"].errors} == {
        (6, "name"),
        (6, "value"),
    }
    assert Card.objects.get(game=game, slug="lura-thok").attributes["value"] == 1


def test_admin_import_is_csrf_protected(catalog, admin_user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(admin_user)
    response = client.post(reverse("admin:cards_card_import"), {"_apply": "1"})
    assert response.status_code == 403


def test_admin_export_downloads_and_action(admin_client, catalog):
    game = game_named("factions")
    response = admin_client.get(reverse("admin:cards_card_export", args=[game.pk, "csv"]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == 'attachment; filename="factions-cards.csv"'
    assert response.content.decode() == imports.export_cards_csv(game=game)
    as_json = admin_client.get(reverse("admin:cards_card_export", args=[game.pk, "json"]))
    assert json.loads(as_json.content)["game"]["slug"] == "factions"
    assert (
        admin_client.get(reverse("admin:cards_card_export", args=[game.pk, "xml"])).status_code
        == 404
    )

    picked = list(Card.objects.filter(game=game).values_list("pk", flat=True)[:2])
    action = admin_client.post(
        reverse("admin:cards_card_changelist"),
        {"action": "export_selected_json", "_selected_action": picked},
    )
    assert action.status_code == 200
    assert len(json.loads(action.content)["cards"]) == 2

    mixed = picked + [Card.objects.exclude(game=game).first().pk]
    refused = admin_client.post(
        reverse("admin:cards_card_changelist"),
        {"action": "export_selected_csv", "_selected_action": mixed},
        follow=True,
    )
    assert "Select cards of one game to export" in refused.content.decode()


# --------------------------------------------------------------------------- commands


def test_export_and_import_commands(catalog, tmp_path):
    out = io.StringIO()
    call_command("export_cards", "academy-credits", "--format", "csv", stdout=out)
    rows = csv_rows(out.getvalue())
    assert len(rows) == 11
    next(r for r in rows if r["slug"] == "lura-thok")["copies"] = "5"
    path = tmp_path / "cards.csv"
    path.write_text(to_csv(rows), encoding="utf-8")

    preview_out = io.StringIO()
    call_command("import_cards", "academy-credits", str(path), stdout=preview_out)
    text = preview_out.getvalue()
    assert "row 6: changed lura-thok" in text and "copies: 6 -> 5" in text
    assert "Run again with --apply" in text
    assert Card.objects.get(slug="lura-thok").copies == 6

    applied = io.StringIO()
    call_command("import_cards", "academy-credits", str(path), "--apply", stdout=applied)
    assert "Imported. Academy Credits: 0 added, 1 changed, 10 unchanged." in applied.getvalue()
    assert Card.objects.get(slug="lura-thok").copies == 5

    json_path = tmp_path / "cards.json"
    call_command(
        "export_cards",
        "academy-credits",
        "--format",
        "json",
        "--output",
        str(json_path),
        stderr=io.StringIO(),
    )
    assert len(json.loads(json_path.read_text())["cards"]) == 11


def test_import_command_reports_errors_and_writes_nothing(catalog, tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("slug,name,copies,value\nlura-thok,Lura Thok,6,42\n", encoding="utf-8")
    errors = io.StringIO()
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command(
            "import_cards",
            "academy-credits",
            str(path),
            "--apply",
            stdout=io.StringIO(),
            stderr=errors,
        )
    assert "row 1, value: Value must be at most 10; got 42." in errors.getvalue()
    assert Card.objects.get(slug="lura-thok").attributes["value"] == 1
    with pytest.raises(CommandError, match="No game 'nope'"):
        call_command("import_cards", "nope", str(path))


# --------------------------------------------------------------------------- factories


def test_import_into_a_small_made_up_game():
    game = GameFactory(slug="tiny", name="Tiny")
    AttributeDefinitionFactory(game=game)  # colour: red | blue
    CardFactory(
        game=game,
        name="Old",
        slug="old",
        attributes={"colour": "red"},
        field_provenance={"copies": "verified", "colour": "verified"},
    )
    content = "slug,name,copies,colour\nold,Old,1,blue\nfresh,Fresh,2,\n"
    preview = imports.apply_import(game=game, content=content, file_format="csv")
    assert preview.counts == {"added": 1, "changed": 1, "unchanged": 0}
    fresh = Card.objects.get(game=game, slug="fresh")
    assert fresh.attributes == {"colour": None}
    assert fresh.field_provenance == {"copies": "verified"}  # a null with no provenance: n/a


def test_json_provenance_lists_only_what_it_sets(catalog):
    game = game_named("star-realms-academy")
    card = {
        "slug": "federation-shuttle",
        "name": "Federation Shuttle",
        "attributes": {"cost": 2, "defense": None},
        "field_provenance": {"kind": "verified"},
    }
    imports.apply_import(game=game, content=json.dumps([card]), file_format="json")
    shuttle = Card.objects.get(game=game, slug="federation-shuttle")
    assert shuttle.field_provenance["kind"] == "verified"  # given
    assert shuttle.field_provenance["cost"] == "verified"  # transcribed
    assert shuttle.field_provenance["faction"] == "provisional"  # not listed: kept
    assert "defense" not in shuttle.field_provenance

    card["field_provenance"] = {"cost": None}  # a value without provenance is refused
    preview = imports.preview_import(game=game, content=json.dumps([card]), file_format="json")
    assert errors_at(preview) == {(1, "cost")}
    assert "needs a provenance" in preview.errors[0]["message"]
