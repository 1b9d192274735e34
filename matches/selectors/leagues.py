"""Reads for leagues: a division as a ``domino-league/1`` document, and its table.

One standings service: the league page, the exports and ``league_table`` all read the
table that ``matches.rules.league`` computes from such a document. A fixed number of
queries whatever the number of fixtures.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet

from matches.models import (
    Adjustment,
    Division,
    Entrant,
    Fixture,
    FixtureGame,
    FixtureStatus,
    Match,
    MatchStatus,
    Season,
)
from matches.rules import league as league_rules


def season_divisions(season: Season) -> QuerySet[Division]:
    """The season's divisions with everything their tables and fixture lists read."""
    return season.divisions.prefetch_related(
        Prefetch("entrants", queryset=Entrant.objects.prefetch_related(
            "players", Prefetch("adjustments", queryset=Adjustment.objects.order_by("made_at")))
            .select_related("captain")),
        Prefetch("fixtures", queryset=Fixture.objects.select_related("home", "away")
                 .order_by("week", "date", "id")),
    ).order_by("order", "id")


def game_scores(division: Division) -> dict[int, list[list[int]]]:
    """Each fixture's keyed or kept game scores, ``[home, away]`` in game order: one
    query of plain values (a division can hold thousands of games)."""
    scores: dict[int, list[list[int]]] = {}
    for fixture_id, home, away in (
            FixtureGame.objects.filter(fixture__division=division, home_score__isnull=False,
                                       away_score__isnull=False)
            .order_by("fixture_id", "number")
            .values_list("fixture_id", "home_score", "away_score")):
        if home is not None and away is not None:  # (the filter says so; for the types)
            scores.setdefault(fixture_id, []).append([home, away])
    return scores


def fixture_game_score(game: FixtureGame) -> tuple[int, int] | None:
    """A fixture game's final score, home first: keyed in, or its scorepad match's once
    that is finished (an abandoned one has none: it is no result), as the league rules
    count a match's sides (:func:`~matches.rules.league.game_score`)."""
    if game.match is not None:
        if game.match.status != MatchStatus.FINISHED:
            return None
        # home in the even seats (fixture_game_start): the sides in seat order
        sides = sorted((side.index, int(side.score)) for side in game.match.sides.all())
        return league_rules.game_score([score for _, score in sides])
    if game.home_score is None or game.away_score is None:
        return None
    return game.home_score, game.away_score


def signed_fixture(match: Match) -> Fixture | None:
    """The fixture whose result already holds this game's score (submitted, disputed or
    confirmed: the score was kept on the fixture's game then), if any. Deleting the
    match does not change that result; a league admin corrects it."""
    return (Fixture.objects.filter(
        games__match=match, games__home_score__isnull=False,
        status__in=[FixtureStatus.SUBMITTED, FixtureStatus.DISPUTED, FixtureStatus.CONFIRMED])
        .select_related("home", "away", "division__season__club").first())


def counted(fixture: Fixture, season: Season) -> bool:
    """Whether the fixture's result counts in the table: confirmed ones always;
    submitted ones too when the season says so (shown as not yet confirmed)."""
    if fixture.status == FixtureStatus.CONFIRMED:
        return True
    return season.count_submitted and fixture.status == FixtureStatus.SUBMITTED


def division_document(division: Division, season: Season) -> dict[str, Any]:
    """The division as ``domino-league/1``: entrants, scheme, and the fixtures that have
    a counted result, a postponement or a voiding (unplayed ones have none to give)."""
    scores = game_scores(division)
    fixtures: list[dict[str, Any]] = []
    for fixture in division.fixtures.all():
        doc: dict[str, Any] = {"home": fixture.home.name, "away": fixture.away.name}
        if fixture.date is not None:
            doc["date"] = fixture.date.isoformat()
        if fixture.status == FixtureStatus.POSTPONED:
            doc["postponed"] = True
        elif fixture.status == FixtureStatus.VOID:
            doc["void"] = True
        elif counted(fixture, season) and fixture.walkover:
            doc["walkover"] = fixture.walkover
        elif counted(fixture, season):
            doc["result"] = [fixture.home_games, fixture.away_games]
            games = scores.get(fixture.pk, [])
            if games and len(games) == (fixture.home_games or 0) + (fixture.away_games or 0):
                doc["games"] = games
        else:
            continue
        fixtures.append(doc)
    document: dict[str, Any] = {
        "format": "domino-league/1",
        "name": f"{season.name} — {division.name}",
        "game": season.game,
        "options": dict(season.options),
        "entrants": [{"name": e.name, **({"players": [p.name for p in e.players.all()]}
                                         if e.players.all() else {})}
                     for e in division.entrants.all()],
        "fixtures": fixtures,
        "adjustments": [{"entrant": e.name, "points": a.points, "reason": a.reason}
                        for e in division.entrants.all() for a in e.adjustments.all()],
    }
    if season.scoring:
        document["scoring"] = dict(season.scoring)
    document["tiebreaks"] = list(season.tiebreaks)  # [] too: none, not the default
    return document


def division_league(division: Division, season: Season) -> league_rules.League:
    """The division as the league rules read it (:func:`division_document`)."""
    return league_rules.read_league(division_document(division, season))


def division_table(division: Division, season: Season) -> league_rules.Table:
    """The division's standings, by the league rules."""
    return league_rules.standings(division_league(division, season))


def division_form_guide(division: Division, season: Season) -> dict[str, str]:
    """Each entrant's last five counted results by name, oldest first (``"WWDLW"``), by
    the league rules: a walkover counts as the league's scoring says."""
    return league_rules.form_guide(division_league(division, season))
