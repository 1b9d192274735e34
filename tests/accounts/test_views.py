"""matches.accounts.views (sign up), Django's auth views with our templates, the
header's account area, and the e-mail settings behind password reset."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import Client, RequestFactory
from django.urls import reverse

from matches.accounts.services import account_create
from matches.models import Match
from tests.scorekeeper.test_settings import run_python
from tests.support.helpers import drawn_key, two_player_all_fives

pytestmark = pytest.mark.django_db

PASSWORD = "domino-table-42"
NEW_PASSWORD = "double-six-spinner-7"
SIGNUP_URL = "/accounts/signup/"
LOGIN_URL = "/accounts/login/"
LOGOUT_URL = "/accounts/logout/"


@pytest.fixture
def olena(django_user_model) -> User:
    return django_user_model.objects.create_user("olena", email="olena@example.com",
                                                 password=PASSWORD)


@pytest.fixture
def signed_in(client: Client, olena: User) -> Client:
    client.force_login(olena)
    return client


def signup_form(**fields: str) -> dict[str, str]:
    return {"username": "taras", "email": "", "password1": PASSWORD, "password2": PASSWORD,
            **fields}


def signed_in_user(client: Client) -> str | None:
    """The id of the user the client's session holds, if any."""
    return client.session.get(SESSION_KEY)


def field_errors(html: str, field: str) -> str:
    """The error list Django renders next to the field with id ``id_<field>``."""
    found = re.search(rf'<ul class="errorlist" id="id_{field}_error">(.*?)</ul>', html, re.S)
    return found.group(1) if found else ""


# -- URLs ------------------------------------------------------------------------------


def test_account_urls():
    assert reverse("signup") == SIGNUP_URL
    assert reverse("login") == LOGIN_URL
    assert reverse("logout") == LOGOUT_URL
    assert reverse("password_change") == "/accounts/password_change/"
    assert reverse("password_change_done") == "/accounts/password_change/done/"
    assert reverse("password_reset") == "/accounts/password_reset/"
    assert reverse("password_reset_done") == "/accounts/password_reset/done/"
    assert reverse("password_reset_confirm", args=["MQ", "set-password"]) == \
        "/accounts/reset/MQ/set-password/"
    assert reverse("password_reset_complete") == "/accounts/reset/done/"


# -- signing up ------------------------------------------------------------------------


def test_signup_creates_the_user_signs_it_in_and_goes_home(client):
    response = client.post(SIGNUP_URL, signup_form(email="taras@example.com"))

    user = User.objects.get(username="taras")
    assert user.email == "taras@example.com"
    assert user.check_password(PASSWORD)
    assert response.status_code == 302
    assert response["Location"] == reverse("matches:home")
    assert signed_in_user(client) == str(user.pk)


def test_after_signup_the_next_request_is_still_signed_in(client):
    # the session names the backend that signed the user in; one that is not in
    # AUTHENTICATION_BACKENDS (Django's ModelBackend) makes the next request anonymous
    client.post(SIGNUP_URL, signup_form())

    response = client.get(reverse("matches:home"))

    assert response.wsgi_request.user.is_authenticated
    assert response.wsgi_request.user.get_username() == "taras"
    # the name links to the account's page
    assert (f'<a class="account-name" href="{reverse("notice_settings")}" '
            f'aria-label="Your account, taras: e-mail settings">taras</a>') \
        in response.content.decode()


def test_signup_from_a_page_that_needs_an_account_lands_on_it_signed_in(client):
    response = client.post(f"{SIGNUP_URL}?next=/import/", signup_form(next="/import/"),
                           follow=True)

    assert response.redirect_chain == [("/import/", 302)]
    assert response.status_code == 200
    assert response.wsgi_request.user.get_username() == "taras"


def test_signup_needs_no_email_address(client):
    client.post(SIGNUP_URL, signup_form())

    assert User.objects.get(username="taras").email == ""


def test_signup_goes_back_to_a_page_of_this_site(client):
    response = client.post(f"{SIGNUP_URL}?next=/new/", signup_form(next="/new/"))

    assert response.status_code == 302
    assert response["Location"] == "/new/"


@pytest.mark.parametrize("unsafe", ["https://evil.example/", "//evil.example/",
                                    "javascript:alert(1)"])
def test_signup_ignores_a_next_page_elsewhere(client, unsafe):
    response = client.post(SIGNUP_URL, signup_form(next=unsafe))

    assert response.status_code == 302
    assert response["Location"] == reverse("matches:home")
    assert User.objects.filter(username="taras").exists()


