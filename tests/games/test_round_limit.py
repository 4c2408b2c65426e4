"""The round limit (RULES.md 16, issue 28): the game ends when that round is over and net worth
ranks the players (section 12); a table option that leaves the table standard (rated), carried
in the game's rule set so that the game replays exactly from its record."""

from __future__ import annotations

import random

import pytest

from games import services
from games.engine import RuleSet, apply, net_worth, new_game, waiting_on
from games.engine.bots import make_bot
from games.models import Table
from tests.games.play_helpers import play_until

pytestmark = pytest.mark.django_db


def test_the_engine_ends_the_game_when_the_last_round_is_over_the_richest_winning():
    rules = RuleSet.build("classic", {"round_limit": 3})
    state, _ = new_game(rules, ["a", "b", "c"], 11)
    bot = make_bot("strategy")
    rng = random.Random(11)
    seen = []
    for _ in range(5000):
        if state.over:
            break
        _state, events = apply(state, bot.choose(state, waiting_on(state)[0], rng))
        seen += events
    assert state.over
    ends = [e for e in seen if e["e"] == "round_limit"]
    assert ends == [{"e": "round_limit", "round": 3}]
    assert not any(e["e"] == "turn" and e.get("round", 0) > 3 for e in seen)
    richest = max(state.active(), key=lambda p: (net_worth(state, p), -p))
    assert state.winner == richest


def test_a_round_limit_of_zero_is_refused_by_the_engine():
    from games.engine import InvalidRules

    with pytest.raises(InvalidRules):
        RuleSet.build("classic", {"round_limit": 0})


def test_a_table_with_a_round_limit_stays_standard_and_its_game_ends_there(alice, bob):
    table = services.table_create(host=alice, name="Short", preset="classic", seat_count=2, round_limit=2)
    assert not table.is_custom and table.round_limit == 2
    services.table_join(table=table, user=bob)
    game = services.table_start(table=table, by=alice)
    assert game.state["rules"]["options"] == {"round_limit": 2}
    game = play_until(game, lambda s: s.over, limit=2000)
    assert game.round == 3 and game.status == game.Status.FINISHED
    assert [e for a in game.actions.all() for e in a.events if e["e"] == "round_limit"] == [
        {"e": "round_limit", "round": 2}]


@pytest.mark.parametrize("bad", [0, 1001, "5"])
def test_an_impossible_round_limit_is_refused(alice, bad):
    with pytest.raises(services.GameError, match="round limit"):
        services.table_create(host=alice, name="Bad", preset="classic", round_limit=bad)
    assert not Table.objects.exists()


def test_the_game_over_summary_says_how_the_game_ended(client, alice, bob):
    from django.urls import reverse

    from ratings import services as ratings_services

    table = services.table_create(host=alice, name="Short", preset="classic", seat_count=2, round_limit=2)
    services.table_join(table=table, user=bob)
    game = play_until(services.table_start(table=table, by=alice), lambda s: s.over, limit=2000)
    ratings_services.game_result_record(game_id=game.pk)
    client.force_login(alice)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    # (The apostrophe escaped, as Jinja2 writes it: &#39;.)
    assert '<p class="summary-ended">Ended after round 2, the table&#39;s limit; ranked by net worth.</p>' in page
