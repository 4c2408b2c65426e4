"""The clock arithmetic of RULES.md 16 (time bank, increment, playing hours, weekends), as pure
functions of plain values: no Django, no database, no "now". The services store each waited-on
player's next deadline from ``deadline`` (one indexed column, swept as before) and charge an
answer with ``answer``; the game page words the clock from ``remaining`` and ``counting_from``.

Playing time is real elapsed time at the instants that count: an instant counts when its wall
clock in the table's zone lies within the playing hours and (unless weekends count) its local
day is not a Saturday or a Sunday. Hours that cross midnight ("22:00-02:00") count from the
start to midnight and from midnight to the end, each part by its own local day. Across a DST
change the wall clock jumps: an hour that never happens on the wall does not count, and an hour
that happens twice counts twice, as real time passes through it twice.

A decision's own time runs first, then the player's bank; the decision times out when both are
used up. An answer within the own time adds the increment to the bank, never above the starting
bank (``answer``). tests/games/test_clock.py holds these to a slow reference that steps minute
by minute, over time zones (DST changes included) and dates, with hypothesis.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

ZERO = timedelta(0)
MINUTES_A_DAY = 24 * 60
# RULES.md 16, bad input: a bank above 30 days makes a game that can stall for months.
BANK_MAX = timedelta(days=30)
# The longest step of the walk over playing time: an offset change inside a step is found by
# bisection, and a step this short cannot hold two of them (no zone changes twice in 3 hours).
_STEP = timedelta(hours=3)
_SATURDAY = 5
_HOURS = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$")


class ClockError(ValueError):
    """Settings that make a decision impossible or cannot be read; the message says why (in
    English) and ``code`` which refusal it is, for the site's words."""

    def __init__(self, message: str, code: str = "clock") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class PlayingHours:
    """When the clocks run: from ``start`` to ``end`` (minutes after local midnight; ``end`` up
    to 1440, and below ``start`` for hours that cross midnight) in ``zone``, on weekends too
    unless ``count_weekends`` is false. ``PlayingHours.every(zone, count_weekends=False)`` is
    every hour of the weekdays."""

    start: int
    end: int
    zone: str
    count_weekends: bool = True

    def __post_init__(self) -> None:
        if not (0 <= self.start < MINUTES_A_DAY and 0 <= self.end <= MINUTES_A_DAY):
            raise ClockError("playing hours run from 00:00 to 24:00", "hours_range")
        if self.start == self.end:
            raise ClockError("playing hours of zero length: no decision could ever be answered", "hours_empty")
        try:
            ZoneInfo(self.zone)
        except (ZoneInfoNotFoundError, ValueError, TypeError) as exc:
            raise ClockError(f"unknown time zone {self.zone!r}", "zone") from exc

    @classmethod
    def parse(cls, text: str, zone: str, *, count_weekends: bool = True) -> PlayingHours:
        """``"08:00-22:00"`` (``"24:00"`` may end the day) in ``zone``."""
        m = _HOURS.match(text or "")
        if m is None:
            raise ClockError("write playing hours as HH:MM-HH:MM, e.g. 08:00-22:00", "hours_format")
        h1, m1, h2, m2 = (int(g) for g in m.groups())
        if h1 > 23 or m1 > 59 or m2 > 59 or h2 > 24 or (h2 == 24 and m2):
            raise ClockError("playing hours run from 00:00 to 24:00", "hours_range")
        return cls(h1 * 60 + m1, h2 * 60 + m2, zone, count_weekends)

    @classmethod
    def every(cls, zone: str = "UTC", *, count_weekends: bool = True) -> PlayingHours:
        return cls(0, MINUTES_A_DAY, zone, count_weekends)

    @property
    def always(self) -> bool:
        """Every instant counts: the same as no playing hours."""
        return self.count_weekends and (self.start, self.end) == (0, MINUTES_A_DAY)

    @property
    def text(self) -> str:
        return f"{self.start // 60:02d}:{self.start % 60:02d}-{self.end // 60:02d}:{self.end % 60:02d}"

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.zone)

    def _in_hours(self, minute_of_day: float) -> bool:
        if self.start < self.end:
            return self.start <= minute_of_day < self.end
        return minute_of_day >= self.start or minute_of_day < self.end

    def counts(self, instant: datetime) -> bool:
        """Whether the clocks run at ``instant`` (an aware datetime)."""
        local = instant.astimezone(self.tz)
        if not self.count_weekends and local.weekday() >= _SATURDAY:
            return False
        return self._in_hours(local.hour * 60 + local.minute + (local.second + local.microsecond / 1e6) / 60)


