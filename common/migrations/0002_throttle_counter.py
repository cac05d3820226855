"""Throttle counters in a table of their own (one upsert per request, common.throttling) instead of
the database cache, whose table is dropped: nothing else used it."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('common', '0001_cache_table'),
    ]

    operations = [
        migrations.CreateModel(
            name='ThrottleCounter',
            fields=[
                ('client', models.CharField(max_length=200, primary_key=True, serialize=False)),
                ('period', models.BigIntegerField(help_text='Which window: seconds since the epoch // its length.')),
                ('hits', models.PositiveIntegerField(help_text='Requests in that window, refused ones included.')),
                ('previous_hits', models.PositiveIntegerField(help_text='Requests in the window before it.')),
            ],
        ),
        migrations.RunSQL("DROP TABLE IF EXISTS tableside_cache", migrations.RunSQL.noop),
    ]
