"""A cup's files: its ``domino-cup/1`` document stored back into another club as the
same cup (draw, bracket, results, winner), nothing stored when refused; its ties as
CSV; the downloads for whoever may see the cup (an outsider of a members-only club:
404); the commands."""

from __future__ import annotations

import datetime
import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from matches.clubs.services import club_create
from matches.cups import services as cups
from matches.cups.exports import CSV_COLUMNS, cup_document, ties_csv
from matches.cups.models import Cup, CupTie
from matches.cups.selectors import cup_results, cup_shown
from matches.leagues.services import (
    PaperGame,
    fixture_confirm,
    fixture_games_enter,
    fixture_submit,
    fixture_walkover,
)
from matches.models import Club, Fixture, FixtureStatus, Membership, Season, Visibility
from matches.rules import CupError
from tests.support.cups import AWAY_WIN, HOME_WIN, STARTS, Cupfolk, a_cup

pytestmark = pytest.mark.django_db

SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def played() -> Cupfolk:
    """Six entrants, seeded, with a plate: round 1 played (a walkover among them), the
    semi-finals (dated) played, the plate drawn and a tie of it played, the finals night
    set, the final still to play."""
    folk = a_cup(SIX, draw_method="seeded", plate=True)
    cups.cup_seeds_set(cup=folk.cup, by=folk.admin,
                       seeds=[folk.entrant("Cy"), folk.entrant("Ann")])
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    cups.cup_round_date(cup=folk.cup, by=folk.admin, number=2,
                        date=STARTS + datetime.timedelta(days=14))
    shown = cup_shown(folk.refreshed())
    playing = [tie.key for tie in shown.rounds[0].ties if not tie.bye]
    assert len(playing) == 2
    folk.play(folk.fixture(1, playing[0].position), HOME_WIN)
    fixture_walkover(fixture=folk.fixture(1, playing[1].position), by=folk.admin, side="away")
    shown = cup_shown(folk.refreshed())
    semis = [tie.fixture for tie in shown.rounds[1].ties]
    assert all(semis)
    folk.play(semis[0], AWAY_WIN)  # type: ignore[arg-type]
    folk.play(semis[1], HOME_WIN)  # type: ignore[arg-type]
    cups.cup_plate_draw(cup=folk.refreshed(), by=folk.admin)
    plate = next(tie for tie in cup_shown(folk.refreshed()).plate_rounds[0].ties
                 if tie.fixture is not None)
    folk.play(plate.fixture, HOME_WIN)  # type: ignore[arg-type]
    folk.refreshed()
    cups.cup_finals_set(cup=folk.cup, by=folk.admin, date=STARTS + datetime.timedelta(days=28),
                        venue="The Oak")
    folk.refreshed()
    return folk


def other_club() -> tuple[Club, User]:
    admin = User.objects.create_user("weardale-admin")
    return club_create(name="Weardale", by=admin), admin


def picture(cup: Cup) -> dict[str, object]:
    """What makes the cup the same cup: its draw, bracket, results and winners, by name."""
    shown = cup_shown(cup)

    def name(entrant: object) -> object:
        return getattr(entrant, "name", None)

    return {
        "document": {key: value for key, value in cup_document(cup).items()},
        "bracket": [[(str(tie.key), name(tie.home), name(tie.away), tie.bye, name(tie.winner),
                      tie.score, tie.walkover, tie.fixture is not None,
                      tie.fixture.date if tie.fixture else None, round.name)
                     for tie in round.ties] for round in [*shown.rounds, *shown.plate_rounds]],
        "results": sorted((str(key), result) for key, result in cup_results(cup).items()),
        "winner": name(shown.winner), "plate_winner": name(shown.plate_winner),
        "seeds": [seed.name for seed in shown.seeds],
        "next_round_drawable": shown.next_round_drawable,
        "plate_drawable": shown.plate_drawable,
        "csv": list(ties_csv(cup)),
    }


