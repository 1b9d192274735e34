"""The leagues' forms: a new season (its scheme checked once, by the league rules), an
entrant and its changes, the fixtures' generation, an adjustment, a dispute, a new date."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.core.forms import (
    DatePicker,
    NameField,
    add_refusal,
    deal_field,
    game_options,
    one_line_name,
    tile_set_field,
)
from matches.leagues import services as leagues_services
from matches.leagues.models import (
    MAX_FIXTURE_GAMES,
    MAX_RACE_TO,
    EntrantKind,
    FixtureFormat,
    Season,
)
from matches.leagues.presenters import TIEBREAK_NAMES
from matches.scoring.models import GameKind


class NightsStartForm(forms.Form):
    """When a season's nights usually start: its reminders and prompts are timed from it."""

    nights_start = forms.TimeField(label=gettext_lazy("Nights start at"),
                                   widget=forms.TimeInput(attrs={"type": "time"},
                                                          format="%H:%M"))


class NightFields(forms.Form):
    """What a fixture night is (its games, or a race) and the options its games are
    played with, with whether submitted results count: a season's form and a cup's both
    ask these, each with its own ``fixture_format`` choice and its own ``field_order``."""

    singles = forms.IntegerField(label=gettext_lazy("Singles games"), min_value=0,
                                 max_value=MAX_FIXTURE_GAMES, initial=0, required=False)
    pairs = forms.IntegerField(label=gettext_lazy("Pairs games"), min_value=0,
                               max_value=MAX_FIXTURE_GAMES, initial=0, required=False)
    race_to = forms.IntegerField(label=gettext_lazy("Race to (games)"), min_value=1,
                                 max_value=MAX_RACE_TO, required=False)
    target = forms.IntegerField(label=gettext_lazy("Target of every game (empty: the "
                                                   "game's own)"), min_value=1,
                                max_value=10_000, required=False)
    tile_set = tile_set_field()
    deal = deal_field({"full": gettext_lazy("Full"), "short": gettext_lazy("Short")})
    count_submitted = forms.BooleanField(
        label=gettext_lazy("Count submitted results before the away captain confirms"),
        required=False)

    def check_season_row(self, data: dict[str, Any]) -> None:
        """What the season's row would refuse (``Season.clean``: its dates and its
        night), said beside the form's own errors; a field refused already keeps its
        first reason. A refused field is missing here (None): the check passes over it."""
        shape: dict[str, Any] = {
            "starts_on": data.get("starts_on"), "ends_on": data.get("ends_on"),
            "fixture_format": data.get("fixture_format") or "",
            "singles": data.get("singles") or 0, "pairs": data.get("pairs") or 0,
            "race_to": data.get("race_to")}
        try:
            Season(**shape).clean()
        except ValidationError as error:
            for field, errors in error.error_dict.items():
                if field not in self.errors:
                    self.add_error(field, errors)


