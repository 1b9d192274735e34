"""``export_all`` / ``import_all`` (scorekeeper-backup/2, and /1) and ``export_matches``."""

from __future__ import annotations

import datetime
import io
import json
import re
import uuid
from collections.abc import Callable, Mapping
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from matches import rules
from matches.accounts.services import (
    league_emails_on,
    league_emails_set,
    notice_settings_of,
)
from matches.clubs.services import club_create, club_invites_withdraw, player_add
from matches.cups import services as cups
from matches.cups.models import Cup
from matches.cups.selectors import cup_shown
from matches.leagues.notices import scheduled_notices_send
from matches.leagues.selectors import CaptainsLink, division_table, season_divisions
from matches.leagues.services import (
    captain_link_open,
    captain_link_replace,
    entrant_add,
    fixture_confirm,
    fixture_correct,
    fixture_redate,
    fixtures_csv_import,
    fixtures_generate,
    season_create,
)
from matches.management.commands import import_all as import_all_command
from matches.models import (
    Adjustment,
    Change,
    Club,
    DeletedMatch,
    Division,
    Entrant,
    Fixture,
    FixtureChange,
    FixtureCorrection,
    FixtureGame,
    FixtureNotice,
    FixtureStatus,
    Match,
    Membership,
    Player,
    Rating,
    RatingStep,
    ScorerGrant,
    Season,
)
from matches.records import backup
from matches.records import services as records_services
from matches.records.backup import FORMAT
from matches.rules import league as league_rules
from matches.scoring.changelog import action_doc
from matches.scoring.selectors.play import actions_at, match_actions, match_record, match_summary
from matches.scoring.services.lifecycle import match_delete_recorded
from matches.scoring.services.play import (
    event_record,
    event_undo,
    grant_create,
    match_create,
    match_import,
    match_restore,
    round_settle,
    round_start,
)
from tests.support.cups import AWAY_WIN, HOME_WIN, STARTS, Cupfolk, a_cup
from tests.support.helpers import league_night_at, site_admin

T = rules.Tile.parse
DEMO_CLUB = "teesdale-dominoes-club"
DEMO = Path(__file__).resolve().parents[2] / "matches/demo/01-all-fives-2-players.json"


def rated_match(club: Club, names: list[str], *, winner: int, when: int,
                key: uuid.UUID | None = None) -> Match:
    """A finished All Fives match between club players (as in test_ratings): the
    winner opens 5-5 for 10, the target, ``when`` hours into the season."""
    players = {p.name: p for p in club.players.all()}
    match = match_create(game="all-fives", players=names,
                                  options={"target": 10, "hand_size": 2})
    for seat in match.seats.all():
        seat.player = players[seat.name]
        seat.save(update_fields=["player"])
    round_start(match=match, starter=winner, key=key)
    event_record(match=match, action=rules.Play(winner, T("5-5")))
    played = timezone.make_aware(datetime.datetime(2026, 9, 7)) + datetime.timedelta(hours=when)
    Match.objects.filter(pk=match.pk).update(started_at=played, finished_at=played)
    match.refresh_from_db()
    assert match.status == "finished"
    return match


def add_rated_matches(club: Club) -> None:
    """Rated matches of the club's players, one with an undo and a restore in its
    history, made by a phone's grant and a tap key."""
    rated_match(club, ["Ann Dale", "Dev Patel"], winner=0, when=1, key=uuid.uuid4())
    rated_match(club, ["Bob Hart", "Edna Moss", "Gwen Rowe", "Jack Pyle"], winner=1, when=2)
    undone = rated_match(club, ["Cath Lund", "Ann Dale"], winner=1, when=3)
    grant = grant_create(match=undone, phone="iPhone", name="Cath's phone")
    # the phone that started it, which may restore (the match was made without a phone)
    ScorerGrant.objects.filter(pk=grant.pk).update(is_creator=True)
    grant.refresh_from_db()
    event_undo(match=undone, grant=grant)  # in play again…
    match_restore(match=undone, to_version=2, grant=grant)  # …and won again
    rated_match(club, ["Dev Patel", "Gwen Rowe"], winner=1, when=4)


def load_demo() -> dict[str, str]:
    """The demo, and its accounts' passwords (it prints them)."""
    out = StringIO()
    call_command("load_demo", stdout=out)
    line = next(line for line in out.getvalue().splitlines() if "demo accounts" in line)
    return dict(re.findall(r"(\S+) / (\S+?)(?:,|$)", line.split(":", 1)[1]))


def export(path: Path) -> list[str]:
    call_command("export_all", str(path), stderr=StringIO())
    return path.read_text("utf-8").splitlines()


def import_all(path: Path) -> str:
    out = StringIO()
    call_command("import_all", str(path), stdout=out)
    return out.getvalue()


