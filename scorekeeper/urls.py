"""Root URLconf: the admin, and everything else in the matches app."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("matches.urls")),
]
