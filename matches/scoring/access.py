"""Who may watch a match and who scores it. Scoring needs a scorer grant held in this
browser's session (the phone that started the match, or one that took the shared
scorer's link); a members-only club's match is a 404 to anyone but the club's members
and the match's scorers, so it does not admit it exists; anyone else without a grant is
told how to get one (403).

Scorer pages take their match and grant from :func:`scorer_required` (a grant, or the
refusal), :func:`scorer_or_restorer` (a grant, or the account's right to restore) or
:func:`scorer_optional` (the grant if held: the page decides)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import wraps
from typing import Concatenate
from uuid import UUID

from django.contrib.auth import user_logged_in
from django.contrib.auth.models import User
from django.dispatch import receiver
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from matches.clubs.selectors import club_readable
from matches.scoring.forms.play import PhoneNameForm
from matches.scoring.models import Match, MatchStatus, ScorerGrant
from matches.scoring.selectors import play as scoring_selectors
from matches.scoring.services.lifecycle import matches_adopt

GRANTS_KEY = "scorer_grants"  # session: {public id: scorer grant id} held by this browser


def match_for_watcher(request: HttpRequest, public_id: UUID) -> Match:
    """The match, if this browser may watch it: a members-only club's game is a 404 to
    anyone but the club's members and the match's scorers, so it does not admit it exists.
    Every read of one match (its page, its record) comes through here."""
    match = scoring_selectors.match_by_public_id(public_id=public_id)
    if match.club_id is not None and held_grant(request, match) is None \
            and club_hides(request, match.club_id):
        raise Http404("No such match.")
    return match


def club_hides(request: HttpRequest, club_id: int) -> bool:
    """The club (a match's) is one this browser's user may not read (members only)."""
    return not club_readable(club_id=club_id, user=request.user)


def held_grant(request: HttpRequest, match: Match) -> ScorerGrant | None:
    """This browser's live grant for ``match``, if it holds one."""
    return scoring_selectors.scorer_grant(match, held_grant_id(request, match.public_id))


def held_grant_id(request: HttpRequest, public_id: UUID) -> object:
    """The grant this browser's session holds for the match ``public_id``, if any."""
    return request.session.get(GRANTS_KEY, {}).get(str(public_id))


def hold_grant(request: HttpRequest, grant: ScorerGrant) -> None:
    """This browser scores ``grant``'s match from now on (kept in its session)."""
    grants = dict(request.session.get(GRANTS_KEY, {}))
    grants[str(grant.match.public_id)] = grant.pk
    if len(grants) > 200:  # the oldest first: dicts keep insertion order
        grants = dict(list(grants.items())[-200:])
    request.session[GRANTS_KEY] = grants


def scorer_and_phone(request: HttpRequest, public_id: UUID) -> tuple[Match, ScorerGrant | None]:
    """The match and this browser's live grant for it: one query when it holds one."""
    grant = scoring_selectors.scorer_grant_with_match(public_id, held_grant_id(request, public_id))
    if grant is not None:
        return grant.match, grant
    return scoring_selectors.match_by_public_id(public_id=public_id), None


def not_scorer_answer(request: HttpRequest, match: Match, *,
                      form: PhoneNameForm | None = None) -> HttpResponse:
    """This browser holds no grant: the match's creator, signed in, may take one here (a
    match they imported, or started on a phone that has signed out since: the account's
    right, as it may also restore or delete the match, members-only club or not); anyone
    else is told how to get one, and where to watch instead. Others who may not watch a
    members-only club's match get a 404, as on its public page. ``form``: the creator's
    phone name, refused."""
    creator = is_creator(request, match)
    if not creator and match.club_id is not None and club_hides(request, match.club_id):
        raise Http404("No such match.")
    return render(request, "matches/join.html", {
        "match": match, "state": "creator" if creator else "not_scorer",
        "names": scoring_selectors.match_names(match) if creator else [],
        "form": form or PhoneNameForm()}, status=403)


def is_creator(request: HttpRequest, match: Match) -> bool:
    """This browser's user started the match (and is still its club's member)."""
    return scoring_selectors.started_by(match, request.user)


def scorer_optional[Request: HttpRequest, **P](
        view: Callable[Concatenate[Request, Match, ScorerGrant | None, P], HttpResponse],
) -> Callable[Concatenate[Request, UUID, P], HttpResponse]:
    """The view gets the match ``public_id`` and this browser's grant for it, or None."""
    @wraps(view)
    def with_phone(request: Request, public_id: UUID, *args: P.args,
                   **kwargs: P.kwargs) -> HttpResponse:
        match, grant = scorer_and_phone(request, public_id)
        return view(request, match, grant, *args, **kwargs)
    return with_phone


def scorer_required[Request: HttpRequest, **P](
        view: Callable[Concatenate[Request, Match, ScorerGrant, P], HttpResponse],
) -> Callable[Concatenate[Request, UUID, P], HttpResponse]:
    """The view gets the match ``public_id`` and this browser's grant for it; a browser
    without one gets :func:`not_scorer_answer` instead."""
    @wraps(view)
    def for_scorer(request: Request, public_id: UUID, *args: P.args,
                   **kwargs: P.kwargs) -> HttpResponse:
        match, grant = scorer_and_phone(request, public_id)
        if grant is None:
            return not_scorer_answer(request, match)
        return view(request, match, grant, *args, **kwargs)
    return for_scorer


def scorer_or_restorer[Request: HttpRequest, **P](
        view: Callable[Concatenate[Request, Match, ScorerGrant | None, P], HttpResponse],
) -> Callable[Concatenate[Request, UUID, P], HttpResponse]:
    """As :func:`scorer_required`, but the account that may restore the match (its
    creator, a site admin, an admin of its league's club) needs no grant."""
    @wraps(view)
    def for_restorer(request: Request, public_id: UUID, *args: P.args,
                     **kwargs: P.kwargs) -> HttpResponse:
        match, grant = scorer_and_phone(request, public_id)
        if grant is None and not scoring_selectors.can_restore(match, grant=None,
                                                               user=request.user):
            return not_scorer_answer(request, match)
        return view(request, match, grant, *args, **kwargs)
    return for_restorer


def scorable_matches(request: HttpRequest, matches: Sequence[Match]) -> set[int]:
    """Which of ``matches`` (their pks) this browser may score now, so a page links it to
    their scorepads rather than to the watchers' pages: a match not finished, for which
    it holds a live grant, or that its signed-in user started (the scorepad lets them
    take a grant: :func:`not_scorer_answer`). One query, whatever the number of matches."""
    playing = [match for match in matches if match.status != MatchStatus.FINISHED]
    if not playing:
        return set()
    mine = {match.pk for match in playing if is_creator(request, match)}
    held = request.session.get(GRANTS_KEY, {})
    grant_ids = {match.pk: held.get(str(match.public_id)) for match in playing
                 if match.pk not in mine}
    return mine | scoring_selectors.matches_with_live_grants(
        {pk: grant for pk, grant in grant_ids.items() if isinstance(grant, int)})


@receiver(user_logged_in)
def phones_matches_adopted(sender: object, *, request: HttpRequest | None, user: User,
                           **kwargs: object) -> None:
    """Signed up or in on a phone: the matches it started with no one signed in become
    the account's (:func:`~matches.scoring.services.lifecycle.matches_adopt`), so signing
    out does not lose them."""
    session = getattr(request, "session", None)
    held = session.get(GRANTS_KEY, {}) if session is not None else {}
    grant_ids = [grant for grant in held.values() if isinstance(grant, int)]
    if grant_ids:
        matches_adopt(user=user, grant_ids=grant_ids)
