"""matches.scoring.services.lifecycle: abandon and resume, rename before play, rematch, delete
kept as its record — each recorded, each refused plainly when it cannot be done."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from matches import rules
from matches.clubs.services import club_create
from matches.history.player_selectors import player_stats
from matches.history.selectors import HistoryFilters, history_queryset
from matches.leagues.selectors import fixture_game_score
from matches.leagues.services import (
    NO_GAMES,
    entrant_add,
    fixture_game_start,
    fixture_submit,
    season_create,
)
from matches.models import (
    Change,
    ChangeKind,
    Club,
    DeletedMatch,
    FixtureGame,
    Match,
    MatchStatus,
    Player,
    Rating,
)
from matches.scoring.selectors.outcome import duration_words, match_end_summary
from matches.scoring.selectors.play import (
    actions_at,
    match_engine,
    match_names,
    match_record,
    match_summary,
)
from matches.scoring.services.lifecycle import (
    NOT_ABANDONED,
    NOT_IN_PROGRESS,
    NOT_OVER,
    RENAME_AFTER_PLAY,
    RENAME_CLUB_PLAYER,
    match_abandon,
    match_delete_recorded,
    match_rematch,
    match_resume,
    seats_rename,
)
from matches.scoring.services.play import (
    MATCH_ABANDONED,
    MatchAbandoned,
    MatchStarted,
    OutOfDate,
    event_record,
    event_undo,
    grant_rename,
    match_create,
    match_import,
    match_restore,
    match_start,
    round_settle,
    round_start,
)
from tests.support.helpers import (
    A,
    T,
    assert_cache_equals_replay,
    night,
    play_short_round,
    site_admin,
    snapshot,
    two_player_all_fives,
    won_at_once,
)

pytestmark = pytest.mark.django_db


def started(names: list[str] | None = None, **options: object) -> MatchStarted:
    """A match as the new-match form starts it: Olena opens round 1, nothing played."""
    return match_start(game="all-fives", players=names or ["Olena", "Taras"],
                                options={"hand_size": 2, **options}, starter=0,
                                phone="Olena's phone")


def current(match: Match) -> rules.Round:
    """The round in play, replayed from the stored events."""
    rnd = match_engine(match).current_round
    assert rnd is not None
    return rnd


@pytest.fixture
def club(django_user_model) -> Club:
    owner = django_user_model.objects.create_user("owner")
    club = club_create(name="Oak", by=owner)
    for name in ("Ann", "Bob"):
        Player.objects.create(club=club, name=name)
    return club


def club_match_in_play(club: Club) -> Match:
    """Ann and Bob, the club's players, one tile into an All Fives match to 10."""
    match = match_create(game="all-fives", players=["Ann", "Bob"],
                                  options={"target": 10, "hand_size": 3})
    players = {p.name: p for p in club.players.all()}
    for seat in match.seats.all():
        seat.player = players[seat.name]
        seat.save(update_fields=["player"])
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("1-2")))
    return match


# -- abandon ---------------------------------------------------------------------------


def test_abandoning_stops_the_match_without_a_winner_and_is_recorded(django_user_model):
    first = started()
    match = first.match
    user = django_user_model.objects.create_user("olena")
    before = timezone.now()

    change = match_abandon(match=match, version=1, key=uuid.uuid4(),
                                    grant=first.grant, user=user)

    match.refresh_from_db()
    assert (match.status, match.winner_side) == (MatchStatus.ABANDONED, None)
    assert match.finished_at is not None and match.finished_at >= before
    assert (change.kind, change.version, match.version) == (ChangeKind.ABANDON, 2, 2)
    assert (change.grant, change.user) == (first.grant, user)
    assert change.description == "stopped at 0 – 0, without a winner"


def test_a_finished_match_cannot_be_abandoned():
    match = won_at_once(["Olena", "Taras"], opener=0, played_at=night(1))
    before = snapshot(match)

    with pytest.raises(ValidationError) as refused:
        match_abandon(match=match)

    assert refused.value.code == "not_in_progress"
    assert refused.value.messages == [NOT_IN_PROGRESS % {"status": "finished"}]
    assert snapshot(match) == before


