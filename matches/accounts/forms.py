"""Sign-up: a username (one account in any case), a password, an optional e-mail; the
account's e-mail address, changed with its password; the account's e-mail settings:
league e-mails on or off, and their language."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import PasswordChangeForm, UserCreationForm
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from matches.accounts.services import password_confirmed


class SignUpForm(UserCreationForm[User]):
    """Django's sign-up form plus an optional e-mail address: without one, a forgotten
    password cannot be reset (the reset link is sent there)."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")
        labels = {"email": _("E-mail address (optional)")}
        help_texts = {"email": _("Only used to send you a link if you forget your password.")}
        widgets = {"email": forms.EmailInput(attrs={"autocomplete": "email"})}


class NoticeSettingsForm(forms.Form):
    league_emails = forms.BooleanField(
        label=_("E-mail me about my league fixtures"), required=False,
        help_text=_("Results to confirm, disputes, settled results, reminders the day "
                    "before, and (for league admins) results missing."))
    email_language = forms.ChoiceField(
        label=_("Write my e-mails in"), choices=settings.LANGUAGES,
        help_text=_("Until you choose, e-mails are written in the site's language."))


class EmailChangeForm(forms.Form):
    """The account's e-mail address, given, changed or taken away (left empty), with the
    account's password: whoever finds a phone signed in cannot send its owner's reset
    links elsewhere."""

    email = forms.EmailField(
        label=_("E-mail address"), required=False, max_length=254,
        help_text=_("A link to reset a forgotten password is sent here, and league e-mails "
                    "if they are on. Leave it empty for none."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    password = forms.CharField(
        label=_("Your password"), strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))


class ConfirmedPasswordChangeForm(PasswordChangeForm):
    """Django's change of password, its old password asked as a sign-in asks it
    (:func:`~matches.accounts.services.password_confirmed`): wrong ones count towards the
    account's lockout, as on the sign-in page."""

    def __init__(self, user: User, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        old_password: str = self.cleaned_data["old_password"]
        if not password_confirmed(request=self.request, user=self.user, password=old_password):
            raise forms.ValidationError(self.error_messages["password_incorrect"],
                                        code="password_incorrect")
        return old_password
