"""Clubs' forms: a new club and its settings, a player, a member's role."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from matches.clubs.models import Role, Visibility
from matches.core.forms import NameField


class ClubForm(forms.Form):
    name = NameField(label=gettext_lazy("Club name"), max_length=80)
    visibility = forms.ChoiceField(label=gettext_lazy("Who can read the club's pages"),
                                   choices=Visibility.choices, initial=Visibility.PUBLIC,
                                   widget=forms.RadioSelect)


class PlayerForm(forms.Form):
    name = NameField(label=gettext_lazy("Player's name"), max_length=60)

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"]
        if "," in name:  # a squad is typed as the players' names separated by commas
            raise forms.ValidationError(
                gettext_lazy("A player's name cannot hold a comma: a team's squad lists its "
                             "players separated by commas."), code="comma")
        return name


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Role.choices)
