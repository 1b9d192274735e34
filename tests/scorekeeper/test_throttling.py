"""Login throttling (django-axes): our sign-in page and the admin's, locked per username
and address after AXES_FAILURE_LIMIT wrong passwords; a username in any case names one
account (scorekeeper/auth.py), for the sign-in and for its lockout."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeeper import throttle
from scorekeeper.proxy import client_address

pytestmark = pytest.mark.django_db

PASSWORD = "domino-table-42"
WRONG = "not-the-password"
HERE = "203.0.113.7"
ELSEWHERE = "198.51.100.9"
LOCKED_OUT = b"<h1>Too many attempts</h1>"


@pytest.fixture
def olena(django_user_model) -> User:
    return django_user_model.objects.create_user("olena", password=PASSWORD)


@pytest.fixture
def taras(django_user_model) -> User:
    return django_user_model.objects.create_user("taras", password=PASSWORD)


def sign_in(username: str, password: str, address: str = HERE,
            url: str = "/accounts/login/") -> tuple[Client, int, bytes]:
    """POST the login form from ``address`` in a fresh browser; the client (signed in or
    not), the status and the page."""
    client = Client(REMOTE_ADDR=address)
    response = client.post(url, {"username": username, "password": password})
    return client, response.status_code, response.content


def signed_in(client: Client) -> bool:
    return SESSION_KEY in client.session


def fail(username: str, times: int, address: str = HERE, url: str = "/accounts/login/"):
    for _ in range(times):
        sign_in(username, WRONG, address, url)


def test_the_failure_limit_and_cool_off_are_configured():
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.AXES_RESET_ON_SUCCESS is True
    assert settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"
    assert settings.MIDDLEWARE[-1] == "axes.middleware.AxesMiddleware"


def test_wrong_passwords_below_the_limit_still_allow_the_right_one(olena):
    fail("olena", settings.AXES_FAILURE_LIMIT - 1)

    client, status, _ = sign_in("olena", PASSWORD)

    assert status == 302
    assert signed_in(client)


def test_after_the_limit_the_right_password_is_locked_out(olena):
    fail("olena", settings.AXES_FAILURE_LIMIT)

    client, status, page = sign_in("olena", PASSWORD)

    assert status == 429
    assert not signed_in(client)
    assert page.count(b"<h1") == 1
    assert LOCKED_OUT in page
    assert b"paused for 15 minutes" in page


@pytest.mark.parametrize(("url", "field", "other"), [
    ("/accounts/settings/email/", "password", {"email": "thief@example.com"}),
    ("/accounts/password_change/", "old_password",
     {"new_password1": "a-thief-s-42-pass", "new_password2": "a-thief-s-42-pass"}),
])
def test_a_password_guessed_on_a_signed_in_phone_counts_towards_the_lockout(
        olena, url, field, other):
    """Whoever finds a phone signed in may not guess their way to the account's e-mail
    address or password: each wrong password there is a failed sign-in."""
    phone = Client(REMOTE_ADDR=HERE)
    phone.force_login(olena)
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert phone.post(url, {field: WRONG, **other}).status_code in (200, 400)
    assert phone.post(url, {field: WRONG, **other}).status_code == 429  # the limit's
    right = phone.post(url, {field: PASSWORD, **other})
    assert right.status_code == 429 and LOCKED_OUT in right.content
    olena.refresh_from_db()
    assert olena.email == "" and olena.check_password(PASSWORD)
    _, status, _ = sign_in("olena", PASSWORD)  # the same lockout as the sign-in page's
    assert status == 429


def test_the_right_password_still_changes_the_address_and_the_password(olena):
    phone = Client(REMOTE_ADDR=HERE)
    phone.force_login(olena)
    assert phone.post("/accounts/settings/email/", {
        "password": PASSWORD, "email": "olena@example.com"}).status_code == 302
    assert phone.post("/accounts/password_change/", {
        "old_password": PASSWORD, "new_password1": "tiles-on-the-table-7",
        "new_password2": "tiles-on-the-table-7"})["Location"] == "/accounts/password_change/done/"
    olena.refresh_from_db()
    assert olena.email == "olena@example.com" and olena.check_password("tiles-on-the-table-7")


def test_the_limit_is_per_username_and_address(olena, taras):
    fail("olena", settings.AXES_FAILURE_LIMIT)

    # another account from the same address
    taras_here, status, _ = sign_in("taras", PASSWORD)
    assert status == 302 and signed_in(taras_here)
    # the same account from another address
    olena_elsewhere, status, _ = sign_in("olena", PASSWORD, address=ELSEWHERE)
    assert status == 302 and signed_in(olena_elsewhere)


def test_a_successful_sign_in_resets_the_count(olena):
    fail("olena", settings.AXES_FAILURE_LIMIT - 1)
    sign_in("olena", PASSWORD)

    fail("olena", settings.AXES_FAILURE_LIMIT - 1)
    client, status, _ = sign_in("olena", PASSWORD)

    assert status == 302
    assert signed_in(client)


def test_the_admin_login_is_throttled_too(django_user_model):
    django_user_model.objects.create_superuser("root", password=PASSWORD)
    admin_login = reverse("admin:login")

    fail("root", settings.AXES_FAILURE_LIMIT, url=admin_login)
    client, status, page = sign_in("root", PASSWORD, url=admin_login)

    assert status == 429
    assert LOCKED_OUT in page
    assert not signed_in(client)


def test_failures_on_the_admin_and_the_site_count_together(olena):
    fail("olena", settings.AXES_FAILURE_LIMIT - 1, url=reverse("admin:login"))
    fail("olena", 1)

    _, status, _ = sign_in("olena", PASSWORD)

    assert status == 429


def test_behind_our_proxy_the_address_is_the_one_nginx_appended(rf, settings):
    settings.TRUST_X_FORWARDED_FOR = True
    request = rf.get("/", REMOTE_ADDR="127.0.0.1",
                     HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")  # the client claimed 6.6.6.6

    assert client_address(request) == "203.0.113.7"


def test_without_a_proxy_a_claimed_address_is_ignored(rf, settings):
    settings.TRUST_X_FORWARDED_FOR = False
    request = rf.get("/", REMOTE_ADDR="198.51.100.2", HTTP_X_FORWARDED_FOR="6.6.6.6")

    assert client_address(request) == "198.51.100.2"


def test_a_password_reset_by_email_ends_the_lockout(olena, mailoutbox):
    olena.email = "olena@example.com"
    olena.save()
    fail("olena", settings.AXES_FAILURE_LIMIT)
    assert sign_in("olena", PASSWORD)[1] == 429  # locked out, even with the password
    browser = Client(REMOTE_ADDR=HERE)
    browser.post(reverse("password_reset"), {"email": "olena@example.com"})
    link = re.search(r"http://testserver(/accounts/reset/[^/\s]+/[^/\s]+/)",
                     mailoutbox[0].body)
    assert link is not None
    form_page = browser.get(link.group(1), follow=True)  # the token moves to the session
    done = browser.post(form_page.redirect_chain[-1][0], {
        "new_password1": "a-new-table-77", "new_password2": "a-new-table-77"})
    assert done["Location"] == reverse("password_reset_complete")

    client, status, _ = sign_in("olena", "a-new-table-77")

    assert status == 302 and signed_in(client)


def test_a_reset_link_asked_for_and_opened_leaves_the_lockout_until_it_is_used(olena,
                                                                             mailoutbox):
    olena.email = "olena@example.com"
    olena.save()
    fail("olena", settings.AXES_FAILURE_LIMIT)
    browser = Client(REMOTE_ADDR=ELSEWHERE)
    browser.post(reverse("password_reset"), {"email": "olena@example.com"})
    link = re.search(r"http://testserver(/accounts/reset/[^/\s]+/[^/\s]+/)",
                     mailoutbox[0].body)
    assert link is not None

    browser.get(link.group(1), follow=True)

    assert sign_in("olena", PASSWORD)[1] == 429  # anyone may ask for the mail


def test_a_sign_up_under_a_name_locked_out_from_here_makes_the_account_signed_out():
    # wrong passwords for a name not yet taken lock it out from this address too;
    # signed in past the lockout, sign-up would be a way around it
    fail("newbie", settings.AXES_FAILURE_LIMIT)

    client = Client(REMOTE_ADDR=HERE)
    response = client.post(reverse("signup"), {
        "username": "newbie", "email": "", "password1": PASSWORD, "password2": PASSWORD,
        "next": "/clubs/"})

    # the account is made, and the lockout's own page says to wait (django-axes turns
    # the refused sign-in into it)
    assert User.objects.filter(username="newbie").exists()
    assert response.status_code == 429 and LOCKED_OUT in response.content
    assert not signed_in(client)
    assert not signed_in_after(client)


def signed_in_after(client: Client) -> bool:
    """Whether the next request of ``client`` is a signed-in user's."""
    return bool(client.get("/").wsgi_request.user.is_authenticated)


