"""Backup and restore of the whole site: ``scorekeeper-backup/2``, one JSON Lines file.

Every line is one JSON object. The first is the header, the last the end line (a file
cut short is refused, not half restored); between them one line per thing, in the
order they are restored, each naming its ``"type"``::

    {"format": "scorekeeper-backup/2", "exported_at": "2026-…"}
    {"type": "user", "id": 1, "username": "…", "email": "…", "password": "<hash>", …,
        "league_emails": true, "email_language": ""}
    {"type": "club", "id": 1, "name": "…", "slug": "…", …, "memberships": [{…}]}
    {"type": "player", "id": 1, "club": 1, "name": "…", "user": null, …}
    {"type": "season", "id": 1, "club": 1, "kind": "league", …, "divisions": [{…,
        "entrants": [{…, "players": [1, 2], "adjustments": [{…}]}], "fixtures": [{…,
        "games": [{…, "home_players": […], "away_players": […]}], "changes": [{…}],
        "notices": [{…}]}]}],
        "cup": null}
    {"type": "season", "id": 2, "club": 1, "kind": "cup", …, "divisions": [{…}],
        "cup": {"id": 1, "draw_seed": 42, "seeds": [7, 9], "drawn": {…}, …,
        "rounds": [{…}], "ties": [{…, "fixture": 12, "result": {…}}], "log": [{…}]}}
    {"type": "match", "record": {<domino-match/1>}, "public_id": "…", "scorer_token": "…",
        "version": 7, "created_by": 1, "started_at": "…", "finished_at": "…",
        "seat_players": [3, 5], "fixture_game": 2, "abandoned": false, "grants": [{…}],
        "changes": [{…}]}
    {"type": "deleted_match", "public_id": "…", "record": {<domino-match/1>}, "user": 1, …}
    {"type": "end", "counts": {"users": 5, "clubs": 1, …, "deleted_matches": 1}}

A fixture keeps the schedule's e-mails sent about it (``notices``: a reminder, "no
result yet", "result missing", each with when it went), so that a restored site does
not send them again; a fixture in a backup made before they were kept has none.

Clubs, players, seasons and users keep their ids (a fixture's address holds its id),
and references between them are those ids; users keep their password *hash*, so
accounts work after a restore, and whether they want league e-mails and in which
language (``league_emails``: one who turned them off is not e-mailed again by the
restored site; ``email_language``, "" for the site's; a user in a backup made before
they were kept gets them, in the site's language). Dates are ISO 8601.

A knockout cup is written in its season's line (a season of ``kind`` cup), after the
divisions: its row as stored — its draw and its plate's as the rules' JSON, entrants
by their ids, its seeds, its draw's seed — its rounds' dates, its ties (each with its
fixture's id and the result it counts) and its log, all with their ids. Its draw,
seeds and ties must name the season's own entrants and fixtures, and its draw and
results read as the rules read them, or the line is refused. A league season's
``cup`` is null.

A match is stored as what the rules engine verifies — its ``domino-match/1`` record,
replayed on import by :func:`~matches.scoring.services.play.match_import` — plus what a record does
not hold: its public id, scorer token and version, its change log (the history, which
replaces the import's own one change; its live actions must lead to the record, or the
file is refused), the phones that scored it (``grants``), which club player sat in each
seat, who created it and when it started and finished, the fixture game it was, and the
hash by which a record import knows it (the same file imported again stores nothing).
A match a scorer deleted is kept as its record (``deleted_match``), to be taken back.
Scores come from the replay; ratings, a cache of the matches, are rebuilt at the end
(:func:`~matches.history.services.ratings_recompute` for every club and game).

A ``scorekeeper-backup/1`` file (written before migration 0011) still restores: it is
the same but for a season's ``tiebreaks``, where ``[]`` then meant the format's default
order, and now means none; a /1 season's ``[]`` is restored as that default. A grant
written before phones had names (migration 0014) is restored with none; a match written
before backups kept its record hash, with none; a file written before backups kept
deleted matches, with none; a season written before backups kept a season's kind (and
cups), as a league's season.

The export reads one moment of the database (on PostgreSQL a repeatable-read, read-only
transaction: a tap or a deletion meanwhile is not half in it).

Not restored: rows that undo or restore took back (the record holds the live actions;
the change log still says what was taken back), sessions (every phone signs in and
takes its scorer grant again), groups and permissions, and ``Rating.updated_at``.
"""

from __future__ import annotations

import datetime
import io
import itertools
import json
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from decimal import Decimal
from typing import Any, Protocol

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.db import DatabaseError, connection, models, transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.utils import timezone

from matches import rules
from matches.accounts.models import NoticeSettings
from matches.clubs.models import Club, Membership, Player
from matches.core.collector import fewer_collections
from matches.cups import stored as cups_stored
from matches.cups.models import Cup, CupLog, CupRound, CupTie
from matches.cups.selectors import rules_cup
from matches.history.services import ratings_recompute
from matches.leagues.models import (
    Adjustment,
    Division,
    Entrant,
    Fixture,
    FixtureChange,
    FixtureCorrection,
    FixtureGame,
    FixtureNotice,
    Season,
    SeasonKind,
)
from matches.rules import cup as cup_rules
from matches.rules.league import DEFAULT_TIEBREAKS
from matches.rules.record import GUARDS_SAID, RecordInvalid, read_json
from matches.scoring.changelog import action_doc
from matches.scoring.models import (
    Change,
    ChangeKind,
    DeletedMatch,
    Event,
    GameKind,
    Match,
    MatchStatus,
    Round,
    ScorerGrant,
    Seat,
)
from matches.scoring.record_checks import record_verified
from matches.scoring.selectors.play import (
    NO_ACTION_KINDS,
    RECORDS_A_READ,
    match_actions,
    match_records,
    results_apart,
    round_settle_actions,
)
from matches.scoring.services.bulk import EventRow, MatchRows, match_rows, match_rows_write
from matches.scoring.services.play import match_import

