"""The table of the "computed" cache (settings.CACHES; common.computed): the answers page GETs
worked out, shared by every app server."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", "computed", database=schema_editor.connection.alias,
                 verbosity=0)


def drop_cache_table(apps, schema_editor):
    schema_editor.execute("DROP TABLE IF EXISTS tableside_computed")


class Migration(migrations.Migration):
    dependencies = [("common", "0002_throttle_counter")]

    operations = [migrations.RunPython(create_cache_table, drop_cache_table)]
