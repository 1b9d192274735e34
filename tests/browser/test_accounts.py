"""Signing up on a phone at 360×740 from a club's invite link: the new account is signed
in, goes back to the invite, joins, and is still a member when the page loads again."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect

from matches.clubs.services import club_create, club_invite
from matches.models import Membership, Role, Visibility

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long pass phrase"


def test_a_newcomer_signs_up_from_an_invite_link_and_lands_in_the_club(live_server,
                                                                       page: Page):
    owner = User.objects.create_user("sec", password=PASSWORD)
    # members only: a page that says nothing to anyone else (404) shows this is a member
    club = club_create(name="Teesdale", by=owner, visibility=Visibility.MEMBERS)
    token = club_invite(club=club, by=owner, role=Role.MEMBER)
    invite = reverse("matches:club_join", kwargs={"slug": club.slug, "token": token})

    page.goto(live_server.url + invite)  # signed out: the sign-in page, then sign-up
    expect(page.locator("h1")).to_have_text("Sign in")
    page.locator("main").get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("newbie")
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()

    # back on the invite, signed in as the new account
    expect(page).to_have_url(live_server.url + invite)
    expect(page.locator(".account-name")).to_have_text("newbie")
    page.get_by_role("button", name="Join Teesdale").click()
    expect(page).to_have_url(live_server.url + club.get_absolute_url())

    page.reload()  # the next page load: the same session, still signed in, a member
    expect(page.locator("h1")).to_have_text("Teesdale")
    expect(page.locator(".club .muted").first).to_contain_text("you are member")
    expect(page.locator("#members")).to_contain_text("newbie")
    assert Membership.objects.get(club=club, user__username="newbie").role == Role.MEMBER


@pytest.mark.parametrize("url_name", ["signup", "login", "password_reset"])
def test_an_account_form_sent_empty_is_answered_by_the_app_in_the_pages_language(
        live_server, page: Page, url_name):
    """Not by the browser's own pop-up, which speaks the browser's language: the form
    goes to the server, whose summary names the fields in the page's (Ukrainian here)."""
    page.context.add_cookies([{"name": "django_language", "value": "uk",
                               "url": live_server.url}])
    page.goto(live_server.url + reverse(url_name))
    page.locator("main form.account-form button[type=submit]").click()
    expect(page.locator("main form.account-form [role=alert]").first).to_contain_text(
        "Це поле обов")