def table_hours(playing_hours: str, zone: str, count_weekends: bool) -> PlayingHours | None:
    """A table's playing hours (``Table.playing_hours``, "" for every hour), or None when every
    instant counts."""
    if playing_hours:
        hours = PlayingHours.parse(playing_hours, zone, count_weekends=count_weekends)
    else:
        hours = PlayingHours.every(zone, count_weekends=count_weekends)
    return None if hours.always else hours


def _aware(instant: datetime) -> datetime:
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise ClockError("a clock needs aware datetimes")
    return instant.astimezone(UTC)


def _segments(start: datetime, hours: PlayingHours):
    """From ``start`` on, forever: (begin, end, counts) pieces of time over which whether the
    clocks run does not change. A piece ends at the next local midnight or boundary of the hours
    (as the wall clock now runs), at most _STEP later, and at the first change of the zone's
    offset before that (found by bisection to the microsecond)."""
    tz = hours.tz
    marks = sorted({0, hours.start, hours.end % MINUTES_A_DAY})
    t = start
    while True:
        local = t.astimezone(tz)
        offset = local.utcoffset()
        into = timedelta(hours=local.hour, minutes=local.minute, seconds=local.second, microseconds=local.microsecond)
        nxt = next((m for m in marks if timedelta(minutes=m) > into), MINUTES_A_DAY)
        end = t + min(timedelta(minutes=nxt) - into, _STEP)
        if end.astimezone(tz).utcoffset() != offset:
            lo, hi = t, end  # offset(lo) == offset, offset(hi) != offset
            while hi - lo > timedelta(microseconds=1):
                mid = lo + (hi - lo) / 2
                if mid.astimezone(tz).utcoffset() == offset:
                    lo = mid
                else:
                    hi = mid
            end = hi
        yield t, end, hours.counts(t)
        t = end


def playing_time(start: datetime, end: datetime, hours: PlayingHours | None) -> timedelta:
    """The time that counts between ``start`` and ``end`` (zero when ``end`` is not later)."""
    start, end = _aware(start), _aware(end)
    if end <= start:
        return ZERO
    if hours is None or hours.always:
        return end - start
    total = ZERO
    for begin, stop, counts in _segments(start, hours):
        if begin >= end:
            break
        if counts:
            total += min(stop, end) - begin
    return total


def after(start: datetime, amount: timedelta, hours: PlayingHours | None) -> datetime:
    """The instant at which ``amount`` of playing time has passed since ``start``: the earliest,
    so an amount used up exactly as the hours close ends at their close, not when they reopen."""
    start = _aware(start)
    if amount < ZERO:
        raise ClockError("a clock cannot run backwards")
    if hours is None or hours.always:
        return start + amount
    if amount == ZERO:
        return start
    left = amount
    for begin, stop, counts in _segments(start, hours):
        if counts:
            if stop - begin >= left:
                return begin + left
            left -= stop - begin
    raise AssertionError("unreachable: playing hours of zero length are refused")  # pragma: no cover


def check(*, own: timedelta, bank: timedelta, increment: timedelta = ZERO) -> None:
    """Refuse a clock no decision can live with (ClockError, in words for the table form)."""
    if own <= ZERO:
        raise ClockError("a decision needs some time of its own", "own")
    if bank < ZERO or increment < ZERO:
        raise ClockError("a bank and its increment cannot be negative", "negative")
    if bank > BANK_MAX:
        raise ClockError("a time bank is at most 30 days", "bank_max")
    if increment > ZERO and bank == ZERO:
        raise ClockError("an increment needs a time bank to add to", "increment_no_bank")
    if increment > bank:
        raise ClockError("the increment cannot be larger than the bank", "increment_max")


