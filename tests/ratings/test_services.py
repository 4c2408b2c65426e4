"""Which games change ratings (RULES.md 13), and how: each rule, exactly once per game, the
rating history, XP and levels, achievements from constructed records, weekly quests, and the
rebuild from the records."""

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime, timedelta
from unittest import mock

import pytest
from django.urls import reverse

from games.engine import GameState, RuleSet, apply, new_game, set_clock
from games.models import GameAction, Table
from ratings import progress, services, skill, tasks
from ratings.models import Achievement, GameResult, PlayerResult, Progress, QuestCompletion, Rating
from ratings.skill import Skill

pytestmark = pytest.mark.django_db


def _ranks_from_the_log(game) -> tuple[list[int], set[int]]:
    """The finishing order read from the site's own stored events and final state, not from the
    replay the service makes: winner, then the bankrupt in reverse order, forfeits last."""
    state = GameState.from_json(game.state)
    forfeited = set()
    out: list[int] = []
    for events in GameAction.objects.filter(game=game).order_by("seq").values_list("events", flat=True):
        for e in events:
            if e["e"] == "surrender":
                forfeited.add(e["p"])
            if e["e"] == "bankrupt":
                out.append(e["p"])
    order = [state.winner] + [p for p in reversed(out) if p not in forfeited]
    ranks = [0] * len(state.players)
    for place, p in enumerate(order, start=1):
        ranks[p] = place
    for p in forfeited:
        ranks[p] = len(state.players) - len(forfeited) + 1
    return ranks, forfeited


def test_a_rated_game_moves_every_players_rating_as_openskill_says(finished_game, alice, bob, charlie):
    game = finished_game([alice, bob, charlie])
    ranks, _f = _ranks_from_the_log(game)

    result = services.game_result_record(game_id=game.pk)

    assert result.rated and result.family == "classic" and result.unrated_reason == ""
    expected = skill.rate([[Skill()], [Skill()], [Skill()]], ranks)
    for seat, user in enumerate([alice, bob, charlie]):
        rating = Rating.objects.get(user=user, family="classic")
        assert (rating.mu, rating.sigma) == pytest.approx((expected[seat][0].mu, expected[seat][0].sigma))
        assert rating.games == 1 and rating.value == skill.display(rating.mu)
        row = PlayerResult.objects.get(game=game, user=user)
        assert row.rank == ranks[seat] and row.mu_before == skill.MU and row.mu_after == rating.mu
    winner = [alice, bob, charlie][ranks.index(1)]
    assert Rating.objects.get(user=winner).value > 1500


def test_the_world_board_has_a_rating_of_its_own(finished_game, alice, bob):
    services.game_result_record(game_id=finished_game([alice, bob], seed=1).pk)
    services.game_result_record(game_id=finished_game([alice, bob], preset="world-classic", seed=3).pk)
    assert sorted(Rating.objects.filter(user=alice).values_list("family", "games")) == [("classic", 1), ("world", 1)]


@pytest.mark.parametrize(("kwargs", "reason"), [
    ({"preset": "classic-short", "seed": 11}, "preset"),
    ({"options": {"start_cash": 2000}}, "custom"),
    ({"minutes": 9}, "minutes"),
])
def test_games_that_rules_13_leaves_out_change_no_rating(finished_game, alice, bob, charlie, kwargs, reason):
    game = finished_game([alice, bob, charlie], **kwargs)
    result = services.game_result_record(game_id=game.pk)
    assert not result.rated and result.unrated_reason == reason
    assert not Rating.objects.exists()
    assert PlayerResult.objects.filter(game=game, mu_after__isnull=True).count() == 3


def test_a_game_with_a_bot_is_unrated_but_gives_xp(finished_game, alice, bob):
    game = finished_game([alice, bob, "strategy"])
    result = services.game_result_record(game_id=game.pk)
    assert not result.rated and result.unrated_reason == "bots"
    assert not Rating.objects.exists()
    assert Progress.objects.get(user=alice).xp > 0


def test_a_game_shorter_than_ten_rounds_is_unrated(finished_game, alice, bob):
    def stop(state):
        return {"type": "surrender", "player": 1} if state.round == 10 and state.current == 1 else None

    game = finished_game([alice, bob], stop=stop)
    assert game.round == 10  # nine rounds completed
    result = services.game_result_record(game_id=game.pk)
    assert not result.rated and result.unrated_reason == "rounds"


def test_ten_completed_rounds_are_enough(finished_game, alice, bob):
    def stop(state):
        return {"type": "surrender", "player": 1} if state.round == 11 and state.current == 1 else None

    result = services.game_result_record(game_id=finished_game([alice, bob], stop=stop).pk)
    assert result.rated


