"""Where a match belongs beyond the scorepad: a league game's fixture, season and club.

The leagues know which fixture holds a game; scoring reads no league. So the concern
that places a match registers its reader here (:func:`place_reader`; the leagues' is
``matches.leagues.selectors.fixture_place``, imported at the app's ready()), as the
closure of a match is registered (``matches.scoring.services.closure``), and the pages
ask :func:`match_place`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from matches.scoring.models import Match


class Place(Protocol):
    """A league game's fixture, season and club: names and the pages they have."""

    @property
    def game(self) -> int:
        """The game's number in its fixture night."""
        ...

    @property
    def fixture(self) -> str:
        """The fixture's name ("Home v Away"), in the reader's language."""
        ...

    @property
    def fixture_url(self) -> str: ...

    @property
    def season(self) -> str: ...

    @property
    def season_url(self) -> str: ...

    @property
    def club(self) -> str: ...

    @property
    def club_url(self) -> str: ...


_PLACE_READERS: list[Callable[[Match], Place | None]] = []


def place_reader[R: Callable[[Match], Place | None]](reader: R) -> R:
    """Register ``reader``: it answers where a match belongs, or None. It is asked only
    for a match that has a season."""
    if reader not in _PLACE_READERS:
        _PLACE_READERS.append(reader)
    return reader


def match_place(match: Match) -> Place | None:
    """The fixture, season and club ``match`` is a game of; None for a casual match
    (no query: it has no season), a rematch (which keeps no season) or a game whose
    fixture is gone."""
    if match.season_id is None:
        return None
    for reader in _PLACE_READERS:
        if (place := reader(match)) is not None:
            return place
    return None
