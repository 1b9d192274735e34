"""Admin for every model: filters and search. What the site's services write and check
is read-only here: matches and their events and changes, players, scorer grants, and
what the club's pages keep a log of (seasons, fixtures, ratings, imports). The writes
offered on them go through their services (revoking phones; deleting a match, never a
closed league game's). Clubs are started on the site (``club_create``), never
added here; a club's name, visibility and members' roles can be edited (roles on the
club's page, which keeps an owner), so a superuser can repair a club whose owner has
left."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from matches import rules
from matches.clubs.services import LAST_OWNER, membership_remove
from matches.models import (
    Adjustment,
    Change,
    Club,
    Cup,
    CupLog,
    CupRound,
    CupTie,
    DeletedMatch,
    Division,
    Entrant,
    Event,
    Fixture,
    FixtureChange,
    FixtureCorrection,
    FixtureGame,
    FixtureNotice,
    Match,
    Membership,
    NoticeSettings,
    Player,
    Rating,
    RatingStep,
    RecordImport,
    RecordImportChunk,
    RecordImportFile,
    RecordImportLine,
    Role,
    Round,
    RoundSide,
    ScorerGrant,
    Season,
    Seat,
    Side,
)
from matches.scoring.services.closure import ScorepadClosed, scorepad_closure
from matches.scoring.services.lifecycle import match_delete, match_delete_recorded
from matches.scoring.services.play import grant_revoke


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


class ShownNeverEdited(admin.ModelAdmin):
    """Kept as the site's services wrote it: listed, never added, edited or deleted here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(ShownNeverEdited):
    """Added by a club's captains (``player_add``, which keeps each name the club's
    only one), claimed by its members (``player_claim``, which checks that the member
    belongs to the club and is no other player): shown here, never written."""

    list_display = ["name", "club", "user", "created_at"]
    list_filter = ["club"]
    search_fields = ["name", "club__name", "user__username"]
    date_hierarchy = "created_at"
    list_select_related = ["club", "user"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    """Shown, never added or edited: its club decides who may see it, its creator who
    may restore it, and its events the rest. Deleted through the service (below), which
    rebuilds the ratings and keeps its record."""

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

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        """Not a closed league game: its fixture's result holds its score. (A selection
        holding one is refused whole by the "Delete selected" action, as Django refuses
        any object the user may not delete.)"""
        if isinstance(obj, Match) and scorepad_closure(obj) is not None:
            return False
        return super().has_delete_permission(request, obj)

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Match],
                           search_term: str) -> tuple[QuerySet[Match], bool]:
        results, _ = super().get_search_results(request, queryset, search_term)
        return results.distinct(), False

    # deleting goes through the service, so the ratings a match fed are rebuilt and its
    # record is kept among the deleted matches (to be taken back by a record import)
    def delete_model(self, request: HttpRequest, obj: Match) -> None:
        self._delete(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        for match in queryset:
            self._delete(request, match)

    @staticmethod
    def _delete(request: HttpRequest, match: Match) -> None:
        user = request.user if isinstance(request.user, User) else None
        try:
            match_delete_recorded(match=match, user=user)
        except ScorepadClosed:  # (has_delete_permission offers none)
            raise
        except rules.RulesError:  # broken by hand (the reason to delete it): no record
            match_delete(match=match)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> tuple[Any, ...]:
        """A match's rows (events, changes…) go with it, through the service: the rows'
        own pages never delete them (:class:`ShownNeverEdited`), which must not forbid
        deleting the match; any other permission still counts."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        history = {str(model._meta.verbose_name) for model, model_admin
                   in self.admin_site._registry.items()
                   if isinstance(model_admin, ShownNeverEdited)}
        return deleted, counts, set(perms_needed) - history, protected


# A match's seats, sides and rounds follow from its events (the rules replay them); a
# seat renamed or a side deleted here would leave a match no page or backup can read.
# They are shown, and changed only through the scorepad's services.


@admin.register(Side)
class SideAdmin(ShownNeverEdited):
    list_display = ["match", "index", "score"]
    list_filter = ["match__game"]
    search_fields = ["seats__name"]
    list_select_related = ["match"]


@admin.register(Seat)
class SeatAdmin(ShownNeverEdited):
    list_display = ["match", "position", "name", "player", "side"]
    list_filter = ["match__game"]
    search_fields = ["name"]
    list_select_related = ["match", "player", "side"]


@admin.register(Round)
class RoundAdmin(ShownNeverEdited):
    list_display = ["match", "number", "mode", "starter", "end", "finisher", "settled"]
    list_filter = ["mode", "end", "settled", "match__game"]
    search_fields = ["match__seats__name"]
    list_select_related = ["match"]


@admin.register(RoundSide)
class RoundSideAdmin(ShownNeverEdited):
    list_display = ["round", "side", "placements", "settlement", "score"]
    list_filter = ["round__match__game"]


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
class ScorerGrantAdmin(ShownNeverEdited):
    """Phones that may score a match: shown, and revoked with the "Revoke the selected
    phones" action (``grant_revoke``: a revoked phone stays revoked, and the
    changes it made keep naming it). Named on the match's scorers page."""

    list_display = ["match", "label", "name", "is_creator", "created_at", "last_used_at",
                    "revoked_at"]
    list_filter = ["is_creator"]
    list_select_related = ["match"]
    actions = ["revoke_phones"]

    def has_revoke_permission(self, request: HttpRequest) -> bool:
        """Whoever may change grants (a superuser) may revoke them, the one change."""
        return request.user.has_perm("matches.change_scorergrant")

    @admin.action(description=_("Revoke the selected phones"), permissions=["revoke"])
    def revoke_phones(self, request: HttpRequest,
                      queryset: QuerySet[ScorerGrant]) -> HttpResponse | None:
        revoked = 0
        for grant in queryset:
            revoked += grant.active
            grant_revoke(grant=grant, by=request.user)
        self.message_user(request, ngettext("%(count)d phone revoked.",
                                            "%(count)d phones revoked.",
                                            revoked) % {"count": revoked})
        return None


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