def test_a_cup_drawn_and_partly_played_comes_back_as_the_same_cup_in_another_club():
    folk = played()
    document = json.loads(json.dumps(cup_document(folk.cup)))
    club, admin = other_club()
    copy = cups.cup_import(club=club, document=document, by=admin)
    assert copy.season.club == club and copy.season.kind == "cup"
    assert copy.draw_seed == folk.cup.draw_seed
    assert picture(copy) == picture(folk.refreshed())
    assert cup_results(copy)  # some results, counted from confirmed fixtures
    for tie in copy.ties.filter(result__isnull=False).select_related("fixture"):
        assert tie.fixture is not None and tie.fixture.status == FixtureStatus.CONFIRMED
    # and it plays on: the final's fixture is waiting
    final = cup_shown(copy).rounds[2].ties[0]
    assert final.fixture is not None and final.winner is None


def test_a_cup_played_to_its_winner_keeps_its_winner():
    folk = a_cup(["Ann", "Bob", "Cy"])
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    first = next(tie for tie in cup_shown(folk.refreshed()).rounds[0].ties if not tie.bye)
    assert first.fixture is not None
    folk.play(first.fixture, HOME_WIN)
    folk.play(folk.fixture(2, 1), AWAY_WIN)
    winner = cup_shown(folk.refreshed()).winner
    assert winner is not None
    club, admin = other_club()
    copy = cups.cup_import(club=club, document=cup_document(folk.cup), by=admin)
    assert cup_shown(copy).winner is not None
    assert cup_shown(copy).winner.name == winner.name  # type: ignore[union-attr]
    assert picture(copy) == picture(folk.refreshed())


def decided_by_a_deciding_game() -> Cupfolk:
    """A cup of two whose night of two singles ended level and went to a deciding game."""
    folk = a_cup(["Ann", "Bob"], fixture_format="games", singles=2,
                 level_tie="deciding_game")
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    fixture = folk.fixture(1, 1)
    home, away = list(fixture.home.players.all()), list(fixture.away.players.all())
    fixture_games_enter(fixture=fixture, by=folk.captain(fixture.home), games=[
        PaperGame(60, 40, home, away), PaperGame(45, 60, home, away),
        PaperGame(20, 60, home, away)])
    fixture_submit(fixture=fixture, by=folk.captain(fixture.home))
    fixture_confirm(fixture=fixture, by=folk.captain(fixture.away))
    folk.refreshed()
    return folk


def test_a_deciding_game_is_exported_and_comes_back_as_the_night_s_last_game():
    folk = decided_by_a_deciding_game()
    document = json.loads(json.dumps(cup_document(folk.cup)))
    assert document["ties"][0]["result"] == {"games": [[60, 40], [45, 60]],
                                             "decider": [20, 60]}
    club, admin = other_club()
    copy = cups.cup_import(club=club, document=document, by=admin)
    assert picture(copy) == picture(folk.refreshed())
    fixture = cup_shown(copy).rounds[0].ties[0].fixture
    assert fixture is not None
    assert [(g.number, g.home_score, g.away_score) for g in fixture.games.order_by("number")] \
        == [(1, 60, 40), (2, 45, 60), (3, 20, 60)]
    assert (fixture.home_games, fixture.away_games) == (1, 2)
    assert cup_shown(copy).winner.name == fixture.away.name  # type: ignore[union-attr]


def test_a_deciding_game_after_the_wrong_number_of_games_is_refused():
    folk = decided_by_a_deciding_game()
    document = json.loads(json.dumps(cup_document(folk.cup)))
    document["ties"][0]["result"] = {"games": [[60, 40], [45, 60], [60, 40], [45, 60]],
                                     "decider": [20, 60]}
    club, admin = other_club()
    with pytest.raises(ValidationError) as refused:
        cups.cup_import(club=club, document=document, by=admin)
    assert refused.value.messages == [
        "The deciding game of tie 1 of round 1 follows the night's 2 games, not 4."]
    assert not Cup.objects.filter(season__club=club).exists()


def test_an_undrawn_cup_comes_back_undrawn_with_its_entrants_and_seeds():
    folk = a_cup(["Ann", "Bob", "Cy"], draw_method="seeded")
    cups.cup_seeds_set(cup=folk.cup, by=folk.admin, seeds=[folk.entrant("Bob")])
    club, admin = other_club()
    copy = cups.cup_import(club=club, document=cup_document(folk.refreshed()), by=admin)
    assert copy.drawn is None and copy.seeds
    assert picture(copy) == picture(folk.refreshed())


