"""The ``domino-league/1`` format and the league table: read a season, rank its entrants.

>>> league = read_league({
...     "format": "domino-league/1", "name": "Ladder", "game": "five-up",
...     "entrants": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}],
...     "fixtures": [{"home": "Ann", "away": "Bob", "result": [1, 0]},
...                  {"home": "Cy", "away": "Ann", "walkover": "home"}]})
>>> for row in standings(league).rows:
...     print(row.rank, row.entrant, row.played, row.points, row.decided_by)
1 Cy 1 2 None
2 Ann 2 2 game_difference
3 Bob 1 0 None
>>> read_league({"format": "domino-league/1", "name": "Ladder", "game": "five-up",
...              "entrants": [{"name": "Ann"}, {"name": "Bob"}],
...              "fixtures": [{"home": "Ann", "away": "Dee", "postponed": True}]})
Traceback (most recent call last):
...
matches.rules.errors.LeagueInvalid: fixture 1: away "Dee" is not an entrant

One definition of the standings (league-record.md, "Standings"): the command
``league_table`` prints them from a document, and the league pages from the database,
both through :func:`standings`. Places in messages count from 1, as people do:
``fixture 3``, ``entrants[2].name``, ``adjustments[1].points``.
"""

from __future__ import annotations

import datetime
import enum
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .errors import FixtureNightError, ImpossibleScore, LeagueInvalid, OptionError, shown
from .games import Game, game_for
from .record import MAX_DEPTH, RecordInvalid, read_json

FORMAT: Final = "domino-league/1"
# every criterion a league may name, in the order the spec lists them
TIEBREAKS: Final = ("wins", "game_difference", "games_for", "score_difference", "score_for",
                    "head_to_head", "head_to_head_games")
DEFAULT_TIEBREAKS: Final = ("game_difference", "games_for")
LEAGUE_KEYS: Final = frozenset({"format", "name", "game", "options", "entrants", "scoring",
                                "tiebreaks", "fixtures", "adjustments"})
ENTRANT_KEYS: Final = frozenset({"name", "players"})
SCORING_KEYS: Final = frozenset({"win", "draw", "loss", "per_game", "close_loss", "heavy_win",
                                 "walkover"})
BONUS_KEYS: Final = frozenset({"margin", "points"})
FIXTURE_KEYS: Final = frozenset({"date", "home", "away", "result", "games", "walkover",
                                 "postponed", "void"})
OUTCOMES: Final = ("result", "walkover", "postponed", "void")  # a fixture has exactly one
ADJUSTMENT_KEYS: Final = frozenset({"entrant", "points", "reason"})
_DATE: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# players at a league game's table: one a side, or a pair a side (partners opposite)
SINGLES: Final = 2
PAIRS: Final = 4


# -- values --------------------------------------------------------------------------


class Side(enum.Enum):
    """A fixture's side; for a walkover, the one that turned up."""

    HOME = "home"
    AWAY = "away"


class Outcome(enum.Enum):
    """A fixture's result for one side, by games won, as a form guide writes it."""

    WIN = "W"
    DRAW = "D"
    LOSS = "L"


def outcome(won: int, lost: int) -> Outcome:
    """A side's result from the games it won and lost.

    >>> outcome(3, 1), outcome(2, 2), outcome(0, 1)
    (<Outcome.WIN: 'W'>, <Outcome.DRAW: 'D'>, <Outcome.LOSS: 'L'>)
    """
    if won > lost:
        return Outcome.WIN
    if won == lost:
        return Outcome.DRAW
    return Outcome.LOSS


def game_winner(score: tuple[int, int]) -> Side | None:
    """The side that won a game with this final score (home first); None if it is level,
    which no game ends (league-record.md: a game has a winner).

    >>> game_winner((61, 40)), game_winner((12, 61)), game_winner((50, 50))
    (<Side.HOME: 'home'>, <Side.AWAY: 'away'>, None)
    """
    if score[0] == score[1]:
        return None
    return Side.HOME if score[0] > score[1] else Side.AWAY


