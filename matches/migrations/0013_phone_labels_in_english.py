"""Phone names are kept in English and shown in each reader's language (b1875c1); a
phone that joined in Ukrainian or Russian before that kept its name in that language.
Those names go back to the English they were translated from."""

from __future__ import annotations

from typing import Any

from django.db import migrations

# the catalogues' translations of the names views.scoring.phone_label gives
IN_ENGLISH = {
    "Android-телефон": "Android phone",
    "Комп’ютер з Windows": "Windows computer",
    "Компьютер с Windows": "Windows computer",
    "Комп’ютер з Linux": "Linux computer",
    "Компьютер с Linux": "Linux computer",
    "Браузер": "A browser",
}


def to_english(apps: Any, schema_editor: Any) -> None:
    grants = apps.get_model("matches", "ScorerGrant")
    deleted = apps.get_model("matches", "DeletedMatch")
    for translated, english in IN_ENGLISH.items():
        grants.objects.filter(label=translated).update(label=english)
        deleted.objects.filter(grant_label=translated).update(grant_label=english)


class Migration(migrations.Migration):
    dependencies = [("matches", "0012_record_import_language")]

    operations = [migrations.RunPython(to_english, migrations.RunPython.noop)]
