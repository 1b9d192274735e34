"""Root URLconf: the admin, and everything else in the matches app."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("matches.urls_accounts")),
    path("", include("matches.urls")),
]