def games_won(scores: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """Games won by home and by away, from the games' final scores (a level one counts for
    neither: see :func:`game_winner`).

    >>> games_won([(61, 40), (20, 61), (61, 5)])
    (2, 1)
    """
    winners = [game_winner(score) for score in scores]
    return winners.count(Side.HOME), winners.count(Side.AWAY)


@dataclass(frozen=True)
class Night:
    """How a fixture night is played: a set of ``games`` games (one game is a set of
    one), of which ``pairs`` are played a pair a side and the rest one player a side
    (None: either, game by game), or a race to ``race_to`` games won, played until one
    side has them.

    A set with a ``decider`` (a cup's night, which cannot end level) may add one
    deciding game, numbered after the set and played one or two a side as the captains
    choose; whether the night needs it is the cup's rule (:func:`.cup.tie_winner`), not
    the night's.

    >>> Night(games=3).most_games, Night(race_to=5).most_games
    (3, 9)
    >>> night = Night(games=4, decider=True)
    >>> night.most_games, night.deciding_game
    (5, 5)
    """

    games: int = 1
    race_to: int | None = None
    pairs: int | None = None
    decider: bool = False

    @property
    def players(self) -> tuple[int, ...]:
        """How many play a game of the night, as far as the night says: 2 (one a side)
        or 4 (a pair a side), or either.

        >>> Night(games=3).players, Night(games=3, pairs=0).players, Night(pairs=1).players
        ((2, 4), (2,), (4,))
        """
        if self.pairs == 0:
            return (SINGLES,)
        if self.pairs is not None and self.pairs == self.games:
            return (PAIRS,)
        return (SINGLES, PAIRS)

    @property
    def most_games(self) -> int:
        """The games a night can have: a race is longest when the sides win by turns; a
        set with a decider has one game more."""
        if self.race_to is not None:
            return 2 * self.race_to - 1
        return self.games + 1 if self.decider else self.games

    @property
    def deciding_game(self) -> int | None:
        """The number of the night's deciding game, if it may have one."""
        return self.games + 1 if self.decider and self.race_to is None else None

    def check_number(self, number: int) -> None:
        """Game ``number`` (from 1) can be a game of this night."""
        if not 1 <= number <= self.most_games:
            raise FixtureNightError.of("night_game_number", number=number,
                                       most=self.most_games)

    def check_lineup(self, number: int, *, pair: bool, others: Mapping[int, bool]) -> None:
        """Game ``number``, played a pair a side (``pair``) or one player a side, fits the
        night's singles and pairs beside the line-ups of its other games so far
        (``others``: by number, True for a pairs game).

        >>> Night(games=3, pairs=1).check_lineup(3, pair=False, others={1: False, 2: False})
        Traceback (most recent call last):
        ...
        matches.rules.errors.FixtureNightError: game 3 has to be a pairs game: the \
night's singles (2) have their players already
        """
        self.check_number(number)
        if self.pairs is None or number == self.deciding_game:
            return
        allowed = self.pairs if pair else self.games - self.pairs
        taken = sum(1 for n, kind in others.items()
                    if kind == pair and n != number and n != self.deciding_game)
        if taken < allowed:
            return
        if allowed == 0:
            raise FixtureNightError.of("night_no_pairs" if pair else "night_no_singles",
                                       number=number)
        raise FixtureNightError.of("night_pairs_taken" if pair else "night_singles_taken",
                                   number=number, count=allowed)

    def check_complete(self, scores: Mapping[int, tuple[int, int]]) -> None:
        """The games scored so far (by number) make a finished night: every game of a
        set has its score (a deciding game may have one); a race ends with the game that
        gave a side its last win, and every game before it has its score.

        >>> Night(games=3).check_complete({1: (61, 40), 2: (20, 61)})
        Traceback (most recent call last):
        ...
        matches.rules.errors.FixtureNightError: game 3 has no score yet (a night of 3 games)
        >>> Night(race_to=2).check_complete({1: (61, 40), 2: (61, 12), 3: (5, 61)})
        Traceback (most recent call last):
        ...
        matches.rules.errors.FixtureNightError: game 3 comes after the race to 2 was won \
in game 2
        >>> Night(games=2, decider=True).check_complete({1: (61, 40), 2: (5, 61), 3: (61, 9)})
        """
        for number in scores:
            self.check_number(number)
        if self.race_to is None:
            for number in range(1, self.games + 1):
                if number not in scores:
                    raise FixtureNightError.of("night_game_missing", number=number,
                                               games=self.games)
            return
        won = {Side.HOME: 0, Side.AWAY: 0}
        for number in range(1, max(scores, default=0) + 1):
            if number not in scores:
                raise FixtureNightError.of("race_game_missing", number=number)
            winner = game_winner(scores[number])
            if winner is not None:
                won[winner] += 1
            if self.race_to in won.values() and number < max(scores):
                raise FixtureNightError.of("race_game_after", number=number + 1,
                                           race_to=self.race_to, decided=number)
        if self.race_to not in won.values():
            raise FixtureNightError.of("race_undecided", race_to=self.race_to,
                                       home=won[Side.HOME], away=won[Side.AWAY])

    def ends_with(self, won: tuple[int, int]) -> bool:
        """Whether games won (home, away), the games' scores unknown, make a finished
        night: every game of a set, or those and its deciding game where it has one; a
        race won by one side only.

        >>> Night(games=3).ends_with((2, 1)), Night(games=3).ends_with((1, 0))
        (True, False)
        >>> Night(race_to=3).ends_with((3, 1)), Night(race_to=3).ends_with((3, 3))
        (True, False)
        """
        if self.race_to is not None:
            return max(won) == self.race_to > min(won)
        return sum(won) == self.games or (self.deciding_game is not None
                                          and sum(won) == self.deciding_game)


def check_game_score(game: Game, options: Mapping[str, Any], score: tuple[int, int], *,
                     players: Sequence[int] = (SINGLES, PAIRS)) -> None:
    """Refuse (:class:`ImpossibleScore`) a league game's final score (home, away) that
    no game of ``game`` under the season's ``options`` can end with, with any of
    ``players`` at the table (one a side: 2; a pair a side: 4): a score kept on paper
    and keyed in, where a typing slip would otherwise count. The reason given is the
    first table size's. A table size the options do not allow is passed over.

    A pairs game of Fives and Threes (each player for themselves) scores each pair's
    better player (:func:`game_score`): the winner's score against the best of the rest,
    held to the same rule as two sides.

    >>> from .games import ALL_FIVES, FIVES_AND_THREES
    >>> check_game_score(FIVES_AND_THREES, {"deal": "short"}, (58, 61))
    >>> check_game_score(FIVES_AND_THREES, {}, (40, 50))
    Traceback (most recent call last):
    ...
    matches.rules.errors.ImpossibleScore: neither side has reached the target 61, so 40-50 \
is not a final score
    >>> check_game_score(ALL_FIVES, {}, (200, 150))   # a pairs game's target
    >>> check_game_score(ALL_FIVES, {}, (200, 150), players=[SINGLES])
    Traceback (most recent call last):
    ...
    matches.rules.errors.ImpossibleScore: neither side has reached the target 250, so \
200-150 is not a final score
    """
    first: ImpossibleScore | None = None
    for count in players:
        try:
            match_options = game.options(count, options)
        except OptionError:
            continue
        try:
            game.check_final_score(match_options, score)
        except ImpossibleScore as error:
            first = first or error
            continue
        return
    if first is not None:
        raise first


def game_score(side_scores: Sequence[int]) -> tuple[int, int]:
    """A fixture game's final score, home first, from its match's final score per side,
    the sides in seat order with home's seats first and every other one (the app seats
    a game home, away, home, away).

    Two sides (singles, or a pair a side playing as partners) score their own. A pairs
    game in a game without partnerships (Fives and Threes) has four sides, one per seat:
    a pair scores its better player's score, so the pair whose player won the match
    (the one side ahead of all others at the target) wins the game.

    >>> game_score([61, 40]), game_score([30, 61, 52, 12])
    ((61, 40), (52, 61))
    """
    return max(side_scores[0::2]), max(side_scores[1::2])


@dataclass(frozen=True)
class Bonus:
    """``points`` more for a fixture decided by a margin of games (``close_loss``: at most
    ``margin``; ``heavy_win``: at least ``margin``)."""

    margin: int
    points: int


@dataclass(frozen=True)
class Scoring:
    """How a fixture earns league points; the defaults are the spec's.

    >>> leek = Scoring(win=2, per_game=1)
    >>> leek.points(5, 4), leek.points(4, 5), Scoring(walkover=(5, 4)).walkover
    (7, 4, (5, 4))
    """

    win: int = 2
    draw: int = 1
    loss: int = 0
    per_game: int = 0
    close_loss: Bonus | None = None
    heavy_win: Bonus | None = None
    walkover: tuple[int, int] = (1, 0)

    def points(self, won: int, lost: int) -> int:
        """League points for one side of a fixture in which it won ``won`` games and
        lost ``lost``: win, draw or loss by games won, per game, and the two bonuses."""
        points = self.per_game * won
        result = outcome(won, lost)
        if result is Outcome.WIN:
            points += self.win
            if self.heavy_win is not None and won - lost >= self.heavy_win.margin:
                points += self.heavy_win.points
        elif result is Outcome.DRAW:
            points += self.draw
        else:
            points += self.loss
            if self.close_loss is not None and lost - won <= self.close_loss.margin:
                points += self.close_loss.points
        return points


@dataclass(frozen=True)
class Entrant:
    """A team, pair or single player; ``players`` only as the document lists them."""

    name: str
    players: tuple[str, ...] = ()


@dataclass(frozen=True)
class Fixture:
    """One meeting, numbered from 1 in document order. Exactly one of ``result``
    (with ``games``, the game scores, if known), ``walkover``, ``postponed``, ``void``."""

    number: int
    home: str
    away: str
    date: datetime.date | None = None
    result: tuple[int, int] | None = None
    games: tuple[tuple[int, int], ...] | None = None
    walkover: Side | None = None
    postponed: bool = False
    void: bool = False

    @property
    def counted(self) -> bool:
        """Whether the table counts it: a result or a walkover, not postponed or void."""
        return self.result is not None or self.walkover is not None

    def games_won(self, scoring: Scoring) -> tuple[int, int] | None:
        """Games won by home and away as the table counts them (a walkover credits
        ``scoring.walkover`` to the side that turned up), or None if not counted."""
        if self.result is not None:
            return self.result
        if self.walkover is Side.HOME:
            return scoring.walkover
        if self.walkover is Side.AWAY:
            return scoring.walkover[1], scoring.walkover[0]
        return None


@dataclass(frozen=True)
class Adjustment:
    """Points the league adds (negative: deducts), and why."""

    entrant: str
    points: int
    reason: str


@dataclass(frozen=True)
class League:
    """A season as read from its document: names are the entrants' own spelling."""

    name: str
    game: Game
    options: Mapping[str, Any]
    entrants: tuple[Entrant, ...]
    scoring: Scoring = field(default_factory=Scoring)
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS
    fixtures: tuple[Fixture, ...] = ()
    adjustments: tuple[Adjustment, ...] = ()


@dataclass(frozen=True)
class Standing:
    """One row of the table. ``points`` includes ``adjustment``; ``score_*`` count only
    games with scores. ``decided_by`` is the tie-breaker that put this row below the one
    above it (None when points did, or when it shares that row's rank); ``shared`` says
    its rank is shared with another row."""

    rank: int
    entrant: str
    played: int
    won: int
    drawn: int
    lost: int
    games_for: int
    games_against: int
    score_for: int
    score_against: int
    adjustment: int
    points: int
    decided_by: str | None = None
    shared: bool = False


@dataclass(frozen=True)
class Table:
    """The standings: one row per entrant, in rank order."""

    league: str
    rows: tuple[Standing, ...]


# -- reading -------------------------------------------------------------------------


def loads(text: str | bytes) -> dict[str, Any]:
    """Parse one league document's JSON text (not yet read: see :func:`read_league`),
    with the record reader's guards (:func:`~matches.rules.record.read_json`): no
    nesting deeper than a record's, no number of thousands of digits, no NUL in a text."""
    try:
        document = read_json(text)
    except RecordInvalid as error:
        if error.code == "record_too_deep":
            raise LeagueInvalid.of("league_too_deep", depth=MAX_DEPTH) from None
        if error.code == "record_digits":
            raise LeagueInvalid.of("league_digits") from None
        if error.code == "record_nul":
            raise LeagueInvalid.of("league_nul") from None
        if error.code == "record_surrogate":
            raise LeagueInvalid.of("league_surrogate") from None
        # not JSON, or not UTF-8: said as the record reader says it
        raise LeagueInvalid.wrap(error, None) from None
    if not isinstance(document, dict):
        raise LeagueInvalid.of("league_not_object")
    return document


def read_league(document: Mapping[str, Any]) -> League:
    """Validate a ``domino-league/1`` document strictly; anything wrong refuses it whole."""
    if not isinstance(document, Mapping):
        raise LeagueInvalid.of("league_not_object")
    unknown = _unknown(document, LEAGUE_KEYS)
    if unknown is not None:
        raise LeagueInvalid.of("league_unknown_field", field=repr(unknown))
    if "format" not in document:
        raise LeagueInvalid.at("format", "missing")
    if document["format"] != FORMAT:
        raise LeagueInvalid.at("format", "league_format", expected=shown(FORMAT),
                                 value=shown(document["format"]))
    name = _text(document, "name", "name")
    game = _game(document)
    options = _options(document, game)
    entrants = _entrants(document)
    by_key = {entrant.name.casefold(): entrant.name for entrant in entrants}
    scoring = _scoring(document.get("scoring", {}))
    tiebreaks = _tiebreaks(document.get("tiebreaks", list(DEFAULT_TIEBREAKS)))
    if "fixtures" not in document:
        raise LeagueInvalid.at("fixtures", "missing")
    fixtures_doc = document["fixtures"]
    if not isinstance(fixtures_doc, list):
        raise LeagueInvalid.at("fixtures", "must_be_list", value=shown(fixtures_doc))
    fixtures = tuple(_fixture(doc, number, by_key)
                     for number, doc in enumerate(fixtures_doc, start=1))
    adjustments_doc = document.get("adjustments", [])
    if not isinstance(adjustments_doc, list):
        raise LeagueInvalid.at("adjustments", "must_be_list", value=shown(adjustments_doc))
    adjustments = tuple(_adjustment(doc, f"adjustments[{number}]", by_key)
                        for number, doc in enumerate(adjustments_doc, start=1))
    return League(name, game, options, entrants, scoring, tiebreaks, fixtures, adjustments)


def _game(document: Mapping[str, Any]) -> Game:
    if "game" not in document:
        raise LeagueInvalid.at("game", "missing")
    try:
        return game_for(document["game"])
    except OptionError as error:
        raise LeagueInvalid.wrap(error, "game") from None


def _options(document: Mapping[str, Any], game: Game) -> dict[str, Any]:
    """The options as given, if some table of the game's player counts can play them.

    A league fixes the rules, not the table size (a night may mix singles and doubles),
    so the options are checked as a match record's are, for each player count the game
    allows; one that fits is enough. If none does, the message is the smallest count's.
    """
    options = document.get("options", {})
    if not isinstance(options, dict):
        raise LeagueInvalid.at("options", "must_be_object", value=shown(options))
    first: OptionError | None = None
    for players in range(game.players[0], game.players[1] + 1):
        try:
            game.options(players, options)
        except OptionError as error:
            if first is None:
                first = error
            continue
        return dict(options)
    assert first is not None  # a game allows one player count at least
    raise LeagueInvalid.wrap(first, "options")


def _entrants(document: Mapping[str, Any]) -> tuple[Entrant, ...]:
    if "entrants" not in document:
        raise LeagueInvalid.at("entrants", "missing")
    docs = document["entrants"]
    if not isinstance(docs, list):
        raise LeagueInvalid.at("entrants", "must_be_list", value=shown(docs))
    entrants: list[Entrant] = []
    seen: dict[str, int] = {}  # casefolded name: its place
    for number, doc in enumerate(docs, start=1):
        where = f"entrants[{number}]"
        _check_object(doc, ENTRANT_KEYS, where)
        name = _text(doc, "name", f"{where}.name")
        key = name.casefold()
        if key in seen:
            raise LeagueInvalid.at(f"{where}.name", "entrant_name_taken", name=shown(name),
                                   place=seen[key])
        seen[key] = number
        players = doc.get("players", [])
        if (not isinstance(players, list)
                or not all(isinstance(player, str) and player.strip() for player in players)):
            raise LeagueInvalid.at(f"{where}.players", "entrant_players", value=shown(players))
        entrants.append(Entrant(name, tuple(players)))
    return tuple(entrants)


def _scoring(doc: object) -> Scoring:
    _check_object(doc, SCORING_KEYS, "scoring")
    assert isinstance(doc, Mapping)
    defaults = Scoring()
    win = _whole(doc, "win", "scoring.win", defaults.win)
    draw = _whole(doc, "draw", "scoring.draw", defaults.draw)
    loss = _whole(doc, "loss", "scoring.loss", defaults.loss)
    per_game = _whole(doc, "per_game", "scoring.per_game", defaults.per_game)
    close_loss = _bonus(doc, "close_loss")
    heavy_win = _bonus(doc, "heavy_win")
    walkover = defaults.walkover
    if "walkover" in doc:
        pair = score_pair(doc["walkover"])
        if pair is None:
            raise LeagueInvalid.at("scoring.walkover", "walkover_pair",
                                     value=shown(doc["walkover"]))
        if pair[0] <= pair[1]:
            raise LeagueInvalid.at("scoring.walkover", "walkover_order",
                                     value=shown(doc["walkover"]))
        walkover = pair
    return Scoring(win, draw, loss, per_game, close_loss, heavy_win, walkover)


def _bonus(doc: Mapping[str, Any], key: str) -> Bonus | None:
    if key not in doc:
        return None
    where = f"scoring.{key}"
    value = doc[key]
    if not isinstance(value, Mapping):
        raise LeagueInvalid.at(where, "bonus_object", value=shown(value))
    _check_object(value, BONUS_KEYS, where)
    margin = _whole(value, "margin", f"{where}.margin")
    points = _whole(value, "points", f"{where}.points")
    return Bonus(margin, points)


def _tiebreaks(value: object) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise LeagueInvalid.at("tiebreaks", "must_be_list", value=shown(value))
    seen: dict[str, int] = {}
    for number, name in enumerate(value, start=1):
        where = f"tiebreaks[{number}]"
        if not isinstance(name, str) or name not in TIEBREAKS:
            raise LeagueInvalid.at(where, "unknown_tiebreak", value=shown(name),
                                     choices=", ".join(TIEBREAKS))
        if name in seen:
            raise LeagueInvalid.at(where, "tiebreak_twice", value=shown(name), place=seen[name])
        seen[name] = number
    return tuple(value)


def _fixture(doc: object, number: int, by_key: Mapping[str, str]) -> Fixture:
    where = f"fixture {number}"
    _check_object(doc, FIXTURE_KEYS, where)
    assert isinstance(doc, Mapping)
    home = _entrant_name(doc, "home", where, by_key)
    away = _entrant_name(doc, "away", where, by_key)
    if home == away:
        raise LeagueInvalid.at(where, "home_is_away", name=shown(home))
    date = _date(doc, where)
    present = [key for key in OUTCOMES if key in doc]
    if len(present) != 1:
        if not present:
            raise LeagueInvalid.at(where, "fixture_no_outcome")
        raise LeagueInvalid.at(where, "fixture_outcomes", found=tuple(present))
    if "games" in doc and "result" not in doc:
        raise LeagueInvalid.at(where, "games_without_result", kind=present[0])
    kind = present[0]
    value = doc[kind]
    if kind == "result":
        result = score_pair(value)
        if result is None:
            raise LeagueInvalid.at(where, "result_pair", value=shown(value))
        if result == (0, 0):
            raise LeagueInvalid.at(where, "result_nil")
        games = _games(doc["games"], result, where) if "games" in doc else None
        return Fixture(number, home, away, date, result=result, games=games)
    if kind == "walkover":
        if value == "home" or value == "away":
            return Fixture(number, home, away, date, walkover=Side(value))
        raise LeagueInvalid.at(where, "walkover_side", value=shown(value))
    if value is not True:
        raise LeagueInvalid.at(where, "must_be_true", kind=kind, value=shown(value))
    return Fixture(number, home, away, date, postponed=kind == "postponed", void=kind == "void")


def _games(value: object, result: tuple[int, int], where: str
           ) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list):
        raise LeagueInvalid.at(where, "games_list", value=shown(value))
    expected = result[0] + result[1]
    if len(value) != expected:
        raise LeagueInvalid.at(where, "games_count", count=len(value), expected=expected,
                               result=f"{result[0]}-{result[1]}")
    games: list[tuple[int, int]] = []
    for number, game in enumerate(value, start=1):
        pair = score_pair(game)
        if pair is None:
            raise LeagueInvalid.at(where, "game_pair", place=number, value=shown(game))
        if game_winner(pair) is None:
            raise LeagueInvalid.at(where, "game_level", place=number, home=pair[0], away=pair[1])
        games.append(pair)
    won = games_won(games)
    if won != result:
        raise LeagueInvalid.at(where, "games_winners", home=won[0], away=won[1],
                               result=f"{result[0]}-{result[1]}")
    return tuple(games)


