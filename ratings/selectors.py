"""Every read of the ratings app: the leaderboard, a player's profile, a finished game's summary."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q, Sum
from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Game, Seat, Table
from moderation import selectors as moderation_selectors
from moderation.permissions import can
from ratings import charts, progress, skill
from ratings.models import Achievement, Family, GameResult, PlayerResult, Progress, QuestCompletion, Rating, Rematch

LEADERBOARD_LIMIT = 100
RECENT_GAMES = 15
# One colour per seat, as the game page draws the players (games/views/page/players.py).
PLAYER_COLOURS = ("#d62828", "#1d5fd8", "#15803d", "#a86400", "#7c3aed", "#0e7490", "#c2185b", "#57534e")
FAMILY_COLOURS = {Family.CLASSIC: "#1d5fd8", Family.WORLD: "#138a43"}


def _money(amount: int) -> str:
    # Whole dollars on both boards (RULES.md: money is integers).
    return f"${number_format(amount, force_grouping=True)}"


# ---------------------------------------------------------------------------------------------
# Leaderboard
# ---------------------------------------------------------------------------------------------

@dataclass
class BoardRow:
    place: int | None  # None for provisional players, who are listed after the ranked ones
    rating: Rating


def leaderboard(*, family: str, limit: int = LEADERBOARD_LIMIT) -> list[BoardRow]:
    """The family's players by rating; provisional ones (fewer than PROVISIONAL_GAMES rated
    games) after the others, marked, without a place."""
    if family not in Family.values:
        raise Http404("no such rating family")
    qs = Rating.objects.filter(family=family, games__gt=0, user__is_active=True).select_related("user")
    ranked = list(qs.filter(games__gte=skill.PROVISIONAL_GAMES).order_by("-value", "-games", "user_id")[:limit])
    rows = [BoardRow(place=i + 1, rating=r) for i, r in enumerate(ranked)]
    if len(rows) < limit:
        rest = qs.filter(games__lt=skill.PROVISIONAL_GAMES).order_by("-value", "-games", "user_id")
        rows += [BoardRow(place=None, rating=r) for r in rest[: limit - len(rows)]]
    return rows


# ---------------------------------------------------------------------------------------------
# Profile
# ---------------------------------------------------------------------------------------------

@dataclass
class FamilyRating:
    family: str
    label: str
    rating: Rating | None
    place: int | None
    chart: charts.Chart | None


@dataclass
class AchievementView:
    code: str
    name: str
    text: str
    awarded_at: datetime | None


@dataclass
class QuestView:
    code: str
    text: str
    progress: int
    target: int
    done: bool


@dataclass
class PresetRate:
    preset: str
    games: int
    wins: int

    @property
    def percent(self) -> int:
        return round(100 * self.wins / self.games) if self.games else 0


@dataclass
class Profile:
    owner: Any
    xp: int
    level: int
    level_floor: int
    next_floor: int
    games: int
    ratings: list[FamilyRating]
    achievements: list[AchievementView]
    quests: list[QuestView]
    week: Any
    recent: list[PlayerResult]
    win_rates: list[PresetRate]
    playing: list[Game]
    moderation_url: str | None = None
    is_self: bool = False
    # The viewer's block of the owner (moderation.models.Block): shown with an Unblock button;
    # may_block: a signed-in viewer on someone else's profile who does not block them yet.
    blocked_by_viewer: bool = False
    may_block: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def level_percent(self) -> int:
        span = self.next_floor - self.level_floor
        return round(100 * (self.xp - self.level_floor) / span) if span else 100


def visible_games_q(viewer, prefix: str = "") -> Q:
    """Games the viewer may see: public tables', and private ones they sit at or host."""
    q = Q(**{f"{prefix}table__is_private": False})
    if viewer is not None and viewer.is_authenticated:
        q |= Q(**{f"{prefix}table__seats__user": viewer}) | Q(**{f"{prefix}table__host": viewer})
    return q


def _rating_chart(results: list[PlayerResult], label: str, colour: str) -> charts.Chart | None:
    if not results:
        return None
    values = [skill.display(results[0].mu_before)] + [skill.display(r.mu_after) for r in results]
    return charts.line_chart(list(range(len(values))), [(label, colour, values)], floor_zero=False)


def _place(rating: Rating) -> int | None:
    if rating.provisional:
        return None
    better = Rating.objects.filter(family=rating.family, games__gte=skill.PROVISIONAL_GAMES, user__is_active=True) \
        .filter(Q(value__gt=rating.value) | Q(value=rating.value, games__gt=rating.games)
                | Q(value=rating.value, games=rating.games, user_id__lt=rating.user_id)).count()
    return better + 1


