"""One exception hierarchy for every rule the engine enforces.

Every class derives from :class:`RulesError`, itself a ``ValueError``, so callers can
catch the whole family at a service boundary. Messages name the input and the state
(``"3-5 cannot join 1-4:4"``); the record replayer prefixes the round and event.

Every error the engine raises also carries a stable ``code`` and its ``params`` (plain
values: tile notation, numbers, names), so that the app can say it in the reader's
language; ``str(error)`` is the English, rendered from :data:`MESSAGES`. The words
the engine writes for display (settlement steps, a refused award) are :class:`Message`
values built the same way.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Final, Self

# A message's parameter: a name, a tile or end in notation, a number, or a list of
# names or numbers (joined with "and" in the reader's language).
Param = str | int | tuple[str, ...]

# Every code the engine may use, with its English text (``str.format`` placeholders).
# The app maps each code to a translatable text with the same placeholders
# (matches/core/messages.py); tests/core/test_messages.py checks that.
MESSAGES: Final[dict[str, str]] = {
    # -- notation and the set (tiles.py, layout.py) ----------------------------------
    "tile_pips": "{a}-{b} is not a tile (pips are whole numbers from 0)",
    "not_a_tile": "{text} is not a tile (write it as a-b)",
    "tile_not_in_set": "tile {tile} is not in the {set} set",
    "value_not_in_set": "{value} is not a value of the {set} set",
    "not_an_attachment_point": "{text} is not an attachment point (write it as c-d:v)",
    "not_a_scoring_end": "{text} is not a scoring end (a value, or d-d for a double)",
    # -- placing a tile (layout.py) --------------------------------------------------
    "tile_on_table": "tile {tile} is already on the table",
    "opening_attached": "{tile} is the opening tile; there is nothing to attach it to at {at}",
    "needs_attachment_point": "tile {tile} needs an attachment point (c-d:v)",
    "point_tile_not_on_table": "attachment point {at}: tile {end_tile} is not on the table",
    "point_no_such_end": "attachment point {at}: tile {end_tile} has no {value} end",
    "tile_cannot_join": "tile {tile} has no {value} to join {at}",
    "spinner_full": "cannot join {tile} at {at}: spinner {double} has both line sides and "
                    "both flanks filled",
    "double_full": "cannot join {tile} at {at}: double {double} is not a spinner and both "
                   "its line sides are filled",
    "end_taken": "cannot join {tile} at {at}: the {value} end of {end_tile} is already taken",
    # -- games and options (games.py) ------------------------------------------------
    "players_range": "{game} is for {low} to {high} players, not {players}",
    "players_range_set": "{game} with {set} is for {low} to {high} players, not {players}",
    "option_not_for_game": "option {option} does not apply to {game}",
    "option_set": "option set must be one of {choices}, not {value}",
    "option_deal": "option deal must be 'full' or 'short', not {value}",
    "option_flag": "option {option} must be true or false, not {value}",
    "option_divisors": "option divisors must be a list of different whole numbers of at "
                       "least 2, not {value}",
    "option_positive": "option {option} must be a positive integer, not {value}",
    "option_target_max": "option target must be at most {most}, not {value}",
    "option_hand_size": "option hand_size must be a positive integer with hand_size x "
                        "{players} players <= {tiles} tiles, not {value}",
    "unknown_game": "unknown game {value} (expected one of {choices})",
    # -- the match (match.py) --------------------------------------------------------
    "nothing_to_undo": "there is nothing to undo",
    "seat_not_at_table": "seat {seat} is not at this table (seats 0 to {last})",
    "match_won_no_round": "the match was already won; no round may follow",
    "match_won_no_event": "the match was already won; no event may follow",
    "match_won_no_count": "the match was won during this round; it takes no hands or pips",
    "round_not_settled": "round {round} has ended but is not settled: give its hands or "
                         "pips first",
    "round_not_ended": "round {round} has not ended",
    "starter_needed": "a tracked round needs a starter",
    "starter_holds_double": "whoever holds the highest double starts the round: say who",
    "wrong_starter": "{required} placed the last tile of round {round} and must start, "
                     "not {starter}",
    "no_round": "no round is in play: start a round first",
    "round_ended": "the round already ended ({end})",
    "round_is_tracked": "this round is tracked: enter the tile played, not its ends",
    "round_is_called": "this round is called: enter the scoring ends of each scoring "
                       "placement",
    "not_your_turn": "it is {turn}'s turn, not {who}'s",
    "opens_with_play": "the round opens with a play: {who} places the first tile",
    "drawing_off": "drawing is off in this match: there is no boneyard",
    "draw_count": "a draw is of 1 tile or more, not {count}",
    "draw_too_many": "{who} cannot draw {count}: the boneyard holds {boneyard}",
    "boneyard_not_empty": "{who} cannot pass while the boneyard holds {boneyard} tiles",
    "call_no_ends": "a called placement lists at least one scoring end",
    "call_too_many_ends": "{game} has at most {limit} scoring ends, not {count}",
    "end_not_double_of_set": "end '{end}' is not a double of the set",
    "duplicate_end": "end {end} is listed twice: the set has one {end}",
    "ends_of_value_too_many": "{count} ends show {value}: the set has {most} tiles with a "
                              "{value} besides the double",
    "call_ends_past_spinners": "with the terminal doubles {doubles} a layout shows at most "
                               "{most} scoring ends, not {count}",
    "ends_share_tiles": "{count} ends show the values {values}: the set has only {most} "
                        "tiles besides the doubles with any of them",
    "claim_mismatch": "claim {claim} differs from the {total} the rules give (end sum "
                      "{end_sum})",
    "no_round_to_settle": "no round is waiting to be settled",
    "round_not_over": "the round has not ended: it ends by itself when a hand is empty or "
                      "every seat has passed",
    "count_required": "the round ended ({end}); its hands or pips are required",
    "settled_when_ended": "round {round} was settled when it ended: remaining tiles score "
                          "nothing in {game}",
    "hands_and_pips": "give hands or pips, not both",
    "went_out_last_call": "{who} went out with the last call; the result must say so",
    "result_domino_differs": "the round ended with {who}'s domino, not as given",
    "result_blocked_differs": "the round ended blocked, not as given",
    "result_needed": "a called round needs its result: who went out, or blocked",
    "mark_going_out": "in {game} the last call of the round is {who}'s going-out placement; "
                      "mark it as going out",
    "hands_count": "hands: {given} hands given for {seats} seats",
    "hands_went_out": "hands: {who} shows {count} tiles, but went out",
    "hands_held": "hands: {who} shows {count} tiles but holds {held}",
    "hands_empty": "hands: {who} did not go out, so holds at least one tile",
    "hands_not_in_set": "hands: {who} shows {tile}, which is not in the {set} set",
    "hands_on_table": "hands: {who} shows {tile}, which is on the table",
    "hands_shown_twice": "hands: {who} shows {tile} and {other} also shows it",
    "pips_count": "pips: {given} totals given for {seats} seats",
    "pips_negative": "pips: {who} cannot hold {total} pips",
    "pips_went_out": "pips: {who} went out and cannot hold {total} pips",
    "pips_one_tile": "pips: no unseen tile adds up to {total} ({who})",
    "pips_tiles": "pips: no {count} unseen tiles add up to {total} ({who})",
    "pips_unseen": "pips: no unseen tiles add up to {total} ({who})",
    "pips_deal_one": "pips: no way to deal the unseen tiles so that {who} holds {total}",
    "pips_deal": "pips: no way to deal the unseen tiles so that {names} hold {totals} "
                 "together",
    # -- words for display (games.py, match.py): settlement steps, a refused award ---
    "step_pips": "{side}: {total} pips",
    "step_pips_sum": "{side}: {shown} = {total} pips",
    "step_went_out": "{side} went out and wins the round",
    "step_partner_went_out": "{seat} went out: {side} win the round",
    "pass_held_fit": "note: {who} passed holding {tiles}, which fitted an open end "
                     "(a pass is for a player who cannot play)",
    "step_blocked_lowest": "blocked: {side} has the lowest total and wins the round",
    "step_blocked_lowest_pair": "blocked: {side} have the lowest total and win the round",
    "step_blocked_tie": "blocked: {first} and {second} tie for lowest",
    "step_split": "split equally: {points} each",
    "step_no_award": "blocked with equal lowest totals: no remainder award",
    "step_opponents_pips": "opponents' pips: {pips}",
    "step_scores": "{side} scores {points}",
    "step_scores_pair": "{side} score {points}",
    "step_multiple": "{pips} is a multiple of 5",
    "step_rounds_down": "{pips} rounds down to {rounded} (remainder {remainder})",
    "step_rounds_up": "{pips} rounds up to {rounded} (remainder {remainder})",
    "step_deduct_multiple": "{side}: {pips} is a multiple of 5, −{cost}",
    "step_deduct_down": "{side}: {pips} rounds down to {rounded} (remainder {remainder}), "
                        "−{cost}",
    "step_deduct_up": "{side}: {pips} rounds up to {rounded} (remainder {remainder}), "
                      "−{cost}",
    "step_out_no_deduction": "{side} went out: no tiles, no deduction",
    "step_no_deduction_multiple": "{side}: {pips} is a multiple of 5, no deduction",
    "step_no_deduction_down": "{side}: {pips} rounds down to {rounded} (remainder "
                              "{remainder}), no deduction",
    "step_nothing_remaining": "remaining tiles score nothing",
    "refused_overshoot": "{total} would take {side} from {score} past the target {target}",
    # -- match records (record.py) ---------------------------------------------------
    "record_too_deep": "not a match record: it nests deeper than {depth} levels",
    "record_digits": "not a match record: a number in it has thousands of digits",
    "record_nul": "a text in the record holds a NUL character (\\u0000), which cannot be "
                  "stored",
    "record_surrogate": "a text in the record holds half of a character (an escape from "
                        "\\ud800 to \\udfff without its other half), which cannot be stored",
    # as Python's reader says it (JSONDecodeError, UnicodeDecodeError), word for word
    "invalid_json": "not valid JSON: {message}: line {line} column {column} (char {char})",
    "not_utf8": "not valid JSON: '{codec}' codec can't decode byte {byte} in position "
                "{position}: {reason}",
    "record_not_object": "a match record is a JSON object",
    "record_format": "format must be {expected}, not {value}",
    "record_players": "players must be a list of names",
    "record_player_nul": "players: a name holds a NUL character (\\u0000), which cannot be "
                         "stored",
    "record_options": "options must be an object",
    "record_rounds": "rounds must be a list",
    "record_round_object": "a round is an object",
    "record_mode": "mode must be 'ends' (a called round) or absent, not {value}",
    "record_starter": "starter must be a seat number, not {value}",
    "record_events": "events must be a list",
    "record_going_out_seat": "the round ended with {who}'s domino, so the last call must be "
                             "that seat's going-out placement, not {other}'s",
    "record_going_out_last": "a called round that ends in a domino lists the going-out "
                             "placement last",
    "record_won_no_count": "the match was won during this round; hands and pips are refused",
    "record_won_result": "the match was won with {who}'s placement during this round: its "
                         "result can only be {who}'s domino (the winning tile was the last), "
                         "or none",
    "record_not_ended_count": "the round has not ended; hands and pips are refused",
    "record_not_ended_next": "the round has not ended, yet another round follows",
    "record_result_seat": "result: seat {seat} is not at this table",
    "record_result": "result must be {{\"domino\": seat}} or {{\"blocked\": true}}, not {value}",
    "record_event_seat": "an event needs a seat",
    "record_seat_type": "seat must be an integer, not {value}",
    "record_claim": "claim must be a number of points, not {value}",
    "record_event_object": "an event is an object",
    "record_event_kind": "an event is exactly one of play, draw or pass",
    "record_takes_no": "{kind} takes no {field}",
    "record_draw": "draw must be a whole number of tiles from 1, not {value}",
    "record_pass": "pass must be true, not {value}",
    "record_ends": "a called placement lists its scoring ends (\"ends\")",
    "record_hands": "hands must be a list of tile lists, one per seat",
    "record_pips": "pips must be a list of pip totals, one per seat",
    "record_pips_value": "pips: {value} is not a whole number",
    "record_unknown_field": "unknown field {field} in the record",
    "round_unknown_field": "unknown field {field} in a round",
    "event_unknown_field": "unknown field {field} in an event",
    # -- league documents (league.py) ------------------------------------------------
    "league_not_object": "a league record is a JSON object",
    "league_unknown_field": "unknown field {field} in the league record",
    "league_too_deep": "not a league record: it nests deeper than {depth} levels",
    "league_digits": "not a league record: a number in it has thousands of digits",
    "league_nul": "a text in the league record holds a NUL character (\\u0000), which "
                  "cannot be stored",
    "league_surrogate": "a text in the league record holds half of a character (an escape "
                        "from \\ud800 to \\udfff without its other half), which cannot be "
                        "stored",
    "unknown_field": "unknown field {field}",
    "missing": "is missing",
    "league_format": "must be {expected}, not {value}",
    "must_be_list": "must be a list, not {value}",
    "must_be_object": "must be an object, not {value}",
    "blank_text": "must be non-blank text, not {value}",
    "whole_number": "must be a whole number from 0, not {value}",
    "entrant_name_taken": "{name} is already the name of entrants[{place}] (names are "
                          "compared case-insensitively)",
    "entrant_players": "must be a list of non-blank names, not {value}",
    "walkover_pair": "must be [w, l], two whole numbers from 0, not {value}",
    "walkover_order": "w must be more than l, not {value}",
    "bonus_object": "must be an object with margin and points, not {value}",
    "unknown_tiebreak": "unknown tie-breaker {value} (expected one of {choices})",
    "unknown_tiebreak_bare": "unknown tie-breaker {value}",
    "tiebreak_twice": "{value} is already listed at tiebreaks[{place}]",
    "home_is_away": "home and away are both {name}",
    "fixture_no_outcome": "needs exactly one of result, walkover, postponed or void, not none",
    "fixture_outcomes": "needs exactly one of result, walkover, postponed or void, not "
                        "{found}",
    "games_without_result": "games go only with a result, not with {kind}",
    "result_pair": "result must be [home, away], two whole numbers from 0, not {value}",
    "result_nil": "result must have a game won, not [0, 0]",
    "walkover_side": "walkover must be \"home\" or \"away\" (the side that turned up), not "
                     "{value}",
    "must_be_true": "{kind} must be true, not {value}",
    "games_list": "games must be a list of [home, away] game scores, not {value}",
    "games_count": "games lists {count} game scores, not the {expected} of result {result}",
    "game_pair": "games[{place}] must be [home, away], two whole numbers from 0, not {value}",
    "game_level": "games[{place}] is level at {home}-{away} (a game has a winner)",
    "games_winners": "the games' winners make {home}-{away}, not the result {result}",
    "adjustment_points": "must be a whole number other than 0, not {value}",
    "side_missing": "{key} is missing",
    "entrant_name_type": "must be an entrant's name, not {value}",
    "side_name_type": "{key} must be an entrant's name, not {value}",
    "not_an_entrant": "{name} is not an entrant",
    "side_not_an_entrant": "{key} {name} is not an entrant",
    "date_format": "date must be a date as YYYY-MM-DD, not {value}",
    # -- a fixture night's games (league.py) -------------------------------------------
    "night_game_number": "game {number} is not a game of the night: it has at most {most}",
    "night_game_missing": "game {number} has no score yet (a night of {games} games)",
    "race_game_missing": "game {number} has no score yet, and a later game has",
    "race_game_after": "game {number} comes after the race to {race_to} was won in game "
                       "{decided}",
    "race_undecided": "neither side has won {race_to} games yet ({home}-{away})",
    "night_no_pairs": "game {number} has to be a singles game: the night has no pairs games",
    "night_no_singles": "game {number} has to be a pairs game: the night has no singles",
    "night_pairs_taken": "game {number} has to be a singles game: the night's pairs games "
                         "({count}) have their players already",
    "night_singles_taken": "game {number} has to be a pairs game: the night's singles "
                           "({count}) have their players already",
    # -- a game's final score (games.py, league.py) ---------------------------------
    "final_level": "{score} is level: a game ends with a winner",
    "final_short_of_target": "neither side has reached the target {target}, so {score} is "
                             "not a final score",
    "final_both_at_target": "both sides are at or past the target {target}: {game} ends as "
                            "soon as one side reaches it ({score})",
    "final_past_target": "{game} is won exactly on the target {target} (an award that would "
                         "pass it does not count), so {points} is past it",
    "final_not_fives": "{game} scores go in fives (every award is a multiple of 5), so "
                       "{points} cannot be a score",
    "final_out_of_reach": "{points} is out of reach: {game} ends with the award that takes "
                          "a side from at most {before} to the target {target}, and one "
                          "award gives at most {award}",
    # -- round robins (fixtures.py) --------------------------------------------------
    "legs": "legs must be 1 or 2, not {value}",
    "every_days": "every_days must be a whole number of days from 1, not {value}",
    "start_date": "start must be a date, not {value}",
    "entrants_string": "entrants must be a list of names, not the string {value}",
    "entrant_not_name": "entrant {place} must be a name, not {value}",
    "entrant_no_name": "entrant {place} has no name",
    "entrant_twice": "entrant {place} {name} is already entered as {other} (names are "
                     "compared case-insensitively)",
    "too_few_entrants": "a round robin needs at least 2 entrants, not {count}",
    # -- a fixture's sign-off (signoff.py) ------------------------------------------
    "season_locked": "the season is locked: its results can no longer change",
    "fixture_status": "this fixture is {status}: that cannot be done now",
    "own_result": "a captain cannot confirm or dispute their own side's result: the other "
                  "captain does",
    "not_captain": "only the {entrant} captain or a league admin can do that",
    "only_captain": "only the {entrant} captain can do that",
    "not_league_admin": "only a league admin (a club {role}) can do that",
    "by_itself": "the site does that by itself: no one can do it by hand",
    # -- knockout cups (cup.py); {tie} is "tie 3 of round 2" or "plate tie 1 of round 1"
    "cup_too_few_entrants": "a cup needs at least 2 entrants, not {count}",
    "cup_walkover": "a walkover scores two whole numbers from 0, more for the side that "
                    "turned up, not {value}",
    "cup_seed": "the draw's seed must be a whole number from 0, not {value}",
    "cup_seed_needed": "the draw needs a seed (a whole number from 0): its random order "
                       "comes from it",
    "cup_seeds_needed": "a seeded draw needs its seeds, seed 1 first",
    "cup_seeds_unwanted": "only a seeded draw has seeds",
    "cup_seed_not_entrant": "seed {place} {name} is not an entrant",
    "cup_seeded_twice": "seed {place} {name} is already seed {other}",
    "cup_pairs_needed": "a draw by hand needs the first round's pairs",
    "cup_pairs_unwanted": "only a draw by hand has its pairs given",
    "cup_by_hand_seed": "a draw by hand takes no seed: its pairs are given",
    "cup_pairs_count": "a cup of {count} entrants has {expected} first-round ties (byes "
                       "included), not {given}",
    "cup_pair_shape": "pair {place} must be [home, away] (away empty for a bye), not {value}",
    "cup_bye_v_bye": "pair {place} is a bye against a bye",
    "cup_pair_not_entrant": "pair {place}: {name} is not an entrant",
    "cup_drawn_twice": "pair {place}: {name} is already drawn in pair {other}",
    "cup_not_drawn": "{name} is not drawn in any pair",
    "cup_result_empty": "a tie's result needs its games or a walkover",
    "cup_result_both": "a tie's result has games or a walkover, not both",
    "cup_decider_score": "the deciding game must be [home, away], two different whole "
                         "numbers from 0, not {value}",
    "cup_no_such_tie": "there is no {tie} in the draw",
    "cup_result_for_bye": "{tie} is a bye: {name} goes through without playing",
    "cup_no_opponent": "{tie}: {name} has no opponent yet",
    "cup_sides_unknown": "{tie}: neither side is known yet",
    "cup_decider_needed": "{tie} is level at {home}-{away} in games: the cup decides a level "
                          "tie by a deciding game, which the result does not give",
    "cup_points_level": "{tie} is level at {home}-{away} in games and {home_points}-"
                        "{away_points} in points: a deciding game is needed",
    "cup_decider_not_level": "{tie} is not level ({home}-{away} in games): a deciding game "
                             "is played only in a level tie",
    "cup_decider_points": "{tie} is decided on points ({home_points}-{away_points}): it "
                          "needs no deciding game",
    "cup_drawn_at_once": "the draw was made all at once: every round is drawn already",
    "cup_round_unfinished": "{tie} has no winner yet: round {round} finishes before the "
                            "next is drawn",
    "cup_final_drawn": "the final is drawn already: no round follows it",
    "cup_no_plate": "this cup has no plate",
    "cup_plate_drawn": "the plate is drawn already",
    "cup_plate_not_drawn": "the plate is not drawn yet",
    "cup_plate_waits": "{tie} has no winner yet: the plate is drawn once the loser of "
                       "every entrant's first tie played is known",
    "cup_plate_waits_round": "round {round} is not drawn yet: the plate is drawn once the "
                             "loser of every entrant's first tie played is known",
    "cup_plate_too_few": "the plate needs at least 2 entrants, not {count}",
    "cup_plate_redraw": "{tie}: {name} had a bye and went into the plate's draw as its "
                        "loser; for {name} to have won it, the plate is drawn again",
    "cup_plate_redraw_in": "{tie}: {name} had a bye and had won it when the plate was "
                           "drawn; for {name} to have lost it and go into the plate, the "
                           "plate is drawn again",
    "cup_correction_played": "{tie}: its winner can change only while {next} is unplayed, "
                             "or by an admin who resets the ties after it",
    # -- words for display (cup.py): a cup's rounds -----------------------------------
    "cup_round_final": "Final",
    "cup_round_semi_finals": "Semi-finals",
    "cup_round_quarter_finals": "Quarter-finals",
    "cup_round_number": "Round {number}",
}


def english(value: Param) -> str:
    """A parameter as the English text shows it: a list as "a", "a and b", "a, b and c"."""
    if isinstance(value, tuple):
        if len(value) < 2:
            return "".join(value)
        return f"{', '.join(value[:-1])} and {value[-1]}"
    return str(value)


def render(code: str, params: Mapping[str, Param]) -> str:
    """The English text of ``code`` with its ``params``."""
    return MESSAGES[code].format_map({key: english(value) for key, value in params.items()})


class Message:
    """Words the engine writes for display: a code, its parameters; str() is English."""

    code: str
    params: dict[str, Param]

    def __init__(self, code: str, **params: Param) -> None:
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return render(self.code, self.params)

    def __repr__(self) -> str:
        return f"Message({self.code!r}, {self.params!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Message) and self.code == other.code
                and self.params == other.params)

    def __hash__(self) -> int:
        return hash((self.code, tuple(sorted(self.params))))


def shown(value: object) -> str:
    """A value of a document as the document spells it (JSON: names in double quotes),
    for a message about it."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


