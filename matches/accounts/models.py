"""What an account keeps besides Django's user: whether its owner wants e-mails."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class NoticeSettings(models.Model):
    """Whether the site may e-mail this user about their league fixtures (results to
    confirm, disputes, reminders). A user without a row gets them: the default is on,
    and every such e-mail says how to turn them off."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="notice_settings")
    league_emails = models.BooleanField(_("e-mail me about my league fixtures"), default=True)

    def __str__(self) -> str:
        return f"{self.user}: {'e-mails' if self.league_emails else 'no e-mails'}"