def test_signup_page_keeps_a_safe_next_page_and_drops_an_unsafe_one(client):
    safe = client.get(SIGNUP_URL, {"next": "/new/"}).content.decode()
    unsafe = client.get(SIGNUP_URL, {"next": "https://evil.example/"}).content.decode()

    assert '<input type="hidden" name="next" value="/new/">' in safe
    assert '<input type="hidden" name="next" value="">' in unsafe
    assert "evil.example" not in unsafe


def test_signup_with_different_passwords_says_so_and_creates_nothing(client):
    response = client.post(SIGNUP_URL, signup_form(password2="something-else-99"))

    assert response.status_code == 200
    assert "didn’t match" in field_errors(response.content.decode(), "password2")
    assert not User.objects.exists()
    assert signed_in_user(client) is None


@pytest.mark.parametrize("taken", ["olena", "Olena"])
def test_signup_with_a_taken_username_says_so_and_creates_nothing(client, olena, taken):
    response = client.post(SIGNUP_URL, signup_form(username=taken))

    assert response.status_code == 200
    assert "already exists" in field_errors(response.content.decode(), "username")
    assert User.objects.count() == 1
    assert signed_in_user(client) is None


def test_signup_refuses_a_weak_password(client):
    response = client.post(SIGNUP_URL, signup_form(password1="12345678", password2="12345678"))

    assert "too common" in field_errors(response.content.decode(), "password2")
    assert not User.objects.exists()


def test_signup_answers_only_get_and_post(client):
    assert client.put(SIGNUP_URL).status_code == 405


# -- the service -----------------------------------------------------------------------
# (here rather than in a module of its own while accounts have one service)


def test_account_create_stores_a_hashed_password():
    user = account_create(username="iryna", password=PASSWORD, email="iryna@example.com")

    user.refresh_from_db()
    assert user.password != PASSWORD
    assert user.check_password(PASSWORD)
    assert (user.is_active, user.is_staff, user.is_superuser) == (True, False, False)


def test_account_create_refuses_a_weak_password_by_its_argument_name():
    with pytest.raises(ValidationError) as caught:
        account_create(username="iryna", password="iryna")

    assert set(caught.value.message_dict) == {"password"}
    assert not User.objects.exists()


def test_account_create_refuses_a_taken_username_and_a_bad_email(olena):
    with pytest.raises(ValidationError) as caught:
        account_create(username="olena", password=PASSWORD, email="not-an-address")

    assert set(caught.value.message_dict) == {"username", "email"}
    assert User.objects.count() == 1


# -- signing in and out ----------------------------------------------------------------


def test_login_signs_in_and_goes_to_the_next_page(client, olena):
    response = client.post(LOGIN_URL, {"username": "olena", "password": PASSWORD,
                                       "next": "/import/"})

    assert response.status_code == 302
    assert response["Location"] == "/import/"
    assert signed_in_user(client) == str(olena.pk)


def test_login_without_next_goes_home(client, olena):
    response = client.post(LOGIN_URL, {"username": "olena", "password": PASSWORD})

    assert response["Location"] == "/"


def test_login_ignores_a_next_page_elsewhere(client, olena):
    response = client.post(LOGIN_URL, {"username": "olena", "password": PASSWORD,
                                       "next": "https://evil.example/"})

    assert response["Location"] == "/"


def test_login_with_a_wrong_password_shows_an_alert(client, olena):
    response = client.post(LOGIN_URL, {"username": "olena", "password": "wrong"})

    html = response.content.decode()
    assert response.status_code == 200
    # at the top, with the focus (not on the username, where Django's form puts it)
    assert re.search(r'<div class="error-box error-summary" id="error-summary" tabindex="-1" '
                     r'autofocus>\s*<div role="alert">\s*<h2>There is a problem</h2>\s*'
                     r'<ul><li>Please enter a correct username', html)
    assert html.count(" autofocus") == 1
    assert signed_in_user(client) is None


def test_a_refused_sign_up_lists_its_reasons_at_the_top_each_a_link_to_its_field(client,
                                                                                olena):
    response = client.post(SIGNUP_URL, signup_form(username="olena", password2="other"))

    html = response.content.decode()
    summary = re.search(r'id="error-summary" tabindex="-1" autofocus>(.*?)</ul>', html, re.S)
    assert summary is not None and html.count(" autofocus") == 1
    links = re.findall(r'<a href="#(id_\w+)">([^<]*):', summary[1])
    assert links == [("id_username", "Username"), ("id_password2", "Password confirmation")]
    for field, _ in links:
        assert field_errors(html, field.removeprefix("id_"))


