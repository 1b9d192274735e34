#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    if sys.argv[1:2] == ["import_match"]:
        # a plain dry run verifies records without setting Django up: it needs no app
        from matches.records.dry_run import main as dry_run

        status = dry_run(sys.argv[1:])
        if status is not None:
            sys.exit(status)
    try:
        from django.core.management import execute_from_command_line
    except ImportError as exc:
        raise ImportError(
            "Couldn't import Django. Run scripts/setup to create .venv, then use "
            ".venv/bin/python manage.py (Django 6 needs Python >= 3.12)."
        ) from exc
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
