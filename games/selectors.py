"""Reads of the games app (HackSoft style): who may see a table or a game, the lobby, a table
page, the "My games" dashboard.

Each read runs a fixed number of queries whatever the number of tables or games (the tests hold
them to it with django_assert_max_num_queries). A read of something the viewer may not see
answers None, and the view says 404: selectors know nothing of HTTP.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.utils import timezone

from games import sql
from games.engine import RuleSet
from games.links import game_path, table_path
from games.models import Game, GameAction, Invitation, Replay, Seat, Table, TradeMeter
from games.options import Change, pace_summary, rule_highlights, table_changes, table_rules

LOBBY_LIMIT = 60
_NEVER = datetime.max.replace(tzinfo=UTC)
DASHBOARD_FINISHED_LIMIT = 30

_OCCUPIED = Q(seats__user__isnull=False) | ~Q(seats__bot="")


def _taken_or_kept() -> Q:
    """A seat nobody else may take now: occupied, or kept for someone (``Seat.kept``)."""
    return _OCCUPIED | Seat.kept("seats__")


def _taken(seats: list[Seat], now: datetime) -> int:
    """``_taken_or_kept`` counted on seats read already."""
    return sum(1 for s in seats if not s.is_empty or s.held_for_at(now) is not None)


@dataclass
class TableCard:
    """What the lobby and the dashboard show of a table."""

    table: Table
    taken: int
    changes: list[Change]
    pace: str

    @property
    def is_custom(self) -> bool:
        return bool(self.changes)

    @property
    def free(self) -> int:
        return max(0, self.table.seat_count - self.taken)

    @property
    def dots(self) -> list[bool]:
        """One per seat, taken ones first (the card's little row of seats)."""
        return [True] * min(self.taken, self.table.seat_count) + [False] * self.free


def _card(table: Table, taken: int) -> TableCard:
    try:
        pace = pace_summary(
            pace=table.pace,
            turn_hours=table.turn_hours,
            rules=table_rules(preset=table.preset, options=table.options, pace=table.pace),
        )
    except ValueError:
        pace = table.get_pace_display()
    return TableCard(
        table=table, taken=taken, changes=table_changes(table.preset, table.options), pace=pace
    )


def lobby_tables(*, limit: int = LOBBY_LIMIT) -> list[TableCard]:
    """Open public tables with a free seat, the newest first: one query."""
    tables = (
        Table.objects.filter(status=Table.Status.OPEN, is_private=False)
        .select_related("host")
        .annotate(taken=Count("seats", filter=_taken_or_kept()))
        .order_by("-created_at")[:limit]
    )
    return [_card(t, t.taken) for t in tables]


def seated_table_ids(*, user) -> set[int]:
    """The open tables the user sits at (the lobby marks them): one query."""
    if not user.is_authenticated:
        return set()
    return set(
        Seat.objects.filter(user=user, table__status=Table.Status.OPEN).values_list(
            "table_id", flat=True
        )
    )


def _seats_queryset() -> QuerySet[Seat]:
    return Seat.objects.select_related("user", "held_for").order_by("position")


@dataclass
class TablePage:
    table: Table
    seats: list[Seat]
    card: TableCard
    highlights: list[tuple[str, str]]
    rules: RuleSet | None
    my_seat: Seat | None
    is_host: bool
    invitations: list[Invitation]
    game: Game | None
    viewer_id: int | None = None

    @property
    def is_full(self) -> bool:
        return all(not s.is_empty for s in self.seats)

    @property
    def can_join(self) -> bool:
        """Whether the viewer may sit down: no seat yet, and an empty one not kept for someone
        else (``Seat.kept_for_id``, set by ``table_page``: a rematch's hold, still running)."""
        return self.my_seat is None and any(
            s.is_empty and s.kept_for_id in (None, self.viewer_id) for s in self.seats)

    @property
    def teams(self) -> bool:
        return bool(self.rules and self.rules.teams)

    @property
    def team_counts(self) -> list[int]:
        return [sum(1 for s in self.seats if s.team == t and not s.is_empty) for t in (0, 1)]

    @property
    def team_room(self) -> list[bool]:
        """Whether each team has a place left (a player may switch into it)."""
        return [count < 2 for count in self.team_counts]

    @property
    def can_invite(self) -> bool:
        # Only the host: the invited addresses are theirs to know, and invitations theirs to
        # send (anyone may sit down at a public table).
        return self.table.status == Table.Status.OPEN and self.is_host


def _seen_by(user, *, table: str = "", code: str = "") -> Q:
    """Who may see a table and its game, as a filter: public tables are for everyone; a private
    one for its host, its players and the people invited by e-mail, and for whoever comes in
    through its invitation link (``code``). ``table`` is the path from the queried model to the
    table ("" on Table itself, "table__" on Game). This is the one place that decides it."""
    table_id = OuterRef(f"{table}pk" if table else "pk")
    seen = Q(**{f"{table}is_private": False})
    if code:
        seen |= Q(**{f"{table}invite_code": code})
    if user.is_authenticated:
        seen |= Q(**{f"{table}host_id": user.pk})
        seen |= Q(Exists(Seat.objects.filter(table_id=table_id, user_id=user.pk)))
        # A seat kept for them (a rematch's: Seat.held_for_at).
        seen |= Q(Exists(Seat.objects.filter(Seat.kept(), table_id=table_id, held_for_id=user.pk)))
        if user.email:
            seen |= Q(Exists(Invitation.objects.filter(table_id=table_id, email__iexact=user.email)))
    return seen


def visible_table(*, table_id: int, user, code: str = "") -> Table | None:
    """The table, if the user may see it (``code``: the invitation link they came by): one query."""
    return Table.objects.filter(_seen_by(user, code=code), pk=table_id).first()


def table_page(*, table_id: int, user, code: str = "") -> TablePage | None:
    """A table with its seats (and their users), its game and, for its host, its invitations;
    None if there is no such table or the user may not see it."""
    table = (
        Table.objects.select_related("host", "game")
        .prefetch_related(Prefetch("seats", queryset=_seats_queryset()))
        .filter(_seen_by(user, code=code), pk=table_id)
        .first()
    )
    if table is None:
        return None
    seats = list(table.seats.all())
    now = timezone.now()
    for s in seats:
        # Whom an empty seat is kept for now (a rematch's hold), for the page and its poll.
        s.kept_for_id = s.held_for_at(now)
    user_id = user.pk if user.is_authenticated else None
    my_seat = next((s for s in seats if user_id is not None and s.user_id == user_id), None)
    is_host = user_id is not None and table.host_id == user_id
    invitations: list[Invitation] = []
    if is_host:
        invitations = list(table.invitations.order_by("-created_at")[:20])
    try:
        rules = table_rules(preset=table.preset, options=table.options, pace=table.pace)
    except ValueError:
        rules = None
    game = getattr(table, "game", None)
    return TablePage(
        table=table,
        seats=seats,
        card=_card(table, _taken(seats, now)),
        highlights=rule_highlights(rules) if rules else [],
        rules=rules,
        my_seat=my_seat,
        is_host=is_host,
        invitations=invitations,
        game=game,
        viewer_id=user_id,
    )


def table_by_invite_code(*, code: str) -> Table | None:
    return Table.objects.filter(invite_code=code).first() if code else None


class VisibleGame(NamedTuple):
    """A game as one viewer may see it: the game (with its table), its seats (with their
    users) and the viewer's own seat (None for a spectator)."""

    game: Game
    seats: list[Seat]
    me: Seat | None


def _sees(user, table: Table, seats: list[Seat]) -> bool:
    """``_seen_by`` for one table whose seats are read already, decided on them: the same rule
    (a test holds the two to each other), without its subqueries. Only a private table's
    stranger with an e-mail address costs a query (their invitation)."""
    if not table.is_private:
        return True
    if not user.is_authenticated:
        return False
    now = timezone.now()
    if table.host_id == user.pk or any(s.user_id == user.pk or s.held_for_at(now) == user.pk for s in seats):
        return True
    return bool(user.email) and Invitation.objects.filter(table_id=table.pk, email__iexact=user.email).exists()


def visible_game(*, game_id: int, user) -> VisibleGame | None:
    """The game, if the user may see it (the rule of its table, ``_seen_by``): one query, the
    game with its table and seats (read for the page anyway, games/sql.py), and the rule
    decided on them (``_sees``)."""
    found = sql.game_with_seats(game_id)
    if found is None:
        return None
    game, seats = found
    if not _sees(user, game.table, seats):
        return None
    me = None
    if user.is_authenticated:
        me = next((s for s in seats if s.user_id == user.pk), None)
    return VisibleGame(game, seats, me)


def game_log(*, game_id: int, before: int | None = None, limit: int) -> list[dict]:
    """The game's log rows before ``before`` (all, without), newest first, at most ``limit``
    (games/sql.py's log_rows): for a game the viewer may see (``visible_game``)."""
    return sql.log_rows(game_id, before=before, limit=limit)


@dataclass
class DashboardEntry:
    card: TableCard
    seat: Seat
    game: Game | None
    waiting_for_me: bool = False
    winner: str = ""
    opponents: list[str] = field(default_factory=list)

    @property
    def table(self) -> Table:
        return self.card.table

    @property
    def deadline(self) -> datetime | None:
        return self.game.deadline if self.game else None

    @property
    def url(self) -> str:
        if self.game is not None:
            return game_path(self.game.pk)
        return table_path(self.table.pk)


@dataclass
class Dashboard:
    waiting: list[DashboardEntry]
    playing: list[DashboardEntry]
    open: list[DashboardEntry]
    finished: list[DashboardEntry]

    @property
    def is_empty(self) -> bool:
        return not (self.waiting or self.playing or self.open or self.finished)


def game_version(*, game_id: int) -> int | None:
    """The game's version now (None for no such game): what a program's stale move is told to
    read the position again at (games/views/play.py)."""
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first()


def table_seats(*, table_id: int) -> list[Seat]:
    """The table's seats with their users: a finished game's replay names each player by their
    current name (games/views/records.py)."""
    return list(Seat.objects.filter(table_id=table_id).select_related("user"))


def last_replay(*, owner) -> Replay | None:
    """The game record ``owner`` uploaded last (one per account: services.replay_upload)."""
    return Replay.objects.filter(owner=owner).first()


def trade_meter_row(*, game: Game, key: str) -> TradeMeter | None:
    """A trade meter's row of this game by its key (issue 30: games/meter.py), or None."""
    return TradeMeter.objects.filter(key=key[:64], game=game).first()


def surrendered_seats(*, game_id: int) -> frozenset[int]:
    """The seats that left the game by surrendering (RULES.md 10: a bankruptcy, said
    "surrendered" wherever a player's end is shown, issue 26 item 33), from the game's record: a
    player goes out once, so a seat out at any step that surrendered at some step surrendered
    then. One indexed query; callers ask only when someone is out."""
    seats = (GameAction.objects.filter(game_id=game_id, action__type="surrender")
             .values_list("action__player", flat=True))
    return frozenset(int(p) for p in seats if isinstance(p, int))


def live_names(names: list[str], seats: list[Seat]) -> list[str]:
    """The players' names as the site shows a game now. The engine's state keeps the names
    given at the start (a record replays with them); a person is shown by their current display
    name instead, from their seat's user. A bot, and a seat whose user has gone, is shown by its
    seat's label in the reader's language ("Strategy bot 2" is the host's words at the start).
    A person whose seat a bot plays keeps their name.
    Names that now coincide get their seat number, as at the start (services.table_start)."""
    by_position = {s.position: s for s in seats}
    out = []
    for position, name in enumerate(names):
        seat = by_position.get(position)
        if seat is not None and seat.user_id is not None and not seat.bot:
            name = seat.user.public_name
        elif seat is not None and seat.user_id is None and (seat.bot or seat.account_deleted):
            name = str(seat.label)
        out.append(name)
    if len(set(out)) != len(out):
        out = [f"{n} ({p + 1})" if out.count(n) > 1 else n for p, n in enumerate(out)]
    return out


def name_changes(state_names: list[str], seats: list[Seat]) -> dict[str, str]:
    """Start name -> name shown now, for the names that changed (to word the engine's refusals,
    which name players as the state does)."""
    return {old: new for old, new in zip(state_names, live_names(state_names, seats), strict=True)
            if old != new}


def winner_name(game: Game, seats: list[Seat]) -> str:
    if game.winner_seat is None:
        return ""
    players = game.state.get("players") or []
    if 0 <= game.winner_seat < len(players):
        names = live_names([p.get("name") or "" for p in players], seats)
        teams = game.state.get("teams")
        if teams:
            team = next((t for t in teams if game.winner_seat in t), None)
            if team:
                return " & ".join(names[p] for p in team if p < len(players))
        return names[game.winner_seat]
    seat = next((s for s in seats if s.position == game.winner_seat), None)
    return seat.label if seat else ""


def dashboard(*, user) -> Dashboard:
    """Every table and game the user sits at: those waiting for them first (soonest deadline
    first), then the other games in play, the tables still filling up, and the latest finished
    games. Four queries: the user's seats with table, host and game; every seat of those tables.
    """
    my_seats = list(
        Seat.objects.filter(user=user)
        .exclude(table__status=Table.Status.CANCELLED)
        .select_related("table__host", "table__game")
        .defer("table__game__state")
        .order_by("-table__created_at")
    )
    table_ids = [s.table_id for s in my_seats]
    all_seats: dict[int, list[Seat]] = {}
    for s in _seats_queryset().filter(table_id__in=table_ids):
        all_seats.setdefault(s.table_id, []).append(s)
    finished_ids = [
        s.table.game.pk
        for s in my_seats
        if hasattr(s.table, "game") and s.table.game.status != Game.Status.ACTIVE
    ]
    # Only finished games need the state (for the winner's name); only their players list is read.
    winners_state = (
        dict(
            Game.objects.filter(pk__in=finished_ids[:DASHBOARD_FINISHED_LIMIT]).values_list(
                "pk", "state"
            )
        )
        if finished_ids
        else {}
    )

    board = Dashboard(waiting=[], playing=[], open=[], finished=[])
    now = timezone.now()
    for seat in my_seats:
        table = seat.table
        seats = all_seats.get(table.pk, [])
        game = getattr(table, "game", None)
        entry = DashboardEntry(
            card=_card(table, _taken(seats, now)),
            seat=seat,
            game=game,
            opponents=[s.label for s in seats if s.pk != seat.pk and not s.is_empty],
        )
        if game is None:
            if table.status == Table.Status.OPEN:
                board.open.append(entry)
            continue
        if game.status == Game.Status.ACTIVE:
            entry.waiting_for_me = seat.position in (game.waiting_seats or [])
            (board.waiting if entry.waiting_for_me else board.playing).append(entry)
        elif game.pk in winners_state:
            game.state = winners_state[game.pk]
            entry.winner = winner_name(game, seats)
            board.finished.append(entry)
    board.waiting.sort(key=_by_deadline)
    board.playing.sort(key=_by_deadline)
    board.finished.sort(key=lambda e: e.game.finished_at or e.game.started_at, reverse=True)
    return board


def _by_deadline(entry: DashboardEntry) -> datetime:
    return entry.deadline or _NEVER


def waiting_count(*, user) -> int:
    """How many games wait for the user (the lobby's reminder): one query."""
    games = Game.objects.filter(status=Game.Status.ACTIVE, table__seats__user=user).values_list(
        "waiting_seats", "table__seats__position"
    )
    return sum(1 for waiting, position in games if position in (waiting or []))


# ---------------------------------------------------------------------------------------------
# Watch: the live public games
# ---------------------------------------------------------------------------------------------

WATCH_LIMIT = 60
LOBBY_WATCH_LIMIT = 6


@dataclass
class WatchEntry:
    """What the Watch page shows of a game in progress."""

    game: Game
    players: list[str]
    last_move: datetime | None

    @property
    def table(self) -> Table:
        return self.game.table

    @property
    def just_now(self) -> bool:
        """Whether the last move is under a minute old ("0 minutes ago" reads oddly)."""
        return self.last_move is not None and timezone.now() - self.last_move < timedelta(minutes=1)


def watch_games(*, viewer, limit: int = WATCH_LIMIT) -> list[WatchEntry]:
    """The games in progress anyone may watch, the latest moved first: the games of public
    tables (a private table's game is for its players: ``user_may_see_table``), but not a game
    one of whose players blocks the viewer (as that player's profile is hidden from them,
    ratings.selectors._owner_for; moderators see every one). Two queries (three for a signed-in
    viewer, whose moderator rights are looked up), whatever the number of games."""
    from moderation.permissions import can

    # (A secret maximum bid, RULES.md 15, is not a move anyone else may know of: GameAction.sub.)
    last_move = Subquery(GameAction.objects.filter(game_id=OuterRef("pk"), sub=0).order_by("-seq")
                         .values("created_at")[:1])
    games = (Game.objects.filter(status=Game.Status.ACTIVE, table__is_private=False)
             .select_related("table")
             .defer("state")  # the position is large and the list needs none of it
             .annotate(last_move=last_move)
             .prefetch_related(Prefetch("table__seats", queryset=_seats_queryset())))
    if viewer.is_authenticated and not can("moderation.view_account", viewer):
        games = games.exclude(table__seats__user__blocks__blocked_id=viewer.pk)
    games = games.order_by(F("last_move").desc(nulls_last=True), "-pk")[:limit]
    return [WatchEntry(game=g, players=[str(s.label) for s in g.table.seats.all()], last_move=g.last_move)
            for g in games]
