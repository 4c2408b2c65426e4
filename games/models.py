"""Tables, seats, games and everything a game stores.

The engine's state (``Game.state``, JSON) is the authority for play; the per-game rows below
(deeds, decks, auctions, trades) mirror it for queries, admin and moderation, and are written in
the same transaction as the state by ``services.game_submit_action`` — a test checks that they
never disagree. ``GameAction`` is the append-only log: a game replays from its rule set, seed and
the actions in it.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models.functions import Now
from django.utils.translation import gettext_lazy as _

from games.engine import PRESET_NAMES, RuleSet


def _invite_code() -> str:
    return secrets.token_urlsafe(9)


class Table(models.Model):
    """A game being arranged: rule set, pace, seats. It becomes a Game when the host starts it."""

    class Pace(models.TextChoices):
        LIVE = "live", _("Live")
        CORRESPONDENCE = "correspondence", _("Correspondence")

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class AbsentSeat(models.TextChoices):
        # RULES.md 15, absent players: what becomes of a seat whose player is gone for good.
        OUT = "out", _("They leave the game")
        BOT = "bot", _("A bot plays their seat")

    TURN_HOURS = (1, 12, 24, 72)  # RULES.md 1, pace: correspondence timers

    # Games outlive accounts: a host who deletes theirs leaves the table (and its game) to the
    # other players; accounts.services.user_delete cancels the host's tables still open.
    host = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="hosted_tables")
    name = models.CharField(max_length=80)
    preset = models.CharField(max_length=20, choices=[(p, p) for p in PRESET_NAMES])
    options = models.JSONField(default=dict, blank=True, help_text="Overrides of the preset (RULES.md 1 keys).")
    pace = models.CharField(max_length=16, choices=Pace.choices, default=Pace.CORRESPONDENCE)
    turn_hours = models.PositiveSmallIntegerField(null=True, blank=True)
    seat_count = models.PositiveSmallIntegerField()
    is_private = models.BooleanField(default=False)
    absent_seat = models.CharField(max_length=3, choices=AbsentSeat.choices, default=AbsentSeat.OUT)
    # RULES.md 15, vacation: whole days each player may take per game (correspondence; 0: none).
    vacation_days = models.PositiveSmallIntegerField(default=7)
    # RULES.md 16, pause length: the longest a live game stays paused before the countdown to
    # resume starts by itself (games/aids/pause.py).
    pause_max_minutes = models.PositiveSmallIntegerField(default=15)
    # RULES.md 16, clocks for real life (correspondence; games/clock.py): each player's time bank
    # and what an answer within a decision's own time adds to it (whole hours; 0: off); the
    # hours the clocks run ("08:00-22:00"; "": every hour) and whether weekends count, in the
    # table's zone (the host's when the table was made). Set at creation, never changed after.
    time_bank_hours = models.PositiveSmallIntegerField(default=0)
    time_bank_increment_hours = models.PositiveSmallIntegerField(default=0)
    playing_hours = models.CharField(max_length=11, blank=True, default="")
    count_weekends = models.BooleanField(default=True)
    time_zone = models.CharField(max_length=64, default="UTC")
    # RULES.md 16: the game ends when this round is over, net worth ranking the players; null:
    # no limit. The game's rule set carries it (games.engine: round_limit).
    round_limit = models.PositiveSmallIntegerField(null=True, blank=True)
    # Issue 30, the trade meter (a site option, not a rule of RULES.md 1): win chances in the
    # trade builder and beside an offer; refused on tables that may be rated (games/meter.py).
    advisor = models.BooleanField(default=False)
    # Issue 29: a group chat is connected (chats app, which keeps it in step): only then does a
    # move mark the game's status post, so a table without one pays nothing for the feature.
    chat_connected = models.BooleanField(default=False)
    invite_code = models.CharField(max_length=16, unique=True, default=_invite_code)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self) -> RuleSet:
        return RuleSet.build(self.preset, self.options)

    @property
    def is_custom(self) -> bool:
        return bool(self.options)

    @property
    def hours(self):
        """The table's playing hours (games.clock.PlayingHours), or None: every hour counts."""
        from games.clock import table_hours

        if self.pace != self.Pace.CORRESPONDENCE:
            return None
        return table_hours(self.playing_hours, self.time_zone, self.count_weekends)

    @property
    def host_label(self) -> str:
        return self.host.public_name if self.host_id is not None else str(_("Deleted player"))


