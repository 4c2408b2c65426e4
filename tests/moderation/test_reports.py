"""Reports and the queue: a player reports a message, a player or a game from the game page;
a moderator filters the queue, claims a report and resolves it with an outcome, acting from it;
blocks keep a player's messages and invitations away."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from moderation import services
from moderation.models import AuditEntry, Block, Report, Sanction

pytestmark = pytest.mark.django_db


def test_a_player_reports_a_message_from_the_chat(client, alice, bob, game, say):
    message = say(bob, "you are an idiot")
    client.force_login(alice)
    panel = client.get(reverse("moderation:chat", args=[game.pk]), HTTP_HX_REQUEST="true").content.decode()
    link = f'{reverse("moderation:report_new")}?message={message.pk}'
    assert link in panel

    form = client.get(link)
    sent = client.post(reverse("moderation:report_new"), {"message": message.pk, "reason": "abuse",
                                                          "text": "He insults me."})

    assert form.status_code == 200 and "you are an idiot" in form.content.decode()
    assert sent.status_code == 302 and sent["Location"] == reverse("games:game", args=[game.pk])
    report = Report.objects.get()
    assert (report.kind, report.reason, report.target, report.game, report.message, report.reporter) == (
        "message", "abuse", bob, game, message, alice)


def test_a_player_reports_a_player_and_a_game(client, alice, bob, game):
    client.force_login(alice)

    client.post(reverse("moderation:report_new"), {"target": bob.pk, "game": game.pk, "reason": "stalling"})
    client.post(reverse("moderation:report_new"), {"game": game.pk, "reason": "cheating"})

    kinds = list(Report.objects.order_by("id").values_list("kind", "target", "game"))
    assert kinds == [("player", bob.pk, game.pk), ("game", None, game.pk)]


@pytest.mark.parametrize("data", [
    {"reason": "abuse"},  # about nothing
    {"reason": "no-such-reason", "target": "BOB"},
    {"reason": "collusion", "target": "BOB"},  # the site's own reason, not a player's
    {"reason": "abuse", "target": "ALICE"},  # oneself
    {"reason": "abuse", "target": "BOB", "text": "x" * 2001},
    {"reason": "abuse", "message": "999999"},
])
def test_bad_reports_are_refused_and_change_nothing(client, alice, bob, data):
    client.force_login(alice)
    data = {k: {"BOB": bob.pk, "ALICE": alice.pk}.get(v, v) for k, v in data.items()}

    response = client.post(reverse("moderation:report_new"), data)

    assert response.status_code in (400, 404)
    assert Report.objects.count() == 0


def test_the_same_report_twice_is_refused(client, alice, bob, game, say):
    message = say(bob, "spam spam")
    client.force_login(alice)
    data = {"message": message.pk, "reason": "spam"}

    client.post(reverse("moderation:report_new"), data)
    second = client.post(reverse("moderation:report_new"), data)

    assert second.status_code == 400 and "already reported" in second.content.decode()
    assert Report.objects.count() == 1


def test_a_player_may_not_report_a_message_of_a_private_game_they_do_not_see(client, alice, bob, charlie):
    from tests.games.play_helpers import start_game

    private = start_game(alice, bob, private=True)
    message = services.chat_post(user=bob, game=private, text="secret", is_player=True)
    client.force_login(charlie)

    assert client.post(reverse("moderation:report_new"), {"message": message.pk, "reason": "abuse"}).status_code == 404
    assert Report.objects.count() == 0


def test_reports_are_limited_per_hour(alice, charlie):
    from tests.factories import UserFactory

    for i in range(services.REPORT_RATE_COUNT):
        services.report_create(reporter=alice, reason="spam", target=UserFactory(username=f"spammer{i}"))

    with pytest.raises(services.ModerationError, match="many reports"):
        services.report_create(reporter=alice, reason="spam", target=charlie)
    Report.objects.update(created_at=timezone.now() - timedelta(hours=2))
    services.report_create(reporter=alice, reason="spam", target=charlie)


def test_the_queue_filters_by_state_and_reason(client, mod, alice, bob, charlie, game, say):
    abuse = services.report_create(reporter=alice, reason="abuse", message=say(bob, "idiot"))
    spam = services.report_create(reporter=bob, reason="spam", target=charlie)
    done = services.report_create(reporter=charlie, reason="name", target=bob)
    services.report_resolve(moderator=mod, report=done, outcome="no_action", note="fine name")
    client.force_login(mod)

    def shown(**params):
        return [r.pk for r in client.get(reverse("moderation:queue"), params).context["page"].object_list]

    assert shown() == [abuse.pk, spam.pk]  # unresolved, oldest first
    assert shown(reason="spam") == [spam.pk]
    assert shown(state="resolved") == [done.pk]
    assert shown(state="open", reason="name") == []
    assert shown(reason="<script>") == [abuse.pk, spam.pk]  # a forged filter is ignored


def test_claim_then_resolve_from_the_report_page(client, mod, alice, bob, game, say):
    report = services.report_create(reporter=alice, reason="abuse", message=say(bob, "idiot"))
    client.force_login(mod)
    url = reverse("moderation:report", args=[report.pk])
    assert "idiot" in client.get(url).content.decode()

    client.post(reverse("moderation:report_claim", args=[report.pk]))
    client.post(reverse("moderation:report_claim", args=[report.pk]))  # a double click
    client.post(reverse("moderation:report_resolve", args=[report.pk]), {"outcome": "no_action", "note": "Banter"})

    report.refresh_from_db()
    assert (report.state, report.claimed_by, report.resolved_by, report.outcome) == ("resolved", mod, mod, "no_action")
    assert list(AuditEntry.objects.order_by("id").values_list("action", flat=True)) == ["claim", "resolve"]
    again = client.post(reverse("moderation:report_resolve", args=[report.pk]), {"outcome": "warned", "note": "x"},
                        follow=True)
    assert "already resolved" in again.content.decode()
    assert AuditEntry.objects.count() == 2


def test_muting_from_a_report_resolves_it_in_the_same_transaction(client, mod, alice, bob, game, say):
    report = services.report_create(reporter=alice, reason="abuse", message=say(bob, "idiot"))
    client.force_login(mod)

    client.post(reverse("moderation:account_act", args=[bob.pk]),
                {"action": "mute", "duration": "1d", "reason": "Insults", "report": report.pk, "key": "k" * 20})

    report.refresh_from_db()
    sanction = Sanction.objects.get(user=bob)
    assert sanction.kind == "mute" and report.outcome == "muted" and report.state == "resolved"
    entry = AuditEntry.objects.get()
    assert entry.report == report and entry.until == sanction.until


def test_acting_on_a_resolved_report_is_refused_and_writes_nothing(mod, alice, bob):
    report = services.report_create(reporter=alice, reason="abuse", target=bob)
    services.report_resolve(moderator=mod, report=report, outcome="no_action", note="fine")

    with pytest.raises(services.ModerationError, match="already resolved"):
        services.sanction_create(moderator=mod, user=bob, kind="mute", reason="late", duration=timedelta(days=1),
                                 report=report)
    assert Sanction.objects.count() == 0 and AuditEntry.objects.count() == 1


def test_an_appeal_granted_from_the_queue_lifts_the_ban(mod, bob):
    sanction = services.sanction_create(moderator=mod, user=bob, kind="ban", reason="Cheating")
    appeal = services.appeal_create(user=bob, sanction=sanction, text="It was not me")

    services.sanction_lift(moderator=mod, user=bob, reason="Mistaken identity", report=appeal)

    appeal.refresh_from_db()
    sanction.refresh_from_db()
    assert appeal.outcome == "lifted" and sanction.lifted_by == mod and not sanction.is_active()


# ---------------------------------------------------------------------------------------------
# Blocks
# ---------------------------------------------------------------------------------------------

def test_a_blocked_players_messages_are_not_shown_to_the_blocker(client, alice, bob, game, say):
    say(bob, "from bob")
    client.force_login(alice)
    client.post(reverse("moderation:block", args=[bob.pk]), {"next": reverse("games:game", args=[game.pk])})
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()

    panel = client.get(reverse("moderation:chat", args=[game.pk]), HTTP_HX_REQUEST="true").content.decode()
    assert "from bob" not in panel
    client.force_login(bob)
    assert "from bob" in client.get(reverse("moderation:chat", args=[game.pk]),
                                    HTTP_HX_REQUEST="true").content.decode()

    client.force_login(alice)
    client.post(reverse("moderation:block", args=[bob.pk]), {"unblock": "1"})
    assert "from bob" in client.get(reverse("moderation:chat", args=[game.pk]),
                                    HTTP_HX_REQUEST="true").content.decode()


def test_inviting_someone_who_blocks_you_is_answered_as_any_invitation_and_sends_nothing(
        client, alice, bob, charlie, mailoutbox, django_capture_on_commit_callbacks, celery_eager):
    from games import services as game_services
    from notifications.models import Notification

    table = game_services.table_create(host=bob, name="Bob's", preset="classic")
    services.block_create(user=alice, blocked=bob)
    client.force_login(bob)

    def invite(email):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(reverse("games:table_invite_email", args=[table.pk]), {"email": email},
                                   follow=True)
        return [str(m) for m in response.context["messages"]]

    # The same words as for an invitation to someone who does not block Bob: no tell.
    assert invite("ALICE@example.com") == ["Invitation sent to alice@example.com."]
    assert invite("charlie@example.com") == ["Invitation sent to charlie@example.com."]
    assert invite("alice@example.com") == [
        "alice@example.com is already invited to this table: no second e-mail was sent."]

    # Charlie has his e-mail; Alice nothing, neither an e-mail nor a notification.
    assert [m.to for m in mailoutbox] == [["charlie@example.com"]]
    assert not Notification.objects.filter(user=alice).exists()
    assert table.invitations.get(email="alice@example.com").emailed_at is None


def test_the_invitation_service_sends_nothing_to_an_account_that_blocks_the_host(
        alice, bob, charlie, mailoutbox, django_capture_on_commit_callbacks, celery_eager):
    from games import services as game_services
    from games import tasks

    table = game_services.table_create(host=bob, name="Bob's", preset="classic")
    services.block_create(user=alice, blocked=bob)

    with django_capture_on_commit_callbacks(execute=True):
        invited = game_services.invitation_create(table=table, by=bob, email=" Alice@Example.com ")

    assert invited.status == "sent" and mailoutbox == []
    # Only her block counts: Charlie is invited as ever, and Alice may invite Bob.
    with django_capture_on_commit_callbacks(execute=True):
        assert game_services.invitation_create(table=table, by=bob, email="charlie@example.com").status == "sent"
        own = game_services.table_create(host=alice, name="Alice's", preset="classic")
        assert game_services.invitation_create(table=own, by=alice, email="bob@example.com").status == "sent"
    assert sorted(m.to[0] for m in mailoutbox) == ["bob@example.com", "charlie@example.com"]
    # A block made after an invitation was queued stops its e-mail too.
    mailoutbox.clear()
    later = game_services.table_create(host=charlie, name="Charlie's", preset="classic")
    invitation = game_services.invitation_create(table=later, by=charlie, email="alice@example.com").invitation
    services.block_create(user=alice, blocked=charlie)
    tasks.send_invitation(invitation.pk)
    assert mailoutbox == []


def test_nobody_blocks_themselves(alice):
    with pytest.raises(services.NotPermitted):
        services.block_create(user=alice, blocked=alice)
    assert Block.objects.count() == 0


def test_a_moderator_finds_an_account_by_name_from_the_queue(client, mod, alice, bob):
    client.force_login(mod)

    html = client.get(reverse("moderation:queue"), {"q": "bo"}).content.decode()
    none = client.get(reverse("moderation:queue"), {"q": "zzz"}).content.decode()

    assert f'href="{reverse("moderation:account", args=[bob.pk])}"' in html
    assert reverse("moderation:account", args=[alice.pk]) not in html
    assert "No player by that name." in none


def test_moderators_get_the_game_tools_in_the_chat_panel_players_do_not(client, mod, alice, game):
    url = reverse("moderation:chat", args=[game.pk])
    tools = f'action="{reverse("moderation:game_act", args=[game.pk])}"'
    client.force_login(alice)
    assert tools not in client.get(url, HTTP_HX_REQUEST="true").content.decode()

    client.force_login(mod)
    assert tools in client.get(url, HTTP_HX_REQUEST="true").content.decode()
    response = client.post(reverse("moderation:game_act", args=[game.pk]),
                           {"action": "close", "reason": "Abandoned by both", "next": reverse("games:game",
                                                                                              args=[game.pk])})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == "aborted"
    # Once the game is over, nothing on its page polls, the chat included (the site header's
    # notification bell, on every page, is not the game's).
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    page = html.split('<main', 1)[1]
    assert "hx-trigger" not in page and f'<a href="{url}">' in page


def test_hiding_from_the_panel_without_a_reason_redraws_it_with_the_refusal(client, mod, bob, game, say):
    message = say(bob, "rude")
    client.force_login(mod)

    response = client.post(reverse("moderation:message_hide", args=[message.pk]), {"reason": ""},
                           HTTP_HX_REQUEST="true")

    assert response.status_code == 400 and "Give a reason" in response.content.decode()
    message.refresh_from_db()
    assert message.hidden_at is None


def test_a_warned_player_reads_the_warning_in_the_chat_panel(client, mod, alice, game):
    services.sanction_create(moderator=mod, user=alice, kind="warn", reason="Mind your language")
    client.force_login(alice)

    html = client.get(reverse("moderation:chat", args=[game.pk]), HTTP_HX_REQUEST="true").content.decode()

    assert "A moderator warned you on" in html and "Mind your language" in html
    assert 'id="chat-text"' in html  # a warning does not silence
    assert "Mind your language" in client.get(reverse("moderation:standing")).content.decode()


def test_the_collusion_scan_runs_on_beat_as_a_registered_task(settings):
    from config.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["moderation-scan-trades"]
    app.loader.import_default_modules()
    assert entry["task"] in app.tasks
    assert entry["options"]["expires"] < entry["schedule"]
