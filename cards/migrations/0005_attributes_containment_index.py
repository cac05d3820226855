"""A GIN index on the cards' attributes for the catalog's attribute filters on PostgreSQL.

There the card list filters with JSON containment (`attributes @> '{"faction": "red"}'`), which a
jsonb_path_ops GIN index answers for several attributes at once by intersecting its posting lists;
the attribute index table needs one join per attribute and was the slowest part of a filtered list
at 100,000 cards. SQLite has no JSON containment: there the table still serves, and the migration
does nothing."""

from django.db import migrations

INDEX = "cards_card_attributes_gin"


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        f"CREATE INDEX IF NOT EXISTS {INDEX} ON cards_card USING gin (attributes jsonb_path_ops)"
    )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("cards", "0004_card_game_id_index")]

    operations = [migrations.RunPython(create, drop)]
