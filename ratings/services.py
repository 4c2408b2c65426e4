"""Every write of the ratings app (keyword-only, typed, ``<entity>_<verb>``).

``game_result_record`` turns a finished game's record into its results: ratings (RULES.md 13),
XP, achievements and weekly quests. It runs once per game: it locks the game row and does
nothing if the game's GameResult exists, and that row's unique game makes a second writer fail
rather than count the game twice.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from analysis.selectors import is_sandbox
from games import services as game_services
from games.models import Game, GameAction, Seat, Table
from moderation.selectors import is_blocked
from ratings import progress, skill
from ratings.models import (
    RATED_PRESETS,
    Achievement,
    GameResult,
    PlayerResult,
    Progress,
    QuestCompletion,
    Rating,
    Rematch,
)
from ratings.record import GameFacts, analyse

logger = logging.getLogger(__name__)

# RULES.md 13: only the presets of ratings.models.RATED_PRESETS change ratings, each in its own
# family, and only games this long.
MIN_ROUNDS = 10
MIN_MINUTES = 10


def game_record_of(*, game: Game) -> tuple[dict[str, Any], list[str], datetime, datetime]:
    """The game's record (as games.views.play.game_record gives it), the source of each action,
    and when the first and the last action were applied."""
    rows = list(GameAction.objects.filter(game_id=game.pk).order_by("seq", "sub")
                .values_list("seq", "action", "source", "created_at"))
    start = rows[0][1]
    record = {"rules": start["rules"], "seed": start["seed"], "names": [str(n) for n in start["names"]],
              "teams": start.get("teams"), "actions": [a for seq, a, _s, _t in rows if seq != 0]}
    return record, [s for _q, _a, s, _t in rows], rows[0][3], rows[-1][3]


def taken_over(seat: Seat) -> bool:
    """A seat a strategy bot plays since its player's third missed turn or the deletion of their
    account (RULES.md 15, ``absent_seat`` "bot"): its player is still on it, or it is marked as a
    deleted player's."""
    return bool(seat.bot) and (seat.user_id is not None or seat.account_deleted)


def rating_eligibility(*, table: Table, seats: list[Seat], sources: list[str], facts: GameFacts,
                       minutes: float) -> tuple[str, str]:
    """(family, "") for a game that changes ratings, else ("", the reason's code). RULES.md 13:
    world-classic and classic games with no bots, at least 10 rounds and 10 minutes of play,
    not on a custom table. Rounds are those completed before the one the game ended in."""
    family = RATED_PRESETS.get(table.preset)
    if family is None:
        return "", "preset"
    if table.is_custom:
        return "", "custom"
    # A bot that took over an absent player's seat (RULES.md 15) does not unrate the game: that
    # player counts as forfeited. Bots seated from the start do (RULES.md 13).
    if any(s.bot and not taken_over(s) for s in seats) or ("bot" in sources and not any(map(taken_over, seats))):
        return "", "bots"
    if facts.completed_rounds < MIN_ROUNDS:
        return "", "rounds"
    if minutes < MIN_MINUTES:
        return "", "minutes"
    if sum(1 for s in seats if s.user_id is not None) < 2:
        return "", "players"
    return family, ""


def _summary(facts: GameFacts) -> dict[str, Any]:
    trade = facts.biggest_trade
    return {
        "names": facts.names, "teams": facts.teams, "board": facts.board, "winner": facts.winner,
        "ranks": facts.ranks, "forfeited": sorted(facts.forfeited), "surrendered": sorted(facts.surrendered),
        "rounds": facts.rounds,
        "final_worth": facts.final_worth,
        "worth": {"rounds": facts.worth_rounds, "values": facts.worth},
        "rent": sorted(([p, o, amount] for (p, o), amount in facts.rent.items()), key=lambda r: (-r[2], r[0], r[1])),
        "biggest_trade": None if trade is None else {
            "number": trade.number, "from": trade.from_seat, "to": trade.to_seat, "give": trade.give,
            "take": trade.take, "value": trade.value, "round": trade.round,
            "squares": trade.squares},
        "bankruptcies": facts.bankruptcies,
        "ended": facts.ended,
    }


def _locked_rows(model, users: list[int], **fields: Any) -> dict[int, Any]:
    """The rows of ``model`` for these users, created if missing, locked in user order (two games
    finishing at once with a player in common wait for each other instead of deadlocking)."""
    model.objects.bulk_create([model(user_id=u, **fields) for u in users], ignore_conflicts=True)
    rows = model.objects.select_for_update().filter(user_id__in=users, **fields).order_by("user_id")
    return {r.user_id: r for r in rows}


def _award(user_id: int, code: str, game: Game, when: datetime) -> bool:
    _row, created = Achievement.objects.get_or_create(user_id=user_id, code=code,
                                                      defaults={"game": game, "awarded_at": when})
    return created


