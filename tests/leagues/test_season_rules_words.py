"""The season page says its points scheme and tie-breakers in words, as the season
stores them: only the parts the scheme has, the format's defaults where it names none,
with plural forms in every language."""

from __future__ import annotations

import datetime
import re
from html import unescape
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from matches.clubs.services import club_create
from matches.leagues.services import season_create
from matches.models import Season

pytestmark = pytest.mark.django_db

SPEC_SCORING = {"win": 2, "draw": 1, "loss": 0, "per_game": 1,
                "close_loss": {"margin": 1, "points": 1},
                "heavy_win": {"margin": 6, "points": 1}, "walkover": [5, 4]}


@pytest.fixture
def admin(django_user_model):
    return django_user_model.objects.create_user("admin", password="pw")


def season_with(admin, scoring: dict[str, Any] | None,
                tiebreaks: list[str] | None = None) -> Season:
    club = club_create(name="Teesdale", by=admin)
    return season_create(club=club, by=admin, name="Monday League",
                         starts_on=datetime.date(2026, 9, 7), game="fives-and-threes",
                         fixture_format="games", singles=9, scoring=scoring,
                         tiebreaks=tiebreaks)


def scheme(season: Season, user, language: str = "en") -> list[str]:
    """The scheme's paragraphs as the page shows them, in ``language``."""
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(season.get_absolute_url()).content.decode()
    block = re.search(r'<div class="scheme" id="scheme">(.*?)</div>', page, re.S)
    assert block is not None, "the season page states no scheme"
    return [unescape(p) for p in re.findall(r"<p>(.*?)</p>", block.group(1), re.S)]


def test_the_specs_scheme_is_said_in_full(admin):
    season = season_with(admin, SPEC_SCORING,
                         ["game_difference", "games_for", "head_to_head"])
    assert scheme(season, admin) == [
        "Win 2 points, draw 1, loss 0; 1 point per game won; 1 bonus point for a loss by "
        "1 game or fewer; 1 bonus point for a win by 6 games or more; a walkover counts "
        "5–4 in games.",
        "Level on points: game difference, then games won, then head to head."]


def test_a_season_naming_nothing_is_said_with_the_formats_defaults(admin):
    season = season_with(admin, None)
    assert scheme(season, admin) == [
        "Win 2 points, draw 1, loss 0; a walkover counts 1–0 in games.",
        "Level on points: game difference, then games won."]


def test_only_the_parts_a_scheme_has_are_said_and_in_the_plural_they_take(admin):
    season = season_with(admin, {"win": 1, "draw": 0, "loss": 0, "per_game": 2,
                                 "close_loss": {"margin": 2, "points": 0},  # earns nothing
                                 "heavy_win": {"margin": 1, "points": 3},
                                 "walkover": [6, 0]},
                         ["wins", "head_to_head_games", "score_difference"])
    assert scheme(season, admin) == [
        "Win 1 point, draw 0, loss 0; 2 points per game won; 3 bonus points for a win by "
        "1 game or more; a walkover counts 6–0 in games.",
        "Level on points: fixtures won, then head-to-head games, then score difference."]


def test_a_close_loss_by_more_games_and_one_tie_breaker(admin):
    season = season_with(admin, {"close_loss": {"margin": 3, "points": 2}}, ["score_for"])
    assert scheme(season, admin) == [
        "Win 2 points, draw 1, loss 0; 2 bonus points for a loss by 3 games or fewer; "
        "a walkover counts 1–0 in games.",
        "Level on points: score for."]


def test_no_tie_breakers_says_level_entrants_share_a_place(admin):
    season = season_with(admin, {}, [])
    assert scheme(season, admin)[1] == "Entrants level on points share a place."


@pytest.mark.parametrize(("language", "words"), [
    ("uk", ["Перемога — 2 очки, нічия — 1, поразка — 0; 1 очко за кожну виграну гру; "
            "1 бонусне очко за поразку з різницею в 1 гру або менше; 1 бонусне очко за "
            "перемогу з різницею в 6 ігор або більше; технічна перемога зараховується як "
            "5–4 в іграх.",
            "За рівності очок: різниця ігор, потім виграні ігри, потім особисті зустрічі."]),
    ("ru", ["Победа — 2 очка, ничья — 1, поражение — 0; 1 очко за каждую выигранную игру; "
            "1 бонусное очко за поражение с разницей в 1 игру или меньше; 1 бонусное очко "
            "за победу с разницей в 6 игр или больше; техническая победа засчитывается как "
            "5–4 по играм.",
            "При равенстве очков: разница игр, затем выигранные игры, затем личные встречи."]),
])
def test_the_scheme_is_said_in_each_language_with_its_plurals(admin, language, words):
    season = season_with(admin, SPEC_SCORING,
                         ["game_difference", "games_for", "head_to_head"])
    assert scheme(season, admin, language) == words
