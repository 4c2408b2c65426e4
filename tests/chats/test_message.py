"""What a status post says, and what it never carries (issue 29)."""

from __future__ import annotations

from unittest import mock

import pytest

from chats import message, providers, services


@pytest.mark.django_db
def test_the_post_has_no_secret_maximum_no_standing_order_and_no_email(alice, bob, make_game):
    game = make_game(alice, bob, bots=("strategy", "strategy"))
    rows = [
        {"seq": 9, "seat": 1, "source": "standing", "events": [{"e": "max_bid", "p": 1, "amount": 777}],
         "created_at": None, "reason": None},
        {"seq": 8, "seat": 1, "source": "standing", "events": [{"e": "pass", "p": 1}], "created_at": None,
         "reason": None},
    ]
    with mock.patch("games.sql.log_rows", return_value=rows):
        status = message.build(game)
    services.identity_set(user=bob, discord_id="100000000000000002", slack_id="UBOB12345",
                          telegram_username="bob_plays")
    for provider in ("discord", "slack", "telegram", "webhook"):
        text = providers.render(status, provider, ["100000000000000002"] if provider == "discord" else [])
        assert "777" not in text and "standing order" not in text.lower()
        assert alice.email not in text and bob.email not in text and "@example" not in text
        assert status.title in text and f"/games/{game.pk}/" in text
    assert status.recent  # (the pass is there, by the spectator's words)


@pytest.mark.django_db
def test_mentions_only_the_linked_players_waited_on(alice, bob, make_game):
    game = make_game(alice, bob)
    services.identity_set(user=alice, discord_id="100000000000000001", slack_id="UALICE123", telegram_username="")
    services.identity_set(user=bob, discord_id="100000000000000002", slack_id="", telegram_username="bob_plays")
    status = message.build(game)
    waited = {s.user_id for s in game.table.seats.all() if s.position in game.waiting_seats}
    mentions = message.mentions_for(status)
    expected_discord = {"100000000000000001" if alice.pk in waited else None,
                        "100000000000000002" if bob.pk in waited else None} - {None}
    assert set(mentions["discord"]) == expected_discord
    assert mentions["slack"] == (["UALICE123"] if alice.pk in waited else [])
    assert mentions["telegram"] == (["bob_plays"] if bob.pk in waited else [])


def test_names_cannot_ping_everyone_or_break_the_markup():
    status = message.Status(title="<!channel> & @everyone", round=2, whose_turn="<@U999>", decision="x",
                            waiting=["<!here>"], waiting_users=[], deadline=None, recent=["<b>hi</b>"],
                            link="https://example.org/games/1/", over=False,
                            labels={"round": "Round 2", "turn": "Turn: <@U999>", "waits": "Waiting on: <!here>",
                                    "deadline": "Deadline", "recent": "Lately", "open": "Open", "over": "over"})
    slack = providers.render(status, "slack", [])
    assert "<!channel>" not in slack and "<!here>" not in slack and "<@U999>" not in slack
    assert "&lt;!channel&gt; &amp; @everyone" in slack