class RulesError(ValueError):
    """Something the rules do not allow.

    ``code`` and ``params`` say it for translation (an error made outside the engine
    with only a message has code ``""``); ``str(error)`` is the English.
    """

    code: str
    params: dict[str, Param]

    def __init__(self, message: str = "", *, code: str = "",
                 params: Mapping[str, Param] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params = dict(params) if params is not None else {}

    @classmethod
    def of(cls, code: str, **params: Param) -> Self:
        """The error for ``code``, its English message rendered from ``params``."""
        return cls(render(code, params), code=code, params=params)


class NotationError(RulesError):
    """Text that does not spell a tile, an end or an attachment point."""


class TileNotInSet(RulesError):
    """A tile outside the match's set (``6-7`` in double-six)."""


class TileOnTable(RulesError):
    """A tile that has already been placed this round."""


class IllegalPlacement(RulesError):
    """A tile that cannot join the layout where it was said to."""


class DuplicateEnd(RulesError):
    """A called placement listing one terminal double twice (the set holds one of each)."""


class NotYourTurn(RulesError):
    """A seat acting out of turn."""


class DrawRefused(RulesError):
    """A draw the boneyard cannot give (drawing off, or too few tiles)."""


class BoneyardNotEmpty(RulesError):
    """A pass while the boneyard still holds tiles."""


class ClaimMismatch(RulesError):
    """An announced score that differs from what the rules give."""


class RoundOver(RulesError):
    """An event after the round has ended, or a settlement before it has."""


class MatchOver(RulesError):
    """An event after the match has been won."""


class HandsMismatch(RulesError):
    """Remaining tiles or pips that contradict the counts or the unseen tiles."""


class OptionError(RulesError):
    """A match option or player count the game does not allow."""


class RecordError(RulesError):
    """A match record that is not well formed (unknown keys, wrong types, bad JSON)."""


class FixtureNightError(RulesError):
    """A fixture night's games that its season's format does not allow: a game beyond
    the night, or a night sent before it is finished."""


class ImpossibleScore(RulesError):
    """A game's final score that no game under its options can end with (a score kept
    on paper and keyed in: neither side at the target, Fives and Threes past it)."""


class SignOffRefused(RulesError):
    """A fixture's sign-off action refused: its season is locked, the fixture is not in
    a status the action is taken from, or it is not the asker's to take."""


class CupError(RulesError):
    """A knockout cup's draw, result or correction that its rules do not allow: a draw
    that leaves an entrant out, a level tie without its decider, a result for a tie whose
    sides are not known yet, a winner changed after the tie it went into was played."""


class LeagueInvalid(RecordError):
    """A ``domino-league/1`` document refused as a whole.

    ``where`` names the place: a fixture (``"fixture 3"``, 1-based) or a field
    (``"scoring.walkover"``, ``"entrants[2].name"``, also 1-based); ``reason`` says what
    is wrong there. The message is ``"{where}: {reason}"``.
    """

    def __init__(self, reason: str, where: str | None = None, *, code: str = "",
                 params: Mapping[str, Param] | None = None) -> None:
        self.reason = reason
        self.where = where
        super().__init__(f"{where}: {reason}" if where else reason, code=code, params=params)

    @classmethod
    def at(cls, where: str | None, code: str, **params: Param) -> LeagueInvalid:
        """The refusal for ``code`` at ``where``."""
        return cls(render(code, params), where, code=code, params=params)

    @classmethod
    def wrap(cls, error: RulesError, where: str | None) -> LeagueInvalid:
        """Another rules error (an option, a game) refused at ``where``, its code kept."""
        return cls(str(error), where, code=error.code, params=error.params)