def _adjustment(doc: object, where: str, by_key: Mapping[str, str]) -> Adjustment:
    _check_object(doc, ADJUSTMENT_KEYS, where)
    assert isinstance(doc, Mapping)
    entrant = _entrant_name(doc, "entrant", f"{where}.entrant", by_key, in_reason=False)
    if "points" not in doc:
        raise LeagueInvalid.at(f"{where}.points", "missing")
    points = doc["points"]
    if type(points) is not int or points == 0:
        raise LeagueInvalid.at(f"{where}.points", "adjustment_points", value=shown(points))
    reason = _text(doc, "reason", f"{where}.reason")
    return Adjustment(entrant, points, reason)


# -- small readers: each refuses with the place it was given ---------------------------


def _check_object(doc: object, allowed: frozenset[str], where: str) -> None:
    if not isinstance(doc, Mapping):
        raise LeagueInvalid.at(where, "must_be_object", value=shown(doc))
    unknown = _unknown(doc, allowed)
    if unknown is not None:
        raise LeagueInvalid.at(where, "unknown_field", field=repr(unknown))


def _unknown(doc: Mapping[Any, Any], allowed: frozenset[str]) -> str | None:
    extra = [str(key) for key in doc if key not in allowed]
    return min(extra) if extra else None


def _text(doc: Mapping[str, Any], key: str, where: str) -> str:
    if key not in doc:
        raise LeagueInvalid.at(where, "missing")
    value = doc[key]
    if not isinstance(value, str) or not value.strip():
        raise LeagueInvalid.at(where, "blank_text", value=shown(value))
    return value


