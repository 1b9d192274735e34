"""The ``domino-match/1`` interchange format: read, replay, export and summarise.

A record is replayed through :class:`~matches.rules.match.Match`; anything wrong
anywhere refuses it whole, with a message naming the round and event (1-based).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any, Final

from . import layout
from .errors import Param, RecordError, RulesError, render
from .games import game_for
from .layout import AttachmentPoint, ScoringEnd
from .match import Action, Call, Draw, Match, Pass, Play, RoundEnd, RoundMode, Settle, StartRound
from .tiles import Tile

FORMAT: Final = "domino-match/1"
# the parsers' caches, read directly on the short way through a tracked play
_TILES: Final = Tile._parsed
_POINTS: Final = layout._PARSED_POINTS
RECORD_KEYS: Final = frozenset({"format", "game", "players", "options", "rounds"})
TRACKED_ROUND_KEYS: Final = frozenset({"mode", "starter", "events", "hands", "pips"})
CALLED_ROUND_KEYS: Final = TRACKED_ROUND_KEYS | {"result"}
TRACKED_EVENT_KEYS: Final = frozenset({"seat", "play", "at", "claim", "draw", "pass"})
CALLED_EVENT_KEYS: Final = frozenset({"seat", "ends", "claim"})
# A record nests six levels (record, rounds, a round, events, an event, its ends); deeper
# is no record, and thousands of levels would exhaust the parser's recursion.
MAX_DEPTH: Final = 32
# what read_json's guards refuse, said of a document that is no match record (a line of
# a backup, a cup's document), by the refusal's code
GUARDS_SAID: Final = {
    "record_too_deep": f"it nests deeper than {MAX_DEPTH} levels",
    "record_digits": "a number in it has thousands of digits",
    "record_nul": "a text in it holds a NUL character (\\u0000), which cannot be stored",
    "record_surrogate": "a text in it holds half of a character (an escape from \\ud800 to "
                        "\\udfff without its other half), which cannot be stored",
}
# an escape of half a character (a UTF-16 surrogate): JSON reads one alone into a text
# that no UTF-8 can hold, so a store or a hash of it would fail
_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE_ESCAPE_BYTES: Final = re.compile(rb"\\u[dD][89a-fA-F]")

class RecordInvalid(RecordError):
    """A record refused as a whole; ``round`` and ``event`` locate the fault (1-based).

    ``code`` and ``params`` are the fault's own (an engine error met while replaying
    keeps its code); ``field`` names the part of the round it was found in (``hands``),
    which the message puts first.
    """

    def __init__(self, reason: str, round_number: int | None = None,
                 event_number: int | None = None, *, code: str = "",
                 params: Mapping[str, Param] | None = None, field: str | None = None) -> None:
        self.reason = reason
        self.round = round_number
        self.event = event_number
        self.field = field
        where = ""
        if round_number is not None:
            where = f"round {round_number}, event {event_number}: " if event_number else \
                f"round {round_number}: "
        super().__init__(f"{where}{reason}", code=code, params=params)

    @classmethod
    def at(cls, code: str, round_number: int | None = None, event_number: int | None = None,
           **params: Param) -> RecordInvalid:
        """The refusal for ``code``, in round ``round_number`` (and event)."""
        return cls(render(code, params), round_number, event_number, code=code, params=params)

    @classmethod
    def wrap(cls, error: RulesError, round_number: int | None = None,
             event_number: int | None = None, *, field: str | None = None) -> RecordInvalid:
        """Another rules error, located in the record: its code and parameters kept."""
        reason = getattr(error, "reason", str(error))
        inner = getattr(error, "field", None)
        if field is not None:
            reason = f"{field}: {reason}"
        return cls(reason, round_number, event_number, code=error.code, params=error.params,
                   field=field or inner)

# -- reading -------------------------------------------------------------------------

def loads(text: str | bytes) -> dict[str, Any]:
    """Parse one record's JSON text (not yet replayed)."""
    document = _parse(text)
    if not isinstance(document, dict):
        raise RecordInvalid.at("record_not_object")
    _check_values(document)
    return document

