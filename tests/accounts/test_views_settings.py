"""The account's page: league e-mails turned off and on again, said back, and the
language they are written in; it needs a signed-in user; the header's name links to it."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches.accounts.services import league_emails_on, notice_settings_of
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
    # the box left empty (a browser sends nothing for it): off
    response = client.post(URL, {"email_language": "en"}, follow=True)
    assert "League e-mails are off: you will get none." in response.content.decode()
    assert league_emails_on(user=user) is False
    assert 'id="id_league_emails" checked' not in client.get(URL).content.decode()
    client.post(URL, {"league_emails": "on", "email_language": "en"})
    assert league_emails_on(user=user) is True
    assert NoticeSettings.objects.filter(user=user).count() == 1


def selected_language(page: str) -> list[str]:
    select = re.search(r'<select name="email_language".*?</select>', page, re.S)
    assert select is not None
    return re.findall(r'<option value="(\w*)"[^>]*selected', select.group(0))


def test_the_language_offered_is_the_pages_until_one_is_chosen_then_the_chosen(client):
    user = User.objects.create_user("ann", email="ann@example.com")
    client.force_login(user)
    assert selected_language(client.get(URL).content.decode()) == ["en"]
    ukrainian = client.get(URL, headers={"accept-language": "uk"}).content.decode()
    assert selected_language(ukrainian) == ["uk"]
    assert "Мова моїх листів" in ukrainian

    response = client.post(URL, {"league_emails": "on", "email_language": "ru"}, follow=True)

    assert "League e-mails are on." in response.content.decode()
    assert notice_settings_of(user=user).email_language == "ru"
    assert selected_language(client.get(URL, headers={"accept-language": "uk"})
                             .content.decode()) == ["ru"]


def test_a_language_the_site_has_not_is_refused_on_its_field_and_nothing_is_saved(client):
    user = User.objects.create_user("ann", email="ann@example.com")
    client.force_login(user)

    response = client.post(URL, {"email_language": "de"})

    assert response.status_code == 400
    page = response.content.decode()
    assert re.search(r'id="id_email_language_error"[^>]*>.*Select a valid choice', page, re.S)
    assert not NoticeSettings.objects.filter(user=user).exists()
    assert league_emails_on(user=user)


def test_an_account_without_an_address_is_told(client):
    client.force_login(User.objects.create_user("bob"))
    page = client.get(URL).content.decode()
    assert "Your account has no e-mail address" in page


def test_the_headers_name_links_to_it(client):
    client.force_login(User.objects.create_user("cath"))
    page = client.get("/").content.decode()
    assert f'href="{URL}"' in page


# -- its e-mail address ---------------------------------------------------------------

EMAIL_URL = "/accounts/settings/email/"
PASSWORD = "correct horse battery staple"


def test_an_account_without_an_address_gives_itself_one_with_its_password(client):
    user = User.objects.create_user("bob", password=PASSWORD)
    client.force_login(user)
    assert reverse("account_email") == EMAIL_URL
    page = client.get(URL).content.decode()
    assert f'action="{EMAIL_URL}"' in page and 'id="id_password"' in page

    response = client.post(EMAIL_URL, {"email": "bob@example.com", "password": PASSWORD},
                           follow=True)

    page = response.content.decode()
    assert "E-mail address saved." in page and "E-mails go to bob@example.com." in page
    user.refresh_from_db()
    assert user.email == "bob@example.com"


def test_a_wrong_password_changes_nothing_and_keeps_what_was_typed(client):
    user = User.objects.create_user("ann", email="ann@example.com", password=PASSWORD)
    client.force_login(user)

    response = client.post(EMAIL_URL, {"email": "new@example.com", "password": "guess"})

    assert response.status_code == 400
    page = response.content.decode()
    assert re.search(r'id="id_password_error"[^>]*>.*not this account&#x27;s password', page,
                     re.S)
    assert 'value="new@example.com"' in page
    assert "guess" not in page  # a password is never sent back
    user.refresh_from_db()
    assert user.email == "ann@example.com"


def test_taking_the_address_away_says_no_email_will_come(client):
    user = User.objects.create_user("ann", email="ann@example.com", password=PASSWORD)
    client.force_login(user)

    response = client.post(EMAIL_URL, {"email": "", "password": PASSWORD}, follow=True)

    assert "E-mail address taken away: the site sends you no e-mail." in \
        response.content.decode()
    user.refresh_from_db()
    assert user.email == ""


def test_changing_the_address_needs_a_signed_in_user_and_a_post(client):
    response = client.post(EMAIL_URL, {"email": "x@example.com", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    client.force_login(User.objects.create_user("ann", password=PASSWORD))
    assert client.get(EMAIL_URL).status_code == 405


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Enter a valid email address."),
    ("uk", "Введіть коректну адресу електронної пошти."),  # Django's own keeps "email"
    ("ru", "Введите правильный адрес электронной почты.")])
def test_an_invalid_address_is_refused_in_the_readers_words(lang, said, catalogues_compiled):
    user = User.objects.create_user("ann", password=PASSWORD)
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(user)

    response = client.post(EMAIL_URL, {"email": "not an address", "password": PASSWORD})

    assert response.status_code == 400
    assert said in html.unescape(response.content.decode())