def _whole(doc: Mapping[str, Any], key: str, where: str, default: int | None = None) -> int:
    """A whole number from 0 (a JSON ``true`` or ``2.0`` is not one)."""
    if key not in doc:
        if default is None:
            raise LeagueInvalid.at(where, "missing")
        return default
    value = doc[key]
    if type(value) is not int or value < 0:
        raise LeagueInvalid.at(where, "whole_number", value=shown(value))
    return value


def score_pair(value: object) -> tuple[int, int] | None:
    """Two whole numbers from 0 (a score, a walkover), as a list (a document's) or a
    tuple (a stored result's), or None."""
    if not isinstance(value, tuple | list) or len(value) != 2:
        return None
    first, second = value[0], value[1]
    if type(first) is not int or type(second) is not int or first < 0 or second < 0:
        return None
    return first, second


def _entrant_name(doc: Mapping[str, Any], key: str, where: str, by_key: Mapping[str, str],
                  *, in_reason: bool = True) -> str:
    """The entrant's own spelling of a name given in any case (names compare without it)."""
    if key not in doc:
        if in_reason:
            raise LeagueInvalid.at(where, "side_missing", key=key)
        raise LeagueInvalid.at(where, "missing")
    value = doc[key]
    if not isinstance(value, str):
        if in_reason:
            raise LeagueInvalid.at(where, "side_name_type", key=key, value=shown(value))
        raise LeagueInvalid.at(where, "entrant_name_type", value=shown(value))
    name = by_key.get(value.casefold())
    if name is None:
        if in_reason:
            raise LeagueInvalid.at(where, "side_not_an_entrant", key=key, name=shown(value))
        raise LeagueInvalid.at(where, "not_an_entrant", name=shown(value))
    return name


