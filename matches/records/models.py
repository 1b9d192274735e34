"""Record imports run as background tasks: the upload, its files, its progress
and what became of each line that was not simply stored."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class ImportStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Stopped")


class RecordImport(models.Model):
    """One upload of record files; the worker updates its counters after every batch,
    so they always describe what is committed."""

    public_id = models.UUIDField(_("public id"), default=uuid.uuid4, unique=True, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="record_imports")
    created_at = models.DateTimeField(_("uploaded"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=8, choices=ImportStatus.choices,
                              default=ImportStatus.QUEUED)
    max_records = models.PositiveIntegerField(_("records allowed"))
    lines_read = models.PositiveIntegerField(_("records read"), default=0)
    stored = models.PositiveIntegerField(_("matches stored"), default=0)
    refused = models.PositiveIntegerField(_("records refused"), default=0)
    duplicates = models.PositiveIntegerField(_("already imported"), default=0)
    error = models.TextField(_("why it stopped"), blank=True)
    # the uploader's language: the worker says each refusal in it (blank: the site's)
    language = models.CharField(_("language"), max_length=12, blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=ImportStatus.values),
                                   name="record_import_status_valid"),
        ]
        # the task worker's queue, counted on every poll of a queued import's page
        # (selectors.record_imports_ahead): the few unfinished rows, never all of them
        indexes = [models.Index(fields=["created_at", "id"],
                                condition=Q(status__in=[ImportStatus.QUEUED,
                                                        ImportStatus.RUNNING]),
                                name="record_import_unfinished")]

    def __str__(self) -> str:
        return f"Import {self.public_id} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("matches:import_progress", args=[self.public_id])

    @property
    def finished(self) -> bool:
        return self.status in (ImportStatus.DONE, ImportStatus.FAILED)


class RecordImportFile(models.Model):
    """An uploaded file, kept under MEDIA_ROOT until the worker has read it."""

    record_import = models.ForeignKey(RecordImport, on_delete=models.CASCADE,
                                      related_name="files")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=255)
    content = models.FileField(upload_to="record-imports/", blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["record_import", "position"],
                                    name="record_import_file_position_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class LineOutcome(models.TextChoices):
    STORED = "stored", _("Stored")
    REFUSED = "refused", _("Refused")
    DUPLICATE = "duplicate", _("Already imported")


class RecordImportLine(models.Model):
    """What became of one record (``source`` is the file, and line for ``.jsonl``)."""

    record_import = models.ForeignKey(RecordImport, on_delete=models.CASCADE,
                                      related_name="lines")
    number = models.PositiveIntegerField()  # the order read, over all files
    source = models.CharField(max_length=300)
    outcome = models.CharField(max_length=10, choices=LineOutcome.choices)
    message = models.TextField(blank=True)
    match = models.ForeignKey("Match", on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="+")

    class Meta:
        ordering = ["number"]
        constraints = [
            models.CheckConstraint(condition=Q(outcome__in=LineOutcome.values),
                                   name="record_import_line_outcome_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.source}: {self.outcome}"
