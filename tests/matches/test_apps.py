"""matches.apps: the concerns above scoring plug into it when the app is ready, so that
scoring imports none of them. Checked in a fresh interpreter, where nothing but Django's
own start-up has imported the app's modules."""

import os
import subprocess
import sys
from pathlib import Path

PROGRAM = """
import django
django.setup()
from matches.scoring.models import Match
from matches.scoring.selectors import outcome
from matches.scoring.services import closure
from matches.scoring.signals import results_changed
print(len(closure._CLOSURE_CHECKS), results_changed.has_listeners(Match),
      len(outcome._RESULT_COUNTERS))
"""


def test_leagues_and_history_plug_into_scoring_when_the_app_is_ready():
    found = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                           check=True, cwd=Path(__file__).parents[2],
                           env={**os.environ, "DJANGO_SETTINGS_MODULE": "scorekeeper.settings"})
    # the leagues' closure check (a sent night closes its games), the ratings, and the
    # leagues' reading of who won (a result the league corrected counts as corrected)
    assert found.stdout.split() == ["1", "True", "1"]
