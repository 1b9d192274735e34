"""The page of a finished match: the round-by-round log, a chart of the scores and a
board replay, built from the engine.

Pure presentation like :mod:`matches.scoring.scorepad`: it describes the match's engine —
the one the process keeps (:mod:`matches.scoring.engine_cache`), replayed from the rows
only if it has none — and no rule is decided and nothing is written here. The board
replay lays the round's first placements on an empty table with the engine's own
``Layout.put``, beside the awards the engine gave them, so each step shows what the
engine made of the table then without replaying the match again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from matches import rules
from matches.core import messages as rules_messages
from matches.scoring import engine_cache, presenters
from matches.scoring.models import Match

# line colours and dash patterns of the chart's sides: told apart without colour too
CHART_STROKES = ("#1f5fa8", "#c2410c", "#15803d", "#7e22ce", "#a16207", "#be123c",
                 "#0e7490", "#4d7c0f", "#9d174d", "#334155", "#b45309", "#1d4ed8")
CHART_DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")

# the chart's drawing: a 320 × 200 box, scaled by the page to its width
CHART_WIDTH, CHART_HEIGHT = 320, 200
PLOT_LEFT, PLOT_RIGHT, PLOT_TOP, PLOT_BOTTOM = 40, 10, 10, 30

_DIGITS = re.compile(r"-?[0-9]+")  # ASCII only: "²".isdigit() is True, int("²") fails
_FAR = 10**9


# -- the log -------------------------------------------------------------------------


@dataclass
class LogEvent:
    """One event of a round as the log tells it."""

    who: str
    kind: str  # play, draw, pass or call
    text: str  # "5-5 to open", "0-5 on 5-5:5", "drew 2 tiles", "passed", "ends 5 + 10"
    end_sum: int | None
    points: str | None
    refused: str | None = None
    step: int | None = None  # tracked plays: the replay's step that shows it


@dataclass
class LogRound:
    number: int
    tracked: bool
    events: list[LogEvent]
    ending: str  # "Olena went out", "blocked", "the match was won during the round"
    placements: list[str]  # per side: what the placements scored in this round
    settlement: list[str]  # per side: what the settlement gave
    steps: list[str]  # the settlement's steps, in the table's words
    scores: list[str]  # per side: the running score after the round
    plays: int  # tracked rounds: how many placements the replay steps through
    names: list[str]  # the side names, in side order
    miscalls: list[str] = field(default_factory=list)  # wrong calls, at the rules' points

    @property
    def rows(self) -> list[tuple[str, str, str, str]]:
        """Per side: name, placements, settlement and the running score after the round."""
        return list(zip(self.names, self.placements, self.settlement, self.scores,
                        strict=True))


# -- the chart -----------------------------------------------------------------------


@dataclass
class ChartLine:
    side: int
    name: str
    stroke: str
    dash: str
    points: list[tuple[float, float]]  # SVG coordinates, the start then each round's end

    @property
    def svg_points(self) -> str:
        return " ".join(f"{x:g},{y:g}" for x, y in self.points)

    @property
    def last(self) -> tuple[float, float]:
        return self.points[-1]


@dataclass
class Tick:
    at: float  # SVG coordinate along its axis
    label: str


@dataclass
class Chart:
    width: int
    height: int
    lines: list[ChartLine]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    target_y: float | None
    summary: str  # the aria-label: who ended where after how many rounds
    names: list[str]  # the side names, for the screen readers' table
    rows: list[tuple[int, list[str]]]  # (round, each side's running score)
    plot: tuple[int, int, int, int]  # left, top, right, bottom of the plotting area


# -- the replay ----------------------------------------------------------------------


@dataclass
class ReplayNav:
    label: str
    key: str  # first, back, forward, last: the script's keys find them by it
    step: int
    disabled: bool


@dataclass
class Replay:
    round_number: int
    step: int  # placements shown, 1 to `steps`
    steps: int
    board: presenters.Board
    ends_text: str
    end_sum: int
    who: str
    what: str
    points: str
    refused: str | None
    nav: list[ReplayNav]
    rounds: list[int]  # the tracked rounds, each one a replay of its own


@dataclass
class MatchPage:
    match: Match
    title: str
    unit: str
    winner: str | None
    sides: list[str]
    final: list[str]
    rounds: list[LogRound]
    chart: Chart
    replay: Replay | None
    tracked_rounds: list[int] = field(default_factory=list)


# -- building ------------------------------------------------------------------------


def build(match: Match, *, round_text: str | None = None,
          step_text: str | None = None) -> MatchPage:
    """The whole page; ``round_text`` and ``step_text`` are the query's raw values."""
    with engine_cache.scorepad_for_reading(match) as (engine, miscalls):
        return _page(match, engine, miscalls, round_text=round_text, step_text=step_text)


