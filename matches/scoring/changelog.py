"""The engine's actions as JSON, for the change log (:class:`matches.models.Change`).

A change keeps the action it applied in these plain documents, so a match's history
reads back into the engine without the rows the action made (which an undo or a
restore may have taken back since) — that is what restoring an earlier version needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _

from matches import rules


def action_doc(action: rules.Action) -> dict[str, Any]:
    """One action as a JSON-ready document."""
    if isinstance(action, rules.StartRound):
        return {"start": {"starter": action.starter, "mode": action.mode.value}}
    if isinstance(action, rules.Settle):
        return {"settle": {
            "hands": ([[str(tile) for tile in hand] for hand in action.hands]
                      if action.hands is not None else None),
            "pips": list(action.pips) if action.pips is not None else None,
            "result": action.result.value if action.result is not None else None,
            "domino_seat": action.domino_seat,
        }}
    if isinstance(action, rules.Play):
        return {"play": {"seat": action.seat, "tile": str(action.tile),
                         "at": str(action.at) if action.at else None,
                         "claim": _claim_doc(action.claim)}}
    if isinstance(action, rules.Draw):
        return {"draw": {"seat": action.seat, "tiles": action.tiles}}
    if isinstance(action, rules.Pass):
        return {"pass": {"seat": action.seat}}
    return {"call": {"seat": action.seat, "ends": [str(end) for end in action.ends],
                     "claim": _claim_doc(action.claim), "goes_out": action.goes_out}}


def action_from_doc(doc: dict[str, Any]) -> rules.Action:
    """The action a document of :func:`action_doc` holds."""
    (kind, body), = doc.items()
    if kind == "start":
        return rules.StartRound(body["starter"], rules.RoundMode(body["mode"]))
    if kind == "settle":
        hands = body["hands"]
        return rules.Settle(
            tuple(tuple(rules.Tile.parse(t) for t in hand) for hand in hands)
            if hands is not None else None,
            tuple(body["pips"]) if body["pips"] is not None else None,
            rules.RoundEnd(body["result"]) if body["result"] is not None else None,
            body["domino_seat"])
    if kind == "play":
        return rules.Play(body["seat"], rules.Tile.parse(body["tile"]),
                          rules.AttachmentPoint.parse(body["at"]) if body["at"] else None,
                          _claim(body["claim"]))
    if kind == "draw":
        return rules.Draw(body["seat"], body["tiles"])
    if kind == "pass":
        return rules.Pass(body["seat"])
    if kind == "call":
        return rules.Call(body["seat"], tuple(rules.ScoringEnd.parse(e) for e in body["ends"]),
                          _claim(body["claim"]), body["goes_out"])
    raise ValueError(f"not an action document: {kind!r}")


def describe(action: rules.Action, names: Sequence[str]) -> str:
    """An action in the table's words, in the active language: "Olena played 5-6 on
    the double 5", "the round's settlement". A change keeps it as written (Change.description),
    and the change log says it again in its reader's language
    (:func:`matches.scoring.presenters.change_words`). No possessive is built from a name: names
    come from every language."""
    if isinstance(action, rules.StartRound):
        return _("the start of the round")
    if isinstance(action, rules.Settle):
        if action.hands is None and action.pips is None:  # a called round's, alone
            return _("the round's result")
        return _("the round's settlement")
    who = names[action.seat]
    if isinstance(action, rules.Play):
        if action.at and action.at.tile.is_double:
            return _("%(who)s played %(tile)s on the double %(value)s") % {
                "who": who, "tile": str(action.tile), "value": action.at.value}
        if action.at:
            return _("%(who)s played %(tile)s on the %(value)s of %(end)s") % {
                "who": who, "tile": str(action.tile), "value": action.at.value,
                "end": str(action.at.tile)}
        return _("%(who)s opened with %(tile)s") % {"who": who, "tile": str(action.tile)}
    if isinstance(action, rules.Draw):
        return _("%(who)s drew %(count)s") % {"who": who, "count": action.tiles}
    if isinstance(action, rules.Pass):
        return _("%(who)s passed") % {"who": who}
    return _("%(who)s called %(ends)s") % {
        "who": who, "ends": " + ".join(str(end) for end in action.ends)}


def describe_abandon(scores: str) -> str:
    """An abandon in the active language, with the scores it stopped at ("61 – 45").
    Written by the service that abandons, said again by the change log, as
    :func:`describe` is."""
    return _("stopped at %(scores)s, without a winner") % {"scores": scores}


def describe_restore(version: int, *, resumed: bool) -> str:
    """A restore of ``version`` in the active language; a resume restores the version
    before the abandon, and says so."""
    if resumed:
        return _("resumed: the match as it stood before it was abandoned")
    return _("the match as it stood at version %(version)s") % {"version": version}


def _claim_doc(claim: int | Fraction | None) -> int | str | None:
    if claim is None or isinstance(claim, int):
        return claim
    return str(claim)  # a half: "5/2"


def _claim(value: int | str | None) -> int | Fraction | None:
    if value is None or isinstance(value, int):
        return value
    return Fraction(value)
