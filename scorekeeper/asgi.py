"""ASGI entry point (unused for now: we deploy with gunicorn's WSGI workers)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

application = get_asgi_application()