def test_a_username_signs_in_in_any_case_as_sign_up_compares_it(olena):
    client, status, _ = sign_in("OLENA", PASSWORD)

    assert status == 302 and signed_in(client)
    assert client.session[SESSION_KEY] == str(olena.pk)


def test_failures_in_other_cases_count_against_the_one_account(olena):
    for typed in ("OLENA", "Olena", "olena", "oLENA", "OLEna"):
        sign_in(typed, WRONG)

    client, status, page = sign_in("olena", PASSWORD)

    assert status == 429 and LOCKED_OUT in page and not signed_in(client)


def test_two_older_accounts_differing_in_case_each_need_their_own_spelling(
        django_user_model):
    lower = django_user_model.objects.create_user("ann", password=PASSWORD)
    upper = django_user_model.objects.create_user("Ann", password=PASSWORD + "!")

    for typed, password, account in (("ann", PASSWORD, lower), ("Ann", PASSWORD + "!", upper)):
        client, status, _ = sign_in(typed, password)
        assert status == 302 and client.session[SESSION_KEY] == str(account.pk)
    client, status, _ = sign_in("ANN", PASSWORD)
    assert status == 200 and not signed_in(client)  # which one is meant is not known


# -- sign-up and password-reset links, per address and per e-mail address --------------
# (scorekeeper/throttle.py)

