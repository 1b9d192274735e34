"""The rules engine: All Fives, Five Up and Fives and Threes, in pure Python.

No Django import anywhere in this package: models, forms, services and views call in;
nothing outside re-implements a rule. See RULES.md and match-record.md in ``shared/``.

The same modules may run compiled by mypyc (see :mod:`matches.rules.native`);
``COMPILED`` says which build this process imported.
"""

from . import native

# Before any submodule is imported: a fresh compiled build goes first on the path.
COMPILED: bool = native.activate(__path__)

from .errors import (
    BoneyardNotEmpty,
    ClaimMismatch,
    CupError,
    DrawRefused,
    DuplicateEnd,
    FixtureNightError,
    HandsMismatch,
    IllegalPlacement,
    ImpossibleScore,
    LeagueInvalid,
    MatchOver,
    Message,
    NotationError,
    NotYourTurn,
    OptionError,
    RecordError,
    RoundOver,
    RulesError,
    SignOffRefused,
    TileNotInSet,
    TileOnTable,
)
from .games import (
    ALL_FIVES,
    FIVE_UP,
    FIVES_AND_THREES,
    GAMES,
    MAX_TARGET,
    Game,
    MatchOptions,
    Settlement,
    Unit,
    game_for,
    round_to_five,
    show_points,
)
from .layout import AttachmentPoint, Layout, PlacementResult, ScoringEnd, Slot, SpinnerPolicy
from .match import (
    Action,
    Award,
    Call,
    Draw,
    Event,
    Match,
    Pass,
    Play,
    Round,
    RoundEnd,
    RoundMode,
    Settle,
    StartRound,
)
from .record import (
    FORMAT,
    RecordInvalid,
    export,
    iter_documents,
    json_lines,
    loads,
    replay,
    summary,
)
from .tiles import DOUBLE_NINE, DOUBLE_SIX, DOUBLE_TWELVE, SETS, Tile, TileSet

__all__ = [
    "ALL_FIVES", "COMPILED", "DOUBLE_NINE", "DOUBLE_SIX", "DOUBLE_TWELVE", "FIVES_AND_THREES",
    "FIVE_UP",
    "FORMAT", "GAMES", "MAX_TARGET",
    "SETS", "Action", "AttachmentPoint", "Award", "BoneyardNotEmpty", "Call",
    "ClaimMismatch", "CupError", "Draw", "DrawRefused", "DuplicateEnd", "Event",
    "FixtureNightError",
    "Game", "HandsMismatch", "IllegalPlacement", "ImpossibleScore", "Layout", "LeagueInvalid",
    "Match", "MatchOptions", "MatchOver", "Message",
    "NotYourTurn", "NotationError", "OptionError",
    "Pass", "PlacementResult", "Play", "RecordError", "RecordInvalid", "Round", "RoundEnd",
    "RoundMode", "RoundOver", "RulesError", "ScoringEnd", "Settle", "Settlement", "SignOffRefused",
    "Slot", "SpinnerPolicy", "StartRound", "Tile", "TileNotInSet", "TileOnTable", "TileSet", "Unit",
    "export", "game_for", "iter_documents", "json_lines", "loads", "replay", "round_to_five",
    "show_points", "summary",
]
