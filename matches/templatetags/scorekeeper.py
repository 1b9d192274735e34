"""Template filters and tags: scores exact, with halves as ½; the scoring forms' hidden
fields; the scorepad's picker, end choices and board tiles; a refused form's summary."""

from __future__ import annotations

import datetime
import functools
import re
import uuid
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from django import template
from django.db.models import QuerySet
from django.forms import BaseForm, BoundField
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext, pgettext

from matches import rules
from matches.clubs.models import Club
from matches.clubs.selectors import Viewer
from matches.cups import access as cups_access
from matches.cups import selectors as cups_selectors
from matches.cups.models import Cup
from matches.history import selectors as history_selectors
from matches.leagues import presenters as leagues_presenters
from matches.leagues import selectors as leagues_selectors
from matches.leagues.models import FixtureChange, FixtureStatus, Season
from matches.scoring.creation_keys import creation_key_for
from matches.scoring.models import GameKind, ScorerGrant
from matches.scoring.presenters import (
    Board,
    end_label,
    phone_name,
    show_score,
    tile_svg,
    winner_names,
)
from matches.scoring.scorepad import Choice, PickTile, TileChoices

register = template.Library()


@register.filter
def score(value: Decimal | int | None) -> str:
    """``Decimal("2.5")`` → ``2½``; ``Decimal("250.0")`` → ``250``."""
    if value is None:
        return ""
    return show_score(Fraction(value).limit_denominator(2))


@register.inclusion_tag("matches/_error_summary.html")
def error_summary(form: BaseForm) -> dict[str, BaseForm]:
    """A refused form's reasons at its top, which the page opens with the focus on
    (``templates/matches/_error_summary.html``); put before the fields, as a field that
    would take the focus otherwise gives it up (Django's sign-in form puts it on the
    username): a page has one ``autofocus``."""
    if form.errors:
        for field in form.fields.values():
            field.widget.attrs.pop("autofocus", None)
    return {"form": form}


@register.filter
def field_anchor(field: BoundField) -> str:
    """The id of ``field``'s control, which a link to the field goes to: a group of radio
    buttons has no control of its own (its label is a legend), so its first button's."""
    if field.id_for_label:
        return field.id_for_label
    first = field.subwidgets[0] if field.subwidgets else None
    return (first.id_for_label if first is not None else "") or field.auto_id


@register.filter
def phone(grant: ScorerGrant) -> str:
    """A scoring phone's name in the reader's language (:func:`presenters.phone_name`)."""
    return phone_name(grant)


@register.simple_tag
def write_fields(version: int) -> str:
    """The hidden fields of every scoring form: the match version the page shows, and a
    fresh idempotency key for this one tap (a resend of it is answered, not applied)."""
    return format_html('<input type="hidden" name="version" value="{}">'
                       '<input type="hidden" name="key" value="{}">', version, uuid.uuid4())


# The picker's tiles, the end choices of every playable tile and the board's tiles are
# drawn on every tap (about twenty-eight, twenty and a dozen of them): as tags, each
# list costs a fraction of a template's loop. Each thing is named by what it is, for the
# screen reader and the browser tests.


@register.simple_tag
def picker(tiles: Sequence[PickTile]) -> SafeString:
    """The picker's tiles, in order (:func:`picker_tile`)."""
    return SafeString("".join([picker_tile(tile) for tile in tiles]))


@register.simple_tag
def choice_sets(sets: Sequence[TileChoices], selected: str | None) -> SafeString:
    """Where each playable tile may go: a group of :func:`end_choice` buttons per tile,
    shown for the ``selected`` one (the page shows another's without asking)."""
    where = gettext("Where %(tile)s goes")
    return SafeString("".join([format_html(
        '<div class="choice-set" data-for="{}"{} role="group" aria-label="{}">{}</div>',
        tiles.tile, SafeString("") if tiles.tile == selected else SafeString(" hidden"),
        where % {"tile": tiles.tile},
        SafeString("".join([end_choice(choice) for choice in tiles.choices])))
        for tiles in sets]))


