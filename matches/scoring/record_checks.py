"""What storing a record refuses, told without the database or the models.

An import's dry run verifies thousands of records in a process that never sets Django up
(``manage.py`` hands ``import_match --dry-run`` to :mod:`matches.records.dry_run`), so
what it checks lives here, on the engine and Django's validators alone, and the store
checks the same names through the same function. The match row's other fields need no
check of their own: the engine refuses what they would (a game it does not know, more
seats than :data:`~matches.scoring.models.MAX_SEATS`, a target past its
``MAX_TARGET``), which ``tests/scoring/test_record_checks.py`` holds it to."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from matches import rules
from matches.core.messages import explain

SEAT_NAME_MAX_LENGTH = 60  # the seat row's column
PLAYERS_DIFFERENT = _("Each player needs a different name: %(name)s sits twice.")
NAME_TOO_LONG = _("The name of the player in seat %(seat)s has %(length)s characters: a "
                  "name has at most %(limit)s.")

_seat_name_length = MaxLengthValidator(SEAT_NAME_MAX_LENGTH)


def seat_names(engine: rules.Match) -> list[str]:
    """The seats' names as stored, refused as a store would refuse them (two that fold to
    the same name, one too long for its column), without the database. The engine has
    already refused a blank name and a NUL character."""
    names = [name.strip() for name in engine.names or
             [f"Seat {seat + 1}" for seat in range(engine.players)]]
    seen: set[str] = set()
    for seat, name in enumerate(names, start=1):
        if name.casefold() in seen:  # one player cannot hold two seats
            raise ValidationError({"players": ValidationError(
                PLAYERS_DIFFERENT, code="players_different", params={"name": name})})
        seen.add(name.casefold())
        try:
            _seat_name_length(name)
        except ValidationError:  # Django's words name no player: these do
            raise ValidationError({"players": ValidationError(
                NAME_TOO_LONG, code="max_length", params={
                    "seat": seat, "length": len(name), "limit": SEAT_NAME_MAX_LENGTH})}) \
                from None
    return names


def record_check(*, document: Mapping[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """What storing a record would say of it, storing nothing and opening no database
    connection (an import's dry run): its summary, or why it would be refused."""
    try:
        engine, _names = record_verified(document=document)
    except (rules.RulesError, ValidationError) as error:
        return None, record_refusal(error)
    return rules.summary(engine), None


def record_verified(*, document: Mapping[str, Any]) -> tuple[rules.Match, list[str]]:
    """A record replayed by the rules engine, with the seats' names as stored, refused
    (:class:`~matches.rules.RulesError`, :class:`ValidationError`) as storing it would
    refuse it. What the engine checked is not checked again, row by row, by the store."""
    engine = rules.replay(document)
    return engine, seat_names(engine)


def record_refusal(error: rules.RulesError | ValidationError) -> str:
    """Why a record is refused, in the reader's words: the rules', or the store's (e.g. a
    player's name longer than the column)."""
    if isinstance(error, rules.RulesError):
        return explain(error)
    return "; ".join(error.messages)
