"""Accounts: a user made by signing up.

Casual matches need no account; clubs do. Signing in, out and resetting a password are
Django's own views (``django.contrib.auth.urls``); creating the account is ours, and so
is lifting a sign-in lockout once a password was reset by e-mail, the account's
e-mail address, whether its owner wants league e-mails, and in which language.
"""

from __future__ import annotations

from axes.utils import reset as axes_reset
from django.contrib.auth import authenticate, password_validation
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from matches.accounts.models import NoticeSettings


@transaction.atomic
def account_create(*, username: str, password: str, email: str = "") -> User:
    """A new active user with ``password`` (hashed); ``email`` is optional, but without
    one the password cannot be reset.

    The sign-up form has checked all of this already; the checks are repeated here so
    that no other caller (a shell, a later club invitation) can store a weak password or
    a taken name. Errors are keyed by this function's arguments.
    """
    user = User(username=username, email=email)
    try:
        password_validation.validate_password(password, user)
    except ValidationError as exc:
        raise ValidationError({"password": exc.error_list}) from exc
    user.set_password(password)
    # full_clean: a valid and free username, a well-formed e-mail address
    user.full_clean()
    user.save()
    return user


NOT_YOUR_PASSWORD = _("That is not this account's password: the e-mail address is "
                      "unchanged.")


def password_confirmed(*, request: HttpRequest, user: User, password: str) -> bool:
    """Whether ``password`` is signed-in ``user``'s, asked as a sign-in asks it: a wrong
    one counts towards the account's lockout (django-axes), and a locked-out account
    confirms nothing (the request is then answered with the lockout page). A phone found
    signed in cannot guess its way to the account's e-mail address or password."""
    return authenticate(request, username=user.get_username(), password=password) == user


def account_email_set(*, request: HttpRequest, user: User, email: str,
                      password: str) -> User:
    """Give ``user`` the e-mail address ``email`` ("": none, and so no reset link and no
    e-mail), once ``password`` shows that its owner asks (:func:`password_confirmed`).
    Errors are keyed by this function's arguments: ``password`` (not the account's),
    ``email`` (not an address). The password is asked outside the write's transaction:
    the failed sign-in it records must outlive the refusal."""
    if not password_confirmed(request=request, user=user, password=password):
        raise ValidationError({"password": ValidationError(NOT_YOUR_PASSWORD,
                                                           code="password")})
    with transaction.atomic():
        user.email = User.objects.normalize_email(email.strip())
        user.full_clean()
        user.save(update_fields=["email"])
    return user


@transaction.atomic
def lockout_lift(*, username: str) -> int:
    """Forget ``username``'s failed sign-ins from every address (django-axes), so a
    lockout ends now rather than after its cool-off: the account's owner has just
    proved who they are by the reset link mailed to them. Returns how many records
    were forgotten."""
    return axes_reset(username=username)


def league_emails_on(*, user: User) -> bool:
    """Whether ``user`` gets league e-mails (on unless they turned them off)."""
    return notice_settings_of(user=user).league_emails


def notice_settings_of(*, user: User) -> NoticeSettings:
    """``user``'s e-mail settings; the defaults (e-mails on, in the site's language),
    unsaved, for one who never chose."""
    return NoticeSettings.objects.filter(user=user).first() or NoticeSettings(user=user)


@transaction.atomic
def league_emails_set(*, user: User, on: bool | None = None,
                      language: str | None = None) -> NoticeSettings:
    """Turn ``user``'s league e-mails on or off, and set the language they are written in
    (a code of ``LANGUAGES``; "" for the site's); what is not given stays as it was.
    Raises ValidationError (on ``email_language``) for a language the site has not."""
    notice_settings = notice_settings_of(user=user)
    if on is not None:
        notice_settings.league_emails = on
    if language is not None:
        notice_settings.email_language = language
    notice_settings.full_clean()
    notice_settings.save()
    return notice_settings