def read_json(text: str | bytes) -> Any:
    """Any JSON text a user or a file gives, read as a record is (a league document, a
    line of a backup): :class:`RecordInvalid` if it is not JSON (``invalid_json``), nests
    deeper than :data:`MAX_DEPTH` (``record_too_deep``), holds a number of thousands of
    digits (``record_digits``) or a text with a NUL (``record_nul``)."""
    document = _parse(text)
    _check_values(document)
    return document

def _parse(text: str | bytes) -> Any:
    try:
        document = json.loads(text)
    except RecursionError:
        raise RecordInvalid.at("record_too_deep", depth=MAX_DEPTH) from None
    except json.JSONDecodeError as error:
        # the English is the parser's whole message, as the reference reader gives it;
        # its parts (what, where) let the reader's language say it too
        raise RecordInvalid.at("invalid_json", message=error.msg, line=error.lineno,
                               column=error.colno, char=error.pos) from None
    except UnicodeDecodeError as error:
        raise RecordInvalid.at("not_utf8", codec=error.encoding,
                               byte=f"0x{error.object[error.start]:02x}",
                               position=error.start, reason=error.reason) from None
    except ValueError:  # int() refuses over 4,300 digits (sys.get_int_max_str_digits)
        raise RecordInvalid.at("record_digits") from None
    if (_SURROGATE_ESCAPE.search(text) if isinstance(text, str)
            else _SURROGATE_ESCAPE_BYTES.search(text)) is not None:
        # rare: a pair of them is one character, which UTF-8 holds; one alone is refused
        try:
            json.dumps(document, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise RecordInvalid.at("record_surrogate") from None
    return document

def _check_values(document: object) -> None:
    """Refuse nesting no record has (messages that quote a value would recurse through
    it) and NUL characters (PostgreSQL stores no NUL in text): walked without recursion.
    Only lists and objects go on the stack; their texts are looked at where they sit (a
    record is mostly small objects of numbers and short texts)."""
    if isinstance(document, str):
        if "\x00" in document:
            raise RecordInvalid.at("record_nul")
        return
    if not isinstance(document, dict | list):
        return
    stack: list[tuple[dict[Any, Any] | list[Any], int]] = [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RecordInvalid.at("record_too_deep", depth=MAX_DEPTH)
        if isinstance(value, dict):
            for key in value:
                if "\x00" in key:
                    raise RecordInvalid.at("record_nul")
            items: Iterable[Any] = value.values()
        else:
            items = value
        for item in items:
            if isinstance(item, str):
                if "\x00" in item:
                    raise RecordInvalid.at("record_nul")
            elif isinstance(item, dict | list):
                stack.append((item, depth + 1))

_LINE_BREAK: Final = re.compile(r"\r\n|\r|\n")


def json_lines(text: str) -> list[str]:
    """The lines of a JSON Lines text: split at "\n", "\r\n" or "\r", which JSON never
    holds unescaped inside a string, and not at U+2028, U+2029 or U+0085, which it does
    (``str.splitlines`` would split a record in two there)."""
    # most files end their lines with "\n" alone: str.split is many times the regex's speed
    lines = _LINE_BREAK.split(text) if "\r" in text else text.split("\n")
    return lines[:-1] if lines and not lines[-1] else lines


def iter_documents(text: str, *, lines: bool) -> Iterator[dict[str, Any] | RecordInvalid]:
    """Each record of a ``.json`` file (one) or ``.jsonl`` file (one per non-blank line)."""
    if not lines:
        try:
            yield loads(text)
        except RecordInvalid as error:
            yield error
        return
    for line in json_lines(text):
        if line.strip():
            try:
                yield loads(line)
            except RecordInvalid as error:
                yield error

def replay(document: Mapping[str, Any]) -> Match:
    """Validate a record and replay it; returns the match, finished or in progress."""
    if not isinstance(document, Mapping):
        raise RecordInvalid.at("record_not_object")
    _check_keys(document, RECORD_KEYS, "the record")
    if document.get("format") != FORMAT:
        raise RecordInvalid.at("record_format", expected=repr(FORMAT),
                               value=repr(document.get("format")))
    try:
        game = game_for(document.get("game"))
        players = document.get("players")
        if (not isinstance(players, list)
                or not all(isinstance(name, str) and name.strip() for name in players)):
            raise RecordInvalid.at("record_players")
        if any("\x00" in name for name in players):
            raise RecordInvalid.at("record_player_nul")
        options = document.get("options", {})
        if not isinstance(options, dict):
            raise RecordInvalid.at("record_options")
        match = Match(game, players, options)
    except RecordInvalid:
        raise
    except RulesError as error:
        raise RecordInvalid.wrap(error) from None
    rounds = document.get("rounds")
    if not isinstance(rounds, list):
        raise RecordInvalid.at("record_rounds")
    for index, round_doc in enumerate(rounds, start=1):
        _replay_round(match, round_doc, index, last=index == len(rounds))
    return match

def _replay_round(match: Match, doc: object, number: int, *, last: bool) -> None:
    if not isinstance(doc, dict):
        raise RecordInvalid.at("record_round_object", number)
    mode_text = doc.get("mode")
    # absent is a tracked round; given, it is "ends" (a null is not absent)
    if "mode" in doc and mode_text != "ends":
        raise RecordInvalid.at("record_mode", number,
                               value="null" if mode_text is None else repr(mode_text))
    called = mode_text == "ends"
    _check_keys(doc, CALLED_ROUND_KEYS if called else TRACKED_ROUND_KEYS, "a round", number)
    starter = doc.get("starter")
    if "starter" in doc and type(starter) is not int:  # a null is not absent either
        raise RecordInvalid.at("record_starter", number, value=json.dumps(starter))
    if match.finished:
        raise RecordInvalid.at("match_won_no_round", number)
    try:
        match.do(StartRound(starter, RoundMode.CALLED if called else RoundMode.TRACKED))
    except RulesError as error:
        raise RecordInvalid.wrap(error, number) from None
    events = doc.get("events")
    if not isinstance(events, list):
        raise RecordInvalid.at("record_events", number)
    result = _result(match, doc, number) if called else None
    domino = result[1] if result and result[0] is RoundEnd.DOMINO else None
    going_out = len(events) if domino is not None and match.game.going_out_bonus else None
    for index, event_doc in enumerate(events, start=1):
        try:
            action: Action
            if called:
                action = _called_event(event_doc, goes_out=index == going_out)
                if index == len(events) and going_out is None and action.seat == domino \
                        and match.wins_with(action.seat, action.end_sum):
                    # The round ended with this seat's domino, and the match ends with this
                    # placement (nothing may follow it): so it was the seat's last tile.
                    action = Call(action.seat, action.ends, action.claim, goes_out=True)
            else:
                action = _tracked_event(event_doc)
            if going_out == index and action.seat != domino:
                raise RulesError.of(
                    "record_going_out_seat",
                    who=match.who(domino),  # type: ignore[arg-type]
                    other=match.who(action.seat))
            match.do(action)
        except RulesError as error:
            raise RecordInvalid.wrap(error, number, index) from None
    if going_out == 0:
        raise RecordInvalid.at("record_going_out_last", number)
    rnd = match.current_round
    assert rnd is not None
    has_hands = "hands" in doc or "pips" in doc
    if rnd.won_here:
        if has_hands:
            raise RecordInvalid.at("record_won_no_count", number)
        if result is not None and result != (rnd.end, rnd.finisher):
            # the round ended with the winning placement: it was not blocked, and no one
            # went out after it
            raise RecordInvalid.at("record_won_result", number,
                                   who=match.who(rnd.events[-1].seat))
        return
    ended = rnd.ended or result is not None
    if not ended:
        if has_hands:
            raise RecordInvalid.at("record_not_ended_count", number)
        if not last:
            raise RecordInvalid.at("record_not_ended_next", number)
        return
    if not has_hands and match.game.counts_remaining and not last:
        how = (result[0] if result else rnd.end).value  # type: ignore[union-attr]
        raise RecordInvalid.at("count_required", number, end=how)
    try:
        if has_hands:
            hands = _hands(doc["hands"], number) if "hands" in doc else None
            pips = _pips(doc["pips"], number) if "pips" in doc else None
            match.do(Settle(hands, pips, *(result or (None, None))))
        elif result is not None and not rnd.ended:
            # the result alone ends a called round: the match waits for its count (an
            # unfinished match), or, where remaining tiles score nothing, it is settled
            match.do(Settle(None, None, *result))
        # else: ended by itself; settled already, or the table has yet to count the hands
    except RecordInvalid:
        raise
    except RulesError as error:
        raise RecordInvalid.wrap(error, number) from None

def _result(match: Match, doc: Mapping[str, Any],
            number: int) -> tuple[RoundEnd, int | None] | None:
    if "result" not in doc:
        return None
    result = doc["result"]
    if isinstance(result, dict) and result.keys() == {"domino"} and type(result["domino"]) is int:
        seat = result["domino"]
        if not 0 <= seat < match.players:
            raise RecordInvalid.at("record_result_seat", number, seat=seat)
        return RoundEnd.DOMINO, seat
    if isinstance(result, dict) and result == {"blocked": True}:
        return RoundEnd.BLOCKED, None
    raise RecordInvalid.at("record_result", number, value=json.dumps(result))

def _seat(doc: Mapping[str, Any]) -> int:
    if "seat" not in doc:
        raise RecordError.of("record_event_seat")
    seat = doc["seat"]
    if type(seat) is not int:
        raise RecordError.of("record_seat_type", value=json.dumps(seat))
    return seat

def _claim(doc: Mapping[str, Any]) -> Fraction | int | None:
    if "claim" not in doc:  # a null claim is refused below: it would skip the check
        return None
    claim = doc["claim"]
    if type(claim) is int:
        return claim
    if type(claim) is float and (claim * 2).is_integer():
        return Fraction(claim)
    raise RecordError.of("record_claim", value=json.dumps(claim))

def _tracked_event(doc: object) -> Play | Draw | Pass:
    """One tracked event; a well-formed play takes the short way (most events are plays)."""
    if type(doc) is dict:
        seat, text, at, claim = doc.get("seat"), doc.get("play"), doc.get("at"), doc.get("claim")
        # seat and play present, at and claim counted: any other key makes the length differ
        if (type(seat) is int and type(text) is str
                and len(doc) == 2 + (at is not None) + (claim is not None)
                and (claim is None or type(claim) is int)
                and (at is None or type(at) is str)):
            tile = _TILES.get(text) or Tile.parse(text)
            point = None if at is None else _POINTS.get(at) or AttachmentPoint.parse(at)
            return Play(seat, tile, point, claim)
    return _checked_tracked_event(doc)


def _checked_tracked_event(doc: object) -> Play | Draw | Pass:
    if type(doc) is not dict:
        raise RecordError.of("record_event_object")
    _check_keys(doc, TRACKED_EVENT_KEYS, "an event")
    seat = _seat(doc)
    kinds = ("play" in doc) + ("draw" in doc) + ("pass" in doc)
    if kinds != 1:
        raise RecordError.of("record_event_kind")
    if "play" in doc:
        return Play(seat, Tile.parse(doc["play"]),
                    AttachmentPoint.parse(doc["at"]) if "at" in doc else None, _claim(doc))
    if "at" in doc or "claim" in doc:
        kind = "draw" if "draw" in doc else "pass"
        raise RecordError.of("record_takes_no", kind=kind, field="at" if "at" in doc else "claim")
    if "draw" in doc:
        count = doc["draw"]
        if type(count) is not int or count < 1:
            raise RecordError.of("record_draw", value=json.dumps(count))
        return Draw(seat, count)
    if doc["pass"] is not True:
        raise RecordError.of("record_pass", value=json.dumps(doc["pass"]))
    return Pass(seat)

def _called_event(doc: object, *, goes_out: bool) -> Call:
    if not isinstance(doc, dict):
        raise RecordError.of("record_event_object")
    _check_keys(doc, CALLED_EVENT_KEYS, "an event")
    seat = _seat(doc)
    ends = doc.get("ends")
    if not isinstance(ends, list):
        raise RecordError.of("record_ends")
    return Call(seat, tuple(ScoringEnd.parse(end) for end in ends), _claim(doc), goes_out)

def _hands(value: object, number: int) -> tuple[tuple[Tile, ...], ...]:
    if not isinstance(value, list) or not all(isinstance(hand, list) for hand in value):
        raise RecordInvalid.at("record_hands", number)
    try:
        return tuple(tuple(Tile.parse(tile) for tile in hand) for hand in value)
    except RulesError as error:
        raise RecordInvalid.wrap(error, number, field="hands") from None

def _pips(value: object, number: int) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise RecordInvalid.at("record_pips", number)
    for total in value:
        if type(total) is not int:
            raise RecordInvalid.at("record_pips_value", number, value=json.dumps(total))
    return tuple(value)

def _check_keys(doc: Mapping[str, Any], allowed: frozenset[str], what: str,
                number: int | None = None) -> None:
    if not doc.keys() <= allowed:
        unknown = sorted(set(doc) - allowed)[0]
        if what == "an event":
            raise RecordError.of("event_unknown_field", field=repr(unknown))
        code = "record_unknown_field" if what == "the record" else "round_unknown_field"
        raise RecordInvalid.at(code, number, field=repr(unknown))

# -- writing -------------------------------------------------------------------------

def export(match: Match) -> dict[str, Any]:
    """The match as a ``domino-match/1`` document; replaying it gives the same match."""
    rounds = []
    for rnd in match.rounds:
        doc: dict[str, Any] = {}
        if not rnd.tracked:
            doc["mode"] = "ends"
        if rnd.starter is not None:
            doc["starter"] = rnd.starter
        doc["events"] = [_event_doc(event) for event in rnd.events]
        # a called round's result says how it ended, whether or not its count came
        if not rnd.tracked and rnd.end is not None:
            doc["result"] = ({"domino": rnd.finisher} if rnd.end is RoundEnd.DOMINO
                             else {"blocked": True})
        settle = rnd.settle  # the result and the count merged, if they came apart
        if settle is not None and settle.hands is not None:
            doc["hands"] = [[str(tile) for tile in hand] for hand in settle.hands]
        elif settle is not None and settle.pips is not None:
            doc["pips"] = list(settle.pips)
        rounds.append(doc)
    return {
        "format": FORMAT,
        "game": match.game.slug,
        "players": list(match.names or (f"Seat {seat + 1}" for seat in range(match.players))),
        "options": dict(match.options.given),
        "rounds": rounds,
    }

def _event_doc(event: Action) -> dict[str, Any]:
    doc: dict[str, Any] = {"seat": event.seat}  # type: ignore[union-attr]
    if isinstance(event, Play):
        doc["play"] = str(event.tile)
        if event.at is not None:
            doc["at"] = str(event.at)
    elif isinstance(event, Draw):
        doc["draw"] = event.tiles
    elif isinstance(event, Pass):
        doc["pass"] = True
    elif isinstance(event, Call):
        doc["ends"] = [str(end) for end in event.ends]
    claim = getattr(event, "claim", None)
    if claim is not None:
        doc["claim"] = number(claim)
    return doc

def number(value: Fraction | int) -> int | float:
    """Whole numbers as JSON integers, halves as ``2.5``."""
    if type(value) is int:
        return value
    return value.numerator if value.denominator == 1 else float(value)

def summary(match: Match) -> dict[str, Any]:
    """The result report of match-record.md ("Summary")."""
    rounds = []
    for rnd in match.rounds:
        rounds.append({
            "placements": [number(p) for p in rnd.placements],
            "settlement": [number(a) for a in rnd.settlement_awards],
            "finisher": rnd.finisher,
            "blocked": rnd.blocked,
            "scores": [number(s) for s in match.scores_after(rnd)],
        })
    return {
        "game": match.game.slug,
        "status": match.status,
        "winner": match.winner,
        "sides": [{"seats": list(seats)} for seats in match.sides],
        "scores": [number(s) for s in match.scores],
        "rounds": rounds,
    }

def dumps_summary(match: Match, **extra: Any) -> str:
    return json.dumps({**summary(match), **extra}, separators=(",", ":"))

def replay_text(text: str | bytes) -> Match:
    return replay(loads(text))

__all__ = ["FORMAT", "GUARDS_SAID", "RecordInvalid", "export", "iter_documents", "loads", "number",
           "read_json", "replay", "replay_text", "summary"]

