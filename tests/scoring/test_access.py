"""matches.scoring.access: each scorepad write for each kind of person. A browser that
holds a scorer grant scores; one without is refused as the scorepad refuses it (403),
or, for a members-only club's match it may not read, told the match is not there (404);
the account that started the match may still restore or delete it."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches import rules
from matches.clubs.services import club_create
from matches.models import Change, Match, Membership, ScorerGrant, Visibility
from matches.scoring.selectors.play import match_engine
from matches.scoring.services.lifecycle import matches_adopt
from matches.scoring.services.play import event_record, grant_create
from tests.support.helpers import T, drawn_key

pytestmark = pytest.mark.django_db

WRITES = ["place", "draw", "pass", "undo", "restore", "phone name", "rotate link", "revoke",
          "abandon", "delete"]
PEOPLE = ["starting phone", "joined phone", "creator's account", "club member", "outsider"]
BY_ACCOUNT = ("restore", "delete")  # the creator's account's right, without a grant
BONEYARD_DRAWN = 24  # all the boneyard of two hands of two


def expected(who: str, write: str, club: str) -> tuple[int, bool]:
    """The status ``who`` gets for ``write``, and whether the match changed."""
    if who == "starting phone":
        return 302, True
    if who == "joined phone":
        if write == "restore":  # the service refuses it: said on the history page
            return 302, False
        if write == "delete":
            return 403, False
        return 302, True
    if who == "creator's account":
        return (302, True) if write in BY_ACCOUNT else (403, False)
    if who == "outsider" and club == "members only":
        return 404, False
    return 403, False


def the_match_of(starter: Client) -> tuple[Match, int]:
    """A match started on ``starter`` (Olena opens round 1), and its version then."""
    response = starter.post(reverse("matches:new"), {
        "creation_key": drawn_key(starter), "game": "all-fives", "hand_size": "2",
        "starter": "0", "mode": "tracked", "player_0": "Olena", "player_1": "Taras"})
    assert response.status_code == 302
    match = Match.objects.get()
    return match, match.version


def tap(match: Match) -> dict[str, Any]:
    """What a page drawn now sends: its version, a fresh key, the seat to play."""
    match.refresh_from_db()
    fields: dict[str, Any] = {"version": match.version, "key": str(uuid.uuid4())}
    rnd = match_engine(match).current_round
    if rnd is not None and rnd.turn is not None:
        fields["seat"] = rnd.turn
    return fields


def state(match_pk: int) -> tuple[object, ...]:
    return (list(Match.objects.filter(pk=match_pk).values_list("version", "status",
                                                              "scorer_token")),
            list(ScorerGrant.objects.filter(match=match_pk).order_by("pk")
                 .values_list("name", "revoked_at")),
            Change.objects.filter(match=match_pk).count())


@pytest.mark.parametrize("club", ["members only", "none"])
@pytest.mark.parametrize("write", WRITES)
@pytest.mark.parametrize("who", PEOPLE)
def test_each_scorepad_write_for_each_kind_of_person(django_user_model, who, write, club):
    creator, owner, member, outsider = (django_user_model.objects.create_user(name)
                                        for name in ("creator", "owner", "member", "outsider"))
    starter = Client()
    starter.force_login(creator)
    match, started = the_match_of(starter)
    if club == "members only":
        oak = club_create(name="Royal Oak", by=owner, visibility=Visibility.MEMBERS)
        Membership.objects.create(club=oak, user=member, role="member")
        # the club's game's starter is the club's (one who left it has no right: the
        # leagues' test_a_member_who_leaves_no_longer_scores_or_deletes_the_games...)
        Membership.objects.create(club=oak, user=creator, role="member")
        Match.objects.filter(pk=match.pk).update(club=oak)
    if write != "place":  # something to take back, restore or draw after
        event_record(match=match, action=rules.Play(0, T("5-5")))
    if write == "pass":  # Taras draws what the boneyard gives: then he may pass
        event_record(match=match, action=rules.Draw(1, BONEYARD_DRAWN))
    other = grant_create(match=match, phone="Android phone", name="Table 2")
    client = starter if who == "starting phone" else Client()
    if who == "joined phone":
        assert client.post(match.get_join_url()).status_code == 302
    elif who != "starting phone":
        client.force_login(_user(who, creator=creator, member=member, outsider=outsider))
    before = state(match.pk)

    response = client.post(*_request(match, write, started=started, other=other))

    assert (response.status_code, state(match.pk) != before) == expected(who, write, club)


def _user(who: str, **people: User) -> User:
    return {"creator's account": people["creator"], "club member": people["member"],
            "outsider": people["outsider"]}[who]


def _request(match: Match, write: str, *, started: int,
             other: ScorerGrant) -> tuple[str, dict[str, Any]]:
    """The address and form of ``write`` on ``match``, as its page sends them."""
    def at(name: str, **kwargs: Any) -> str:
        return reverse(f"matches:{name}", kwargs={"public_id": match.public_id, **kwargs})

    if write == "place":
        return at("play"), {**tap(match), "tile": "5-5"}
    if write == "draw":
        return at("draw"), {**tap(match), "tiles": "1"}
    if write == "pass":
        return at("pass"), tap(match)
    if write == "undo":
        return at("undo"), tap(match)
    if write == "restore":
        return at("restore"), {**tap(match), "to_version": started}
    if write == "phone name":
        return at("scorers_name"), {"name": "Table 3"}
    if write == "rotate link":
        return at("scorers_rotate"), {}
    if write == "revoke":
        return at("scorers_revoke", grant_id=other.pk), {}
    if write == "abandon":
        return at("abandon"), tap(match)
    assert write == "delete"
    return at("delete"), {}


def _started_signed_out(client: Client) -> Match:
    response = client.post(reverse("matches:new"), {
        "creation_key": drawn_key(client), "game": "all-fives", "hand_size": "2",
        "starter": "0", "mode": "tracked", "player_0": "Mum", "player_1": "Dad"})
    assert response.status_code == 302
    return Match.objects.latest("pk")


def test_a_phone_that_signs_up_keeps_the_matches_it_started_once_signed_out():
    """A visitor starts a match, then signs up: the match is the new account's, so signing
    out and in again (here or on another phone) still scores it."""
    phone = Client()
    started = _started_signed_out(phone)
    joined_elsewhere = _started_signed_out(Client())
    phone.post(joined_elsewhere.get_join_url())  # another's match, scored by its link
    revoked = _started_signed_out(phone)
    ScorerGrant.objects.filter(match=revoked).update(revoked_at=started.started_at)

    assert phone.post("/accounts/signup/", {
        "username": "tablemum", "email": "", "password1": "domino-table-42",
        "password2": "domino-table-42"}).status_code == 302
    mum = User.objects.get(username="tablemum")
    assert [m.pk for m in Match.objects.filter(created_by=mum)] == [started.pk]
    phone.post("/accounts/logout/")
    another = Client()
    another.force_login(mum)
    page = another.get(started.get_scorer_url())
    assert "Score on this phone" in page.content.decode()


def test_an_account_adopts_no_match_an_account_has_already_nor_one_it_only_joined():
    owner = User.objects.create_user("owner", password="domino-table-42")
    phone = Client()
    phone.force_login(owner)
    theirs = _started_signed_out(phone)
    joined = _started_signed_out(Client())
    guest = User.objects.create_user("guest")
    starting = ScorerGrant.objects.get(match=theirs, is_creator=True)
    by_link = grant_create(match=joined, phone="Android")

    assert matches_adopt(user=guest, grant_ids=[starting.pk, by_link.pk]) == 0
    theirs.refresh_from_db()
    joined.refresh_from_db()
    assert (theirs.created_by, joined.created_by) == (owner, None)
