"""A season's rules in words for its page: how a fixture earns league points and how
entrants level on points are told apart, read from the season's ``scoring`` and
``tiebreaks`` (``domino-league/1``'s keys), so that anyone can check the table by hand;
and who changed a fixture, in words its reader may see."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from matches.leagues.models import Entrant
from matches.rules import league as league_rules

# a tie-breaker's name, as the new-season form offers it and the page says it
TIEBREAK_NAMES = {
    "wins": gettext_lazy("fixtures won"), "game_difference": gettext_lazy("game difference"),
    "games_for": gettext_lazy("games won"), "score_difference": gettext_lazy("score difference"),
    "score_for": gettext_lazy("score for"), "head_to_head": gettext_lazy("head to head"),
    "head_to_head_games": gettext_lazy("head-to-head games"),
}


@dataclass(frozen=True)
class SchemeWords:
    points: str  # "Win 2 points, draw 1, loss 0; …; a walkover counts 1–0 in games."
    tiebreaks: str  # "Level on points: game difference, then games won."


def scheme_words(scoring: Mapping[str, Any], tiebreaks: Sequence[str]) -> SchemeWords:
    return SchemeWords(points_words(scoring), tiebreak_words(tiebreaks))


def points_words(scoring: Mapping[str, Any]) -> str:
    """The scheme as stored (every key optional: the format's defaults fill in); a bonus
    that can never be earned (no points, or a loss by 0 games or fewer) is left out."""
    defaults = league_rules.Scoring()
    win = scoring.get("win", defaults.win)
    draw = scoring.get("draw", defaults.draw)
    loss = scoring.get("loss", defaults.loss)
    per_game = scoring.get("per_game", defaults.per_game)
    parts = [ngettext("Win %(win)s point, draw %(draw)s, loss %(loss)s",
                      "Win %(win)s points, draw %(draw)s, loss %(loss)s", win)
             % {"win": win, "draw": draw, "loss": loss}]
    if per_game:
        parts.append(ngettext("%(points)s point per game won", "%(points)s points per game won",
                              per_game) % {"points": per_game})
    close = scoring.get("close_loss")
    if close and close.get("points") and close.get("margin"):
        games = ngettext("%(games)s game or fewer", "%(games)s games or fewer",
                         close["margin"]) % {"games": close["margin"]}
        parts.append(ngettext("%(points)s bonus point for a loss by %(games)s",
                              "%(points)s bonus points for a loss by %(games)s",
                              close["points"]) % {"points": close["points"], "games": games})
    heavy = scoring.get("heavy_win")
    if heavy and heavy.get("points"):
        games = ngettext("%(games)s game or more", "%(games)s games or more",
                         heavy["margin"]) % {"games": heavy["margin"]}
        parts.append(ngettext("%(points)s bonus point for a win by %(games)s",
                              "%(points)s bonus points for a win by %(games)s",
                              heavy["points"]) % {"points": heavy["points"], "games": games})
    won, lost = scoring.get("walkover", defaults.walkover)
    parts.append(_("a walkover counts %(won)s–%(lost)s in games") % {"won": won, "lost": lost})
    return "; ".join(parts) + "."


def tiebreak_words(tiebreaks: Sequence[str]) -> str:
    names = [str(TIEBREAK_NAMES[name]) for name in tiebreaks if name in TIEBREAK_NAMES]
    if not names:  # the table shares a rank (1, 2=, 2=): the league decides such a tie
        return _("Entrants level on points share a place.")
    order = ", ".join([names[0], *(_("then %(tiebreak)s") % {"tiebreak": name}
                                   for name in names[1:])])
    return _("Level on points: %(order)s.") % {"order": order}


def game_changes(before: object, after: object) -> list[str]:
    """What a fixture change did to its games, game by game, in the reader's language:
    "Game 1: 52–61 → 61–24". ``before`` and ``after`` are the games as its log keeps
    them (``[[home, away], …]`` by number, home first; [None, None] for a game without
    its score, as a game on the scorepad has until its night is sent); anything else
    (an entry logged before games were kept) reads as no games. Games that did not
    change are not named."""
    was, now = _logged_scores(before), _logged_scores(after)
    lines = []
    for number in range(1, max(len(was), len(now)) + 1):
        old = was[number - 1] if number <= len(was) else None
        new = now[number - 1] if number <= len(now) else None
        if old != new:
            lines.append(_("Game %(number)s: %(before)s → %(after)s") % {
                "number": number, "before": _score_words(old), "after": _score_words(new)})
    return lines


def _logged_scores(games: object) -> list[tuple[int, int] | None]:
    if not isinstance(games, list):
        return []
    scores: list[tuple[int, int] | None] = []
    for game in games:
        pair = game if isinstance(game, list | tuple) and len(game) == 2 else (None, None)
        home, away = pair
        scores.append((home, away) if isinstance(home, int) and isinstance(away, int)
                      else None)
    return scores


def _score_words(score: tuple[int, int] | None) -> str:
    if score is None:
        return pgettext("a fixture game", "no score")
    return f"{score[0]}–{score[1]}"


def fixture_author(*, user_id: int | None, username: str, by_link: str | None,
                   home: Entrant, away: Entrant, accounts_shown: bool) -> str:
    """Who made a change of a fixture, for its log: the captain's link of an entrant; an
    account by its name to the club's members (``accounts_shown``), else by what it was
    to the fixture (a side's captain, or the league's admin), since a club's pages do
    not tell outsiders which accounts exist; "—" for an account no longer there."""
    if by_link is not None:
        return _("captain's link of %(entrant)s") % {"entrant": by_link}
    if user_id is None:
        return "—"
    if accounts_shown:
        return username
    for side in (home, away):
        if user_id == side.captain_id:
            return _("%(entrant)s's captain") % {"entrant": side.name}
    return _("a league admin")

