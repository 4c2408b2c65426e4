"""games/clock.py (RULES.md 16) against a slow reference that steps minute by minute, over time
zones (DST changes included) and dates, with hypothesis; and the settings it refuses."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, available_timezones

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games import clock
from games.clock import ClockError, PlayingHours

MINUTE = timedelta(minutes=1)
# Zones whose DST rules differ in the ways that matter: changes at 02:00 and 03:00 local, at
# midnight (Santiago, Havana's and Beirut's midnight), half-hour DST (Lord Howe), the southern
# hemisphere, and zones without DST; the rest are drawn from every zone there is.
ZONES = [
    "Europe/Madrid",
    "America/New_York",
    "America/Santiago",
    "America/Havana",
    "Asia/Beirut",
    "Australia/Lord_Howe",
    "Australia/Sydney",
    "Pacific/Auckland",
    "Asia/Kolkata",
    "Asia/Kathmandu",
    "America/St_Johns",
    "Africa/Casablanca",
    "UTC",
    "Pacific/Chatham",
    "Europe/London",
]
ALL_ZONES = sorted(available_timezones() - {"Factory", "localtime"})


# --- the reference: minute by minute, from the rule's own words -------------------------------


def ref_counts(instant: datetime, hours: PlayingHours) -> bool:
    """RULES.md 16 said plainly: the wall clock in the table's zone is within the hours, and
    the local day is not a Saturday or Sunday unless weekends count."""
    local = instant.astimezone(ZoneInfo(hours.zone))
    if not hours.count_weekends and local.isoweekday() in (6, 7):
        return False
    minute = local.hour * 60 + local.minute
    if hours.start < hours.end:
        return hours.start <= minute < hours.end
    return minute >= hours.start or minute < hours.end


def ref_after(start: datetime, minutes: int, hours: PlayingHours) -> datetime:
    t, counted = start, 0
    while counted < minutes:
        if ref_counts(t, hours):
            counted += 1
        t += MINUTE
    return t


def ref_playing(start: datetime, end: datetime, hours: PlayingHours) -> int:
    t, counted = start, 0
    while t < end:
        counted += ref_counts(t, hours)
        t += MINUTE
    return counted


# --- what hypothesis draws ----------------------------------------------------------------------


def _transitions(zone: str, year: int) -> list[datetime]:
    """The instants (UTC, to the minute) at which ``zone`` changes its offset in ``year``."""
    tz = ZoneInfo(zone)
    out = []
    t = datetime(year, 1, 1, tzinfo=UTC)
    end = datetime(year + 1, 1, 1, tzinfo=UTC)
    while t < end:
        nxt = t + timedelta(hours=6)
        if t.astimezone(tz).utcoffset() != nxt.astimezone(tz).utcoffset():
            lo, hi = t, nxt
            while hi - lo > MINUTE:
                mid = lo + (hi - lo) // 2
                mid = mid.replace(second=0, microsecond=0)
                if mid.astimezone(tz).utcoffset() == t.astimezone(tz).utcoffset():
                    lo = mid
                else:
                    hi = mid
            out.append(hi)
        t = nxt
    return out


@st.composite
def starts(draw):
    """A zone, a start (UTC, whole minutes) and a minute of the local day near which the hours
    had better begin or end: mostly within days before a DST change of that zone (and then the
    change's local time), else anywhere in 1990-2045."""
    zone = draw(st.one_of(st.sampled_from(ZONES), st.sampled_from(ALL_ZONES)))
    year = draw(st.integers(1990, 2045))
    changes = _transitions(zone, year)
    near = None
    if changes and draw(st.integers(0, 3)):
        change = draw(st.sampled_from(changes))
        start = change + timedelta(
            minutes=draw(st.one_of(st.integers(-6 * 60, 60), st.integers(-3 * 24 * 60, 24 * 60)))
        )
        local = change.astimezone(ZoneInfo(zone))
        near = local.hour * 60 + local.minute
    else:
        start = datetime(year, 1, 1, tzinfo=UTC) + timedelta(minutes=draw(st.integers(0, 364 * 24 * 60)))
    # The reference steps whole minutes: keep to zones whose offset then is whole minutes.
    assume(start.astimezone(ZoneInfo(zone)).utcoffset() % MINUTE == timedelta(0))
    return zone, start, near


@st.composite
def hours_in(draw, zone: str, near: int | None = None):
    start = draw(st.integers(0, 23 * 4)) * 15
    if near is not None and draw(st.booleans()):
        # A boundary of the hours within three hours of the wall-clock time of a DST change.
        start = (near + draw(st.integers(-12, 12)) * 15) % clock.MINUTES_A_DAY
    length = draw(st.integers(2 * 4, 24 * 4)) * 15  # 2 h to the whole day, in quarters
    end = start + length
    if end > clock.MINUTES_A_DAY:
        end -= clock.MINUTES_A_DAY  # hours across midnight
    if end == start:
        start, end = 0, clock.MINUTES_A_DAY
    return PlayingHours(start, end, zone, count_weekends=draw(st.booleans()))


SLOW = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(data=st.data())
def test_deadline_matches_the_minute_by_minute_reference(data):
    zone, start, near = data.draw(starts())
    hours = data.draw(hours_in(zone, near))
    own = data.draw(st.integers(1, 12 * 60))
    bank = data.draw(st.integers(0, 18 * 60))
    got = clock.deadline(start, own=own * MINUTE, bank=bank * MINUTE, hours=hours)
    assert got == ref_after(start, own + bank, hours)


@SLOW
@given(data=st.data())
def test_answer_charges_own_time_then_bank_as_the_reference_counts(data):
    zone, start, near = data.draw(starts())
    hours = data.draw(hours_in(zone, near))
    own = data.draw(st.integers(1, 8 * 60))
    starting = data.draw(st.integers(0, 8 * 60))
    bank = data.draw(st.integers(0, starting))
    increment = data.draw(st.integers(0, starting))
    at = start + data.draw(st.integers(0, 3 * 24 * 60)) * MINUTE
    used = clock.answer(
        start,
        at,
        own=own * MINUTE,
        bank=bank * MINUTE,
        hours=hours,
        increment=increment * MINUTE,
        starting_bank=starting * MINUTE,
    )
    played = ref_playing(start, at, hours)
    assert clock.playing_time(start, at, hours) == played * MINUTE
    assert used.own_used == min(played, own) * MINUTE
    assert used.bank_used == min(max(played - own, 0), bank) * MINUTE
    if played <= own:
        assert used.bank_after == min(bank + increment, starting) * MINUTE
    else:
        assert used.bank_after == max(bank - (played - own), 0) * MINUTE
    assert used.timed_out == (played >= own + bank)
    # The deadline and the charge agree: answering at the deadline uses everything.
    due = clock.deadline(start, own=own * MINUTE, bank=bank * MINUTE, hours=hours)
    assert clock.answer(start, due, own=own * MINUTE, bank=bank * MINUTE, hours=hours).timed_out
    assert (at >= due) == used.timed_out


@SLOW
@given(data=st.data())
def test_counting_from_is_the_next_minute_that_counts(data):
    zone, start, near = data.draw(starts())
    hours = data.draw(hours_in(zone, near))
    got = clock.counting_from(start, hours)
    if ref_counts(start, hours):
        assert got is None
    else:
        assert got == ref_after(start, 1, hours) - MINUTE


def test_a_decision_begun_friday_night_without_weekends_runs_on_monday():
    hours = PlayingHours.parse("08:00-22:00", "Europe/Madrid", count_weekends=False)
    friday_9pm = datetime(2026, 3, 27, 21, 0, tzinfo=ZoneInfo("Europe/Madrid"))
    # One hour on Friday, then Monday from 08:00 (the clocks went forward on Sunday 29 March).
    got = clock.deadline(friday_9pm, own=3 * 60 * MINUTE, bank=timedelta(0), hours=hours)
    assert got == datetime(2026, 3, 30, 10, 0, tzinfo=ZoneInfo("Europe/Madrid"))
    assert clock.counting_from(datetime(2026, 3, 28, 12, 0, tzinfo=UTC), hours) == datetime(
        2026, 3, 30, 8, 0, tzinfo=ZoneInfo("Europe/Madrid")
    )


def test_hours_that_begin_just_after_the_clocks_go_forward():
    # 29 March 2026, Madrid: 02:00 becomes 03:00; from local midnight, the hours 03:00-10:00
    # begin two real hours later, not three.
    hours = PlayingHours.parse("03:00-10:00", "Europe/Madrid")
    midnight = datetime(2026, 3, 29, 0, 0, tzinfo=ZoneInfo("Europe/Madrid"))
    got = clock.deadline(midnight, own=timedelta(hours=2), bank=timedelta(0), hours=hours)
    assert got == datetime(2026, 3, 29, 5, 0, tzinfo=ZoneInfo("Europe/Madrid"))
    assert got == ref_after(midnight.astimezone(UTC), 120, hours)


def test_the_hour_that_happens_twice_counts_twice():
    # 25 October 2026, Madrid: 02:00-03:00 happens twice; hours 00:00-06:00 hold 7 real hours.
    hours = PlayingHours.parse("00:00-06:00", "Europe/Madrid")
    start = datetime(2026, 10, 25, 0, 0, tzinfo=ZoneInfo("Europe/Madrid"))
    assert clock.playing_time(start, start + timedelta(hours=12), hours) == timedelta(hours=7)


def test_an_increment_never_lifts_the_bank_above_its_start():
    start = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    used = clock.answer(
        start,
        start + timedelta(hours=1),
        own=timedelta(hours=3),
        bank=timedelta(days=2, hours=22),
        increment=timedelta(hours=4),
        starting_bank=timedelta(days=3),
    )
    assert used.in_own_time and used.bank_after == timedelta(days=3)
    late = clock.answer(
        start,
        start + timedelta(hours=5),
        own=timedelta(hours=3),
        bank=timedelta(days=1),
        increment=timedelta(hours=4),
        starting_bank=timedelta(days=3),
    )
    assert not late.in_own_time and late.bank_after == timedelta(hours=22)


@pytest.mark.parametrize("text", ["08:00-08:00", "00:00-00:00", "22:30-22:30"])
def test_playing_hours_of_zero_length_are_refused(text):
    with pytest.raises(ClockError, match="zero length"):
        PlayingHours.parse(text, "UTC")


@pytest.mark.parametrize("text", ["8-22", "08:00-25:00", "24:00-08:00", "08:60-22:00", "", "08:00-24:30"])
def test_unreadable_playing_hours_are_refused(text):
    with pytest.raises(ClockError):
        PlayingHours.parse(text, "UTC")


def test_an_unknown_zone_is_refused():
    with pytest.raises(ClockError, match="time zone"):
        PlayingHours.parse("08:00-22:00", "Mars/Olympus")


@pytest.mark.parametrize(
    ("own", "bank", "increment", "words"),
    [
        (timedelta(0), timedelta(0), timedelta(0), "time of its own"),
        (timedelta(hours=24), timedelta(days=30, minutes=1), timedelta(0), "at most 30 days"),
        (timedelta(hours=24), timedelta(0), timedelta(hours=1), "needs a time bank"),
        (timedelta(hours=24), timedelta(hours=2), timedelta(hours=3), "larger than the bank"),
        (timedelta(hours=24), timedelta(hours=-1), timedelta(0), "negative"),
    ],
)
def test_impossible_clocks_are_refused(own, bank, increment, words):
    with pytest.raises(ClockError, match=words):
        clock.check(own=own, bank=bank, increment=increment)


def test_a_bank_of_30_days_is_allowed():
    clock.check(own=timedelta(hours=24), bank=timedelta(days=30), increment=timedelta(hours=4))


def test_naive_datetimes_are_refused():
    with pytest.raises(ClockError, match="aware"):
        clock.deadline(datetime(2026, 1, 1), own=MINUTE, bank=MINUTE, hours=PlayingHours.every("UTC"))


def ref_left_at(since: datetime, end: datetime, minutes: int, hours: PlayingHours) -> datetime:
    """RULES.md 16's reminder moment said plainly: the first minute from ``since`` on at which
    the clocks run and at most ``minutes`` of playing time are left before ``end``."""
    left = ref_playing(since, end, hours)
    t = since
    while t < end:
        if ref_counts(t, hours) and left <= minutes:
            return t
        left -= ref_counts(t, hours)
        t += MINUTE
    return end


@SLOW
@given(data=st.data())
def test_a_reminder_moment_counts_playing_hours_as_the_reference(data):
    zone, since, near = data.draw(starts())
    hours = data.draw(hours_in(zone, near))
    end = since + data.draw(st.integers(0, 3 * 24 * 60)) * MINUTE
    left = data.draw(st.integers(0, 12 * 60))
    assert clock.left_at(end, left * MINUTE, hours, since=since) == ref_left_at(since, end, left, hours)


def test_a_reminder_in_the_night_waits_for_the_morning():
    hours = PlayingHours.parse("08:00-22:00", "Europe/Madrid")
    madrid = ZoneInfo("Europe/Madrid")
    due = datetime(2026, 3, 3, 14, 0, tzinfo=madrid)
    since = datetime(2026, 3, 2, 9, 0, tzinfo=madrid)
    # Six hours left of playing time: from 08:00 on Tuesday, not from 22:00 on Monday.
    assert clock.left_at(due, 6 * 60 * MINUTE, hours, since=since) == datetime(2026, 3, 3, 8, 0, tzinfo=madrid)
    assert clock.left_at(due, 6 * 60 * MINUTE, None, since=since) == due - 6 * 60 * MINUTE