class SeasonForm(NightFields):
    field_order = ["name", "starts_on", "ends_on", "nights_start", "game", "fixture_format",
                   "singles", "pairs", "race_to", "win", "draw", "loss", "per_game",
                   "close_loss_margin", "close_loss_points", "heavy_win_margin",
                   "heavy_win_points", "walkover_won", "walkover_lost", "target", "tile_set",
                   "deal", "count_submitted", "corrections_confirmed_again",
                   "paper_players_optional", "divisions"]

    name = NameField(label=gettext_lazy("Season name"), max_length=120)
    starts_on = forms.DateField(label=gettext_lazy("First fixture night"),
                                widget=DatePicker())
    ends_on = forms.DateField(label=gettext_lazy("Last night (optional)"), required=False,
                              widget=DatePicker())
    # left empty: the season's default
    nights_start = forms.TimeField(label=gettext_lazy("Nights start at (for the reminders)"),
                                   initial=datetime.time(19, 30), required=False,
                                   widget=forms.TimeInput(attrs={"type": "time"},
                                                          format="%H:%M"))
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=GameKind.choices)
    # a season's own default (Season.fixture_format), so that the form sent as it opens
    # makes a season: the first choice, a set of games, would need their number first
    fixture_format = forms.ChoiceField(label=gettext_lazy("A fixture is"),
                                       choices=FixtureFormat.choices,
                                       initial=FixtureFormat.SINGLE)
    win = forms.IntegerField(label=gettext_lazy("Points for a win"), min_value=0,
                             max_value=100, initial=2)
    draw = forms.IntegerField(label=gettext_lazy("Points for a draw"), min_value=0,
                              max_value=100, initial=1)
    loss = forms.IntegerField(label=gettext_lazy("Points for a loss"), min_value=0,
                              max_value=100, initial=0)
    per_game = forms.IntegerField(label=gettext_lazy("Points per game won"), min_value=0,
                                  max_value=100, initial=0)
    close_loss_margin = forms.IntegerField(
        label=gettext_lazy("Close loss: lost by at most (games)"), min_value=0, max_value=100,
        required=False)
    # each named whole: a screen reader's list of fields reads no "…" of the row before
    close_loss_points = forms.IntegerField(label=gettext_lazy("Close loss earns (points)"),
                                           min_value=0, max_value=100, required=False)
    heavy_win_margin = forms.IntegerField(
        label=gettext_lazy("Heavy win: won by at least (games)"), min_value=1, max_value=100,
        required=False)
    heavy_win_points = forms.IntegerField(label=gettext_lazy("Heavy win earns (points)"),
                                          min_value=0, max_value=100, required=False)
    walkover_won = forms.IntegerField(label=gettext_lazy("Walkover: games to the side there"),
                                      min_value=0, max_value=100, initial=1)
    walkover_lost = forms.IntegerField(label=gettext_lazy("… and to the side absent"),
                                       min_value=0, max_value=100, initial=0)
    corrections_confirmed_again = forms.BooleanField(
        label=gettext_lazy("A league admin's correction of a result goes to the away captain "
                           "to confirm again (else it is final)"),
        required=False)
    paper_players_optional = forms.BooleanField(
        label=gettext_lazy("Games kept on paper may be keyed in without their players "
                           "(they then count in no player's record or rating)"),
        required=False)
    divisions = forms.CharField(label=gettext_lazy("Divisions, one a line"),
                                initial=gettext_lazy("Division 1"),
                                widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # one choice per place in the order, the defaults of the format first
        defaults = ["game_difference", "games_for"]
        for n in range(1, len(TIEBREAK_NAMES) + 1):
            self.fields[f"tiebreak_{n}"] = forms.ChoiceField(
                label=gettext_lazy("Tie-breaker %(n)s") % {"n": n}, required=False,
                choices=[("", gettext_lazy("— none —")), *TIEBREAK_NAMES.items()],
                initial=defaults[n - 1] if n <= len(defaults) else "")
        # the tie-breakers before the last fields
        last = ["count_submitted", "corrections_confirmed_again", "paper_players_optional",
                "divisions"]
        self.order_fields([name for name in self.fields if name not in last] + last)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        order = [data.get(f"tiebreak_{n}") for n in range(1, len(TIEBREAK_NAMES) + 1)]
        chosen = [t for t in order if t]
        if len(set(chosen)) != len(chosen):
            self.add_error("tiebreak_1", _("Each tie-breaker at most once."))
        data["tiebreaks"] = chosen
        scoring: dict[str, Any] = {key: data[key] for key in ("win", "draw", "loss",
                                                              "per_game")
                                   if data.get(key) is not None}
        for bonus in ("close_loss", "heavy_win"):
            margin, points = data.get(f"{bonus}_margin"), data.get(f"{bonus}_points")
            if (margin is None) != (points is None):
                self.add_error(f"{bonus}_margin", _("Give both the margin and the points, "
                                                    "or neither."))
            elif margin is not None:
                scoring[bonus] = {"margin": margin, "points": points}
        if data.get("walkover_won") is not None and data.get("walkover_lost") is not None:
            scoring["walkover"] = [data["walkover_won"], data["walkover_lost"]]
        data["scoring"] = scoring
        data["options"] = game_options(data.get("game"), data)
        self._check_season(data)
        return data

    def _check_season(self, data: dict[str, Any]) -> None:
        """What the season's row and the league rules would refuse, said now beside the
        form's own errors instead of one at a time after them: the row's own check
        (``Season.clean``) and the service's scheme check, which ``season_create`` runs
        again on what it is given. A field refused already keeps its first reason."""
        self.check_season_row(data)
        if data.get("game"):  # the scheme and the options, by the service's own check
            try:
                leagues_services.season_scheme_check(game=data["game"], options=data["options"],
                                             scoring=data["scoring"])
            except ValidationError as error:
                self.refused(error)

    def refused(self, error: ValidationError) -> None:
        """The service's refusal beside the field it is about, in the form's words (the
        rules name the document's fields, ``scoring.walkover: w …``, not these)."""
        if getattr(error, "code", None) == "walkover_order":
            self.add_error("walkover_won", _("Give the side that turned up more games than "
                                             "the side absent."))
        else:
            add_refusal(self, error)

    def clean_divisions(self) -> list[str]:
        # each line a name, as a name field makes it (no control turns the table around)
        names = [one_line_name(line) for line in self.cleaned_data["divisions"].splitlines()]
        names = [name for name in names if name]
        if not names:
            raise forms.ValidationError(_("Name at least one division."))
        if len({n.casefold() for n in names}) != len(names):
            raise forms.ValidationError(_("Each division needs a different name."))
        return names


class EntrantForm(forms.Form):
    division = forms.IntegerField(widget=forms.HiddenInput)
    name = NameField(label=gettext_lazy("Team, pair or player"), max_length=80)
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=EntrantKind.choices)
    captain = forms.CharField(label=gettext_lazy("Captain's username (optional)"),
                              max_length=150, required=False)
    players = forms.CharField(label=gettext_lazy("Squad: the club's players, comma-separated"),
                              max_length=2000, required=False)


