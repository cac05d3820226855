"""A card's provenance note follows what an admin transcribes (issue 23): the value leaves the
note's list of unknown values, and a note in other words is flagged."""

import pytest

from cards.models import Card
from cards.provenance_notes import FLAGGED, TRANSCRIBED, note_after_verifying

NOTE = (
    "Copies from the rulebook's Card List. Faction Trade Federation is inferred from the rules "
    "file's grouping of card names. Not known to this project until an admin transcribes the "
    "physical card: cost, primary, ally (null). Defense is null: ships have no Defense."
)
LABELS = {"cost": "Cost", "primary": "Primary ability", "ally": "Ally ability"}


def test_a_transcribed_value_leaves_the_list_of_unknown_values():
    note = note_after_verifying(NOTE, ["cost"], LABELS)
    assert "physical card: primary, ally (null)." in note
    assert note.endswith(f"{TRANSCRIBED}Cost.")
    note = note_after_verifying(note, ["primary", "ally"], LABELS)
    assert "Not known to this project" not in note
    assert note.endswith(f"{TRANSCRIBED}Cost, Primary ability, Ally ability.")


def test_a_note_in_other_words_is_flagged():
    note = "The card list gives no scoring text; its rule is provisional until an admin checks it."
    flagged = note_after_verifying(note, ["rule"], {"rule": "scoring rule"})
    assert flagged == f"{note} {FLAGGED}scoring rule."


def test_a_note_that_says_nothing_of_the_value_is_left_alone():
    assert note_after_verifying("All fields come from the card list.", ["cost"], LABELS) == (
        "All fields come from the card list."
    )
    assert note_after_verifying(NOTE, [], LABELS) == NOTE


@pytest.mark.django_db
def test_transcribing_in_the_admin_updates_the_note(admin_client, catalog):
    from tests.test_admin import change_url, form_data, form_errors

    shuttle = Card.objects.get(game__slug="star-realms-academy", slug="federation-shuttle")
    assert "physical card: cost, primary, ally (null)" in shuttle.provenance_note
    data = form_data(admin_client.get(change_url(shuttle)))
    data.update({"attr__cost": ["1"]})
    response = admin_client.post(change_url(shuttle), data)
    assert response.status_code == 302, form_errors(response)
    shuttle.refresh_from_db()
    assert shuttle.field_provenance["cost"] == "verified"
    assert "physical card: primary, ally (null)" in shuttle.provenance_note
    assert shuttle.provenance_note.endswith(f"{TRANSCRIBED}Cost.")
    # An admin who rewrites the note in the same save keeps their own words.
    data = form_data(admin_client.get(change_url(shuttle)))
    data.update({"attr__primary_coin": ["2"], "provenance_note": ["Checked on my own copy."]})
    assert admin_client.post(change_url(shuttle), data).status_code == 302
    shuttle.refresh_from_db()
    assert shuttle.provenance_note == "Checked on my own copy."
