"""``manage.py load_demo``: a demo club, stored by importing the records in ``matches/demo/``.

The records were generated once with ``matches.rules.simulate`` and are checked in, so
the demo is the same on every machine and goes through the same import (and the same
verification) as a club's own records. Loading twice does nothing the second time: the
command only runs on a database without matches.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from matches import selectors, services
from matches.models import Match, MatchStatus

DEMO_DIR = Path(__file__).resolve().parents[2] / "demo"
SITE = "http://127.0.0.1:8000"  # where scripts/run serves it
ALREADY_LOADED = "There are already {count} matches: the demo club was not loaded."


class Command(BaseCommand):
    help = "Load a demo club (finished matches of every game and one in progress)."

    def handle(self, *args: Any, **options: Any) -> None:
        count = Match.objects.count()
        if count:
            self.stdout.write(ALREADY_LOADED.format(count=count))
            return
        with transaction.atomic():  # all of the demo or none of it
            for path in sorted(DEMO_DIR.glob("*.json")):
                match = services.match_import(document=json.loads(path.read_text("utf-8")))
                names = ", ".join(selectors.match_names(match))
                self.stdout.write(f"Loaded match {match.pk}: {match.get_game_display()}, "
                                  f"{match.get_status_display().lower()} ({names}).")
                self.stdout.write(f"  watch: {SITE}{match.get_absolute_url()}")
                if match.status == MatchStatus.IN_PROGRESS:
                    self.stdout.write(f"  score: {SITE}{match.get_join_url()}")
