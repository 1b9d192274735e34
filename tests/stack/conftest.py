import pytest

SPREAD = pytest.StashKey[list[str]]()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Note the grouped tests whose ids xdist could not mark with their group: under
    --dist loadgroup that mark is what keeps them on one worker, and a pytest whose ids it
    cannot mark spreads them silently (the stack's fixture then fails, saying so)."""
    config.stash[SPREAD] = [
        item.nodeid for item in items
        if getattr(config.option, "loadgroup", False)
        and item.get_closest_marker("xdist_group") and "@" not in item.nodeid]
