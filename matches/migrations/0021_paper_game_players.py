import django.db.models.deletion
from django.db import migrations, models


def seasons_as_kept(apps, schema_editor):
    """A season that already has games kept on paper without their players goes on as
    it was kept: players optional. Any other season names them, as new seasons do."""
    Season = apps.get_model("matches", "Season")
    FixtureGame = apps.get_model("matches", "FixtureGame")
    kept = (FixtureGame.objects.filter(match__isnull=True, home_score__isnull=False,
                                       home_players__isnull=True)
            .values("fixture__division__season"))
    Season.objects.filter(pk__in=kept).update(paper_players_optional=True)


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0020_notices'),
    ]

    operations = [
        migrations.AddField(
            model_name='ratingstep',
            name='fixture_game',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='rating_steps', to='matches.fixturegame'),
        ),
        migrations.AddField(
            model_name='season',
            name='paper_players_optional',
            field=models.BooleanField(default=False, verbose_name='players of paper games optional'),
        ),
        migrations.RunPython(seasons_as_kept, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='ratingstep',
            name='match',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='rating_steps', to='matches.match'),
        ),
        migrations.AddConstraint(
            model_name='ratingstep',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('fixture_game__isnull', True), ('match__isnull', False)), models.Q(('fixture_game__isnull', False), ('match__isnull', True)), _connector='OR'), name='rating_step_one_result'),
        ),
    ]
