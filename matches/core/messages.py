"""The rules engine's words in the reader's language.

The engine (``matches.rules``, no Django there) says what went wrong as a stable code
and its parameters (:class:`~matches.rules.RulesError`'s ``code`` and ``params``), and
writes its settlement steps and refused awards as :class:`~matches.rules.errors.Message`
values the same way; ``str()`` of either is English. This module maps each code to a
translatable text with the same named placeholders and renders it in the active
language: :func:`explain` for an error, :func:`say` for a message. An error made
outside the engine, or a code not listed here, falls back to its own ``str()``.

Every code in :data:`matches.rules.errors.MESSAGES` has a template here, with the same
placeholders (tests/core/test_messages.py checks both).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from matches import rules
from matches.rules.errors import Message, Param
from matches.rules.record import RecordInvalid

StrOrPromise = str | Promise

TEMPLATES: Final[dict[str, StrOrPromise]] = {
    "tile_pips": _('%(a)s-%(b)s is not a tile (pips are whole numbers from 0)'),
    "not_a_tile": _('%(text)s is not a tile (write it as a-b)'),
    "tile_not_in_set": _('tile %(tile)s is not in the %(set)s set'),
    "value_not_in_set": _('%(value)s is not a value of the %(set)s set'),
    "not_an_attachment_point": _('%(text)s is not an attachment point (write it as c-d:v)'),
    "not_a_scoring_end": _('%(text)s is not a scoring end (a value, or d-d for a double)'),
    "tile_on_table": _('tile %(tile)s is already on the table'),
    "opening_attached": _(
        '%(tile)s is the opening tile; there is nothing to attach it to at %(at)s'),
    "needs_attachment_point": _('tile %(tile)s needs an attachment point (c-d:v)'),
    "point_tile_not_on_table": _('attachment point %(at)s: tile %(end_tile)s is not on the table'),
    "point_no_such_end": _('attachment point %(at)s: tile %(end_tile)s has no %(value)s end'),
    "tile_cannot_join": _('tile %(tile)s has no %(value)s to join %(at)s'),
    "spinner_full": _(
        'cannot join %(tile)s at %(at)s: spinner %(double)s has both line sides and both flanks '
        'filled'),
    "double_full": _(
        'cannot join %(tile)s at %(at)s: double %(double)s is not a spinner and both its line '
        'sides are filled'),
    "end_taken": _(
        'cannot join %(tile)s at %(at)s: the %(value)s end of %(end_tile)s is already taken'),
    "option_not_for_game": _('option %(option)s does not apply to %(game)s'),
    "option_set": _('option set must be one of %(choices)s, not %(value)s'),
    "option_deal": _("option deal must be 'full' or 'short', not %(value)s"),
    "option_flag": _('option %(option)s must be true or false, not %(value)s'),
    "option_divisors": _(
        'option divisors must be a list of different whole numbers of at least 2, not %(value)s'),
    "option_positive": _('option %(option)s must be a positive integer, not %(value)s'),
    "option_target_max": _('option target must be at most %(most)s, not %(value)s'),
    "option_hand_size": _(
        'option hand_size must be a positive integer with hand_size x %(players)s players <= '
        '%(tiles)s tiles, not %(value)s'),
    "unknown_game": _('unknown game %(value)s (expected one of %(choices)s)'),
    "nothing_to_undo": _('there is nothing to undo'),
    "seat_not_at_table": _('seat %(seat)s is not at this table (seats 0 to %(last)s)'),
    "match_won_no_round": _('the match was already won; no round may follow'),
    "match_won_no_event": _('the match was already won; no event may follow'),
    "match_won_no_count": _('the match was won during this round; it takes no hands or pips'),
    "round_not_settled": _(
        'round %(round)s has ended but is not settled: give its hands or pips first'),
    "round_not_ended": _('round %(round)s has not ended'),
    "starter_needed": _('a tracked round needs a starter'),
    "starter_holds_double": _('whoever holds the highest double starts the round: say who'),
    "wrong_starter": _(
        '%(required)s placed the last tile of round %(round)s and must start, not %(starter)s'),
    "no_round": _('no round is in play: start a round first'),
    "round_ended": _('the round already ended (%(end)s)'),
    "round_is_tracked": _('this round is tracked: enter the tile played, not its ends'),
    "round_is_called": _('this round is called: enter the scoring ends of each scoring placement'),
    "not_your_turn": _("%(turn)s is to play, not %(who)s"),
    "opens_with_play": _('the round opens with a play: %(who)s places the first tile'),
    "drawing_off": _('drawing is off in this match: there is no boneyard'),
    "draw_count": _('a draw is of 1 tile or more, not %(count)s'),
    "draw_too_many": _('%(who)s cannot draw %(count)s: the boneyard holds %(boneyard)s'),
    "call_no_ends": _('a called placement lists at least one scoring end'),
    "end_not_double_of_set": _("end '%(end)s' is not a double of the set"),
    "duplicate_end": _('end %(end)s is listed twice: the set has one %(end)s'),
    "ends_of_value_too_many": _('%(count)s ends show %(value)s: the set has %(most)s tiles '
                                'with a %(value)s besides the double'),
    "call_ends_past_spinners": _(
        'with the terminal doubles %(doubles)s a layout shows at most %(most)s scoring ends, '
        'not %(count)s'),
    "ends_share_tiles": _('%(count)s ends show the values %(values)s: the set has only '
                          '%(most)s tiles besides the doubles with any of them'),
    "claim_mismatch": _(
        'claim %(claim)s differs from the %(total)s the rules give (end sum %(end_sum)s)'),
    "no_round_to_settle": _('no round is waiting to be settled'),
    "round_not_over": _(
        'the round has not ended: it ends by itself when a hand is empty or every seat has passed'),
    "count_required": _('the round ended (%(end)s); its hands or pips are required'),
    "settled_when_ended": _(
        'round %(round)s was settled when it ended: remaining tiles score nothing in %(game)s'),
    "hands_and_pips": _('give hands or pips, not both'),
    "went_out_last_call": _('%(who)s went out with the last call; the result must say so'),
    "result_domino_differs": _("the round ended with %(who)s's domino, not as given"),
    "result_blocked_differs": _('the round ended blocked, not as given'),
    "result_needed": _('a called round needs its result: who went out, or blocked'),
    "mark_going_out": _(
        "in %(game)s the last call of the round is %(who)s's going-out placement; mark it as "
        "going out"),
    "hands_empty": _('hands: %(who)s did not go out, so holds at least one tile'),
    "hands_not_in_set": _('hands: %(who)s shows %(tile)s, which is not in the %(set)s set'),
    "hands_on_table": _('hands: %(who)s shows %(tile)s, which is on the table'),
    "hands_shown_twice": _('hands: %(who)s shows %(tile)s and %(other)s also shows it'),
    "pips_negative": _('pips: %(who)s cannot hold %(total)s pips'),
    "pips_went_out": _('pips: %(who)s went out and cannot hold %(total)s pips'),
    "pips_one_tile": _('pips: no unseen tile adds up to %(total)s (%(who)s)'),
    "pips_unseen": _('pips: no unseen tiles add up to %(total)s (%(who)s)'),
    "pips_deal_one": _('pips: no way to deal the unseen tiles so that %(who)s holds %(total)s'),
    "pips_deal": _(
        'pips: no way to deal the unseen tiles so that %(names)s hold %(totals)s together'),
    "step_went_out": _('%(side)s went out and wins the round'),
    "step_partner_went_out": _('%(seat)s went out: %(side)s win the round'),
    "pass_held_fit": _('note: %(who)s passed holding %(tiles)s, which fitted an open end '
                       '(a pass is for a player who cannot play)'),
    "step_blocked_lowest": _('blocked: %(side)s has the lowest total and wins the round'),
    "step_blocked_lowest_pair": _('blocked: %(side)s have the lowest total and win the '
                                  'round'),
    "step_blocked_tie": _('blocked: %(first)s and %(second)s tie for lowest'),
    "step_split": _('split equally: %(points)s each'),
    "step_no_award": _('blocked with equal lowest totals: no remainder award'),
    "step_opponents_pips": _("opponents' pips: %(pips)s"),
    "step_scores": _('%(side)s scores %(points)s'),
    "step_scores_pair": _('%(side)s score %(points)s'),
    "step_multiple": _('%(pips)s is a multiple of 5'),
    "step_rounds_down": _('%(pips)s rounds down to %(rounded)s (remainder %(remainder)s)'),
    "step_rounds_up": _('%(pips)s rounds up to %(rounded)s (remainder %(remainder)s)'),
    "step_deduct_multiple": _('%(side)s: %(pips)s is a multiple of 5, −%(cost)s'),
    "step_deduct_down": _(
        '%(side)s: %(pips)s rounds down to %(rounded)s (remainder %(remainder)s), −%(cost)s'),
    "step_deduct_up": _(
        '%(side)s: %(pips)s rounds up to %(rounded)s (remainder %(remainder)s), −%(cost)s'),
    "step_out_no_deduction": _('%(side)s went out: no tiles, no deduction'),
    "step_no_deduction_multiple": _('%(side)s: %(pips)s is a multiple of 5, no deduction'),
    "step_no_deduction_down": _(
        '%(side)s: %(pips)s rounds down to %(rounded)s (remainder %(remainder)s), no deduction'),
    "step_nothing_remaining": _('remaining tiles score nothing'),
    "refused_overshoot": _(
        '%(total)s would take %(side)s from %(score)s past the target %(target)s'),
    "record_digits": _('not a match record: a number in it has thousands of digits'),
    "record_nul": _('a text in the record holds a NUL character (\\u0000), which cannot be stored'),
    "record_surrogate": _('a text in the record holds half of a character (an escape from '
                          '\\ud800 to \\udfff without its other half), which cannot be stored'),
    "invalid_json": _('not valid JSON at line %(line)s, column %(column)s (character '
                      '%(char)s): %(message)s'),
    "not_utf8": _('not readable as %(codec)s text: byte %(byte)s at %(position)s '
                  '(%(reason)s); save the file as UTF-8'),
    "record_not_object": _('a match record is a JSON object'),
    "record_format": _('format must be %(expected)s, not %(value)s'),
    "record_players": _('players must be a list of names'),
    "record_player_nul": _(
        'players: a name holds a NUL character (\\u0000), which cannot be stored'),
    "record_options": _('options must be an object'),
    "record_rounds": _('rounds must be a list'),
    "record_round_object": _('a round is an object'),
    "record_mode": _("mode must be 'ends' (a called round) or absent, not %(value)s"),
    "record_starter": _('starter must be a seat number, not %(value)s'),
    "record_events": _('events must be a list'),
    "record_going_out_seat": _(
        "the round ended with %(who)s's domino, so the last call must be that seat's going-out "
        "placement, not %(other)s's"),
    "record_going_out_last": _(
        'a called round that ends in a domino lists the going-out placement last'),
    "record_won_no_count": _('the match was won during this round; hands and pips are refused'),
    "record_won_result": _(
        "the match was won with %(who)s's placement during this round: its result can only "
        "be %(who)s's domino (the winning tile was the last), or none"),
    "record_not_ended_count": _('the round has not ended; hands and pips are refused'),
    "record_not_ended_next": _('the round has not ended, yet another round follows'),
    "record_result_seat": _('result: seat %(seat)s is not at this table'),
    "record_result": _('result must be {"domino": seat} or {"blocked": true}, not %(value)s'),
    "record_event_seat": _('an event needs a seat'),
    "record_seat_type": _('seat must be an integer, not %(value)s'),
    "record_claim": _('claim must be a number of points, not %(value)s'),
    "record_event_object": _('an event is an object'),
    "record_event_kind": _('an event is exactly one of play, draw or pass'),
    "record_takes_no": _('%(kind)s takes no %(field)s'),
    "record_draw": _('draw must be a whole number of tiles from 1, not %(value)s'),
    "record_pass": _('pass must be true, not %(value)s'),
    "record_ends": _('a called placement lists its scoring ends ("ends")'),
    "record_hands": _('hands must be a list of tile lists, one per seat'),
    "record_pips": _('pips must be a list of pip totals, one per seat'),
    "record_pips_value": _('pips: %(value)s is not a whole number'),
    "record_unknown_field": _('unknown field %(field)s in the record'),
    "round_unknown_field": _('unknown field %(field)s in a round'),
    "event_unknown_field": _('unknown field %(field)s in an event'),
    "league_not_object": _('a league record is a JSON object'),
    "league_unknown_field": _('unknown field %(field)s in the league record'),
    "league_digits": _('not a league record: a number in it has thousands of digits'),
    "league_nul": _('a text in the league record holds a NUL character (\\u0000), which '
                    'cannot be stored'),
    "league_surrogate": _('a text in the league record holds half of a character (an escape '
                          'from \\ud800 to \\udfff without its other half), which cannot '
                          'be stored'),
    "unknown_field": _('unknown field %(field)s'),
    "missing": _('is missing'),
    "league_format": _('must be %(expected)s, not %(value)s'),
    "must_be_list": _('must be a list, not %(value)s'),
    "must_be_object": _('must be an object, not %(value)s'),
    "blank_text": _('must be non-blank text, not %(value)s'),
    "whole_number": _('must be a whole number from 0, not %(value)s'),
    "entrant_name_taken": _(
        '%(name)s is already the name of entrants[%(place)s] (names are compared '
        'case-insensitively)'),
    "entrant_players": _('must be a list of non-blank names, not %(value)s'),
    "walkover_pair": _('must be [w, l], two whole numbers from 0, not %(value)s'),
    "walkover_order": _('w must be more than l, not %(value)s'),
    "bonus_object": _('must be an object with margin and points, not %(value)s'),
    "unknown_tiebreak": _('unknown tie-breaker %(value)s (expected one of %(choices)s)'),
    "unknown_tiebreak_bare": _('unknown tie-breaker %(value)s'),
    "tiebreak_twice": _('%(value)s is already listed at tiebreaks[%(place)s]'),
    "home_is_away": _('home and away are both %(name)s'),
    "fixture_no_outcome": _('needs exactly one of result, walkover, postponed or void, not none'),
    "fixture_outcomes": _(
        'needs exactly one of result, walkover, postponed or void, not %(found)s'),
    "games_without_result": _('games go only with a result, not with %(kind)s'),
    "result_pair": _('result must be [home, away], two whole numbers from 0, not %(value)s'),
    "result_nil": _('result must have a game won, not [0, 0]'),
    "walkover_side": _(
        'walkover must be "home" or "away" (the side that turned up), not %(value)s'),
    "must_be_true": _('%(kind)s must be true, not %(value)s'),
    "games_list": _('games must be a list of [home, away] game scores, not %(value)s'),
    "game_pair": _(
        'games[%(place)s] must be [home, away], two whole numbers from 0, not %(value)s'),
    "game_level": _('games[%(place)s] is level at %(home)s-%(away)s (a game has a winner)'),
    "games_winners": _("the games' winners make %(home)s-%(away)s, not the result %(result)s"),
    "adjustment_points": _('must be a whole number other than 0, not %(value)s'),
    "side_missing": _('%(key)s is missing'),
    "entrant_name_type": _("must be an entrant's name, not %(value)s"),
    "side_name_type": _("%(key)s must be an entrant's name, not %(value)s"),
    "not_an_entrant": _('%(name)s is not an entrant'),
    "side_not_an_entrant": _('%(key)s %(name)s is not an entrant'),
    "date_format": _('date must be a date as YYYY-MM-DD, not %(value)s'),
    "night_game_number": _('game %(number)s is not a game of the night: it has at most %(most)s'),
    "night_game_missing": _('game %(number)s has no score yet (a night of %(games)s games)'),
    "race_game_missing": _('game %(number)s has no score yet, and a later game has'),
    "race_game_after": _(
        'game %(number)s comes after the race to %(race_to)s was won in game %(decided)s'),
    "race_undecided": _('neither side has won %(race_to)s games yet (%(home)s-%(away)s)'),
    "night_no_pairs": _('game %(number)s has to be a singles game: the night has no pairs games'),
    "night_no_singles": _('game %(number)s has to be a pairs game: the night has no singles'),
    "night_pairs_taken": _(
        "game %(number)s has to be a singles game: the night's pairs games (%(count)s) have "
        "their players already"),
    "night_singles_taken": _(
        "game %(number)s has to be a pairs game: the night's singles (%(count)s) have their "
        "players already"),
    "final_level": _('%(score)s is level: a game ends with a winner'),
    "final_short_of_target": _(
        'neither side has reached the target %(target)s, so %(score)s is not a final score'),
    "final_both_at_target": _(
        'both sides are at or past the target %(target)s: %(game)s ends as soon as one side '
        'reaches it (%(score)s)'),
    "final_past_target": _(
        '%(game)s is won exactly on the target %(target)s (an award that would pass it does '
        'not count), so %(points)s is past it'),
    "final_not_fives": _(
        '%(game)s scores go in fives (every award is a multiple of 5), so %(points)s cannot '
        'be a score'),
    "final_out_of_reach": _(
        '%(points)s is out of reach: %(game)s ends with the award that takes a side from at '
        'most %(before)s to the target %(target)s, and one award gives at most %(award)s'),
    "legs": _('legs must be 1 or 2, not %(value)s'),
    "every_days": _('every_days must be a whole number of days from 1, not %(value)s'),
    "start_date": _('start must be a date, not %(value)s'),
    "entrants_string": _('entrants must be a list of names, not the string %(value)s'),
    "entrant_not_name": _('entrant %(place)s must be a name, not %(value)s'),
    "entrant_no_name": _('entrant %(place)s has no name'),
    "entrant_twice": _(
        'entrant %(place)s %(name)s is already entered as %(other)s (names are compared '
        'case-insensitively)'),
    "too_few_entrants": _('a round robin needs at least 2 entrants, not %(count)s'),
    # the same words as the league services' refusals (one text for translators)
    "season_locked": _("The season is locked: its results can no longer change."),
    "fixture_status": _("This fixture is %(status)s: that cannot be done now."),
    "own_result": _("A captain cannot confirm or dispute their own side's result: the other "
                    "captain does."),
    "not_captain": _("Only %(entrant)s's captain or a league admin can do that."),
    "only_captain": _("Only %(entrant)s's captain can do that."),
    "not_league_admin": _("Only a club %(role)s or above can do that."),
    "by_itself": _("The site does that by itself: no one can do it by hand."),
    # knockout cups (matches/rules/cup.py)
    "cup_too_few_entrants": _('a cup needs at least 2 entrants, not %(count)s'),
    "cup_walkover": _(
        'a walkover scores two whole numbers from 0, more for the side that turned up, not '
        '%(value)s'),
    "cup_seed": _("the draw's seed must be a whole number from 0, not %(value)s"),
    "cup_seed_needed": _(
        'the draw needs a seed (a whole number from 0): its random order comes from it'),
    "cup_seeds_needed": _('a seeded draw needs its seeds, seed 1 first'),
    "cup_seeds_unwanted": _('only a seeded draw has seeds'),
    "cup_seed_not_entrant": _('seed %(place)s %(name)s is not an entrant'),
    "cup_seeded_twice": _('seed %(place)s %(name)s is already seed %(other)s'),
    "cup_pairs_needed": _("a draw by hand needs the first round's pairs"),
    "cup_pairs_unwanted": _('only a draw by hand has its pairs given'),
    "cup_by_hand_seed": _('a draw by hand takes no seed: its pairs are given'),
    "cup_pairs_count": _(
        'a cup of %(count)s entrants has %(expected)s first-round ties (byes included), not '
        '%(given)s'),
    "cup_pair_shape": _(
        'pair %(place)s must be [home, away] (away empty for a bye), not %(value)s'),
    "cup_bye_v_bye": _('pair %(place)s is a bye against a bye'),
    "cup_pair_not_entrant": _('pair %(place)s: %(name)s is not an entrant'),
    "cup_drawn_twice": _('pair %(place)s: %(name)s is already drawn in pair %(other)s'),
    "cup_not_drawn": _('%(name)s is not drawn in any pair'),
    "cup_result_empty": _("a tie's result needs its games or a walkover"),
    "cup_result_both": _("a tie's result has games or a walkover, not both"),
    "cup_decider_score": _(
        'the deciding game must be [home, away], two different whole numbers from 0, not '
        '%(value)s'),
    "cup_no_such_tie": _('there is no %(tie)s in the draw'),
    "cup_result_for_bye": _('%(tie)s is a bye: %(name)s goes through without playing'),
    "cup_no_opponent": _('%(tie)s: %(name)s has no opponent yet'),
    "cup_sides_unknown": _('%(tie)s: neither side is known yet'),
    "cup_decider_needed": _(
        '%(tie)s is level at %(home)s-%(away)s in games: the cup decides a level tie by a '
        'deciding game, which the result does not give'),
    "cup_points_level": _(
        '%(tie)s is level at %(home)s-%(away)s in games and %(home_points)s-%(away_points)s in '
        'points: a deciding game is needed'),
    "cup_decider_not_level": _(
        '%(tie)s is not level (%(home)s-%(away)s in games): a deciding game is played only in a '
        'level tie'),
    "cup_decider_points": _(
        '%(tie)s is decided on points (%(home_points)s-%(away_points)s): it needs no deciding '
        'game'),
    "cup_drawn_at_once": _('the draw was made all at once: every round is drawn already'),
    "cup_round_unfinished": _(
        '%(tie)s has no winner yet: round %(round)s finishes before the next is drawn'),
    "cup_final_drawn": _('the final is drawn already: no round follows it'),
    "cup_no_plate": _('this cup has no plate'),
    "cup_plate_drawn": _('the plate is drawn already'),
    "cup_plate_not_drawn": _('the plate is not drawn yet'),
    "cup_plate_waits": _(
        "%(tie)s has no winner yet: the plate is drawn once the loser of every entrant's first "
        "tie played is known"),
    "cup_plate_waits_round": _(
        "round %(round)s is not drawn yet: the plate is drawn once the loser of every entrant's "
        "first tie played is known"),
    "cup_plate_too_few": _('the plate needs at least 2 entrants, not %(count)s'),
    "cup_plate_redraw": _(
        "%(tie)s: %(name)s had a bye and went into the plate's draw as its loser; for "
        "%(name)s to have won it, the plate is drawn again"),
    "cup_plate_redraw_in": _(
        "%(tie)s: %(name)s had a bye and had won it when the plate was drawn; for %(name)s "
        "to have lost it and go into the plate, the plate is drawn again"),
    "cup_correction_played": _(
        '%(tie)s: its winner can change only while %(next)s is unplayed, or by an admin who '
        'resets the ties after it'),
    # a cup's rounds, as its pages name them
    "cup_round_final": pgettext_lazy("a cup's round", "Final"),
    "cup_round_semi_finals": pgettext_lazy("a cup's round", "Semi-finals"),
    "cup_round_quarter_finals": pgettext_lazy("a cup's round", "Quarter-finals"),
    "cup_round_number": pgettext_lazy("a cup's round", "Round %(number)s"),
}

PLURALS: Final[dict[str, tuple[str, Callable[[int], str]]]] = {
    "players_range": ("high", lambda n: ngettext(
        '%(game)s is for %(low)s to %(high)s player, not %(players)s',
        '%(game)s is for %(low)s to %(high)s players, not %(players)s',
        n)),
    "players_range_set": ("high", lambda n: ngettext(
        '%(game)s with %(set)s is for %(low)s to %(high)s player, not %(players)s',
        '%(game)s with %(set)s is for %(low)s to %(high)s players, not %(players)s',
        n)),
    "boneyard_not_empty": ("boneyard", lambda n: ngettext(
        '%(who)s cannot pass while the boneyard holds %(boneyard)s tile',
        '%(who)s cannot pass while the boneyard holds %(boneyard)s tiles',
        n)),
    "call_too_many_ends": ("limit", lambda n: ngettext(
        '%(game)s has at most %(limit)s scoring end, not %(count)s',
        '%(game)s has at most %(limit)s scoring ends, not %(count)s',
        n)),
    "hands_count": ("given", lambda n: ngettext(
        'hands: %(given)s hand given for %(seats)s seats',
        'hands: %(given)s hands given for %(seats)s seats',
        n)),
    "hands_went_out": ("count", lambda n: ngettext(
        'hands: %(who)s shows %(count)s tile, but went out',
        'hands: %(who)s shows %(count)s tiles, but went out',
        n)),
    "hands_held": ("count", lambda n: ngettext(
        'hands: %(who)s shows %(count)s tile but holds %(held)s',
        'hands: %(who)s shows %(count)s tiles but holds %(held)s',
        n)),
    "pips_count": ("given", lambda n: ngettext(
        'pips: %(given)s total given for %(seats)s seats',
        'pips: %(given)s totals given for %(seats)s seats',
        n)),
    "pips_tiles": ("count", lambda n: ngettext(
        'pips: no %(count)s unseen tile adds up to %(total)s (%(who)s)',
        'pips: no %(count)s unseen tiles add up to %(total)s (%(who)s)',
        n)),
    "record_too_deep": ("depth", lambda n: ngettext(
        'not a match record: it nests deeper than %(depth)s level',
        'not a match record: it nests deeper than %(depth)s levels',
        n)),
    "league_too_deep": ("depth", lambda n: ngettext(
        'not a league record: it nests deeper than %(depth)s level',
        'not a league record: it nests deeper than %(depth)s levels',
        n)),
    "step_pips_sum": ("total", lambda n: ngettext(
        '%(side)s: %(shown)s = %(total)s pip',
        '%(side)s: %(shown)s = %(total)s pips',
        n)),
    "step_pips": ("total", lambda n: ngettext(
        '%(side)s: %(total)s pip',
        '%(side)s: %(total)s pips',
        n)),
    "games_count": ("count", lambda n: ngettext(
        'games lists %(count)s game score, not the %(expected)s of result %(result)s',
        'games lists %(count)s game scores, not the %(expected)s of result %(result)s',
        n)),
}

# Parameters that hold a seat's words: "seat 2" (a record replayed without names) is
# said in the reader's language; a player's name stays as written.
_WHO: Final = frozenset({"who", "turn", "required", "starter", "other", "side", "first",
                         "second", "names"})
_SEAT: Final = re.compile(r"\bseat (\d+)\b")
# Parameters that hold a cup's tie as the rules name it ("tie 3 of round 2", "plate tie 1
# of round 1"): said in the reader's language.
_TIES: Final = frozenset({"tie", "next"})
_TIE: Final = re.compile(r"\b(plate )?tie (\d+) of round (\d+)\b")
_CUP_ROUND: Final = re.compile(r"\b(plate )?round (\d+)\b")
_FIXTURE: Final = re.compile(r"fixture (\d+)")


def _game_names() -> dict[str, StrOrPromise]:
    return {"all-fives": _("All Fives"), "five-up": _("Five Up"),
            "fives-and-threes": _("Fives and Threes")}


def _set_names() -> dict[str, StrOrPromise]:
    return {"double-six": _("double-six"), "double-nine": _("double-nine"),
            "double-twelve": _("double-twelve")}


def _round_ends() -> dict[str, StrOrPromise]:
    return {"domino": pgettext("how a round ended", "domino"),
            "blocked": pgettext("how a round ended", "blocked")}


def listed(items: tuple[str, ...] | list[str]) -> str:
    """Items as the reader's language lists them: "a", "a and b", "a, b and c"."""
    if len(items) < 2:
        return "".join(items)
    return gettext("%(items)s and %(last)s") % {"items": ", ".join(items[:-1]),
                                                "last": items[-1]}