def _page(match: Match, engine: rules.Match, miscalls: dict[int, list[str]], *,
          round_text: str | None, step_text: str | None) -> MatchPage:
    names = list(engine.names or ())
    sides = [" & ".join(names[seat] for seat in seats) for seats in engine.sides]
    final = [presenters.show_score(score) for score in engine.scores]
    # a wrong call noted at the table stays noted once the match is over
    rounds = [_log_round(engine, rnd, sides, miscalls.get(rnd.number, []))
              for rnd in engine.rounds]
    tracked = [r.number for r in rounds if r.tracked and r.plays]
    replay = None
    if tracked:
        replay = replay_step(engine, tracked, round_number=_parse(round_text),
                             step=_parse(step_text))
    return MatchPage(
        match=match, title=_title(rules_messages.game_name(engine.game.slug), sides, final),
        unit=rules_messages.unit_name(engine.game.unit),
        winner=sides[engine.winner] if engine.winner is not None else None,
        sides=sides, final=final, rounds=rounds, chart=chart(engine, sides),
        replay=replay, tracked_rounds=tracked)


def _title(game: str, sides: list[str], final: list[str]) -> str:
    """"All Fives: Olena 250 – 185 Taras"; with more sides, each name before its score."""
    if len(sides) == 2:
        return f"{game}: {sides[0]} {final[0]} – {final[1]} {sides[1]}"
    return f"{game}: " + " – ".join(f"{name} {score}" for name, score in zip(
        sides, final, strict=True))


def _parse(text: str | None) -> int | None:
    """A query value as a number, or None if it is none ("²", "1e3", "" are none).

    Digits beyond any round or step stand for the far end: the nearest valid value.
    """
    text = (text or "").strip()
    if not _DIGITS.fullmatch(text):
        return None
    if len(text.lstrip("-")) > 9:  # int() refuses thousands of digits; none is needed
        return -_FAR if text.startswith("-") else _FAR
    return int(text)


def _log_round(engine: rules.Match, rnd: rules.Round, sides: list[str],
               miscalls: list[str]) -> LogRound:
    who = engine.who
    events = []
    plays = 0
    for event, award in zip(rnd.events, rnd.awards, strict=True):
        if isinstance(event, rules.Play):
            plays += 1
            events.append(_scored(who(event.seat), "play", _placed(event), award, step=plays))
        elif isinstance(event, rules.Call):
            ends = " + ".join(str(end.points) for end in event.ends)
            text = (_("ends %(ends)s, going out") if event.goes_out
                    else _("ends %(ends)s")) % {"ends": ends}
            events.append(_scored(who(event.seat), "call", text, award))
        elif isinstance(event, rules.Draw):
            events.append(LogEvent(who(event.seat), "draw",
                                   ngettext("drew %(count)s tile", "drew %(count)s tiles",
                                            event.tiles) % {"count": event.tiles},
                                   None, None))
        else:
            events.append(LogEvent(who(event.seat), "pass", _("passed"), None, None))
    if rnd.blocked:
        ending = _("blocked")
    elif rnd.finisher is not None:
        ending = _("%(who)s went out") % {"who": who(rnd.finisher)}
    elif rnd.won_here:
        ending = _("the match was won during the round")
    else:
        ending = ""
    show = presenters.show_score
    return LogRound(
        number=rnd.number, tracked=rnd.tracked, events=events, ending=ending,
        placements=[show(v) for v in rnd.placements],
        settlement=[show(v) for v in rnd.settlement_awards],
        steps=rules_messages.steps(rnd.settlement, rnd.notes),
        scores=[show(v) for v in engine.scores_after(rnd)],
        plays=plays if rnd.tracked else 0, names=sides, miscalls=miscalls)


def _scored(who: str, kind: str, text: str, award: rules.Award | None, *,
            step: int | None = None) -> LogEvent:
    if award is None:  # every play and call is scored; kept total for the type checker
        return LogEvent(who, kind, text, None, None, step=step)
    points = presenters.show_score(award.counted)
    if award.bonus and not award.refused:
        points = _("%(points)s (+%(bonus)s for going out)") % {"points": points,
                                                                "bonus": award.bonus}
    return LogEvent(who, kind, text, award.end_sum, points, rules_messages.refusal(award), step)


def _placed(play: rules.Play) -> str:
    """"5-6 on the double 5", or "5-5 to open"."""
    return presenters.placed_words(play.tile, play.at)


# -- the chart -----------------------------------------------------------------------


