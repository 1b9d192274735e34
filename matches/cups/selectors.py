"""Reads for cups: a club's cups, a cup as the rules see it (its draw and the results
it counts), a tie's result from its fixture, and the bracket as its page shows it."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db.models import Prefetch, QuerySet
from django.dispatch import receiver
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from matches.clubs.models import Club
from matches.core import messages as rules_messages
from matches.cups import stored
from matches.cups.models import Cup, CupLog, CupRound, CupTie
from matches.leagues.models import (
    OPEN_FOR_ENTRY,
    Entrant,
    Fixture,
    FixtureGame,
    Season,
    SeasonKind,
)
from matches.leagues.selectors import counted, fixture_game_score
from matches.leagues.signals import fixture_captioned
from matches.rules import CupError
from matches.rules import cup as cup_rules
from matches.rules.league import Side


def club_cups(club: Club) -> QuerySet[Cup]:
    """The club's cups, newest first."""
    return (Cup.objects.filter(season__club=club).select_related("season__club")
            .order_by("-season__starts_on", "-pk"))


def club_cup(*, club: Club, slug: str) -> Cup:
    """The club's cup whose season has the address ``slug``; else 404."""
    return get_object_or_404(Cup.objects.select_related("season__club"),
                             season__club=club, season__slug=slug,
                             season__kind=SeasonKind.CUP)


def cup_entrants(cup: Cup) -> QuerySet[Entrant]:
    """The cup's entrants, by name."""
    return Entrant.objects.filter(division__season=cup.season).order_by("name")


def cup_division_entrants(cup: Cup) -> list[Entrant]:
    """The cup's entrants, by name."""
    return list(cup_entrants(cup))


def seasons_to_enter(cup: Cup) -> QuerySet[Season]:
    """The club's other seasons and cups with entrants, newest first: whose entrants the
    cup may take in."""
    return (Season.objects.filter(club=cup.season.club, divisions__entrants__isnull=False)
            .exclude(pk=cup.season.pk).distinct().order_by("-starts_on", "-pk"))


def cup_format(cup: Cup) -> cup_rules.CupFormat:
    """How the rules run the cup, from its fields."""
    return cup_rules.CupFormat(method=cup_rules.DrawMethod(cup.draw_method),
                               timing=cup_rules.DrawTiming(cup.draw_timing),
                               plate=cup.plate, level_tie=cup_rules.LevelTie(cup.level_tie),
                               walkover=(cup.walkover_winner, cup.walkover_loser))


def rules_cup(cup: Cup) -> cup_rules.Cup | None:
    """The rules' drawn cup (None until drawn)."""
    if cup.drawn is None:
        return None
    return stored.rules_cup(format=cup_format(cup), drawn=cup.drawn, plate_drawn=cup.plate_drawn)


def tie_key(tie: CupTie) -> cup_rules.TieKey:
    return cup_rules.TieKey(tie.round, tie.position, plate=tie.plate)


# a cup's ties that have a result, fetched with many cups at once (cups_to_draw)
RESULTED_TIES = "resulted_ties"


def cup_results(cup: Cup) -> dict[cup_rules.TieKey, cup_rules.TieResult]:
    """The results the cup counts, by tie (read with the cup where it came
    with :data:`RESULTED_TIES`)."""
    ties = getattr(cup, RESULTED_TIES, None)
    if ties is None:
        ties = cup.ties.filter(result__isnull=False)
    return {tie_key(tie): stored.result_from(tie.result) for tie in ties
            if tie.result is not None}


def tie_games(fixture: str = "") -> Prefetch:
    """What a tie's result is read from, fetched with its fixture (the path to it,
    ``fixture``): its games and their scorepad matches' sides; for a whole cup's
    fixtures, a query each rather than each fixture's own."""
    return Prefetch(f"{fixture}games", queryset=FixtureGame.objects.select_related("match")
                    .prefetch_related("match__sides"))


