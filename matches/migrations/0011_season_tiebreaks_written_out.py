from django.db import migrations, models

import matches.leagues.models

# What domino-league/1 applies when a document names no tie-breakers (frozen here: the
# rules may change their default, the seasons stored before this migration may not).
DEFAULT_TIEBREAKS = ["game_difference", "games_for"]


def written_out(apps, schema_editor):
    """Before this migration [] meant "the format's default" (every season saved without
    a choice, and, wrongly, one saved with every tie-breaker set to none, which was shown
    with the default too); from now on [] means none. Each such season keeps the order
    its table has been using."""
    Season = apps.get_model("matches", "Season")
    for season in Season.objects.all().only("pk", "tiebreaks"):
        if season.tiebreaks in ([], None):
            season.tiebreaks = DEFAULT_TIEBREAKS
            season.save(update_fields=["tiebreaks"])


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0010_fixture_change_before_after_blank'),
    ]

    operations = [
        migrations.AlterField(
            model_name='season',
            name='tiebreaks',
            field=models.JSONField(blank=True, default=matches.leagues.models.default_tiebreaks, verbose_name='tie-breakers'),
        ),
        migrations.RunPython(written_out, migrations.RunPython.noop),
    ]