def when(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def snapshot() -> dict[str, Any]:
    """Everything a restore must bring back, by natural keys (never by row ids)."""
    matches = {}
    for match in Match.objects.order_by("pk"):
        game = FixtureGame.objects.filter(match=match).first()
        matches[str(match.public_id)] = {
            "summary": match_summary(match),
            "record": match_record(match),
            "status": (match.status, match.winner_side),
            "version": match.version,
            "token": match.scorer_token,
            "record hash": match.record_hash,
            "times": (when(match.started_at), when(match.finished_at)),
            "created_by": match.created_by.username if match.created_by else None,
            "scores": [str(side.score) for side in match.sides.order_by("index")],
            "seats": [(seat.name, seat.player.name if seat.player else None)
                      for seat in match.seats.order_by("position")],
            "changes": [(c.version, c.kind, c.action, c.description, c.restored_to,
                         when(c.made_at), c.key, c.user.username if c.user else None,
                         c.grant.label if c.grant else None)
                        for c in match.changes.order_by("version")],
            "actions at each version": [actions_at(match, version)
                                        for version in range(match.version + 1)],
            "fixture game": (str(game.fixture), game.number) if game else None,
            # a league game's club and season, where the model has them (kept ids)
            "links": [getattr(match, f"{name}_id", None) for name in ("club", "season")],
        }
    tables = {}
    for season in Season.objects.all():
        for division in season_divisions(season):
            tables[f"{season.club.slug}/{season.slug}/{division.name}"] = \
                league_rules.table_json(division_table(division, season))
    return {
        "matches": matches,
        "tables": tables,
        "ratings": sorted((r.club.slug, r.game, r.player.name, r.mu, r.sigma, r.ordinal,
                           r.matches) for r in Rating.objects.all()),
        "rating steps": sorted((s.rating.player.name, s.rating.game,
                                str(s.match.public_id) if s.match else f"game {s.fixture_game_id}",
                                s.number, s.ordinal) for s in RatingStep.objects.all()),
        "users": sorted((u.username, u.email, u.password, u.is_staff, u.is_superuser,
                         league_emails_on(user=u), notice_settings_of(user=u).email_language)
                        for u in User.objects.all()),
        "clubs": sorted((c.slug, c.name, c.visibility, when(c.created_at)) for c in
                        Club.objects.all()),
        "members": sorted((m.club.slug, m.user.username, m.role) for m in
                          Membership.objects.all()),
        "players": sorted((p.club.slug if p.club else None, p.name,
                           p.user.username if p.user else None) for p in Player.objects.all()),
        "entrants": sorted((e.name, e.kind, e.captain.username if e.captain else None,
                            sorted(p.name for p in e.players.all()), e.link_generation,
                            e.link_phone_key, e.link_phone, when(e.link_opened_at))
                           for e in Entrant.objects.all()),
        "fixtures": [(f.pk, f.week, str(f.date), str(f), f.status, f.home_games, f.away_games,
                      f.walkover, f.dispute, when(f.submitted_at),
                      [(g.number, g.home_score, g.away_score, g.score_corrected,
                        sorted(p.name for p in g.home_players.all()),
                        sorted(p.name for p in g.away_players.all()),
                        str(g.match.public_id) if g.match else None) for g in f.games.all()])
                     for f in Fixture.objects.order_by("pk")],
        "fixture changes": [(str(c.fixture), c.kind, c.what, c.before, c.after, when(c.at),
                             c.user.username if c.user else None,
                             c.by_link.name if c.by_link else None)
                            for c in FixtureChange.objects.order_by("pk")],
        "fixture corrections": [(str(c.fixture), c.reason, c.before, c.after,
                                 c.confirmed_again, when(c.at),
                                 c.user.username if c.user else None)
                                for c in FixtureCorrection.objects.order_by("pk")],
        "fixture notices": sorted((n.fixture.pk, n.kind, when(n.sent_at))
                                  for n in FixtureNotice.objects.all()),
        "seasons": sorted((s.slug, s.kind, s.corrections_confirmed_again, s.decider)
                          for s in Season.objects.all()),
        "cups": cups_snapshot(),
        "adjustments": sorted((a.entrant.name, a.points, a.reason, when(a.made_at))
                              for a in Adjustment.objects.all()),
        "grants": sorted((g.label, g.name, g.is_creator, when(g.created_at), when(g.revoked_at))
                         for g in ScorerGrant.objects.all()),
        "deleted matches": [(str(d.public_id), d.game, d.names,
                             json.dumps(d.record, sort_keys=True), when(d.deleted_at),
                             d.grant_label, d.user.username if d.user else None)
                            for d in DeletedMatch.objects.order_by("deleted_at", "public_id")],
    }


def cups_snapshot() -> dict[str, Any]:
    """Each cup (by its club and season), its rows and its bracket as its page shows it,
    entrants by name (the draw's JSON names them by id, which a restore keeps)."""
    def name(entrant: Entrant | None) -> str | None:
        return entrant.name if entrant is not None else None

    found = {}
    for cup in Cup.objects.select_related("season__club"):
        names = {entrant.pk: entrant.name for entrant in
                 Entrant.objects.filter(division__season=cup.season)}
        shown = cup_shown(cup)
        found[f"{cup.season.club.slug}/{cup.season.slug}"] = {
            "cup": (cup.season.kind, cup.draw_method, cup.draw_timing, cup.plate,
                    cup.level_tie, cup.walkover_winner, cup.walkover_loser, cup.draw_seed,
                    [names[pk] for pk in cup.seeds], str(cup.finals_on), cup.finals_venue),
            "drawn": (json.dumps(cup.drawn, sort_keys=True),
                      json.dumps(cup.plate_drawn, sort_keys=True)),
            "rounds": [(r.plate, r.number, str(r.date)) for r in cup.rounds.all()],
            "ties": [(t.plate, t.round, t.position, str(t.fixture) if t.fixture else None,
                      t.fixture.status if t.fixture else None, t.result)
                     for t in cup.ties.select_related("fixture")],
            "log": [(entry.kind, entry.details, when(entry.at),
                     entry.user.username if entry.user else None)
                    for entry in cup.log.select_related("user")],
            "bracket": [(r.number, r.plate, r.name, str(r.date),
                         [(str(t.key), name(t.home), name(t.away), t.bye, name(t.winner),
                           t.score, str(t.fixture) if t.fixture else None, t.walkover)
                          for t in r.ties])
                        for r in [*shown.rounds, *shown.plate_rounds]],
            "shown": (name(shown.winner), name(shown.plate_winner), shown.drawn,
                      shown.next_round_drawable, shown.plate_drawable,
                      shown.plate_round_drawable, [e.name for e in shown.seeds],
                      [(entry.kind, entry.details) for entry in shown.log]),
        }
    return found


@pytest.mark.django_db(transaction=True)
def test_export_then_import_into_a_flushed_database_restores_everything(tmp_path, monkeypatch):
    passwords = load_demo()
    add_rated_matches(Club.objects.get(slug=DEMO_CLUB))
    before = snapshot()
    assert len(before["matches"]) == 10 and before["ratings"] and before["tables"]
    assert any(kind == "restore" for m in before["matches"].values()
               for _, kind, *_ in m["changes"])
    path = tmp_path / "site.jsonl"
    lines = export(path)
    assert json.loads(lines[0])["format"] == FORMAT
    assert json.loads(lines[-1]) == {"type": "end", "counts": {
        "users": 5, "clubs": 1, "players": 12, "seasons": 1, "matches": 10,
        "deleted_matches": 0}}

    call_command("flush", interactive=False)
    assert not Match.objects.exists() and not User.objects.exists()
    refreshed = []
    monkeypatch.setattr(import_all_command, "statistics_refresh",
                        lambda: refreshed.append(Match.objects.count()))
    out = import_all(path)

    assert "users: 5, clubs: 1, players: 12, seasons: 1, matches: 10, deleted_matches: 0" \
        in out
    assert refreshed == [10]  # the planner told of the tables filled, once they were
    after = snapshot()
    for part in before:
        assert after[part] == before[part], part
    for username, password in passwords.items():  # accounts still sign in
        assert User.objects.get(username=username).check_password(password)
    # the restored match in progress goes on from where it stood
    playing = Match.objects.get(status="in-progress")
    version = playing.version
    event_undo(match=playing)
    playing.refresh_from_db()
    assert playing.version == version + 1
    # and new rows take new ids (the id sequences moved past the restored ones)
    player_add(club=Club.objects.get(), name="Newcomer",
                        by=User.objects.get(username="secretary"))


@pytest.fixture
def small_site(django_user_model) -> Club:
    """A club with players, two rated matches and a casual imported match."""
    owner = django_user_model.objects.create_user("owner", password="pw-owner-1")
    club = club_create(name="Oak", by=owner)
    for name in ("Ann Dale", "Dev Patel", "Cath Lund"):
        Player.objects.create(club=club, name=name)
    rated_match(club, ["Ann Dale", "Dev Patel"], winner=0, when=1)
    rated_match(club, ["Cath Lund", "Ann Dale"], winner=1, when=2)
    match_import(document=json.loads(DEMO.read_text("utf-8")))
    return club


def empty_database() -> None:
    Cup.objects.all().delete()  # a tie's fixture is kept while its tie is (RESTRICT)
    Match.objects.all().delete()
    DeletedMatch.objects.all().delete()
    Fixture.objects.all().delete()
    Club.objects.all().delete()
    Player.objects.all().delete()
    User.objects.all().delete()


def restored(path: Path) -> dict[str, Any]:
    """Back the site up to ``path``, empty the database and restore it from there; the
    snapshot taken before, for the test to compare with what came back."""
    export(path)
    snap = snapshot()
    empty_database()
    import_all(path)
    return snap


def restored_as_older(path: Path, older: Callable[[list[Any]], list[Any]]) -> str:
    """Rewrite the backup at ``path`` as an older writer made it (``older`` takes its lines,
    read, and gives the older writer's), empty the database and restore it from that; the
    older backup's text."""
    text = "\n".join(json.dumps(line) for line in older(
        [json.loads(line) for line in path.read_text().splitlines()]))
    written = path.with_name("older.jsonl")
    written.write_text(text)
    empty_database()
    import_all(written)
    return text


def without(doc: Any, dropped: Callable[[str, dict[str, Any]], bool]) -> Any:
    """``doc`` with every key of every object in it that ``dropped(key, object)`` names
    taken out, however deep."""
    if isinstance(doc, list):
        return [without(item, dropped) for item in doc]
    if isinstance(doc, dict):
        return {key: without(value, dropped) for key, value in doc.items()
                if not dropped(key, doc)}
    return doc


def stored() -> tuple[int, ...]:
    return (User.objects.count(), Club.objects.count(), Player.objects.count(),
            Match.objects.count(), Change.objects.count(), Rating.objects.count())


@pytest.mark.django_db
def test_import_into_a_non_empty_database_is_refused_and_changes_nothing(small_site, tmp_path):
    path = tmp_path / "site.jsonl"
    export(path)
    before, snap = stored(), snapshot()
    with pytest.raises(CommandError, match=r"not empty \(users: 1, clubs: 1, players: 3, "
                                           r"matches: 3\).*Nothing was changed"):
        import_all(path)
    assert stored() == before and snapshot() == snap


@pytest.mark.django_db
def test_a_small_site_round_trips_through_delete_and_import(small_site, tmp_path):
    snap = restored(tmp_path / "site.jsonl")
    assert snapshot() == snap


SMALL_SITE_COUNTS = "users: 1, clubs: 1, players: 3, seasons: 0, matches: 3, deleted_matches: 0"


@pytest.mark.django_db
def test_import_all_says_how_far_it_got_at_most_every_few_seconds(small_site, tmp_path,
                                                                   monkeypatch):
    from matches.management.commands.import_all import Command

    path = tmp_path / "site.jsonl"
    export(path)
    empty_database()
    monkeypatch.setattr(Command, "progress_every", 3600.0)  # no line between first and last

    out = import_all(path)

    assert out.splitlines() == [
        "Read 8 lines to restore.",
        f"Restoring: 8 of 8 lines (100%), {SMALL_SITE_COUNTS}.",
        "Checking the counts and rebuilding the ratings.",
        f"Restored {path}: {SMALL_SITE_COUNTS}.",
    ]


@pytest.mark.django_db
def test_import_all_progress_counts_each_kind_as_it_goes(small_site, tmp_path, monkeypatch):
    from matches.management.commands.import_all import Command

    path = tmp_path / "site.jsonl"
    export(path)
    empty_database()
    monkeypatch.setattr(Command, "progress_every", 0.0)  # a line after every line

    lines = import_all(path).splitlines()

    assert lines[1] == ("Restoring: 1 of 8 lines (12%), users: 1, clubs: 0, players: 0, "
                        "seasons: 0, matches: 0, deleted_matches: 0.")
    assert lines[6] == ("Restoring: 6 of 8 lines (75%), users: 1, clubs: 1, players: 3, "
                        "seasons: 0, matches: 1, deleted_matches: 0.")
    assert len(lines) == 1 + 8 + 2


@pytest.mark.django_db
def test_a_backup_file_is_restored_as_it_is_read_not_read_whole_first(small_site, tmp_path,
                                                                      monkeypatch):
    """Its lines are counted in a first pass (for the progress), then each is parsed
    and restored as it comes: a big site's backup is never held in memory whole."""
    path = tmp_path / "site.jsonl"
    total = len(export(path))
    empty_database()
    monkeypatch.setattr(backup, "MATCHES_PER_BATCH", 1)
    read: list[str] = []
    seen: list[int] = []  # lines read when each match was reported restored

    class Reading(io.StringIO):
        def __next__(self) -> str:  # type: ignore[override]  # (typeshed: _IOBase's bytes)
            read.append(line := super().__next__())
            return line

    def told(done: int, of: int, counts: Mapping[str, int]) -> None:
        if counts["matches"] > len(seen):
            seen.append(len(read))

    counts = backup.backup_import(source=Reading(path.read_text("utf-8")), progress=told)

    assert counts["matches"] == len(seen) == 3
    assert seen[0] < 2 * total  # the second pass had not reached the end yet
    assert len(read) == 2 * total


@pytest.mark.django_db
def test_import_all_at_verbosity_0_prints_no_progress(small_site, tmp_path):
    path = tmp_path / "site.jsonl"
    export(path)
    empty_database()
    out = StringIO()

    call_command("import_all", str(path), stdout=out, verbosity=0)

    assert out.getvalue() == f"Restored {path}: {SMALL_SITE_COUNTS}.\n"
    assert Match.objects.count() == 3
    assert User.objects.get(username="owner").check_password("pw-owner-1")


def autumn(club: Club) -> Division:
    """The club's Autumn season: one division, Oak v Willow, its fixtures generated."""
    owner = User.objects.get(username="owner")
    season = season_create(club=club, by=owner, name="Autumn", game="all-fives",
                                    starts_on=datetime.date(2026, 9, 7))
    division = season.divisions.get()
    for name in ("Oak", "Willow"):
        entrant_add(division=division, by=owner, name=name)
    fixtures_generate(division=division, by=owner)
    return division


@pytest.mark.django_db
def test_a_captains_link_and_its_changes_round_trip_and_older_backups_still_import(
        small_site, tmp_path):
    """A replaced link stays replaced after a restore (its generation is kept), and a
    change made through a link still names it; a backup made before links imports with
    first links, not opened."""
    division = autumn(small_site)
    owner = User.objects.get(username="owner")
    oak = division.entrants.get(name="Oak")
    captain_link_replace(entrant=oak, by=owner)
    captain_link_open(entrant=oak, generation=2, phone="Firefox")
    oak.refresh_from_db()
    fixture = Fixture.objects.get()
    by_link = CaptainsLink(entrant=oak, generation=2, phone_key=oak.link_phone_key)
    fixture_redate(fixture=fixture, by=by_link, date=None, postponed=True)
    path = tmp_path / "site.jsonl"
    snap = restored(path)
    assert [c[-1] for c in snap["fixture changes"]] == ["Oak"]
    assert snapshot() == snap
    assert Entrant.objects.get(name="Oak").link_generation == 2

    # what backups made before links did not hold
    older = restored_as_older(path, lambda lines: without(
        lines, lambda key, _doc: key.startswith("link_") or key == "by_link"))
    assert "link_generation" not in older
    assert [(e.link_generation, e.link_phone_key) for e in Entrant.objects.order_by("name")] \
        == [(1, ""), (1, "")]
    assert FixtureChange.objects.get().by_link is None


@pytest.mark.django_db
def test_invite_links_withdrawn_stay_withdrawn_across_a_backup(small_site, tmp_path):
    club = Club.objects.get()
    owner = User.objects.get(username="owner")
    club_invites_withdraw(club=club, by=owner)
    club_invites_withdraw(club=club, by=owner)
    path = tmp_path / "site.jsonl"
    restored(path)
    assert Club.objects.get().invite_generation == 2

    # a backup made before links could be withdrawn: none was
    older = restored_as_older(path, lambda lines: without(
        lines, lambda key, _doc: key == "invite_generation"))
    assert "invite_generation" not in older
    assert Club.objects.get().invite_generation == 0


@pytest.mark.django_db
def test_the_schedules_emails_sent_before_a_restore_are_not_sent_again(small_site, tmp_path,
                                                                      mailoutbox):
    division = autumn(small_site)
    User.objects.filter(username="owner").update(email="owner@example.com")
    first = division.fixtures.order_by("date", "pk").first()
    assert first is not None and first.date is not None
    # a week after the first night, its result still missing: the league admins are told
    a_week_on = datetime.datetime.combine(first.date + datetime.timedelta(days=7),
                                          datetime.time(12), tzinfo=datetime.UTC)
    assert scheduled_notices_send(now=a_week_on).missing >= 1
    told = len(mailoutbox)
    assert told >= 1 and FixtureNotice.objects.exists()

    snap = restored(tmp_path / "site.jsonl")

    assert snapshot() == snap
    assert scheduled_notices_send(now=a_week_on).missing == 0
    assert len(mailoutbox) == told


@pytest.mark.django_db
def test_a_backup_made_before_the_schedules_emails_were_kept_restores_none(small_site,
                                                                          tmp_path):
    division = autumn(small_site)
    first = division.fixtures.order_by("date", "pk").first()
    assert first is not None and first.date is not None
    scheduled_notices_send(now=datetime.datetime.combine(
        first.date + datetime.timedelta(days=7), datetime.time(12), tzinfo=datetime.UTC))
    path = tmp_path / "site.jsonl"
    export(path)

    restored_as_older(path, lambda lines: without(lines, lambda key, _: key == "notices"))

    assert Fixture.objects.exists() and not FixtureNotice.objects.exists()


@pytest.mark.django_db
def test_a_fixtures_log_keeps_its_kinds_and_a_backup_made_before_them_still_imports(
        small_site, tmp_path):
    autumn(small_site)
    fixture_redate(fixture=Fixture.objects.get(), by=User.objects.get(
        username="owner"), date=None, postponed=True)
    path = tmp_path / "site.jsonl"
    snap = restored(path)
    assert [c[1:3] for c in snap["fixture changes"]] == [("postponed", "postponed")]
    assert snapshot() == snap

    # a backup made before fixture changes kept their kind: shown as they were written
    # the fixture changes' kinds taken out
    older = restored_as_older(path, lambda lines: without(
        lines, lambda key, doc: key == "kind" and "what" in doc))
    assert '"postponed", "what"' not in older
    change = FixtureChange.objects.get()
    assert (change.kind, change.what, change.words) == ("", "postponed", "postponed")


@pytest.mark.django_db
def test_a_record_imports_hash_and_a_deleted_match_round_trip(small_site, tmp_path):
    """Once lost by a restore: the hash that stops a record imported twice, and the
    record of a match deleted by mistake, which is the only way to take it back."""
    owner = User.objects.get(username="owner")
    record = json.loads(DEMO.read_text("utf-8"))
    imported = match_import(document=record, created_by=owner,
                                     record_hash=records_services.record_hash(record))
    doomed = Match.objects.exclude(pk=imported.pk).order_by("pk").first()
    assert doomed is not None
    match_delete_recorded(match=doomed, user=site_admin())
    path = tmp_path / "site.jsonl"
    snap = restored(path)
    assert snap["deleted matches"] and any(m["record hash"] for m in snap["matches"].values())
    assert snapshot() == snap
    # the same file imported again after the restore stores nothing
    assert Match.objects.filter(created_by__username="owner",
                                record_hash=records_services.record_hash(record)).count() == 1

    def before_either(lines: list[Any]) -> list[Any]:  # as written before backups kept either
        lines = [line for line in lines if line.get("type") != "deleted_match"]
        for line in lines:
            line.pop("record_hash", None)
            line.get("counts", {}).pop("deleted_matches", None)
        return lines

    restored_as_older(path, before_either)
    assert not DeletedMatch.objects.exists()
    assert not Match.objects.filter(record_hash__isnull=False).exists()


def test_a_backup_is_readable_by_its_writer_alone_or_keeps_the_mode_it_replaces(
        small_site, tmp_path):
    """It holds password hashes and scorers' secrets."""
    fresh = tmp_path / "fresh.jsonl"
    export(fresh)
    assert fresh.stat().st_mode & 0o777 == 0o600
    kept = tmp_path / "kept.jsonl"
    kept.write_text("old")
    kept.chmod(0o640)
    export(kept)
    assert kept.stat().st_mode & 0o777 == 0o640 and kept.read_text() != "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.jsonl", "kept.jsonl"]