def fixture_tie_result(fixture: Fixture, season: Season) -> cup_rules.TieResult | None:
    """A fixture's result as a tie's (its games' final scores in order and its deciding
    game's, or its walkover), whether or not it counts yet; None without one. The
    fixture comes with :func:`tie_games`."""
    if fixture.walkover:
        return cup_rules.TieResult(walkover=Side(fixture.walkover))
    if fixture.home_games is None:
        return None
    deciding = season.night.deciding_game
    scored = sorted((game.number, score) for game in fixture.games.all()
                    if (score := fixture_game_score(game)) is not None)
    return cup_rules.TieResult(
        games=tuple(score for number, score in scored if number != deciding),
        decider=next((score for number, score in scored if number == deciding), None))


@receiver(fixture_captioned)
def fixture_caption(sender: object, *, fixture: Fixture, **kwargs: object) -> list[str] | None:
    """Where a tie's fixture stands in its cup, for its page: its round's name ("Final"),
    after "The plate" for a plate's tie; None for a fixture that is no tie."""
    tie = CupTie.objects.filter(fixture=fixture).select_related("cup").first()
    drawn = rules_cup(tie.cup) if tie is not None else None
    if tie is None or drawn is None:
        return None
    current = cup_rules.bracket(drawn, cup_results(tie.cup))
    name = rules_messages.say(current.round_name(tie.round, plate=tie.plate))
    return [str(_("The plate")), name] if tie.plate else [name]


def fixture_counted_result(fixture: Fixture, season: Season) -> cup_rules.TieResult | None:
    """The fixture's result if it counts (confirmed, or submitted where the season
    counts submitted results); else None."""
    return fixture_tie_result(fixture, season) if counted(fixture, season) else None


# -- the bracket page ----------------------------------------------------------------


@dataclass(frozen=True)
class TieShown:
    key: cup_rules.TieKey
    home: Entrant | None
    away: Entrant | None
    bye: bool
    winner: Entrant | None
    score: tuple[int, int] | None
    fixture: Fixture | None
    walkover: bool

    @property
    def home_won(self) -> bool:
        return self.winner is not None and self.winner == self.home

    @property
    def away_won(self) -> bool:
        return self.winner is not None and self.winner == self.away

    @property
    def status(self) -> str:
        """The tie's fixture's status in words (blank without one)."""
        return str(self.fixture.get_status_display()) if self.fixture else ""

    @property
    def label(self) -> str:
        return str(self.key)


@dataclass(frozen=True)
class RoundShown:
    number: int
    plate: bool
    name: str
    date: datetime.date | None
    ties: list[TieShown] = field(default_factory=list)

    @property
    def drawn(self) -> bool:
        return bool(self.ties)


@dataclass(frozen=True)
class CupShown:
    cup: Cup
    entrants: list[Entrant]
    drawn: bool
    rounds: list[RoundShown]
    plate_rounds: list[RoundShown]
    winner: Entrant | None
    plate_winner: Entrant | None
    log: list[CupLog]
    # what the secretary may do next, as the rules say (the services check the same)
    next_round_drawable: bool
    plate_drawable: bool
    seeds: list[Entrant]
    plate_round_drawable: bool = False


