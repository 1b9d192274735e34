"""What the leagues tell the concerns above them, which they do not import.

``fixture_moved`` is sent inside the write's transaction by every step of a fixture's
sign-off (``services._transition``: submitted, confirmed, disputed, resolved, a walkover,
made void, corrected, confirmed by itself, keyed in from a spreadsheet), once the
fixture is saved with its new status and result. Arguments: ``fixture``, the fixture as
saved. A receiver may refuse the step by raising ``ValidationError``: the write's
transaction then stores nothing. The cups take a counted result to their bracket
(``matches.cups.services``).

``fixture_captioned`` is sent by the fixture page, with ``fixture``, to learn where a
concern above places the fixture: a receiver returns the words that say it (a cup's tie:
its round, and the plate's) as a list of strings, or None for a fixture not its own. The
page shows them instead of the division and week.
"""

from django.dispatch import Signal

fixture_moved = Signal()
fixture_captioned = Signal()
