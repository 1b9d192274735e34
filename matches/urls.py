"""URLs of the matches app, mounted at the site root by scorekeeper/urls.py."""

from django.urls import path

from matches import views, views_records

app_name = "matches"

scorer = "matches/<uuid:public_id>/score/<str:token>/"

urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.match_new, name="new"),
    path("matches/<uuid:public_id>/", views.match_detail, name="detail"),
    path("matches/<uuid:public_id>/record.json", views_records.match_record_json,
         name="record_json"),
    path("import/", views_records.records_import, name="import"),
    path(scorer, views.scorepad_page, name="scorepad"),
    path(scorer + "play/", views.play, name="play"),
    path(scorer + "draw/", views.draw, name="draw"),
    path(scorer + "pass/", views.pass_turn, name="pass"),
    path(scorer + "call/", views.call, name="call"),
    path(scorer + "settle/", views.settle, name="settle"),
    path(scorer + "round/", views.round_next, name="round"),
    path(scorer + "undo/", views.undo, name="undo"),
]
