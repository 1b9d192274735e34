"""matches.scoring.services.bulk: a batch of records stored in one go, row for row as
match_import stores each, each record refused or found stored on its own."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection, models
from django.test.utils import CaptureQueriesContext
from hypothesis import given, settings
from hypothesis import strategies as st

from matches import rules
from matches.models import Change, Event, Match, Round, RoundSide, Seat, Side
from matches.rules.simulate import simulated_record
from matches.scoring import record_checks
from matches.scoring.selectors.play import match_summary
from matches.scoring.services import bulk
from matches.scoring.services import play as scoring_services
from tests.support.helpers import assert_cache_equals_replay
from tests.support.samples import sample_document, sample_params

pytestmark = pytest.mark.django_db

# (game, players, options): the random corpus of all three games (as bench/replay.py)
CASES: list[tuple[rules.Game, int, dict[str, Any] | None]] = [
    (rules.ALL_FIVES, 2, None),
    (rules.ALL_FIVES, 4, None),
    (rules.FIVE_UP, 2, None),
    (rules.FIVE_UP, 3, {"target": 121}),
    (rules.FIVES_AND_THREES, 4, {"set": "double-nine", "drawing": True}),
    (rules.FIVES_AND_THREES, 2, None),
]
# fields whose values are the moment or a random secret of the write, never the record's
UNCOMPARED = {"started_at", "finished_at", "made_at", "recorded_at", "public_id",
              "scorer_token"}


def corpus(picks: list[tuple[int, int, bool]]) -> list[dict[str, Any]]:
    """Records of the random corpus: (case, seed, finished) each; unfinished ones stop
    partway through, settled or not."""
    documents = []
    for case, seed, finish in picks:
        game, players, options = CASES[case]
        documents.append(simulated_record(game, players, seed=seed, options=options,
                                          finish=finish, max_rounds=3 if not finish else 200,
                                          pips=seed % 2 == 0))
    return documents


def row(obj: models.Model, refer: dict[type[models.Model], dict[Any, Any]]) -> dict[str, Any]:
    """Every field of ``obj`` but its key and the moment's values; a foreign key as what
    it names within the match (a side by index, a round by number, a change by
    version; ``refer`` maps their keys), an account by its key. Read from the key
    columns, so that comparing a long match costs no query a row."""
    values: dict[str, Any] = {}
    for field in obj._meta.concrete_fields:
        if field.primary_key or field.name in UNCOMPARED:
            continue
        value = getattr(obj, field.attname)
        if isinstance(field, models.ForeignKey) and value is not None:
            value = refer.get(field.related_model, {}).get(value, value)
        values[field.name] = value
    if isinstance(obj, Match):
        values["finished"] = obj.finished_at is not None
    return values


def rows_of(match: Match) -> dict[str, Any]:
    """The stored rows of ``match``, as :func:`row` gives them, table by table."""
    refer: dict[type[models.Model], dict[Any, Any]] = {
        Match: {match.pk: "the match"},
        Side: dict(match.sides.values_list("pk", "index")),
        Round: dict(match.rounds.values_list("pk", "number")),
        Change: dict(match.changes.values_list("pk", "version"))}
    return {
        "match": row(Match.objects.get(pk=match.pk), refer),
        "sides": [row(side, refer) for side in match.sides.order_by("index")],
        "seats": [row(seat, refer) for seat in match.seats.order_by("position")],
        "changes": [row(change, refer) for change in match.changes.order_by("version")],
        "rounds": [row(round_, refer) for round_ in match.rounds.order_by("number")],
        "round_sides": [row(total, refer) for total in RoundSide.objects.filter(
            round__match=match).order_by("round__number", "side__index")],
        "events": [row(event, refer) for event in match.events.order_by("number")],
    }


def assert_stored_as_match_import_stores(documents: list[dict[str, Any]], user=None) -> None:
    imported = bulk.matches_store_bulk(documents=documents, created_by=user)

    assert all(result.match is not None and not result.refusal for result in imported)
    for document, result in zip(documents, imported, strict=True):
        one = scoring_services.match_import(document=document, created_by=user)
        assert result.match is not None
        assert rows_of(result.match) == rows_of(one)
        assert result.summary == match_summary(result.match)
        assert_cache_equals_replay(result.match)


@settings(max_examples=5)
@given(picks=st.lists(st.tuples(st.integers(0, len(CASES) - 1), st.integers(0, 10**6),
                                st.booleans()), min_size=1, max_size=4))
def test_a_batch_of_the_random_corpus_is_stored_row_for_row_as_match_import_stores_it(picks):
    assert_stored_as_match_import_stores(corpus(picks))


def test_the_samples_are_stored_row_for_row_as_match_import_stores_them(django_user_model):
    """The samples hold what the random corpus has not: called rounds, results given
    apart from their count, miscalls refused, named options."""
    names = [name for name in sample_params("valid") if isinstance(name, str)]
    if not names:
        pytest.skip("no samples")
    user = django_user_model.objects.create_user("scorer", password="pw")

    assert_stored_as_match_import_stores([sample_document(name) for name in names], user)


def test_each_table_is_written_in_one_statement_for_the_whole_batch():
    documents = corpus([(case, seed, False) for case in range(len(CASES)) for seed in (1, 2)])

    with CaptureQueriesContext(connection) as done:
        imported = bulk.matches_store_bulk(documents=documents,
                                           hashes=[str(n) for n in range(len(documents))])

    inserts = [query["sql"].split()[2].strip('"') for query in done.captured_queries
               if query["sql"].startswith("INSERT")]
    keys_taken = [query for query in done.captured_queries if "nextval" in query["sql"]]
    # on PostgreSQL the many rows go by COPY, which Django's log of queries does not see,
    # their keys taken from the sequences first, a query a table
    copied = ([Change, Round, RoundSide, Event] if connection.vendor == "postgresql"
              else [])
    assert sorted(inserts) == sorted(model._meta.db_table for model in (
        Match, Side, Seat, Change, Round, RoundSide, Event) if model not in copied)
    # a query a table copied but the events' (nothing refers to them)
    assert len(keys_taken) == max(len(copied) - 1, 0)
    assert Event.objects.count() == sum(len(rnd["events"]) for document in documents
                                        for rnd in document["rounds"])
    # besides: the look-up of the hashes, and two savepoints begun and released
    assert len(done.captured_queries) == len(inserts) + len(keys_taken) + 5
    assert Match.objects.count() == len(documents) == len(imported)


def test_a_refused_record_stores_nothing_of_itself_and_the_rest_goes_in():
    good = corpus([(0, 3, True), (2, 4, True)])
    wrong_turn = {"format": "domino-match/1", "game": "all-fives", "players": ["A", "B"],
                  "rounds": [{"starter": 0, "events": [
                      {"seat": 0, "play": "5-5"}, {"seat": 0, "play": "5-6", "at": "5-5:5"}]}]}
    long_name = rules.export(rules.Match(rules.ALL_FIVES, ["O" * 61, "Taras"]))
    same_name = rules.export(rules.Match(rules.ALL_FIVES, ["Olena", " olena "]))

    imported = bulk.matches_store_bulk(
        documents=[good[0], wrong_turn, long_name, same_name, good[1]])

    assert [result.refusal for result in imported] == [
        "", "round 1, event 2: seat 1 is to play, not seat 0",
        "The name of the player in seat 1 has 61 characters: a name has at most 60.",
        "Each player needs a different name: olena sits twice.", ""]
    assert [result.match is None for result in imported] == [False, True, True, True, False]
    assert Match.objects.count() == 2
    assert Seat.objects.count() == 4
    for document in (wrong_turn, long_name, same_name):  # as the dry run refuses it
        assert record_checks.record_check(document=document)[1] in {
            result.refusal for result in imported}


def test_a_record_the_account_stored_already_is_found_not_stored_again(django_user_model):
    user = django_user_model.objects.create_user("scorer", password="pw")
    documents = corpus([(0, 5, True), (1, 6, True)])
    [earlier] = bulk.matches_store_bulk(documents=documents[:1], created_by=user,
                                        hashes=["first"])
    [elsewhere] = bulk.matches_store_bulk(documents=documents[:1], hashes=["first"])

    again = bulk.matches_store_bulk(documents=documents, created_by=user,
                                    hashes=["first", "second"])

    assert (again[0].match, again[0].duplicate, again[0].engine) == (earlier.match, True, None)
    assert again[1].match is not None and not again[1].duplicate
    assert elsewhere.match not in (earlier.match, None)  # no account's is its own
    assert Match.objects.filter(created_by=user).count() == 2


def test_a_copy_within_the_batch_is_the_first_ones_match():
    documents = corpus([(2, 7, True), (3, 8, True)])

    imported = bulk.matches_store_bulk(documents=[documents[0], documents[1], documents[0]],
                                       hashes=["a", "b", "a"])

    assert imported[2].match == imported[0].match and imported[2].duplicate
    assert not imported[0].duplicate
    assert Match.objects.count() == 2


def test_a_copy_of_a_refused_record_is_refused_as_it_is():
    refused = rules.export(rules.Match(rules.ALL_FIVES, ["Olena", "OLENA"]))

    imported = bulk.matches_store_bulk(documents=[refused, refused], hashes=["a", "a"])

    assert [result.refusal for result in imported] == [
        "Each player needs a different name: OLENA sits twice."] * 2
    assert Match.objects.count() == 0


def test_a_batch_the_database_refuses_is_stored_record_by_record(monkeypatch,
                                                                  django_user_model):
    """Another upload by the account stored one of the records after this batch looked
    its hashes up: the unique hash refuses the batch's INSERT, and each record goes in
    on its own, that one found stored."""
    documents = corpus([(0, 9, True), (4, 10, True), (5, 11, False)])
    user = django_user_model.objects.create_user("scorer", password="pw")
    [meanwhile] = bulk.matches_store_bulk(documents=documents[1:2], created_by=user,
                                          hashes=["b"])
    looked_up = bulk._stored_as
    calls: list[int] = []

    def too_early(digests, account):
        calls.append(1)
        return {} if len(calls) == 1 else looked_up(digests, account)

    monkeypatch.setattr(bulk, "_stored_as", too_early)
    imported = bulk.matches_store_bulk(documents=documents, created_by=user,
                                       hashes=["a", "b", "c"])

    assert imported[1].match == meanwhile.match and imported[1].duplicate
    assert all(result.match is not None and not result.duplicate
               for result in (imported[0], imported[2]))
    matches = [result.match for result in imported if result.match is not None]
    assert imported[2].summary == match_summary(matches[2])
    assert Match.objects.count() == 3
    assert [match.record_hash for match in matches] == ["a", "b", "c"]


def test_the_batch_needs_one_hash_per_record():
    with pytest.raises(ValueError, match="one hash per document"):
        bulk.matches_store_bulk(documents=corpus([(0, 1, True)]), hashes=[])


def test_a_summary_is_the_one_verified_and_equals_the_stored_matchs():
    documents = corpus([(case, 12 + case, case % 2 == 0) for case in range(len(CASES))])

    imported = bulk.matches_store_bulk(documents=documents)

    for document, result in zip(documents, imported, strict=True):
        assert result.summary == rules.summary(rules.replay(json.loads(json.dumps(document))))
        assert result.match is not None
        assert result.summary == match_summary(result.match)
    assert Event.objects.count() == sum(len(rnd["events"]) for document in documents
                                        for rnd in document["rounds"])


def test_rows_written_after_a_batch_take_keys_of_their_own():
    """The batch's keys are taken from the tables' sequences (on PostgreSQL, before
    COPY): the rows an ordinary write adds afterwards do not collide with them."""
    [stored] = bulk.matches_store_bulk(documents=corpus([(0, 3, False)]))
    after = scoring_services.match_import(document=corpus([(1, 4, False)])[0])

    assert stored.match is not None
    assert not set(stored.match.changes.values_list("pk", flat=True)) & set(
        after.changes.values_list("pk", flat=True))
    assert Round.objects.count() == stored.match.rounds.count() + after.rounds.count()
    assert RoundSide.objects.filter(round__match=after).count() == (
        after.rounds.count() * after.sides.count())


def test_an_event_row_holds_every_field_of_an_event_with_its_default():
    """A field added to events must be added to the batch's rows (and their COPY)."""
    fields = {field.name: field for field in Event._meta.concrete_fields
              if not field.primary_key}
    row = bulk.EventRow(Match(), Round(), 1, 0, "pass")

    assert set(bulk.EVENT_FIELDS) | {"recorded_at"} == set(fields)
    assert list(bulk.EVENT_COLUMNS) == [fields[name].column for name in bulk.EVENT_FIELDS] + [
        "recorded_at"]
    assert {name: getattr(row, name) for name in fields
            if fields[name].has_default() and name != "recorded_at"} == {
        name: field.get_default() for name, field in fields.items()
        if field.has_default() and name != "recorded_at"}


def test_the_statistics_are_refreshed_after_a_large_store():
    """The planner learns the match tables' sizes (PostgreSQL's ANALYZE), rather than
    planning for the tables it last knew."""
    stored = bulk.matches_store_bulk(documents=corpus([(0, 5, True), (4, 6, True)]))
    events = Event.objects.count()

    with CaptureQueriesContext(connection) as done:
        bulk.statistics_refresh()

    if connection.vendor != "postgresql":
        assert done.captured_queries == []
        return
    assert [query["sql"].split()[0] for query in done.captured_queries] == ["ANALYZE"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s",
                       [Event._meta.db_table])
        [(known,)] = cursor.fetchall()
    assert len(stored) == 2 and known == events > 0