FORMAT = "scorekeeper-backup/2"
MATCHES_PER_BATCH = 500  # match lines restored together: one write a table for them
FORMAT_1 = "scorekeeper-backup/1"  # still read: see the module's docstring

NOT_EMPTY = ("The database is not empty ({what}): import_all restores a backup into an "
             "empty database only. Nothing was changed.")
NOT_JSON = "line {line}: not a JSON object: {error}"
NOT_BACKUP = "line {line}: not a {format} file (its first line says format {found!r})"
UNKNOWN_TYPE = "line {line}: unknown type of line {found!r}"
REFUSED = "line {line}: {what} refused: {error}"
TRUNCATED = "the file ends at line {line} without its end line: it was cut short"
AFTER_END = "line {line}: more lines after the end line"
WRONG_COUNTS = "line {line}: the end line counts {expected}, but the file holds {found}"
LOG_MISMATCH = "the change log does not lead to the match record"
class Writer(Protocol):
    """Where an export goes: a text file, or a command's stdout."""

    def write(self, text: str, /) -> object: ...


class BackupInvalid(ValueError):
    """The file cannot be restored; the message names the line. Nothing is stored."""


class DatabaseNotEmpty(Exception):
    """A backup is only restored into an empty database."""


User = get_user_model()

# What each row keeps, by field name (a foreign key as its target's id). The parent of a
# nested row (a season's division, a division's entrant…) is implied by the nesting.
USER_FIELDS = ["id", "username", "email", "password", "first_name", "last_name", "is_active",
               "is_staff", "is_superuser", "date_joined", "last_login"]
# a user's e-mail settings, in the user's line (the defaults for one who never chose)
NOTICE_SETTINGS_FIELDS = ["league_emails", "email_language"]
NOTICE_SETTINGS_ADDED = ["email_language"]  # since migration 0027
CLUB_FIELDS = ["id", "name", "slug", "visibility", "created_at", "created_by",
               "invite_generation"]
CLUB_ADDED = ["invite_generation"]  # since migration 0029: links withdrawn stay withdrawn
MEMBERSHIP_FIELDS = ["id", "user", "role", "joined_at"]
PLAYER_FIELDS = ["id", "club", "name", "user", "created_at"]
SEASON_FIELDS = ["id", "club", "kind", "name", "slug", "starts_on", "ends_on", "game", "options",
                 "scoring", "tiebreaks", "fixture_format", "singles", "pairs", "race_to",
                 "count_submitted", "corrections_confirmed_again", "paper_players_optional",
                 "locked", "created_at", "nights_start", "decider"]
# absent from backups made before they were kept (migrations 0019 and 0020; a season's
# kind before cups were kept: a league's; a deciding game before 0025: none)
SEASON_ADDED = ["corrections_confirmed_again", "nights_start", "kind", "decider"]
DIVISION_FIELDS = ["id", "name", "order"]
ENTRANT_FIELDS = ["id", "name", "kind", "captain", "link_generation", "link_phone_key",
                  "link_phone", "link_opened_at"]
# absent from backups made before captains' links: a first link, not opened yet (a
# replaced link stays replaced across a backup: its generation is kept)
ENTRANT_ADDED = ["link_generation", "link_phone_key", "link_phone", "link_opened_at"]
ADJUSTMENT_FIELDS = ["id", "points", "reason", "made_by", "made_at"]
FIXTURE_FIELDS = ["id", "week", "date", "home", "away", "status", "home_games", "away_games",
                  "walkover", "submitted_at", "dispute"]
FIXTURE_GAME_FIELDS = ["id", "number", "home_score", "away_score", "score_corrected"]
FIXTURE_GAME_ADDED = ["score_corrected"]  # absent from backups made before it was kept
FIXTURE_CORRECTION_FIELDS = ["id", "user", "at", "reason", "before", "after",
                             "confirmed_again"]
FIXTURE_CHANGE_FIELDS = ["id", "user", "by_link", "at", "kind", "what", "before", "after"]
FIXTURE_CHANGE_ADDED = ["kind", "by_link"]  # absent from backups made before they were kept
FIXTURE_NOTICE_FIELDS = ["kind", "sent_at"]
# a cup season's cup: its draw as stored (entrants by id), its seeds (entrant ids), its
# rounds' dates, its ties (each tie's fixture by id, its counted result) and its log
CUP_FIELDS = ["id", "draw_method", "draw_timing", "plate", "level_tie", "walkover_winner",
              "walkover_loser", "draw_seed", "seeds", "drawn", "plate_drawn", "finals_on",
              "finals_venue"]