def _owner_for(*, username: str, viewer):
    """The active account whose page this is, as the viewer may see it: an account that blocks
    the viewer is as unknown to them as one that does not exist (issue 13). Moderators are the
    exception: a block does not hide a player from the people who moderate them."""
    owner = get_user_model().objects.filter(username=username, is_active=True).first()
    if owner is None or (moderation_selectors.blocks(blocker=owner, blocked=viewer)
                         and not can("moderation.view_account", viewer)):
        raise Http404("no such player")
    return owner


def _moderation_url(*, owner, viewer) -> str | None:
    """Moderators get the account's history in the moderation app; staff who are not
    moderators keep the admin's history of the account."""
    if can("moderation.view_account", viewer):
        return reverse("moderation:account", args=[owner.pk])
    if viewer is not None and viewer.is_authenticated and viewer.is_staff:
        return reverse("admin:accounts_user_history", args=[owner.pk])
    return None


def profile(*, username: str, viewer) -> Profile:
    """A player's public page. Games at private tables are listed only to their own players;
    they still count in the figures, which say nothing about any one game."""
    owner = _owner_for(username=username, viewer=viewer)
    prog = Progress.objects.filter(user=owner).first()
    xp = prog.xp if prog else 0
    level = progress.level_of(xp)
    ratings = {r.family: r for r in Rating.objects.filter(user=owner)}
    history = list(PlayerResult.objects.filter(user=owner, mu_after__isnull=False).order_by("finished_at", "pk"))
    fams = []
    for fam in Family:
        r = ratings.get(fam.value)
        fam_results = [h for h in history if h.family == fam.value]
        fams.append(FamilyRating(family=fam.value, label=str(fam.label), rating=r,
                                 place=_place(r) if r and r.games else None,
                                 chart=_rating_chart(fam_results, str(fam.label), FAMILY_COLOURS[fam])))
    earned = {a.code: a.awarded_at for a in Achievement.objects.filter(user=owner)}
    achievements = [AchievementView(code=a.code, name=str(a.name), text=str(a.text), awarded_at=earned.get(a.code))
                    for a in progress.ACHIEVEMENTS]
    week = progress.week_start(timezone.now().astimezone(UTC).date())
    start = datetime.combine(week, datetime.min.time(), tzinfo=UTC)
    defs = progress.quests_of_week(week)
    week_rows = PlayerResult.objects.filter(user=owner, finished_at__gte=start, finished_at__lt=start + timedelta(7))
    totals = week_rows.aggregate(**{q.stat: Sum(q.stat) for q in defs})
    done = set(QuestCompletion.objects.filter(user=owner, week=week).values_list("code", flat=True))
    quests = [QuestView(code=q.code, text=str(q.text), progress=min(q.target, totals[q.stat] or 0), target=q.target,
                        done=q.code in done) for q in defs]
    recent = list(PlayerResult.objects.filter(user=owner).filter(visible_games_q(viewer, "game__"))
                  .select_related("game__table").distinct().order_by("-finished_at", "-pk")[:RECENT_GAMES])
    rates = [PresetRate(preset=row["preset"], games=row["games"], wins=row["wins"]) for row in
             PlayerResult.objects.filter(user=owner).values("preset")
             .annotate(games=Count("pk"), wins=Count("pk", filter=Q(rank=1, forfeited=False))).order_by("-games")]
    playing = list(Game.objects.filter(status=Game.Status.ACTIVE, table__seats__user=owner)
                   .filter(visible_games_q(viewer)).select_related("table").defer("state").distinct()
                   .order_by("-started_at")[:20])
    is_self = viewer is not None and viewer.is_authenticated and viewer.pk == owner.pk
    blocked = not is_self and moderation_selectors.blocks(blocker=viewer, blocked=owner)
    return Profile(owner=owner, xp=xp, level=level, level_floor=progress.level_floor(level),
                   next_floor=progress.level_floor(level + 1), games=prog.games if prog else 0, ratings=fams,
                   achievements=achievements, quests=quests, week=week, recent=recent, win_rates=rates,
                   playing=playing, moderation_url=_moderation_url(owner=owner, viewer=viewer),
                   is_self=is_self, blocked_by_viewer=blocked,
                   may_block=not blocked and can("moderation.block", viewer, owner))