def test_a_match_that_cannot_be_written_stops_the_backup_naming_it_and_leaves_no_file(
        small_site, tmp_path):
    # one of a batch read together, after another that writes well
    broken = Match.objects.order_by("pk")[1]
    broken.seats.all().delete()  # as the admin could: its record no longer replays
    path = tmp_path / "site.jsonl"
    with pytest.raises(CommandError) as refused:
        export(path)
    assert f"match {broken.public_id}" in str(refused.value)
    assert not path.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.django_db
def test_a_backups_matches_are_read_a_batch_at_a_time_not_match_by_match(
        small_site, tmp_path):
    def queries_to_export() -> int:
        with CaptureQueriesContext(connection) as captured:
            export(tmp_path / "site.jsonl")
        return len(captured)

    few = queries_to_export()
    demo = json.loads(DEMO.read_text("utf-8"))
    for copy in range(6):  # each a record of its own: its players renamed
        match_import(document={**demo, "players": [f"{name} {copy}"
                                                   for name in demo["players"]]})

    assert queries_to_export() == few


@pytest.mark.django_db
def test_a_seasons_fixtures_and_all_they_hold_are_read_together_not_one_by_one(
        small_site, tmp_path):
    division = autumn(small_site)
    owner = User.objects.get(username="owner")

    def queries_to_export() -> int:
        with CaptureQueriesContext(connection) as captured:
            export(tmp_path / "site.jsonl")
        return len(captured)

    few, planned = queries_to_export(), Fixture.objects.count()
    fixtures_csv_import(division=division, by=owner,
                        text="home,away,date,home_games,away_games\n" + "".join(
                            f"Oak,Willow,2026-10-{day:02},2,1\n" for day in range(1, 7)))

    assert queries_to_export() == few
    assert Fixture.objects.count() >= planned + 3 and FixtureChange.objects.count() >= 6