def test_login_page_carries_next_to_the_form_and_the_signup_link(client):
    html = client.get(LOGIN_URL, {"next": "/new/"}).content.decode()

    assert '<input type="hidden" name="next" value="/new/">' in html
    assert f'href="{SIGNUP_URL}?next=/new/"' in html


def test_pages_that_need_an_account_send_to_our_login_page(client):
    response = client.get(reverse("password_change"))

    assert response.status_code == 302
    assert response["Location"] == f"{LOGIN_URL}?next=/accounts/password_change/"


def test_logout_by_post_signs_out_and_goes_home(signed_in):
    response = signed_in.post(LOGOUT_URL)

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert signed_in_user(signed_in) is None


def test_logout_by_get_is_refused_and_keeps_the_user_signed_in(signed_in, olena):
    response = signed_in.get(LOGOUT_URL)

    assert response.status_code == 405
    assert signed_in_user(signed_in) == str(olena.pk)


# -- changing the password -------------------------------------------------------------


def test_password_change_sets_the_new_password_and_keeps_the_user_signed_in(signed_in, olena):
    response = signed_in.post(reverse("password_change"), {
        "old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    assert response.status_code == 302
    assert response["Location"] == reverse("password_change_done")
    olena.refresh_from_db()
    assert olena.check_password(NEW_PASSWORD)
    assert signed_in_user(signed_in) == str(olena.pk)
    assert "<h1>Password changed</h1>" in signed_in.get(response["Location"]).content.decode()


def test_password_change_with_a_wrong_old_password_says_so(signed_in, olena):
    response = signed_in.post(reverse("password_change"), {
        "old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    assert response.status_code == 200
    assert "incorrectly" in field_errors(response.content.decode(), "old_password")
    olena.refresh_from_db()
    assert olena.check_password(PASSWORD)


# -- resetting a forgotten password ----------------------------------------------------


def test_password_reset_mails_a_link_that_sets_a_new_password(client, olena, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": "olena@example.com"})
    assert response["Location"] == reverse("password_reset_done")

    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["olena@example.com"]
    assert mail.subject == "Reset your Scorekeeper password"
    assert "olena" in mail.body
    link = re.search(r"http://testserver(/accounts/reset/[^/\s]+/[^/\s]+/)", mail.body)
    assert link is not None

    # Django swaps the token in the address for one in the session
    form_page = client.get(link.group(1), follow=True)
    assert b"<h1>Choose a new password</h1>" in form_page.content
    done = client.post(form_page.redirect_chain[-1][0], {
        "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done["Location"] == reverse("password_reset_complete")

    # django-axes checks every authenticate() against its lockouts: it needs a request
    request = RequestFactory().post(LOGIN_URL)
    assert Client().login(request=request, username="olena", password=NEW_PASSWORD)
    assert not Client().login(request=request, username="olena", password=PASSWORD)
    # the link works once
    assert b"This link no longer works" in client.get(link.group(1), follow=True).content


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(
        client, olena, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})

    assert response["Location"] == reverse("password_reset_done")
    assert mailoutbox == []


# -- the pages -------------------------------------------------------------------------

PAGES = ["signup", "login", "password_reset", "password_reset_done",
         "password_reset_complete", "password_change", "password_change_done"]


@pytest.mark.parametrize("name", PAGES)
def test_account_pages_have_one_h1_and_every_control_labelled(signed_in, client, name):
    if name in {"signup", "login", "password_reset"}:
        client.logout()

    html = client.get(reverse(name)).content.decode()

    assert html.count("<h1") == 1
    main = html.split('<main class="site-main">', 1)[1]
    for control in re.findall(r"<(?:input|select|textarea)\b[^>]*>", main):
        if 'type="hidden"' in control:
            continue
        control_id = re.search(r'id="([^"]+)"', control)
        assert control_id is not None, control
        assert f'<label for="{control_id.group(1)}"' in main, control


def test_an_invalid_reset_link_says_so_with_one_h1(client):
    response = client.get(reverse("password_reset_confirm", args=["MQ", "no-such-token"]))

    html = response.content.decode()
    assert html.count("<h1") == 1
    assert "<h1>This link no longer works</h1>" in html
    assert f'href="{reverse("password_reset")}"' in html


# -- the header ------------------------------------------------------------------------


def test_header_signed_out_offers_sign_in_and_sign_up_back_to_this_page(client):
    html = client.get("/new/").content.decode()

    assert f'<a href="{LOGIN_URL}?next=/new/">Sign in</a>' in html
    assert f'<a href="{SIGNUP_URL}?next=/new/">Sign up</a>' in html
    assert "Sign out" not in html


def test_header_signed_in_shows_the_user_password_and_a_post_sign_out(signed_in):
    html = signed_in.get("/new/").content.decode()

    # the name links to the account's page
    assert (f'<a class="account-name" href="{reverse("notice_settings")}" '
            f'aria-label="Your account, olena: e-mail settings">olena</a>') in html
    assert f'<a href="{reverse("password_change")}">Password</a>' in html
    assert re.search(rf'<form method="post" action="{LOGOUT_URL}">'
                     r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]+">'
                     r'<button type="submit">Sign out</button></form>', html)
    assert "Sign in" not in html and "Sign up" not in html


def test_header_on_a_scorers_link_keeps_its_secret_out_of_the_sign_in_link(client):
    match = two_player_all_fives()

    html = client.get(match.get_join_url()).content.decode()

    assert f'<a href="{LOGIN_URL}">Sign in</a>' in html
    # no address in the header holds it (an address is logged); the language switch
    # posts the page's own address as its way back, in a form's body
    header = html.split('<main class="site-main">', 1)[0]
    assert header.count(match.scorer_token) == 1
    assert f'<input type="hidden" name="next" value="{match.get_join_url()}">' in header


# -- no account needed -----------------------------------------------------------------


def test_a_casual_match_starts_without_an_account(client):
    response = client.post(reverse("matches:new"), {"creation_key": drawn_key(client),
        "game": "all-fives", "player_0": "Olena", "player_1": "Taras", "player_2": "",
        "starter": "0", "mode": "tracked"})

    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == match.get_scorer_url()
    assert match.created_by is None
    assert not User.objects.exists()


# -- e-mail settings -------------------------------------------------------------------

EMAIL_SETTINGS = ("from django.conf import settings as s; print(s.EMAIL_BACKEND, s.EMAIL_HOST, "
                  "s.EMAIL_PORT, s.EMAIL_USE_TLS, s.EMAIL_HOST_USER, s.DEFAULT_FROM_EMAIL)")


def test_email_is_printed_to_the_console_without_an_smtp_host():
    result = run_python(EMAIL_SETTINGS)

    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[0] == "scorekeeper.mail.EmailBackend"  # the console
    assert result.stdout.split()[-1] == "webmaster@localhost"


def test_email_goes_by_smtp_with_tls_on_587_when_a_host_is_set():
    result = run_python(EMAIL_SETTINGS, EMAIL_HOST="smtp.example.com",
                        EMAIL_HOST_USER="scores", DEFAULT_FROM_EMAIL="scores@example.com")

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["django.core.mail.backends.smtp.EmailBackend",
                                     "smtp.example.com", "587", "True", "scores",
                                     "scores@example.com"]


def test_email_port_and_tls_come_from_the_environment():
    result = run_python(EMAIL_SETTINGS, EMAIL_HOST="smtp.example.com", EMAIL_PORT="25",
                        EMAIL_USE_TLS="0", EMAIL_HOST_PASSWORD="secret")

    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[2:4] == ["25", "False"]


def test_email_port_must_be_a_number():
    result = run_python(EMAIL_SETTINGS, EMAIL_HOST="smtp.example.com", EMAIL_PORT="smtp")

    assert result.returncode != 0
    assert "EMAIL_PORT='smtp' is not an integer" in result.stderr


def test_the_development_console_prints_a_reset_link_whole(client, olena, settings, capsys):
    # Django's console backend printed the encoded message: a quoted-printable soft
    # break ("=" and a new line) cut the link, and the half copied was refused
    settings.EMAIL_BACKEND = "scorekeeper.mail.EmailBackend"
    client.post(reverse("password_reset"), {"email": "olena@example.com"})

    printed = capsys.readouterr().out
    assert "To: olena@example.com\nSubject: Reset your Scorekeeper password\n" in printed
    link = re.search(r"http://testserver(/accounts/reset/[^/\s]+/[^/\s]+/)\n", printed)
    assert link is not None and "=\n" not in printed
    assert b"<h1>Choose a new password</h1>" in client.get(link.group(1), follow=True).content
