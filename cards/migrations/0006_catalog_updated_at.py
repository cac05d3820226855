"""When each attribute definition, option and rule section last changed: with the cards' own
updated_at, the version stamp of a game's catalog that the score and ruling services cache by
(cards.selectors)."""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('cards', '0005_attributes_containment_index'),
    ]

    operations = [
        migrations.AddField(
            model_name='attributedefinition',
            name='updated_at',
            field=models.DateTimeField(auto_now=True),
        ),
        migrations.AddField(
            model_name='gameoption',
            name='updated_at',
            field=models.DateTimeField(auto_now=True),
        ),
        migrations.AddField(
            model_name='historicalgameoption',
            name='updated_at',
            field=models.DateTimeField(blank=True, default=django.utils.timezone.now, editable=False),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='historicalrulesection',
            name='updated_at',
            field=models.DateTimeField(blank=True, default=django.utils.timezone.now, editable=False),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='rulesection',
            name='updated_at',
            field=models.DateTimeField(auto_now=True),
        ),
    ]
