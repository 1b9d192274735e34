"""matches.accounts.services: an account's e-mail settings, each part set on its own, a
language the site has not refused; its e-mail address, changed only with its password."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.test import RequestFactory

from matches.accounts.services import (
    NOT_YOUR_PASSWORD,
    account_email_set,
    league_emails_on,
    league_emails_set,
    notice_settings_of,
)
from matches.models import NoticeSettings

pytestmark = pytest.mark.django_db


def signed_in(user: User) -> HttpRequest:
    """The request a signed-in phone sends: the password is asked as a sign-in asks it."""
    request = RequestFactory().post("/accounts/settings/email/")
    request.user = user
    return request


@pytest.fixture
def ann() -> User:
    return User.objects.create_user("ann", email="ann@example.com", password=PASSWORD)


PASSWORD = "correct horse battery staple"


def test_one_who_never_chose_gets_emails_in_the_sites_language(ann):
    chosen = notice_settings_of(user=ann)
    assert (chosen.pk, chosen.league_emails, chosen.email_language) == (None, True, "")


def test_what_is_not_given_stays_as_it_was(ann):
    league_emails_set(user=ann, language="uk")
    league_emails_set(user=ann, on=False)
    assert (notice_settings_of(user=ann).email_language, league_emails_on(user=ann)) == \
        ("uk", False)
    league_emails_set(user=ann, language="ru")
    assert not league_emails_on(user=ann)
    assert NoticeSettings.objects.filter(user=ann).count() == 1


def test_a_language_the_site_has_not_is_refused_on_its_field(ann):
    with pytest.raises(ValidationError) as refused:
        league_emails_set(user=ann, on=False, language="de")
    assert list(refused.value.message_dict) == ["email_language"]
    assert "'de' is not a valid choice." in refused.value.message_dict["email_language"][0]
    assert league_emails_on(user=ann) and not NoticeSettings.objects.exists()


def test_an_address_is_changed_with_the_accounts_password(ann):
    account_email_set(request=signed_in(ann), user=ann,
                      email="  Ann.Kovalenko@Example.ORG ", password=PASSWORD)
    ann.refresh_from_db()
    assert ann.email == "Ann.Kovalenko@example.org"  # the domain folded, as Django does

    account_email_set(request=signed_in(ann), user=ann,
                      email="", password=PASSWORD)  # none: no mail at all
    ann.refresh_from_db()
    assert ann.email == ""


def test_without_the_password_the_address_stays(ann):
    with pytest.raises(ValidationError) as refused:
        account_email_set(request=signed_in(ann), user=ann,
                          email="thief@example.com", password="guess")
    assert refused.value.message_dict == {"password": [str(NOT_YOUR_PASSWORD)]}
    ann.refresh_from_db()
    assert ann.email == "ann@example.com"


def test_what_is_not_an_address_is_refused_on_its_field(ann):
    with pytest.raises(ValidationError) as refused:
        account_email_set(request=signed_in(ann), user=ann,
                          email="ann at example", password=PASSWORD)
    assert list(refused.value.message_dict) == ["email"]
    ann.refresh_from_db()
    assert ann.email == "ann@example.com"