CUP_ROUND_FIELDS = ["id", "plate", "number", "date"]
CUP_TIE_FIELDS = ["id", "plate", "round", "position", "fixture", "result"]
CUP_LOG_FIELDS = ["id", "user", "at", "kind", "details"]
GRANT_FIELDS = ["label", "name", "created_at", "last_used_at", "revoked_at", "is_creator"]
GRANT_ADDED = ["name"]  # since migration 0014: a backup made before has none
CHANGE_FIELDS = ["version", "kind", "key", "action", "description", "restored_to", "user",
                 "made_at"]
MATCH_FIELDS = ["public_id", "scorer_token", "version", "creation_key", "created_by",
                "started_at", "finished_at", "record_hash"]
MATCH_ADDED = ["record_hash"]  # absent from backups made before it was kept
DELETED_MATCH_FIELDS = ["public_id", "game", "names", "record", "deleted_at", "grant_label",
                        "user"]
# a league game's club and season, where the match model has them
MATCH_LINKS = ["club", "season"]

# rows whose ids are kept: their id sequences move past the restored ids afterwards
KEPT_IDS: list[type[models.Model]] = [User, Club, Membership, Player, Season, Division,
                                      Entrant, Adjustment, Fixture, FixtureGame,
                                      FixtureChange, FixtureCorrection, Cup, CupRound,
                                      CupTie, CupLog]


# -- export ------------------------------------------------------------------------------


class BackupFailed(Exception):
    """A stored match could not be written as its record; the message names it."""


def backup_export(*, out: Writer) -> int:
    """Write the whole site to ``out`` as ``scorekeeper-backup/2``; returns the lines
    written. Raises :class:`BackupFailed` naming a match that cannot be written."""
    outermost = not transaction.get_connection().in_atomic_block
    with transaction.atomic():  # one consistent reading of the database
        if outermost and connection.vendor == "postgresql":
            # READ COMMITTED would show each statement the latest commits: a match
            # deleted or scored between reading the list and its rows would be torn
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        written = 0
        for line in _export_lines():
            out.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
            written += 1
        return written


def _export_lines() -> Iterator[dict[str, Any]]:
    yield {"format": FORMAT, "exported_at": timezone.now().isoformat()}
    counts = {"users": 0, "clubs": 0, "players": 0, "seasons": 0, "matches": 0,
              "deleted_matches": 0}
    chosen = {notice.user_id: notice for notice in NoticeSettings.objects.all()}
    for user in User.objects.order_by("pk"):
        counts["users"] += 1
        yield {"type": "user", **_row(user, USER_FIELDS),
               **_row(chosen.get(user.pk, NoticeSettings()), NOTICE_SETTINGS_FIELDS)}
    for club in Club.objects.order_by("pk"):
        counts["clubs"] += 1
        yield {"type": "club", **_row(club, CLUB_FIELDS),
               "memberships": [_row(m, MEMBERSHIP_FIELDS)
                               for m in club.memberships.order_by("pk")]}
    for player in Player.objects.order_by("pk"):
        counts["players"] += 1
        yield {"type": "player", **_row(player, PLAYER_FIELDS)}
    # a season's divisions, entrants and fixtures with all they hold: a query a kind of
    # row for a few seasons at a time, not one a division, entrant, fixture and game
    for season in Season.objects.order_by("pk").prefetch_related(*SEASON_ROWS).iterator(
            chunk_size=SEASONS_A_READ):
        counts["seasons"] += 1
        yield {"type": "season", **_row(season, SEASON_FIELDS),
               "divisions": [_division_doc(d) for d in season.divisions.all()],
               "cup": _cup_doc(season)}
    # in id order (ratings break ties by id), a few hundred read together
    for batch in itertools.batched(Match.objects.order_by("pk").iterator(
            chunk_size=RECORDS_A_READ), RECORDS_A_READ):
        prefetch_related_objects(batch, Prefetch("grants", ScorerGrant.objects.order_by("pk")),
                                 Prefetch("seats", Seat.objects.order_by("position")),
                                 Prefetch("changes", Change.objects.order_by("version")))
        games = dict(FixtureGame.objects.filter(match__in=batch).values_list("match", "pk"))
        records = match_records(batch)
        for match in batch:
            counts["matches"] += 1
            try:
                record = next(records)
            except rules.RulesError as error:  # a row changed by hand (the shell, the admin)
                raise BackupFailed(f"match {match.public_id} ({match}) cannot be written "
                                   f"as its record: {error}") from None
            yield _match_doc(match, record, games.get(match.pk))
    for deleted in DeletedMatch.objects.order_by("pk"):
        counts["deleted_matches"] += 1
        yield {"type": "deleted_match", **_row(deleted, DELETED_MATCH_FIELDS)}
    yield {"type": "end", "counts": counts}


SEASONS_A_READ = 20  # seasons whose rows are read together (SEASON_ROWS)


def _in_order(relation: str, model: type[models.Model]) -> Prefetch[Any, Any, Any]:
    return Prefetch(relation, model._default_manager.order_by("pk"))


# what a season's line holds, each read in id order (players are listed sorted)
SEASON_ROWS: list[str | Prefetch[Any, Any, Any]] = [
    _in_order("divisions", Division),
    _in_order("divisions__entrants", Entrant),
    "divisions__entrants__players",
    _in_order("divisions__entrants__adjustments", Adjustment),
    _in_order("divisions__fixtures", Fixture),
    _in_order("divisions__fixtures__games", FixtureGame),
    "divisions__fixtures__games__home_players",
    "divisions__fixtures__games__away_players",
    _in_order("divisions__fixtures__changes", FixtureChange),
    _in_order("divisions__fixtures__corrections", FixtureCorrection),
    _in_order("divisions__fixtures__notices", FixtureNotice),
]