def test_a_forfeited_player_finishes_last_and_loses_the_most(finished_game, alice, bob, charlie):
    def stop(state):
        # Alice (seat 0) gives up once someone else has gone bankrupt: she still finishes last.
        if state.bankrupt_order and state.current == 0 and not state.players[0].bankrupt:
            return {"type": "surrender", "player": 0}
        return None

    game = finished_game([alice, bob, charlie], stop=stop)
    _ranks, forfeited = _ranks_from_the_log(game)
    first_out = GameState.from_json(game.state).bankrupt_order[0]
    assert forfeited == {0} and first_out != 0
    services.game_result_record(game_id=game.pk)

    mine = PlayerResult.objects.get(game=game, user=alice)
    assert mine.forfeited and mine.rank == 3 and mine.xp == 0
    assert PlayerResult.objects.get(game=game, seat=first_out).rank == 2
    assert Rating.objects.get(user=alice).mu == min(Rating.objects.values_list("mu", flat=True))


def test_teams_would_be_rated_as_teams(finished_game, alice, bob, charlie, monkeypatch, django_user_model):
    """RULES.md 13 rates no team preset; were one rated, teammates share their team's place."""
    dave = django_user_model.objects.create_user("dave", "dave@example.com", "x")
    game = finished_game([alice, bob, charlie, dave], preset="world-teams", seed=5, teams=[[0, 2], [1, 3]])
    assert services.game_result_record(game_id=game.pk).unrated_reason == "preset"

    GameResult.objects.all().delete()
    Progress.objects.all().delete()
    Achievement.objects.all().delete()
    monkeypatch.setitem(services.RATED_PRESETS, "world-teams", "world")
    services.game_result_record(game_id=game.pk)

    state = GameState.from_json(game.state)
    won = next(t for t in state.teams if state.winner in t)
    lost = next(t for t in state.teams if state.winner not in t)
    expected = skill.rate([[Skill(), Skill()], [Skill(), Skill()]], [1, 2])
    users = [alice, bob, charlie, dave]
    for p in won:
        assert Rating.objects.get(user=users[p]).mu == pytest.approx(expected[0][0].mu)
    for p in lost:
        assert Rating.objects.get(user=users[p]).mu == pytest.approx(expected[1][0].mu)


def test_a_task_that_runs_twice_records_the_game_once(finished_game, alice, bob, charlie):
    game = finished_game([alice, bob, charlie])
    assert tasks.record_game_result.apply(args=[game.pk]).get() is True
    first = {r.user_id: (r.mu, r.games) for r in Rating.objects.all()}
    xp = {p.user_id: p.xp for p in Progress.objects.all()}

    assert tasks.record_game_result.apply(args=[game.pk]).get() is True
    services.results_catch_up()

    assert GameResult.objects.count() == 1 and PlayerResult.objects.count() == 3
    assert {r.user_id: (r.mu, r.games) for r in Rating.objects.all()} == first
    assert {p.user_id: p.xp for p in Progress.objects.all()} == xp


def test_a_game_in_play_is_not_recorded(alice, bob, finished_game):
    game = finished_game([alice, bob])
    game.status = game.Status.ACTIVE
    game.save(update_fields=["status"])
    assert services.game_result_record(game_id=game.pk) is None
    assert not GameResult.objects.exists()


def test_rating_history_lists_every_rated_game_in_order(finished_game, alice, bob):
    for seed in (1, 2, 3):
        services.game_result_record(game_id=finished_game([alice, bob], seed=seed).pk)
    rows = list(PlayerResult.objects.filter(user=alice).order_by("finished_at", "pk"))
    assert [r.rated_games for r in rows] == [1, 2, 3]
    for a, b in itertools.pairwise(rows):
        assert b.mu_before == a.mu_after and b.sigma_before == a.sigma_after
    assert Rating.objects.get(user=alice).mu == rows[-1].mu_after


def test_the_records_rebuild_the_same_ratings_and_progress(finished_game, alice, bob, charlie):
    for seed in (1, 2):
        services.game_result_record(game_id=finished_game([alice, bob, charlie], seed=seed).pk)
    before = sorted(Rating.objects.values_list("user_id", "family", "mu", "sigma", "games"))
    xp = sorted(Progress.objects.values_list("user_id", "xp"))
    badges = sorted(Achievement.objects.values_list("user_id", "code"))

    assert services.ratings_recompute() == 2
    assert sorted(Rating.objects.values_list("user_id", "family", "mu", "sigma", "games")) == before
    assert sorted(Progress.objects.values_list("user_id", "xp")) == xp
    assert sorted(Achievement.objects.values_list("user_id", "code")) == badges


