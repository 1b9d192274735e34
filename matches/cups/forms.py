"""The cups' forms: a new cup, an entrant (or another season's entrants), an entrant's
new name, the seeds, a draw by hand, a round's date, the finals night, and an admin's
reset of the ties after one or of the plate's draw."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.core.forms import DatePicker, NameField, game_options
from matches.cups.models import Cup, DrawMethod, DrawTiming, LevelTie
from matches.cups.selectors import cup_entrants, seasons_to_enter
from matches.leagues.forms import NightFields
from matches.leagues.models import (
    Entrant,
    EntrantKind,
    FixtureFormat,
    Season,
)
from matches.scoring.models import GameKind


class CupForm(NightFields):
    field_order = ["name", "starts_on", "game", "fixture_format", "singles", "pairs",
                   "race_to", "target", "tile_set", "deal", "draw_method", "draw_timing",
                   "level_tie", "walkover_winner", "walkover_loser", "plate",
                   "count_submitted", "paper_players_optional"]

    name = NameField(label=gettext_lazy("Cup name"), max_length=120)
    starts_on = forms.DateField(label=gettext_lazy("First round's night"),
                                widget=DatePicker())
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=GameKind.choices)
    fixture_format = forms.ChoiceField(label=gettext_lazy("A tie is"),
                                       choices=FixtureFormat.choices,
                                       initial=FixtureFormat.SINGLE)
    draw_method = forms.ChoiceField(label=gettext_lazy("The draw"), choices=DrawMethod.choices,
                                    initial=DrawMethod.RANDOM)
    draw_timing = forms.ChoiceField(label=gettext_lazy("Rounds drawn"),
                                    choices=DrawTiming.choices,
                                    initial=DrawTiming.ALL_AT_ONCE)
    level_tie = forms.ChoiceField(label=gettext_lazy("A level tie is decided by"),
                                  choices=LevelTie.choices, initial=LevelTie.TOTAL_POINTS)
    walkover_winner = forms.IntegerField(
        label=gettext_lazy("Walkover: games to the side there"), min_value=0, max_value=100,
        initial=1)
    walkover_loser = forms.IntegerField(label=gettext_lazy("Walkover: games to the side absent"),
                                        min_value=0, max_value=100, initial=0)
    plate = forms.BooleanField(label=gettext_lazy("A plate for the losers of their first tie"),
                               required=False)
    paper_players_optional = forms.BooleanField(
        label=gettext_lazy("Games kept on paper may be keyed in without their players"),
        required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["options"] = game_options(data.get("game"), data)
        self.check_season_row(data)
        winner, loser = data.get("walkover_winner"), data.get("walkover_loser")
        if winner is not None and loser is not None:
            try:
                Cup(walkover_winner=winner, walkover_loser=loser).clean()
            except ValidationError as error:
                self.add_error("walkover_winner", error.error_dict["walkover_winner"])
        return data


class CupEntrantForm(forms.Form):
    name = NameField(label=gettext_lazy("Team, pair or player"), max_length=80)
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=EntrantKind.choices)
    captain = forms.CharField(label=gettext_lazy("Captain's username (optional)"),
                              max_length=150, required=False)
    players = forms.CharField(label=gettext_lazy("Squad: the club's players, comma-separated"),
                              max_length=2000, required=False)


class FromSeasonForm(forms.Form):
    """Another season or cup of the club, whose entrants the cup takes in."""

    season = forms.ModelChoiceField(label=gettext_lazy("Enter every entrant of"),
                                    queryset=Season.objects.none(),
                                    empty_label=gettext_lazy("— choose —"))

    def __init__(self, *args: Any, cup: Cup, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["season"].queryset = seasons_to_enter(cup)  # type: ignore[attr-defined]


class RenameEntrantForm(forms.Form):
    entrant = forms.ModelChoiceField(label=gettext_lazy("Entrant"),
                                     queryset=Entrant.objects.none(),
                                     empty_label=gettext_lazy("— choose —"))
    name = NameField(label=gettext_lazy("New name"), max_length=80)

    def __init__(self, *args: Any, cup: Cup, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entrant"].queryset = cup_entrants(cup)  # type: ignore[attr-defined]


def entrant_lines(text: str, entrants: dict[str, Any]) -> tuple[list[Any], list[str]]:
    """The entrants named one a line in ``text`` (a blank line, or "bye", is None), and
    the names that are not the cup's."""
    found: list[Any] = []
    unknown: list[str] = []
    for line in text.splitlines():
        name = " ".join(line.split())
        if not name:
            continue
        if name.casefold() in ("bye", _("bye").casefold()):
            found.append(None)
            continue
        entrant = entrants.get(name.casefold())
        if entrant is None:
            unknown.append(name)
        found.append(entrant)
    return found, unknown


class SeedsForm(forms.Form):
    seeds = forms.CharField(label=gettext_lazy("Seeds, seed 1 first, one a line"),
                            widget=forms.Textarea(attrs={"rows": 4}), max_length=5000)


class DrawByHandForm(forms.Form):
    pairs = forms.CharField(
        label=gettext_lazy("The first round's ties, one a line: home v away (or home v bye)"),
        widget=forms.Textarea(attrs={"rows": 6}), max_length=10000)


def pair_lines(text: str, entrants: dict[str, Any]) -> tuple[list[list[Any]], list[str]]:
    """The first round's ties typed one a line, "home v away" ("away" may be "bye"), as
    pairs of the cup's entrants (None for a bye), and the names that are not the cup's."""
    pairs: list[list[Any]] = []
    unknown: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        parts = re.split(r"\s+v\s+", line.strip(), maxsplit=1, flags=re.IGNORECASE)
        sides, missing = entrant_lines("\n".join(parts), entrants)
        unknown += missing
        pairs.append(sides if len(sides) == 2 else [*sides, None][:2])
    return pairs, unknown


class RoundDateForm(forms.Form):
    number = forms.IntegerField(label=gettext_lazy("Round"), min_value=1, max_value=30)
    plate = forms.BooleanField(label=gettext_lazy("Plate"), required=False)
    date = forms.DateField(label=gettext_lazy("Date"),
                           widget=DatePicker())


class FinalsForm(forms.Form):
    date = forms.DateField(label=gettext_lazy("Finals night"),
                           widget=DatePicker())
    venue = forms.CharField(label=gettext_lazy("Venue"), max_length=120)


class ResetForm(forms.Form):
    round = forms.IntegerField(label=gettext_lazy("Round of the tie to correct"), min_value=1,
                               max_value=30)
    position = forms.IntegerField(label=gettext_lazy("Tie"), min_value=1, max_value=2**15)
    plate = forms.BooleanField(label=gettext_lazy("A plate tie"), required=False)
    reason = forms.CharField(label=gettext_lazy("Why the ties after it are reset"),
                             max_length=300)


class PlateUndrawForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Why the plate is drawn again"),
                             max_length=300)