def _date(doc: Mapping[str, Any], where: str) -> datetime.date | None:
    if "date" not in doc:
        return None
    value = doc["date"]
    if isinstance(value, str) and _DATE.fullmatch(value):
        try:
            return datetime.date(int(value[:4]), int(value[5:7]), int(value[8:]))
        except ValueError:
            pass
    raise LeagueInvalid.at(where, "date_format", value=shown(value))


# -- the standings -------------------------------------------------------------------


class _Tally:
    """One entrant's running totals while the fixtures are counted."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.played = 0
        self.won = 0
        self.drawn = 0
        self.lost = 0
        self.games_for = 0
        self.games_against = 0
        self.score_for = 0
        self.score_against = 0
        self.fixture_points = 0
        self.adjustment = 0

    @property
    def points(self) -> int:
        return self.fixture_points + self.adjustment

    def count(self, won: int, lost: int, score_for: int, score_against: int,
              scoring: Scoring) -> None:
        self.played += 1
        result = outcome(won, lost)
        if result is Outcome.WIN:
            self.won += 1
        elif result is Outcome.DRAW:
            self.drawn += 1
        else:
            self.lost += 1
        self.games_for += won
        self.games_against += lost
        self.score_for += score_for
        self.score_against += score_against
        self.fixture_points += scoring.points(won, lost)


# a counted fixture as head-to-head reads it: home, away, games won by each
_Meeting = tuple[str, str, int, int]


def standings(league: League) -> Table:
    """The table by league-record.md's rules: points, then each tie-breaker in turn.

    Each tie-breaker is applied once, in the league's order, to each group still level
    on points and on every earlier tie-breaker; ``head_to_head`` and
    ``head_to_head_games`` count only the fixtures among that group. Entrants level on
    everything share a rank (1, 2, 2, 4) and are listed in name order: the table shows
    a tie, it never invents an order.
    """
    scoring = league.scoring
    tallies = {entrant.name: _Tally(entrant.name) for entrant in league.entrants}
    meetings: list[_Meeting] = []
    for fixture in league.fixtures:
        won = fixture.games_won(scoring)
        if won is None:
            continue
        home = _tally(tallies, fixture.home, f"fixture {fixture.number}")
        away = _tally(tallies, fixture.away, f"fixture {fixture.number}")
        home_score = away_score = 0
        for home_points, away_points in fixture.games or ():
            home_score += home_points
            away_score += away_points
        home.count(won[0], won[1], home_score, away_score, scoring)
        away.count(won[1], won[0], away_score, home_score, scoring)
        meetings.append((fixture.home, fixture.away, won[0], won[1]))
    for number, adjustment in enumerate(league.adjustments, start=1):
        adjusted = _tally(tallies, adjustment.entrant, f"adjustments[{number}]")
        adjusted.adjustment += adjustment.points

    by_points: dict[int, list[_Tally]] = {}
    for tally in tallies.values():
        by_points.setdefault(tally.points, []).append(tally)
    placed: list[tuple[list[_Tally], str | None]] = []
    for points in sorted(by_points, reverse=True):
        placed.extend(_separate(by_points[points], 0, league.tiebreaks, meetings, scoring))

    rows: list[Standing] = []
    for group, decided_by in placed:
        rank = len(rows) + 1
        shared = len(group) > 1
        for index, tally in enumerate(sorted(group, key=_name_order)):
            rows.append(Standing(
                rank, tally.name, tally.played, tally.won, tally.drawn, tally.lost,
                tally.games_for, tally.games_against, tally.score_for, tally.score_against,
                tally.adjustment, tally.points, decided_by if index == 0 else None, shared))
    return Table(league.name, tuple(rows))


def _tally(tallies: Mapping[str, _Tally], name: str, where: str) -> _Tally:
    tally = tallies.get(name)
    if tally is None:  # only a League built by hand, not by read_league, can get here
        raise LeagueInvalid.at(where, "not_an_entrant", name=shown(name))
    return tally


def _name_order(tally: _Tally) -> tuple[str, str]:
    return tally.name.casefold(), tally.name


def _separate(group: list[_Tally], step: int, tiebreaks: Sequence[str],
              meetings: Sequence[_Meeting], scoring: Scoring
              ) -> list[tuple[list[_Tally], str | None]]:
    """``group`` (level so far) split by ``tiebreaks[step:]``, best first; each part
    with the tie-breaker that put it below the part before (None for the first)."""
    if len(group) == 1 or step == len(tiebreaks):
        return [(group, None)]
    criterion = tiebreaks[step]
    values = _values(criterion, group, meetings, scoring)
    buckets: dict[int, list[_Tally]] = {}
    for tally in group:
        buckets.setdefault(values[tally.name], []).append(tally)
    parts: list[tuple[list[_Tally], str | None]] = []
    for index, value in enumerate(sorted(buckets, reverse=True)):
        split = _separate(buckets[value], step + 1, tiebreaks, meetings, scoring)
        if index > 0:
            split[0] = (split[0][0], criterion)
        parts.extend(split)
    return parts


def _values(criterion: str, group: list[_Tally], meetings: Sequence[_Meeting],
            scoring: Scoring) -> dict[str, int]:
    """Each member's value for one criterion; higher is better."""
    if criterion == "head_to_head" or criterion == "head_to_head_games":
        members = {tally.name for tally in group}
        points = dict.fromkeys(members, 0)
        difference = dict.fromkeys(members, 0)
        for home, away, home_won, away_won in meetings:
            if home in members and away in members:
                points[home] += scoring.points(home_won, away_won)
                points[away] += scoring.points(away_won, home_won)
                difference[home] += home_won - away_won
                difference[away] += away_won - home_won
        return points if criterion == "head_to_head" else difference
    values: dict[str, int] = {}
    for tally in group:
        if criterion == "wins":
            value = tally.won
        elif criterion == "game_difference":
            value = tally.games_for - tally.games_against
        elif criterion == "games_for":
            value = tally.games_for
        elif criterion == "score_difference":
            value = tally.score_for - tally.score_against
        elif criterion == "score_for":
            value = tally.score_for
        else:
            raise LeagueInvalid.at("tiebreaks", "unknown_tiebreak_bare", value=shown(criterion))
        values[tally.name] = value
    return values


