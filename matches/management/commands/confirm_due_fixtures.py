"""``manage.py confirm_due_fixtures``: confirm the submitted results that have waited a
day, in seasons that count submitted results (run it hourly from a scheduler)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from matches.leagues.services import fixtures_confirm_due


class Command(BaseCommand):
    help = "Confirm submitted fixture results left a day without an answer."

    def handle(self, *args: Any, **options: Any) -> None:
        count = fixtures_confirm_due()
        self.stdout.write(f"{count} fixture result(s) confirmed.")
