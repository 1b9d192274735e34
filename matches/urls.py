"""URLs of the matches app, mounted at the site root by scorekeeper/urls.py: each
concern's pages, by the module that serves them."""

from django.urls import path

from matches.clubs import views as clubs
from matches.history import views as history
from matches.leagues import views as leagues
from matches.records import views as records
from matches.scoring.views import lifecycle, play

app_name = "matches"

scorer = "matches/<uuid:public_id>/score/"

urlpatterns = [
    path("", play.home, name="home"),
    path("new/", play.match_new, name="new"),
    path("history/", history.history, name="history_list"),
    path("history.csv", history.history_csv, name="history_csv"),
    path("matches/<uuid:public_id>/", play.match_detail, name="detail"),
    path("matches/<uuid:public_id>/record.json", records.match_record_json,
         name="record_json"),
    path("import/", records.records_import, name="import"),
    path("import/<uuid:public_id>/", records.record_import_progress,
         name="import_progress"),
    path("clubs/", clubs.club_list, name="clubs"),
    path("clubs/new/", clubs.club_new, name="club_new"),
    path("clubs/<slug:slug>/", clubs.club_page, name="club"),
    path("clubs/<slug:slug>/invite/", clubs.club_invite, name="club_invite"),
    path("clubs/<slug:slug>/settings/", clubs.club_settings, name="club_settings"),
    path("clubs/<slug:slug>/matches.jsonl", records.club_matches_jsonl,
         name="club_matches_jsonl"),
    path("clubs/<slug:slug>/seasons/<slug:season>/matches.jsonl",
         records.club_matches_jsonl, name="season_matches_jsonl"),
    path("clubs/<slug:slug>/ratings/<slug:game>/", history.club_ratings,
         name="club_ratings"),
    path("clubs/<slug:slug>/join/<str:token>/", clubs.club_join, name="club_join"),
    path("clubs/<slug:slug>/members/<int:pk>/role/", clubs.member_role,
         name="club_member_role"),
    path("clubs/<slug:slug>/players/add/", clubs.player_add, name="club_player_add"),
    path("clubs/<slug:slug>/players/<int:pk>/", history.player_page, name="club_player"),
    path("clubs/<slug:slug>/players/<int:pk>/claim/", clubs.player_claim,
         name="club_player_claim"),
    path("clubs/<slug:slug>/seasons/new/", leagues.season_new, name="season_new"),
    path("clubs/<slug:slug>/seasons/<slug:season>/", leagues.season_page, name="season"),
    path("clubs/<slug:slug>/seasons/<slug:season>/entrants/", leagues.entrant_add,
         name="season_entrant_add"),
    path("clubs/<slug:slug>/seasons/<slug:season>/entrants/change/",
         leagues.entrant_change, name="season_entrant_change"),
    path("clubs/<slug:slug>/seasons/<slug:season>/generate/", leagues.fixtures_generate,
         name="season_generate"),
    path("clubs/<slug:slug>/seasons/<slug:season>/adjust/", leagues.adjustment_add,
         name="season_adjust"),
    path("clubs/<slug:slug>/seasons/<slug:season>/import-csv/", leagues.fixtures_csv,
         name="season_import_csv"),
    path("clubs/<slug:slug>/seasons/<slug:season>/lock/", leagues.season_lock,
         name="season_lock"),
    path("clubs/<slug:slug>/seasons/<slug:season>/nights-start/", leagues.season_nights_start,
         name="season_nights_start"),
    path("clubs/<slug:slug>/seasons/<slug:season>/export/<str:what>",
         leagues.season_export, name="season_export"),
    path("clubs/<slug:slug>/seasons/<slug:season>/divisions/<int:division>/fixtures.ics",
         leagues.division_calendar, name="division_calendar"),
    path("clubs/<slug:slug>/seasons/<slug:season>/entrants/<int:entrant>/fixtures.ics",
         leagues.entrant_calendar, name="entrant_calendar"),
    path("clubs/<slug:slug>/seasons/<slug:season>/fixtures/<int:pk>/",
         leagues.fixture_page, name="fixture"),
    path("clubs/<slug:slug>/seasons/<slug:season>/fixtures/<int:pk>/<slug:action>/",
         leagues.fixture_action, name="fixture_action"),
    path("matches/<uuid:public_id>/join/<str:token>/", play.join, name="join"),
    path(scorer, play.scorepad_page, name="scorepad"),
    path(scorer + "claim/", play.claim, name="claim"),
    path(scorer + "history/", play.history, name="history"),
    path(scorer + "restore/", play.restore, name="restore"),
    path(scorer + "scorers/", play.scorers, name="scorers"),
    path(scorer + "scorers/name/", play.scorers_name, name="scorers_name"),
    path(scorer + "scorers/rotate/", play.scorers_rotate, name="scorers_rotate"),
    path(scorer + "scorers/<int:grant_id>/revoke/", play.scorers_revoke,
         name="scorers_revoke"),
    path(scorer + "play/", play.play, name="play"),
    path(scorer + "draw/", play.draw, name="draw"),
    path(scorer + "pass/", play.pass_turn, name="pass"),
    path(scorer + "call/", play.call, name="call"),
    path(scorer + "settle/", play.settle, name="settle"),
    path(scorer + "round/", play.round_next, name="round"),
    path(scorer + "undo/", play.undo, name="undo"),
    path(scorer + "abandon/", lifecycle.abandon, name="abandon"),
    path(scorer + "resume/", lifecycle.resume, name="resume"),
    path(scorer + "delete/", lifecycle.delete, name="delete"),
    path(scorer + "rename/", lifecycle.rename, name="rename"),
    path(scorer + "rematch/", lifecycle.rematch, name="rematch"),
    # links shared before the scorer's secret left the address bar still join; last, so
    # that the scorepad's own addresses above are never read as a secret
    path(scorer + "<str:token>/", play.join, name="join_legacy"),
]