class Seat(models.Model):
    """A place at a table: a user, a bot, or empty. ``position`` is the engine's seat number."""

    class Bot(models.TextChoices):
        NONE = "", _("Human")
        RANDOM = "random", _("Random bot")
        STRATEGY = "strategy", _("Strategy bot")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="seats")
    bot = models.CharField(max_length=10, choices=Bot.choices, blank=True, default="")
    team = models.PositiveSmallIntegerField(null=True, blank=True)
    # The seat's player deleted their account once the game had started: the seat stays theirs
    # (forfeited, or played by ``bot``), shown as a deleted player, never free again.
    account_deleted = models.BooleanField(default=False)
    # An empty seat kept for one person until ``held_until`` (a rematch keeps each player of the
    # last game their seat, ratings.services.rematch_create): nobody else may sit there before.
    held_for = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    held_until = models.DateTimeField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["table", "user"], condition=models.Q(user__isnull=False),
                                    name="seat_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.position}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot and not self.account_deleted

    def held_for_at(self, now) -> int | None:
        """The user this empty seat is kept for at ``now``, or None (not held, or no longer)."""
        if self.is_empty and self.held_for_id is not None and self.held_until is not None and self.held_until > now:
            return self.held_for_id
        return None

    @staticmethod
    def kept(prefix: str = "") -> models.Q:
        """``held_for_at`` as a filter, for now: an empty seat kept for someone, its hold still
        running (``prefix``: the path from the queried model to the seat, "seats__" from a table)."""
        return models.Q(**{f"{prefix}user__isnull": True, f"{prefix}bot": "", f"{prefix}account_deleted": False,
                           f"{prefix}held_for__isnull": False, f"{prefix}held_until__gt": Now()})

    @property
    def label(self) -> str:
        if self.account_deleted:
            return _("Deleted player (bot)") if self.bot else _("Deleted player")
        if self.bot and self.user_id is not None:
            # A bot took the seat of a player who left (RULES.md 15, absent players): theirs still.
            return _("%(name)s (played by a bot)") % {"name": self.user.public_name}
        if self.bot:
            return f"{self.get_bot_display()} {self.position + 1}"
        if self.user_id is None:
            return _("Empty seat")
        return self.user.public_name


class Invitation(models.Model):
    """An address the host invited to a table. The row lets that address's account see a private
    table; ``emailed_at`` says whether (and when) an e-mail went out for it: an address gets at
    most one invitation e-mail a day, whoever invites it (services.invitation_create)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    # An invitation stands when its sender deletes their account (the table may still be open).
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "email"], name="invitation_unique_email")]
        indexes = [
            # The day's count of a user's invitations, and an address's last e-mail.
            models.Index(fields=["invited_by", "created_at"], name="invitation_by_created"),
            models.Index(fields=["email", "emailed_at"], name="invitation_email_emailed"),
        ]

    def __str__(self) -> str:
        return f"{self.email} to table {self.table_id}"


class Game(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="game")
    seed = models.BigIntegerField()
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE, db_index=True)
    round = models.PositiveIntegerField(default=1)
    current_seat = models.PositiveSmallIntegerField(default=0)
    pending = models.CharField(max_length=20, blank=True, default="")
    waiting_seats = models.JSONField(default=list, blank=True)
    # When the pending decision times out (RULES.md 11); null while nothing can time out.
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Correspondence tables: when a quarter of the decision's time is left, the moment of its
    # reminder (issue 14), swept by notifications.tasks.send_reminders; null once it is sent.
    reminder_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # What the aids of issue 10 need at every move, read with the game's locked row (no query
    # more): "orders", the seats with standing orders (games/aids/standing.py); "pause", "paused" or
    # the ISO time a live game's countdown to resume ends (games/aids/pause.py); "shown", the version
    # of the last change to what the aids panel shows (games/aids/services.py: the page's frame mark).
    aids = models.JSONField(default=dict, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.table})"


class DeedRow(models.Model):
    """Mirror of one deed's engine state."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deeds")
    square = models.PositiveSmallIntegerField()
    owner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    level = models.PositiveSmallIntegerField(default=0)  # 0-4 houses, 5 hotel / corporation
    mortgaged = models.BooleanField(default=False)
    mortgaged_round = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["square"]
        constraints = [models.UniqueConstraint(fields=["game", "square"], name="deed_unique_square")]

    def __str__(self) -> str:
        return f"game {self.game_id} square {self.square}"