def _division_doc(division: Division) -> dict[str, Any]:
    """A division's part of its season's line, from the rows prefetched (SEASON_ROWS)."""
    return {**_row(division, DIVISION_FIELDS), "entrants": [
        {**_row(entrant, ENTRANT_FIELDS), "players": _ids(entrant.players.all()),
         "adjustments": [_row(a, ADJUSTMENT_FIELDS) for a in entrant.adjustments.all()]}
        for entrant in division.entrants.all()
    ], "fixtures": [
        {**_row(fixture, FIXTURE_FIELDS),
         "games": [{**_row(game, FIXTURE_GAME_FIELDS),
                    "home_players": _ids(game.home_players.all()),
                    "away_players": _ids(game.away_players.all())}
                   for game in fixture.games.all()],
         "changes": [_row(c, FIXTURE_CHANGE_FIELDS) for c in fixture.changes.all()],
         "corrections": [_row(c, FIXTURE_CORRECTION_FIELDS) for c in fixture.corrections.all()],
         "notices": [_row(n, FIXTURE_NOTICE_FIELDS) for n in fixture.notices.all()]}
        for fixture in division.fixtures.all()
    ]}


def _cup_doc(season: Season) -> dict[str, Any] | None:
    """A cup season's cup (after its divisions: its ties name their fixtures); None for
    a league's season."""
    cup = Cup.objects.filter(season=season).first()
    if cup is None:
        return None
    return {**_row(cup, CUP_FIELDS),
            "rounds": [_row(r, CUP_ROUND_FIELDS) for r in cup.rounds.order_by("pk")],
            "ties": [_row(t, CUP_TIE_FIELDS) for t in cup.ties.order_by("pk")],
            "log": [_row(entry, CUP_LOG_FIELDS) for entry in cup.log.order_by("pk")]}


def _match_doc(match: Match, record: dict[str, Any], fixture_game: int | None
               ) -> dict[str, Any]:
    """A match's line: its ``record``, and what the record does not hold (its grants,
    seats and changes prefetched in order, its ``fixture_game``'s id)."""
    grants = list(match.grants.all())
    grant_index = {grant.pk: index for index, grant in enumerate(grants)}
    return {
        "type": "match",
        "record": record,
        **_row(match, MATCH_FIELDS + _match_links()),
        "seat_players": [seat.player_id for seat in match.seats.all()],
        "fixture_game": fixture_game,
        # a record does not say a match was abandoned (the replay says in progress)
        "abandoned": match.status == MatchStatus.ABANDONED,
        "grants": [_row(grant, GRANT_FIELDS) for grant in grants],
        "changes": [{**_row(change, CHANGE_FIELDS),
                     "grant": grant_index.get(change.grant_id)
                     if change.grant_id is not None else None}
                    for change in match.changes.all()],
    }


def _match_links() -> list[str]:
    names = {field.name for field in Match._meta.concrete_fields}
    return [name for name in MATCH_LINKS if name in names]


def _row(obj: models.Model, fields: Iterable[str]) -> dict[str, Any]:
    """The named fields of ``obj`` as JSON values (a foreign key as the target's id)."""
    return {name: _plain(getattr(obj, _field(type(obj), name).attname)) for name in fields}


def _field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)  # the names above are the models' own fields
    return field


def _ids(rows: Iterable[models.Model]) -> list[Any]:
    return sorted(row.pk for row in rows)


def _plain(value: Any) -> Any:
    if isinstance(value, datetime.date | datetime.time):  # datetimes too
        return value.isoformat()
    if isinstance(value, uuid.UUID | Decimal):
        return str(value)
    return value


# -- import ------------------------------------------------------------------------------


# told (lines restored, lines to restore, what they were so far): once the file is read
# (0 restored), then after each line; after the last, ratings are rebuilt
RestoreProgress = Callable[[int, int, Mapping[str, int]], None]


