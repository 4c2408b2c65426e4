"""How many "your turn" e-mails a correspondence player gets, against how often the game waits.

Plays correspondence games of two humans and two strategy bots through the services (the
humans' moves are the strategy bot's choices, submitted as a person's moves) with a simulated
clock, e-mail in memory and Celery tasks inline, and prints per human per round:

- waits: the game starting to wait on that human (after waiting on someone else);
- e-mails: the notification e-mails they received (your turn, trade offered, auction open;
  the start and the end are counted apart);
- per decision: what the site sent before issue 14, one e-mail for every decision newly
  waited on (``moves._decision`` changing while the human is waited on).

- reminders: the reminders (and third-miss warnings) sent when a quarter of a decision's time
  was left (the periodic sweep, notifications/reminders.py, run each time the clock moves on).

Four kinds of humans: "page closed" visit the game when it waits on them, make their decisions
(20 s apart) and close the page, coming back hours later; "page closed, with aids" do the same
with the correspondence aids of RULES.md 15: standing orders (end the turn after the roll, pay
the jail fine, flat income tax, reject bots' trades) and, in every auction, a
0% order (pass) for one of them and a maximum of 80% of the printed price for the other; "slow"
come back only after 20 of their 24 hours (past the quarter-time reminder); "page open" keep
the page open, so it polls all the time. The target (issue 26): at most 1.25 e-mails per human
per round with the page closed, with or without the aids, and none with it open.

Bots and standing orders are played as the site plays them (not within the move, as tests do):
each bot action is a task a second after the write before it (BOT_DELAY_MS), run in order as the
simulated clock reaches it; a standing order is played in the write that makes its decision.

The e-mails counted are the ones a wait or an auction brings: your turn, trade offered, auction
open, and outbid above a maximum (the aids' own). Run: ``.venv/bin/python bench/notifications.py
[--games 6] [--rounds 60]``. Uses a throwaway SQLite database in a temporary folder.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections import Counter
from datetime import timedelta
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from correspondence import Clock, setup, start, table_of_four  # noqa: E402 (bench/, beside this script)

VISIT_GAP = timedelta(hours=3)  # a person comes back to a game hours after it starts waiting
SLOW_GAP = timedelta(hours=20)  # ... or, for the slow ones, with 4 of the 24 hours left
DECISION_GAP = timedelta(seconds=20)  # decisions within one visit
KINDS = ("page closed", "page closed, with aids", "slow", "page open")
# The aids of the "with aids" humans (RULES.md 15): the same orders, and in every auction a pass
# (0%) for the first human and a maximum of AIDS_MAXIMUM_PERCENT of the printed price for the other.
AIDS_MAXIMUM_PERCENT = 80
BOT_DELAY = timedelta(seconds=1)  # the site's BOT_DELAY_MS


class SiteTasks:
    """The bots' tasks (games.tasks.play_site_action) as the site queues them, one after each
    write, run in order, the clock moving on by the bots' delay for each."""

    def __init__(self) -> None:
        self.queued: list[tuple[int, int]] = []

    def apply_async(self, args, countdown=None, **_options) -> None:
        self.queued.append(tuple(args))

    def run(self, clock: Clock) -> None:
        from games import tasks

        while self.queued:
            game_id, version = self.queued.pop(0)
            clock.now += BOT_DELAY
            tasks.play_site_action(game_id, version)