class KeepsAnOwner(BaseInlineFormSet):
    """A club keeps at least one owner, here as on the club's page."""

    def clean(self) -> None:
        super().clean()
        owners = [form for form in self.forms if form.cleaned_data
                  and not form.cleaned_data.get("DELETE")
                  and form.cleaned_data.get("role") == Role.OWNER]
        if not owners:
            raise ValidationError(LAST_OWNER, code="last_owner")


class MembershipInline(admin.TabularInline):
    model = Membership
    formset = KeepsAnOwner
    extra = 0
    fields = ["user", "role", "joined_at"]
    readonly_fields = ["joined_at"]
    raw_id_fields = ["user"]


CLUBS_START_ON_THE_SITE = _(
    "Clubs are started on the site (\"New club\"), which gives each its address and makes "
    "whoever starts it the owner. Here a club's name, visibility and members' roles can "
    "be repaired.")


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """Its name, visibility and members' roles, to repair a club (an owner who left).
    Never added here: a club is started on the site, by ``club_create``, which
    gives it its address (slug) and its first owner. Never deleted here: its seasons,
    fixtures, players and ratings would go with it."""

    list_display = ["name", "slug", "visibility", "created_at", "created_by"]
    list_filter = ["visibility"]
    search_fields = ["name", "slug", "memberships__user__username"]
    readonly_fields = ["slug", "created_at", "created_by", "invite_generation"]
    inlines = [MembershipInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def save_formset(self, request: HttpRequest, form: Any, formset: Any,
                     change: bool) -> None:
        """A member taken out here leaves as on the club's page (``membership_remove``:
        their player unclaimed, their captaincies and their phones' matches ended)."""
        if formset.model is not Membership:
            super().save_formset(request, form, formset, change)
            return
        assert isinstance(request.user, User)  # the admin's pages are staff's only
        kept = formset.save(commit=False)  # deletes nothing: the service does
        for membership in kept:  # first: a new owner in place of one taken out
            membership.save()
        for membership in formset.deleted_objects:
            membership_remove(membership=membership, by=request.user, as_site_admin=True)

    def changelist_view(self, request: HttpRequest,
                        extra_context: dict[str, Any] | None = None) -> HttpResponse:
        # said under the title (templates/admin/matches/club/change_list.html)
        return super().changelist_view(
            request, {"clubs_help": CLUBS_START_ON_THE_SITE, **(extra_context or {})})


@admin.register(Membership)
class MembershipAdmin(ShownNeverEdited):
    """Listed; roles are changed on the club's admin page, which keeps an owner."""

    list_display = ["club", "user", "role", "joined_at"]
    list_filter = ["role"]
    search_fields = ["club__name", "user__username"]
    list_select_related = ["club", "user"]


@admin.register(Season)
class SeasonAdmin(ShownNeverEdited):
    """Changed on the season's page, which checks the scheme with the league rules."""

    list_display = ["name", "club", "kind", "game", "starts_on", "ends_on", "locked"]
    list_filter = ["kind", "game", "locked"]
    search_fields = ["name", "club__name"]
    list_select_related = ["club"]


@admin.register(Division)
class DivisionAdmin(ShownNeverEdited):
    list_display = ["name", "season", "order"]
    search_fields = ["name", "season__name"]
    list_select_related = ["season"]


@admin.register(Entrant)
class EntrantAdmin(ShownNeverEdited):
    list_display = ["name", "division", "kind", "captain"]
    list_filter = ["kind"]
    search_fields = ["name", "division__season__name"]
    list_select_related = ["division", "captain"]


@admin.register(Fixture)
class FixtureAdmin(ShownNeverEdited):
    """Changed on the fixture's page, which logs every change (FixtureChange)."""

    list_display = ["__str__", "division", "week", "date", "status", "home_games",
                    "away_games", "walkover"]
    list_filter = ["status"]
    search_fields = ["home__name", "away__name", "division__season__name"]
    list_select_related = ["division", "home", "away"]


@admin.register(FixtureGame)
class FixtureGameAdmin(ShownNeverEdited):
    list_display = ["fixture", "number", "home_score", "away_score", "match"]
    list_select_related = ["fixture__home", "fixture__away", "match"]


@admin.register(FixtureChange)
class FixtureChangeAdmin(ShownNeverEdited):
    list_display = ["fixture", "kind", "what", "user", "at"]
    list_filter = ["kind"]
    list_select_related = ["fixture__home", "fixture__away", "user"]


@admin.register(FixtureCorrection)
class FixtureCorrectionAdmin(ShownNeverEdited):
    list_display = ["fixture", "reason", "user", "at"]
    list_select_related = ["fixture__home", "fixture__away", "user"]


@admin.register(FixtureNotice)
class FixtureNoticeAdmin(ShownNeverEdited):
    """The schedule's e-mails sent, one per fixture and kind (what keeps them from going
    twice)."""

    list_display = ["fixture", "kind", "sent_at"]
    list_filter = ["kind"]
    list_select_related = ["fixture__home", "fixture__away"]


@admin.register(Cup)
class CupAdmin(ShownNeverEdited):
    """Drawn and run on the cup's page, which asks the cup rules (matches.rules.cup)."""

    list_display = ["season", "draw_method", "draw_timing", "plate", "level_tie",
                    "finals_on"]
    list_filter = ["draw_method", "draw_timing", "plate"]
    list_select_related = ["season__club"]


@admin.register(CupRound)
class CupRoundAdmin(ShownNeverEdited):
    list_display = ["cup", "plate", "number", "date"]
    list_select_related = ["cup__season"]


@admin.register(CupTie)
class CupTieAdmin(ShownNeverEdited):
    """A tie's fixture and the result the cup counts, kept in step by the cups' services
    whenever the fixture moves in its sign-off."""

    list_display = ["cup", "plate", "round", "position", "fixture"]
    list_select_related = ["cup__season", "fixture__home", "fixture__away"]


@admin.register(CupLog)
class CupLogAdmin(ShownNeverEdited):
    list_display = ["cup", "at", "kind", "user", "details"]
    list_filter = ["kind"]
    list_select_related = ["cup__season", "user"]


@admin.register(NoticeSettings)
class NoticeSettingsAdmin(admin.ModelAdmin):
    """Whether each account gets league e-mails, and in which language (its owner sets
    both on the account page)."""

    list_display = ["user", "league_emails", "email_language"]
    list_filter = ["league_emails", "email_language"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]


@admin.register(Adjustment)
class AdjustmentAdmin(ShownNeverEdited):
    list_display = ["entrant", "points", "reason", "made_by", "made_at"]
    search_fields = ["entrant__name", "reason"]
    list_select_related = ["entrant", "made_by"]


@admin.register(Rating)
class RatingAdmin(ShownNeverEdited):
    """Rebuilt from the club's finished matches; never set by hand."""

    list_display = ["player", "club", "game", "ordinal", "mu", "sigma", "matches"]
    list_filter = ["game"]
    search_fields = ["player__name", "club__name"]
    list_select_related = ["player", "club"]


@admin.register(RatingStep)
class RatingStepAdmin(ShownNeverEdited):
    list_display = ["rating", "number", "ordinal", "match"]
    list_select_related = ["rating__player", "match"]


@admin.register(RecordImport)
class RecordImportAdmin(ShownNeverEdited):
    list_display = ["public_id", "created_by", "created_at", "status", "stored", "refused",
                    "duplicates", "leased_by", "leased_until"]
    list_filter = ["status"]
    search_fields = ["created_by__username"]
    list_select_related = ["created_by"]


@admin.register(RecordImportFile)
class RecordImportFileAdmin(ShownNeverEdited):
    list_display = ["record_import", "position", "name", "size"]
    search_fields = ["name"]


@admin.register(RecordImportChunk)
class RecordImportChunkAdmin(ShownNeverEdited):
    list_display = ["file", "number"]
    list_select_related = ["file"]
    exclude = ["data"]  # bytes: the file's name and the piece's number say enough


@admin.register(RecordImportLine)
class RecordImportLineAdmin(ShownNeverEdited):
    list_display = ["record_import", "number", "source", "outcome", "message"]
    list_filter = ["outcome"]