def test_abandoning_twice_with_one_key_is_one_change():
    match = started().match
    key = uuid.uuid4()

    first = match_abandon(match=match, version=1, key=key)
    again = match_abandon(match=match, version=1, key=key)

    assert again.pk == first.pk and again.replayed
    assert Change.objects.filter(match=match, kind=ChangeKind.ABANDON).count() == 1


def test_abandoning_from_an_older_page_is_refused():
    match = started().match
    event_record(match=match, action=rules.Play(0, T("5-5")))

    with pytest.raises(OutOfDate):
        match_abandon(match=match, version=1, key=uuid.uuid4())

    match.refresh_from_db()
    assert match.status == MatchStatus.IN_PROGRESS


@pytest.mark.parametrize("write", ["tap", "round", "undo", "restore", "abandon", "rename"])
def test_an_abandoned_match_refuses_every_scoring_write(write):
    match = started().match
    event_record(match=match, action=rules.Play(0, T("5-5")))
    match_abandon(match=match)
    before = snapshot(match)
    act = {
        "tap": lambda: event_record(match=match, action=rules.Play(1, T("0-5"),
                                                                            A("5-5:5"))),
        "round": lambda: round_start(match=match, starter=0),
        "undo": lambda: event_undo(match=match),
        "restore": lambda: match_restore(match=match, to_version=1, user=site_admin()),
        "abandon": lambda: match_abandon(match=match),
        "rename": lambda: seats_rename(match=match, names=["Olga", "Taras"]),
    }[write]

    with pytest.raises(MatchAbandoned, match="abandoned"):
        act()

    assert str(MatchAbandoned()) == MATCH_ABANDONED
    assert snapshot(match) == before


def test_resuming_plays_on_from_where_it_stopped():
    first = started()
    match = first.match
    event_record(match=match, action=rules.Play(0, T("5-5")))
    abandon = match_abandon(match=match)

    change = match_resume(match=match, version=abandon.version, key=uuid.uuid4(),
                                   grant=first.grant)

    match.refresh_from_db()
    assert (match.status, match.finished_at) == (MatchStatus.IN_PROGRESS, None)
    assert (change.kind, change.restored_to) == (ChangeKind.RESTORE, abandon.version - 1)
    assert actions_at(match, change.version) == \
        actions_at(match, abandon.version - 1)
    event_record(match=match, action=rules.Play(1, T("0-5"), A("5-5:5")))
    event_undo(match=match)  # undo takes back the play, not the resume
    assert current(match).events == [rules.Play(0, T("5-5"))]
    assert_cache_equals_replay(match)


def test_only_an_abandoned_match_can_be_resumed():
    match = started().match

    with pytest.raises(ValidationError) as refused:
        match_resume(match=match)

    assert refused.value.messages == [NOT_ABANDONED]


def test_restoring_a_version_before_an_abandon_and_a_resume_reads_past_them():
    match = started().match
    event_record(match=match, action=rules.Play(0, T("5-5")))  # version 2
    match_abandon(match=match)  # 3
    match_resume(match=match)  # 4
    event_record(match=match, action=rules.Play(1, T("0-5"), A("5-5:5")))  # 5

    match_restore(match=match, to_version=3, user=site_admin())

    assert current(match).events == [rules.Play(0, T("5-5"))]
    assert_cache_equals_replay(match)


def test_an_abandoned_club_match_is_neither_rated_nor_counted_on_a_players_page(club):
    match = club_match_in_play(club)

    match_abandon(match=match)

    assert not Rating.objects.exists()
    ann = club.players.get(name="Ann")
    stats = player_stats(ann)
    assert stats.games == [] and stats.form == "" and stats.best is None


