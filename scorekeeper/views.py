"""Operations views, apart from the matches app: the health check."""

from __future__ import annotations

import logging

from django.db import DatabaseError, connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """``{"status": "ok"}`` when the database answers a trivial query; 503 otherwise, so
    a load balancer or platform stops sending requests to an instance that cannot serve
    them. No session, no template: cheap enough to probe every few seconds."""
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("Health check: the database did not answer")
        return JsonResponse({"status": "unavailable", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok"})
