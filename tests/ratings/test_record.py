"""The finishing order and the summary's facts, read from replayed game records (no database):
bankruptcy order, net worth at a second-bankruptcy end, forfeits last, teams as teams."""

from __future__ import annotations

from games.engine import GameState, RuleSet, apply, net_worth, new_game
from ratings.record import analyse
from tests.ratings.helpers import play_record


def _final(record) -> GameState:
    state, _e = new_game(RuleSet.from_json(record["rules"]), record["names"], record["seed"],
                         teams=record.get("teams"))
    for a in record["actions"]:
        apply(state, dict(a))
    return state


def test_the_last_to_go_bankrupt_finishes_above_the_first():
    record = play_record("world-classic", 4, 3)
    state = _final(record)
    facts = analyse(record)

    out = state.bankrupt_order
    assert len(out) == 3 and not facts.forfeited
    assert facts.ranks[state.winner] == 1
    assert [facts.ranks[p] for p in reversed(out)] == [2, 3, 4]


def test_at_a_second_bankruptcy_end_the_players_still_in_are_ordered_by_net_worth():
    record = play_record("classic", 4, 11, options={"end": "second_bankruptcy"})
    state = _final(record)
    facts = analyse(record)

    still_in = [p for p in range(4) if not state.players[p].bankrupt and p != state.winner]
    assert len(still_in) == 1
    assert facts.ranks[state.winner] == 1 and facts.ranks[still_in[0]] == 2
    assert net_worth(state, state.winner) >= net_worth(state, still_in[0])
    assert sorted(facts.ranks[p] for p in state.bankrupt_order) == [3, 4]


def test_a_player_who_surrenders_finishes_last_even_after_others_went_bankrupt_first():
    quitter = {}

    def stop(state):
        # Once someone has gone bankrupt, the next player still in to decide gives up.
        if state.bankrupt_order and not quitter:
            for p in range(len(state.players)):
                if not state.players[p].bankrupt and p != state.bankrupt_order[0]:
                    quitter["p"] = p
                    return {"type": "surrender", "player": p}
        return None

    record = play_record("world-classic", 4, 3, stop=stop)
    facts = analyse(record)
    first_out = _final(record).bankrupt_order[0]

    assert facts.forfeited == {quitter["p"]}
    assert facts.ranks[quitter["p"]] == 4
    assert facts.ranks[first_out] < facts.ranks[quitter["p"]]


def test_a_player_out_by_missed_turns_counts_as_forfeited():
    def stop(state):
        # Seat 1 never answers from round 3: the site applies the timeout default (RULES.md 11).
        if state.round >= 3 and 1 in _waiting(state) and not state.players[1].bankrupt:
            return {"type": "timeout", "player": 1}
        return None

    record = play_record("classic", 3, 7, stop=stop)
    facts = analyse(record)
    assert 1 in facts.forfeited and facts.ranks[1] == 3


def _waiting(state):
    from games.engine import waiting_on
    return waiting_on(state)


def test_teams_finish_as_teams():
    record = play_record("world-teams", 4, 5, teams=[[0, 2], [1, 3]])
    state = _final(record)
    facts = analyse(record)
    winners = next(t for t in state.teams if state.winner in t)
    assert [facts.ranks[p] for p in range(4)] == [1 if p in winners else 2 for p in range(4)]


def test_net_worth_series_starts_equal_and_ends_at_the_final_position():
    record = play_record("classic", 3, 7)
    state = _final(record)
    facts = analyse(record)
    assert facts.worth_rounds[0] == 1 and len(set(facts.worth[0])) == 1
    assert facts.final_worth == [0 if pl.bankrupt else net_worth(state, p) for p, pl in enumerate(state.players)]
    assert facts.worth[-1] == facts.final_worth
    assert facts.worth_rounds == sorted(facts.worth_rounds)