def game_history(*, username: str, viewer, family: str | None = None):
    """A player's finished games, newest first (a queryset to paginate): the games at private
    tables only to their own players, as on the profile; ``family`` keeps the rated ones of it.
    Hidden, as the profile is, from a viewer the player blocks."""
    owner = _owner_for(username=username, viewer=viewer)
    rows = PlayerResult.objects.filter(user=owner).filter(visible_games_q(viewer, "game__"))
    if family is not None:
        if family not in Family.values:
            raise Http404("no such rating family")
        rows = rows.filter(family=family, mu_after__isnull=False)
    return owner, rows.select_related("game__table").distinct().order_by("-finished_at", "-pk")


# ---------------------------------------------------------------------------------------------
# The finished game
# ---------------------------------------------------------------------------------------------

@dataclass
class SummaryPlayer:
    seat: int
    name: str
    colour: str
    rank: int
    forfeited: bool
    surrendered: bool
    net_worth: str
    result: PlayerResult | None
    username: str | None


@dataclass
class Summary:
    game: Game
    result: GameResult | None
    players: list[SummaryPlayer] = field(default_factory=list)
    chart: charts.Chart | None = None
    rent: list[dict[str, Any]] = field(default_factory=list)
    trade: dict[str, Any] | None = None
    bankruptcies: list[dict[str, Any]] = field(default_factory=list)
    rematch_table: Table | None = None
    can_rematch: bool = False
    ended: str = ""  # how the game ended early (RULES.md 16), in words


def _side(side: dict[str, Any], square_names: dict[str, str]) -> str:
    parts = []
    if side.get("cash"):
        parts.append(_money(int(side["cash"])))
    parts += [square_names.get(str(sq), "?") for sq in side.get("squares", []) or []]
    if side.get("cards"):
        parts.append(ngettext("%(n)d jail card", "%(n)d jail cards", side["cards"]) % {"n": side["cards"]})
    return ", ".join(parts) or "—"


def game_summary(*, game: Game, seats: list[Seat], viewer) -> Summary:
    """What a finished game shows: the standings, the net worth over the rounds, the rent paid
    between players, the biggest trade, who bankrupted whom, and the rating and XP changes."""
    result = GameResult.objects.filter(game=game).first()
    summary = Summary(game=game, result=result)
    rematch = Rematch.objects.filter(game=game).select_related("table").first()
    if rematch is not None and rematch.table.status == Table.Status.OPEN:
        summary.rematch_table = rematch.table
    summary.can_rematch = (viewer is not None and viewer.is_authenticated and game.table.host_id == viewer.pk
                           and game.status != Game.Status.ACTIVE)
    if result is None or not result.summary:
        return summary
    data = result.summary
    names = data["names"]
    ended = data.get("ended")
    if ended and ended[0] == "round_limit":
        summary.ended = _("Ended after round %(n)s, the table's limit; ranked by net worth.") % {"n": ended[1]}
    elif ended and ended[0] == "agreement":
        summary.ended = _("Ended by agreement in round %(n)s; ranked by net worth.") % {"n": ended[1]}
    by_seat = {r.seat: r for r in result.players.all()}
    users = {s.position: s.user for s in seats if s.user_id}
    for p, name in enumerate(names):
        user = users.get(p)
        summary.players.append(SummaryPlayer(
            seat=p, name=name, colour=PLAYER_COLOURS[p % len(PLAYER_COLOURS)], rank=data["ranks"][p],
            forfeited=p in data["forfeited"], surrendered=p in data.get("surrendered", ()),
            net_worth=_money(data["final_worth"][p]),
            result=by_seat.get(p), username=user.username if user is not None and user.is_active else None))
    summary.players.sort(key=lambda sp: (sp.rank, sp.seat))
    worth = data["worth"]
    summary.chart = charts.line_chart(
        worth["rounds"], [(name, PLAYER_COLOURS[p % len(PLAYER_COLOURS)], [w[p] for w in worth["values"]])
                          for p, name in enumerate(names)],
        y_format=lambda v: _money(int(v)))
    summary.rent = [{"from": names[p], "to": names[o], "amount": _money(amount)}
                    for p, o, amount in data["rent"]]
    trade = data.get("biggest_trade")
    if trade is not None:
        summary.trade = {"from": names[trade["from"]], "to": names[trade["to"]], "round": trade["round"],
                         "give": _side(trade["give"], trade["squares"]), "take": _side(trade["take"], trade["squares"]),
                         "value": _money(trade["value"])}
    # (A player who surrendered is said to have surrendered, not to have gone bankrupt: RULES.md 10.)
    surrendered = set(data.get("surrendered", ()))
    summary.bankruptcies = [{"who": names[b["p"]], "to": None if b["to"] is None else names[b["to"]],
                             "round": b["round"], "surrendered": b["p"] in surrendered}
                            for b in data["bankruptcies"]]
    return summary
