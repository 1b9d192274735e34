"""What the leagues tell the concerns above them, which they do not import.

``fixture_moved`` is sent inside the write's transaction by every step of a fixture's
sign-off (``services._transition``: submitted, confirmed, disputed, resolved, a walkover,
made void, corrected, confirmed by itself, keyed in from a spreadsheet), once the
fixture is saved with its new status and result. Arguments: ``fixture``, the fixture as
saved. A receiver may refuse the step by raising ``ValidationError``: the write's
transaction then stores nothing. The cups take a counted result to their bracket
(``matches.cups.services``).
"""

from django.dispatch import Signal

fixture_moved = Signal()
