"""One exception hierarchy for every rule the engine enforces.

Every class derives from :class:`RulesError`, itself a ``ValueError``, so callers can
catch the whole family at a service boundary. Messages name the input and the state
(``"3-5 cannot join 1-4:4"``); the record replayer prefixes the round and event.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Something the rules do not allow."""


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


class LeagueInvalid(RecordError):
    """A ``domino-league/1`` document refused as a whole.

    ``where`` names the place: a fixture (``"fixture 3"``, 1-based) or a field
    (``"scoring.walkover"``, ``"entrants[2].name"``, also 1-based); ``reason`` says what
    is wrong there. The message is ``"{where}: {reason}"``.
    """

    def __init__(self, reason: str, where: str | None = None) -> None:
        self.reason = reason
        self.where = where
        super().__init__(f"{where}: {reason}" if where else reason)