@pytest.mark.django_db
def test_a_phones_name_round_trips_and_a_backup_made_before_names_still_imports(
        small_site, tmp_path):
    match = Match.objects.order_by("pk").first()
    assert match is not None
    grant_create(match=match, phone="Android phone", name="Table 3")
    path = tmp_path / "site.jsonl"
    snap = restored(path)
    assert ("Android phone", "Table 3") in [g[:2] for g in snap["grants"]]
    assert snapshot() == snap

    def before_names(lines: list[Any]) -> list[Any]:  # as written before phones had names
        for line in lines:
            for grant in line.get("grants", []):
                del grant["name"]
        return lines

    restored_as_older(path, before_names)
    assert list(ScorerGrant.objects.values_list("label", "name")) == [("Android phone", "")]


@pytest.mark.django_db
def test_a_users_choice_of_league_emails_and_their_language_survives_a_restore(
        small_site, tmp_path):
    owner = User.objects.get(username="owner")
    league_emails_set(user=owner, on=False)
    keen = User.objects.create_user("keen", password="pw-keen-1")
    league_emails_set(user=keen, language="uk")
    User.objects.create_user("quiet", password="pw-quiet-1")  # never chose
    path = tmp_path / "site.jsonl"

    snap = restored(path)

    assert snapshot() == snap
    assert not league_emails_on(user=User.objects.get(username="owner"))
    assert league_emails_on(user=User.objects.get(username="keen"))
    assert notice_settings_of(user=User.objects.get(username="keen")).email_language == "uk"
    users = {line["username"]: (line["league_emails"], line["email_language"])
             for line in map(json.loads, export(path)) if line.get("type") == "user"}
    assert users == {"owner": (False, ""), "keen": (True, "uk"), "quiet": (True, "")}


