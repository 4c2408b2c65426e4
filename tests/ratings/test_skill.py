"""The rating model is OpenSkill's Plackett-Luce, checked against the package's own published
vectors (openskill.py, tests/models/data/plackettluce.json: a model of mu 30.92..., sigma
6.478...; the "normal" and "ranks" cases), through our wrapper."""

from __future__ import annotations

import pytest

from ratings import skill
from ratings.skill import Skill

MU, SIGMA = 30.9227929079249, 6.478417585666653


def _flat(teams):
    return [x for team in teams for s in team for x in (s.mu, s.sigma)]


def _pairs(pairs):
    return [x for pair in pairs for x in pair]


def test_a_one_against_two_game_matches_the_published_vector():
    new = skill.rate([[Skill(MU, SIGMA)], [Skill(MU, SIGMA), Skill(MU, SIGMA)]], [1, 2])
    expected = [(33.969011487326654, 6.446958847986065)] + [(27.876574328523148, 6.433659614219379)] * 2
    assert _flat(new) == pytest.approx(_pairs(expected), rel=1e-6)


def test_four_teams_in_a_given_order_match_the_published_vector():
    teams = [[Skill(MU, SIGMA)], [Skill(MU, SIGMA)] * 2, [Skill(MU, SIGMA)], [Skill(MU, SIGMA)] * 2]
    new = skill.rate(teams, [2, 1, 4, 3])
    expected = ([(32.77994443000071, 6.450747134006956)] + [(32.2707505138986, 6.425889055872058)] * 2
                + [(30.08402921805331, 6.430997477977663)] + [(28.556447469746985, 6.355257645226833)] * 2)
    assert _flat(new) == pytest.approx(_pairs(expected), rel=1e-6)


def test_a_new_player_shows_1500_and_is_provisional_until_enough_games():
    assert skill.display(skill.MU) == 1500
    assert skill.is_provisional(skill.PROVISIONAL_GAMES - 1)
    assert not skill.is_provisional(skill.PROVISIONAL_GAMES)


def test_a_tie_gives_equal_players_equal_ratings():
    a, b, c = skill.rate([[Skill()], [Skill()], [Skill()]], [1, 2, 2])
    assert b == c and a[0].mu > b[0].mu
