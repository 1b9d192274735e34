"""URLs of the matches app, mounted at the site root by scorekeeper/urls.py."""

from django.urls import URLPattern, URLResolver

app_name = "matches"

urlpatterns: list[URLPattern | URLResolver] = []