def test_the_history_shows_abandoned_matches_by_their_status():
    kept = started().match
    match_abandon(match=kept)
    started(["Iryna", "Bohdan"])

    rows = history_queryset(user=None, own=[str(m.public_id) for m in Match.objects.all()],
                            filters=HistoryFilters(status=MatchStatus.ABANDONED))

    assert list(rows) == [kept]


# -- a league game abandoned ----------------------------------------------------------


@pytest.fixture
def league_night(club, django_user_model):
    """A fixture night of Oak v Bowes at All Fives to 10, Ann against Bob in game 1."""
    admin = club.memberships.get().user
    season = season_create(club=club, by=admin, name="Quick",
                                    starts_on=datetime.date(2026, 9, 7), game="all-fives",
                                    options={"hand_size": 3, "target": 10}, divisions=["Only"])
    division = season.divisions.get()
    home = entrant_add(division=division, by=admin, name="Oak",
                                players=[club.players.get(name="Ann")])
    away = entrant_add(division=division, by=admin, name="Bowes",
                                players=[club.players.get(name="Bob")])
    fixture = division.fixtures.create(week=1, home=home, away=away)
    game = fixture_game_start(fixture=fixture, by=admin, number=1,
                                       home_players=list(home.players.all()),
                                       away_players=list(away.players.all()))
    return fixture, admin, game.match


def test_an_abandoned_league_game_is_no_result_and_may_be_played_again(league_night):
    fixture, admin, match = league_night
    turn = current(match).turn
    assert turn is not None
    event_record(match=match, action=rules.Play(turn, T("1-2")))
    match_abandon(match=match)
    game = fixture.games.get(number=1)

    assert fixture_game_score(game) is None
    with pytest.raises(ValidationError) as refused:  # nothing to submit yet
        fixture_submit(fixture=fixture, by=admin)
    assert refused.value.messages == [NO_GAMES]
    again = fixture_game_start(fixture=fixture, by=admin, number=1,
                                        home_players=list(fixture.home.players.all()),
                                        away_players=list(fixture.away.players.all()))

    game.refresh_from_db()
    assert game.match == again.match != match
    assert Match.objects.filter(pk=match.pk, status=MatchStatus.ABANDONED).exists()


def test_a_league_game_in_play_still_cannot_be_started_twice(league_night):
    fixture, admin, _match = league_night

    with pytest.raises(ValidationError, match="already has its score"):
        fixture_game_start(fixture=fixture, by=admin, number=1,
                                    home_players=list(fixture.home.players.all()),
                                    away_players=list(fixture.away.players.all()))


# -- rename ---------------------------------------------------------------------------


def test_names_change_before_the_first_tile_and_the_change_says_which():
    first = started(["Olena", "Tars"])
    match = first.match

    change = seats_rename(match=match, names=["Olena", " Taras  Shevchenko "],
                                   version=1, key=uuid.uuid4(), grant=first.grant)

    assert change is not None
    assert match_names(match) == ["Olena", "Taras Shevchenko"]
    assert (change.kind, change.version, change.description) == (
        ChangeKind.RENAME, 2, "Tars → Taras Shevchenko")
    assert change.action == {"rename": {"from": ["Olena", "Tars"],
                                        "to": ["Olena", "Taras Shevchenko"]}}
    assert match_engine(match).names == ("Olena", "Taras Shevchenko")
    # the log replays past the rename: undo, then restore to the renamed version
    event_undo(match=match)
    match_restore(match=match, to_version=2, user=site_admin())
    assert current(match).starter == 0


def test_two_players_may_swap_names():
    match = started().match

    seats_rename(match=match, names=["taras", "OLENA"])

    assert match_names(match) == ["taras", "OLENA"]


@pytest.mark.parametrize(("names", "field", "code"), [
    (["Olena", "  "], "player_1", "name_needed"),
    (["Olena", "X" * 61], "player_1", "name_too_long"),
    (["Olena", "OLENA"], "player_1", "players_different"),
    (["Olena"], "players", "names_for_seats"),
])
def test_names_are_checked_as_the_new_match_form_checks_them(names, field, code):
    match = started().match
    before = snapshot(match)

    with pytest.raises(ValidationError) as refused:
        seats_rename(match=match, names=names)

    assert [e.code for e in refused.value.error_dict[field]] == [code]
    assert snapshot(match) == before


