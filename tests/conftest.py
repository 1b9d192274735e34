"""Fixtures shared by the whole suite."""

import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings
from playwright.sync_api import Browser, sync_playwright

# No per-example deadline: on a loaded 2-core CI machine a slow example is the machine's
# doing, not a failure of the property (hypothesis' default of 200 ms made such flakes).
hypothesis_settings.register_profile("suite", deadline=None)
hypothesis_settings.load_profile("suite")


@pytest.fixture(scope="session", autouse=True)
def _emptied_by_delete() -> Iterator[None]:
    """On PostgreSQL, a transactional test's database is emptied afterwards by a DELETE
    from each table rather than Django's one TRUNCATE: TRUNCATE gives every table and
    index a new file (about half a second a test here, on tables of a few rows each), a
    DELETE of so few rows takes milliseconds. The foreign keys Django makes are deferred
    to the commit, so the order of the DELETEs does not matter."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self: DatabaseOperations, style: Any, tables: Sequence[str], *,
                  reset_sequences: bool = False, allow_cascade: bool = False) -> list[str]:
        if reset_sequences or allow_cascade:
            return truncate(self, style, tables, reset_sequences=reset_sequences,
                            allow_cascade=allow_cascade)
        return [f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
                for table in tables]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DatabaseOperations, "sql_flush", sql_flush)
        yield


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    """MD5 instead of PBKDF2: creating users in tests should cost microseconds."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def samples_dir():
    """``../shared/samples`` relative to the repository root; skips if it is not there."""
    from tests.support.samples import MISSING, SAMPLES_DIR

    if not SAMPLES_DIR.is_dir():
        pytest.skip(MISSING)
    return SAMPLES_DIR


@pytest.fixture(autouse=True)
def _language_back_to_english():
    """A request through LocaleMiddleware leaves its language active in the thread after
    the response; the next test starts in the project's language again."""
    yield
    from django.utils import translation

    translation.activate("en")


@pytest.fixture(autouse=True)
def _no_engines_kept():
    """Each test starts with no match engine kept from another (matches.scoring.engine_cache)."""
    from matches.scoring.engine_cache import forget_engines

    forget_engines()


@pytest.fixture(autouse=True)
def _tasks_and_media(settings, tmp_path):
    """Tasks run at once, in the test (no worker needed), and uploaded files go to a
    temporary MEDIA_ROOT; the one test of the database backend overrides TASKS."""
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
    settings.MEDIA_ROOT = tmp_path / "media"


# -- Chromium, for tests/browser and tests/stack: one browser for the whole run -------

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI containers run as root, where Chromium's sandbox cannot start
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # Keep the browser from calling home: tests run offline.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-site-isolation-trials",
    "--disable-features=site-per-process,IsolateOrigins,Translate,MediaRouter,OptimizationHints",
    "--disable-extensions",
]


@pytest.fixture(scope="session")
def catalogues_compiled() -> None:
    """The .mo files, for a page in Ukrainian or Russian: scripts/setup builds them; a
    bare checkout builds them here."""
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, str(root / "scripts" / "compile_messages.py")],
                   check=True)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found; install Debian's chromium (apt-get install chromium)")
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()
    finally:
        playwright.stop()
