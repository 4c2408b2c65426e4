"""Group chats (issue 29): what a game's status post costs each chat, round by round.

Plays correspondence games of two humans and two strategy bots through the services with a
simulated clock, Celery tasks inline, the bots as the site plays them (a task a second after
each write), and each table's channel pointed at fake Discord, Slack, Telegram and webhook
servers on localhost over https (tests/chats/fakes.py, which check every request). Humans come
back to a game that waits on them after 20 minutes to 8 hours (the long quiets), and make
their decisions 20 s apart. Every human linked their chat names, so posts mention them.
A rate limit is answered now and then (the fake's 429 with a retry time), which must be obeyed.

Prints per channel: rounds; per round the waits (whom the game waits on changing), new posts,
edits, requests in all (429s included) and mentions; new posts after the first against the
long quiets (a human coming back after the quiet that starts a new post); mentions of a player
the game did not wait on then (target 0); the fake's problems (target 0); and the move's own
CPU with and without the chats' hook (one UPDATE and a task queued; each move drawn at random).
Targets: new posts at most one per game per long quiet; requests per round at most waits per
round plus one. A mention in an edit pings nobody (the providers notify on new messages
only): "pings" counts the mentions in new posts.

Run: ``.venv/bin/python bench/channels.py [--games 2] [--rounds 30]`` (a throwaway SQLite
database in a temporary folder; nothing leaves this machine).
"""

from __future__ import annotations

import argparse
import heapq
import random
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from datetime import timedelta
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from correspondence import Clock, setup, start, table_of_four  # noqa: E402 (bench/, beside this script)

PROVIDERS = ("discord", "slack", "telegram", "webhook")
BOT_DELAY = timedelta(seconds=1)
DECISION_GAP = timedelta(seconds=20)
RATE_LIMIT_EVERY = 40  # one request in this many is answered 429


