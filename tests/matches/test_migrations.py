"""Migrations on stored data. 0003: seats keep their names, and each match's history
starts with one change holding its actions, so replays, undo and restore work on old
matches. 0009: changes logged before it are read in each reader's language. 0011: a
season's tie-breakers are written out. 0013: phones named in
another language get their English name back. 0017: a season's night fits the games
that can be stored. 0018: a season whose paper games were kept without players keeps
them optional. 0028: a club or season called "new" can be opened."""

from __future__ import annotations

import datetime
import importlib
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from matches import rules
from matches.clubs.services import club_create
from matches.leagues.services import entrant_add, fixtures_generate, season_create
from matches.models import Club, Fixture, FixtureChange, Match, Season
from matches.scoring import presenters
from matches.scoring.changelog import action_doc
from matches.scoring.selectors.play import actions_at, match_engine, match_names
from matches.scoring.services.lifecycle import match_abandon, match_resume
from matches.scoring.services.play import event_record, event_undo, match_restore, round_start
from tests.support.helpers import T, assert_cache_equals_replay, site_admin, two_player_all_fives

BEFORE = [("matches", "0002_seat_player_and_draw_count")]
AFTER = [("matches", "0003_change_log_grants_seat_names")]


@pytest.fixture
def back_to_latest():
    """Whatever the test does, the database ends at the latest migration again."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_0003_names_the_seats_and_seeds_the_change_log(back_to_latest):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    OldMatch, Side, Player, Seat = (old.get_model("matches", name)
                                    for name in ("Match", "Side", "Player", "Seat"))
    Round, Event = old.get_model("matches", "Round"), old.get_model("matches", "Event")
    match = OldMatch.objects.create(game="all-fives", options={"hand_size": 2},
                                    player_count=2, target=250)
    sides = [Side.objects.create(match=match, index=i) for i in range(2)]
    for position, name in enumerate(["Olena", "Taras"]):
        Seat.objects.create(match=match, position=position, side=sides[position],
                            player=Player.objects.create(name=name))
    round_ = Round.objects.create(match=match, number=1, mode="tracked", starter=0,
                                  end="domino", finisher=0, settled=True, pips=[0, 3])
    for number, (seat, tile, at, claim) in enumerate(
            [(0, "5-5", "", None), (1, "0-5", "5-5:5", Decimal(10)), (0, "5-6", "5-5:5", None)],
            start=1):
        Event.objects.create(match=match, round=round_, number=number, seat=seat, kind="play",
                             tile=tile, at=at, claim=claim)
    empty = OldMatch.objects.create(game="five-up", player_count=2, target=61)

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    at_0003 = executor.loader.project_state(AFTER).apps
    seeded_change = at_0003.get_model("matches", "Change").objects.get(match=match.pk)
    assert (seeded_change.kind, seeded_change.version) == ("import", 1)
    # the rest of the app speaks the latest schema: finish migrating before using it
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    stored = Match.objects.get(pk=match.pk)
    assert match_names(stored) == ["Olena", "Taras"]
    assert stored.version == 1 and Match.objects.get(pk=empty.pk).version == 0
    seeded = stored.changes.get()
    assert (seeded.kind, seeded.version) == ("import", 1)
    assert all(event.change == seeded for event in stored.events.all())
    engine = match_engine(stored)
    assert actions_at(stored, 1) == [action_doc(a) for a in engine.log]
    assert [type(a) for a in engine.log] == [rules.StartRound, rules.Play, rules.Play,
                                             rules.Play, rules.Settle]
    # the old match goes on as any other: undo, then restore what the undo took back
    event_undo(match=stored)
    match_restore(match=stored, to_version=1, user=site_admin())
    assert_cache_equals_replay(stored)
    assert rules.summary(match_engine(stored))["scores"] == [15, 10]


@pytest.mark.django_db
def test_0009_gives_the_changes_logged_before_it_what_each_reader_needs(django_user_model):
    """Changes written in any of the site's languages before 0009 are read in the
    reader's: a fixture's log gets its kind, an abandon its scores, a restore whether
    it was a resume. Words in no language it knows stay as they were written."""
    from django.apps import apps

    kinds_from_words = importlib.import_module(
        "matches.migrations.0009_fixture_change_kind").kinds_from_words
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))
    match_restore(match=match, to_version=1, user=site_admin())
    event_record(match=match, action=rules.Play(0, T("5-5")))
    match_abandon(match=match)
    match_resume(match=match)
    match_restore(match=match, to_version=2, user=site_admin())
    written = {3: "матч у стані версії 1", 5: "зупинено на 10 – 0, без переможця",
               6: "продолжен: матч в том состоянии, в котором его прервали",
               7: "back to how it was"}  # an older wording: no language knows it
    for version, written_words in written.items():
        change = match.changes.get(version=version)
        change.description = written_words
        change.action = {key: value for key, value in change.action.items()
                         if key not in ("scores", "resumed")}
        change.save()

    olena = django_user_model.objects.create_user("olena", password="a-long-password-1")
    season = season_create(club=club_create(name="Oak", by=olena),
                                    by=olena, name="Autumn", game="all-fives",
                                    starts_on=datetime.date(2026, 9, 7))
    for name in ("Oak", "Willow"):
        entrant_add(division=season.divisions.get(), by=olena, name=name)
    fixtures_generate(division=season.divisions.get(), by=olena)
    fixture = Fixture.objects.first()
    assert fixture is not None
    for what in ("перенесено", "решено лигой", "made void", "put off"):
        FixtureChange.objects.create(fixture=fixture, user=olena, what=what)

    kinds_from_words(apps, None)

    actions = dict(match.changes.filter(version__in=written).values_list("version", "action"))
    assert actions[3]["resumed"] is False and actions[6]["resumed"] is True
    assert actions[5] == {"abandon": True, "scores": "10 – 0"}
    assert "resumed" not in actions[7]
    assert list(FixtureChange.objects.values_list("kind", flat=True)) == [
        "postponed", "resolved", "voided", ""]
    words = [presenters.change_words(match.changes.get(version=v), ["Ірина", "Тарас"])
             for v in sorted(written)]
    assert words == ["the match as it stood at version 1",
                     "stopped at 10 – 0, without a winner",
                     "resumed: the match as it stood before it was abandoned",
                     "back to how it was"]


@pytest.mark.django_db
def test_0011_writes_out_the_default_order_where_a_season_left_it_to_the_format(
        django_user_model):
    from django.apps import apps

    written_out = importlib.import_module(
        "matches.migrations.0011_season_tiebreaks_written_out").written_out
    olena = django_user_model.objects.create_user("olena")
    club = club_create(name="Oak", by=olena)
    for name, tiebreaks in (("Left to the format", []), ("Chosen", ["wins"])):
        season = season_create(club=club, by=olena, name=name, game="all-fives",
                                        starts_on=datetime.date(2026, 9, 7))
        Season.objects.filter(pk=season.pk).update(tiebreaks=tiebreaks)  # as stored before

    written_out(apps, None)

    assert dict(Season.objects.values_list("name", "tiebreaks")) == {
        "Left to the format": ["game_difference", "games_for"], "Chosen": ["wins"]}


@pytest.mark.django_db
def test_0013_gives_phones_named_in_another_language_their_english_name_back():
    from django.apps import apps

    from matches.models import ScorerGrant

    to_english = importlib.import_module(
        "matches.migrations.0013_phone_labels_in_english").to_english
    match = two_player_all_fives()
    for label in ("Android-телефон", "Компьютер с Windows", "Браузер", "Olena's phone"):
        ScorerGrant.objects.create(match=match, label=label)

    to_english(apps, None)

    assert sorted(match.grants.values_list("label", flat=True)) == [
        "A browser", "Android phone", "Olena's phone", "Windows computer"]


@pytest.mark.django_db(transaction=True)
def test_0017_cuts_a_night_too_long_to_store_to_the_longest_that_can_be(back_to_latest):
    before, after = [("matches", "0016_constraints_the_database_can_hold")], \
        [("matches", "0017_seasons_nights_fit")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    OldClub, OldSeason = old.get_model("matches", "Club"), old.get_model("matches", "Season")
    club = OldClub.objects.create(name="Oak", slug="oak")
    for name, night in (("Long night", {"fixture_format": "games", "singles": 30,
                                        "pairs": 40}),
                        ("Long race", {"fixture_format": "race", "race_to": 40}),
                        ("Fits", {"fixture_format": "games", "singles": 6, "pairs": 3})):
        OldSeason.objects.create(club=club, name=name, slug=name.lower().replace(" ", "-"),
                                 game="all-fives", starts_on=datetime.date(2026, 9, 7),
                                 **night)

    executor = MigrationExecutor(connection)
    executor.migrate(after)

    assert sorted(Season.objects.values_list("name", "singles", "pairs", "race_to")) == [
        ("Fits", 6, 3, None), ("Long night", 30, 10, None), ("Long race", 0, 0, 20)]


@pytest.mark.django_db(transaction=True)
def test_0021_keeps_players_optional_where_paper_games_were_kept_without_them(
        back_to_latest):
    before, after = [("matches", "0020_notices")], \
        [("matches", "0021_paper_game_players")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    OldClub, OldSeason, OldPlayer = (old.get_model("matches", name)
                                     for name in ("Club", "Season", "Player"))
    club = OldClub.objects.create(name="Oak", slug="oak")
    ann, cat = (OldPlayer.objects.create(club=club, name=name) for name in ("Ann", "Cat"))
    for name in ("Scores only", "With players", "Not begun"):
        season = OldSeason.objects.create(club=club, name=name, slug=name.lower()[:4],
                                          game="all-fives",
                                          starts_on=datetime.date(2026, 9, 7))
        division = season.divisions.create(name="Only")
        home, away = (division.entrants.create(name=n) for n in ("Home", "Away"))
        fixture = division.fixtures.create(week=1, home=home, away=away)
        if name != "Not begun":
            game = fixture.games.create(number=1, home_score=250, away_score=40)
            if name == "With players":
                game.home_players.add(ann)
                game.away_players.add(cat)

    executor = MigrationExecutor(connection)
    executor.migrate(after)

    assert sorted(Season.objects.values_list("name", "paper_players_optional")) == [
        ("Not begun", False), ("Scores only", True), ("With players", False)]


@pytest.mark.django_db(transaction=True)
def test_0022_reads_the_kept_files_into_the_database_and_keeps_one_row_a_line(
        back_to_latest, settings):
    from django.core.files.base import ContentFile

    from matches.models import RecordImport, RecordImportFile, StopReason

    before, after = [("matches", "0021_paper_game_players")], \
        [("matches", "0022_record_imports_kept_in_the_database")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    OldImport, OldFile, OldLine = (old.get_model("matches", name) for name in (
        "RecordImport", "RecordImportFile", "RecordImportLine"))
    user = old.get_model("auth", "User").objects.create(username="importer")

    def an_import(status: str, **fields):
        return OldImport.objects.create(created_by=user, max_records=3, status=status,
                                        **fields)

    content = b"".join(b'{"line": %d}\n' % n for n in range(300_000))  # over 3 MB
    stopped = an_import("failed", error=f"FileNotFoundError: {settings.MEDIA_ROOT}/x")
    kept = OldFile(record_import=stopped, position=0, name="night.jsonl")
    kept.content.save("night.jsonl", ContentFile(content), save=True)
    on_disk = settings.MEDIA_ROOT / kept.content.name
    assert on_disk.exists()
    lost = an_import("running")
    OldFile.objects.create(record_import=lost, position=0, name="gone.jsonl",
                           content="record-imports/gone.jsonl")  # on another server
    read = an_import("done")
    OldFile.objects.create(record_import=read, position=0, name="read.jsonl", content="")
    doubled = an_import("done", lines_read=6, stored=1, refused=2, duplicates=3)
    for number, outcome in [(1, "duplicate"), (1, "stored"), (2, "refused"), (2, "refused"),
                            (3, "duplicate"), (3, "duplicate")]:
        OldLine.objects.create(record_import=doubled, number=number, source=f"a:{number}",
                               outcome=outcome)

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    moved = RecordImportFile.objects.get(pk=kept.pk)
    pieces = [bytes(piece.data) for piece in moved.chunks.order_by("number")]
    assert moved.size == len(content) and b"".join(pieces) == content
    assert [len(piece) for piece in pieces[:-1]] == [1024 * 1024] * (len(pieces) - 1)
    assert not on_disk.exists()  # read into the database: nothing left on the disk
    assert RecordImport.objects.get(pk=stopped.pk).stop_reason == StopReason.FAILED
    gone = RecordImport.objects.get(pk=lost.pk)
    assert (gone.status, gone.stop_reason) == ("failed", StopReason.FILE_LOST)
    assert gone.finished_at is not None
    assert (RecordImport.objects.get(pk=read.pk).status,
            RecordImportFile.objects.get(record_import=read.pk).size) == ("done", 0)
    counted = RecordImport.objects.get(pk=doubled.pk)
    assert list(counted.lines.values_list("number", "outcome")) == [
        (1, "stored"), (2, "refused"), (3, "duplicate")]
    assert (counted.lines_read, counted.stored, counted.refused, counted.duplicates) == \
        (3, 1, 1, 1)


@pytest.mark.django_db(transaction=True)
def test_0022_undone_puts_a_kept_upload_back_on_the_disk(back_to_latest, settings,
                                                          django_user_model):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from matches.records.services import record_import_start

    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
    record_import_start(files=[SimpleUploadedFile("a.jsonl", b'{"a": 1}\n')],
                        created_by=django_user_model.objects.create_user("importer"))
    before = [("matches", "0021_paper_game_players")]

    executor = MigrationExecutor(connection)
    executor.migrate(before)

    old = executor.loader.project_state(before).apps
    kept = old.get_model("matches", "RecordImportFile").objects.get()
    with kept.content.open("rb") as data:
        assert data.read() == b'{"a": 1}\n'


@pytest.mark.django_db(transaction=True)
def test_0028_gives_a_club_and_a_season_called_new_an_address_they_can_be_opened_at(
        back_to_latest):
    before, after = [("matches", "0027_notice_settings_email_language")], \
        [("matches", "0028_slugs_not_a_page")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    OldClub, OldSeason = old.get_model("matches", "Club"), old.get_model("matches", "Season")
    new, oak = (OldClub.objects.create(name=name, slug=slug)
                for name, slug in (("New", "new"), ("Oak", "oak")))
    OldClub.objects.create(name="New again", slug="new-2")
    for club in (new, oak):
        OldSeason.objects.create(club=club, name="New", slug="new", game="all-fives",
                                 starts_on=datetime.date(2026, 9, 7))

    executor = MigrationExecutor(connection)
    executor.migrate(after)

    assert sorted(Club.objects.values_list("name", "slug")) == [
        ("New", "new-3"), ("New again", "new-2"), ("Oak", "oak")]
    assert sorted(Season.objects.values_list("club__slug", "slug")) == [
        ("new-3", "new-2"), ("oak", "new-2")]