def play(index: int, kind: str, rounds: int, clock: Clock, site: SiteTasks) -> list[dict]:
    from django.core import mail
    from django.db import transaction

    from games import services
    from games.aids import services as aids
    from games.aids import standing
    from games.engine import GameState, make_bot, waiting_on
    from games.models import Game
    from games.services import moves
    from notifications import presence, reminders
    from notifications.models import Kind, Notification

    page_open = kind == "page open"
    gap = SLOW_GAP if kind == "slow" else VISIT_GAP
    # The e-mails of a wait beginning (the figure of issue 14) and of a maximum outbid (the
    # aids'), apart from the reminders.
    told = [Kind.YOUR_TURN, Kind.TRADE_OFFERED, Kind.AUCTION_OPEN, Kind.OUTBID]

    table, humans = table_of_four(f"h{index}", preset="classic")
    mail.outbox = []
    game, user_at = start(table, humans, seed=1000 + index)
    if kind.endswith("with aids"):
        for n, (_p, user) in enumerate(sorted(user_at.items())):
            orders = standing.Orders(end_turn=True, jail="pay_fine", income_tax="flat",
                                     reject_bot_trades=True, auction_percent=0 if n == 0 else AIDS_MAXIMUM_PERCENT)
            with transaction.atomic():
                aids.standing_orders_set(game=game, user=user, orders=orders)
        game.refresh_from_db()
    bot = make_bot("strategy")
    waits: Counter[int] = Counter(p for p in game.waiting_seats if p in user_at)
    per_decision: Counter[int] = Counter(waits)
    seen = {"state": game.state, "waiting": set(game.waiting_seats)}

    def observe() -> None:
        # A wait begins for a human the game waits on now and did not before; a decision is new
        # for each human waited on when moves._decision changed.
        new_decision = moves._decision(seen["state"]) != moves._decision(game.state)
        for p in game.waiting_seats:
            if p in user_at:
                waits[p] += p not in seen["waiting"]
                per_decision[p] += new_decision
        seen.update(state=game.state, waiting=set(game.waiting_seats))

    last_actor = None
    while True:
        site.run(clock)  # the bots' moves (and what follows them) before the humans' next
        game.refresh_from_db()
        observe()
        if game.status != Game.Status.ACTIVE or game.round > rounds:
            break
        state = GameState.from_json(game.state)
        seat = next(p for p in waiting_on(state) if p in user_at)
        if page_open:
            clock.now += DECISION_GAP
            for p in user_at:
                presence.seen(user_id=user_at[p].pk, game_id=game.pk)
        else:
            clock.now += DECISION_GAP if seat == last_actor else gap
        reminders.send_reminders()
        # The move arrives through the game page's act view, which marks its player present.
        presence.seen(user_id=user_at[seat].pk, game_id=game.pk)
        action = bot.choose(state, seat, random.Random(f"{index}:{state.seq}"))
        action.pop("player", None)
        with transaction.atomic():
            sub = services.game_submit_action(game=game, user=user_at[seat], action=action,
                                              expected_version=game.version)
        game = sub.game
        last_actor = seat
        observe()
    played = game.round
    results = []
    for p, user in user_at.items():
        sent = [m for m in mail.outbox if m.to == [user.email]]
        turn = Notification.objects.filter(user=user, status=Notification.Status.SENT, kind__in=told).count()
        reminded = Notification.objects.filter(user=user, status=Notification.Status.SENT,
                                               kind__in=[Kind.REMINDER, Kind.FORFEIT_WARNING]).count()
        results.append({"rounds": played, "waits": waits[p], "emails": turn, "all": len(sent),
                        "per_decision": per_decision[p], "reminders": reminded})
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games per kind of human (default 6)")
    parser.add_argument("--rounds", type=int, default=60, help="rounds played at most per game (default 60)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setup(folder)
        clock = Clock()
        site = SiteTasks()
        from games import tasks
        from games.services import moves

        with (mock.patch("django.utils.timezone.now", clock),
              mock.patch.object(moves, "_bots_inline", return_value=False),
              mock.patch.object(tasks.play_site_action, "apply_async", site.apply_async)):
            print(f"{args.games} correspondence games per kind, classic, 2 humans + 2 strategy bots, "
                  f"at most {args.rounds} rounds")
            print(f"{'humans':<23} {'rounds':>7} {'waits/round':>12} {'e-mails/round':>14} "
                  f"{'per decision/round (before)':>28} {'reminders/round':>16} {'all e-mails':>12}")
            for k, kind in enumerate(KINDS):
                rows = []
                for i in range(args.games):
                    rows += play(i + 100 * k, kind, args.rounds, clock, site)
                rounds = sum(r["rounds"] for r in rows)
                print(f"{kind:<23} {rounds / len(rows):>7.1f} {sum(r['waits'] for r in rows) / rounds:>12.2f} "
                      f"{sum(r['emails'] for r in rows) / rounds:>14.2f} "
                      f"{sum(r['per_decision'] for r in rows) / rounds:>28.2f} "
                      f"{sum(r['reminders'] for r in rows) / rounds:>16.2f} "
                      f"{sum(r['all'] for r in rows):>12}")


if __name__ == "__main__":
    main()