def _seat_words(text: str) -> str:
    return _SEAT.sub(lambda found: gettext("seat %(number)s") % {"number": found[1]}, text)


def tie_words(text: str) -> str:
    """A cup's tie as the rules name it ("tie 3 of round 2", "plate tie 1 of round 1"),
    in the reader's language; any other text as is."""
    def said(found: re.Match[str]) -> str:
        numbers = {"position": found[2], "round": found[3]}
        if found[1]:
            return gettext("plate tie %(position)s of round %(round)s") % numbers
        return gettext("tie %(position)s of round %(round)s") % numbers
    return _TIE.sub(said, text)


def cup_round_words(text: str) -> str:
    """A cup's log details as its services write them ("plate round 2: — → 2026-10-19"),
    their ties and rounds in the reader's language; the rest as is."""
    def said(found: re.Match[str]) -> str:
        if found[1]:
            return gettext("plate round %(number)s") % {"number": found[2]}
        return gettext("round %(number)s") % {"number": found[2]}
    return _CUP_ROUND.sub(said, tie_words(text))


def _shown(key: str, value: Param) -> str | int:
    """One parameter as the reader's language shows it."""
    if isinstance(value, tuple):
        items = [_seat_words(item) for item in value] if key in _WHO else list(value)
        return listed(items)
    if isinstance(value, int):
        return value
    if key in _WHO:
        return _seat_words(value)
    if key in _TIES:
        return tie_words(value)
    if key == "game":
        return str(_game_names().get(value, value))  # not the engine's slug
    if key == "set":
        return str(_set_names().get(value, value))
    if key == "end":
        return str(_round_ends().get(value, value))
    if key == "message":  # the JSON parser's English, where the reader's language has it
        return str(_json_errors().get(value, value))
    return value