@register.simple_tag
def board_tiles(board: Board) -> SafeString:
    """The board's tiles (each face drawn once per process: ``TileShape.svg``) and its
    open ends, inside its ``<svg>`` (``templates/matches/_board.html``)."""
    tiles = [format_html('<g class="board-tile{}{}" data-tile="{}">{}</g>',
                         " spinner" if tile.spinner else "", " newest" if tile.newest else "",
                         tile.tile, tile.svg) for tile in board.tiles]
    ends = [format_html('<circle cx="{}" cy="{}" r="0.22" class="open-end{}" data-point="{}">'
                        '<title>{}</title></circle>', end.x, end.y,
                        " open-flank" if end.flank else "", end.point,
                        end_label(rules.AttachmentPoint.parse(end.point), flank=end.flank))
            for end in board.ends]
    return SafeString("".join(tiles + ends))


def picker_tile(tile: PickTile) -> SafeString:
    """A tile of the picker: a link that chooses it, or, on the table, its picture."""
    return _picker_tile(tile.tile, tile.on_table, tile.playable, tile.selected, get_language())


def end_choice(choice: Choice) -> SafeString:
    """An end the chosen tile may join, as the button that places it there: named by the
    end, the sum it would make and the points."""
    return _end_choice(choice.point, choice.label, choice.end_sum, choice.points, choice.flank,
                       choice.refused, choice.free, choice.spinner, get_language())


# Both are drawn again and again the same (each tile has a few states, each end a few
# sums): kept per process, by what they show and the language they say it in.


@functools.lru_cache(maxsize=2048)  # 91 tiles (double-nine), 5 states, 3 languages
def _picker_tile(tile: str, on_table: bool, playable: bool, selected: bool,
                 language: str | None) -> SafeString:
    if on_table:
        return format_html(
            '<span class="pick on-table" data-tile="{}" role="img" aria-label="{}">{}'
            '<span class="mark" aria-hidden="true">✓</span></span>', tile,
            gettext("%(tile)s, on the table") % {"tile": tile}, tile_svg(tile))
    state = (" selected" if selected else "") + (" playable" if playable else " unplayable")
    # the ✕ is a picture: the name says it too ("fits no end" is why nothing is offered)
    name = tile if playable else gettext("%(tile)s, fits no open end") % {"tile": tile}
    return format_html(
        '<a class="pick{}" href="?tile={}" data-tile="{}" aria-label="{}"{}>{}{}</a>', state,
        tile, tile, name, SafeString(' aria-current="true"') if selected else "",
        tile_svg(tile),
        SafeString('<span class="mark" aria-hidden="true">✕</span>') if not playable else "")


@functools.lru_cache(maxsize=4096)
def _end_choice(point: str, label: str, end_sum: int, points: int, flank: bool,
                refused: bool, free: int | None, spinner: bool,
                language: str | None) -> SafeString:
    state = (" btn-primary" if points else "") + (" flank" if flank else "")
    past = ", " + gettext("past the target") if refused else ""
    # a double's end says how many more tiles it takes (static/js/offline.js)
    double = "" if free is None else format_html(
        ' data-free="{}"{}', free, SafeString(" data-spinner" if spinner else ""))
    return format_html(
        '<button type="submit" name="at" value="{}" class="btn choice{}" data-point="{}"{}>'
        '<span class="choice-name">{}</span> <small>{} {} → {}{}</small></button>',
        point, state, point, double, tile_names(label), gettext("sum"), end_sum, points, past)


TILE_NAME = re.compile(r"\b\d+-\d+\b")


@register.filter
def tile_names(text: str) -> SafeString:
    """``text`` escaped, each tile's name in it ("5-5") kept on one line: a narrow
    button or line breaks at a hyphen, and "5-" over "5" reads as two things."""
    return SafeString(TILE_NAME.sub(lambda name: f'<span class="tile-name">{name[0]}</span>',
                                    str(escape(text))))


register.filter(winner_names)


