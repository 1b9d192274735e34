"""Root URLconf: the admin (at ADMIN_PATH), the health check, and everything else in
the matches app."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from scorekeeper import views

urlpatterns = [
    path(settings.ADMIN_PATH, admin.site.urls),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include("matches.urls_accounts")),
    path("", include("matches.urls")),
]
