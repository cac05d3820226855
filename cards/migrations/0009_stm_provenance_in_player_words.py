"""Star Trek: Missions' provenance in a player's words reaches databases loaded before it
(issue 23).

The shipped card notes and two rules (the card list, the published examples) named a file of the project
("shared/data/star-trek-missions-cards.json"), which players read on every card page and in the
rules. `load_catalog` only adds what is missing, so this rewrites the sentence where it is still
exactly the one shipped (an admin's own wording wins). Reverting restores it.
"""

from django.db import migrations

GAME = "star-trek-missions"
OLD_NOTE = ("All fields come from the project's card data file "
            "(shared/data/star-trek-missions-cards.json).")
NEW_NOTE = ("All fields come from the game's card list (number, name, deck, type, specialties, "
            "lifeforms and affiliations).")
OLD_RULE = "`../data/star-trek-missions-cards.json` lists all 74 cards"
NEW_RULE = "The game's card list gives all 74 cards"
OLD_EXAMPLES = ("Published examples (`data/star-trek-missions-examples.json`) are the rulebook's "
                "and FAQ's own totals: every one holds.")
NEW_EXAMPLES = ("The published example hands (the rulebook's and the FAQ's) score their "
                "published totals: every one holds.")


def _swap(apps, old_note: str, new_note: str, *rules: tuple[str, str]) -> None:
    Card = apps.get_model("cards", "Card")
    RuleSection = apps.get_model("cards", "RuleSection")
    for card in Card.objects.filter(game__slug=GAME, provenance_note__contains=old_note):
        card.provenance_note = card.provenance_note.replace(old_note, new_note)
        card.save(update_fields=["provenance_note"])
    for old_rule, new_rule in rules:
        for section in RuleSection.objects.filter(game__slug=GAME, text__contains=old_rule):
            section.text = section.text.replace(old_rule, new_rule)
            section.save(update_fields=["text"])


def forwards(apps, schema_editor):
    _swap(apps, OLD_NOTE, NEW_NOTE, (OLD_RULE, NEW_RULE), (OLD_EXAMPLES, NEW_EXAMPLES))


def backwards(apps, schema_editor):
    _swap(apps, NEW_NOTE, OLD_NOTE, (NEW_RULE, OLD_RULE), (NEW_EXAMPLES, OLD_EXAMPLES))


class Migration(migrations.Migration):
    dependencies = [("cards", "0008_shipped_fingerprints")]

    operations = [migrations.RunPython(forwards, backwards)]
