"""Admin for every model: filters and search; events are read-only (append-only log)."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from matches import services
from matches.models import (
    Change,
    DeletedMatch,
    Event,
    Match,
    Player,
    Round,
    RoundSide,
    ScorerGrant,
    Seat,
    Side,
)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ("position", "name", "player", "side")
    fields = readonly_fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class SideInline(admin.TabularInline):
    model = Side
    extra = 0
    readonly_fields = ("index", "score")
    fields = readonly_fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name"]
    date_hierarchy = "created_at"


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "game", "player_count", "status", "winner_side", "started_at",
                    "finished_at"]
    list_filter = ["game", "status", "player_count", "started_at"]
    search_fields = ["seats__name", "public_id"]
    date_hierarchy = "started_at"
    # what the events decide (and what they were replayed under) is not edited here:
    # a changed game or option would no longer match the stored events and scores
    readonly_fields = ["public_id", "game", "options", "player_count", "target", "status",
                       "winner_side", "started_at", "finished_at"]
    inlines = [SideInline, SeatInline]

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Match],
                           search_term: str) -> tuple[QuerySet[Match], bool]:
        results, _ = super().get_search_results(request, queryset, search_term)
        return results.distinct(), False

    # deleting goes through the service, so the ratings a match fed are rebuilt
    def delete_model(self, request: HttpRequest, obj: Match) -> None:
        services.match_delete(match=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        for match in queryset:
            services.match_delete(match=match)


@admin.register(Side)
class SideAdmin(admin.ModelAdmin):
    list_display = ["match", "index", "score"]
    list_filter = ["match__game"]
    search_fields = ["seats__name"]
    readonly_fields = ["score"]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["match", "position", "name", "player", "side"]
    list_filter = ["match__game"]
    search_fields = ["name"]
    list_select_related = ["match", "player", "side"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "mode", "starter", "end", "finisher", "settled"]
    list_filter = ["mode", "end", "settled", "match__game"]
    search_fields = ["match__seats__name"]
    list_select_related = ["match"]

    # rounds change only through the scorepad's services (replayed through the rules)
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(RoundSide)
class RoundSideAdmin(admin.ModelAdmin):
    list_display = ["round", "side", "placements", "settlement", "score"]
    list_filter = ["round__match__game"]
    readonly_fields = ["round", "side", "placements", "settlement", "score"]


class ShownNeverEdited(admin.ModelAdmin):
    """History kept as it was written: listed, never added, edited or deleted here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Event)
class EventAdmin(ShownNeverEdited):
    """Events are the match's history: shown, never edited (use undo on the scorepad)."""

    list_display = ["match", "number", "round", "seat", "kind", "tile", "at", "ends", "end_sum",
                    "points"]
    list_filter = ["kind", "match__game"]
    search_fields = ["tile", "match__seats__name"]
    list_select_related = ["match", "round"]


@admin.register(Change)
class ChangeAdmin(ShownNeverEdited):
    """A match's history of writes: shown, never edited (restore from the history page)."""

    list_display = ["match", "version", "kind", "description", "grant", "user", "made_at"]
    list_filter = ["kind", "match__game"]
    search_fields = ["description", "match__seats__name"]
    list_select_related = ["match", "grant", "user"]


@admin.register(ScorerGrant)
class ScorerGrantAdmin(admin.ModelAdmin):
    """Phones that may score a match; revoke one by setting "revoked"."""

    list_display = ["match", "label", "is_creator", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["is_creator"]
    list_select_related = ["match"]
    readonly_fields = ["match", "label", "is_creator", "created_at", "last_used_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(DeletedMatch)
class DeletedMatchAdmin(ShownNeverEdited):
    """Matches their scorers deleted, each kept as its match record: read only. To bring
    one back, download its record and import it ("Import match records")."""

    list_display = ["names", "game", "deleted_at", "grant_label", "user", "public_id"]
    list_filter = ["game", "deleted_at"]
    search_fields = ["names", "public_id"]
    date_hierarchy = "deleted_at"
    list_select_related = ["user"]
    readonly_fields = ["public_id", "game", "names", "record", "deleted_at", "grant_label",
                       "user"]
