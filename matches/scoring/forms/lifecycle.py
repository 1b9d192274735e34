"""Forms of the match management pages: they read input only; the rules about names
(and whether they may still change) are the services'."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from matches.core.forms import NameField
from matches.scoring.forms.play import DUPLICATE_NAMES, NAME_LENGTH, WriteForm


class RenameForm(WriteForm):
    """One name per seat, checked as the new-match form checks them."""

    def __init__(self, *args: Any, seats: list[tuple[int, str, bool]], **kwargs: Any) -> None:
        """``seats``: each seat's position, current name, and whether it is a club's
        player (its name is shown, not offered for editing)."""
        super().__init__(*args, **kwargs)
        self.seats = seats
        for position, name, club_player in seats:
            self.fields[f"player_{position}"] = NameField(
                label=_("Seat %(n)s") % {"n": position + 1}, max_length=NAME_LENGTH,
                initial=name, disabled=club_player,
                help_text=_("A club's player: named by the club.") if club_player else "")

    def player_fields(self) -> list[forms.BoundField]:
        return [self[f"player_{position}"] for position, _name, _club in self.seats]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        names: list[str] = []
        for position, _name, _club in self.seats:
            name = " ".join((data.get(f"player_{position}") or "").split())
            if name and name.casefold() in {n.casefold() for n in names}:
                self.add_error(f"player_{position}",
                               forms.ValidationError(DUPLICATE_NAMES, code="duplicate"))
            names.append(name)
        data["names"] = names
        return data


class RematchForm(forms.Form):
    # made when the page is drawn: the same button sent twice starts one match
    creation_key = forms.UUIDField(widget=forms.HiddenInput)
