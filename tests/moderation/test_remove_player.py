"""A moderator's removal of a player from a running game: the seat surrenders as the rules say
(RULES.md 10), but the game's log, its record and the replay say a moderator removed them, not
that they surrendered; their own surrender is still said as theirs."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import records
from games import services as game_services
from games.models import Game, GameAction
from moderation import services
from moderation.models import AuditEntry
from tests.games.play_helpers import start_game, users_by_seat

pytestmark = pytest.mark.django_db

REMOVED = "<bdi>Charlie</bdi> is removed from the game by a moderator."  # (names isolated: issue 26)


def _seat(game: Game, user) -> int:
    return next(p for p, u in users_by_seat(game).items() if u == user)


def test_the_removal_is_logged_as_the_moderators_not_as_the_players_surrender(client, mod, alice, bob, charlie):
    game = start_game(alice, bob, charlie, pace="correspondence")
    seat = _seat(game, charlie)

    services.game_remove_player(moderator=mod, game=game, user=charlie, reason="Abusive in chat")

    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.state["players"][seat]["bankrupt"]
    row = GameAction.objects.filter(game=game).order_by("-seq").first()
    assert (row.source, row.user_id, row.seat) == ("moderator", None, seat)
    assert row.action == {"type": "surrender", "player": seat, "reason": "moderator_removed"}
    assert any(e["e"] == "surrender" and e["p"] == seat for e in row.events)  # the engine's rule, unchanged
    assert AuditEntry.objects.get().action == AuditEntry.Action.FORFEIT

    client.force_login(alice)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert REMOVED in page
    assert "Charlie surrenders." not in page
    log = client.get(reverse("games:game_log", args=[game.pk])).content.decode()
    assert REMOVED in log and "Charlie surrenders." not in log
    type(alice).objects.filter(pk=alice.pk).update(language="es")
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Un moderador retira a <bdi>Charlie</bdi> de la partida." in page


def test_the_record_and_the_replay_say_a_moderator_removed_the_player(client, mod, alice, bob, charlie):
    game = start_game(alice, bob, charlie, pace="correspondence")
    services.game_remove_player(moderator=mod, game=game, user=charlie, reason="Cheating")
    game.refresh_from_db()
    # Bob then surrenders himself: the game is over, Alice wins.
    game_services.game_submit_action(game=game, user=bob, action={"type": "surrender"}, expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    client.force_login(alice)
    record = json.loads(client.get(reverse("games:game_record", args=[game.pk])).content)
    removal = next(n for n, a in enumerate(record["actions"], start=1) if a.get("reason") == "moderator_removed")
    assert record["actions"][removal - 1]["type"] == "surrender"
    # The record still replays, and uploads, with the removal in it.
    assert records.parse_record(json.dumps(record).encode()) == record
    forged = {**record, "actions": [dict(a, reason="made_up") if n == removal else a
                                    for n, a in enumerate(record["actions"], start=1)]}
    with pytest.raises(records.RecordError, match="malformed field"):
        records.parse_record(json.dumps(forged).encode())
    chunks = records.checkpoints(record)
    last = records.position(records.start_of(record), len(record["actions"]), chunks[-1], len(record["actions"]))
    assert last.state.over and last.state.winner == game.winner_seat

    url = reverse("games:game_replay", args=[game.pk])
    step = client.get(url, {"step": removal}).content.decode()
    assert "removed by a moderator" in step and REMOVED in step  # (the replay isolates names too)
    assert "Charlie</bdi> surrenders." not in step
    own = client.get(url, {"step": len(record["actions"])}).content.decode()
    assert "<bdi>Bob</bdi> surrenders." in own and "removed by a moderator" not in own


def test_a_removal_the_rules_refuse_changes_nothing(mod, alice, bob, charlie):
    game = start_game(alice, bob, charlie, pace="correspondence")
    services.game_remove_player(moderator=mod, game=game, user=charlie, reason="Gone")
    game.refresh_from_db()
    version, actions = game.version, GameAction.objects.filter(game=game).count()

    with pytest.raises(services.ModerationError, match="The player cannot be removed"):
        services.game_remove_player(moderator=mod, game=game, user=charlie, reason="Again")

    game.refresh_from_db()
    assert game.version == version and GameAction.objects.filter(game=game).count() == actions
    assert AuditEntry.objects.count() == 1
