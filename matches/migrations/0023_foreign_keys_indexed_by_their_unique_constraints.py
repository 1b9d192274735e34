# The index Django gives a foreign key of its own is dropped where a unique constraint's
# index already leads with the key: one less index kept up to date for every event,
# change and round total written. Only the index goes; the foreign key constraints stay
# as they were (altering the field would drop and check them again on every row).

import django.db.models.deletion
from django.db import migrations, models

# (table, column, the index Django named for it)
INDEXES = [
    ("matches_change", "match_id", "matches_change_match_id_8a0df417"),
    ("matches_event", "match_id", "matches_event_match_id_f5b890ac"),
    ("matches_roundside", "round_id", "matches_roundside_round_id_5ea3806d"),
]


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0022_record_imports_kept_in_the_database'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(f'DROP INDEX IF EXISTS "{name}"',
                                  reverse_sql=f'CREATE INDEX "{name}" ON "{table}" ("{column}")')
                for table, column, name in INDEXES
            ],
            state_operations=[
                migrations.AlterField(
                    model_name='change',
                    name='match',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='changes', to='matches.match'),
                ),
                migrations.AlterField(
                    model_name='event',
                    name='match',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='events', to='matches.match'),
                ),
                migrations.AlterField(
                    model_name='roundside',
                    name='round',
                    field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='side_totals', to='matches.round'),
                ),
            ],
        ),
    ]