@pytest.mark.django_db
def test_a_backup_made_before_email_settings_were_kept_restores_them_on(small_site, tmp_path):
    league_emails_set(user=User.objects.get(username="owner"), on=False)
    path = tmp_path / "site.jsonl"
    export(path)

    restored_as_older(path, lambda lines: without(
        lines, lambda key, _: key in ("league_emails", "email_language")))

    assert league_emails_on(user=User.objects.get(username="owner"))
    assert notice_settings_of(user=User.objects.get(username="owner")).email_language == ""


@pytest.mark.django_db
def test_a_backup_made_before_the_language_of_emails_was_kept_restores_the_choice_of_emails(
        small_site, tmp_path):
    league_emails_set(user=User.objects.get(username="owner"), on=False)
    path = tmp_path / "site.jsonl"
    export(path)

    restored_as_older(path, lambda lines: without(lines, lambda key, _: key == "email_language"))

    owner = User.objects.get(username="owner")
    assert not league_emails_on(user=owner)
    assert notice_settings_of(user=owner).email_language == ""


@pytest.mark.django_db
def test_a_users_league_emails_that_are_no_yes_or_no_are_refused_naming_the_line(
        small_site, tmp_path):
    path = tmp_path / "site.jsonl"
    lines = [json.loads(line) for line in export(path)]
    user_line = next(n for n, line in enumerate(lines, start=1) if line.get("type") == "user")
    lines[user_line - 1]["league_emails"] = "perhaps"
    path.write_text("\n".join(json.dumps(line) for line in lines))
    empty_database()

    with pytest.raises(CommandError) as refused:
        import_all(path)

    assert f"line {user_line}: user refused" in str(refused.value)
    assert "league_emails" in str(refused.value) and "perhaps" in str(refused.value)
    assert User.objects.count() == 0


