"""Making a cup (its season of kind cup, its division, its seed), adding its entrants
until it is drawn, its seeds, and its draw: at random from the seed shown (the same
draw again from it), seeded (the seeds apart, the byes theirs), by hand."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError

from matches.cups import services as cups
from matches.cups.models import MAX_SEED, Cup, CupLog, CupLogKind
from matches.cups.selectors import cup_format, cup_shown, rules_cup
from matches.models import Fixture, FixtureStatus, Membership, SeasonKind
from matches.rules import cup as cup_rules
from tests.support.cups import STARTS, a_cup

pytestmark = pytest.mark.django_db

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def test_a_cup_is_made_with_its_season_its_division_and_a_seed_of_its_own():
    folk = a_cup(FOUR)
    season = folk.cup.season
    assert season.kind == SeasonKind.CUP
    assert season.corrections_confirmed_again is False
    assert [d.name for d in season.divisions.all()] == ["Entrants"]
    assert sorted(e.name for e in season.divisions.get().entrants.all()) == FOUR
    assert 0 <= folk.cup.draw_seed <= MAX_SEED
    assert folk.cup.drawn is None
    assert list(CupLog.objects.values_list("kind", flat=True)) == [CupLogKind.CREATED]


def test_only_a_club_admin_makes_a_cup():
    folk = a_cup([])
    captain = User.objects.create_user("captain")
    Membership.objects.create(club=folk.club, user=captain, role="captain")
    with pytest.raises(PermissionDenied, match="Only a club admin or above can do that."):
        cups.cup_create(club=folk.club, by=captain, name="Other", starts_on=STARTS,
                        game="all-fives")
    assert Cup.objects.count() == 1


def test_a_walkover_gives_more_games_to_the_side_there():
    folk = a_cup([])
    with pytest.raises(ValidationError) as refused:
        cups.cup_create(club=folk.club, by=folk.admin, name="Bad", starts_on=STARTS,
                        game="all-fives", walkover=(0, 0))
    assert "walkover_winner" in refused.value.message_dict
    assert Cup.objects.count() == 1


def test_only_a_night_that_can_end_level_has_room_for_a_deciding_game():
    folk = a_cup([])
    made = {games: cups.cup_create(club=folk.club, by=folk.admin, name=f"Of {games}",
                                   starts_on=STARTS, game="all-fives", fixture_format="games",
                                   singles=games, level_tie="deciding_game")
            for games in (2, 3)}
    assert made[2].season.decider and made[2].season.night.deciding_game == 3
    assert not made[3].season.decider and made[3].season.night.deciding_game is None
    race = cups.cup_create(club=folk.club, by=folk.admin, name="Race", starts_on=STARTS,
                           game="all-fives", fixture_format="race", race_to=2)
    assert not race.season.decider and race.season.night.most_games == 3


def test_entrants_are_added_until_the_cup_is_drawn():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    with pytest.raises(ValidationError) as refused:
        cups.cup_entrant_add(cup=folk.cup, by=folk.admin, name="Eve")
    assert refused.value.messages == [str(cups.ALREADY_DRAWN)]
    assert folk.cup.season.divisions.get().entrants.count() == 4


def test_a_random_draw_follows_from_the_seed_shown_and_makes_the_first_round_fixtures():
    folk = a_cup(["Ann", "Bob", "Cy", "Dee", "Eve"])
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    cup = folk.refreshed()
    ids = [str(e.pk) for e in folk.cup.season.divisions.get().entrants.order_by("name")]
    again = cup_rules.draw(ids, cup_format(cup), seed=cup.draw_seed)
    assert rules_cup(cup) == again
    # 5 entrants: 8 places, 3 byes; one tie of round 1 is played, the others go through
    ties = cup_rules.bracket(again, {}).rounds[0]
    played = [tie for tie in ties if not tie.bye]
    assert len(played) == 1
    fixture = Fixture.objects.get(week=1)
    assert (str(fixture.home_id), str(fixture.away_id)) == (played[0].home, played[0].away)
    assert fixture.status == FixtureStatus.SCHEDULED
    # two byes meeting in round 2 make its fixture at once; the other waits on the tie
    waiting = cup_rules.bracket(again, {}).rounds[1]
    known = [tie for tie in waiting if tie.home and tie.away]
    assert Fixture.objects.filter(week=2).count() == len(known)
    assert CupLog.objects.filter(kind=CupLogKind.DRAWN, user=folk.admin).exists()


def test_a_cup_is_drawn_once():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    with pytest.raises(ValidationError, match="drawn already"):
        cups.cup_draw(cup=folk.cup, by=folk.admin)


def test_a_seeded_draw_keeps_the_seeds_apart_and_gives_them_the_byes():
    folk = a_cup(["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"], draw_method="seeded")
    cups.cup_seeds_set(cup=folk.cup, by=folk.admin,
                       seeds=[folk.entrant("Ann"), folk.entrant("Bob")])
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    first = cup_shown(folk.refreshed()).rounds[0].ties
    byes = {tie.home.name for tie in first if tie.bye and tie.home is not None}
    assert byes == {"Ann", "Bob"}
    top_half = {side.name for tie in first[:2] for side in (tie.home, tie.away) if side}
    assert ("Ann" in top_half) != ("Bob" in top_half)


def test_seeds_are_refused_in_a_cup_not_seeded_and_checked_by_the_rules():
    folk = a_cup(FOUR)
    with pytest.raises(ValidationError) as refused:
        cups.cup_seeds_set(cup=folk.cup, by=folk.admin, seeds=[folk.entrant("Ann")])
    assert refused.value.messages == [str(cups.NOT_SEEDED)]
    folk.cup.draw_method = "seeded"
    folk.cup.save()
    with pytest.raises(ValidationError) as twice:
        cups.cup_seeds_set(cup=folk.cup, by=folk.admin,
                           seeds=[folk.entrant("Ann"), folk.entrant("Ann")])
    assert twice.value.message_dict["seeds"] == ['Seed 2 "Ann" is already seed 1.']
    assert Cup.objects.get().seeds == []


def test_a_draw_by_hand_takes_the_pairs_and_names_an_entrant_drawn_twice():
    folk = a_cup(["Ann", "Bob", "Cy"], draw_method="by_hand")
    ann, bob, cy = (folk.entrant(name) for name in ("Ann", "Bob", "Cy"))
    with pytest.raises(ValidationError) as refused:
        cups.cup_draw(cup=folk.cup, by=folk.admin, pairs=[[bob, None], [cy, bob]])
    assert refused.value.message_dict["pairs"] == ['Pair 2: "Bob" is already drawn in pair 1.']
    assert Cup.objects.get().drawn is None and not Fixture.objects.exists()
    cups.cup_draw(cup=folk.cup, by=folk.admin, pairs=[[bob, None], [cy, ann]])
    assert folk.tie_sides(1, 2) == ("Cy", "Ann")
