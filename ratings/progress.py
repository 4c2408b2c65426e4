"""XP, levels, achievements and weekly quests: what each is and how a game's facts earn it.

RULES.md 13: custom tables give half XP and no achievements or quests. Everything here is
decided from a game's facts (ratings.record), so it can be recomputed from the records.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from django.utils.translation import gettext_lazy as _

from ratings.record import GameFacts

WIN_XP = 100
LAST_XP = 40
QUEST_XP = 50


def game_xp(facts: GameFacts, seat: int, *, custom: bool) -> int:
    """Every finished game gives XP by place: the winner 100, the last 40, the rest between;
    a forfeited player (RULES.md 10: surrender, or out by missed turns) none. Custom tables
    give half (RULES.md 13)."""
    if seat in facts.forfeited:
        return 0
    worst = max(facts.ranks)
    rank = facts.ranks[seat]
    xp = WIN_XP if worst == 1 else LAST_XP + (WIN_XP - LAST_XP) * (worst - rank) // (worst - 1)
    return xp // 2 if custom else xp


def level_floor(level: int) -> int:
    """XP needed for ``level``: 0, 100, 300, 600, 1000, ... (each level 100 more than the last)."""
    return 50 * level * (level - 1)


def level_of(xp: int) -> int:
    level = 1
    while level_floor(level + 1) <= xp:
        level += 1
    return level


@dataclass(frozen=True)
class AchievementDef:
    code: str
    name: str
    text: str


ACHIEVEMENTS = (
    AchievementDef("first_game", _("First game"), _("Finish a game.")),
    AchievementDef("first_win", _("First win"), _("Win a game.")),
    AchievementDef("first_group", _("Monopolist"), _("Own a whole colour group.")),
    AchievementDef("first_hotel", _("First hotel"), _("Build a hotel (a corporation on the world board).")),
    AchievementDef("every_group", _("Collector"), _("Own every colour group at least once, over all your games.")),
    AchievementDef("three_bankrupt", _("Tycoon"), _("Bankrupt three players in one game.")),
    AchievementDef("correspondence_win", _("Patient winner"), _("Win a correspondence game.")),
    AchievementDef("comeback", _("Comeback"),
                   _("Win a game in which you had the lowest net worth at the start of a round.")),
    AchievementDef("ten_games", _("Regular"), _("Finish ten games.")),
)
ACHIEVEMENT_CODES = tuple(a.code for a in ACHIEVEMENTS)
COLOUR_GROUPS = 8  # brown to dark blue, on both boards (RULES.md 2)


def achievements_earned(facts: GameFacts, seat: int, *, correspondence: bool, groups_before: set[str],
                        games_before: int) -> list[str]:
    """The achievements this game earns the player in ``seat`` (whether or not they had them)."""
    won = facts.ranks[seat] == 1 and seat not in facts.forfeited
    groups = groups_before | facts.groups_owned[seat]
    earned = ["first_game"]
    if won:
        earned.append("first_win")
    if facts.groups_owned[seat]:
        earned.append("first_group")
    if seat in facts.hotels:
        earned.append("first_hotel")
    if len(groups) >= COLOUR_GROUPS:
        earned.append("every_group")
    if facts.bankrupted_by(seat) >= 3:
        earned.append("three_bankrupt")
    if won and correspondence:
        earned.append("correspondence_win")
    if won and seat in facts.was_lowest:
        earned.append("comeback")
    if games_before + 1 >= 10:
        earned.append("ten_games")
    return earned


@dataclass(frozen=True)
class QuestDef:
    code: str
    stat: str  # the PlayerResult column summed over the week
    target: int
    text: str


# Three quests a week, the same for everyone, taken in turn from this list by the week's number.
QUESTS = (
    QuestDef("play_3", "played", 3, _("Finish 3 games")),
    QuestDef("win_1", "won", 1, _("Win a game")),
    QuestDef("rent_15", "rents", 15, _("Collect rent 15 times")),
    QuestDef("build_6", "builds", 6, _("Build 6 houses or hotels")),
    QuestDef("trade_2", "trades", 2, _("Complete 2 trades")),
    QuestDef("rated_2", "rated", 2, _("Finish 2 rated games")),
)
QUESTS_PER_WEEK = 3


def week_start(day: date) -> date:
    """The Monday of ``day``'s ISO week (weeks run Monday to Sunday, in UTC)."""
    return day - timedelta(days=day.weekday())


def quests_of_week(monday: date) -> list[QuestDef]:
    n = monday.toordinal() // 7
    return [QUESTS[(n + i) % len(QUESTS)] for i in range(QUESTS_PER_WEEK)]