# ---------------------------------------------------------------------------------------------
# XP, levels, achievements, quests
# ---------------------------------------------------------------------------------------------

def test_levels_need_100_more_xp_each():
    assert [progress.level_of(x) for x in (0, 99, 100, 299, 300, 599, 600)] == [1, 1, 2, 2, 3, 3, 4]


def test_xp_by_place_and_half_on_a_custom_table(finished_game, alice, bob, charlie):
    plain = finished_game([alice, bob, charlie])
    services.game_result_record(game_id=plain.pk)
    xp = {r.rank: r.xp for r in PlayerResult.objects.filter(game=plain)}
    assert xp == {1: 100, 2: 70, 3: 40}

    custom = finished_game([alice, bob, charlie], options={"start_cash": 2000})
    services.game_result_record(game_id=custom.pk)
    for r in PlayerResult.objects.filter(game=custom):
        assert r.xp == xp[r.rank] // 2


def _events(game, kind):
    return [e for events in GameAction.objects.filter(game=game).values_list("events", flat=True) for e in events
            if e["e"] == kind]


def test_achievements_from_a_constructed_record(finished_game, alice, bob, charlie, django_user_model):
    dave = django_user_model.objects.create_user("dave", "dave@example.com", "x")
    users = [alice, bob, charlie, dave]
    # A world-classic game in which one player bankrupts the three others and builds.
    game = finished_game(users, preset="world-classic", seed=3, pace=Table.Pace.CORRESPONDENCE)
    services.game_result_record(game_id=game.pk)

    state = GameState.from_json(game.state)
    winner = users[state.winner]
    by_winner = [e for e in _events(game, "bankrupt") if e.get("to") == state.winner]
    hotels = {e["p"] for e in _events(game, "build") if e["level"] == 5}
    earned = {u: set(Achievement.objects.filter(user=u).values_list("code", flat=True)) for u in users}

    assert len(by_winner) == 3
    assert {"first_game", "first_win", "three_bankrupt", "correspondence_win"} <= earned[winner]
    for p, u in enumerate(users):
        assert ("first_hotel" in earned[u]) == (p in hotels)
        assert "first_game" in earned[u]
        if u != winner:
            assert not earned[u] & {"first_win", "three_bankrupt", "correspondence_win", "comeback"}


def test_every_colour_group_over_several_games_earns_the_collector(finished_game, alice, bob):
    game = finished_game([alice, bob], seed=1)
    Progress.objects.create(user=bob, groups_owned=["brown", "light_blue", "pink", "orange", "red", "yellow",
                                                    "green"])
    facts_groups = _groups_held(game, seat=1)
    assert "dark_blue" in facts_groups  # this game gives Bob the eighth group
    services.game_result_record(game_id=game.pk)
    assert Achievement.objects.filter(user=bob, code="every_group").exists()
    assert not Achievement.objects.filter(user=alice, code="every_group").exists()


def _groups_held(game, seat):
    from ratings.record import analyse
    record, *_ = services.game_record_of(game=game)
    return analyse(record).groups_owned[seat]


def test_a_custom_table_gives_no_achievements_or_quests(finished_game, alice, bob):
    game = finished_game([alice, bob], options={"start_cash": 2000})
    services.game_result_record(game_id=game.pk)
    assert not Achievement.objects.exists() and not QuestCompletion.objects.exists()
    assert PlayerResult.objects.filter(game=game, played=0).count() == 2


def _week_with(code: str) -> date:
    monday = progress.week_start(date(2026, 11, 30))
    while code not in {q.code for q in progress.quests_of_week(monday)}:
        monday += timedelta(days=7)
    return monday


def _bob_gives_up(state):
    return {"type": "surrender", "player": 1} if state.round == 11 and state.current == 1 else None


