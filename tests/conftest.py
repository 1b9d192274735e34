"""Fixtures shared by the whole suite."""

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    """MD5 instead of PBKDF2: creating users in tests should cost microseconds."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
