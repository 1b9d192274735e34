"""Clubs' forms: a new club and its settings, a player, a member's role."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from matches.clubs.models import Role, Visibility


class ClubForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Club name"), max_length=80)
    visibility = forms.ChoiceField(label=gettext_lazy("Who can read the club's pages"),
                                   choices=Visibility.choices, initial=Visibility.PUBLIC,
                                   widget=forms.RadioSelect)


class PlayerForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Player's name"), max_length=60)


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Role.choices)
