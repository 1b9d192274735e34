"""matches.scoring.services.play: every write goes through the rules, atomically, and
keeps the cache equal to a fresh replay."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from matches import rules
from matches.models import Event, Match, MatchStatus, Player, Round, RoundSide, Seat, Side
from matches.scoring.selectors.play import match_engine, match_record, match_summary
from matches.scoring.services import play as scoring_services
from tests.support.helpers import (
    A,
    T,
    assert_cache_equals_replay,
    live,
    play_short_round,
    snapshot,
    two_player_all_fives,
)
from tests.support.samples import expected_summary, sample_document, sample_params, sample_text

pytestmark = pytest.mark.django_db


# -- match_create ----------------------------------------------------------------------


def test_match_create_seats_four_all_fives_players_in_two_partnerships():
    match = scoring_services.match_create(game="all-fives",
                                  players=["Olena", "Taras", "Iryna", "Bohdan"])

    sides = {side.index: sorted(side.seats.values_list("position", flat=True))
             for side in match.sides.all()}
    assert sides == {0: [0, 2], 1: [1, 3]}
    assert list(match.seats.values_list("name", flat=True)) == \
        ["Olena", "Taras", "Iryna", "Bohdan"]
    assert match.status == MatchStatus.IN_PROGRESS
    assert match.target == 200  # RULES.md: 250 for two players, 200 for three or four
    assert match.rounds.count() == 0


def test_match_create_gives_each_of_three_players_a_side():
    match = scoring_services.match_create(game="five-up", players=["Olena", "Taras", "Iryna"])

    assert [list(side.seats.values_list("position", flat=True))
            for side in match.sides.order_by("index")] == [[0], [1], [2]]


def test_casual_names_stay_with_their_match():
    first = scoring_services.match_create(game="all-fives", players=["Olena", "Taras"])
    second = scoring_services.match_create(game="all-fives", players=["  olena ", "Iryna"])

    # nobody's name becomes a site-wide player: each match keeps the names it was given
    assert Player.objects.count() == 0
    assert first.seats.get(position=0).name == "Olena"
    assert second.seats.get(position=0).name == "olena"
    assert second.seats.get(position=0).player is None


def test_match_create_refuses_a_player_count_the_game_does_not_allow():
    with pytest.raises(rules.OptionError):
        scoring_services.match_create(game="all-fives", players=["A", "B", "C", "D", "E"])

    assert Match.objects.count() == 0
    assert Player.objects.count() == 0


# -- a short round, step by step ---------------------------------------------------------


def test_round_start_opens_round_one_with_zero_totals():
    match = two_player_all_fives()

    change = scoring_services.round_start(match=match, starter=0)

    round_ = match.rounds.get()
    assert (round_.number, round_.starter, round_.end, round_.settled) == (1, 0, "", False)
    assert (change.version, change.kind, change.action) == \
        (1, "start", {"start": {"starter": 0, "mode": "tracked"}})
    assert list(round_.side_totals.values_list("placements", "settlement", "score")) == \
        [(0, 0, 0), (0, 0, 0)]
    assert_cache_equals_replay(match)


def test_event_record_stores_the_play_and_its_award():
    match = two_player_all_fives()
    scoring_services.round_start(match=match, starter=0)

    change = scoring_services.event_record(match=match, action=rules.Play(0, T("5-5")))

    event = match.events.get()
    assert (change.version, change.kind, change.description) == (2, "play",
                                                                  "Olena opened with 5-5")
    assert (event.number, event.seat, event.kind, event.tile, event.at) == \
        (1, 0, "play", "5-5", "")
    assert (event.end_sum, event.points) == (10, 10)
    assert match.sides.get(index=0).score == 10
    assert_cache_equals_replay(match)


def test_a_short_round_keeps_the_cache_equal_to_a_replay_after_every_step():
    match = two_player_all_fives()
    scoring_services.round_start(match=match, starter=0)
    assert_cache_equals_replay(match)
    for action in [rules.Play(0, T("5-5")), rules.Play(1, T("0-5"), A("5-5:5"), 10),
                   rules.Play(0, T("5-6"), A("5-5:5"))]:
        scoring_services.event_record(match=match, action=action)
        assert_cache_equals_replay(match)

    scoring_services.round_settle(match=match, hands=[[], [T("1-2")]])
    assert_cache_equals_replay(match)

    round_ = match.rounds.get()
    assert (round_.end, round_.finisher, round_.settled) == ("domino", 0, True)
    assert round_.hands == [[], ["1-2"]]
    assert list(match.sides.order_by("index").values_list("score", flat=True)) == [15, 10]
    assert list(round_.side_totals.values_list("placements", "settlement", "score")) == \
        [(10, 5, 15), (10, 0, 10)]


def test_the_round_ends_by_itself_when_a_hand_is_empty():
    match = two_player_all_fives()

    play_short_round(match)

    round_ = match.rounds.get()
    assert (round_.end, round_.finisher, round_.settled) == ("domino", 0, False)


def test_round_settle_with_pips():
    match = two_player_all_fives()
    play_short_round(match)

    scoring_services.round_settle(match=match, pips=[0, 3])

    round_ = match.rounds.get()
    assert (round_.pips, round_.hands) == ([0, 3], None)
    assert match.sides.get(index=0).score == 15
    assert_cache_equals_replay(match)


def test_event_undo_steps_back_through_a_settlement_into_the_previous_round():
    match = two_player_all_fives()
    play_short_round(match)
    scoring_services.round_settle(match=match, hands=[[], [T("1-2")]])
    scoring_services.round_start(match=match, starter=0)
    scoring_services.event_record(match=match, action=rules.Play(0, T("6-6")))
    assert_cache_equals_replay(match)

    undone = [scoring_services.event_undo(match=match)]
    assert_cache_equals_replay(match)
    assert live(match.rounds).count() == 2 and live(match.events).count() == 3

    undone.append(scoring_services.event_undo(match=match))  # the start of round 2
    assert_cache_equals_replay(match)
    assert live(match.rounds).count() == 1
    assert RoundSide.objects.filter(round__match=match).count() == 2

    undone.append(scoring_services.event_undo(match=match))  # the settlement of round 1
    assert_cache_equals_replay(match)
    round_ = live(match.rounds).get()
    assert (round_.settled, round_.hands, round_.end) == (False, None, "domino")
    assert list(match.sides.order_by("index").values_list("score", flat=True)) == [10, 10]

    undone.append(scoring_services.event_undo(match=match))  # 5-6, Olena's going out
    assert_cache_equals_replay(match)
    round_.refresh_from_db()
    assert (round_.end, round_.finisher) == ("", None)
    assert live(match.events).count() == 2

    assert [next(iter(change.action)) for change in undone] == \
        ["play", "start", "settle", "play"]
    assert [change.kind for change in undone] == ["undo"] * 4
    # nothing was deleted: every row taken back names the undo that took it
    assert match.events.count() == 4 and match.rounds.count() == 2
    assert match.events.get(tile="6-6").undone_by == undone[0]
    assert match.rounds.get(number=2).undone_by == undone[1]
    assert match.events.get(tile="5-6").undone_by == undone[3]


def test_event_undo_with_nothing_to_undo_is_refused():
    match = two_player_all_fives()

    with pytest.raises(rules.RulesError, match="^there is nothing to undo$"):
        scoring_services.event_undo(match=match)


def test_event_undo_of_the_winning_play_reopens_the_match():
    match = two_player_all_fives(target=10)
    scoring_services.round_start(match=match, starter=0)
    scoring_services.event_record(match=match, action=rules.Play(0, T("5-5")))
    match.refresh_from_db()
    assert (match.status, match.winner_side) == (MatchStatus.FINISHED, 0)
    assert match.finished_at is not None

    scoring_services.event_undo(match=match)

    match.refresh_from_db()
    assert (match.status, match.winner_side, match.finished_at) == \
        (MatchStatus.IN_PROGRESS, None, None)
    assert_cache_equals_replay(match)


# -- atomicity: a refused action changes nothing -----------------------------------------


def _match_mid_round():
    match = two_player_all_fives()
    scoring_services.round_start(match=match, starter=0)
    scoring_services.event_record(match=match, action=rules.Play(0, T("5-5")))
    return match


@pytest.mark.parametrize(("action", "error", "message"), [
    (rules.Play(1, T("1-2"), A("5-5:5")), rules.IllegalPlacement,
     "tile 1-2 has no 5 to join 5-5:5"),
    (rules.Play(0, T("0-5"), A("5-5:5")), rules.NotYourTurn,
     "it is Taras's turn, not Olena's"),
    (rules.Pass(1), rules.BoneyardNotEmpty,
     "Taras cannot pass while the boneyard holds 24 tiles"),
    (rules.Play(1, T("5-5"), A("5-5:5")), rules.TileOnTable, None),
], ids=["illegal-placement", "wrong-turn", "pass-with-boneyard", "tile-on-table"])
def test_a_refused_event_leaves_the_match_exactly_as_before(action, error, message):
    match = _match_mid_round()
    before = snapshot(match)

    with pytest.raises(error) as excinfo:
        scoring_services.event_record(match=match, action=action)

    if message is not None:
        assert str(excinfo.value) == message
    assert snapshot(match) == before
    assert_cache_equals_replay(match)


def test_a_miscalled_placement_is_recorded_with_the_rules_points_and_the_call_kept():
    match = _match_mid_round()

    match.refresh_from_db()
    version = match.version
    change = scoring_services.event_record(match=match,
                                           action=rules.Play(1, T("0-5"), A("5-5:5"), 15))

    match.refresh_from_db()
    assert match.version == change.version == version + 1  # one write, one version

    event = match.events.get(tile="0-5")
    assert (event.points, event.claim, event.miscall) == (10, None, 15)
    assert change.miscall == "claim 15 differs from the 10 the rules give (end sum 10)"
    assert change.description == ("Taras played 0-5 on the double 5 (miscalled: claim 15 "
                                  "differs from the 10 the rules give (end sum 10))")
    assert match.sides.get(index=1).score == 10
    assert_cache_equals_replay(match)


def test_a_miscall_on_an_illegal_placement_is_refused_for_the_placement():
    match = _match_mid_round()
    before = snapshot(match)

    with pytest.raises(rules.IllegalPlacement):
        scoring_services.event_record(match=match, action=rules.Play(1, T("1-2"), A("5-5:5"), 15))

    assert snapshot(match) == before


def test_a_miscalled_called_placement_keeps_its_ends_and_the_call():
    match = two_player_all_fives()
    scoring_services.round_start(match=match, starter=None, mode="ends")

    scoring_services.event_record(match=match, action=rules.Call(
        0, (rules.ScoringEnd(5, double=True), rules.ScoringEnd(5)), claim=20))

    event = match.events.get()
    assert (event.points, event.end_sum, event.miscall) == (15, 15, 20)


def test_a_refused_settlement_leaves_the_match_exactly_as_before():
    match = two_player_all_fives()
    play_short_round(match)
    before = snapshot(match)

    with pytest.raises(rules.HandsMismatch):
        scoring_services.round_settle(match=match, hands=[[], [T("5-5")]])  # 5-5 is on the table

    assert snapshot(match) == before


def test_a_refused_round_start_leaves_the_match_exactly_as_before():
    match = two_player_all_fives()
    play_short_round(match)
    before = snapshot(match)

    with pytest.raises(rules.RoundOver):
        scoring_services.round_start(match=match, starter=0)  # round 1 is not settled yet

    assert snapshot(match) == before


def test_settling_a_round_that_has_not_ended_is_refused():
    match = _match_mid_round()
    before = snapshot(match)

    with pytest.raises(rules.RoundOver):
        scoring_services.round_settle(match=match, pips=[0, 3])

    assert snapshot(match) == before


# -- match_import ----------------------------------------------------------------------


@pytest.mark.parametrize("name", sample_params("valid"))
def test_match_import_of_a_valid_sample_gives_its_expected_summary(name):
    match = scoring_services.match_import(document=sample_document(name))

    expected = expected_summary(name)
    assert match_summary(match) == expected
    assert rules.summary(rules.replay(match_record(match))) == expected
    assert match.status == expected["status"]
    assert match.winner_side == expected["winner"]
    assert_cache_equals_replay(match)


@pytest.mark.parametrize("name", sample_params("valid"))
def test_match_import_stores_the_record_event_for_event(name):
    document = sample_document(name)

    match = scoring_services.match_import(document=document)

    # the same record the engine writes (tile notation normalised: "6-1" is 1-6)
    assert match_record(match) == rules.export(rules.replay(document))
    assert Event.objects.filter(match=match).count() == \
        sum(len(r["events"]) for r in document["rounds"])


def test_match_import_keeps_the_finisher_of_a_called_round_won_by_its_last_tile():
    # All Fives to 15: Taras's last tile makes ends 4 + 1 and takes him from 10 to 15
    document = {"format": "domino-match/1", "game": "all-fives", "players": ["Olena", "Taras"],
                "options": {"target": 15}, "rounds": [{"mode": "ends", "events": [
                    {"seat": 0, "ends": ["5-5"]}, {"seat": 1, "ends": ["5-5", "0"]},
                    {"seat": 1, "ends": ["4", "1"]}], "result": {"domino": 1}}]}

    match = scoring_services.match_import(document=document)

    assert match_summary(match)["rounds"][0]["finisher"] == 1
    assert match_record(match) == document  # the result stays with the match
    assert Event.objects.get(match=match, number=3).goes_out
    assert_cache_equals_replay(match)


@pytest.mark.parametrize("name", sample_params("invalid"))
def test_match_import_refuses_an_invalid_sample_and_stores_nothing(name):
    from tests.support.samples import sample_kind

    before = (Match.objects.count(), Player.objects.count(), Event.objects.count(),
              Round.objects.count(), Side.objects.count(), Seat.objects.count())
    try:
        document = rules.loads(sample_text("invalid", name))
    except rules.RecordInvalid as error:
        assert sample_kind(name) == "malformed-json", str(error)
        return

    with pytest.raises(rules.RecordInvalid):
        scoring_services.match_import(document=document)

    assert (Match.objects.count(), Player.objects.count(), Event.objects.count(),
            Round.objects.count(), Side.objects.count(), Seat.objects.count()) == before


def test_match_import_refusal_names_the_round_and_event():
    document = {"format": "domino-match/1", "game": "all-fives", "players": ["A", "B"],
                "rounds": [{"starter": 0, "events": [{"seat": 0, "play": "5-5"},
                                                     {"seat": 0, "play": "5-6",
                                                      "at": "5-5:5"}]}]}

    message = "^round 1, event 2: it is seat 1's turn, not seat 0's$"
    with pytest.raises(rules.RecordInvalid, match=message):
        scoring_services.match_import(document=document)

    assert Match.objects.count() == 0


@pytest.mark.parametrize("name", [n for n in sample_params("valid")
                                  if isinstance(n, str) and "unfinished" in n]
                         or sample_params("valid")[:1])
def test_match_import_stores_an_unfinished_sample_as_in_progress(name):
    match = scoring_services.match_import(document=sample_document(name))

    assert match.status == MatchStatus.IN_PROGRESS
    assert (match.winner_side, match.finished_at) == (None, None)
    assert expected_summary(name)["status"] == "in-progress"


def test_match_import_records_who_imported(django_user_model):
    user = django_user_model.objects.create_user("scorer", password="pw")
    document = rules.export(rules.Match(rules.ALL_FIVES, ["Olena", "Taras"]))

    match = scoring_services.match_import(document=document, created_by=user)

    assert match.created_by == user
    assert match.rounds.count() == 0


@pytest.mark.django_db
def test_one_player_cannot_hold_two_seats():
    with pytest.raises(ValidationError) as caught:
        scoring_services.match_create(game="all-fives", players=["Olena", " olena "])
    assert caught.value.error_dict["players"][0].code == "players_different"
    assert Match.objects.count() == 0


@pytest.mark.django_db
def test_match_start_stores_the_match_and_its_first_round_or_nothing():
    with pytest.raises(rules.RulesError, match="seat 5 is not at this table"):
        scoring_services.match_start(game="all-fives", players=["Olena", "Taras"], starter=5)
    assert Match.objects.count() == 0 and Player.objects.count() == 0
    started = scoring_services.match_start(game="five-up", players=["Olena", "Taras", "Iryna"])
    first = started.match.rounds.get()
    assert started.first is not None and started.first.lots_drawn
    assert first.number == 1 and first.starter in (0, 1, 2)
    assert started.grant.is_creator and started.created


@pytest.mark.django_db
def test_a_fives_and_threes_match_without_a_starter_waits_for_the_highest_double():
    """No lots in Fives and Threes (RULES.md §4.3): a fixture's game or a rematch, started
    without a starter, opens on the scorepad asking who holds the highest double."""
    started = scoring_services.match_start(game="fives-and-threes", players=["Olena", "Taras"])

    assert started.first is None and not started.match.rounds.exists()
    assert match_engine(started.match).phase == "start"
    called = scoring_services.match_start(game="fives-and-threes", players=["Olena", "Taras"],
                                  mode="ends")
    assert called.match.rounds.get().starter is None  # a called round may leave it unsaid


@pytest.mark.django_db
def test_round_start_lets_the_finisher_start_and_draws_lots_after_a_block():
    match = two_player_all_fives()
    play_short_round(match)
    scoring_services.round_settle(match=match, pips=(0, 9))
    second = scoring_services.round_start(match=match, starter=None, draw_lots=True)
    assert (second.action["start"]["starter"], second.lots_drawn) == (0, False)  # Olena out
    scoring_services.event_undo(match=match)
    with pytest.raises(rules.RulesError, match="Olena placed the last tile of round 1 and "
                                               "must start, not Taras"):
        scoring_services.round_start(match=match, starter=1)


@pytest.mark.django_db
def test_a_write_from_an_out_of_date_page_is_refused_and_changes_nothing():
    match = two_player_all_fives()
    scoring_services.round_start(match=match, starter=0)
    scoring_services.placement_record(match=match, seat=0, tile=T("5-5"), version=1)
    before = snapshot(match)
    for write in (
        lambda: scoring_services.placement_record(match=match, seat=1, tile=T("0-5"), at=A("5-5:5"),
                                          version=1),
        lambda: scoring_services.draw_record(match=match, seat=1, tiles=1, version=1),
        lambda: scoring_services.event_undo(match=match, version=3),
        lambda: scoring_services.round_settle(match=match, pips=(0, 0), version=0),
    ):
        with pytest.raises(scoring_services.OutOfDate):
            write()
        assert snapshot(match) == before


@pytest.mark.django_db
def test_play_draw_and_pass_are_refused_for_a_seat_whose_turn_it_is_not():
    match = two_player_all_fives()
    scoring_services.round_start(match=match, starter=1)
    scoring_services.placement_record(match=match, seat=1, tile=T("5-5"))
    before = snapshot(match)
    for write in (
        lambda: scoring_services.placement_record(match=match, seat=1, tile=T("0-5"),
                                                  at=A("5-5:5")),
        lambda: scoring_services.draw_record(match=match, seat=1, tiles=1),
        lambda: scoring_services.pass_record(match=match, seat=1),
    ):
        with pytest.raises(rules.NotYourTurn):
            write()
        assert snapshot(match) == before
    scoring_services.draw_record(match=match, seat=0, tiles=3)
    change = scoring_services.placement_record(match=match, seat=0, tile=T("0-5"), at=A("5-5:5"),
                                       claim=10)
    event = live(match.events).order_by("-number").first()
    assert (event.seat, event.points, event.end_sum) == (0, 10, 10)
    assert change.description == "Olena played 0-5 on the double 5"
    with pytest.raises(rules.BoneyardNotEmpty, match="Taras cannot pass while the boneyard "
                                                     "holds 21 tiles"):
        scoring_services.pass_record(match=match, seat=1)


@pytest.mark.django_db
def test_pip_totals_possible_alone_but_not_together_are_refused_and_nothing_is_stored():
    # five seats at double-nine, a called round blocked at once: 495 pips are unseen,
    # each seat's 100 is possible alone, five of them together are not
    match = scoring_services.match_create(game="fives-and-threes",
                                  players=["Olena", "Taras", "Iryna", "Bohdan", "Petro"],
                                  options={"set": "double-nine"})
    scoring_services.round_start(match=match, starter=0, mode="ends")
    before = snapshot(match)
    with pytest.raises(rules.HandsMismatch, match="^pips: no way to deal the unseen tiles "
                                                  "so that Olena, Taras, Iryna, Bohdan and "
                                                  "Petro hold 100, 100, 100, 100 and 100 "
                                                  "together$"):
        scoring_services.round_settle(match=match, pips=(100,) * 5, result=rules.RoundEnd.BLOCKED)
    assert snapshot(match) == before
    scoring_services.round_settle(match=match, pips=(99, 99, 99, 99, 99),
                                  result=rules.RoundEnd.BLOCKED)
    assert_cache_equals_replay(match)


@pytest.mark.django_db
def test_a_phone_is_named_and_renamed_within_the_names_length():
    match = two_player_all_fives()
    grant = scoring_services.grant_create(match=match, phone="iPhone", name="Table 3")
    assert (grant.label, grant.name) == ("iPhone", "Table 3")
    with pytest.raises(ValidationError) as refused:
        scoring_services.grant_rename(grant=grant, name="x" * 41)
    assert list(refused.value.message_dict) == ["name"]
    grant.refresh_from_db()
    assert grant.name == "Table 3"
    scoring_services.grant_rename(grant=grant, name="")
    grant.refresh_from_db()
    assert grant.name == ""