def _json_errors() -> dict[str, str]:
    """What Python's JSON parser says (``JSONDecodeError.msg``), in the reader's words."""
    return {
        "Expecting value": gettext("a value was expected"),
        "Expecting property name enclosed in double quotes": gettext(
            "a name in double quotes was expected"),
        "Expecting ',' delimiter": gettext("a comma was expected"),
        "Expecting ':' delimiter": gettext("a colon was expected"),
        "Extra data": gettext("more follows the end of the record"),
        "Unterminated string starting at": gettext("a text is not closed"),
        "Invalid control character at": gettext("a text holds a control character"),
        "Invalid \\escape": gettext("a text holds an unknown escape (\\)"),
        "Invalid \\uXXXX escape": gettext("a text holds a broken \\u escape"),
        "Illegal trailing comma before end of object": gettext(
            "a comma before the end of an object"),
        "Illegal trailing comma before end of array": gettext(
            "a comma before the end of a list"),
    }


def render(code: str, params: Mapping[str, Param]) -> str | None:
    """The text of ``code`` in the active language, or None if the code has none."""
    shown = {key: _shown(key, value) for key, value in params.items()}
    plural = PLURALS.get(code)
    if plural is not None:
        key, template = plural
        count = params.get(key)
        return template(count if isinstance(count, int) else 2) % shown
    single = TEMPLATES.get(code)
    if single is None:
        return None
    return str(single) % shown


