"""Accounts: signing up, and the page for a sign-in locked out by django-axes. Signing
in and out, changing and resetting a password are Django's own views
(``django.contrib.auth.urls``, mounted by ``matches/accounts/urls.py``) with our
templates in ``templates/registration/``.

Casual matches need no account; clubs do.
"""

from __future__ import annotations

from typing import Any

from axes.helpers import get_cool_off
from django.contrib import messages
from django.contrib.auth import authenticate, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm, SetPasswordForm
from django.contrib.auth.models import User
from django.contrib.auth.views import (
    PasswordChangeView,
    PasswordResetConfirmView,
    PasswordResetView,
    redirect_to_login,
)
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST

from matches.accounts.forms import (
    ConfirmedPasswordChangeForm,
    EmailChangeForm,
    NoticeSettingsForm,
    SignUpForm,
)
from matches.accounts.services import (
    account_create,
    account_email_set,
    league_emails_set,
    lockout_lift,
    notice_settings_of,
)
from matches.core.forms import add_refusal
from scorekeeper import throttle
from scorekeeper.throttle import throttle_count, throttle_wait

# the service's argument for each field of the form, where they differ
SERVICE_FIELDS = {"password": "password2"}


@sensitive_post_parameters("password1", "password2")
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account, sign it in, and go back to ``next`` (a page of this site
    only) or the home page."""
    next_url = safe_next(request)
    form = SignUpForm(request.POST or None)
    if request.method == "POST":
        wait = throttle_wait(request, action=throttle.SIGNUP,
                             email=request.POST.get("email", ""))
        if wait:
            return too_many(request, throttle.SIGNUP, wait)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        throttle_count(request, action=throttle.SIGNUP, email=data["email"])
        try:
            user = account_create(username=data["username"], password=data["password1"],
                                  email=data["email"])
        except ValidationError as exc:
            for name, errors in exc.message_dict.items():
                field = SERVICE_FIELDS.get(name, name)
                form.add_error(field if field in form.fields else None, errors)
        else:
            # Signed in through AUTHENTICATION_BACKENDS, as the sign-in page would: the
            # session names the backend that let the user in, and a backend missing from
            # that list (Django's ModelBackend is not in it) would make the very next
            # request anonymous again.
            signed_in = authenticate(request, username=user.get_username(),
                                     password=data["password1"])
            if signed_in is None:
                # refused: this name is locked out from this address (django-axes then
                # answers with its own page instead). The account is made; signing in
                # waits for the lockout to end, as it would on the sign-in page.
                return redirect_to_login(next_url or reverse("matches:home"))
            login(request, signed_in)
            return redirect(next_url or "matches:home")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def account_settings(request: HttpRequest) -> HttpResponse:
    """The account's page: whether league e-mails are sent to it (every such e-mail
    links here) and in which language, its e-mail address (:func:`account_email`), and
    the way to change the password."""
    user = request.user
    assert isinstance(user, User)  # login_required
    # bound on every POST: a box left unticked sends nothing, and that is "off"
    form = _notice_settings_form(user, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        on = form.cleaned_data["league_emails"]
        league_emails_set(user=user, on=on, language=form.cleaned_data["email_language"])
        messages.success(request, _("League e-mails are on.") if on
                         else _("League e-mails are off: you will get none."))
        return redirect("notice_settings")
    return _account_page(request, form=form,
                         status=400 if request.method == "POST" else 200)


@sensitive_post_parameters("password")
@login_required
@require_POST
def account_email(request: HttpRequest) -> HttpResponse:
    """The account's e-mail address changed (or taken away), with its password."""
    user = request.user
    assert isinstance(user, User)  # login_required
    email_form = EmailChangeForm(request.POST)
    if email_form.is_valid():
        try:
            account_email_set(request=request, user=user, email=email_form.cleaned_data["email"],
                              password=email_form.cleaned_data["password"])
        except ValidationError as refused:
            add_refusal(email_form, refused)
        else:
            messages.success(request, _("E-mail address saved.") if user.email
                             else _("E-mail address taken away: the site sends you no "
                                    "e-mail."))
            return redirect("notice_settings")
    return _account_page(request, email_form=email_form, status=400)


def _notice_settings_form(user: User, data: Any = None) -> NoticeSettingsForm:
    """The e-mail settings as chosen; the language offered until one is chosen is the
    one the page is read in."""
    chosen = notice_settings_of(user=user)
    return NoticeSettingsForm(data, initial={
        "league_emails": chosen.league_emails,
        "email_language": chosen.email_language or translation.get_language()})


def _account_page(request: HttpRequest, *, form: NoticeSettingsForm | None = None,
                  email_form: EmailChangeForm | None = None, status: int) -> HttpResponse:
    """The account's page with its two forms, either as sent back with its errors."""
    user = request.user
    assert isinstance(user, User)
    if form is None:
        form = _notice_settings_form(user)
    if email_form is None:
        email_form = EmailChangeForm(initial={"email": user.email})
    return render(request, "registration/account_settings.html",
                  {"form": form, "email_form": email_form}, status=status)


class PasswordReset(PasswordResetView):
    """Django's page that mails a reset link, with a limit per address and per e-mail
    address (scorekeeper/throttle.py): each link sent is a mail in someone's inbox."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = throttle_wait(request, action=throttle.PASSWORD_RESET,
                             email=request.POST.get("email", ""))
        if wait:
            return too_many(request, throttle.PASSWORD_RESET, wait)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        # counted whether or not an account has the address: the answer is the same
        throttle_count(self.request, action=throttle.PASSWORD_RESET,
                       email=form.cleaned_data["email"])
        return super().form_valid(form)


class PasswordResetConfirm(PasswordResetConfirmView):
    """Django's page behind the reset e-mail's link; a new password set there also ends
    a sign-in lockout on the account (else its owner would wait out the cool-off)."""

    def form_valid(self, form: SetPasswordForm[User]) -> HttpResponse:
        response = super().form_valid(form)
        lockout_lift(username=form.user.get_username())
        return response


def too_many(request: HttpRequest, action: str, wait: int) -> HttpResponse:
    """The page for a sign-up or a reset link asked for past its limit: 429, and how
    long to wait in whole minutes (also in ``Retry-After``, in seconds)."""
    response = render(request, "registration/throttled.html", {
        "signup": action == throttle.SIGNUP, "minutes": throttle.minutes(wait)}, status=429)
    response["Retry-After"] = str(wait)
    return response


def locked_out(request: HttpRequest, original_response: HttpResponse | None = None,
               credentials: dict[str, Any] | None = None) -> HttpResponse:
    """The page django-axes answers a locked-out sign-in with (``AXES_LOCKOUT_CALLABLE``),
    here and on the admin's login: 429, and how long to wait in whole minutes."""
    cool_off = get_cool_off(request)
    minutes = throttle.minutes(cool_off.total_seconds()) if cool_off else None
    return render(request, "registration/locked_out.html", {"minutes": minutes},
                  status=429)


def safe_next(request: HttpRequest) -> str:
    """The ``next`` page asked for, if it is on this site (an address elsewhere, or one
    with an unexpected scheme, is dropped: no open redirect); else ``""``."""
    url = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(url, allowed_hosts={request.get_host()},
                                       require_https=request.is_secure()):
        return url
    return ""


class PasswordChange(PasswordChangeView):
    """Django's change of password, its old password counted as a sign-in attempt
    (:class:`~matches.accounts.forms.ConfirmedPasswordChangeForm`)."""

    form_class = ConfirmedPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}
