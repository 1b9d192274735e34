"""The match history's filters, read from the page's address (shareable links)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from matches.core.forms import DatePicker
from matches.history.selectors import (
    HistoryFilters,
)
from matches.scoring.models import GameKind, MatchStatus


class HistoryForm(forms.Form):
    player = forms.CharField(label=_("Player"), max_length=60, required=False)
    game = forms.ChoiceField(label=_("Game"), required=False,
                             choices=[("", _("Any game")), *GameKind.choices])
    club = forms.SlugField(label=_("Club"), max_length=80, required=False)
    season = forms.IntegerField(label=_("League season or cup"), min_value=1, max_value=2**31 - 1,
                                required=False)
    status = forms.ChoiceField(label=_("Status"), required=False,
                               choices=[("", _("Any")), *MatchStatus.choices])
    since = forms.DateField(label=_("From"), required=False,
                            widget=DatePicker())
    until = forms.DateField(label=_("To"), required=False,
                            widget=DatePicker())
    order = forms.ChoiceField(label=_("Order"), required=False,
                              choices=[("newest", _("Newest first")),
                                       ("oldest", _("Oldest first"))])

    def filters(self) -> HistoryFilters:
        """What was asked, with anything malformed left out (a bad filter never fails)."""
        data = self.cleaned_data if self.is_valid() else {
            name: value for name, value in getattr(self, "cleaned_data", {}).items()
            if name not in self.errors}
        return HistoryFilters(
            player=(data.get("player") or "").strip(), game=data.get("game") or "",
            club=data.get("club") or "", season=data.get("season"),
            status=data.get("status") or "", since=data.get("since"),
            until=data.get("until"), oldest_first=data.get("order") == "oldest")