def test_names_cannot_change_once_a_tile_is_played():
    match = started().match
    event_record(match=match, action=rules.Play(0, T("5-5")))
    before = snapshot(match)

    with pytest.raises(ValidationError) as refused:
        seats_rename(match=match, names=["Olga", "Taras"])

    assert refused.value.error_dict["players"][0].code == "rename_after_play"
    assert refused.value.message_dict == {"players": [RENAME_AFTER_PLAY]}
    assert snapshot(match) == before


def test_nothing_is_logged_when_no_name_changed():
    match = started().match

    assert seats_rename(match=match, names=["Olena", " Taras"]) is None

    match.refresh_from_db()
    assert match.version == 1


def test_a_club_players_seat_keeps_its_name(club):
    match = match_create(game="all-fives", players=["Ann", "Bob"])
    ann = match.seats.get(position=0)
    ann.player = club.players.get(name="Ann")
    ann.save(update_fields=["player"])

    with pytest.raises(ValidationError) as refused:
        seats_rename(match=match, names=["Annie", "Bobby"])

    assert refused.value.message_dict == {
        "player_0": [RENAME_CLUB_PLAYER % {"name": "Ann"}]}
    seats_rename(match=match, names=["Ann", "Bobby"])  # the other seat may change
    assert match_names(match) == ["Ann", "Bobby"]


# -- rematch --------------------------------------------------------------------------


def test_a_rematch_has_the_same_game_names_options_and_club(club):
    match = won_at_once(["Olena", "Taras"], opener=1, played_at=night(1), club=club)

    rematch = match_rematch(match=match, creation_key=uuid.uuid4(), phone="Mine")

    new = rematch.match
    assert rematch.created and new.pk != match.pk
    assert (new.game, new.options, new.club_id, new.season_id) == (
        "all-fives", {"target": 10, "hand_size": 2}, club.pk, None)
    assert match_names(new) == ["Olena", "Taras"]
    assert new.status == MatchStatus.IN_PROGRESS and new.rounds.count() == 1
    assert rematch.grant.is_creator and rematch.grant.label == "Mine"


def test_a_rematch_sent_twice_with_one_key_starts_one_match():
    match = started().match
    match_abandon(match=match)
    key = uuid.uuid4()

    first = match_rematch(match=match, creation_key=key)
    again = match_rematch(match=match, creation_key=key)

    assert (again.match, again.grant, again.created) == (first.match, first.grant, False)
    assert Match.objects.count() == 2


def test_no_rematch_while_the_match_is_played():
    match = started().match

    with pytest.raises(ValidationError) as refused:
        match_rematch(match=match, creation_key=uuid.uuid4())

    assert refused.value.messages == [NOT_OVER]
    assert Match.objects.count() == 1


# -- delete ---------------------------------------------------------------------------


def test_deleting_keeps_the_record_who_and_when_and_the_record_imports_back(
        django_user_model):
    first = started()
    match = first.match
    play_rest = [rules.Play(0, T("5-5")), rules.Play(1, T("0-5"), A("5-5:5"), 10)]
    for action in play_rest:
        event_record(match=match, action=action)
    summary, record = match_summary(match), match_record(match)
    user = django_user_model.objects.create_user("olena")

    deleted = match_delete_recorded(match=match, grant=first.grant, user=user)

    assert not Match.objects.filter(public_id=match.public_id).exists()
    stored = DeletedMatch.objects.get()
    assert stored == deleted
    assert (stored.public_id, stored.game, stored.names) == (
        match.public_id, "all-fives", "Olena, Taras")
    assert (stored.grant_label, stored.user) == ("Olena's phone", user)
    named = started()  # a phone its scorer named is recorded by name and kind
    grant_rename(grant=named.grant, name="Table 3")
    assert match_delete_recorded(match=named.match, grant=named.grant) \
        .grant_label == "Table 3 (Olena's phone)"
    assert stored.record == record
    assert timezone.now() - stored.deleted_at < datetime.timedelta(minutes=1)
    back = match_import(document=stored.record)
    assert match_summary(back) == summary