class DeckRow(models.Model):
    """Mirror of one card deck: the draw pile (top first) and, for world decks, the discards."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="decks")
    name = models.CharField(max_length=10)
    cards = models.JSONField(default=list)
    discards = models.JSONField(default=list)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "name"], name="deck_unique_name")]

    def __str__(self) -> str:
        return f"game {self.game_id} {self.name} deck"


class AuctionRow(models.Model):
    """Every auction of a game: open while the engine runs it, then closed with its result."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="auctions")
    square = models.PositiveSmallIntegerField()
    what = models.CharField(max_length=10)  # deed, expiry, own, building
    opened_seq = models.PositiveIntegerField()
    is_open = models.BooleanField(default=True)
    high_bid = models.PositiveIntegerField(default=0)
    leader_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    bidders = models.JSONField(default=list)
    passed = models.JSONField(default=list)

    class Meta:
        ordering = ["opened_seq"]

    def __str__(self) -> str:
        return f"game {self.game_id} auction of square {self.square} ({self.what})"


class TradeRow(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        REJECTED = "rejected", _("Rejected")
        CANCELLED = "cancelled", _("Withdrawn")
        VOID = "void", _("Void")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="trades")
    number = models.PositiveIntegerField()  # the engine's trade id
    from_seat = models.PositiveSmallIntegerField()
    to_seat = models.PositiveSmallIntegerField()
    give = models.JSONField()
    take = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="trade_unique_number")]

    def __str__(self) -> str:
        return f"game {self.game_id} trade {self.number} ({self.status})"


class GameAction(models.Model):
    """The append-only log: one row per applied action, with the events it produced.

    ``seq`` is the engine's count of actions after this one (``GameState.seq``). A maximum bid
    nothing else came of is not counted (RULES.md 15: nobody may learn that one was left, changed
    or withdrawn, not from the log's numbering either): its row takes the ``seq`` of the action
    before it and a ``sub`` of 1, 2... after it. The log shows only the rows of ``sub`` 0; the
    record replays all of them, in (``seq``, ``sub``) order."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    sub = models.PositiveSmallIntegerField(default=0)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    action = models.JSONField()
    events = models.JSONField(default=list)
    # Why the site played an action for a seat that its player did not (``action["reason"]``,
    # kept in the game's record): a deleted account's forfeit, a moderator's removal.
    REASON_ACCOUNT_DELETED = "account_deleted"
    REASON_MODERATOR_REMOVED = "moderator_removed"
    REASONS = (REASON_ACCOUNT_DELETED, REASON_MODERATOR_REMOVED)

    # "player", "bot", "standing" (a player's standing order, RULES.md 15), "timeout",
    # "takeover" (a strategy bot's first decision for a seat it took over at a third missed turn,
    # RULES.md 15), "clock", "system" (the start, and a deleted account's forfeit) or "moderator"
    # (a moderator's removal of the player: the seat's surrender); only players' moves and
    # standing orders have a user. Bids the engine placed by a maximum carry "by": "max" in their
    # events.
    source = models.CharField(max_length=10, default="player")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq", "sub"]
        constraints = [models.UniqueConstraint(fields=["game", "seq", "sub"], name="action_unique_seq_sub")]

    def __str__(self) -> str:
        return f"game {self.game_id} action {self.seq}.{self.sub}: {self.action.get('type', '?')}"


class Replay(models.Model):
    """A game record made ready for the replay viewer (games/records.py): what starts the game
    and, in its chunks, the position every CHECKPOINT_EVERY actions with the actions after it,
    so that a step costs one chunk's read and replay. Either a finished game's (made at its
    first replay) or the record a user uploaded last (one a user: a new upload replaces it)."""

    game = models.OneToOneField(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="replay")
    owner = models.OneToOneField(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                                 related_name="uploaded_replay")
    start = models.JSONField()  # rules, seed, names, teams: the record without its actions
    steps = models.PositiveIntegerField()  # the record's actions
    # [step, round, seat] where each turn starts (records.checkpoints): the replay steps by turn
    # and round. None for a replay prepared before it was kept (services.replay_turns fills it).
    turns = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.CheckConstraint(
            condition=(models.Q(game__isnull=False, owner__isnull=True)
                       | models.Q(game__isnull=True, owner__isnull=False)),
            name="replay_of_a_game_or_an_upload")]

    def __str__(self) -> str:
        return f"replay of game {self.game_id}" if self.game_id else f"replay uploaded by user {self.owner_id}"


class ReplayChunk(models.Model):
    """The position after ``index * CHECKPOINT_EVERY`` actions of a replay's record and the
    (at most) CHECKPOINT_EVERY actions that follow it."""

    replay = models.ForeignKey(Replay, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    state = models.JSONField()
    actions = models.JSONField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["replay", "index"], name="replay_chunk_unique_index")]

    def __str__(self) -> str:
        return f"replay {self.replay_id} chunk {self.index}"


# ---------------------------------------------------------------------------------------------
# Correspondence aids (RULES.md 15, site level; issue 10): games/aids/standing.py, services
# ---------------------------------------------------------------------------------------------

class StandingOrder(models.Model):
    """A player's standing orders in one game (games/aids/standing.py plays them). One row per seat;
    an empty field is no order. Deleting the row cancels every order."""

    class Jail(models.TextChoices):
        NONE = "", _("No order")
        PAY_FINE = "pay_fine", _("Pay the fine")
        USE_CARD = "use_card", _("Use a Get out of Jail card")
        ROLL = "roll", _("Try for doubles")

    class IncomeTax(models.TextChoices):
        NONE = "", _("No order")
        FLAT = "flat", _("Pay the flat amount")
        # xgettext:no-python-format
        PERCENT = "percent", _("Pay 10% of my worth")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="standing_orders")
    seat = models.PositiveSmallIntegerField()
    end_turn = models.BooleanField(default=False)
    jail = models.CharField(max_length=10, choices=Jail.choices, blank=True, default="")
    income_tax = models.CharField(max_length=10, choices=IncomeTax.choices, blank=True, default="")
    casino_skip = models.BooleanField(default=False)
    reject_bot_trades = models.BooleanField(default=False)
    # Percent of the printed price to leave as a maximum in every auction; 0 passes; null: none.
    auction_percent = models.PositiveSmallIntegerField(null=True, blank=True)
    # Roll when my turn begins (and again after doubles); out of jail only.
    roll = models.BooleanField(default=False)
    # Buy a deed I land on when it leaves me at least this much cash; null: no order.
    buy_keep = models.PositiveIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="standing_order_unique_seat")]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.seat} standing orders"


class Vacation(models.Model):
    """A player's vacation in one correspondence game (RULES.md 15): the whole days taken so far
    and, while one runs, when it ends. One row per seat."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="vacations")
    seat = models.PositiveSmallIntegerField()
    days_used = models.PositiveSmallIntegerField(default=0)
    started_at = models.DateTimeField(null=True, blank=True)
    until = models.DateTimeField(null=True, blank=True)
    # RULES.md 16, auto-vacation: a timeout that would fall on this player takes a day instead
    # while days are left (the player's choice; on by default).
    auto = models.BooleanField(default=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="vacation_unique_seat")]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.seat} vacation"


