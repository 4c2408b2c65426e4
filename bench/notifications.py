"""How many "your turn" e-mails a correspondence player gets, against how often the game waits.

Plays correspondence games of two humans and two strategy bots through the services (the
humans' moves are the strategy bot's choices, submitted as a person's moves) with a simulated
clock, e-mail in memory and Celery tasks inline, and prints per human per round:

- waits: the game starting to wait on that human (after waiting on someone else);
- e-mails: the notification e-mails they received (your turn, trade offered, auction open;
  the start and the end are counted apart);
- per decision: what the site sent before issue 14, one e-mail for every decision newly
  waited on (``services._decision`` changing while the human is waited on).

- reminders: the reminders (and third-miss warnings) sent when a quarter of a decision's time
  was left (the periodic sweep, notifications/reminders.py, run each time the clock moves on).

Three kinds of humans: "page closed" visit the game when it waits on them, make their decisions
(20 s apart) and close the page, coming back hours later; "slow" do the same but come back only
after 20 of their 24 hours (past the quarter-time reminder); "page open" keep the page open, so
it polls all the time. Run: ``.venv/bin/python bench/notifications.py [--games 6] [--rounds 60]``.
Uses a throwaway SQLite database in a temporary folder.
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


def play(index: int, kind: str, rounds: int, clock: Clock) -> list[dict]:
    from django.core import mail
    from django.db import transaction

    from games import services
    from games.engine import GameState, make_bot, waiting_on
    from games.models import Game
    from notifications import presence, reminders
    from notifications.models import Kind, Notification

    page_open = kind == "page open"
    gap = SLOW_GAP if kind == "slow" else VISIT_GAP
    # The e-mails of a wait beginning (the figure of issue 14), apart from the reminders.
    told = [Kind.YOUR_TURN, Kind.TRADE_OFFERED, Kind.AUCTION_OPEN]

    table, humans = table_of_four(f"h{index}", preset="classic")
    mail.outbox = []
    game, user_at = start(table, humans, seed=1000 + index)
    bot = make_bot("strategy")
    waits: Counter[int] = Counter(p for p in game.waiting_seats if p in user_at)
    per_decision: Counter[int] = Counter(waits)
    last_actor = None
    while game.status == Game.Status.ACTIVE and game.round <= rounds:
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
        before = game.state
        was_waiting = set(game.waiting_seats)
        with transaction.atomic():
            sub = services.game_submit_action(game=game, user=user_at[seat], action=action,
                                              expected_version=game.version)
        game = sub.game
        last_actor = seat
        new_decision = services._decision(before) != services._decision(game.state)
        for p in game.waiting_seats:
            if p in user_at:
                waits[p] += p not in was_waiting
                per_decision[p] += new_decision
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
        with mock.patch("django.utils.timezone.now", clock):
            print(f"{args.games} correspondence games per kind, classic, 2 humans + 2 strategy bots, "
                  f"at most {args.rounds} rounds")
            print(f"{'humans':<12} {'rounds':>7} {'waits/round':>12} {'e-mails/round':>14} "
                  f"{'per decision/round (before)':>28} {'reminders/round':>16} {'all e-mails':>12}")
            for k, kind in enumerate(("page closed", "slow", "page open")):
                rows = []
                for i in range(args.games):
                    rows += play(i + 100 * k, kind, args.rounds, clock)
                rounds = sum(r["rounds"] for r in rows)
                print(f"{kind:<12} {rounds / len(rows):>7.1f} {sum(r['waits'] for r in rows) / rounds:>12.2f} "
                      f"{sum(r['emails'] for r in rows) / rounds:>14.2f} "
                      f"{sum(r['per_decision'] for r in rows) / rounds:>28.2f} "
                      f"{sum(r['reminders'] for r in rows) / rounds:>16.2f} "
                      f"{sum(r['all'] for r in rows):>12}")


if __name__ == "__main__":
    main()
