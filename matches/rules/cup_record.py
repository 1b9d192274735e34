"""The ``domino-cup/1`` document: a knockout cup as a file, read back strictly.

A document holds what it takes to store the same cup again: its name, first night,
game and options, what a tie is, how it is drawn and decided, the draw's seed and the
seeds, its entrants, the stored draw (entrants by name; the plate's first round by the
cup's ties whose losers take each place), its rounds' dates, its finals night and each
tie's result. :func:`read_cup` checks every field and the draw and results against the
cup rules (:func:`matches.rules.cup.bracket`); anything wrong refuses the document whole
with a :class:`~matches.rules.errors.CupError` whose message names the field
(``entrants[2].name: ...``, places from 1).

>>> document = {"format": FORMAT, "name": "Cup", "starts_on": "2026-10-05",
...     "game": "all-fives", "entrants": [{"name": "Ann"}, {"name": "Bob"}],
...     "drawn": {"size": 2, "first_round": [["Ann", "Bob"]], "later_rounds": []},
...     "ties": [{"round": 1, "position": 1, "result": {"games": [[61, 40]]}}]}
>>> record = read_cup(document)
>>> from matches.rules.cup import bracket
>>> bracket(record.cup, record.results).winner
'Ann'
>>> read_cup({**document, "entrants": [{"name": "Ann"}, {"name": " "}]})
Traceback (most recent call last):
...
matches.rules.errors.CupError: entrants[2].name: a name, not blank
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from . import cup as cup_rules
from .errors import CupError, shown
from .league import Side
from .record import GUARDS_SAID, RecordInvalid, read_json

FORMAT: Final = "domino-cup/1"
MAX_SEED: Final = 2**53 - 1
MAX_ENTRANTS: Final = 1024
MAX_GAMES: Final = 64
TIE_FORMATS: Final = ("single", "race", "games")
ENTRANT_KINDS: Final = ("team", "pair", "single")

DOCUMENT_KEYS: Final = frozenset({
    "format", "name", "starts_on", "game", "options", "tie", "draw", "plate", "level_tie",
    "walkover", "entrants", "drawn", "plate_drawn", "rounds", "finals", "ties"})
TIE_KEYS: Final = frozenset({"format", "singles", "pairs", "race_to", "count_submitted",
                             "paper_players_optional"})
DRAW_KEYS: Final = frozenset({"method", "timing", "seed", "seeds"})
ENTRANT_KEYS: Final = frozenset({"name", "kind", "players"})
DRAWN_KEYS: Final = frozenset({"size", "first_round", "later_rounds"})
ROUND_KEYS: Final = frozenset({"number", "plate", "date"})
FINALS_KEYS: Final = frozenset({"date", "venue"})
RESULT_TIE_KEYS: Final = frozenset({"round", "position", "plate", "result"})
RESULT_KEYS: Final = frozenset({"games", "decider", "walkover"})


@dataclass(frozen=True)
class TieFormat:
    """What a tie is, as a season says it: one game, a race to N, or singles + pairs."""

    format: str = "single"
    singles: int = 0
    pairs: int = 0
    race_to: int | None = None
    count_submitted: bool = False
    paper_players_optional: bool = False


@dataclass(frozen=True)
class CupEntrant:
    name: str
    kind: str = "team"
    players: tuple[str, ...] = ()


@dataclass(frozen=True)
class CupRound:
    number: int
    plate: bool
    date: datetime.date | None


@dataclass(frozen=True)
class CupRecord:
    """A read ``domino-cup/1`` document: ``cup`` is None while the cup is not drawn
    (then ``results`` is empty)."""

    name: str
    starts_on: datetime.date
    game: str
    options: Mapping[str, Any]
    tie: TieFormat
    format: cup_rules.CupFormat
    seed: int
    seeds: tuple[str, ...]
    entrants: tuple[CupEntrant, ...]
    cup: cup_rules.Cup | None
    rounds: tuple[CupRound, ...] = ()
    finals_on: datetime.date | None = None
    finals_venue: str = ""
    results: Mapping[cup_rules.TieKey, cup_rules.TieResult] = field(default_factory=dict)


def refused(where: str, reason: str) -> CupError:
    """The refusal of a document at ``where`` (a field, places from 1)."""
    return CupError(f"{where}: {reason}" if where else reason, code="",
                    params={"where": where, "reason": reason})


def loads(text: str | bytes) -> dict[str, Any]:
    """A document's JSON text as an object (not yet read: see :func:`read_cup`), with
    the record reader's guards (:func:`~matches.rules.record.read_json`), as a league
    document is read: no nesting deeper than a record's, no number of thousands of
    digits, no NUL in a text."""
    try:
        document = read_json(text)
    except RecordInvalid as error:
        # the record reader's guards as any document's (anything else: not JSON)
        raise refused("", GUARDS_SAID.get(error.code or "", f"not JSON ({error})")) from None
    if not isinstance(document, dict):
        raise refused("", "a domino-cup/1 document is a JSON object")
    return document


def read_cup(document: Mapping[str, Any]) -> CupRecord:
    """Validate a ``domino-cup/1`` document strictly; anything wrong refuses it whole."""
    if not isinstance(document, Mapping):
        raise refused("", "a domino-cup/1 document is a JSON object")
    _known(document, DOCUMENT_KEYS, "")
    if document.get("format") != FORMAT:
        raise refused("format", f"{shown(FORMAT)}, not {shown(document.get('format'))}")
    name = _text(document.get("name"), "name")
    starts_on = _date(document.get("starts_on"), "starts_on")
    game = _text(document.get("game"), "game")
    options = document.get("options", {})
    if not isinstance(options, dict):
        raise refused("options", f"an object, not {shown(options)}")
    tie = _tie_format(document.get("tie", {}))
    draw = document.get("draw", {})
    _object(draw, "draw", DRAW_KEYS)
    try:
        format = cup_rules.CupFormat(
            method=_choice(cup_rules.DrawMethod, draw.get("method", "random"), "draw.method"),
            timing=_choice(cup_rules.DrawTiming, draw.get("timing", "all_at_once"),
                           "draw.timing"),
            plate=_flag(document.get("plate", False), "plate"),
            level_tie=_choice(cup_rules.LevelTie, document.get("level_tie", "total_points"),
                              "level_tie"),
            walkover=_walkover(document.get("walkover", [1, 0])))
    except CupError as error:
        if error.code == "cup_walkover":
            raise refused("walkover", str(error)) from None
        raise
    seed = draw.get("seed", 0)
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise refused("draw.seed", f"a whole number from 0 to {MAX_SEED}, not {shown(seed)}")
    entrants = _entrants(document.get("entrants"))
    names = [entrant.name for entrant in entrants]
    seeds = _seeds(draw.get("seeds", []), names, format)
    cup = _drawn(document, names, format)
    rounds = _rounds(document.get("rounds", []), cup)
    finals_on, finals_venue = _finals(document.get("finals"))
    results = _results(document.get("ties", []), cup)
    return CupRecord(name=name, starts_on=starts_on, game=game, options=dict(options), tie=tie,
                     format=format, seed=seed, seeds=seeds, entrants=entrants, cup=cup,
                     rounds=rounds, finals_on=finals_on, finals_venue=finals_venue,
                     results=results)


# -- the parts -------------------------------------------------------------------------


def _tie_format(value: object) -> TieFormat:
    _object(value, "tie", TIE_KEYS)
    assert isinstance(value, dict)
    kind = value.get("format", "single")
    if kind not in TIE_FORMATS:
        raise refused("tie.format", f"one of {', '.join(TIE_FORMATS)}, not {shown(kind)}")
    race_to = value.get("race_to")
    if race_to is not None:
        race_to = _count(race_to, "tie.race_to")
    return TieFormat(format=kind, singles=_count(value.get("singles", 0), "tie.singles"),
                     pairs=_count(value.get("pairs", 0), "tie.pairs"), race_to=race_to,
                     count_submitted=_flag(value.get("count_submitted", False),
                                           "tie.count_submitted"),
                     paper_players_optional=_flag(value.get("paper_players_optional", False),
                                                  "tie.paper_players_optional"))


def _entrants(value: object) -> tuple[CupEntrant, ...]:
    if not isinstance(value, list):
        raise refused("entrants", f"a list of entrants, not {shown(value)}")
    if len(value) > MAX_ENTRANTS:
        raise refused("entrants", f"at most {MAX_ENTRANTS} entrants, not {len(value)}")
    found: list[CupEntrant] = []
    seen: dict[str, int] = {}
    for place, entrant in enumerate(value, start=1):
        where = f"entrants[{place}]"
        _object(entrant, where, ENTRANT_KEYS)
        assert isinstance(entrant, dict)
        name = _text(entrant.get("name"), f"{where}.name")
        folded = name.casefold()
        if folded in seen:
            raise refused(f"{where}.name",
                          f"{shown(name)} is entrant {seen[folded]} already")
        seen[folded] = place
        kind = entrant.get("kind", "team")
        if kind not in ENTRANT_KINDS:
            raise refused(f"{where}.kind",
                          f"one of {', '.join(ENTRANT_KINDS)}, not {shown(kind)}")
        players = entrant.get("players", [])
        if not isinstance(players, list):
            raise refused(f"{where}.players", f"a list of names, not {shown(players)}")
        found.append(CupEntrant(name=name, kind=kind, players=tuple(
            _text(player, f"{where}.players[{number}]")
            for number, player in enumerate(players, start=1))))
    return tuple(found)


def _seeds(value: object, names: Sequence[str], format: cup_rules.CupFormat
           ) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise refused("draw.seeds", f"a list of entrants' names, not {shown(value)}")
    if value and format.method is not cup_rules.DrawMethod.SEEDED:
        raise refused("draw.seeds", "only a seeded draw has seeds")
    try:
        for place, name in enumerate(value, start=1):
            if not isinstance(name, str):  # no name is a list's (nor a hashable one)
                raise CupError.of("cup_seed_not_entrant", place=place, name=shown(name))
        value = [" ".join(name.split()) for name in value]  # as the entrants' were read
        if value:  # the draw's own check of its seeds
            cup_rules.checked_seeds(value, names)
    except CupError as error:
        raise refused(f"draw.seeds[{error.params['place']}]", str(error)) from None
    return tuple(value)


def _drawn(document: Mapping[str, Any], names: Sequence[str],
           format: cup_rules.CupFormat) -> cup_rules.Cup | None:
    main = document.get("drawn")
    plate = document.get("plate_drawn")
    if main is None:
        if plate is not None:
            raise refused("plate_drawn", "a plate is drawn only after the cup")
        return None
    _object(main, "drawn", DRAWN_KEYS)
    first = main.get("first_round")
    if not isinstance(first, list):
        raise refused("drawn.first_round", f"a list of pairs, not {shown(first)}")
    for place, pair in enumerate(first, start=1):
        if not isinstance(pair, list) or len(pair) != 2:
            raise refused(f"drawn.first_round[{place}]",
                          f"[home, away] (away null for a bye), not {shown(pair)}")
    # an entrant named as its entry's name was read: spaces tidied
    first = [[" ".join(side.split()) if isinstance(side, str) else side for side in pair]
             for pair in first]
    try:  # each entrant drawn once, in as many pairs as the bracket has
        checked = cup_rules.draw(names, cup_rules.CupFormat(
            method=cup_rules.DrawMethod.BY_HAND, timing=format.timing), pairs=first)
    except CupError as error:
        raise refused("drawn.first_round", str(error)) from None
    size = checked.main.size
    if main.get("size", size) != size:
        raise refused("drawn.size", f"{size} for {len(names)} entrants, "
                                    f"not {shown(main.get('size'))}")
    later = _later_rounds(main.get("later_rounds", []), size, "drawn.later_rounds")
    if format.timing is cup_rules.DrawTiming.ALL_AT_ONCE and later != checked.main.later_rounds:
        raise refused("drawn.later_rounds", "a cup drawn all at once follows its bracket: "
                                            "ties 1 and 2 feed tie 1, and so on")
    cup = cup_rules.Cup(format, tuple(names),
                        cup_rules.Draw(size, checked.main.first_round, later))
    if plate is None:
        return cup
    if not format.plate:
        raise refused("plate_drawn", "the cup has no plate")
    _object(plate, "plate_drawn", DRAWN_KEYS)
    plate_first = plate.get("first_round")
    if not isinstance(plate_first, list) or not plate_first:
        raise refused("plate_drawn.first_round", f"a list of pairs, not {shown(plate_first)}")
    pairs: list[tuple[cup_rules.Entry, cup_rules.Entry | None]] = []
    used: set[cup_rules.TieKey] = set()
    for place, pair in enumerate(plate_first, start=1):
        where = f"plate_drawn.first_round[{place}]"
        if not isinstance(pair, list) or len(pair) != 2 or pair[0] is None:
            raise refused(where, f"[home, away] (away null for a bye), not {shown(pair)}")
        entries: list[cup_rules.TieKey | None] = []
        for side, entry in enumerate(pair, start=1):
            if entry is None:
                entries.append(None)
                continue
            key = _tie_ref(entry, f"{where}[{side}]", cup.main)
            if key in used:
                raise refused(f"{where}[{side}]", f"the loser of {key} has a place already")
            used.add(key)
            entries.append(key)
        home = entries[0]
        assert home is not None
        pairs.append((home, entries[1]))
    plate_size = len(pairs) * 2
    if plate_size & (plate_size - 1) or plate.get("size", plate_size) != plate_size:
        raise refused("plate_drawn.size", f"twice the first round's pairs, a power of two, "
                                          f"not {shown(plate.get('size'))}")
    plate_later = _later_rounds(plate.get("later_rounds", []), plate_size,
                                "plate_drawn.later_rounds")
    return cup_rules.Cup(format, tuple(names), cup.main,
                         cup_rules.Draw(plate_size, tuple(pairs), plate_later))


def _later_rounds(value: object, size: int, where: str) -> tuple[cup_rules.Feeders, ...]:
    if not isinstance(value, list):
        raise refused(where, f"a list of rounds, not {shown(value)}")
    rounds: list[cup_rules.Feeders] = []
    ties = size // 2
    for number, feeders in enumerate(value, start=1):
        here = f"{where}[{number}]"
        if ties < 2:
            raise refused(here, "the bracket has no round after its final")
        if not isinstance(feeders, list) or len(feeders) != ties // 2:
            raise refused(here, f"{ties // 2} pairs of the round before's ties, "
                                f"not {shown(feeders)}")
        seen: set[int] = set()
        pairs: list[tuple[int, int]] = []
        for place, pair in enumerate(feeders, start=1):
            if (not isinstance(pair, list) or len(pair) != 2
                    or any(type(tie) is not int or not 1 <= tie <= ties for tie in pair)
                    or pair[0] == pair[1] or seen & set(pair)):
                raise refused(f"{here}[{place}]", f"two ties of the round before (1 to "
                                                  f"{ties}), each once, not {shown(pair)}")
            seen.update(pair)
            pairs.append((pair[0], pair[1]))
        rounds.append(tuple(pairs))
        ties //= 2
    return tuple(rounds)


def _tie_ref(value: object, where: str, main: cup_rules.Draw) -> cup_rules.TieKey:
    if (not isinstance(value, dict) or set(value) != {"round", "position"}
            or type(value["round"]) is not int or type(value["position"]) is not int):
        raise refused(where, f'a cup\'s tie as {{"round": R, "position": P}}, '
                             f"not {shown(value)}")
    key = cup_rules.TieKey(value["round"], value["position"])
    if not cup_rules._has_tie(main, key):  # noqa: SLF001 (the rules' own check)
        raise refused(where, f"the cup has no {key}")
    return key


def _rounds(value: object, cup: cup_rules.Cup | None) -> tuple[CupRound, ...]:
    if not isinstance(value, list):
        raise refused("rounds", f"a list of rounds, not {shown(value)}")
    if value and cup is None:
        raise refused("rounds", "a cup's rounds are dated once it is drawn")
    found: list[CupRound] = []
    seen: set[tuple[bool, int]] = set()
    for place, entry in enumerate(value, start=1):
        where = f"rounds[{place}]"
        _object(entry, where, ROUND_KEYS)
        assert isinstance(entry, dict) and cup is not None
        plate = _flag(entry.get("plate", False), f"{where}.plate")
        drawn = cup.plate if plate else cup.main
        total = cup.main.rounds if not plate else (
            drawn.rounds if drawn is not None else 0)
        number = entry.get("number")
        if type(number) is not int or not 1 <= number <= total:
            raise refused(f"{where}.number", f"a round of the {'plate' if plate else 'cup'} "
                                             f"(1 to {total}), not {shown(number)}")
        if (plate, number) in seen:
            raise refused(f"{where}.number", f"round {number} is dated already")
        seen.add((plate, number))
        date = entry.get("date")
        found.append(CupRound(number, plate, None if date is None
                              else _date(date, f"{where}.date")))
    return tuple(found)


def _finals(value: object) -> tuple[datetime.date | None, str]:
    if value is None:
        return None, ""
    _object(value, "finals", FINALS_KEYS)
    assert isinstance(value, dict)
    date = value.get("date")
    venue = value.get("venue", "")
    if not isinstance(venue, str):
        raise refused("finals.venue", f"a text, not {shown(venue)}")
    return (None if date is None else _date(date, "finals.date")), venue.strip()


def _results(value: object, cup: cup_rules.Cup | None
             ) -> dict[cup_rules.TieKey, cup_rules.TieResult]:
    if not isinstance(value, list):
        raise refused("ties", f"a list of ties, not {shown(value)}")
    if value and cup is None:
        raise refused("ties", "a cup's ties have results once it is drawn")
    results: dict[cup_rules.TieKey, cup_rules.TieResult] = {}
    for place, entry in enumerate(value, start=1):
        where = f"ties[{place}]"
        _object(entry, where, RESULT_TIE_KEYS)
        assert isinstance(entry, dict) and cup is not None
        round, position = entry.get("round"), entry.get("position")
        if type(round) is not int or type(position) is not int:
            raise refused(where, f"a round and a position, not {shown(entry)}")
        key = cup_rules.TieKey(round, position,
                               plate=_flag(entry.get("plate", False), f"{where}.plate"))
        if not cup_rules._has_tie(cup.plate if key.plate else cup.main, key):  # noqa: SLF001
            raise refused(where, f"the draw has no {key}")
        if key in results:
            raise refused(where, f"{key} has a result already")
        results[key] = _result(entry.get("result"), f"{where}.result")
    try:
        cup_rules.bracket(cup, results) if cup is not None else None
    except CupError as error:
        raise refused("ties", str(error)) from None
    return results


def _result(value: object, where: str) -> cup_rules.TieResult:
    _object(value, where, RESULT_KEYS)
    assert isinstance(value, dict)
    games = value.get("games", [])
    if not isinstance(games, list) or len(games) > MAX_GAMES:
        raise refused(f"{where}.games", f"a list of scores [home, away], "
                                        f"not {shown(games)}")
    walkover = value.get("walkover")
    if walkover is not None and walkover not in ("home", "away"):
        raise refused(f"{where}.walkover", f'"home" or "away", not {shown(walkover)}')
    try:
        return cup_rules.TieResult(games=tuple(games), decider=value.get("decider"),
                                   walkover=Side(walkover) if walkover else None)
    except CupError as error:
        raise refused(where, str(error)) from None


# -- fields ----------------------------------------------------------------------------


def _known(value: Mapping[str, Any], keys: frozenset[str], where: str) -> None:
    unknown = sorted(str(key) for key in value if key not in keys)
    if unknown:
        place = f"{where}.{unknown[0]}" if where else unknown[0]
        raise refused(place, "not a field of domino-cup/1")


def _object(value: object, where: str, keys: frozenset[str]) -> None:
    if not isinstance(value, dict):
        raise refused(where, f"an object, not {shown(value)}")
    _known(value, keys, where)


def _text(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise refused(where, f"a text, not {shown(value)}")
    if not value.strip():
        raise refused(where, "a name, not blank")
    return " ".join(value.split())


def _date(value: object, where: str) -> datetime.date:
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            pass
    raise refused(where, f"a date as YYYY-MM-DD, not {shown(value)}")


def _flag(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise refused(where, f"true or false, not {shown(value)}")
    return value


def _count(value: object, where: str) -> int:
    if type(value) is not int or value < 0:
        raise refused(where, f"a whole number from 0, not {shown(value)}")
    return value


def _choice[E: (cup_rules.DrawMethod, cup_rules.DrawTiming, cup_rules.LevelTie)](
        kind: type[E], value: object, where: str) -> E:
    try:
        return kind(value)
    except ValueError:
        raise refused(where, f"one of {', '.join(str(e.value) for e in kind)}, "
                             f"not {shown(value)}") from None


def _walkover(value: object) -> tuple[int, int]:
    if (not isinstance(value, list) or len(value) != 2
            or any(type(games) is not int or games < 0 for games in value)):
        raise refused("walkover", f"[games for the side that turned up, for the other], "
                                  f"not {shown(value)}")
    return value[0], value[1]


__all__ = ["FORMAT", "CupEntrant", "CupRecord", "CupRound", "TieFormat", "loads", "read_cup",
           "refused"]
