"""matches.core.collector: the cycle collector runs less often while a batch is stored,
and as before once every such block has ended."""

from __future__ import annotations

import gc

import pytest

from matches.core.collector import BATCH_THRESHOLD, fewer_collections


@pytest.fixture(autouse=True)
def default_threshold():
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*before)


def test_the_threshold_is_raised_inside_and_given_back_after():
    with fewer_collections():
        assert gc.get_threshold() == BATCH_THRESHOLD

    assert gc.get_threshold() == (700, 10, 10)


def test_a_block_within_another_leaves_it_raised_until_the_outer_one_ends():
    with fewer_collections():
        with fewer_collections():
            pass
        assert gc.get_threshold() == BATCH_THRESHOLD

    assert gc.get_threshold() == (700, 10, 10)


def test_an_error_in_the_block_still_gives_the_threshold_back():
    with pytest.raises(KeyError), fewer_collections():
        raise KeyError("the batch")

    assert gc.get_threshold() == (700, 10, 10)
