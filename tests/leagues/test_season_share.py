"""The season page's Share button shares the page as shown: with two divisions, the
division on screen."""

from __future__ import annotations

import datetime
import re
from html import unescape

import pytest
from django.test import Client

from matches.clubs.services import club_create
from matches.leagues.services import season_create

pytestmark = pytest.mark.django_db


def shared(client: Client, url: str) -> tuple[str, str]:
    page = client.get(url).content.decode()
    button = re.search(r'<button[^>]*id="season-share"[^>]*>', page)
    assert button is not None, "the season page has no Share button"
    found = dict(re.findall(r'(data-share-(?:url|title))="([^"]*)"', button.group(0)))
    return unescape(found["data-share-url"]), unescape(found["data-share-title"])


def test_the_share_button_names_the_division_shown(django_user_model):
    admin = django_user_model.objects.create_user("admin")
    club = club_create(name="Teesdale", by=admin)
    one = season_create(club=club, by=admin, name="Monday League", game="all-fives",
                        starts_on=datetime.date(2026, 9, 7))
    two = season_create(club=club, by=admin, name="Thursday League", game="all-fives",
                        starts_on=datetime.date(2026, 9, 10), divisions=["North", "South"])
    client = Client()
    assert shared(client, one.get_absolute_url()) == (
        one.get_absolute_url(), "Monday League · Teesdale")
    south = two.divisions.get(name="South")
    assert shared(client, f"{two.get_absolute_url()}?division={south.pk}") == (
        f"{two.get_absolute_url()}?division={south.pk}", "Thursday League — South · Teesdale")
    north = two.divisions.get(name="North")
    assert shared(client, two.get_absolute_url()) == (
        f"{two.get_absolute_url()}?division={north.pk}", "Thursday League — North · Teesdale")