@pytest.mark.django_db
def test_a_fixture_a_spreadsheet_added_round_trips(small_site, tmp_path):
    # its log's first change has no before ({}), which the restore's full_clean() refused
    division = autumn(small_site)
    planned = Fixture.objects.count()
    rows = "home,away,home_games,away_games\n" + "Oak,Willow,2,1\n" * (planned + 1)
    fixtures_csv_import(division=division, by=User.objects.get(username="owner"),
                                 text=rows)
    assert Fixture.objects.count() > planned
    assert FixtureChange.objects.filter(before={}).exists()

    snap = restored(tmp_path / "site.jsonl")

    assert snapshot() == snap


@pytest.mark.django_db
def test_a_league_correction_of_a_scorepad_game_round_trips_and_an_older_backup_has_none(
        tmp_path):
    night = league_night_at(FixtureStatus.CONFIRMED)
    Season.objects.update(corrections_confirmed_again=True)
    fixture_correct(fixture=night.fixture, by=night.admin, scores=[(0, 10)],
                    reason="Bob played the 5-5")
    path = tmp_path / "site.jsonl"

    snap = restored(path)

    assert snapshot() == snap
    assert snap["fixture corrections"][0][1] == "Bob played the 5-5"
    assert snap["fixtures"][0][-1][0][3] is True  # its game's score is the league's
    # a backup made before corrections were kept: none, and a season's choice the default
    def before_corrections(lines: list[Any]) -> list[Any]:
        for line in lines:
            if line.get("type") == "season":
                del line["corrections_confirmed_again"]
                for fixture in line["divisions"][0]["fixtures"]:
                    del fixture["corrections"]
                    for game in fixture["games"]:
                        del game["score_corrected"]
        return lines

    restored_as_older(path, before_corrections)
    assert not FixtureCorrection.objects.exists()
    assert not Season.objects.get().corrections_confirmed_again


@pytest.mark.django_db
def test_a_season_with_no_tie_breakers_round_trips_and_a_format_1_backups_means_the_default(
        small_site, tmp_path):
    owner = User.objects.get(username="owner")
    season_create(club=small_site, by=owner, name="Level", game="all-fives",
                           starts_on=datetime.date(2026, 9, 7), tiebreaks=[])
    path = tmp_path / "site.jsonl"
    export(path)
    empty_database()
    import_all(path)
    assert Season.objects.get().tiebreaks == []

    # written before 0011, a season's [] meant "the format's default", and still does
    older = tmp_path / "format-1.jsonl"
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["format"] == "scorekeeper-backup/2"
    lines[0] = json.dumps({**header, "format": "scorekeeper-backup/1"})
    older.write_text("\n".join(lines))
    empty_database()
    import_all(older)
    assert Season.objects.get().tiebreaks == ["game_difference", "games_for"]


@pytest.mark.django_db
def test_rounds_settled_without_a_count_or_in_two_taps_round_trip(small_site, tmp_path):
    # The record holds a called round's result and count together; the log may hold them
    # as two taps, and a Fives and Threes round may have no count at all.
    apart = match_create(game="all-fives", players=["Ann", "Dev"])
    round_start(match=apart, starter=0, mode="ends")
    event_record(match=apart, action=rules.Call(0, (rules.ScoringEnd.parse("5"),)))
    round_settle(match=apart, result=rules.RoundEnd.DOMINO, domino_seat=1)
    round_settle(match=apart, pips=(12, 0))
    round_start(match=apart, starter=1, mode="ends")
    round_settle(match=apart, result=rules.RoundEnd.BLOCKED)  # waits for its count
    uncounted = match_create(game="fives-and-threes", players=["Ann", "Dev"])
    round_start(match=uncounted, starter=None, mode="ends")
    round_settle(match=uncounted, result=rules.RoundEnd.BLOCKED)
    round_start(match=uncounted, starter=None, mode="ends")
    round_settle(match=uncounted, result=rules.RoundEnd.BLOCKED)
    round_settle(match=uncounted, pips=(3, 4))
    snap = restored(tmp_path / "site.jsonl")
    assert snapshot() == snap
    for match in Match.objects.filter(public_id__in=[apart.public_id, uncounted.public_id]):
        event_undo(match=match)  # the rows give back the log's last action
        match.refresh_from_db()
        assert actions_at(match, match.version) == [
            action_doc(action) for action in match_actions(match)]


@pytest.mark.django_db
def test_match_lines_are_restored_a_batch_at_a_time_not_line_by_line(small_site, tmp_path,
                                                                     monkeypatch):
    """Matches of every kind the small site holds (rated league players' seats, grants, a
    change log of taps, an import) go in through the batch's rows; line by line is only
    for a batch with something wrong in it."""
    apart = match_create(game="all-fives", players=["Ann", "Dev"])
    round_start(match=apart, starter=0, mode="ends")
    event_record(match=apart, action=rules.Call(0, (rules.ScoringEnd.parse("5"),)))
    round_settle(match=apart, result=rules.RoundEnd.DOMINO, domino_seat=1)
    round_settle(match=apart, pips=(12, 0))
    path = tmp_path / "site.jsonl"
    export(path)
    snap = snapshot()
    empty_database()

    def line_by_line(doc):
        raise AssertionError("a match line was restored on its own")

    monkeypatch.setattr(backup, "_match_restore", line_by_line)
    import_all(path)

    assert snapshot() == snap


def _bad_json(lines: list[str]) -> tuple[list[str], str]:
    lines[3] = lines[3][:-5]
    return lines, r"line 4: not a JSON object"


def _unknown_format(lines: list[str]) -> tuple[list[str], str]:
    lines[0] = json.dumps({"format": "scorekeeper-backup/9"})
    return lines, r"line 1: not a scorekeeper-backup/2 file .*'scorekeeper-backup/9'"


def _refused_record(lines: list[str]) -> tuple[list[str], str]:
    number = max(n for n, line in enumerate(lines) if '"type":"match"' in line)
    doc = json.loads(lines[number])
    doc["record"]["rounds"][0]["events"][0]["play"] = "9-9"  # not in a double-six set
    lines[number] = json.dumps(doc)
    return lines, rf"line {number + 1}: match refused: .*9-9"