def deadline(
    start: datetime, *, own: timedelta, bank: timedelta, hours: PlayingHours | None = None, spent: timedelta = ZERO
) -> datetime:
    """When a decision that began at ``start`` times out: once its own time and then the
    player's bank are used up, counting only playing time. ``spent``: the playing time the
    decision had already used before ``start`` (its clock stopped for a vacation and restarts
    at ``start``)."""
    if own < ZERO or bank < ZERO or spent < ZERO:
        raise ClockError("a clock cannot run backwards")
    return after(start, max(own + bank - spent, ZERO), hours)


@dataclass(frozen=True)
class Used:
    """What an answer at a moment costs: the own time and the bank used, the bank the player
    keeps (the increment added when they answered within the own time), and whether both had
    run out (the timeout's moment or later)."""

    own_used: timedelta
    bank_used: timedelta
    bank_after: timedelta
    in_own_time: bool
    timed_out: bool


def charge(
    played: timedelta,
    *,
    own: timedelta,
    bank: timedelta,
    increment: timedelta = ZERO,
    starting_bank: timedelta | None = None,
) -> Used:
    """Charge ``played`` (the playing time a decision took) to its own time first, then to the
    bank. An answer within the own time adds ``increment`` to the bank, never above
    ``starting_bank`` (the table's bank; by default the bank as it is)."""
    cap = bank if starting_bank is None else max(starting_bank, bank)
    own_used = min(played, own)
    bank_used = min(max(played - own, ZERO), bank)
    in_own = played <= own
    left = bank - bank_used
    if in_own:
        left = min(left + increment, cap)
    return Used(
        own_used=own_used, bank_used=bank_used, bank_after=left, in_own_time=in_own, timed_out=played >= own + bank
    )


def answer(
    start: datetime,
    at: datetime,
    *,
    own: timedelta,
    bank: timedelta,
    hours: PlayingHours | None = None,
    increment: timedelta = ZERO,
    starting_bank: timedelta | None = None,
) -> Used:
    """Charge an answer given at ``at`` to a decision that began at ``start`` (``charge``)."""
    played = playing_time(start, at, hours)
    return charge(played, own=own, bank=bank, increment=increment, starting_bank=starting_bank)


def remaining(
    start: datetime, at: datetime, *, own: timedelta, bank: timedelta, hours: PlayingHours | None = None
) -> tuple[timedelta, timedelta]:
    """What is left at ``at`` of a decision's own time and of the player's bank."""
    used = answer(start, at, own=own, bank=bank, hours=hours)
    return own - used.own_used, bank - used.bank_used


def counting_from(at: datetime, hours: PlayingHours | None) -> datetime | None:
    """When the clocks run again if they stand still at ``at`` (outside playing hours), else
    None: the page's "counting from 08:00"."""
    if hours is None:
        return None
    at = _aware(at)
    for begin, _stop, counts in _segments(at, hours):
        if counts:
            return None if begin == at else begin
    return None  # pragma: no cover (unreachable)


def left_at(end: datetime, amount: timedelta, hours: PlayingHours | None, *, since: datetime) -> datetime:
    """The instant, from ``since`` on, at which ``amount`` of playing time is left before
    ``end``: a reminder's moment ("a quarter of your time left", "1 h left"), counted in playing
    hours. When the clocks stand still at that moment (the hours closed) it is when they run
    again, so nobody is reminded at night of time that only counts in the morning; ``since``
    itself when less than ``amount`` is left already."""
    since, end = _aware(since), _aware(end)
    if amount < ZERO:
        raise ClockError("a clock cannot run backwards")
    moment = after(since, max(playing_time(since, end, hours) - amount, ZERO), hours)
    if moment >= end:
        return end
    return min(counting_from(moment, hours) or moment, end)