class Pause(models.Model):
    """A live game's pause (RULES.md 11, site level; games/aids/pause.py): asked by a player, granted
    when every active player agrees within 30 s, then resumed after every player confirms and a
    short countdown. One row per game at most, deleted when the request lapses or play resumes."""

    class Status(models.TextChoices):
        ASKED = "asked", _("Asked")
        PAUSED = "paused", _("Paused")
        RESUMING = "resuming", _("Resuming")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="pause")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ASKED)
    asked_by = models.PositiveSmallIntegerField()
    asked_at = models.DateTimeField()
    agreed = models.JSONField(default=list)  # seats, while asked
    confirmed = models.JSONField(default=list)  # seats ready to resume, while paused
    # What was left of the pending decision's time when the game paused (null: no deadline).
    remaining = models.DurationField(null=True, blank=True)
    resume_at = models.DateTimeField(null=True, blank=True)
    # When every player agreed and the game paused (RULES.md 16: a pause lasts at most the
    # table's pause_max_minutes from then).
    paused_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"game {self.game_id} pause ({self.status})"


class TradeMeter(models.Model):
    """One trade meter's estimate (issue 30, games/meter.py): the win chances of the players of
    a game with a trade offer rejected and accepted, computed once by a Celery task and kept per
    (position, trade): ``key`` is a digest of the public position with the offer waiting, so the
    proposer's preview and the receiver's answer share one row."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="trade_meters")
    key = models.CharField(max_length=64, unique=True)
    # The position with the offer waiting (engine JSON, the game's own generator state dropped):
    # what the task analyses. Never shown.
    position = models.JSONField()
    # The last log row (GameAction.seq) before the position: the cards everyone saw drawn are
    # counted from the log up to it (games.engine.seen_cards), in the task.
    upto = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    asked_by = models.PositiveSmallIntegerField()  # the seat that asked first
    result = models.JSONField(null=True, blank=True)
    queued_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    done_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"game {self.game_id} trade meter {self.key[:8]} ({self.status})"
