"""League fixtures: single and double round robins by the Berger tables."""

import doctest
from collections import Counter
from datetime import date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matches.rules import fixtures
from matches.rules.errors import OptionError, RulesError
from matches.rules.fixtures import Schedule, ScheduledFixture, Week, round_robin

FOUR = ["Anchor", "Bell", "Crown", "Dragon"]
THREE = ["Anchor", "Bell", "Crown"]


def pairs_by_week(schedule):
    return [[(f.home, f.away) for f in week.fixtures] for week in schedule.weeks]


def home_away_runs(schedule, entrant):
    """``"H"``/``"A"`` for each fixture the entrant plays, in order (byes skipped)."""
    return "".join("H" if f.home == entrant else "A" for f in schedule.fixtures_for(entrant))


def longest_run(sides):
    longest = run = 0
    for index, side in enumerate(sides):
        run = run + 1 if index and side == sides[index - 1] else 1
        longest = max(longest, run)
    return longest


def breaks(sides):
    return sum(1 for previous, side in zip(sides, sides[1:], strict=False) if previous == side)


# -- hand-checked small cases ------------------------------------------------------------

def test_four_entrants_play_three_weeks_of_two_fixtures_as_the_berger_table_gives():
    schedule = round_robin(FOUR)
    assert pairs_by_week(schedule) == [
        [("Anchor", "Dragon"), ("Bell", "Crown")],
        [("Dragon", "Crown"), ("Anchor", "Bell")],
        [("Bell", "Dragon"), ("Crown", "Anchor")],
    ]
    assert [week.number for week in schedule.weeks] == [1, 2, 3]
    assert all(week.bye is None and week.date is None for week in schedule.weeks)


def test_six_entrants_follow_the_published_berger_table():
    # FIDE Handbook C.05 Annex 1, six players: 1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 /
    # 6-5 1-4 2-3 / 3-6 4-2 5-1
    schedule = round_robin(["1", "2", "3", "4", "5", "6"])
    assert [" ".join(f"{h}-{a}" for h, a in week) for week in pairs_by_week(schedule)] == [
        "1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"]


def test_three_entrants_each_rest_one_week():
    schedule = round_robin(THREE)
    assert pairs_by_week(schedule) == [[("Bell", "Crown")], [("Anchor", "Bell")],
                                       [("Crown", "Anchor")]]
    assert [week.bye for week in schedule.weeks] == ["Anchor", "Crown", "Bell"]
    assert schedule.byes == ((1, "Anchor"), (2, "Crown"), (3, "Bell"))


def test_two_entrants_meet_once_or_once_at_each_home():
    assert pairs_by_week(round_robin(["Anchor", "Bell"])) == [[("Anchor", "Bell")]]
    assert pairs_by_week(round_robin(["Anchor", "Bell"], legs=2)) == [
        [("Anchor", "Bell")], [("Bell", "Anchor")]]


def test_the_second_leg_repeats_the_first_with_home_and_away_swapped():
    schedule = round_robin(FOUR, legs=2)
    assert pairs_by_week(schedule) == [
        [("Anchor", "Dragon"), ("Bell", "Crown")],
        [("Dragon", "Crown"), ("Anchor", "Bell")],
        [("Bell", "Dragon"), ("Crown", "Anchor")],
        [("Dragon", "Anchor"), ("Crown", "Bell")],
        [("Crown", "Dragon"), ("Bell", "Anchor")],
        [("Dragon", "Bell"), ("Anchor", "Crown")],
    ]


def test_weeks_are_dated_weekly_from_the_start():
    schedule = round_robin(FOUR, start=date(2026, 9, 7))
    assert [week.date for week in schedule.weeks] == [
        date(2026, 9, 7), date(2026, 9, 14), date(2026, 9, 21)]
    assert all(f.date == schedule.weeks[f.week - 1].date for f in schedule.fixtures)


def test_weeks_can_be_a_fortnight_apart_across_a_year_end():
    schedule = round_robin(THREE, legs=2, start=date(2026, 12, 15), every_days=14)
    assert [week.date for week in schedule.weeks] == [
        date(2026, 12, 15), date(2026, 12, 29), date(2027, 1, 12), date(2027, 1, 26),
        date(2027, 2, 9), date(2027, 2, 23)]


