"""Invitations by e-mail: only the host sees and sends them, a host sends at most
INVITATIONS_PER_DAY a day, an address gets at most one invitation e-mail a day, and the e-mail
carries the host's name and the table's as short plain text that makes no link."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services, tasks
from games.models import Invitation


def _invite(client, table, email: str, capture):
    with capture(execute=True):
        return client.post(reverse("games:table_invite_email", args=[table.pk]), {"email": email},
                           follow=True)


def _flashed(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def _age(rows, hours: int) -> None:
    """Move rows back in time (the window is counted from the rows, not from a clock)."""
    then = timezone.now() - timedelta(hours=hours)
    Invitation.objects.filter(pk__in=[r.pk for r in rows]).update(created_at=then, emailed_at=then)


# --- Who sees and sends them ------------------------------------------------------------------


@pytest.mark.django_db
def test_a_seated_player_who_is_not_the_host_sees_no_invited_address(client, alice, bob, make_table):
    table = make_table(alice, seat_count=3)
    services.invitation_create(table=table, by=alice, email="dave@example.com")
    services.table_join(table=table, user=bob)

    client.force_login(bob)
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    client.force_login(alice)
    host_page = client.get(reverse("games:table", args=[table.pk])).content.decode()

    assert "dave@example.com" not in page
    assert 'id="invite-email"' not in page and 'id="invite-title"' not in page
    assert "dave@example.com" in host_page and 'id="invite-email"' in host_page


@pytest.mark.django_db
def test_a_seated_player_who_is_not_the_host_may_not_invite(
    client, alice, bob, make_table, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    table = make_table(alice, seat_count=3)
    services.table_join(table=table, user=bob)
    client.force_login(bob)

    response = _invite(client, table, "eve@example.com", django_capture_on_commit_callbacks)

    assert _flashed(response) == ["Only the host may invite"]
    assert not table.invitations.exists()
    assert mailoutbox == []


@pytest.mark.django_db
def test_an_invitation_to_a_table_that_has_started_is_refused(alice, bob, make_game, mailoutbox):
    game = make_game(alice, bob)

    with pytest.raises(services.GameError, match="no longer open"):
        services.invitation_create(table=game.table, by=alice, email="eve@example.com")
    assert not game.table.invitations.exists()


# --- How many -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_host_sends_at_most_the_days_limit_of_invitations(
    client, alice, make_table, mailoutbox, celery_eager, django_capture_on_commit_callbacks, settings
):
    # The requests' own rate limit (per minute, config.ratelimit) is another matter.
    settings.RATE_LIMIT_INVITATIONS = "1000/m"
    limit = services.INVITATIONS_PER_DAY
    first, second = make_table(alice, name="One"), make_table(alice, name="Two")
    client.force_login(alice)
    # The limit counts the host's invitations at all their tables.
    for i in range(limit):
        _invite(client, first if i % 2 else second, f"friend{i}@example.com",
                django_capture_on_commit_callbacks)
    assert len(mailoutbox) == limit

    response = _invite(client, first, "one-more@example.com", django_capture_on_commit_callbacks)

    assert _flashed(response) == [f"You may send at most {limit} invitations a day; try again later"]
    assert not Invitation.objects.filter(email="one-more@example.com").exists()
    assert len(mailoutbox) == limit

    # A day later the oldest ones no longer count.
    _age(Invitation.objects.order_by("pk")[:2], hours=25)
    response = _invite(client, first, "one-more@example.com", django_capture_on_commit_callbacks)
    assert _flashed(response) == ["Invitation sent to one-more@example.com."]
    assert mailoutbox[-1].to == ["one-more@example.com"]


@pytest.mark.django_db
def test_the_same_address_at_the_same_table_gets_one_email(
    client, alice, make_table, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    table = make_table(alice)
    client.force_login(alice)

    _invite(client, table, "dave@example.com", django_capture_on_commit_callbacks)
    response = _invite(client, table, "Dave@Example.com", django_capture_on_commit_callbacks)

    assert _flashed(response) == [
        "dave@example.com is already invited to this table: no second e-mail was sent."]
    assert [m.to for m in mailoutbox] == [["dave@example.com"]]
    assert table.invitations.count() == 1


@pytest.mark.django_db
def test_an_address_gets_one_invitation_email_a_day_from_any_table(
    client, alice, bob, make_table, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    first = make_table(alice, name="Alice's", is_private=True)
    second = make_table(bob, name="Bob's", is_private=True)
    client.force_login(alice)
    _invite(client, first, "dave@example.com", django_capture_on_commit_callbacks)
    client.force_login(bob)

    response = _invite(client, second, "dave@example.com", django_capture_on_commit_callbacks)

    assert [m.to for m in mailoutbox] == [["dave@example.com"]]
    assert "no e-mail was sent" in _flashed(response)[0]
    # The address may still come in: its account sees the private table.
    invitation = second.invitations.get()
    assert invitation.email == "dave@example.com" and invitation.emailed_at is None

    # A day after the e-mail, another invitation sends one again.
    _age(Invitation.objects.filter(table=first), hours=25)
    third = make_table(bob, name="Bob's again")
    response = _invite(client, third, "dave@example.com", django_capture_on_commit_callbacks)
    assert _flashed(response) == ["Invitation sent to dave@example.com."]
    assert len(mailoutbox) == 2


# --- What the e-mail says -----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_email_names_the_host_and_table_in_short_plain_text_without_links(
    alice, make_table, mailoutbox
):
    alice.display_name = "www.win-big.example"
    alice.username = "a" * 150  # an account with no display name shows its (long) username
    alice.save()
    table = make_table(alice, name="Claim \u202eyour prize at http://evil.example/win\n\nNOW")
    invited = services.invitation_create(table=table, by=alice, email="dave@example.com")

    tasks.send_invitation(invited.invitation.pk)

    mail = mailoutbox[0]
    html_body = mail.alternatives[0][0]
    for text in (mail.subject, mail.body, html_body):
        assert "win-big.example" not in text and "www.win" not in text
        assert "http://evil" not in text and "evil.example" not in text
        assert "\u202e" not in text
    assert "www[.]win-big[.]example invites you" in mail.subject
    assert "“Claim your prize at http[://]evil[.]example/win NOW”" in mail.body
    assert html.escape("“Claim your prize at http[://]evil[.]example/win NOW”") in html_body
    assert html_body.count("<a ") == 1  # the invitation link, and nothing else

    alice.display_name = ""
    alice.save()
    mailoutbox.clear()
    tasks.send_invitation(invited.invitation.pk)
    assert f"{'a' * 39}… invites you" in mailoutbox[0].subject