def test_a_refused_document_stores_nothing():
    folk = played()
    document = cup_document(folk.cup)
    document["ties"][-1]["result"] = {"games": [[61, 61]]}
    club, admin = other_club()
    before = (Season.objects.count(), Fixture.objects.count(), CupTie.objects.count())
    with pytest.raises(CupError, match=r"^ties\[\d+\]\.result: games\[1\] is level at 61-61"):
        cups.cup_import(club=club, document=document, by=admin)
    assert (Season.objects.count(), Fixture.objects.count(), CupTie.objects.count()) == before


def test_a_refusal_after_the_reading_stores_nothing_either():
    """The season's own check (an unknown game) comes after the document is read."""
    folk = played()
    document = cup_document(folk.cup)
    document["game"] = "no-such-game"
    club, admin = other_club()
    before = (Season.objects.count(), Fixture.objects.count(), Cup.objects.count())
    with pytest.raises(ValidationError):
        cups.cup_import(club=club, document=document, by=admin)
    assert (Season.objects.count(), Fixture.objects.count(), Cup.objects.count()) == before


def test_only_whoever_runs_the_clubs_cups_imports_one():
    folk = played()
    club, _admin = other_club()
    captain = User.objects.create_user("weardale-captain")
    Membership.objects.create(club=club, user=captain, role="captain")
    with pytest.raises(PermissionDenied):
        cups.cup_import(club=club, document=cup_document(folk.cup), by=captain)
    assert not Season.objects.filter(club=club).exists()


def test_the_ties_csv_has_a_row_per_tie_with_its_result_and_winner():
    folk = played()
    lines = list(ties_csv(folk.refreshed()))
    assert lines[0].startswith("\ufeff")
    rows = [line.rstrip("\r\n").split(",") for line in lines]
    assert tuple(rows[0][0].lstrip("\ufeff").split(",")) + tuple(rows[0][1:]) == CSV_COLUMNS
    shown = cup_shown(folk.cup)
    ties = [tie for round in [*shown.rounds, *shown.plate_rounds] for tie in round.ties]
    assert len(rows) == 1 + len(ties)
    body = rows[1:]
    assert body[0][:3] == ["Quarter-finals", "1", "cup"]
    byes = [row for row in body if row[4] == "bye"]
    assert byes and all(row[7] == row[3] and row[6] == "" for row in byes)
    walkover = [row for row in body if row[6].startswith("walkover")]
    assert len(walkover) == 1 and walkover[0][6] == "walkover away"
    assert walkover[0][7] == walkover[0][4]
    won = [row for row in body if row[6] == "1-0"]
    assert won and all(row[7] == row[3] for row in won)
    assert [row for row in body if row[2] == "plate"]
    semis = [row for row in body if row[0] == "Semi-finals" and row[2] == "cup"]
    dated = (STARTS + datetime.timedelta(days=14)).isoformat()
    assert len(semis) == 2 and {row[5] for row in semis} == {dated}


