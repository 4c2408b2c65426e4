"""Who may open each moderation page and use each moderator action: anonymous visitors are sent
to sign in, players and staff (who are not moderators) get 403 and change nothing, moderators
get the page or the action; and no moderator acts on another moderator, on staff or on
themselves (moderation/permissions.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from moderation import services
from moderation.models import AuditEntry, Report, Sanction

pytestmark = pytest.mark.django_db


@pytest.fixture
def report(alice, bob, game, say):
    message = say(bob, "you are terrible")
    return services.report_create(reporter=alice, reason="abuse", message=message)


def _pages(report, bob):
    return [
        reverse("moderation:queue"),
        reverse("moderation:report", args=[report.pk]),
        reverse("moderation:account", args=[bob.pk]),
        reverse("moderation:log"),
    ]


def _actions(report, bob, game):
    return [
        (reverse("moderation:report_claim", args=[report.pk]), {}),
        (reverse("moderation:report_resolve", args=[report.pk]), {"outcome": "no_action", "note": "fine"}),
        (reverse("moderation:account_act", args=[bob.pk]), {"action": "warn", "reason": "be kind", "key": "k" * 20}),
        (reverse("moderation:account_act", args=[bob.pk]), {"action": "ban", "reason": "spam", "key": "l" * 20}),
        (reverse("moderation:game_act", args=[game.pk]), {"action": "close", "reason": "abandoned"}),
        (reverse("moderation:game_act", args=[game.pk]), {"action": "remove", "user": bob.pk, "reason": "x"}),
        (reverse("moderation:message_hide", args=[report.message_id]), {"reason": "insult"}),
    ]


def _nothing_changed(report, game) -> None:
    assert AuditEntry.objects.count() == 0
    assert Sanction.objects.count() == 0
    report.refresh_from_db()
    assert report.state == Report.State.OPEN and report.message.hidden_at is None
    game.refresh_from_db()
    assert game.status == "active"


def test_anonymous_visitors_are_sent_to_sign_in_and_change_nothing(client, report, bob, game):
    for url in _pages(report, bob):
        response = client.get(url)
        assert response.status_code == 302 and reverse("account_login") in response["Location"], url
    for url, data in _actions(report, bob, game):
        response = client.post(url, data)
        assert response.status_code == 302 and reverse("account_login") in response["Location"], url
    _nothing_changed(report, game)


@pytest.mark.parametrize("who", ["charlie", "staff"])
def test_players_and_staff_get_403_on_every_page_and_action(client, report, bob, game, charlie, staff, who):
    client.force_login({"charlie": charlie, "staff": staff}[who])
    for url in _pages(report, bob):
        assert client.get(url).status_code == 403, url
    for url, data in _actions(report, bob, game):
        assert client.post(url, data).status_code == 403, url
    _nothing_changed(report, game)


def test_moderators_open_every_page(client, mod, report, bob):
    client.force_login(mod)
    for url in _pages(report, bob):
        assert client.get(url).status_code == 200, url


def test_moderators_use_every_action_and_each_writes_its_audit_row(client, mod, report, bob, game):
    client.force_login(mod)
    for url, data in _actions(report, bob, game)[:1] + _actions(report, bob, game)[2:]:
        response = client.post(url, {**data, "next": "/"})
        assert response.status_code == 302, url
    actions = list(AuditEntry.objects.order_by("id").values_list("action", flat=True))
    assert actions == ["claim", "warn", "ban", "close_game", "hide"]
    # The game was closed before the removal: the removal is refused and writes nothing.
    game.refresh_from_db()
    assert game.status == "aborted"
    assert Sanction.objects.filter(user=bob, kind="ban").exists()


def test_moderators_cannot_act_on_moderators_staff_or_themselves(client, mod, mod2, staff):
    client.force_login(mod)
    for target in (mod2, staff, mod):
        response = client.post(reverse("moderation:account_act", args=[target.pk]),
                               {"action": "suspend", "duration": "1d", "reason": "no", "key": "m" * 20},
                               follow=True)
        assert "You may not do that." in response.content.decode()
        page = client.get(reverse("moderation:account", args=[target.pk])).content.decode()
        assert "You may not act on this account" in page
        with pytest.raises(services.NotPermitted):
            services.sanction_create(moderator=mod, user=target, kind="warn", reason="no")
    assert Sanction.objects.count() == 0 and AuditEntry.objects.count() == 0


def test_a_moderator_cannot_hide_another_moderators_message(mod, mod2, alice, game):
    message = services.chat_post(user=mod2, game=game, text="Please keep it friendly.", is_player=False)

    with pytest.raises(services.NotPermitted):
        services.message_set_hidden(moderator=mod, message=message, hidden=True, reason="no")
    message.refresh_from_db()
    assert message.hidden_at is None


def test_a_report_claimed_by_one_moderator_is_not_anothers(mod, mod2, report):
    services.report_claim(moderator=mod, report=report)

    with pytest.raises(services.ModerationError):
        services.report_claim(moderator=mod2, report=report)
    with pytest.raises(services.NotPermitted):
        services.report_resolve(moderator=mod2, report=report, outcome="no_action", note="mine now")
    report.refresh_from_db()
    assert report.claimed_by == mod and report.state == Report.State.CLAIMED


def test_a_moderator_does_not_handle_reports_about_themselves(mod, alice, game):
    message = services.chat_post(user=mod, game=game, text="hello", is_player=False)
    report = services.report_create(reporter=alice, reason="abuse", message=message)

    with pytest.raises(services.NotPermitted):
        services.report_claim(moderator=mod, report=report)


def test_the_moderators_role_is_a_group_with_explicit_permissions_not_superuser(mod):
    assert not mod.is_superuser and not mod.is_staff
    assert {"moderation.access_moderation", "moderation.act_on_accounts", "moderation.act_on_games",
            "moderation.hide_chat_messages"} <= mod.get_all_permissions()


def test_only_moderators_see_the_header_link_with_the_report_count(client, mod, alice, report):
    client.force_login(alice)
    assert reverse("moderation:queue") not in client.get(reverse("games:lobby")).content.decode()

    client.force_login(mod)
    html = client.get(reverse("games:lobby")).content.decode()
    assert f'href="{reverse("moderation:queue")}"' in html
    assert '<span class="nav-badge" aria-label="1 report to handle">1</span>' in html