@transaction.atomic
@fewer_collections()  # a batch of matches is replayed at a time: thousands of objects
def backup_import(*, source: Iterable[str] | str,
                  progress: RestoreProgress | None = None) -> dict[str, int]:
    """Restore a ``scorekeeper-backup/2`` (or /1) file (its lines) into an empty database, all
    or nothing; returns how many users, clubs, players, seasons and matches it holds.
    ``progress`` is told how far it got (a big site takes many minutes: every match is
    replayed).

    Raises :class:`DatabaseNotEmpty` before reading anything if the database holds a
    user, club, player or match, and :class:`BackupInvalid` (naming the line) for a
    file that cannot be restored; either way nothing is stored."""
    _require_empty()
    total, texts = _counted(rules.json_lines(source) if isinstance(source, str) else source)
    body = max(total - 2, 0)  # the lines between the header and the end line
    reader = _read(texts)  # one line at a time: a big site's backup is gigabytes parsed
    _header_line, header = next(reader)
    format_1 = header["format"] == FORMAT_1
    counts = {"users": 0, "clubs": 0, "players": 0, "seasons": 0, "matches": 0,
              "deleted_matches": 0}
    if progress is not None:
        progress(0, body, counts)
    restore = {"user": ("users", _user_restore), "club": ("clubs", _club_restore),
               "player": ("players", _player_restore),
               "season": ("seasons", _season_restore), "match": ("matches", _match_restore),
               "deleted_match": ("deleted_matches", _deleted_match_restore)}
    # match lines (the line's place in the body, its number, the line), restored a
    # batch at a time; progress is told of each, once its batch is in
    matches: list[tuple[int, int, dict[str, Any]]] = []

    def restore_matches() -> None:
        _matches_restore([(number, doc) for _done, number, doc in matches])
        for done, _number, _doc in matches:
            counts["matches"] += 1
            if progress is not None:
                progress(done, body, counts)
        matches.clear()

    end_line, end = 0, {}
    for done, (number, doc) in enumerate(reader, start=1):
        kind = doc.get("type")
        if kind == "end":  # the last line (_read refuses any after it)
            end_line, end = number, doc
            continue
        if kind not in restore:
            raise BackupInvalid(UNKNOWN_TYPE.format(line=number, found=kind))
        if kind == "match":
            matches.append((done, number, doc))
            if len(matches) == MATCHES_PER_BATCH:
                restore_matches()
            continue
        if matches:  # in the file's order: what comes after a match may refer to it
            restore_matches()
        name, step = restore[kind]
        if format_1 and kind == "season" and doc.get("tiebreaks") == []:
            doc = {**doc, "tiebreaks": list(DEFAULT_TIEBREAKS)}
        _restore_line(number, kind, step, doc)
        counts[name] += 1
        if progress is not None:
            progress(done, body, counts)
    if matches:
        restore_matches()
    expected = end.get("counts")
    if isinstance(expected, dict) and "deleted_matches" not in expected:
        expected = {**expected, "deleted_matches": 0}  # a file from before they were kept
    if expected != counts:
        raise BackupInvalid(WRONG_COUNTS.format(line=end_line, expected=end.get("counts"),
                                                found=counts))
    _reset_sequences()
    for club in Club.objects.all():  # ratings are a cache of the matches: rebuilt
        for game in GameKind.values:
            ratings_recompute(club=club, game=game)
    return counts


def _restore_line(number: int, kind: str, step: Callable[[dict[str, Any]], None],
                  doc: dict[str, Any]) -> None:
    """One line restored by ``step`` (in a savepoint), or refused naming the line."""
    try:
        with transaction.atomic():
            step(doc)
    except BackupInvalid as error:
        raise BackupInvalid(REFUSED.format(line=number, what=kind, error=error)) from None
    except (rules.RulesError, ValidationError, DatabaseError, KeyError, TypeError,
            ValueError, IndexError, AttributeError) as error:
        raise BackupInvalid(REFUSED.format(line=number, what=kind,
                                           error=_message(error))) from None


def _matches_restore(lines: list[tuple[int, dict[str, Any]]]) -> None:
    """Match lines restored together: each record replayed once, its rows built in memory
    with what the line keeps beside the record, and each table written once for them
    all (:func:`~matches.scoring.services.bulk.match_rows_write`). A batch with anything
    wrong in it — a refused record, a change log that does not lead to it, a missing
    account, club, season or player, a row the database refuses — is restored again line
    by line (:func:`_match_restore`), which names the line and says why, as ever."""
    try:
        batch = [_match_rows(doc) for _number, doc in lines]
        if _missing_references(batch):
            raise BackupInvalid("a row it names is missing")
        with transaction.atomic():
            match_rows_write(batch)
            for (_number, doc), rows in zip(lines, batch, strict=True):
                game = doc["fixture_game"]
                if game is not None and not FixtureGame.objects.filter(
                        pk=game, match=None).update(match=rows.match):
                    raise BackupInvalid(f"no fixture game {game} without a match")
    except (BackupInvalid, rules.RulesError, ValidationError, DatabaseError, KeyError,
            TypeError, ValueError, IndexError, AttributeError, StopIteration):
        for number, doc in lines:
            _restore_line(number, "match", _match_restore, doc)


