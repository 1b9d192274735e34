#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
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
