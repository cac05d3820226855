"""The database cache table: the API's throttle counters live in the database, shared by every
app server (the app keeps no state of its own outside the database). Since 0002 the counters have a
table of their own and no database cache is configured, so on a new database this creates nothing."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies: list = []

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