THIRD = "192.0.2.44"
TOO_MANY = "<h1>Too many attempts</h1>"


@pytest.fixture
def small_limits(settings):
    settings.SIGNUP_LIMIT_PER_ADDRESS = 3
    settings.SIGNUP_LIMIT_PER_EMAIL = 2
    settings.PASSWORD_RESET_LIMIT_PER_ADDRESS = 3
    settings.PASSWORD_RESET_LIMIT_PER_EMAIL = 2
    return settings


def sign_up(username: str, email: str = "", address: str = HERE,
            **fields: str) -> Any:  # the test client's response
    return Client(REMOTE_ADDR=address).post(reverse("signup"), {
        "username": username, "email": email, "password1": PASSWORD,
        "password2": PASSWORD, **fields})


def ask_reset(email: str, address: str = HERE, language: str = "en") -> Any:
    return Client(REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE=language).post(
        reverse("password_reset"), {"email": email})


def test_the_sign_up_and_reset_limits_are_configured():
    assert settings.THROTTLE_WINDOW_MINUTES == 60
    assert (settings.SIGNUP_LIMIT_PER_ADDRESS, settings.SIGNUP_LIMIT_PER_EMAIL) == (20, 3)
    assert (settings.PASSWORD_RESET_LIMIT_PER_ADDRESS,
            settings.PASSWORD_RESET_LIMIT_PER_EMAIL) == (10, 3)
    # shared by every worker process, unlike the default cache in each one's memory
    assert settings.CACHES[throttle.CACHE]["BACKEND"] == \
        "django.core.cache.backends.db.DatabaseCache"


def test_past_the_limit_a_sign_up_from_one_address_gets_the_too_many_page(small_limits):
    for number in range(3):
        assert sign_up(f"user{number}", f"user{number}@example.com").status_code == 302

    response = sign_up("user3", "user3@example.com")

    page = response.content.decode()
    assert response.status_code == 429
    assert page.count("<h1") == 1 and TOO_MANY in page
    assert "Too many accounts have been made from here, or with this e-mail address" in page
    assert re.search(r"Please try again in \d+ minutes?\.", page)
    assert 0 < int(response["Retry-After"]) <= 3600
    assert not User.objects.filter(username="user3").exists()
    assert User.objects.count() == 3


