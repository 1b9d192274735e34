"""A cup's entrants besides those added one by one: another season's entered at once
(squads and captains with them), one renamed (the bracket follows), one taken out
before the draw (and from the seeds)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from matches.clubs.services import club_create, player_add
from matches.cups import services as cups
from matches.cups.models import Cup, CupLog, CupLogKind
from matches.cups.selectors import cup_division_entrants, cup_shown
from matches.leagues.services import entrant_add, season_create
from matches.models import Entrant, Membership, Season
from tests.support.cups import HOME_WIN, STARTS, Cupfolk, a_cup

pytestmark = pytest.mark.django_db


def a_league(folk: Cupfolk, teams: dict[str, list[str]], *, name: str = "Winter League",
             divisions: tuple[str, ...] = ("Division 1",)) -> Season:
    """A league season of the cup's club, its teams (with squads of new players, each
    team captained by a new member) shared out over ``divisions`` in turn."""
    season = season_create(club=folk.club, by=folk.admin, name=name, starts_on=STARTS,
                           game="all-fives", divisions=divisions)
    rows = list(season.divisions.order_by("order", "name"))
    for number, (team, squad) in enumerate(teams.items()):
        captain = User.objects.create_user(f"lc-{team.lower().replace(' ', '-')}")
        Membership.objects.create(club=folk.club, user=captain, role="captain")
        for player in squad:
            player_add(club=folk.club, name=player, by=folk.admin)
        entrant_add(division=rows[number % len(rows)], by=folk.admin, name=team,
                    player_names=squad, captain_username=captain.username)
    return season


def entered(cup: Cup) -> list[tuple[str, str, list[str], str | None]]:
    return [(e.name, e.kind, sorted(p.name for p in e.players.all()),
             e.captain.username if e.captain else None) for e in cup_division_entrants(cup)]


def test_a_seasons_entrants_come_in_with_their_squads_and_captains():
    folk = a_cup(["Ann"])
    league = a_league(folk, {"Red Lion": ["Rob", "Rae"], "Oak": ["Ola", "Otto"],
                             "ANN": ["Anya"]}, divisions=("Premier", "Division 1"))
    added = cups.cup_entrants_from_season(cup=folk.cup, by=folk.admin, season=league)
    # "ANN" is the cup's Ann already, whatever the case: left out
    assert [entrant.name for entrant in added] == ["Red Lion", "Oak"]
    assert entered(folk.refreshed()) == [
        ("Ann", "single", ["Ann"], "cap-ann"),
        ("Oak", "team", ["Ola", "Otto"], "lc-oak"),
        ("Red Lion", "team", ["Rae", "Rob"], "lc-red-lion")]
    assert CupLog.objects.filter(kind=CupLogKind.ENTRANTS_ADDED,
                                 details="Winter League: Red Lion, Oak").exists()
    with pytest.raises(ValidationError) as refused:
        cups.cup_entrants_from_season(cup=folk.cup, by=folk.admin, season=league)
    assert refused.value.message_dict == {
        "season": ["Every entrant of Winter League is in the cup already."]}


def test_a_captain_who_has_left_the_club_does_not_come_in():
    folk = a_cup([])
    league = a_league(folk, {"Oak": ["Ola"], "Elm": ["Eli"]})
    Membership.objects.filter(user__username="lc-oak").delete()
    cups.cup_entrants_from_season(cup=folk.cup, by=folk.admin, season=league)
    assert [(name, captain) for name, _kind, _squad, captain in entered(folk.refreshed())] \
        == [("Elm", "lc-elm"), ("Oak", None)]


def test_only_the_clubs_other_seasons_are_entered_and_only_before_the_draw():
    folk = a_cup(["Ann", "Bob"])
    outsider = User.objects.create_user("elsewhere")
    other_club = club_create(name="Weardale", by=outsider)
    theirs = season_create(club=other_club, by=outsider, name="Theirs", starts_on=STARTS,
                           game="all-fives")
    before = Entrant.objects.count()
    for season in (theirs, folk.cup.season):
        with pytest.raises(ValidationError) as refused:
            cups.cup_entrants_from_season(cup=folk.cup, by=folk.admin, season=season)
        assert refused.value.message_dict == {"season": ["Choose one of the club's seasons."]}
    league = a_league(folk, {"Oak": ["Ola"]})
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    with pytest.raises(ValidationError) as refused:
        cups.cup_entrants_from_season(cup=folk.cup, by=folk.admin, season=league)
    assert refused.value.messages == [
        "The cup is drawn already: its entrants and seeds stay as drawn."]
    assert Entrant.objects.count() == before + 1  # the league's Oak, in its league only


def test_a_renamed_entrant_keeps_its_place_in_the_bracket():
    folk = a_cup(["Ann", "Bob"])
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    folk.play(folk.fixture(1, 1), HOME_WIN)
    winner = cup_shown(folk.refreshed()).winner
    assert winner is not None
    cups.cup_entrant_rename(cup=folk.cup, by=folk.admin, entrant=winner, name="  Annie  B ")
    assert cup_shown(folk.refreshed()).winner.name == "Annie B"  # type: ignore[union-attr]
    assert CupLog.objects.filter(kind=CupLogKind.ENTRANT_RENAMED,
                                 details=f"{winner.name} → Annie B").exists()


def test_an_entrant_of_another_cup_is_neither_renamed_nor_taken_out():
    folk = a_cup(["Ann", "Bob"])
    other = cups.cup_create(club=folk.club, by=folk.admin, name="Plate Cup",
                            starts_on=STARTS, game="all-fives")
    stranger = cups.cup_entrant_add(cup=other, by=folk.admin, name="Zed")
    for write in (lambda: cups.cup_entrant_rename(cup=folk.cup, by=folk.admin,
                                                  entrant=stranger, name="Zoe"),
                  lambda: cups.cup_entrant_remove(cup=folk.cup, by=folk.admin,
                                                  entrant=stranger)):
        with pytest.raises(ValidationError) as refused:
            write()
        assert refused.value.message_dict == {"entrant": ["Zed is not an entrant of the cup."]}
    stranger.refresh_from_db()
    assert stranger.name == "Zed"


def test_an_entrant_is_taken_out_before_the_draw_and_from_the_seeds():
    folk = a_cup(["Ann", "Bob", "Cy"], draw_method="seeded")
    cups.cup_seeds_set(cup=folk.cup, by=folk.admin,
                       seeds=[folk.entrant("Bob"), folk.entrant("Ann")])
    cups.cup_entrant_remove(cup=folk.cup, by=folk.admin, entrant=folk.entrant("Bob"))
    cup = folk.refreshed()
    assert [e.name for e in cup_division_entrants(cup)] == ["Ann", "Cy"]
    assert cup.seeds == [folk.entrant("Ann").pk]
    assert CupLog.objects.filter(kind=CupLogKind.ENTRANT_REMOVED, details="Bob").exists()
    cups.cup_draw(cup=cup, by=folk.admin)
    with pytest.raises(ValidationError) as refused:
        cups.cup_entrant_remove(cup=cup, by=folk.admin, entrant=folk.entrant("Cy"))
    assert refused.value.messages == [
        "The cup is drawn already: its entrants and seeds stay as drawn."]
    assert folk.entrant("Cy")