def test_value_objects_print_and_compare():
    schedule = round_robin(THREE, start=date(2026, 9, 7))
    assert str(schedule.weeks[0]) == "week 1 (2026-09-07): Bell v Crown; bye: Anchor"
    assert str(round_robin(FOUR).weeks[0]) == "week 1: Anchor v Dragon, Bell v Crown"
    assert schedule.weeks[1] == Week(2, date(2026, 9, 14),
                                     (ScheduledFixture(2, date(2026, 9, 14), "Anchor", "Bell"),),
                                     "Crown")
    assert schedule == Schedule(schedule.weeks)


def test_fixtures_lists_every_fixture_week_by_week():
    schedule = round_robin(FOUR)
    assert [(f.week, f.home, f.away) for f in schedule.fixtures] == [
        (1, "Anchor", "Dragon"), (1, "Bell", "Crown"), (2, "Dragon", "Crown"),
        (2, "Anchor", "Bell"), (3, "Bell", "Dragon"), (3, "Crown", "Anchor")]


def test_fixtures_for_an_entrant_matches_its_name_case_insensitively():
    schedule = round_robin(FOUR)
    assert [(f.week, str(f)) for f in schedule.fixtures_for("bell")] == [
        (1, "Bell v Crown"), (2, "Anchor v Bell"), (3, "Bell v Dragon")]
    assert schedule.fixtures_for("Eagle") == ()


def test_entrants_keep_their_spelling_and_any_sequence_will_do():
    schedule = round_robin(("royal oak A", "Bowes Dragons"))
    assert pairs_by_week(schedule) == [[("royal oak A", "Bowes Dragons")]]


def test_the_same_entrants_give_the_same_schedule():
    assert round_robin(FOUR + ["Eagle"], legs=2, start=date(2026, 9, 7)) == round_robin(
        FOUR + ["Eagle"], legs=2, start=date(2026, 9, 7))


