"""Trigram indexes for the catalog search on PostgreSQL.

`q` searches with icontains, which PostgreSQL runs as UPPER(column::text) LIKE UPPER('%…%'): a
GIN trigram index on exactly that expression serves it. SQLite has no such index; there the
migration does nothing. Creating the pg_trgm extension needs a role allowed to (the database
owner on PostgreSQL 13+ for trusted extensions, else a superuser)."""

from django.db import migrations

INDEXES = {
    "cards_card_name_trgm": "UPPER((name)::text) gin_trgm_ops",
    "cards_card_text_trgm": "UPPER(text) gin_trgm_ops",
}


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for name, expression in INDEXES.items():
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name} ON cards_card USING gin ({expression})")


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [("cards", "0002_card_rule")]

    operations = [migrations.RunPython(create, drop)]
