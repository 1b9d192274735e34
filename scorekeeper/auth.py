"""Sign-in takes a username in any case, as sign-up compares it.

Sign-up refuses "Olena" when "olena" exists (Django's UserCreationForm compares
usernames without regard to case), so a username names one account however it is
typed: signing in as "OLENA" is olena. Two accounts made before that check that differ
only in case keep their exact spelling. The lockout (django-axes) counts failures
against the username as the account spells it, so that typing it in other cases does
not get more tries.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.http import HttpRequest


def account_username(typed: str | None) -> str | None:
    """The username of the one account ``typed`` names in any case; else as typed."""
    if not typed:
        return typed
    model = get_user_model()
    field = f"{model.USERNAME_FIELD}__iexact"
    found = list(model._default_manager.filter(**{field: typed})
                 .values_list(model.USERNAME_FIELD, flat=True)[:2])
    return found[0] if len(found) == 1 else typed


class AnyCaseUsernameBackend(ModelBackend):
    def authenticate(self, request: HttpRequest | None, username: str | None = None,
                     password: str | None = None, **kwargs: Any) -> User | None:
        return super().authenticate(request, username=account_username(username),
                                    password=password, **kwargs)


def lockout_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """django-axes' AXES_USERNAME_CALLABLE: the account's own spelling of the username."""
    typed = (credentials or {}).get("username")
    if typed is None:
        typed = getattr(request, "POST", {}).get("username")
    return account_username(typed)