def say(message: Message) -> str:
    """Words the engine wrote for display (a settlement step, a refused award)."""
    text = render(message.code, message.params)
    return text if text is not None else str(message)


def steps(settlement: rules.Settlement | None,
          notes: Sequence[Message] = ()) -> list[str]:
    """A round's settlement steps in the reader's language (none before it is settled),
    then its ``notes`` (what its count says about its passes: ``Round.notes``)."""
    settled = [say(step) for step in settlement.messages] if settlement is not None else []
    return settled + [say(note) for note in notes]


def refusal(award: rules.Award) -> str | None:
    """Why an award did not count, in the reader's language; None if it counted."""
    if award.refusal is not None:
        return say(award.refusal)
    return award.refused


def reason(error: rules.RulesError) -> str:
    """What is wrong, without where (a record's round and event, a league's field)."""
    text = render(error.code, error.params) if error.code else None
    if text is None:
        return str(getattr(error, "reason", error))
    field = getattr(error, "field", None)
    if field == "hands":
        text = gettext("hands: %(message)s") % {"message": text}
    elif field:
        text = f"{field}: {text}"
    return text


def explain(error: rules.RulesError) -> str:
    """A rules error as the reader's language says it, where included.

    Falls back to ``str(error)`` for an error without a known code (one raised outside
    the engine with a message already written for the reader)."""
    if not error.code or (error.code not in TEMPLATES and error.code not in PLURALS):
        return str(error)
    text = reason(error)
    if isinstance(error, RecordInvalid) and error.round is not None:
        if error.event:
            return gettext("round %(round)s, event %(event)s: %(message)s") % {
                "round": error.round, "event": error.event, "message": text}
        return gettext("round %(round)s: %(message)s") % {"round": error.round,
                                                           "message": text}
    if isinstance(error, rules.LeagueInvalid) and error.where:
        return f"{where(error.where)}: {text}"
    return text


def where(place: str) -> str:
    """A place in a league document: "fixture 3" in the reader's language; a field's
    path (``entrants[2].name``) as the document spells it."""
    found = _FIXTURE.fullmatch(place)
    if found is not None:
        return gettext("fixture %(number)s") % {"number": found[1]}
    return place


def game_name(slug: str) -> str:
    """A game's name in the reader's language ("All Fives"); an unknown slug as is."""
    return str(_game_names().get(slug, slug))


def unit_name(unit: rules.Unit) -> str:
    """A game's unit as shown after a target or a score ("to 61 display points")."""
    names = {rules.Unit.RAW: pgettext("unit after a number", "raw points"),
             rules.Unit.DISPLAY: pgettext("unit after a number", "display points"),
             rules.Unit.POINTS: pgettext("unit after a number", "points")}
    return names.get(unit, unit.value)
