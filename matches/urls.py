"""URLs of the matches app, mounted at the site root by scorekeeper/urls.py."""

from django.urls import path

from matches.clubs import views as club_views
from matches.history import views as history_views
from matches.leagues import views as league_views
from matches.records import views as views_records
from matches.scoring.views import lifecycle as management_views
from matches.scoring.views import play as views

app_name = "matches"

scorer = "matches/<uuid:public_id>/score/"

urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.match_new, name="new"),
    path("history/", history_views.history, name="history_list"),
    path("history.csv", history_views.history_csv, name="history_csv"),
    path("matches/<uuid:public_id>/", views.match_detail, name="detail"),
    path("matches/<uuid:public_id>/record.json", views_records.match_record_json,
         name="record_json"),
    path("import/", views_records.records_import, name="import"),
    path("import/<uuid:public_id>/", views_records.record_import_progress,
         name="import_progress"),
    path("clubs/", club_views.club_list, name="clubs"),
    path("clubs/new/", club_views.club_new, name="club_new"),
    path("clubs/<slug:slug>/", club_views.club_page, name="club"),
    path("clubs/<slug:slug>/invite/", club_views.club_invite, name="club_invite"),
    path("clubs/<slug:slug>/settings/", club_views.club_settings, name="club_settings"),
    path("clubs/<slug:slug>/matches.jsonl", club_views.club_matches_jsonl,
         name="club_matches_jsonl"),
    path("clubs/<slug:slug>/seasons/<slug:season>/matches.jsonl",
         club_views.club_matches_jsonl, name="season_matches_jsonl"),
    path("clubs/<slug:slug>/ratings/<slug:game>/", club_views.club_ratings,
         name="club_ratings"),
    path("clubs/<slug:slug>/join/<str:token>/", club_views.club_join, name="club_join"),
    path("clubs/<slug:slug>/members/<int:pk>/role/", club_views.member_role,
         name="club_member_role"),
    path("clubs/<slug:slug>/players/add/", club_views.player_add, name="club_player_add"),
    path("clubs/<slug:slug>/players/<int:pk>/", club_views.player_page, name="club_player"),
    path("clubs/<slug:slug>/players/<int:pk>/claim/", club_views.player_claim,
         name="club_player_claim"),
    path("clubs/<slug:slug>/seasons/new/", league_views.season_new, name="season_new"),
    path("clubs/<slug:slug>/seasons/<slug:season>/", league_views.season_page, name="season"),
    path("clubs/<slug:slug>/seasons/<slug:season>/entrants/", league_views.entrant_add,
         name="season_entrant_add"),
    path("clubs/<slug:slug>/seasons/<slug:season>/entrants/change/",
         league_views.entrant_change, name="season_entrant_change"),
    path("clubs/<slug:slug>/seasons/<slug:season>/generate/", league_views.fixtures_generate,
         name="season_generate"),
    path("clubs/<slug:slug>/seasons/<slug:season>/adjust/", league_views.adjustment_add,
         name="season_adjust"),
    path("clubs/<slug:slug>/seasons/<slug:season>/import-csv/", league_views.fixtures_csv,
         name="season_import_csv"),
    path("clubs/<slug:slug>/seasons/<slug:season>/lock/", league_views.season_lock,
         name="season_lock"),
    path("clubs/<slug:slug>/seasons/<slug:season>/export/<str:what>",
         league_views.season_export, name="season_export"),
    path("clubs/<slug:slug>/seasons/<slug:season>/fixtures/<int:pk>/",
         league_views.fixture_page, name="fixture"),
    path("clubs/<slug:slug>/seasons/<slug:season>/fixtures/<int:pk>/<slug:action>/",
         league_views.fixture_action, name="fixture_action"),
    path("matches/<uuid:public_id>/join/<str:token>/", views.join, name="join"),
    path(scorer, views.scorepad_page, name="scorepad"),
    path(scorer + "claim/", views.claim, name="claim"),
    path(scorer + "history/", views.history, name="history"),
    path(scorer + "restore/", views.restore, name="restore"),
    path(scorer + "scorers/", views.scorers, name="scorers"),
    path(scorer + "scorers/name/", views.scorers_name, name="scorers_name"),
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
    path(scorer + "abandon/", management_views.abandon, name="abandon"),
    path(scorer + "resume/", management_views.resume, name="resume"),
    path(scorer + "delete/", management_views.delete, name="delete"),
    path(scorer + "rename/", management_views.rename, name="rename"),
    path(scorer + "rematch/", management_views.rematch, name="rematch"),
    # links shared before the scorer's secret left the address bar still join; last, so
    # that the scorepad's own addresses above are never read as a secret
    path(scorer + "<str:token>/", views.join, name="join_legacy"),
]
