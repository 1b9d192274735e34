"""A form sent twice (a double tap, a page sent again after a slow answer) makes one row.

Forms that carry no key of their own (a points adjustment, a new club) are matched by
what they hold: the same row made by the same person moments ago is the first send's,
and the second gets it back instead of making another. A minute and a half is longer
than any resend, and shorter than the time it takes to decide the same thing twice.
"""

from __future__ import annotations

import datetime

from django.utils import timezone

SENT_AGAIN_WITHIN = datetime.timedelta(seconds=90)


def since() -> datetime.datetime:
    """The moment after which a row like the one being made is a resend's first send."""
    return timezone.now() - SENT_AGAIN_WITHIN