class GenerateForm(forms.Form):
    division = forms.IntegerField(widget=forms.HiddenInput)
    legs = forms.TypedChoiceField(label=gettext_lazy("Round robin"), coerce=int,
                                  choices=[(1, gettext_lazy("Single: each pair meets once")),
                                           (2, gettext_lazy("Double: home and away"))])


class FixtureAddForm(forms.Form):
    """A fixture made by hand in a division: who plays whom, and when."""

    division = forms.IntegerField(widget=forms.HiddenInput)
    home = forms.IntegerField(label=gettext_lazy("Home"), min_value=1, max_value=2**31 - 1)
    away = forms.IntegerField(label=gettext_lazy("Away"), min_value=1, max_value=2**31 - 1)
    date = forms.DateField(label=gettext_lazy("Date"), widget=DatePicker())


class AdjustmentForm(forms.Form):
    entrant = forms.IntegerField(label=gettext_lazy("Entrant"), min_value=1,
                                 max_value=2**31 - 1)
    points = forms.IntegerField(label=gettext_lazy("Points (negative to deduct)"),
                                min_value=-1000, max_value=1000)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200)


class EntrantChangeForm(forms.Form):
    """Rename an entrant, set its captain, add players to its squad or take them out, or
    remove one added by mistake (``do``: which button)."""

    entrant = forms.IntegerField(label=gettext_lazy("Entrant"), min_value=1,
                                 max_value=2**31 - 1)
    name = NameField(label=gettext_lazy("New name"), max_length=80, required=False)
    captain = forms.CharField(label=gettext_lazy("Captain's username (blank: none)"),
                              max_length=150, required=False)
    players = forms.CharField(label=gettext_lazy("Players: the club's, comma-separated"),
                              max_length=2000, required=False)
    # sent by the button pressed, no control of its own: refused, it is the form's reason
    do = forms.ChoiceField(choices=[("rename", "rename"), ("captain", "captain"),
                                    ("squad_add", "squad_add"), ("squad_drop", "squad_drop"),
                                    ("remove", "remove")],
                           widget=forms.HiddenInput)
    confirm = forms.BooleanField(required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("do") == "rename" and not (data.get("name") or "").strip():
            self.add_error("name", _("Give the entrant's new name."))
        if data.get("do") in ("squad_add", "squad_drop") \
                and not (data.get("players") or "").strip(", "):
            self.add_error("players", _("Name the players to add or take out."))
        if data.get("do") == "remove" and not data.get("confirm"):
            self.add_error("confirm", _("Tick the box to say that the entrant and its "
                                        "fixtures not yet played are to go."))
        return data


class DisputeForm(forms.Form):
    message = forms.CharField(label=gettext_lazy("What is wrong"), max_length=1000,
                              widget=forms.Textarea(attrs={"rows": 2}))


class RedateForm(forms.Form):
    date = forms.DateField(label=gettext_lazy("New date"), required=False,
                           widget=DatePicker())
    postponed = forms.BooleanField(label=gettext_lazy("Postponed"), required=False)

