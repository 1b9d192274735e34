"""Fixtures shared by the whole suite."""

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    """MD5 instead of PBKDF2: creating users in tests should cost microseconds."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def samples_dir():
    """``../shared/samples`` relative to the repository root; skips if it is not there."""
    from tests.samples import MISSING, SAMPLES_DIR

    if not SAMPLES_DIR.is_dir():
        pytest.skip(MISSING)
    return SAMPLES_DIR
