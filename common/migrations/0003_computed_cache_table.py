"""The table of the "computed" cache (settings.CACHES["computed"]["LOCATION"]; web.computed):
the answers page GETs worked out, shared by every app server. createcachetable's argument is the
table's name (not the cache's alias)."""

from django.core.management import call_command
from django.db import migrations

TABLE = "tableside_computed"


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", TABLE, database=schema_editor.connection.alias, verbosity=0)


def drop_cache_table(apps, schema_editor):
    schema_editor.execute(f"DROP TABLE IF EXISTS {TABLE}")


class Migration(migrations.Migration):
    dependencies = [("common", "0002_throttle_counter")]

    operations = [migrations.RunPython(create_cache_table, drop_cache_table)]