class Queue:
    """Tasks queued with a delay (the bots' actions, the chats' coalesced edits and retries),
    run in order as the simulated clock reaches them."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.items: list = []
        self.n = 0

    def add(self, delay: timedelta, call) -> None:
        self.n += 1
        heapq.heappush(self.items, (self.clock.now + delay, self.n, call))

    def run_until(self, until) -> None:
        while self.items and self.items[0][0] <= until:
            when, _n, call = heapq.heappop(self.items)
            self.clock.now = max(self.clock.now, when)
            call()
        self.clock.now = max(self.clock.now, until)

    def run_bots(self) -> None:
        """Run until only the chats' later work is left (the game waits on a human)."""
        while any(getattr(c, "bot", False) for _w, _n, c in self.items):
            when, _n, call = heapq.heappop(self.items)
            self.clock.now = max(self.clock.now, when)
            call()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games per channel (default 2)")
    parser.add_argument("--rounds", type=int, default=30, help="rounds played at most per game (default 30)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setup(folder)
        run(args)


def run(args) -> None:
    from django.conf import settings
    from django.db import transaction

    from chats import delivery, hooks, providers
    from chats import services as chat_services
    from chats import tasks as chat_tasks
    from games import services, tasks
    from games.engine import GameState, make_bot, waiting_on
    from games.models import Game
    from tests.chats import fakes

    clock = Clock()
    queue = Queue(clock)
    fake = fakes.FakeChats(clock=lambda: clock.now.timestamp())
    fake.__enter__()
    for name, value in fake.settings().items():
        setattr(settings, name, value)
    credentials = {"discord": {"id": fakes.DISCORD_ID, "token": fakes.DISCORD_TOKEN},
                   "slack": {"token": fakes.SLACK_TOKEN, "channel": fakes.SLACK_CHANNEL},
                   "telegram": {"token": fakes.TELEGRAM_TOKEN, "chat": fakes.TELEGRAM_CHAT},
                   "webhook": {"url": fake.webhook_url, "secret": fakes.WEBHOOK_SECRET}}

    def bot_task(args_, countdown=None, **_options):
        def call():
            tasks.play_site_action(*args_)
        call.bot = True
        queue.add(BOT_DELAY, call)

    def chat_now(*args_):
        queue.add(timedelta(0), lambda: chat_tasks.deliver_game(*args_))

    def chat_later(args_, countdown=None, **_options):
        queue.add(timedelta(seconds=countdown or 0), lambda: chat_tasks.deliver_post(*args_))

    # Per game: whom it waits on (to count changes), and per provider the figures.
    waiting_before: dict[int, tuple] = {}
    waits: Counter = Counter()
    provider_of: dict[int, str] = {}
    human_ids: dict[int, dict[int, str]] = {}
    wrong_mentions: Counter = Counter()
    mentions: Counter = Counter()
    pings: Counter = Counter()
    real_game_moved = hooks.game_moved
    hook_on = {"on": True}

    def game_moved(*, game, started):
        now = tuple(game.waiting_seats or ())
        if waiting_before.get(game.pk) != now:
            waits[provider_of.get(game.table_id, "?")] += 1
        waiting_before[game.pk] = now
        if hook_on["on"]:
            real_game_moved(game=game, started=started)

    real_deliver = providers.deliver

    def deliver(provider, creds, status, mentioned, **kwargs):
        waited = {human_ids[status_game[0]].get(u) for u in status.waiting_users}
        for m in mentioned:
            mentions[provider] += 1
            pings[provider] += kwargs.get("ref") is None  # (an edit pings nobody)
            wrong_mentions[provider] += m not in waited
        return real_deliver(provider, creds, status, mentioned, **kwargs)

    status_game = [0]
    real_build = delivery.message.build

    def build(game):
        status_game[0] = game.pk
        return real_build(game)

    limited = Counter()
    real_send = fake.server.RequestHandlerClass._handle

    def handle(handler):
        provider = next((p for p in PROVIDERS if handler.path.startswith(
            {"discord": "/api/webhooks/", "slack": "/api/chat.", "telegram": "/bot", "webhook": "/hook"}[p])), None)
        if provider and rng.random() < 1 / RATE_LIMIT_EVERY and provider not in fake._not_before:
            fake.rate_limit(provider, 2.0)
            limited[provider] += 1
        return real_send(handler)

    rng = random.Random(29)
    cpu = {True: [], False: []}
    rounds: Counter = Counter()
    quiets: Counter = Counter()
    with (mock.patch("django.utils.timezone.now", clock),
          mock.patch("games.services.moves._bots_inline", return_value=False),
          mock.patch.object(tasks.play_site_action, "apply_async", bot_task),
          mock.patch.object(chat_tasks.deliver_post, "apply_async", chat_later),
          mock.patch.object(chat_tasks.deliver_game, "delay", chat_now),
          mock.patch.object(hooks, "game_moved", game_moved),
          mock.patch("games.services.moves.chat_hooks.game_moved", game_moved),
          mock.patch.object(providers, "deliver", deliver),
          mock.patch.object(delivery.providers, "deliver", deliver),
          mock.patch.object(delivery.message, "build", build),
          mock.patch.object(fake.server.RequestHandlerClass, "_handle", handle)):
        for k, provider in enumerate(PROVIDERS):
            for i in range(args.games):
                index = 100 * k + i
                table, humans = table_of_four(f"c{index}", preset="classic")
                provider_of[table.pk] = provider
                for n, user in enumerate(humans):
                    chat_services.identity_set(user=user, discord_id=f"{10**17 + index * 10 + n}",
                                               slack_id=f"U{index:04d}{n:04d}", telegram_username=f"player_{index}_{n}")
                handles = {"discord": [f"{10**17 + index * 10 + n}" for n in range(2)],
                           "slack": [f"U{index:04d}{n:04d}" for n in range(2)],
                           "telegram": [f"player_{index}_{n}" for n in range(2)], "webhook": ["", ""]}[provider]
                chat_services.channel_connect(table=table, by=humans[0], provider=provider,
                                              credentials=credentials[provider], label=provider)
                game, user_at = start(table, humans, seed=2900 + index)
                human_ids[game.pk] = {u.pk: handles[n] for n, u in enumerate(humans)}
                bot = make_bot("strategy")
                last_actor = None
                while True:
                    queue.run_bots()
                    game.refresh_from_db()
                    if game.status != Game.Status.ACTIVE or game.round > args.rounds:
                        break
                    state = GameState.from_json(game.state)
                    seat = next(p for p in waiting_on(state) if p in user_at)
                    if seat == last_actor:
                        gap = DECISION_GAP
                    else:
                        gap = timedelta(minutes=rng.choice((20, 45, 90, 180, 240, 480)))
                        quiets[provider] += gap >= delivery.quiet()
                    queue.run_until(clock.now + gap)
                    action = bot.choose(state, seat, random.Random(f"{index}:{state.seq}"))
                    action.pop("player", None)
                    hook_on["on"] = rng.random() < 0.5
                    begin = time.process_time()
                    with transaction.atomic():
                        sub = services.game_submit_action(game=game, user=user_at[seat], action=action,
                                                          expected_version=game.version)
                    cpu[hook_on["on"]].append(time.process_time() - begin)
                    if not hook_on["on"]:
                        # (The move measured without the hook: its post is marked as the hook would.)
                        hook_on["on"] = True
                        with transaction.atomic():
                            real_game_moved(game=sub.game, started=False)
                    queue.run_until(clock.now)  # the deliveries the move queued, after it
                    game = sub.game
                    last_actor = seat
                queue.run_until(clock.now + timedelta(hours=1))  # the last coalesced edits
                rounds[provider] += min(game.round, args.rounds)
    fake.__exit__(None, None, None)

    print(f"{args.games} correspondence games per channel, classic, 2 humans + 2 strategy bots, "
          f"at most {args.rounds} rounds; humans back after 20 min to 8 h; a 429 in ~1 of {RATE_LIMIT_EVERY}")
    print(f"{'channel':<9} {'rounds':>6} {'waits/rnd':>9} {'posts/rnd':>9} {'edits/rnd':>9} "
          f"{'requests/rnd':>12} {'mentions/rnd':>12} {'pings/rnd':>9} {'new posts':>9} {'quiets':>7} "
          f"{'429s':>5} {'wrong mentions':>14} {'problems':>8}")
    by_provider = defaultdict(list)
    for r in fake.requests:
        by_provider[r.provider].append(r)
    for provider in PROVIDERS:
        reqs = by_provider[provider]
        n = max(rounds[provider], 1)
        creates = sum(r.kind == "create" for r in reqs)
        edits = sum(r.kind == "edit" for r in reqs)
        problems = sum(p.startswith(provider) for p in fake.problems)
        print(f"{provider:<9} {rounds[provider]:>6} {waits[provider] / n:>9.2f} {creates / n:>9.3f} "
              f"{edits / n:>9.2f} {len(reqs) / n:>12.2f} {mentions[provider] / n:>12.2f} {pings[provider] / n:>9.2f} "
              f"{creates - args.games:>9} {quiets[provider]:>7} "
              f"{sum(r.status == 429 for r in reqs):>5} {wrong_mentions[provider]:>14} {problems:>8}")
    on, off = cpu[True], cpu[False]
    med = lambda xs: f"{statistics.median(xs) * 1e3:.2f}" if xs else "n/a"  # noqa: E731
    print(f"move CPU (ms, median of {len(on)} / {len(off)} human moves): with the hook {med(on)}, without {med(off)}")
    if fake.problems:
        print("problems:", *fake.problems[:10], sep="\n  ")


if __name__ == "__main__":
    main()
