"""Root URLconf: the admin (at ADMIN_PATH), the health check, the web app manifest, and
everything else in the matches app."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from scorekeeper import offline, views

urlpatterns = [
    path(settings.ADMIN_PATH, admin.site.urls),
    path("healthz", views.healthz, name="healthz"),
    path("manifest.webmanifest", views.web_manifest, name="web_manifest"),
    # the service worker, at the root so that its scope is the whole site
    path("sw.js", offline.service_worker, name="service_worker"),
    path("offline/", offline.offline_page, name="offline"),
    path("accounts/", include("matches.accounts.urls")),
    # set_language: the header's language switch posts here
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("matches.urls")),
]
