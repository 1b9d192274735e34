"""The record upload's form. It reads input only; an upload is kept by
``records.services.record_import_start``, which hands it to a background task
(``records.tasks.record_import_task``) that imports it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.core.validators import FileExtensionValidator
from django.utils.translation import gettext_lazy as _

RECORD_EXTENSIONS = ["json", "jsonl"]
RECORD_FILE_MAX_BYTES = 10 * 1024 * 1024
RECORD_FILE_TOO_BIG = _("larger than %(limit)s MB.")  # after the file's name
FILE_REFUSED = _("%(name)s: %(why)s")


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one field, as Django's docs show ("Uploading multiple files")."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput(attrs={"accept": ".json,.jsonl"}))
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[UploadedFile]:
        single_clean = super().clean
        items = list(data) if isinstance(data, list | tuple) else [data]
        if not items and self.required:
            raise ValidationError(self.error_messages["required"], code="required")
        cleaned: list[UploadedFile] = []
        refused: list[ValidationError] = []
        for item in items:
            try:
                cleaned.append(single_clean(item, initial))
            except ValidationError as error:
                # several files: each refusal names its file ("empty", "not allowed")
                name = getattr(item, "name", None)
                refused.extend(ValidationError(FILE_REFUSED, code="file",
                                               params={"name": name, "why": why})
                               if name else ValidationError(why)
                               for why in error.messages)
        if refused:
            raise ValidationError(refused)
        return cleaned


def _size_limit(upload: UploadedFile) -> None:
    if upload.size is not None and upload.size > RECORD_FILE_MAX_BYTES:
        raise ValidationError(RECORD_FILE_TOO_BIG, code="file_size",
                              params={"limit": RECORD_FILE_MAX_BYTES // (1024 * 1024)})


class RecordUploadForm(forms.Form):
    # Named as the upload's form field; Django's metaclass takes it off the class, so it
    # does not hide Form.files (the type checker cannot know that).
    files = MultipleFileField(  # type: ignore[assignment]
        label=_("Match records"),
        help_text=_("domino-match/1 records: .json (one match) or .jsonl (one per line)."),
        validators=[FileExtensionValidator(RECORD_EXTENSIONS), _size_limit])
