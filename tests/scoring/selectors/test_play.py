"""matches.scoring.selectors.play: a match, its phones and its changes as the pages find
them, which phone may revoke which (can_revoke), and a match replayed from its rows."""

from __future__ import annotations

import uuid

import pytest
from django.http import Http404

from matches import rules
from matches.models import Event
from matches.scoring.selectors import play as scoring_selectors
from matches.scoring.services.play import (
    MatchStarted,
    event_record,
    event_undo,
    grant_create,
    grant_revoke,
    match_start,
    round_settle,
    round_start,
)
from tests.support.helpers import A, T, two_player_all_fives

pytestmark = pytest.mark.django_db


def started() -> MatchStarted:
    return match_start(game="all-fives", players=["Olena", "Taras"],
                                options={"hand_size": 2}, starter=0,
                                creation_key=uuid.uuid4(), phone="Android phone")


def test_match_by_public_id_or_a_404():
    match = two_player_all_fives()
    assert scoring_selectors.match_by_public_id(public_id=match.public_id) == match
    with pytest.raises(Http404):
        scoring_selectors.match_by_public_id(public_id=uuid.uuid4())


def test_match_grant_is_the_matchs_own_phone_or_a_404():
    first, other = started(), started()
    assert scoring_selectors.match_grant(match=first.match, pk=first.grant.pk) == first.grant
    with pytest.raises(Http404):
        scoring_selectors.match_grant(match=first.match, pk=other.grant.pk)


def test_change_by_key_finds_the_taps_change():
    match = two_player_all_fives()
    key = uuid.uuid4()
    round_start(match=match, starter=0)
    change = event_record(match=match, action=rules.Play(0, T("5-5")), key=key)
    assert scoring_selectors.change_by_key(match=match, key=key) == change
    assert scoring_selectors.change_by_key(match=match, key=uuid.uuid4()) is None


def test_match_fresh_reads_what_another_write_changed():
    match = two_player_all_fives()
    seen = scoring_selectors.match_by_public_id(public_id=match.public_id)
    round_start(match=match, starter=0)
    assert scoring_selectors.match_fresh(match=seen, fields=["version"]).version == 1


def test_a_phone_may_revoke_itself_and_others_but_not_the_starting_phone():
    first = started()
    one = grant_create(match=first.match, phone="iPhone")
    two = grant_create(match=first.match, phone="iPhone")
    stranger = started().grant
    assert scoring_selectors.can_revoke(grant=two, by=one)
    assert scoring_selectors.can_revoke(grant=one, by=one)
    assert scoring_selectors.can_revoke(grant=one, by=first.grant)
    assert scoring_selectors.can_revoke(grant=first.grant, by=first.grant)
    assert not scoring_selectors.can_revoke(grant=first.grant, by=one)
    assert not scoring_selectors.can_revoke(grant=one, by=stranger)
    assert not scoring_selectors.can_revoke(grant=one, by=None)
    grant_revoke(grant=two, by=two)
    assert not scoring_selectors.can_revoke(grant=one, by=two)  # revoked: no longer a scorer



def test_a_match_is_replayed_from_its_event_rows_without_making_an_event_instance(
        monkeypatch):
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))
    event_record(match=match, action=rules.Play(1, T("0-5"), A("5-5:5")))
    event_undo(match=match)  # taken back: not replayed, but its number is used
    event_record(match=match, action=rules.Play(1, T("0-5"), A("5-5:5"), 15))  # miscalled
    event_record(match=match, action=rules.Play(0, T("5-6"), A("5-5:5")))
    round_settle(match=match, hands=[[], [T("1-2")]])
    round_start(match=match, starter=0, mode=rules.RoundMode.CALLED.value)
    event_record(match=match, action=rules.Call(1, (rules.ScoringEnd.parse("5"),
                                                    rules.ScoringEnd.parse("5")), 10))
    expected = rules.Match.replay(match.rules_game, ["Olena", "Taras"], match.options, [
        rules.StartRound(0), rules.Play(0, T("5-5")), rules.Play(1, T("0-5"), A("5-5:5")),
        rules.Play(0, T("5-6"), A("5-5:5")), rules.Settle(((), (T("1-2"),)), None),
        rules.StartRound(0, rules.RoundMode.CALLED),
        rules.Call(1, (rules.ScoringEnd.parse("5"), rules.ScoringEnd.parse("5")), 10)])
    monkeypatch.setattr(Event, "from_db", classmethod(_no_instance))

    engine = scoring_selectors.match_engine(match)
    replayed = scoring_selectors.match_replayed(match)

    for built in (engine, replayed.engine):
        assert rules.export(built) == rules.export(expected)
        assert built.scores == expected.scores == [15, 20]
    assert replayed.last_event == 5
    assert replayed.miscalls == {1: [
        "Taras called 15 for 0-5; the rules give 10, which counted"]}


def _no_instance(cls, *args, **kwargs):
    raise AssertionError("an Event instance was made to replay the match")


def test_records_of_many_matches_are_read_three_queries_a_batch_each_as_its_own_replay(
        monkeypatch, django_assert_num_queries):
    monkeypatch.setattr(scoring_selectors, "RECORDS_A_READ", 2)
    matches = [two_player_all_fives() for _ in range(5)]  # the first never started
    for number, match in enumerate(matches[1:], start=1):
        round_start(match=match, starter=number % 2)
        event_record(match=match, action=rules.Play(number % 2, T("5-5")))
    event_undo(match=matches[4])  # taken back: not in its record
    expected = [rules.export(scoring_selectors.match_engine(match)) for match in matches]

    with django_assert_num_queries(3 * 3):  # seats, rounds, events: for 2, 2 and 1
        records = list(scoring_selectors.match_records(matches))

    assert records == expected
    assert [len(record["rounds"]) for record in records] == [0, 1, 1, 1, 1]
    assert [len(record["rounds"][0]["events"]) for record in records[1:]] == [1, 1, 1, 0]
    assert records[2]["players"] == ["Olena", "Taras"]


def test_a_change_is_in_force_until_another_takes_back_what_it_did():
    """What a tap sent again is told (change_in_force): a placement stands until an undo
    or a restore takes it off; an undo, until what it took back is back; a rename always;
    an abandon, while the match is abandoned."""
    from matches.scoring.services.lifecycle import match_abandon, match_resume, seats_rename
    from matches.scoring.services.play import match_restore

    started_match = started()
    match, grant = started_match.match, started_match.grant

    def in_force(change) -> bool:
        match.refresh_from_db()
        return scoring_selectors.change_in_force(match=match, change=change)

    opening = event_record(match=match, action=rules.Play(0, T("5-5")))
    assert in_force(opening)
    undo = event_undo(match=match)
    assert not in_force(opening) and in_force(undo)
    start_undone = event_undo(match=match)  # the round's start taken back too
    assert in_force(undo) and in_force(start_undone)
    renamed = seats_rename(match=match, names=["Olya", "Taras"])
    assert renamed is not None and in_force(renamed)
    match_restore(match=match, to_version=opening.version, grant=grant)  # 5-5 is back
    assert in_force(opening) and not in_force(undo) and in_force(renamed)
    abandoned = match_abandon(match=match, grant=grant)
    assert in_force(abandoned)
    match_resume(match=match, grant=grant)
    assert not in_force(abandoned) and in_force(opening)
