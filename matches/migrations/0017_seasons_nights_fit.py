import django.db.models.expressions
from django.db import migrations, models
from django.db.models import F

MOST_GAMES, MOST_RACE_TO = 40, 20  # FixtureGame.number's limit, and a race that fits it


def nights_that_fit(apps, schema_editor):
    """Before the constraints: a season whose night could not be stored (its games are
    numbered up to 40) is cut to the longest night that can be. Only forms of the time
    allowed these (40 singles and 40 pairs, a race to 40), and no game past 40 was ever
    stored, so no result changes."""
    Season = apps.get_model("matches", "Season")
    Season.objects.filter(race_to__gt=MOST_RACE_TO).update(race_to=MOST_RACE_TO)
    Season.objects.filter(singles__gt=MOST_GAMES - F("pairs")).update(
        pairs=MOST_GAMES - F("singles"))


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0016_constraints_the_database_can_hold'),
    ]

    operations = [
        migrations.RunPython(nights_that_fit, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='season',
            constraint=models.CheckConstraint(condition=models.Q(('singles__lte', django.db.models.expressions.CombinedExpression(models.Value(40), '-', models.F('pairs')))), name='season_night_fits'),
        ),
        migrations.AddConstraint(
            model_name='season',
            constraint=models.CheckConstraint(condition=models.Q(('race_to__isnull', True), ('race_to__lte', 20), _connector='OR'), name='season_race_fits'),
        ),
    ]