def cup_shown(cup: Cup) -> CupShown:
    """The cup's bracket as its page shows it: each round drawn (and those to come, by
    name), each tie's sides, winner, score and fixture; the plate's beside it."""
    entrants = cup_division_entrants(cup)
    by_id = {str(entrant.pk): entrant for entrant in entrants}
    drawn = rules_cup(cup)
    dates = {(r.plate, r.number): r.date for r in CupRound.objects.filter(cup=cup)}
    rows = {tie_key(tie): tie for tie in cup.ties.select_related("fixture")}
    seeds = [by_id[str(pk)] for pk in cup.seeds if str(pk) in by_id]
    log = list(cup.log.select_related("user").order_by("-at", "-id")[:30])
    if drawn is None:
        return CupShown(cup, entrants, False, [], [], None, None, log, next_round_drawable=False,
                        plate_drawable=False, seeds=seeds)
    results = cup_results(cup)
    current = cup_rules.bracket(drawn, results)

    def shown(tie: cup_rules.Tie) -> TieShown:
        row = rows.get(tie.key)
        fixture = row.fixture if row is not None else None
        return TieShown(tie.key, by_id.get(tie.home or ""), by_id.get(tie.away or ""),
                        tie.bye, by_id.get(tie.winner or ""), tie.score, fixture,
                        bool(tie.result and tie.result.walkover))

    def rounds(ties: tuple[tuple[cup_rules.Tie, ...], ...], total: int,
               plate: bool) -> list[RoundShown]:
        return [RoundShown(number, plate,
                           rules_messages.say(cup_rules.round_name(number, total)),
                           dates.get((plate, number)),
                           [shown(tie) for tie in ties[number - 1]]
                           if number <= len(ties) else [])
                for number in range(1, total + 1)]

    main = rounds(current.rounds, current.total_rounds, False)
    plate = (rounds(current.plate_rounds, current.plate_total_rounds, True)
             if drawn.plate is not None else [])
    next_round, plate_now, plate_round = _draws_allowed(drawn, results)
    return CupShown(
        cup, entrants, True, main, plate, by_id.get(current.winner or ""),
        by_id.get(current.plate_winner or ""), log, next_round_drawable=next_round,
        plate_drawable=plate_now, seeds=seeds, plate_round_drawable=plate_round)


@dataclass(frozen=True)
class ToDraw:
    """A cup whose secretary has a draw to make: its next round, its plate, or the
    plate's next round."""

    cup: Cup
    next_round: bool
    plate: bool
    plate_round: bool


def cups_to_draw(*, clubs: QuerySet[Club]) -> list[ToDraw]:
    """The drawn cups of ``clubs`` (seasons not locked) with a draw waiting, as the rules
    say it can be made now (the services check the same)."""
    waiting = []
    for cup in (Cup.objects.filter(season__club__in=clubs, season__locked=False,
                                   drawn__isnull=False)
                .select_related("season__club").order_by("season__starts_on", "pk")
                .prefetch_related(Prefetch("ties", to_attr=RESULTED_TIES,
                                           queryset=CupTie.objects.filter(result__isnull=False)))):
        drawn = rules_cup(cup)
        assert drawn is not None
        allowed = _draws_allowed(drawn, cup_results(cup))
        if any(allowed):
            waiting.append(ToDraw(cup, *allowed))
    return waiting


def _draws_allowed(drawn: cup_rules.Cup, results: dict[cup_rules.TieKey, cup_rules.TieResult]
                   ) -> tuple[bool, bool, bool]:
    """Which draws the rules allow now: the next round, the plate, the plate's next
    round (the cup's page offers them, the home page tells its admins)."""
    return (_drawable(drawn, results, plate=False), _plate_drawable(drawn, results),
            drawn.plate is not None and _drawable(drawn, results, plate=True))


def _drawable(drawn: cup_rules.Cup, results: dict[cup_rules.TieKey, cup_rules.TieResult], *,
              plate: bool) -> bool:
    try:
        cup_rules.draw_next_round(drawn, results, seed=0, plate=plate)
    except CupError:
        return False
    return True


def _plate_drawable(drawn: cup_rules.Cup,
                    results: dict[cup_rules.TieKey, cup_rules.TieResult]) -> bool:
    try:
        cup_rules.draw_plate(drawn, results, seed=0)
    except CupError:
        return False
    return True


def cup_status_open(fixture: Fixture) -> bool:
    """Whether the fixture is not played yet: open for entry, as the sign-off table
    says, and no game entered."""
    return fixture.status in OPEN_FOR_ENTRY and not fixture.games.exists()
