"""The account's page: league e-mails turned off and on again, said back; it needs a
signed-in user; the header's name links to it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from matches.accounts.services import league_emails_on
from matches.models import NoticeSettings

pytestmark = pytest.mark.django_db

URL = "/accounts/settings/"


def test_the_address_is_the_one_the_emails_link_to():
    assert reverse("notice_settings") == URL


def test_it_needs_a_signed_in_user(client):
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_league_emails_turned_off_and_on(client):
    user = User.objects.create_user("ann", email="ann@example.com")
    client.force_login(user)
    page = client.get(URL).content.decode()
    assert "E-mails go to ann@example.com." in page
    assert 'id="id_league_emails" checked' in page  # on until turned off
    response = client.post(URL, {}, follow=True)  # the box left empty: off
    assert "League e-mails are off: you will get none." in response.content.decode()
    assert league_emails_on(user=user) is False
    assert 'id="id_league_emails" checked' not in client.get(URL).content.decode()
    client.post(URL, {"league_emails": "on"})
    assert league_emails_on(user=user) is True
    assert NoticeSettings.objects.filter(user=user).count() == 1


def test_an_account_without_an_address_is_told(client):
    client.force_login(User.objects.create_user("bob"))
    page = client.get(URL).content.decode()
    assert "Your account has no e-mail address" in page


def test_the_headers_name_links_to_it(client):
    client.force_login(User.objects.create_user("cath"))
    page = client.get("/").content.decode()
    assert f'href="{URL}"' in page
