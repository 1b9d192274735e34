"""URLs of the matches app, mounted at the site root by scorekeeper/urls.py."""

from django.urls import path

from matches.views import records as views_records
from matches.views import scoring as views

app_name = "matches"

scorer = "matches/<uuid:public_id>/score/"

urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.match_new, name="new"),
    path("matches/<uuid:public_id>/", views.match_detail, name="detail"),
    path("matches/<uuid:public_id>/record.json", views_records.match_record_json,
         name="record_json"),
    path("import/", views_records.records_import, name="import"),
    path("matches/<uuid:public_id>/join/<str:token>/", views.join, name="join"),
    path(scorer, views.scorepad_page, name="scorepad"),
    path(scorer + "history/", views.history, name="history"),
    path(scorer + "restore/", views.restore, name="restore"),
    path(scorer + "scorers/", views.scorers, name="scorers"),
    path(scorer + "scorers/rotate/", views.scorers_rotate, name="scorers_rotate"),
    path(scorer + "scorers/<int:grant_id>/revoke/", views.scorers_revoke,
         name="scorers_revoke"),
    path(scorer + "play/", views.play, name="play"),
    path(scorer + "draw/", views.draw, name="draw"),
    path(scorer + "pass/", views.pass_turn, name="pass"),
    path(scorer + "call/", views.call, name="call"),
    path(scorer + "settle/", views.settle, name="settle"),
    path(scorer + "round/", views.round_next, name="round"),
    path(scorer + "undo/", views.undo, name="undo"),
    # links shared before the scorer's secret left the address bar still join; last, so
    # that the scorepad's own addresses above are never read as a secret
    path(scorer + "<str:token>/", views.join, name="join_legacy"),
]
