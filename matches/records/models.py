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


class StopReason(models.TextChoices):
    """Why an import stopped, as its page says it to the uploader: never the server's
    own words (an exception may name the server's paths), which go to the log."""

    FAILED = "failed", _("Something went wrong on the server; its log says what. Try again: "
                         "the import goes on after the records already read.")
    FILE_LOST = "file_lost", _("The uploaded file is no longer kept: upload it again.")


class RecordImport(models.Model):
    """One upload of record files; the worker updates its counters after every batch,
    so they always describe what is committed.

    A runner takes the import by a lease (``leased_by`` until ``leased_until``), renewed
    with every batch: while it holds, no other runner starts on it; once it lapses (the
    runner was killed), another may take the import over and resume it."""

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
    stop_reason = models.CharField(_("why it stopped"), max_length=10, blank=True,
                                   choices=StopReason.choices, default="")
    leased_by = models.CharField(_("run by"), max_length=200, blank=True, default="")
    leased_until = models.DateTimeField(_("run by it until"), null=True, blank=True)
    # the uploader's language: the worker says each refusal in it (blank: the site's)
    language = models.CharField(_("language"), max_length=12, blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=ImportStatus.values),
                                   name="record_import_status_valid"),
            models.CheckConstraint(
                condition=(Q(status=ImportStatus.FAILED) & ~Q(stop_reason=""))
                | (~Q(status=ImportStatus.FAILED) & Q(stop_reason="")),
                name="record_import_stopped_says_why"),
            # a lease is held only while running, and names its holder and its end
            models.CheckConstraint(
                condition=Q(leased_by="", leased_until__isnull=True)
                | Q(status=ImportStatus.RUNNING, leased_until__isnull=False)
                & ~Q(leased_by=""),
                name="record_import_lease_while_running"),
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
    """An uploaded file. Its bytes are kept in the database (:class:`RecordImportChunk`),
    so a worker on any machine reads them, until the import is done."""

    record_import = models.ForeignKey(RecordImport, on_delete=models.CASCADE,
                                      related_name="files")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=255)
    size = models.PositiveBigIntegerField(_("bytes uploaded"), default=0)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["record_import", "position"],
                                    name="record_import_file_position_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class RecordImportChunk(models.Model):
    """One piece of an uploaded file, in order: a file is written and read a piece at a
    time (about 1 MB), never held whole in memory."""

    file = models.ForeignKey(RecordImportFile, on_delete=models.CASCADE,
                             related_name="chunks")
    number = models.PositiveIntegerField()
    data = models.BinaryField()

    class Meta:
        ordering = ["file", "number"]
        constraints = [
            models.UniqueConstraint(fields=["file", "number"],
                                    name="record_import_chunk_once"),
        ]

    def __str__(self) -> str:
        return f"{self.file}, piece {self.number}"


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
            # one row per record read: a second runner's rows are refused, not doubled
            models.UniqueConstraint(fields=["record_import", "number"],
                                    name="record_import_line_once"),
        ]

    def __str__(self) -> str:
        return f"{self.source}: {self.outcome}"