def form_guide(league: League, last: int = 5) -> dict[str, str]:
    """Each entrant's ``last`` counted results, oldest first, as letters (``"WDL"``),
    for the entrants that have one.

    Results are counted as the table counts them (:meth:`Fixture.games_won`: a walkover
    by the league's ``scoring.walkover``); oldest first means dated fixtures by date,
    then undated ones, each in the document's order.

    >>> league = read_league({
    ...     "format": "domino-league/1", "name": "Ladder", "game": "five-up",
    ...     "entrants": [{"name": "Ann"}, {"name": "Bob"}],
    ...     "fixtures": [{"home": "Ann", "away": "Bob", "result": [1, 1]},
    ...                  {"home": "Bob", "away": "Ann", "walkover": "home",
    ...                   "date": "2026-09-07"}]})
    >>> form_guide(league)
    {'Bob': 'WD', 'Ann': 'LD'}
    """
    results: dict[str, list[str]] = {}
    # a stable sort: fixtures on one date (or undated) keep the document's order
    for fixture in sorted(league.fixtures,
                          key=lambda f: (f.date is None, f.date or datetime.date.min)):
        won = fixture.games_won(league.scoring)
        if won is None:
            continue
        results.setdefault(fixture.home, []).append(outcome(won[0], won[1]).value)
        results.setdefault(fixture.away, []).append(outcome(won[1], won[0]).value)
    return {name: "".join(letters[-last:]) for name, letters in results.items()}


# -- writing -------------------------------------------------------------------------


def table_json(table: Table) -> dict[str, Any]:
    """The standings as league-record.md's "Standings" JSON (keys in its order)."""
    return {
        "league": table.league,
        "standings": [{
            "rank": row.rank,
            "entrant": row.entrant,
            "played": row.played,
            "won": row.won,
            "drawn": row.drawn,
            "lost": row.lost,
            "games_for": row.games_for,
            "games_against": row.games_against,
            "score_for": row.score_for,
            "score_against": row.score_against,
            "adjustment": row.adjustment,
            "points": row.points,
        } for row in table.rows],
    }


__all__ = ["DEFAULT_TIEBREAKS", "FORMAT", "TIEBREAKS", "Adjustment", "Bonus", "Entrant",
           "Fixture", "League", "Outcome", "Scoring", "Side", "Standing", "Table", "form_guide",
           "game_score", "game_winner", "games_won", "loads", "outcome", "read_league",
           "standings", "table_json"]
