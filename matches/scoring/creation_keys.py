"""The key that makes a "start a match" form act once (a new match, a rematch).

A form that must act once however often it is sent carries a creation key made when
the page is drawn: the same key twice leads to the match the first one started, with
its creator's scorer grant (``scoring.services.play.match_start``). That answer is a credential, so
the key is kept in the session of the browser that drew the form and accepted from
that session only: a key read elsewhere (a copied page, a shared screen, a log) and
posted from another browser starts nothing and leads nowhere.
"""

from __future__ import annotations

import uuid
from uuid import UUID

from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

SESSION_KEY = "creation_keys"  # session: the keys of the forms this browser drew, oldest first
# A form drawn this many forms ago is refused as too old (and drawn again with a new
# key); the list stays a couple of kB in the session.
KEPT = 40

NOT_HERE = _("That form was not opened in this browser, or it is too old, so nothing was "
             "started. Here is the page again: send it once more.")


def creation_key_draw(session: SessionBase) -> UUID:
    """A new key for a form this browser is drawn, remembered in its ``session``."""
    key = uuid.uuid4()
    held: list[str] = session.get(SESSION_KEY, [])
    session[SESSION_KEY] = [*held[-(KEPT - 1):], str(key)]
    return key


def creation_key_for(request: HttpRequest) -> UUID:
    """:func:`creation_key_draw` in ``request``'s session once its user is known: reading
    the user flushes the session of an account whose password changed since it signed
    in, and a key drawn before that read would go with it."""
    request.user.is_authenticated  # noqa: B018 -- the lazy user loaded, for its effect above
    return creation_key_draw(request.session)


def creation_key_held(session: SessionBase, key: UUID) -> bool:
    """Whether ``key`` came with a form this browser's ``session`` drew. A resent form
    (a double tap, the back button) still is: a key stays after its match is made."""
    return str(key) in session.get(SESSION_KEY, [])
