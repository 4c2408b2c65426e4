"""Each player's clock at a table with a time bank or playing hours (RULES.md 16, correspondence
tables), kept in the game's row: ``Game.aids["clock"]`` holds every seat's bank (seconds) and,
for each person the game waits on, when their decision's clock started (or restarted after a
vacation) and the playing time it had used before then. games/clock.py does the arithmetic.

The services call ``update`` in every write that changes what the game waits on: a decision
that ends for a seat is charged (own time first, then the bank; the increment when the seat
answered it within its own time), a decision newly waited on starts its clock, and the game's
one ``deadline`` column becomes the earliest of the waited-on people's deadlines, so the sweep
stays one indexed query; ``due`` names the seats whose own deadline has passed. A vacation
stops a seat's clock and restarts it when the player is back (``vacation``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from games import clock

ZERO = timedelta(0)


def enabled(table) -> bool:
    """Whether the table's clocks are RULES.md 16's (a bank or playing hours), not the plain
    time per decision."""
    return table.pace == table.Pace.CORRESPONDENCE and bool(table.time_bank_hours or table.hours is not None)


def _setup(table):
    return (
        timedelta(hours=table.turn_hours or 24),
        timedelta(hours=table.time_bank_hours),
        timedelta(hours=table.time_bank_increment_hours),
        table.hours,
    )


def _data(game) -> tuple[dict, dict]:
    data = (game.aids or {}).get("clock") or {}
    return dict(data.get("bank") or {}), {k: list(v) for k, v in (data.get("run") or {}).items()}


def bank_of(game, seat: int) -> timedelta:
    banks, _runs = _data(game)
    return timedelta(seconds=banks.get(str(seat), game.table.time_bank_hours * 3600))


def _deadline(table, banks: dict, key: str, run: list) -> datetime:
    own, start_bank, _inc, hours = _setup(table)
    bank = timedelta(seconds=banks.get(key, start_bank.total_seconds()))
    return clock.deadline(
        datetime.fromisoformat(run[0]), own=own, bank=bank, hours=hours, spent=timedelta(seconds=run[1])
    )


def _earliest(table, banks: dict, runs: dict) -> datetime | None:
    return min((_deadline(table, banks, key, run) for key, run in runs.items()), default=None)


def update(
    game,
    *,
    humans: set[int],
    waiting: list[int],
    moved: bool,
    answered: set[int],
    backs: dict[int, datetime],
    now: datetime,
) -> datetime | None:
    """Charge the decisions that end now, start those that begin, store them in ``game.aids``
    and return the earliest deadline of the people waited on (None when none is). ``moved``:
    the game waits on a new decision (every waited-on clock starts again); ``answered``: the
    seats that answered in this write (their own moves and standing orders); ``backs``: when
    each seat on vacation is back."""
    table = game.table
    own, start_bank, inc, hours = _setup(table)
    banks, runs = _data(game)
    for key, (since, spent) in list(runs.items()):
        p = int(key)
        if p in waiting and not moved:
            continue
        played = timedelta(seconds=spent) + clock.playing_time(datetime.fromisoformat(since), now, hours)
        bank = timedelta(seconds=banks.get(key, start_bank.total_seconds()))
        used = clock.charge(
            played, own=own, bank=bank, increment=inc if p in answered else ZERO, starting_bank=start_bank
        )
        banks[key] = used.bank_after.total_seconds()
        del runs[key]
    for p in waiting:
        if p in humans and str(p) not in runs:
            runs[str(p)] = [max(now, backs.get(p, now)).isoformat(), 0]
    game.aids = {**(game.aids or {}), "clock": {"bank": banks, "run": runs}}
    return _earliest(table, banks, runs)


def vacation(game, seat: int, back: datetime, now: datetime) -> datetime | None:
    """``seat``'s vacation now ends at ``back``: a decision waiting on them stops its clock
    (the playing time used so far is kept) and restarts it then. Returns the game's earliest
    deadline."""
    table = game.table
    _own, _bank, _inc, hours = _setup(table)
    banks, runs = _data(game)
    run = runs.get(str(seat))
    if run is not None:
        since = datetime.fromisoformat(run[0])
        spent = run[1] + clock.playing_time(since, now, hours).total_seconds()
        runs[str(seat)] = [max(back, now).isoformat(), spent]
        game.aids = {**(game.aids or {}), "clock": {"bank": banks, "run": runs}}
    return _earliest(table, banks, runs)


def due(game, now: datetime) -> set[int]:
    """The seats whose own deadline has passed."""
    banks, runs = _data(game)
    return {int(key) for key, run in runs.items() if _deadline(game.table, banks, key, run) <= now}


def shown(game, now: datetime) -> dict[int, dict]:
    """What the game page shows of each seat's clock: the bank, and for someone waited on the
    own time left, the deadline and, outside playing hours, when the clocks run again."""
    table = game.table
    own, start_bank, _inc, hours = _setup(table)
    banks, runs = _data(game)
    out: dict[int, dict] = {}
    for p in range(len(game.state["players"])):
        key = str(p)
        bank = timedelta(seconds=banks.get(key, start_bank.total_seconds()))
        row = {"bank": bank, "own": None, "deadline": None, "from": None}
        run = runs.get(key)
        if run is not None:
            since = datetime.fromisoformat(run[0])
            played = timedelta(seconds=run[1]) + clock.playing_time(since, now, hours)
            used = clock.charge(played, own=own, bank=bank)
            row.update(
                own=own - used.own_used,
                bank=bank - used.bank_used,
                deadline=_deadline(table, banks, key, run),
                **{"from": max(since, now) if since > now else clock.counting_from(now, hours)},
            )
        out[p] = row
    return out


def reminder_at(table, deadline: datetime, *, left: timedelta, now: datetime) -> datetime:
    """When the reminder of a decision due at ``deadline`` goes out: when ``left`` of playing
    time is left (a quarter of the table's time per decision, or a player's own choice), counted
    in the table's playing hours (RULES.md 16; games.clock.left_at). Without playing hours it is
    ``deadline - left``, as before."""
    hours = table.hours
    if hours is None:
        return deadline - left
    return clock.left_at(deadline, left, hours, since=min(now, deadline))


def time_left(table, deadline: datetime, now: datetime) -> timedelta:
    """The playing time left until ``deadline`` (real time without playing hours)."""
    hours = table.hours
    if hours is None:
        return deadline - now
    return clock.playing_time(now, deadline, hours)