def chart(engine: rules.Match, sides: list[str]) -> Chart:
    """Each side's running score after each round, from 0 before the first."""
    series: list[list[Fraction | int]] = [[0] for _ in sides]
    for rnd in engine.rounds:
        for side, score in enumerate(engine.scores_after(rnd)):
            series[side].append(score)
    rounds = len(engine.rounds)
    top = max([engine.options.target, *(max(s) for s in series)])
    bottom = min([0, *(min(s) for s in series)])  # Fives and Threes never goes below 0
    left, top_px = PLOT_LEFT, PLOT_TOP
    right, bottom_px = CHART_WIDTH - PLOT_RIGHT, CHART_HEIGHT - PLOT_BOTTOM
    span = float(top - bottom) or 1.0

    def x(round_: int) -> float:
        return round(left + (right - left) * round_ / max(rounds, 1), 1)

    def y(score: Fraction | int) -> float:
        return round(bottom_px - (bottom_px - top_px) * float(score - bottom) / span, 1)

    lines = [ChartLine(side, name, CHART_STROKES[side % len(CHART_STROKES)],
                       CHART_DASHES[side % len(CHART_DASHES)],
                       [(x(r), y(score)) for r, score in enumerate(series[side])])
             for side, name in enumerate(sides)]
    every = max(1, -(-rounds // 8))  # at most about eight round labels fit 360 px
    x_ticks = [Tick(x(r), str(r)) for r in range(0, rounds + 1, every)]
    if rounds % every:
        x_ticks.append(Tick(x(rounds), str(rounds)))
    y_ticks = [Tick(y(bottom), presenters.show_score(bottom)),
               Tick(y(top), presenters.show_score(top))]
    target = engine.options.target
    show = presenters.show_score
    ends = "; ".join(f"{name} {show(s[-1])}" for name, s in zip(sides, series, strict=True))
    summary = ngettext("Running score over %(rounds)s round, target %(target)s: %(ends)s",
                       "Running score over %(rounds)s rounds, target %(target)s: %(ends)s",
                       rounds) % {"rounds": rounds, "target": target, "ends": ends}
    if engine.winner is not None:
        summary = _("%(summary)s; %(winner)s won") % {"summary": summary,
                                                       "winner": sides[engine.winner]}
    return Chart(
        width=CHART_WIDTH, height=CHART_HEIGHT, lines=lines, x_ticks=x_ticks,
        y_ticks=y_ticks, target_y=y(target) if target < top else None, summary=summary,
        names=sides,
        rows=[(r, [show(s[r]) for s in series]) for r in range(1, rounds + 1)],
        plot=(left, top_px, right, bottom_px))


# -- the replay ----------------------------------------------------------------------


def replay_step(engine: rules.Match, tracked: list[int], *, round_number: int | None,
                step: int | None) -> Replay:
    """Round ``round_number`` of ``engine`` after its first ``step`` placements.

    Out-of-range values give the nearest valid ones: the nearest tracked round, and a
    step from 1 to the round's placements. None: the first tracked round, step 1.
    """
    wanted = tracked[0] if round_number is None else round_number
    number = min(tracked, key=lambda n: (abs(n - wanted), n))
    rnd = engine.rounds[number - 1]
    # the round's placements, each with the award the engine gave it then
    plays = [(event, award) for event, award in zip(rnd.events, rnd.awards, strict=True)
             if isinstance(event, rules.Play)]
    steps = len(plays)
    shown = max(1, min(steps, 1 if step is None else step))
    layout = rules.Layout(engine.game.policy)
    for placed, _award in plays[:shown]:
        layout.put(placed.tile, placed.at)
    event, award = plays[shown - 1]
    assert award is not None
    nav = [ReplayNav(_("First"), "first", 1, shown == 1),
           ReplayNav(_("Back"), "back", max(1, shown - 1), shown == 1),
           ReplayNav(_("Forward"), "forward", min(steps, shown + 1), shown == steps),
           ReplayNav(_("Last"), "last", steps, shown == steps)]
    counted = presenters.show_score(award.counted)
    if award.bonus and not award.refused:
        # the placement's points, then the bonus: "1 + 1 for going out = 2", never "1 (+1)"
        counted = _("%(points)s + %(bonus)s for going out = %(total)s") % {
            "points": presenters.show_score(award.points), "bonus": award.bonus,
            "total": counted}
    board = presenters.board(layout)
    return Replay(
        round_number=number, step=shown, steps=steps, board=board,
        ends_text=" + ".join(board.ends_clockwise),
        end_sum=layout.end_sum, who=engine.who(event.seat),
        what=_placed(event),
        points=counted, refused=rules_messages.refusal(award), nav=nav, rounds=tracked)