def test_the_downloads_are_linked_and_for_whoever_may_see_the_cup():
    folk = played()
    slug, season = folk.club.slug, folk.cup.season.slug
    page = reverse("matches:cup", kwargs={"slug": slug, "season": season})
    json_url = reverse("matches:cup_export", kwargs={"slug": slug, "season": season,
                                                     "what": "cup.json"})
    csv_url = reverse("matches:cup_export", kwargs={"slug": slug, "season": season,
                                                    "what": "ties.csv"})
    html = Client().get(page).content.decode()
    assert f'href="{json_url}"' in html and "Download the cup (JSON)" in html
    assert f'href="{csv_url}"' in html and "Download the ties (CSV)" in html
    response = Client().get(json_url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{season}.json"'
    assert json.loads(response.content) == json.loads(json.dumps(cup_document(folk.cup)))
    response = Client().get(csv_url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert b"".join(response.streaming_content if response.streaming  # type: ignore[attr-defined]
                    else [response.content]).decode() == "".join(ties_csv(folk.cup))
    assert Client().get(reverse("matches:cup_export", kwargs={
        "slug": slug, "season": season, "what": "cup.xml"})).status_code == 404
    Club.objects.filter(pk=folk.club.pk).update(visibility=Visibility.MEMBERS)
    outsider = Client()
    outsider.force_login(User.objects.create_user("outsider"))
    member = User.objects.create_user("member")
    Membership.objects.create(club=folk.club, user=member, role="member")
    as_member = Client()
    as_member.force_login(member)
    for address in (json_url, csv_url):
        assert Client().get(address).status_code == 404
        assert outsider.get(address).status_code == 404
        assert as_member.get(address).status_code == 200


def test_a_league_season_is_no_cup_to_download():
    folk = a_cup(["Ann", "Bob"])
    Season.objects.filter(pk=folk.cup.season.pk).update(kind="league")
    assert Client().get(reverse("matches:cup_export", kwargs={
        "slug": folk.club.slug, "season": folk.cup.season.slug,
        "what": "cup.json"})).status_code == 404


def test_the_commands_export_a_cup_and_import_it_into_another_club(tmp_path):
    folk = played()
    out = io.StringIO()
    call_command("export_cup", folk.club.slug, folk.cup.season.slug, stdout=out)
    assert json.loads(out.getvalue()) == json.loads(json.dumps(cup_document(folk.cup)))
    path = tmp_path / "cup.json"
    path.write_text(out.getvalue(), encoding="utf-8")
    club, _admin = other_club()
    done = io.StringIO()
    call_command("import_cup", club.slug, str(path), stdout=done)
    assert "stored as cup" in done.getvalue()
    copy = Cup.objects.get(season__club=club)
    assert picture(copy) == picture(folk.refreshed())
    document = json.loads(out.getvalue())
    document["entrants"][1]["name"] = ""
    path.write_text(json.dumps(document), encoding="utf-8")
    errors = io.StringIO()
    with pytest.raises(SystemExit) as exit:
        call_command("import_cup", club.slug, str(path), stderr=errors)
    assert exit.value.code == 1
    assert "entrants[2].name: a name, not blank" in errors.getvalue()
    assert Cup.objects.filter(season__club=club).count() == 1


def test_a_refusal_midway_through_storing_stores_nothing():
    """A deciding game in a cup whose nights (one game) cannot end level is refused once
    the season, its entrants and some ties are stored: the whole import is undone."""
    folk = played()
    document = cup_document(folk.cup)
    won = next(tie for tie in document["ties"]
               if not tie["plate"] and "games" in tie["result"] and tie["round"] == 2)
    won["result"] = ({"games": [[61, 40], [40, 61]], "decider": [61, 50]}
                     if won["result"]["games"][0][0] > won["result"]["games"][0][1]
                     else {"games": [[61, 40], [40, 61]], "decider": [50, 61]})
    club, admin = other_club()
    before = (Season.objects.count(), Fixture.objects.count(), CupTie.objects.count(),
              Cup.objects.count())
    with pytest.raises(ValidationError) as refused:
        cups.cup_import(club=club, document=document, by=admin)
    assert refused.value.messages == [
        "The deciding game of tie 1 of round 2 cannot be: the cup's nights cannot end level."]
    assert (Season.objects.count(), Fixture.objects.count(), CupTie.objects.count(),
            Cup.objects.count()) == before


def test_a_cup_drawn_round_by_round_keeps_its_later_rounds_draw():
    folk = a_cup(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"],
                 draw_timing="round_by_round")
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    for position in range(1, 5):
        folk.play(folk.fixture(1, position), HOME_WIN if position % 2 else AWAY_WIN)
    cups.cup_round_draw(cup=folk.refreshed(), by=folk.admin)
    folk.play(folk.fixture(2, 1), AWAY_WIN)
    club, admin = other_club()
    copy = cups.cup_import(club=club, document=cup_document(folk.refreshed()), by=admin)
    assert picture(copy) == picture(folk.refreshed())
    assert len(cup_document(copy)["drawn"]["later_rounds"]) == 1


def test_a_cup_drawn_by_hand_comes_back_as_drawn():
    folk = a_cup(["Ann", "Bob", "Cy"], draw_method="by_hand")
    cups.cup_draw(cup=folk.cup, by=folk.admin,
                  pairs=[[folk.entrant("Cy"), None], [folk.entrant("Bob"), folk.entrant("Ann")]])
    folk.play(folk.fixture(1, 2), AWAY_WIN)
    club, admin = other_club()
    copy = cups.cup_import(club=club, document=cup_document(folk.refreshed()), by=admin)
    assert cup_document(copy)["drawn"]["first_round"] == [["Cy", None], ["Bob", "Ann"]]
    assert picture(copy) == picture(folk.refreshed())
    assert folk.tie_sides(2, 1) == ("Cy", "Ann")
