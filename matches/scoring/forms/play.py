"""Forms of the scorepad: they parse what the scorer tapped into the engine's values.

Field-level messages are translatable; rule violations come back from the services as
:class:`~matches.rules.RulesError` and are added as non-field errors by the views.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.forms.utils import ErrorDict
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from matches import rules
from matches.core import messages as rules_messages
from matches.core.forms import NameField, deal_field, game_options, tile_set_field, whole_number
from matches.scoring.models import PHONE_NAME_LENGTH, GameKind, RoundMode, Seat

MAX_PLAYERS = 12
NAME_LENGTH = Seat._meta.get_field("name").max_length  # what a seat's name can hold
NOT_A_TILE = _("Tap a tile first.")
NAMES_NEEDED = _("Enter a name for each player, in seat order (at least two).")
DUPLICATE_NAMES = _("Each player needs a different name.")
STARTER_OUTSIDE = _("The starter must be one of the players.")
DOUBLE_HOLDER_MISSING = _("In Fives and Threes the player holding the highest double "
                          "starts: choose who it is.")
RESULT_UNKNOWN = _("Say who went out, or that the round was blocked.")
# Said for a value longer than its field's limit: refused before the field reads it, and
# on the page, never carried back in an address (nginx refuses a header past 4 KB)
VALUE_TOO_LONG = _("This form sent a value longer than %(limit)s characters: nothing was "
                   "changed.")
# The limit of a field without its own max_length: the longest a scoring form takes is
# a UUID (36 characters); a number, a seat, a choice or a tile is a few
LONGEST_VALUE = 40
# Bounds on numbers typed or sent: far above any real table's, far below what a database
# column or int() refuses (a 4,301-digit number, 10**29), so nothing past a form can fail.
MAX_TARGET = 10_000  # the engine takes up to rules.MAX_TARGET, for records and tests
MAX_HAND_SIZE = 100
MAX_COUNT = 10_000  # pips, a called score, tiles drawn
TARGETS_HELP = _("Leave empty for the game's own: All Fives %(all_fives_two)s (two players) "
                 "or %(all_fives)s, Five Up %(five_up)s display points, Fives and Threes "
                 "%(fives_and_threes)s.")
# an option the engine refuses, by its name (the error's "option"), beside this field
OPTION_FIELDS = {"target": "target", "hand_size": "hand_size", "set": "tile_set",
                 "deal": "deal", "drawing": "drawing", "divisors": "advanced",
                 "immediate_end": "immediate_end"}


def seat_number(text: object, players: int = MAX_PLAYERS) -> int | None:
    """A seat sent as ASCII digits (:func:`matches.core.forms.whole_number`), below
    ``players``; else None."""
    seat = whole_number(text, digits=2)
    return seat if seat is not None and seat < players else None


class PhoneNameForm(forms.Form):
    """What a scorer calls their phone, for the scorers' list: optional, as its browser
    already names its kind ("iPhone"), which two phones at one table may share."""

    name = NameField(
        label=_("Name this phone (optional)"), max_length=PHONE_NAME_LENGTH, required=False,
        help_text=_("So the other scorers can tell it from theirs, e.g. “Ann’s phone”."))


class WriteForm(forms.Form):
    """Every scoring form names the match version its page showed (a write made on an
    older page is refused) and carries its tap's idempotency key, made when the page
    was drawn (the same tap sent again is answered, not applied again)."""

    version = forms.IntegerField(min_value=0, max_value=2**31 - 1, widget=forms.HiddenInput)
    key = forms.UUIDField(widget=forms.HiddenInput)

    too_long: frozenset[str] = frozenset()  # the fields refused for their length

    def full_clean(self) -> None:
        """A value longer than its field's limit (its ``max_length``, else
        :data:`LONGEST_VALUE`) is refused as such, and the form read no further: the
        view answers with the page (a redirect must not carry it)."""
        limits = {name: self._limit(name) for name in self.fields
                  if not self.fields[name].disabled}
        self.too_long = frozenset(name for name, limit in limits.items()
                                  if any(len(value) > limit for value in self._sent(name)))
        if not self.too_long:
            super().full_clean()
            return
        self._errors = ErrorDict(renderer=self.renderer)
        self.cleaned_data = {}
        for name in sorted(self.too_long):
            # a hidden field's refusal is the form's: no field shows it
            self.add_error(None if self.fields[name].widget.is_hidden else name,
                           forms.ValidationError(VALUE_TOO_LONG, code="too_long",
                                                 params={"limit": limits[name]}))

    def _limit(self, name: str) -> int:
        return getattr(self.fields[name], "max_length", None) or LONGEST_VALUE

    def _sent(self, name: str) -> list[str]:
        """The values sent for the field ``name`` (several for a multiple choice)."""
        if not self.is_bound:
            return []
        key = self.add_prefix(name)
        values = (self.data.getlist(key) if isinstance(self.data, MultiValueDict)
                  else [self.data.get(key)])
        return [value for value in values if isinstance(value, str)]


class TurnForm(WriteForm):
    """A tracked play, draw or pass names the seat whose turn the page showed."""

    seat = forms.IntegerField(min_value=0, max_value=MAX_PLAYERS - 1, widget=forms.HiddenInput)


class RestoreForm(WriteForm):
    to_version = forms.IntegerField(min_value=0, max_value=2**31 - 1)


class NewMatchForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=GameKind.choices,
                             initial=GameKind.ALL_FIVES, widget=forms.RadioSelect)
    # help_text: the engine's targets (__init__)
    target = forms.IntegerField(label=_("Target"), required=False, min_value=1,
                                max_value=MAX_TARGET)
    hand_size = forms.IntegerField(
        label=_("Tiles dealt to each"), required=False, min_value=1, max_value=MAX_HAND_SIZE,
        help_text=_("Leave empty for the game's own deal."))
    tile_set = tile_set_field()
    deal = deal_field({"full": _("Full: as many tiles as possible"),
                       "short": _("Short: a quicker game")})
    drawing = forms.BooleanField(label=_("Draw from the boneyard (Fives and Threes)"),
                                 required=False)
    advanced = forms.BooleanField(label=_("Advanced: 7, 11 and 13 score too (Fives and "
                                          "Threes)"), required=False)
    immediate_end = forms.BooleanField(
        label=_("End at once on reaching the target, no overshoot (Fives and Threes)"),
        required=False, initial=True)
    starter = forms.CharField(label=_("Who starts"), initial="lots", required=False)
    # Fives and Threes: no lots, the holder of the highest double starts (RULES §4.3)
    double_holder = forms.CharField(label=_("Who holds the highest double? They start."),
                                    required=False)
    mode = forms.ChoiceField(label=_("First round"), choices=RoundMode.choices,
                             initial=RoundMode.TRACKED)
    # made when the form is drawn, in the session that draws it (the view's initial,
    # matches/scoring/creation_keys.py): the same form submitted twice makes one match
    creation_key = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # said when the form is drawn, in the reader's language
        self.fields["target"].help_text = TARGETS_HELP % {
            "all_fives_two": rules.ALL_FIVES.default_target(2),
            "all_fives": rules.ALL_FIVES.default_target(4),
            "five_up": rules.FIVE_UP.default_target(2),
            "fives_and_threes": rules.FIVES_AND_THREES.default_target(2)}
        for seat in range(MAX_PLAYERS):
            self.fields[f"player_{seat}"] = NameField(
                label=_("Seat %(n)s") % {"n": seat + 1}, max_length=NAME_LENGTH,
                required=False)

    def player_fields(self) -> list[forms.BoundField]:
        return [self[f"player_{seat}"] for seat in range(MAX_PLAYERS)]

    # the fields in the order the page shows them (templates/matches/new.html)
    PAGE_ORDER = ("game", *(f"player_{seat}" for seat in range(MAX_PLAYERS)), "target",
                  "hand_size", "tile_set", "deal", "drawing", "advanced", "immediate_end",
                  "double_holder", "starter", "mode")

    @property
    def focus_field(self) -> str:
        """The field the page opens with the focus on: the first refused one as the page
        shows them (so a screen reader starts at the reason), else the first name."""
        return next((name for name in self.PAGE_ORDER if name in self.errors), "player_0")

    @property
    def more_players_open(self) -> bool:
        """Whether the seats past the fourth are shown open: when one holds a name or a
        refusal (a refused field, or a name typed there, is never hidden)."""
        return any(self[f"player_{seat}"].value() or f"player_{seat}" in self.errors
                   for seat in range(4, MAX_PLAYERS))

    def full_clean(self) -> None:
        super().full_clean()
        # the fields the page renders by their widget take the focus through it
        focus = self.focus_field
        if focus not in ("double_holder", "starter") and not focus.startswith("player_"):
            self.fields[focus].widget.attrs["autofocus"] = True

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        typed = [" ".join((data.get(f"player_{seat}") or "").split())
                 for seat in range(MAX_PLAYERS)]
        # each refusal about the players is said at the seat it is about
        seats = [index for index, name in enumerate(typed) if name]  # the seats taken
        empty = next((f"player_{index}" for index, name in enumerate(typed) if not name),
                     "player_0")
        names = [typed[index] for index in seats]
        if len(names) < 2:
            self.add_error(empty, forms.ValidationError(NAMES_NEEDED, code="names"))
            return data
        seen: set[str] = set()
        for index in seats:  # the seat that repeats an earlier name, not the first one
            if typed[index].casefold() in seen:
                self.add_error(f"player_{index}", forms.ValidationError(
                    DUPLICATE_NAMES, code="duplicate"))
            seen.add(typed[index].casefold())
        data["players"] = names
        game = data.get("game")
        data["options"] = options = game_options(game, data)
        if game:
            try:
                rules.game_for(game).options(len(names), options)
            except rules.RulesError as error:
                if error.code == "option_hand_size":  # in the form's words, not the option's
                    tiles, players = error.params["tiles"], error.params["players"]
                    assert isinstance(tiles, int) and isinstance(players, int)
                    most = tiles // players
                    self.add_error("hand_size", forms.ValidationError(ngettext(
                        "At most %(most)s tile each at this table: the set has %(tiles)s.",
                        "At most %(most)s tiles each at this table: the set has %(tiles)s.",
                        most) % {"most": most, "tiles": tiles},
                        code="options"))
                else:  # an option beside its field; the players' count at the seat
                    field = OPTION_FIELDS.get(str(error.params.get("option")), "player_0")
                    high = error.params.get("high")
                    if error.code in ("players_range", "players_range_set"):
                        # the first seat past the most the game takes; too few: an empty one
                        assert isinstance(high, int)
                        field = f"player_{seats[high]}" if len(seats) > high else empty
                    self.add_error(field, forms.ValidationError(
                        rules_messages.explain(error), code="options"))
        if game and rules.game_for(game).starter_holds_highest_double:
            holder = seat_number(data.get("double_holder"), len(names))
            if holder is None:
                self.add_error("double_holder", forms.ValidationError(
                    DOUBLE_HOLDER_MISSING, code="double_holder"))
            else:
                data["starter_seat"] = holder
            return data
        starter = data.get("starter") or "lots"
        if starter != "lots":
            seat = seat_number(starter, len(names))
            if seat is None:
                self.add_error("starter", forms.ValidationError(STARTER_OUTSIDE, code="starter"))
            else:
                data["starter_seat"] = seat
        return data


class PlayForm(TurnForm):
    tile = forms.CharField(max_length=7)
    at = forms.CharField(max_length=10, required=False)
    claim = forms.IntegerField(label=_("Called"), required=False, min_value=0,
                               max_value=MAX_COUNT)

    def clean_tile(self) -> rules.Tile:
        try:
            return rules.Tile.parse(self.cleaned_data["tile"])
        except rules.RulesError:
            raise forms.ValidationError(NOT_A_TILE, code="tile") from None

    def clean_at(self) -> rules.AttachmentPoint | None:
        at = self.cleaned_data.get("at")
        if not at:
            return None
        try:
            return rules.AttachmentPoint.parse(at)
        except rules.RulesError as error:
            raise forms.ValidationError(rules_messages.explain(error), code="at") from None


class DrawForm(TurnForm):
    tiles = forms.IntegerField(label=_("Tiles drawn"), min_value=1, max_value=MAX_COUNT,
                               initial=1)


class CallForm(WriteForm):
    """A called placement: its scoring ends (values; doubles marked), who placed it."""

    seat = forms.IntegerField(min_value=0, max_value=MAX_PLAYERS - 1)
    claim = forms.IntegerField(label=_("Called"), required=False, min_value=0,
                               max_value=MAX_COUNT)
    goes_out = forms.BooleanField(label=_("Last tile (went out)"), required=False)

    def __init__(self, *args: Any, ends: int = 4, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.end_count = ends  # the ends a page offers at most
        # the page's ends, and any more that were sent (one field each: as many as the
        # request has fields at most): the rules refuse more than the game has, by name,
        # rather than the first of them being taken silently
        sent = {index for key in self.data if key.startswith("end_")  # "end_²" is no end
                and (index := whole_number(key.removeprefix("end_"), digits=3)) is not None}
        self.end_indexes = sorted(set(range(ends)) | sent)
        for index in self.end_indexes:
            self.fields[f"end_{index}"] = forms.IntegerField(min_value=0, max_value=12,
                                                             required=False)
            self.fields[f"double_{index}"] = forms.BooleanField(required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        ends = []
        for index in self.end_indexes:
            value = data.get(f"end_{index}")
            if value is not None:
                ends.append(rules.ScoringEnd(value, double=bool(data.get(f"double_{index}"))))
        if not ends:
            raise forms.ValidationError(_("Enter the values of the scoring ends."), code="ends")
        data["ends"] = tuple(ends)
        return data


class SettleForm(WriteForm):
    """Remaining tiles per seat (``hand_N`` tiles) or pip totals (``pips_N``)."""

    # "none": a called round's result alone (the count comes next, or is not asked)
    entry = forms.ChoiceField(choices=[("pips", _("Pip totals")), ("tiles", _("Tiles")),
                                       ("none", _("No count"))])
    # called rounds: "blocked" or "domino:SEAT"
    result = forms.CharField(required=False, max_length=12)

    def __init__(self, *args: Any, players: int = 2, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        for seat in range(players):
            self.fields[f"pips_{seat}"] = forms.IntegerField(min_value=0, max_value=MAX_COUNT,
                                                             required=False)
            self.fields[f"hand_{seat}"] = forms.MultipleChoiceField(required=False, choices=[])

    def full_clean(self) -> None:
        # tiles are checked by the engine (set, table, duplicates), not by a fixed choice list
        if self.is_bound and isinstance(self.data, MultiValueDict):  # a QueryDict from a POST
            for seat in range(self.players):
                field = self.fields[f"hand_{seat}"]
                assert isinstance(field, forms.MultipleChoiceField)
                field.choices = [(t, t) for t in self.data.getlist(f"hand_{seat}")]
        super().full_clean()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("entry") == "tiles":
            hands = []
            for seat in range(self.players):
                try:
                    hands.append(tuple(rules.Tile.parse(t) for t in data.get(f"hand_{seat}", [])))
                except rules.RulesError as error:
                    self.add_error(f"hand_{seat}", rules_messages.explain(error))
            data["hands"] = tuple(hands)
        elif data.get("entry") == "none":
            if not data.get("result"):
                self.add_error("result", RESULT_UNKNOWN)
        else:
            # a pip count the field refused has its reason already: not said twice
            missing = [seat for seat in range(self.players)
                       if data.get(f"pips_{seat}") is None and f"pips_{seat}" not in self.errors]
            for seat in missing:
                self.add_error(f"pips_{seat}", _("Enter the pips left in this hand (0 if none)."))
            data["pips"] = tuple(data.get(f"pips_{seat}") or 0 for seat in range(self.players))
        result = data.get("result") or ""
        data["round_end"], data["domino_seat"] = None, None
        if result == "blocked":
            data["round_end"] = rules.RoundEnd.BLOCKED
        elif result.startswith("domino:") and seat_number(result[7:]) is not None:
            # any seat number: the engine names one that is not at this table
            data["round_end"], data["domino_seat"] = rules.RoundEnd.DOMINO, int(result[7:])
        elif result:
            self.add_error("result", RESULT_UNKNOWN)
        return data


class RoundForm(WriteForm):
    # a seat number, or "lots" for a draw of lots
    starter = forms.CharField(required=False, max_length=4)
    mode = forms.ChoiceField(choices=RoundMode.choices, initial=RoundMode.TRACKED)

    def clean_starter(self) -> int | None:
        """A seat number (the engine names one that is not at this table), or None for a
        draw of lots."""
        chosen = self.cleaned_data.get("starter") or "lots"
        if chosen == "lots":
            return None
        seat = seat_number(chosen)
        if seat is None:
            raise forms.ValidationError(STARTER_OUTSIDE, code="starter")
        return seat