def test_a_weekly_quest_is_completed_once_from_the_weeks_games(finished_game, alice, bob):
    monday = _week_with("play_3")
    at = datetime.combine(monday, datetime.min.time(), tzinfo=UTC) + timedelta(days=2)
    for i, seed in enumerate((1, 2)):
        services.game_result_record(game_id=finished_game([alice, bob], stop=_bob_gives_up, seed=seed,
                                                          finished_at=at + timedelta(hours=i)).pk)
    # A custom game that week counts for nothing (RULES.md 13); one the week after neither.
    services.game_result_record(game_id=finished_game([alice, bob], stop=_bob_gives_up, seed=3,
                                                      options={"start_cash": 2000},
                                                      finished_at=at + timedelta(hours=3)).pk)
    services.game_result_record(game_id=finished_game([alice, bob], stop=_bob_gives_up, seed=3,
                                                      finished_at=at + timedelta(days=7)).pk)
    assert not QuestCompletion.objects.filter(user=alice, code="play_3", week=monday).exists()

    xp_before = Progress.objects.get(user=alice).xp
    third = finished_game([alice, bob], stop=_bob_gives_up, seed=4, finished_at=at + timedelta(hours=5))
    services.game_result_record(game_id=third.pk)
    quest = QuestCompletion.objects.get(user=alice, code="play_3", week=monday)
    gained = Progress.objects.get(user=alice).xp - xp_before
    assert quest.game_id == third.pk and gained == PlayerResult.objects.get(game=third, user=alice).xp + 50 + sum(
        q.xp for q in QuestCompletion.objects.filter(user=alice, game=third).exclude(pk=quest.pk))

    services.game_result_record(game_id=finished_game([alice, bob], stop=_bob_gives_up, seed=5,
                                                      finished_at=at + timedelta(hours=6)).pk)
    assert QuestCompletion.objects.filter(user=alice, code="play_3").count() == 1


def test_the_command_rebuilds_from_the_records_and_records_what_is_missing(finished_game, alice, bob):
    from django.core.management import call_command

    first = finished_game([alice, bob], seed=1)
    services.game_result_record(game_id=first.pk)
    second = finished_game([alice, bob], seed=2)  # its task was lost
    call_command("ratings_recompute", "--missing", stdout=_Sink())
    assert GameResult.objects.filter(game=second).exists()
    right = sorted(Rating.objects.values_list("user_id", "mu", "games"))

    Rating.objects.update(mu=1.0, games=99)
    call_command("ratings_recompute", stdout=_Sink())
    assert sorted(Rating.objects.values_list("user_id", "mu", "games")) == right


class _Sink:
    def write(self, text: str) -> None:
        pass


# ---------------------------------------------------------------------------------------------
# The summary's figures against the site's own replay of the record
# ---------------------------------------------------------------------------------------------

def test_the_summary_figures_match_a_replay_of_the_record(finished_game, alice, bob, charlie):
    from games.engine import net_worth

    trade_done = {}

    def trade(state):
        # In round 5 the first player to roll offers cash for the cheapest deed of the next one.
        if state.round == 5 and not trade_done and state.pending() == "roll":
            me, other = state.current, (state.current + 1) % 3
            deeds = [sq for sq in state.board.deeds if state.owner[sq] == other
                     and not any(state.level[x] for x in state.board.group_of[sq]) and not state.mortgaged[sq]]
            if deeds and not state.players[other].bankrupt:
                trade_done["sq"] = min(deeds)
                return {"type": "propose", "player": me, "to": other,
                        "give": {"cash": 150, "squares": [], "cards": 0},
                        "take": {"cash": 0, "squares": [min(deeds)], "cards": 0}}
        frame = state.pending_frame()
        if frame and frame["k"] == "trade_response":
            return {"type": "accept", "player": frame["p"], "trade": frame["trade"]}
        return None

    game = finished_game([alice, bob, charlie], stop=trade)
    result = services.game_result_record(game_id=game.pk)
    summary = result.summary
    record, *_ = services.game_record_of(game=game)
    states = _states_of(record)

    # Net worth at the start of every round, from the site's replay of the record.
    starts = {}
    for st in states:
        starts.setdefault(st.round, [0 if pl.bankrupt else net_worth(st, p) for p, pl in enumerate(st.players)])
    for round_no, values in zip(summary["worth"]["rounds"][:-1], summary["worth"]["values"][:-1], strict=True):
        assert values == starts[round_no]
    final = states[-1]
    assert summary["final_worth"] == [0 if pl.bankrupt else net_worth(final, p) for p, pl in enumerate(final.players)]

    # Rent and bankruptcies, from the events the site stored with each action.
    rent: dict = {}
    bankrupt = []
    for events in GameAction.objects.filter(game=game).order_by("seq").values_list("events", flat=True):
        for e in events:
            if e["e"] == "rent" and e["amount"] - e.get("tax", 0) > 0:
                key = (e["p"], e["owner"])
                rent[key] = rent.get(key, 0) + e["amount"] - e.get("tax", 0)
            if e["e"] == "bankrupt":
                bankrupt.append((e["p"], None if e["to"] in (None, -1) else e["to"]))
    assert {(p, o): a for p, o, a in summary["rent"]} == rent
    assert [(b["p"], b["to"]) for b in summary["bankruptcies"]] == bankrupt

    # The biggest (here the only) trade: 150 cash for the deed, at its printed price.
    trade_row = summary["biggest_trade"]
    assert trade_row["take"]["squares"] == [trade_done["sq"]]
    assert trade_row["value"] == 150 + final.board.price[trade_done["sq"]]
    assert trade_row["squares"] == {str(trade_done["sq"]): final.board.name_of(trade_done["sq"])}