def _match_rows(doc: dict[str, Any]) -> MatchRows:
    """A match line's rows, not yet written: its record's (verified by the replay), with
    what the line keeps beside it, as :func:`_match_restore` stores them. Raises on
    anything :func:`_match_restore` would refuse."""
    engine, names = record_verified(document=doc["record"])
    rows = match_rows(engine, names)
    match = rows.match
    _assign(match, doc, MATCH_FIELDS + _match_links(), optional=MATCH_LINKS + MATCH_ADDED)
    if doc.get("abandoned"):
        match.status = MatchStatus.ABANDONED
    # foreign keys are checked for the whole batch (_missing_references), unique values
    # and constraints by the database
    match.full_clean(exclude=_relations(Match), validate_unique=False,
                     validate_constraints=False)
    seat_players = doc["seat_players"]
    if len(seat_players) != len(rows.seats):
        raise BackupInvalid(f"{len(seat_players)} seat players for {len(rows.seats)} seats")
    for seat, player in zip(rows.seats, seat_players, strict=True):
        seat.player_id = player
    for grant_doc in doc["grants"]:
        grant = ScorerGrant(match=match)
        _assign(grant, grant_doc, GRANT_FIELDS, optional=GRANT_ADDED)
        grant.full_clean(exclude=["match"], validate_unique=False, validate_constraints=False)
        rows.grants.append(grant)
    rows.changes = []
    for change_doc in doc["changes"]:
        grant_index = change_doc["grant"]
        if grant_index is not None and not (isinstance(grant_index, int)
                                            and 0 <= grant_index < len(rows.grants)):
            raise BackupInvalid("no such grant")
        change = Change(match=match, grant=rows.grants[grant_index]
                        if grant_index is not None else None)
        _assign(change, change_doc, CHANGE_FIELDS)
        change.full_clean(exclude=["match", "grant", "user"], validate_constraints=False)
        rows.changes.append(change)
    if [change.version for change in rows.changes] != list(range(1, match.version + 1)):
        raise BackupInvalid("the change log does not run from the first version")
    live, made_by = _live_actions(rows.changes)
    apart = results_apart(live)
    for round_ in rows.rounds:
        round_.result_apart = round_.result_apart or round_.number in apart
    if live != [action_doc(action) for action in rows.actions()]:
        raise BackupInvalid(LOG_MISMATCH)
    by_version = {change.version: change for change in rows.changes}
    made = iter(made_by)
    events: dict[int, list[EventRow]] = {}
    for event in rows.events:
        events.setdefault(id(event.round), []).append(event)
    for round_ in rows.rounds:
        round_.change = by_version[next(made)]
        for event in events.get(id(round_), ()):
            event.change = by_version[next(made)]
            event.recorded_at = event.change.made_at
        for _ in round_settle_actions(round_):
            next(made)
    return rows


def _relations(model: type[models.Model]) -> list[str]:
    return [field.name for field in model._meta.fields if field.is_relation]


def _missing_references(batch: list[MatchRows]) -> bool:
    """Whether a row of ``batch`` names an account, club, season or player that is not
    there (the database checks foreign keys only at the commit, on PostgreSQL)."""
    wanted: dict[type[models.Model], set[int]] = {User: set(), Club: set(), Season: set(),
                                                  Player: set()}
    for rows in batch:
        match = rows.match
        wanted[User].update(pk for pk in (match.created_by_id,) if pk is not None)
        wanted[Club].update(pk for pk in (match.club_id,) if pk is not None)
        wanted[Season].update(pk for pk in (match.season_id,) if pk is not None)
        wanted[Player].update(seat.player_id for seat in rows.seats
                              if seat.player_id is not None)
        wanted[User].update(change.user_id for change in rows.changes
                            if change.user_id is not None)
    return any(model._default_manager.filter(pk__in=pks).count() != len(pks)
               for model, pks in wanted.items() if pks)


def _require_empty() -> None:
    held = [f"{what}: {count}" for what, count in (
        ("users", User.objects.count()), ("clubs", Club.objects.count()),
        ("players", Player.objects.count()), ("matches", Match.objects.count()),
        ("deleted matches", DeletedMatch.objects.count())) if count]
    if held:
        raise DatabaseNotEmpty(NOT_EMPTY.format(what=", ".join(held)))


def _counted(source: Iterable[str]) -> tuple[int, Iterable[str]]:
    """How many non-blank lines ``source`` has (for the progress), and its lines to read:
    a file is counted in a pass of its own and read again from its start, so that its
    lines need not all be held at once."""
    if isinstance(source, io.TextIOBase) and source.seekable():
        start = source.tell()
        total = sum(1 for text in source if text.strip())
        source.seek(start)
        return total, source
    lines = list(source)
    return sum(1 for text in lines if text.strip()), lines