def _other_history(lines: list[str]) -> tuple[list[str], str]:
    number = next(n for n, line in enumerate(lines) if '"type":"match"' in line)
    doc = json.loads(lines[number])
    doc["changes"][0]["action"]["start"]["starter"] = 1 - doc["changes"][0]["action"][
        "start"]["starter"]
    lines[number] = json.dumps(doc)
    return lines, rf"line {number + 1}: match refused: the change log does not lead"


def _cut_short(lines: list[str]) -> tuple[list[str], str]:
    return lines[:-1], rf"ends at line {len(lines) - 1} without its end line"


def _deep(lines: list[str]) -> tuple[list[str], str]:
    lines[2] = '{"type": "club", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    return lines, r": line 3: not a JSON object: it nests deeper than 32 levels\. Nothing was"


def _huge_number(lines: list[str]) -> tuple[list[str], str]:
    lines[1] = lines[1][:-1] + ',"id":' + "9" * 5000 + "}"
    return lines, (r": line 2: not a JSON object: a number in it has thousands of digits\. "
                   r"Nothing was")


def _missing_account(lines: list[str]) -> tuple[list[str], str]:
    """A match naming an account the file does not hold: the database would say so only
    at the commit (its foreign keys are deferred), the restore says it naming the line."""
    number = next(n for n, line in enumerate(lines) if '"type":"match"' in line)
    doc = json.loads(lines[number])
    doc["created_by"] = 999
    lines[number] = json.dumps(doc)
    return lines, rf"line {number + 1}: match refused: .*999"


def _nul(lines: list[str]) -> tuple[list[str], str]:
    doc = json.loads(lines[1])
    doc["username"] = "own\x00er"
    lines[1] = json.dumps(doc)
    return lines, (r": line 2: not a JSON object: a text in it holds a NUL character "
                   r"\(\\u0000\), which cannot be stored\. Nothing was")


@pytest.mark.django_db
@pytest.mark.parametrize("corrupt", [_bad_json, _unknown_format, _refused_record,
                                     _other_history, _missing_account, _cut_short, _deep,
                                     _huge_number, _nul])
def test_a_corrupted_file_is_refused_naming_the_line_and_stores_nothing(small_site, tmp_path,
                                                                        corrupt):
    path = tmp_path / "site.jsonl"
    lines, message = corrupt(export(path))
    path.write_text("\n".join(lines) + "\n", "utf-8")
    empty_database()
    with pytest.raises(CommandError, match=message):
        import_all(path)
    assert stored() == (0, 0, 0, 0, 0, 0)


@pytest.mark.django_db
def test_export_matches_prints_one_valid_record_per_club_match_and_no_other_clubs(
        small_site, django_user_model):
    other = club_create(name="Elm", by=django_user_model.objects.create_user("elm"))
    for name in ("Zed", "Yan"):
        Player.objects.create(club=other, name=name)
    theirs = rated_match(other, ["Zed", "Yan"], winner=0, when=5)
    ours = {str(m.public_id) for m in Match.objects.filter(seats__player__club=small_site)}
    assert len(ours) == 2

    out = StringIO()
    call_command("export_matches", "--club", small_site.slug, stdout=out)
    records = [json.loads(line) for line in out.getvalue().splitlines()]

    assert len(records) == 2
    for record in records:
        assert record["format"] == "domino-match/1"
        rules.replay(record)  # each one replays
    assert sorted(tuple(r["players"]) for r in records) == [
        ("Ann Dale", "Dev Patel"), ("Cath Lund", "Ann Dale")]
    assert match_record(theirs)["players"] not in [r["players"] for r in records]


@pytest.mark.django_db
def test_export_matches_of_a_season_prints_its_scorepad_games():
    load_demo()
    season = Season.objects.get()
    out = StringIO()
    call_command("export_matches", "--club", DEMO_CLUB, "--season", season.slug, stdout=out)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    game = FixtureGame.objects.get(match__isnull=False)
    assert game.match is not None
    assert records == [match_record(game.match)]
    with pytest.raises(CommandError, match="no season 'nope'"):
        call_command("export_matches", "--club", DEMO_CLUB, "--season", "nope")


def test_a_seasons_nights_start_round_trips_and_an_older_backup_gets_the_default(
        small_site, tmp_path):
    autumn(small_site)
    Season.objects.update(nights_start=datetime.time(20, 15))
    path = tmp_path / "site.jsonl"
    restored(path)
    assert Season.objects.get().nights_start == datetime.time(20, 15)

    # made before seasons kept their nights' start
    restored_as_older(path, lambda lines: without(lines, lambda key, _doc: key == "nights_start"))
    assert Season.objects.get().nights_start == datetime.time(19, 30)


def a_cup_partly_played() -> Cupfolk:
    """A seeded cup of four with a plate: seeds set, drawn, its first round dated, its
    finals night set, its first round played, its plate drawn, its final sent (not
    confirmed yet) and its plate final to play."""
    folk = a_cup(["Ann", "Bob", "Cy", "Dee"], draw_method="seeded", plate=True)
    cups.cup_seeds_set(cup=folk.cup, by=folk.admin,
                       seeds=[folk.entrant("Bob"), folk.entrant("Dee")])
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    cups.cup_round_date(cup=folk.cup, by=folk.admin, number=1,
                        date=STARTS + datetime.timedelta(days=7))
    cups.cup_finals_set(cup=folk.cup, by=folk.admin, date=STARTS + datetime.timedelta(days=28),
                        venue="The Royal Oak")
    folk.play(folk.fixture(1, 1), HOME_WIN)
    folk.play(folk.fixture(1, 2), AWAY_WIN)
    cups.cup_plate_draw(cup=folk.cup, by=folk.admin)
    folk.play(folk.fixture(2, 1), HOME_WIN, confirm=False)
    return folk