def test_deleting_a_rated_match_rebuilds_the_ratings_without_it(club):
    kept = won_at_once(["Ann", "Bob"], opener=0, played_at=night(1), players_of=club)
    gone = won_at_once(["Bob", "Ann"], opener=0, played_at=night(2), players_of=club)
    assert Rating.objects.get(player__name="Ann").matches == 2

    match_delete_recorded(match=gone, user=site_admin())

    assert Rating.objects.get(player__name="Ann").matches == 1
    assert DeletedMatch.objects.get().names == "Bob, Ann"
    assert Match.objects.get() == kept


def test_deleting_a_league_game_frees_its_place_on_the_fixture(league_night):
    fixture, _admin, match = league_night

    match_delete_recorded(match=match, user=site_admin())

    assert FixtureGame.objects.get(fixture=fixture, number=1).match is None


# -- the end of a match ---------------------------------------------------------------


def test_the_end_summary_of_a_won_match():
    match = two_player_all_fives(target=15)
    play_short_round(match)  # 10 – 10
    round_settle(match=match, pips=[0, 3])  # Taras's 1-2: 5 to Olena, 15: won
    match.refresh_from_db()
    assert match.finished_at is not None
    Match.objects.filter(pk=match.pk).update(
        started_at=match.finished_at - datetime.timedelta(minutes=42, seconds=30))
    match.refresh_from_db()

    end = match_end_summary(match)

    assert end is not None and not end.abandoned
    assert end.winner == "Olena"
    assert [(s.names, s.winner) for s in end.sides] == [("Olena", True), ("Taras", False)]
    assert [s.score for s in end.sides] == [
        rules.show_points(score) for score in match_engine(match).scores]
    assert (end.rounds, end.played, end.unit) == (1, "42 min", "raw points")
    assert end.public_url == match.get_absolute_url()


def test_the_end_summary_of_an_abandoned_match_names_no_winner():
    match = started().match
    event_record(match=match, action=rules.Play(0, T("5-5")))
    assert match_end_summary(match) is None  # played: no end yet
    match_abandon(match=match)
    match.refresh_from_db()

    end = match_end_summary(match)

    assert end is not None and end.abandoned and end.winner is None
    assert [(s.score, s.winner) for s in end.sides] == [("10", False), ("0", False)]
    assert end.played == "under a minute"


@pytest.mark.parametrize(("minutes", "words"), [
    (0, "under a minute"), (1, "1 min"), (59, "59 min"), (60, "1 h"), (65, "1 h 5 min"),
    (24 * 60, "1 day"), (2 * 24 * 60 + 180, "2 days 3 h"),
])
def test_time_played_in_words(minutes, words):
    assert duration_words(datetime.timedelta(minutes=minutes, seconds=20)) == words


# -- backups keep all this ----------------------------------------------------------


def test_a_backup_keeps_an_abandoned_renamed_resumed_match(tmp_path):
    from tests.records.test_backup import empty_database, export, import_all
    from tests.records.test_backup import snapshot as site

    renamed = started(["Olena", "Tars"]).match
    seats_rename(match=renamed, names=["Olena", "Taras"])
    event_record(match=renamed, action=rules.Play(0, T("5-5")))
    match_abandon(match=renamed)
    match_resume(match=renamed)
    match_abandon(match=started(["Iryna", "Bohdan"]).match)
    path = tmp_path / "site.jsonl"
    export(path)
    before = site()

    empty_database()
    import_all(path)

    assert site() == before
    assert sorted(Match.objects.values_list("status", flat=True)) == [
        MatchStatus.ABANDONED, MatchStatus.IN_PROGRESS]