@transaction.atomic
def game_result_record(*, game_id: int) -> GameResult | None:
    """Record a finished game's results, exactly once. None for a game still in play (or gone)."""
    game = Game.objects.select_for_update().select_related("table").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.FINISHED:
        return None
    existing = GameResult.objects.filter(game=game).first()
    if existing is not None:
        return existing
    table = game.table
    seats = list(table.seats.select_related("user").order_by("position"))
    record, sources, first_at, last_at = game_record_of(game=game)
    # RULES.md 15, absent players: a seat a bot took over counts as forfeited by its player.
    facts = analyse(record, forfeited={s.position for s in seats if taken_over(s)})
    minutes = (last_at - first_at).total_seconds() / 60
    family, reason = rating_eligibility(table=table, seats=seats, sources=sources, facts=facts, minutes=minutes)
    custom = table.is_custom
    when = game.finished_at or last_at
    result = GameResult.objects.create(game=game, family=family, rated=bool(family), unrated_reason=reason,
                                       custom=custom, summary=_summary(facts), finished_at=when)
    # (Its player keeps the seat's result: forfeited, last, the XP of that place.)
    humans = [s for s in seats if s.user_id is not None and (not s.bot or taken_over(s))]
    if is_sandbox(game_id=game.pk):
        humans = []  # Issue 30: a game played on from a replay gives no XP, achievement or quest.
    users = sorted({s.user_id for s in humans})

    after: dict[int, skill.Skill] = {}
    before: dict[int, skill.Skill] = {}
    ratings: dict[int, Rating] = {}
    if family:
        ratings = _locked_rows(Rating, users, family=family)
        by_seat = {s.position: s.user_id for s in humans}
        # A seat whose account is gone plays with a new player's rating and keeps nothing.
        current = [skill.Skill(ratings[by_seat[p]].mu, ratings[by_seat[p]].sigma) if p in by_seat else skill.Skill()
                   for p in range(facts.players)]
        if facts.teams:
            groups = [list(team) for team in facts.teams]
            ranks = [facts.ranks[team[0]] for team in groups]
        else:
            groups = [[p] for p in range(facts.players)]
            ranks = facts.ranks
        new = skill.rate([[current[p] for p in team] for team in groups], ranks)
        for team, skills in zip(groups, new, strict=True):
            for p, s in zip(team, skills, strict=True):
                if p in by_seat:
                    before[p], after[p] = current[p], s

    progress_rows = _locked_rows(Progress, users)
    rows = []
    for seat in humans:
        p, uid = seat.position, seat.user_id
        prog = progress_rows[uid]
        xp = progress.game_xp(facts, p, custom=custom)
        won = facts.ranks[p] == 1 and p not in facts.forfeited
        counts = not custom and p not in facts.forfeited
        # A game finishes for each of its players, whoever surrendered or was forfeited: it is one
        # of the games they finished (and rated, if it changed ratings), not one they won.
        finished = not custom
        row = PlayerResult(
            result=result, game=game, user_id=uid, seat=p, name=facts.names[p], preset=table.preset,
            rank=facts.ranks[p], players=facts.players, forfeited=p in facts.forfeited,
            surrendered=p in facts.surrendered,
            net_worth=facts.final_worth[p], xp=xp, finished_at=when,
            played=int(finished), won=int(counts and won), rents=facts.rent_received[p] if counts else 0,
            builds=facts.builds[p] if counts else 0,
            trades=sum(1 for t in facts.trades if p in (t.from_seat, t.to_seat)) if counts else 0,
            rated=int(finished and bool(family)))
        if p in after:
            rating = ratings[uid]
            row.family = family
            row.mu_before, row.sigma_before = before[p].mu, before[p].sigma
            row.mu_after, row.sigma_after = after[p].mu, after[p].sigma
            rating.mu, rating.sigma = after[p].mu, after[p].sigma
            rating.games += 1
            rating.value = skill.display(rating.mu)
            rating.save(update_fields=["mu", "sigma", "games", "value", "updated_at"])
            row.rated_games = rating.games
        rows.append(row)
        games_before = prog.games
        prog.xp += xp
        prog.games += 1
        if not custom:
            # RULES.md 13: no achievements on custom tables.
            groups_before = set(prog.groups_owned)
            prog.groups_owned = sorted(groups_before | facts.groups_owned[p])
            for code in progress.achievements_earned(facts, p, correspondence=table.pace == Table.Pace.CORRESPONDENCE,
                                                     groups_before=groups_before, games_before=games_before):
                _award(uid, code, game, when)
        prog.save()
    PlayerResult.objects.bulk_create(rows)
    if not custom:
        for uid in users:
            _quests_check(user_id=uid, game=game, when=when, prog=progress_rows[uid])
    return result


