"""The rules tests are plain pytest: no database, no Django settings.

The suite-wide ``tests/conftest.py`` has an autouse fixture that touches Django's
``settings``; overriding it here by name keeps the engine's tests free of Django.
"""

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hasher():
    """No-op: nothing under tests/rules creates users."""
    return None