def test_the_docstrings_run():
    result = doctest.testmod(fixtures, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if fixtures.__file__.endswith(".py"):  # a module compiled by mypyc keeps no doctests
        assert result.attempted > 0


# -- properties -------------------------------------------------------------------------

names = st.lists(st.text(min_size=1, max_size=8).filter(str.strip), min_size=2, max_size=20,
                 unique_by=str.casefold)


@given(entrants=names, legs=st.sampled_from([1, 2]))
def test_each_pair_meets_exactly_legs_times_and_once_at_each_home_over_two(entrants, legs):
    schedule = round_robin(entrants, legs=legs)
    meetings = Counter(frozenset((f.home, f.away)) for f in schedule.fixtures)
    everyone = {frozenset((a, b)) for a in entrants for b in entrants if a != b}
    assert set(meetings) == everyone
    assert set(meetings.values()) == {legs}
    if legs == 2:
        at_home = Counter((f.home, f.away) for f in schedule.fixtures)
        assert len(at_home) == len(entrants) * (len(entrants) - 1)
        assert set(at_home.values()) == {1}


@given(entrants=names, legs=st.sampled_from([1, 2]))
def test_home_and_away_are_balanced(entrants, legs):
    schedule = round_robin(entrants, legs=legs)
    home = Counter(f.home for f in schedule.fixtures)
    away = Counter(f.away for f in schedule.fixtures)
    for entrant in entrants:
        if legs == 1:
            assert abs(home[entrant] - away[entrant]) <= 1
        else:
            assert home[entrant] == away[entrant]
        if len(entrants) % 2:  # an even number of fixtures each: exactly balanced
            assert home[entrant] == away[entrant]


@given(entrants=names, legs=st.sampled_from([1, 2]))
def test_everyone_plays_or_rests_exactly_once_a_week(entrants, legs):
    schedule = round_robin(entrants, legs=legs)
    for week in schedule.weeks:
        playing = [name for f in week.fixtures for name in (f.home, f.away)]
        resting = [] if week.bye is None else [week.bye]
        assert sorted(playing + resting) == sorted(entrants)
        assert all(f.week == week.number for f in week.fixtures)


@given(entrants=names, legs=st.sampled_from([1, 2]))
def test_number_of_weeks_and_byes(entrants, legs):
    schedule = round_robin(entrants, legs=legs)
    n = len(entrants)
    weeks = (n - 1) * legs if n % 2 == 0 else n * legs
    assert [week.number for week in schedule.weeks] == list(range(1, weeks + 1))
    byes = Counter(week.bye for week in schedule.weeks if week.bye is not None)
    if n % 2:
        assert byes == dict.fromkeys(entrants, legs)
    else:
        assert byes == {}


@given(entrants=names, legs=st.sampled_from([1, 2]),
       start=st.dates(min_value=date(2000, 1, 1), max_value=date(2100, 1, 1)),
       every_days=st.integers(min_value=1, max_value=31))
def test_dates_step_by_every_days_from_the_start(entrants, legs, start, every_days):
    schedule = round_robin(entrants, legs=legs, start=start, every_days=every_days)
    dates = [week.date for week in schedule.weeks]
    assert dates == [start + timedelta(days=index * every_days) for index in range(len(dates))]
    assert all(f.date == schedule.weeks[f.week - 1].date for f in schedule.fixtures)


@given(entrants=names, legs=st.sampled_from([1, 2]))
def test_without_a_start_nothing_is_dated(entrants, legs):
    schedule = round_robin(entrants, legs=legs)
    assert all(week.date is None for week in schedule.weeks)
    assert all(f.date is None for f in schedule.fixtures)


@given(entrants=names)
def test_one_leg_alternates_home_and_away_as_far_as_it_can(entrants):
    # Berger tables: with an even count each entrant has at most one break (two in a
    # row at home or away), n - 2 in all, the fewest possible; with an odd count none.
    schedule = round_robin(entrants)
    runs = {entrant: home_away_runs(schedule, entrant) for entrant in entrants}
    assert all(longest_run(sides) <= 2 for sides in runs.values())
    assert all(breaks(sides) <= 1 for sides in runs.values())
    expected = 0 if len(entrants) % 2 else len(entrants) - 2
    assert sum(breaks(sides) for sides in runs.values()) == expected


@given(entrants=names)
def test_two_legs_mirror_week_by_week_and_run_at_most_three(entrants):
    first, both = round_robin(entrants), round_robin(entrants, legs=2)
    half = len(first.weeks)
    assert pairs_by_week(both)[:half] == pairs_by_week(first)
    assert pairs_by_week(both)[half:] == [[(a, h) for h, a in week]
                                         for week in pairs_by_week(first)]
    assert [w.bye for w in both.weeks] == [w.bye for w in first.weeks] * 2
    assert all(longest_run(home_away_runs(both, entrant)) <= 3 for entrant in entrants)


# -- refusals -----------------------------------------------------------------------------

@pytest.mark.parametrize(("entrants", "message"), [
    ([], "a round robin needs at least 2 entrants, not 0"),
    (["Anchor"], "a round robin needs at least 2 entrants, not 1"),
    (["Anchor", "Bell", "anchor"],
     "entrant 3 'anchor' is already entered as 'Anchor' (names are compared "
     "case-insensitively)"),
    (["Anchor", "Bell", "Bell"],
     "entrant 3 'Bell' is already entered as 'Bell' (names are compared case-insensitively)"),
    (["Anchor", "  ", "Bell"], "entrant 2 has no name"),
    (["Anchor", ""], "entrant 2 has no name"),
    (["Anchor", 7], "entrant 2 must be a name, not 7"),
    ("Anchor", "entrants must be a list of names, not the string 'Anchor'"),
])
def test_bad_entrants_are_refused(entrants, message):
    with pytest.raises(OptionError) as refused:
        round_robin(entrants)
    assert str(refused.value) == message


@pytest.mark.parametrize("legs", [0, 3, -1])
def test_legs_other_than_one_or_two_are_refused(legs):
    with pytest.raises(OptionError) as refused:
        round_robin(FOUR, legs=legs)
    assert str(refused.value) == f"legs must be 1 or 2, not {legs}"


@pytest.mark.parametrize("every_days", [0, -7])
def test_weeks_must_move_forward(every_days):
    with pytest.raises(OptionError) as refused:
        round_robin(FOUR, start=date(2026, 9, 7), every_days=every_days)
    assert str(refused.value) == (
        f"every_days must be a whole number of days from 1, not {every_days}")


def test_a_start_with_a_time_of_day_is_refused():
    with pytest.raises(OptionError) as refused:
        round_robin(FOUR, start=datetime(2026, 9, 7, 19, 30))
    assert str(refused.value) == "start must be a date, not datetime.datetime(2026, 9, 7, 19, 30)"


def test_refusals_are_rules_errors_and_value_errors():
    with pytest.raises(RulesError):
        round_robin(["Anchor"])
    with pytest.raises(ValueError, match="legs must be 1 or 2"):
        round_robin(FOUR, legs=3)
