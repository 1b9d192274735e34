"""Playwright fixtures for end-to-end tests in headless Chromium.

We drive Debian's /usr/bin/chromium through Playwright's sync API directly rather
than pytest-playwright, which wants browsers downloaded by `playwright install`.
Tests here use pytest-django's `live_server` and are marked `browser`, so
`pytest -m "not browser"` runs everything else.
"""

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest
from playwright.sync_api import Browser, Page

# Playwright's sync API runs an asyncio event loop in this thread, and Django then
# refuses ORM calls from "async context" (SynchronousOnlyOperation) in tests and
# fixtures. Nothing here is really async, so the guard is safe to lift in tests.
# https://docs.djangoproject.com/en/stable/topics/async/#async-safety
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

BROWSER_DIR = Path(__file__).parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if BROWSER_DIR in item.path.parents:
            item.add_marker(pytest.mark.browser)


def phone_page(browser: Browser, *, color_scheme: Literal["light", "dark"] | None = None,
               locale: str | None = None, kept: bool = False) -> Iterator[Page]:
    """A fresh phone-sized page (360x740, touch) in its own context: no shared cookies;
    the system's colour scheme and the browser's language if given. ``kept``: the
    service worker runs (the page is kept for offline use); otherwise it is not
    registered, since its install fetches the whole app shell from the live server on
    every fresh context, work the test does not look at."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2,
                                  color_scheme=color_scheme, locale=locale,
                                  service_workers="allow" if kept else "block")
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A phone's page; with the service worker where the test is marked ``kept``."""
    yield from phone_page(browser, kept=request.node.get_closest_marker("kept") is not None)