def _read(source: Iterable[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each non-blank line as a JSON object with its 1-based number, from the header
    to the end line, both checked."""
    number = 0
    first, ended = True, False
    for number, text in enumerate(source, start=1):
        text = text.removeprefix("\ufeff") if number == 1 else text
        if not text.strip():
            continue
        if ended:
            raise BackupInvalid(AFTER_END.format(line=number))
        try:  # as a record is read: no deep nesting, huge number or NUL gets through
            doc = read_json(text)
        except RecordInvalid as error:
            why = GUARDS_SAID.get(error.code) or error.params.get("error") or error
            raise BackupInvalid(NOT_JSON.format(line=number, error=why)) from None
        if not isinstance(doc, dict):
            raise BackupInvalid(NOT_JSON.format(line=number, error=f"a {type(doc).__name__}"))
        if first and doc.get("format") not in (FORMAT, FORMAT_1):
            raise BackupInvalid(NOT_BACKUP.format(line=number, format=FORMAT,
                                                  found=doc.get("format")))
        ended = not first and doc.get("type") == "end"
        first = False
        yield number, doc
    if not ended:
        raise BackupInvalid(TRUNCATED.format(line=number))


def _message(error: Exception) -> str:
    if isinstance(error, ValidationError):
        return "; ".join(error.messages)
    if isinstance(error, KeyError):
        return f"{error} is missing"
    return str(error)


def _build[M: models.Model](model: type[M], doc: dict[str, Any], fields: Iterable[str], *,
                            optional: Iterable[str] = (), **parent: Any) -> M:
    """A row of ``model`` from ``doc``'s fields (each checked by its field), validated
    and saved."""
    obj = model(**parent)
    _assign(obj, doc, fields, optional=optional)
    obj.full_clean()
    obj.save(force_insert=True)
    return obj


def _assign(obj: models.Model, doc: dict[str, Any], fields: Iterable[str], *,
            optional: Iterable[str] = ()) -> None:
    """Set the named fields of ``obj`` from ``doc``, each value read by its field (a
    missing key is a KeyError, unless the field is ``optional``: then its default)."""
    for name in fields:
        field = _field(type(obj), name)
        value = doc.get(name, field.get_default()) if name in optional else doc[name]
        setattr(obj, field.attname, None if value is None else field.to_python(value))


def _user_restore(doc: dict[str, Any]) -> None:
    user = _build(User, doc, USER_FIELDS)
    # absent from backups made before they were kept: as for a user who never chose
    if "league_emails" in doc:
        _build(NoticeSettings, doc, NOTICE_SETTINGS_FIELDS, optional=NOTICE_SETTINGS_ADDED,
               user=user)


def _club_restore(doc: dict[str, Any]) -> None:
    club = _build(Club, doc, CLUB_FIELDS, optional=CLUB_ADDED)
    for membership in doc["memberships"]:
        _build(Membership, membership, MEMBERSHIP_FIELDS, club=club)


def _player_restore(doc: dict[str, Any]) -> None:
    _build(Player, doc, PLAYER_FIELDS)


def _season_restore(doc: dict[str, Any]) -> None:
    # a backup made before paper games named their players asked for none: as it was
    season = _build(Season, {"paper_players_optional": True, **doc}, SEASON_FIELDS,
                    optional=SEASON_ADDED)
    for division_doc in doc["divisions"]:
        division = _build(Division, division_doc, DIVISION_FIELDS, season=season)
        for entrant_doc in division_doc["entrants"]:
            entrant = _build(Entrant, entrant_doc, ENTRANT_FIELDS, optional=ENTRANT_ADDED,
                             division=division)
            entrant.players.set(_players(entrant_doc["players"]))
            for adjustment in entrant_doc["adjustments"]:
                _build(Adjustment, adjustment, ADJUSTMENT_FIELDS, entrant=entrant)
        for fixture_doc in division_doc["fixtures"]:
            fixture = _build(Fixture, fixture_doc, FIXTURE_FIELDS, division=division)
            for game_doc in fixture_doc["games"]:
                game = _build(FixtureGame, game_doc, FIXTURE_GAME_FIELDS,
                              optional=FIXTURE_GAME_ADDED, fixture=fixture)
                game.home_players.set(_players(game_doc["home_players"]))
                game.away_players.set(_players(game_doc["away_players"]))
            for change in fixture_doc["changes"]:
                _build(FixtureChange, change, FIXTURE_CHANGE_FIELDS,
                       optional=FIXTURE_CHANGE_ADDED, fixture=fixture)
            # (none in a backup made before corrections were kept)
            for correction in fixture_doc.get("corrections", []):
                _build(FixtureCorrection, correction, FIXTURE_CORRECTION_FIELDS,
                       fixture=fixture)
            # (none in a backup made before the schedule's e-mails were kept)
            for notice in fixture_doc.get("notices", []):
                _build(FixtureNotice, notice, FIXTURE_NOTICE_FIELDS, fixture=fixture)
    if doc.get("cup") is not None:  # (none in a backup made before cups were kept)
        _cup_restore(season, doc["cup"])


def _cup_restore(season: Season, doc: dict[str, Any]) -> None:
    """A cup season's cup as it was stored, once its entrants and fixtures are in; what
    its draw, seeds and ties name is checked to be this cup's, and the draw and the
    results to read as the rules read them (else its page could not be shown)."""
    if season.kind != SeasonKind.CUP:
        raise BackupInvalid(f"a cup on a season of kind {season.kind!r}")
    cup = _build(Cup, doc, CUP_FIELDS, season=season)
    entrants = {str(pk) for pk in Entrant.objects.filter(division__season=season)
                .values_list("pk", flat=True)}
    strangers = [seed for seed in cup.seeds if str(seed) not in entrants]
    if strangers:
        raise BackupInvalid(f"seeds {strangers} are not entrants of the cup")
    drawn = rules_cup(cup)
    if drawn is not None:
        strangers = [entrant for entrant in drawn.entrants if entrant not in entrants]
        if strangers:
            raise BackupInvalid(f"drawn entrants {strangers} are not entrants of the cup")
    for round_doc in doc["rounds"]:
        _build(CupRound, round_doc, CUP_ROUND_FIELDS, cup=cup)
    results: dict[cup_rules.TieKey, cup_rules.TieResult] = {}
    for tie_doc in doc["ties"]:
        tie = _build(CupTie, tie_doc, CUP_TIE_FIELDS, cup=cup)
        if tie.fixture is not None and tie.fixture.division.season_id != season.pk:
            raise BackupInvalid(f"tie {tie_doc['id']}'s fixture {tie.fixture_id} is not "
                                "one of the cup's")
        if tie.result is not None:
            results[cup_rules.TieKey(tie.round, tie.position, plate=tie.plate)] = \
                cups_stored.result_from(tie.result)
    if drawn is None and doc["ties"]:
        raise BackupInvalid("ties of a cup not drawn")
    if drawn is not None:
        cup_rules.bracket(drawn, results)  # each result of a tie the draw has
    for entry in doc["log"]:
        _build(CupLog, entry, CUP_LOG_FIELDS, cup=cup)


def _players(ids: list[int]) -> list[Player]:
    players = list(Player.objects.filter(pk__in=ids))
    if len(players) != len(set(ids)):
        raise BackupInvalid(f"no player with id {sorted(set(ids) - {p.pk for p in players})}")
    return players


def _deleted_match_restore(doc: dict[str, Any]) -> None:
    _build(DeletedMatch, doc, DELETED_MATCH_FIELDS)


def _match_restore(doc: dict[str, Any]) -> None:
    """The match from its record (replayed and verified), then what the record does not
    hold, set to the stored values."""
    match = match_import(document=doc["record"])
    _assign(match, doc, MATCH_FIELDS + _match_links(), optional=MATCH_LINKS + MATCH_ADDED)
    if doc.get("abandoned"):  # absent from files made before matches could be abandoned
        match.status = MatchStatus.ABANDONED
    match.full_clean()
    match.save()
    seat_players = doc["seat_players"]
    seats = list(match.seats.order_by("position"))
    if len(seat_players) != len(seats):
        raise BackupInvalid(f"{len(seat_players)} seat players for {len(seats)} seats")
    for seat, player in zip(seats, seat_players, strict=True):
        seat.player_id = player
    Seat.objects.bulk_update(seats, ["player"])
    grants = [_build(ScorerGrant, grant, GRANT_FIELDS, optional=GRANT_ADDED, match=match)
              for grant in doc["grants"]]
    _changes_restore(match, doc["changes"], grants)
    if doc["fixture_game"] is not None and not FixtureGame.objects.filter(
            pk=doc["fixture_game"], match=None).update(match=match):
        raise BackupInvalid(f"no fixture game {doc['fixture_game']} without a match")


def _changes_restore(match: Match, docs: list[dict[str, Any]],
                     grants: list[ScorerGrant]) -> None:
    """Replace the import's one change with the stored change log, and link each live
    round and event to the change that made it (as the log says)."""
    Round.objects.filter(match=match).update(change=None)
    Event.objects.filter(match=match).update(change=None)
    match.changes.all().delete()
    changes = []
    for doc in docs:
        grant = doc["grant"]
        if grant is not None and not (isinstance(grant, int) and 0 <= grant < len(grants)):
            raise BackupInvalid(f"version {doc['version']} names no grant {grant!r}")
        change = Change(match=match, grant=grants[grant] if grant is not None else None)
        _assign(change, doc, CHANGE_FIELDS)
        change.full_clean(exclude=["match"], validate_constraints=False)
        changes.append(change)
    if [change.version for change in changes] != list(range(1, match.version + 1)):
        raise BackupInvalid(f"the change log does not run from version 1 to {match.version}")
    changes = Change.objects.bulk_create(changes)
    live, made_by = _live_actions(changes)
    # the record gives a called round's result and count together; the log may hold
    # them as two taps, which the rows say so they give the log's actions back
    match.rounds.filter(number__in=results_apart(live)).update(result_apart=True)
    if live != [action_doc(action) for action in match_actions(match)]:
        raise BackupInvalid(LOG_MISMATCH)
    by_version = {change.version: change for change in changes}
    made = iter(made_by)
    rounds, events = [], []
    events_by_round: dict[int, list[Event]] = {}
    for event in match.events.order_by("number"):
        events_by_round.setdefault(event.round_id, []).append(event)
    for round_ in match.rounds.order_by("number"):  # in match_actions' order
        round_.change = by_version[next(made)]
        rounds.append(round_)
        for event in events_by_round.get(round_.pk, ()):
            event.change = by_version[next(made)]
            assert event.change is not None
            event.recorded_at = event.change.made_at
            events.append(event)
        for _ in round_settle_actions(round_):
            next(made)
    Round.objects.bulk_update(rounds, ["change"])
    Event.objects.bulk_update(events, ["change", "recorded_at"])


def _live_actions(changes: list[Change]) -> tuple[list[dict[str, Any]], list[int]]:
    """The live actions the change log leads to (as :func:`selectors.actions_at` reads
    them) and, for each, the version of the change that applied it — the same prefix
    rule as ``match_restore``: a restore keeps the actions both versions agree on."""
    docs: list[dict[str, Any]] = []
    made_by: list[int] = []
    for change in changes:
        if change.kind == ChangeKind.IMPORT:
            docs = list(change.action["actions"])
            made_by = [change.version] * len(docs)
        elif change.kind == ChangeKind.RESTORE:
            target = list(change.action["actions"])
            common = 0
            while common < min(len(target), len(docs)) and target[common] == docs[common]:
                common += 1
            docs = target
            made_by = made_by[:common] + [change.version] * (len(target) - common)
        elif change.kind == ChangeKind.UNDO:
            if not docs:
                raise BackupInvalid(f"{LOG_MISMATCH}: version {change.version} undoes nothing")
            docs.pop()
            made_by.pop()
        elif change.kind in NO_ACTION_KINDS:
            continue  # a rename or an abandon: no engine action
        else:
            docs.append(change.action)
            made_by.append(change.version)
    return docs, made_by


def _reset_sequences() -> None:
    """Ids were given, not drawn: move each id sequence past them (PostgreSQL; SQLite
    needs nothing)."""
    statements = connection.ops.sequence_reset_sql(no_style(), KEPT_IDS)
    if statements:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)


__all__ = ["FORMAT", "BackupInvalid", "DatabaseNotEmpty", "backup_export", "backup_import"]