def _quests_check(*, user_id: int, game: Game, when: datetime, prog: Progress) -> None:
    """Complete the week's quests the user's games of that week now reach (RULES.md 13: custom
    games count nothing, their rows hold zeros)."""
    monday = progress.week_start(when.astimezone(UTC).date())
    start = datetime.combine(monday, datetime.min.time(), tzinfo=UTC)
    week_rows = PlayerResult.objects.filter(user_id=user_id, finished_at__gte=start,
                                            finished_at__lt=start + timedelta(days=7))
    done = set(QuestCompletion.objects.filter(user_id=user_id, week=monday).values_list("code", flat=True))
    todo = [q for q in progress.quests_of_week(monday) if q.code not in done]
    if not todo:
        return
    totals = week_rows.aggregate(**{q.stat: Sum(q.stat) for q in todo})
    for q in todo:
        if (totals[q.stat] or 0) >= q.target:
            QuestCompletion.objects.create(user_id=user_id, week=monday, code=q.code, game=game, xp=progress.QUEST_XP,
                                           completed_at=when)
            prog.xp += progress.QUEST_XP
    prog.save(update_fields=["xp"])


@transaction.atomic
def ratings_recompute() -> int:
    """Rebuild every rating, result, XP total, achievement and quest from the games' records, in
    the order the games finished. Returns the number of games recorded."""
    GameResult.objects.all().delete()
    for model in (Rating, Progress, Achievement, QuestCompletion):
        model.objects.all().delete()
    count = 0
    for gid in Game.objects.filter(status=Game.Status.FINISHED).order_by("finished_at", "pk").values_list(
            "pk", flat=True):
        if game_result_record(game_id=gid) is not None:
            count += 1
    return count


def results_catch_up(*, limit: int = 100) -> int:
    """Record the finished games that have no result yet (a task lost with its broker)."""
    ids = list(Game.objects.filter(status=Game.Status.FINISHED, result__isnull=True)
               .order_by("finished_at", "pk").values_list("pk", flat=True)[:limit])
    for gid in ids:
        try:
            game_result_record(game_id=gid)
        except Exception:
            # One record the replay refuses must not hold up every other game's result.
            logger.exception("recording the result of game %s failed", gid)
    return len(ids)


# ---------------------------------------------------------------------------------------------
# Rematch
# ---------------------------------------------------------------------------------------------

# How long a rematch keeps each player of the last game their seat: long enough for the
# invitation to be read at the table's pace; then the seat is free for anyone.
REMATCH_HOLD = {Table.Pace.LIVE: timedelta(minutes=15), Table.Pace.CORRESPONDENCE: timedelta(days=1)}


@transaction.atomic
def rematch_create(*, game: Game, by) -> tuple[Table, bool]:
    """The host opens a new table with the same rule set, pace, seats and bots, keeps each
    player of the last game their seat for REMATCH_HOLD (nobody else may take it meanwhile) and
    invites them (an e-mail each, as any invitation). Someone who blocks the host gets neither
    (issue 11). A second click finds the same table: returns (table, created)."""
    game = Game.objects.select_for_update().select_related("table").get(pk=game.pk)
    old = game.table
    if game.status == Game.Status.ACTIVE:
        raise game_services.GameError(_("the game is not over yet"))
    if old.host_id != by.pk:
        raise game_services.NotAllowed(_("only the host may open a rematch"))
    existing = Rematch.objects.filter(game=game).select_related("table").first()
    if existing is not None:
        return existing.table, False
    seats = list(old.seats.select_related("user").order_by("position"))
    table = game_services.table_create(host=by, name=old.name, preset=old.preset, options=dict(old.options),
                                       pace=old.pace, turn_hours=old.turn_hours or 24, seat_count=old.seat_count,
                                       is_private=old.is_private)
    mine = next((s for s in seats if s.user_id == by.pk), None)
    if mine is not None and mine.position != 0:
        game_services.table_change_seat(table=table, user=by, position=mine.position)
    for s in seats:
        if s.bot:
            game_services.table_set_seat(table=table, by=by, position=s.position, bot=s.bot)
    others = [s for s in seats if s.user is not None and s.user_id != by.pk and s.user.is_active]
    # They block the host: their seat stays open, and they get no e-mail (issue 11).
    others = [s for s in others if not (s.user.email and is_blocked(blocker_email=s.user.email, blocked=by))]
    # (A seat a bot took over at its player's third missed turn has its bot again: none to keep.)
    kept = {s.position: s.user for s in others if not s.bot}
    if kept:
        game_services.table_hold_seats(table=table, by=by, holds=kept, until=timezone.now() + REMATCH_HOLD[table.pace])
    for s in others:
        if s.user.email:
            game_services.invitation_create(table=table, by=by, email=s.user.email)
    Rematch.objects.create(game=game, table=table)
    return table, True
