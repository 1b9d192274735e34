"""matches.leagues.presenters.game_changes: a fixture change's games, game by game in
the reader's words, for entries as the log has stored them all along."""

from __future__ import annotations

from django.utils import translation

from matches.leagues.models import Entrant
from matches.leagues.presenters import fixture_author, game_changes


def test_only_the_games_that_changed_are_named_each_before_and_after():
    before = [[52, 61], [52, 61], [61, 47]]
    after = [[61, 24], [52, 61], [61, 47]]

    assert game_changes(before, after) == ["Game 1: 52–61 → 61–24"]


def test_a_game_without_its_score_says_so_in_words_not_question_marks():
    # game 1 was on the scorepad, in play, when the change was logged; then the night
    # was made a walkover and its games taken off
    assert game_changes([[None, None], [None, None], [61, 40]], []) == [
        "Game 3: 61–40 → no score"]
    assert game_changes([[None, None], [61, 47]], [[61, 24], [61, 47]]) == [
        "Game 1: no score → 61–24"]


def test_games_added_or_gone_are_named_and_unchanged_games_say_nothing():
    assert game_changes([[61, 40]], [[61, 40], [12, 61]]) == ["Game 2: no score → 12–61"]
    assert game_changes([[61, 40]], [[61, 40]]) == []
    assert game_changes(None, None) == []


def test_entries_stored_otherwise_read_as_no_games_rather_than_failing():
    # an entry logged before games were kept, or with a malformed game
    assert game_changes("61-40", [[61, 40]]) == ["Game 1: no score → 61–40"]
    assert game_changes([[61], [61, 40]], [[61, 40], [61, 40]]) == [
        "Game 1: no score → 61–40"]


def test_the_words_are_the_readers_language():
    with translation.override("uk"):
        assert game_changes([[None, None]], [[61, 24]]) == ["Гра 1: без рахунку → 61–24"]
    with translation.override("ru"):
        assert game_changes([[None, None]], [[61, 24]]) == ["Игра 1: без счёта → 61–24"]


def test_who_changed_a_fixture_is_named_by_account_to_members_and_by_role_to_others():
    home, away = Entrant(name="Royal Oak A", captain_id=1), Entrant(name="Bowes", captain_id=2)

    def author(user_id: int | None, *, shown: bool, link: str | None = None) -> str:
        return fixture_author(user_id=user_id, username=f"user{user_id}", by_link=link,
                              home=home, away=away, accounts_shown=shown)

    assert [author(n, shown=True) for n in (1, 2, 3)] == ["user1", "user2", "user3"]
    assert [author(n, shown=False) for n in (1, 2, 3)] == [
        "Royal Oak A's captain", "Bowes's captain", "a league admin"]
    assert author(None, shown=True) == author(None, shown=False) == "—"
    assert author(None, shown=False, link="Bowes") == "captain's link of Bowes"
    assert author(None, shown=True, link="Bowes") == "captain's link of Bowes"
    with translation.override("uk"):
        assert author(3, shown=False) != "a league admin"

