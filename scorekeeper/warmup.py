"""What a new gunicorn worker does before its first request (gunicorn.conf.py)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.template import engines
from django.template.loader import get_template
from django.urls import get_resolver
from django.utils import translation


def warm_up() -> int:
    """Load what every worker would otherwise load during its first requests: the views
    (the URLconf imports them, and all they import), the URL resolver's tables for each
    language (every route's regular expression compiled: about 16 ms of CPU for the
    first language, 8 ms for each other, paid by the first page in it that names a
    URL), every project template compiled (the cached loader keeps them: about 230 ms
    of CPU for all of them, 50 ms of it the scorepad's), and each language's catalogue:
    otherwise a worker's first pages spend that while other requests wait for a core.
    Returns how many templates were compiled."""
    resolver = get_resolver()
    compiled = 0
    for engine in engines.all():
        for folder in engine.dirs:
            for path in sorted(Path(folder).rglob("*.html")):
                get_template(path.relative_to(folder).as_posix(), using=engine.name)
                compiled += 1
    for language, _ in settings.LANGUAGES:
        with translation.override(language):
            resolver.reverse_dict  # noqa: B018 - builds this language's reverse() tables
            translation.gettext("Scorekeeper")  # loads the catalogue
    return compiled