@pytest.mark.django_db(transaction=True)
def test_a_cup_drawn_and_partly_played_round_trips_through_a_flushed_database(
        small_site, tmp_path):
    autumn(small_site)  # a league season beside the cup's
    folk = a_cup_partly_played()
    before = snapshot()
    cup = before["cups"]["teesdale/teesdale-cup"]
    assert cup["cup"][0] == "cup" and cup["drawn"][1] != "null"
    # (who meets whom follows from the draw's seed, chosen at random)
    assert [(t[:3], t[4], t[5] is not None) for t in cup["ties"]] == [
        ((False, 1, 1), "confirmed", True), ((False, 1, 2), "confirmed", True),
        ((False, 2, 1), "submitted", False), ((True, 1, 1), "scheduled", False)]
    assert [entry[0] for entry in cup["log"]] == [
        "created", "seeds", "drawn", "round_dated", "round_dated", "finals", "plate_drawn"]
    assert len(cup["rounds"]) == 2
    path = tmp_path / "site.jsonl"
    lines = export(path)
    assert json.loads(lines[-1])["counts"]["seasons"] == 2

    call_command("flush", interactive=False)
    import_all(path)

    after = snapshot()
    for part in before:
        assert after[part] == before[part], part
    assert Season.objects.get(slug="autumn").kind == "league"
    # the cup goes on: new rows take new ids, the final is confirmed and counts
    folk.refreshed()
    cups.cup_round_date(cup=folk.cup, by=folk.admin, number=1,
                        date=STARTS + datetime.timedelta(days=14), plate=True)
    fixture = folk.fixture(2, 1)
    fixture_confirm(fixture=fixture, by=folk.captain(fixture.away))
    assert cup_shown(folk.refreshed()).winner is not None


@pytest.mark.django_db
def test_a_season_in_a_backup_made_before_cups_were_kept_is_a_leagues(small_site, tmp_path):
    autumn(small_site)
    path = tmp_path / "site.jsonl"
    restored(path)
    older = restored_as_older(path, lambda lines: without(
        lines, lambda key, doc: doc.get("type") == "season" and key in ("kind", "cup")))
    assert '"kind": "league"' not in older and '"cup"' not in older
    assert Season.objects.get().kind == "league" and not Cup.objects.exists()


@pytest.mark.django_db
def test_a_cup_whose_nights_can_end_level_keeps_its_deciding_game(tmp_path):
    a_cup(["Ann", "Bob"], fixture_format="games", singles=2)
    path = tmp_path / "site.jsonl"
    before = restored(path)
    assert before["seasons"] == [("teesdale-cup", "cup", False, True)]
    assert snapshot()["seasons"] == before["seasons"]
    # a backup made before deciding games were kept had none
    older = restored_as_older(path, lambda lines: without(
        lines, lambda key, doc: doc.get("type") == "season" and key == "decider"))
    assert '"decider"' not in older
    assert not Season.objects.get().decider


def _season_line(lines: list[str], slug: str) -> tuple[int, dict[str, Any]]:
    number = next(n for n, line in enumerate(lines)
                  if '"type":"season"' in line and f'"slug":"{slug}"' in line)
    return number, json.loads(lines[number])


def _cup_of_a_league(cup: dict[str, Any], season: dict[str, Any], _league: dict[str, Any]
                     ) -> str:
    season["kind"] = "league"
    return "a cup on a season of kind 'league'"


def _a_stranger_seeded(cup: dict[str, Any], _season: dict[str, Any],
                       _league: dict[str, Any]) -> str:
    cup["seeds"] = [cup["seeds"][0], 99999]
    return r"seeds \[99999\] are not entrants of the cup"


def _a_stranger_drawn(cup: dict[str, Any], _season: dict[str, Any],
                      _league: dict[str, Any]) -> str:
    cup["drawn"]["entrants"][0] = "99999"
    return r"drawn entrants \['99999'\] are not entrants of the cup"


def _a_draw_unreadable(cup: dict[str, Any], _season: dict[str, Any],
                       _league: dict[str, Any]) -> str:
    del cup["drawn"]["main"]
    return "'main' is missing"


def _a_tie_of_a_league_fixture(cup: dict[str, Any], _season: dict[str, Any],
                               league: dict[str, Any]) -> str:
    tie = next(tie for tie in cup["ties"] if tie["fixture"] is not None)
    tie["fixture"] = league["divisions"][0]["fixtures"][0]["id"]
    tie["result"] = None
    return r"fixture \d+ is not one of the cup's"


def _a_result_of_no_tie(cup: dict[str, Any], _season: dict[str, Any],
                        _league: dict[str, Any]) -> str:
    tie = next(tie for tie in cup["ties"] if tie["result"] is not None)
    tie["position"] = 7
    return "tie 7 of round 1"


def _ties_not_drawn(cup: dict[str, Any], _season: dict[str, Any],
                    _league: dict[str, Any]) -> str:
    cup["drawn"] = cup["plate_drawn"] = None
    return "ties of a cup not drawn"


def _no_log(cup: dict[str, Any], _season: dict[str, Any], _league: dict[str, Any]) -> str:
    del cup["log"]
    return "'log' is missing"


def _a_kind_unknown(cup: dict[str, Any], _season: dict[str, Any],
                    _league: dict[str, Any]) -> str:
    cup["log"][0]["kind"] = "burnt"
    return "burnt"


@pytest.mark.django_db
@pytest.mark.parametrize("corrupt", [_cup_of_a_league, _a_stranger_seeded, _a_stranger_drawn,
                                     _a_draw_unreadable, _a_tie_of_a_league_fixture,
                                     _a_result_of_no_tie, _ties_not_drawn, _no_log,
                                     _a_kind_unknown])
def test_a_broken_cup_is_refused_naming_its_seasons_line_and_stores_nothing(
        small_site, tmp_path, corrupt):
    autumn(small_site)
    a_cup_partly_played()
    path = tmp_path / "site.jsonl"
    lines = export(path)
    _league_number, league = _season_line(lines, "autumn")
    number, season = _season_line(lines, "teesdale-cup")
    message = corrupt(season["cup"], season, league)
    lines[number] = json.dumps(season)
    path.write_text("\n".join(lines) + "\n", "utf-8")
    empty_database()
    with pytest.raises(CommandError, match=rf"line {number + 1}: season refused: .*{message}"):
        import_all(path)
    assert stored() == (0, 0, 0, 0, 0, 0) and not Cup.objects.exists()


def test_a_division_named_with_a_dash_before_new_names_refused_one_restores(small_site,
                                                                          tmp_path):
    """A new division's name holds no " — " (the season's files would split it); one
    named so before that was refused stays as it was, and the site's backup restores it
    (a restore is all or nothing)."""
    season = season_create(club=small_site, by=small_site.memberships.get().user,
                           name="Summer 2027", game="all-fives",
                           starts_on=datetime.date(2027, 6, 7), divisions=["North"])
    Division.objects.filter(season=season).update(name="Premier — North")
    restored(tmp_path / "site.jsonl")
    assert Division.objects.get().name == "Premier — North"
