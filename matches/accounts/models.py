"""What an account keeps besides Django's user: whether its owner wants e-mails, and in
which language."""

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
    # a captain reading the site in Ukrainian is written to in Ukrainian; blank: the
    # site's language (LANGUAGE_CODE)
    email_language = models.CharField(_("language of my e-mails"), max_length=8, blank=True,
                                      choices=settings.LANGUAGES)

    class Meta:
        verbose_name = _("e-mail settings")
        verbose_name_plural = _("e-mail settings")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(email_language__in=["", *dict(settings.LANGUAGES)]),
                name="notice_settings_language_known"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {'e-mails' if self.league_emails else 'no e-mails'}"
