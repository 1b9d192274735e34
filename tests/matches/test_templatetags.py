"""matches.templatetags.scorekeeper: the scorepad's lists drawn by tags, kept per process
by what they show, and said in each reader's language."""

from __future__ import annotations

import re

from django.utils import translation

from matches import rules
from matches.scoring import presenters
from matches.scoring.scorepad import Choice, PickTile, TileChoices
from matches.templatetags.scorekeeper import (
    board_tiles,
    choice_sets,
    picker,
    picker_tile,
    tile_names,
)
from tests.support.helpers import A, T


def test_kept_picker_tiles_and_end_choices_are_said_in_each_readers_language():
    tiles = [PickTile("5-5", on_table=True, playable=False, selected=False),
             PickTile("0-5", on_table=False, playable=True, selected=True)]
    sets = [TileChoices("0-5", [Choice("5-5:5", "5-5", 10, 10, flank=False)])]

    said: dict[str, list[str]] = {}
    for language in ("en", "uk", "en"):
        with translation.override(language):
            said.setdefault(language, []).append(picker(tiles) + choice_sets(sets, "0-5"))

    assert 'aria-label="5-5, on the table"' in said["en"][0]
    assert 'aria-label="5-5, на столі"' in said["uk"][0] and "сума 10 → 10" in said["uk"][0]
    assert said["en"][0] == said["en"][1]  # the English drawing is not the Ukrainian one
    assert 'class="pick selected playable" href="?tile=0-5"' in said["en"][0]


def test_a_tile_on_the_table_is_a_picture_in_the_picker_not_a_stop_for_the_keyboard():
    on_table = PickTile("5-5", on_table=True, playable=False, selected=False)
    in_hand = PickTile("0-5", on_table=False, playable=True, selected=False)

    drawn = picker([on_table, in_hand])

    shown = re.search(r'<(\w+) class="pick on-table" data-tile="5-5"[^>]*>', drawn)
    assert shown is not None and shown[1] == "span"  # no link, no button
    assert 'role="img" aria-label="5-5, on the table"' in shown[0]
    assert "href" not in shown[0] and "tabindex" not in shown[0]
    assert '<a class="pick playable" href="?tile=0-5"' in drawn
    assert picker_tile(on_table) is picker_tile(on_table)  # kept per process, as before


def test_only_the_chosen_tiles_ends_are_shown():
    sets = [TileChoices("0-5", [Choice("5-5:5", "5-5", 10, 10, flank=False)]),
            TileChoices("1-5", [Choice("5-5:5", "5-5", 11, 0, flank=False)])]

    drawn = choice_sets(sets, "1-5")

    assert '<div class="choice-set" data-for="0-5" hidden role="group"' in drawn
    assert '<div class="choice-set" data-for="1-5" role="group" aria-label="Where 1-5 goes">' \
        in drawn
    assert drawn.count('<button type="submit" name="at"') == 2


def test_the_board_names_its_tiles_the_spinner_the_newest_and_the_open_ends():
    layout = rules.Layout(rules.SpinnerPolicy.FIRST_DOUBLE)
    layout.put(T("5-5"), None)
    layout.put(T("0-5"), A("5-5:5"))

    drawn = board_tiles(presenters.board(layout))

    assert '<g class="board-tile spinner" data-tile="5-5">' in drawn
    assert '<g class="board-tile newest" data-tile="0-5">' in drawn
    assert drawn.count('class="open-end') == len(presenters.board(layout).ends)


def test_each_tile_name_in_words_is_kept_on_one_line_and_the_rest_escaped():
    assert tile_names("Open with 5-5 <b>") == (
        'Open with <span class="tile-name">5-5</span> &lt;b&gt;')
    assert tile_names("On the 10 of 10-12") == (
        'On the 10 of <span class="tile-name">10-12</span>')
    assert tile_names("Ann-Marie: no tile") == "Ann-Marie: no tile"  # names are not tiles