def test_one_broken_record_does_not_hold_up_the_others(finished_game, alice, bob, caplog):
    broken = finished_game([alice, bob], seed=1)
    fine = finished_game([alice, bob], seed=2)
    # An action the engine refuses (a seat that does not exist): the replay of this game fails.
    GameAction.objects.filter(game=broken, seq=1).update(action={"type": "roll", "player": 9})

    assert services.results_catch_up() == 2

    assert not GameResult.objects.filter(game=broken).exists()
    assert GameResult.objects.filter(game=fine).exists()
    assert f"recording the result of game {broken.pk} failed" in caplog.text


def _states_of(record: dict) -> list[GameState]:
    """The position after each action of a record, replayed through the engine's door."""
    state, _events = new_game(RuleSet.from_json(record["rules"]), record["names"], record["seed"],
                              teams=record.get("teams"))
    states = [state.copy()]
    for a in record["actions"]:
        if a.get("clock") is not None:
            set_clock(state, a["clock"])
        apply(state, {k: v for k, v in a.items() if k != "clock"}, events=False)
        states.append(state.copy())
    return states


def test_a_rematch_invites_everyone_but_a_player_who_blocks_the_host(alice, bob, charlie, finished_game):
    from moderation import services as moderation_services
    from ratings.models import Rematch

    game = finished_game([alice, bob, charlie], seed=1)
    moderation_services.block_create(user=charlie, blocked=alice)

    table, created = services.rematch_create(game=game, by=alice)

    assert created and Rematch.objects.get().table == table
    assert list(table.invitations.values_list("email", flat=True)) == ["bob@example.com"]


def test_a_seat_a_bot_took_over_counts_as_forfeited_for_ratings_and_progress(finished_game, alice, bob, charlie):
    """RULES.md 15, absent players: with ``absent_seat`` "bot", the player whose seat a bot took
    over at the third missed turn counts as forfeited (last, no win), and the takeover bot does
    not make the game one "with bots" (RULES.md 13) for the others."""
    game = finished_game([alice, bob, charlie])
    seat = game.table.seats.get(user=charlie)
    seat.bot = "strategy"
    seat.save(update_fields=["bot"])
    GameAction.objects.filter(game=game, seat=seat.position, seq__gt=GameAction.objects.filter(
        game=game).order_by("-seq").values_list("seq", flat=True)[0] // 2).update(source="bot")

    result = services.game_result_record(game_id=game.pk)

    assert result.rated
    mine = PlayerResult.objects.get(game=game, user=charlie)
    assert mine.forfeited and mine.rank == 3 and not mine.won
    assert sorted(result.summary["forfeited"]) == [seat.position]
    assert Rating.objects.get(user=charlie).mu == min(Rating.objects.values_list("mu", flat=True))


def test_games_a_player_surrendered_count_as_finished_games_for_the_quests(client, finished_game, alice, bob):
    """Issue 26 item 33: "Finish 3 games 0/3" after two finished games, one rated, both ended by
    the player's surrender: each is a game they finished (and the rated one a rated game), though
    neither is a win nor earns XP."""
    monday = _week_with("play_3")
    at = datetime.combine(monday, datetime.min.time(), tzinfo=UTC) + timedelta(days=2)
    rated = finished_game([alice, bob], stop=_bob_gives_up, seed=1, finished_at=at)
    unrated = finished_game([alice, bob], stop=_bob_gives_up, seed=2, finished_at=at + timedelta(hours=1), minutes=2)
    results = [services.game_result_record(game_id=g.pk) for g in (rated, unrated)]
    assert [r.rated for r in results] == [True, False]
    rows = PlayerResult.objects.filter(user=bob).order_by("finished_at")
    assert [(r.forfeited, r.played, r.rated, r.won, r.xp) for r in rows] == [(True, 1, 1, 0, 0), (True, 1, 0, 0, 0)]
    client.force_login(bob)
    with mock.patch("django.utils.timezone.now", return_value=at + timedelta(hours=2)):
        page = client.get(reverse("ratings:profile", args=[bob.username])).content.decode()
    quest = page[page.index("Finish 3 games"):]
    assert quest[:quest.index("</li>")].split('"quest-progress">')[1].startswith("2 / 3")
