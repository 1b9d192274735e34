"""manage.py load_demo: a demo club, imported from matches/demo/, loaded once."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone

from matches import rules
from matches.leagues.selectors import division_table, season_divisions
from matches.management.commands.load_demo import ALREADY_LOADED, DEMO_DIR, NAMES_TAKEN, RESET
from matches.models import Club, Fixture, FixtureStatus, Match, MatchStatus, Membership, Season
from matches.scoring.selectors.play import match_record, match_summary

pytestmark = pytest.mark.django_db


def load_demo() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_load_demo_stores_finished_matches_of_every_game_and_one_in_progress():
    out = load_demo()

    imported = Match.objects.filter(fixture_game__isnull=True)
    finished = set(imported.filter(status=MatchStatus.FINISHED)
                   .values_list("game", flat=True))
    assert finished == {"all-fives", "five-up", "fives-and-threes"}
    assert imported.filter(status=MatchStatus.IN_PROGRESS).count() == 1
    loaded = [line for line in out.splitlines() if line.startswith("Loaded match ")]
    assert len(loaded) == imported.count() == len(list(DEMO_DIR.glob("*.json")))
    # every match gets its public link; the one in progress also its scorer's link
    assert out.count("  watch: http://127.0.0.1:8000/matches/") == len(loaded)
    in_progress = imported.get(status=MatchStatus.IN_PROGRESS)
    assert f"/join/{in_progress.scorer_token}/" in out


def test_load_demo_has_a_partnership_match_and_a_double_nine_match():
    load_demo()

    partnership = Match.objects.get(game="all-fives", player_count=4)
    assert partnership.sides.count() == 2
    assert Match.objects.get(game="fives-and-threes", fixture_game__isnull=True).options == \
        {"set": "double-nine"}


def test_demo_matches_equal_their_records():
    load_demo()

    for match in Match.objects.all():
        record = match_record(match)
        assert rules.summary(rules.replay(record)) == match_summary(match)


def test_load_demo_twice_does_not_duplicate():
    load_demo()
    count = Match.objects.count()

    out = load_demo()

    reset = RESET[connection.vendor]  # remove db.sqlite3, or an empty PostgreSQL database
    assert out == ALREADY_LOADED.format(count=count, reset=reset) + "\n"
    assert Match.objects.count() == count


def test_an_account_with_a_demo_user_name_stops_the_demo_and_says_why():
    User.objects.create_user("secretary")
    with pytest.raises(CommandError) as refused:  # once an IntegrityError's traceback
        load_demo()
    assert str(refused.value) == NAMES_TAKEN
    assert not Match.objects.exists() and User.objects.count() == 1


def test_the_demos_accounts_are_made_as_signing_up_makes_them(settings):
    """Through services.account_create, which checks the password as the sign-up page
    does: one the site's checks refuse stops the demo, and nothing of it is kept."""
    settings.AUTH_PASSWORD_VALIDATORS = [{
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 13}}]  # the demo's passwords are 12 characters

    with pytest.raises(CommandError) as refused:
        load_demo()

    assert str(refused.value) == (
        "the demo was not loaded (nothing of it is kept): This password is too short. It "
        "must contain at least 13 characters.")
    assert not User.objects.exists() and not Club.objects.exists()


def test_the_demo_clubs_secretary_owns_it_and_each_team_has_its_captain():
    load_demo()

    roles = dict(Membership.objects.values_list("user__username", "role"))
    assert roles == {"secretary": "owner", "captain-royal-oak-a": "captain",
                     "captain-bowes-dragons": "captain", "captain-middleton-club": "captain",
                     "captain-black-bull": "captain"}
    assert all(user.has_usable_password() for user in User.objects.all())


def test_the_demos_links_start_with_the_address_it_is_served_at():
    out = StringIO()
    call_command("load_demo", "--site", "http://localhost:8080/", stdout=out)
    links = [word for word in out.getvalue().split() if "://" in word]
    assert links and all(link.startswith("http://localhost:8080/") for link in links)
    assert "//localhost:8080//" not in out.getvalue()


def test_the_demo_league_has_a_real_table_to_look_at():
    out = load_demo()

    season = Season.objects.get()
    assert f"Loaded the demo league: http://127.0.0.1:8000{season.get_absolute_url()}" in out
    # half a season in on whatever day it is loaded: weeks 1-3 past, 4-6 to come
    today = timezone.localdate()
    dates = dict(season.divisions.get().fixtures.filter(date__isnull=False)
                 .values_list("week", "date").distinct())
    week_3, week_4 = dates[3], dates[4]
    assert week_3 is not None and week_4 is not None
    assert week_3 <= today < week_4 and week_3.weekday() == 0
    division = season.divisions.get()
    assert division.entrants.count() == 4 and division.fixtures.count() == 12
    statuses = list(division.fixtures.values_list("status", flat=True))
    assert statuses.count(FixtureStatus.CONFIRMED) == 4
    assert statuses.count(FixtureStatus.DISPUTED) == 1
    assert statuses.count(FixtureStatus.POSTPONED) == 1
    on_scorepad = Fixture.objects.get(games__match__isnull=False)
    scorepad_match = on_scorepad.games.get(number=1).match
    assert scorepad_match is not None and scorepad_match.status == MatchStatus.FINISHED
    assert on_scorepad.games.count() == 3
    table = division_table(season_divisions(season).get(), season)
    assert sum(row.played for row in table.rows) == 8
    assert [row.adjustment for row in table.rows if row.adjustment] == [-1]