@register.simple_tag
def club_seasons(club: Club) -> QuerySet[Season]:
    """The club's league seasons, newest first, for its page: the leagues sit above the
    clubs, so the club's own page reads them here, not from its view."""
    return leagues_selectors.club_seasons(club)


@register.simple_tag
def club_cups(club: Club) -> QuerySet[Cup]:
    """The club's knockout cups, newest first, for its page (the cups sit above the
    clubs, as the leagues do)."""
    return cups_selectors.club_cups(club)


@register.simple_tag
def needs_you(user: Viewer) -> leagues_selectors.NeedsYou:
    """The league fixtures waiting for ``user``, for the home page (scoring's view, below
    the leagues, reads them here)."""
    return leagues_selectors.needs_you(user=user, today=timezone.localdate())


@register.simple_tag
def cups_to_draw(user: Viewer) -> list[cups_selectors.ToDraw]:
    """The cups whose next draw waits for ``user`` (who runs them), for the home page
    (the cups sit above scoring, as the leagues do)."""
    return cups_selectors.cups_to_draw(clubs=cups_access.clubs_whose_cups_they_run(user))


@register.simple_tag
def club_rated_games(club: Club) -> list[GameKind]:
    """The games the club has rating tables at, for its page (history sits above the
    clubs, as the leagues do)."""
    return [GameKind(game) for game in history_selectors.club_rated_games(club)]


@register.simple_tag(takes_context=True)
def fresh_key(context: template.Context) -> str:
    """A new key for a form that must act once however often it is sent (a rematch's
    ``creation_key``), made when the page is drawn and good in this browser's session
    only (matches/scoring/creation_keys.py)."""
    return str(creation_key_for(context["request"]))


@register.filter
def form_guide(letters: str) -> str:
    """A form guide ("WWLDW": won, lost, drawn, oldest first) in the page's language; the
    letters are made in English (a player's stats, a season's table) and only
    translated when shown."""
    words = {"W": pgettext("form guide: won", "W"), "D": pgettext("form guide: drawn", "D"),
             "L": pgettext("form guide: lost", "L")}
    return "".join(words.get(letter, letter) for letter in letters)


@register.filter
def form_guide_words(letters: str) -> str:
    """The same form guide in words ("won, won, lost"), for a screen reader, which would
    read the letters as one word."""
    words = {"W": pgettext("league table", "won"), "D": pgettext("league table", "drawn"),
             "L": pgettext("league table", "lost")}
    return ", ".join(words.get(letter, letter) for letter in letters)


@register.filter
def logged_date(value: str | None) -> str:
    """A date as a fixture's change log keeps it (ISO, or None) in the page's format."""
    if not value:
        return pgettext("no date", "none")
    try:
        return date_format(datetime.date.fromisoformat(value), "SHORT_DATE_FORMAT")
    except ValueError:  # not a date after all: shown as kept
        return value


@register.filter
def game_changes(change: FixtureChange) -> list[str]:
    """What a fixture's change did to its games, game by game in words
    (:func:`matches.leagues.presenters.game_changes`); none for a fixture a spreadsheet
    added (no before)."""
    if not change.before:
        return []
    return leagues_presenters.game_changes(change.before.get("games"),
                                           (change.after or {}).get("games"))


@register.filter
def fixture_status(value: str) -> str:
    """A fixture's stored status ("submitted", as its change log keeps it) in a word of
    the page's language."""
    words: dict[str, str] = {
        FixtureStatus.SCHEDULED.value: pgettext("fixture status", "scheduled"),
        FixtureStatus.POSTPONED.value: pgettext("fixture status", "postponed"),
        FixtureStatus.VOID.value: pgettext("fixture status", "void"),
        FixtureStatus.SUBMITTED.value: pgettext("fixture status", "submitted"),
        FixtureStatus.CONFIRMED.value: pgettext("fixture status", "confirmed"),
        FixtureStatus.DISPUTED.value: pgettext("fixture status", "disputed"),
    }
    return words.get(value, value)
