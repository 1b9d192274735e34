"""What the clubs tell the concerns above them, which they do not import.

``member_left`` is sent inside the write's transaction when a member leaves the club or
is taken out of it (``services.membership_remove``), once the membership is gone.
Arguments: ``club`` and ``user``. The leagues end the captaincies that member held in
the club's seasons still running, so the account no longer acts for a side or hears of
its fixtures (``matches.leagues.services``).
"""

from django.dispatch import Signal

member_left = Signal()
