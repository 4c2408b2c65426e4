"""The rating model: OpenSkill's Plackett-Luce (the ``openskill`` package), which rates a
free-for-all finishing order with ties directly, and teams as teams.

A rating is a belief about skill, ``mu`` with uncertainty ``sigma`` (new players: 25 and 25/3).
People see ``display`` (mu on a 1500 scale, as chess sites show) and, while they are new, a
question mark: ``provisional`` until PROVISIONAL_GAMES rated games.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma
SCALE = 60  # display points per unit of mu: a new player shows 1500
PROVISIONAL_GAMES = 5


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA


def display(mu: float) -> int:
    return round(mu * SCALE)


def deviation(sigma: float) -> int:
    return round(sigma * SCALE)


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


def rate(teams: list[list[Skill]], ranks: list[int]) -> list[list[Skill]]:
    """New skills after one game: ``teams`` in seat order (one player each in a free-for-all),
    ``ranks`` their places (1 first; equal values are ties)."""
    rated = MODEL.rate([[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams],
                       ranks=[float(r) for r in ranks])
    return [[Skill(mu=r.mu, sigma=r.sigma) for r in team] for team in rated]