def test_another_address_with_another_email_still_signs_up(small_limits):
    for number in range(3):
        sign_up(f"user{number}", f"user{number}@example.com")
    assert sign_up("user3", "user3@example.com").status_code == 429

    response = sign_up("user4", "user4@example.com", address=ELSEWHERE)

    assert response.status_code == 302
    assert User.objects.filter(username="user4").exists()


def test_the_same_email_from_other_addresses_is_limited_too(small_limits):
    assert sign_up("first", "shared@example.com", HERE).status_code == 302
    assert sign_up("second", "Shared@Example.com ", ELSEWHERE).status_code == 302

    response = sign_up("third", "shared@example.com", THIRD)

    assert response.status_code == 429 and TOO_MANY in response.content.decode()
    assert not User.objects.filter(username="third").exists()
    # the address itself has room: another e-mail address from there signs up
    assert sign_up("fourth", "other@example.com", THIRD).status_code == 302


def test_a_sign_up_refused_for_what_it_says_is_not_counted(small_limits):
    for _ in range(5):
        assert sign_up("taras", password2="something-else-99").status_code == 200

    assert sign_up("taras").status_code == 302


def test_the_sign_up_limit_ends_with_its_window(small_limits, monkeypatch):
    for number in range(3):
        sign_up(f"user{number}")
    assert sign_up("user3").status_code == 429

    later = time.time() + settings.THROTTLE_WINDOW_MINUTES * 60
    monkeypatch.setattr(time, "time", lambda: later)

    assert sign_up("user3").status_code == 302


@pytest.mark.parametrize(("lang", "heading"), [("uk", "Забагато спроб"),
                                               ("ru", "Слишком много попыток")])
def test_the_too_many_page_is_in_the_readers_language(small_limits, lang, heading):
    for number in range(3):
        ask_reset(f"user{number}@example.com")

    response = ask_reset("user3@example.com", language=lang)

    page = response.content.decode()
    assert response.status_code == 429
    assert f"<h1>{heading}</h1>" in page and f'<html lang="{lang}">' in page
    assert "Too many" not in page and "Please try again" not in page


def test_past_the_limit_a_reset_link_from_one_address_is_not_sent(small_limits, mailoutbox,
                                                                  django_user_model):
    for number in range(4):
        django_user_model.objects.create_user(f"user{number}", f"user{number}@example.com",
                                              PASSWORD)
    for number in range(3):
        assert ask_reset(f"user{number}@example.com").status_code == 302

    response = ask_reset("user3@example.com")

    page = response.content.decode()
    assert response.status_code == 429
    assert page.count("<h1") == 1 and TOO_MANY in page
    assert "Too many password reset links have been asked for from here" in page
    assert "No link was sent this time." in page
    assert len(mailoutbox) == 3
    # from another address, another e-mail address still gets its link
    assert ask_reset("user3@example.com", ELSEWHERE).status_code == 302
    assert len(mailoutbox) == 4 and mailoutbox[-1].to == ["user3@example.com"]


def test_the_reset_links_for_one_email_are_limited_from_every_address(small_limits,
                                                                      mailoutbox, olena):
    olena.email = "olena@example.com"
    olena.save()
    assert ask_reset("olena@example.com", HERE).status_code == 302
    assert ask_reset("OLENA@example.com", ELSEWHERE).status_code == 302

    response = ask_reset("olena@example.com", THIRD)

    assert response.status_code == 429 and TOO_MANY in response.content.decode()
    assert len(mailoutbox) == 2


def test_reset_links_for_an_unknown_email_count_the_same(small_limits, mailoutbox):
    # else the limit would tell which addresses have an account
    for address in (HERE, ELSEWHERE):
        assert ask_reset("nobody@example.com", address).status_code == 302

    assert ask_reset("nobody@example.com", THIRD).status_code == 429
    assert mailoutbox == []
