"""Words and numbers the tables pages show: time left, rule changes, pace."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.options import describe_changes, pace_summary, table_changes, table_rules
from games.templatetags.table_tags import time_left

NOW = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("delta", "expected"),
    [
        (timedelta(seconds=-1), "time is up"),
        (timedelta(seconds=42), "in 42 s"),
        (timedelta(minutes=5, seconds=30), "in 5 min"),
        (timedelta(hours=1, minutes=20), "in 1 h 20 min"),
        (timedelta(hours=3, minutes=2), "in 3 h"),
        (timedelta(hours=23, minutes=59), "in 23 h"),
        (timedelta(days=3, hours=1), "in 3 days"),
    ],
)
def test_time_left_is_short(delta, expected):
    assert time_left(NOW + delta, NOW) == expected


def test_time_left_of_no_deadline_is_empty():
    assert time_left(None) == ""


def test_changes_are_listed_with_labels_values_and_the_presets_value():
    changes = describe_changes(
        "classic",
        {
            "start_cash": 2500,
            "free_parking_jackpot": True,
            "builds_per_turn": 2,
            "mortgage_expiry_rounds": 5,
        },
    )

    assert [str(c) for c in changes] == [
        "Start cash: 2,500",
        "Mortgages auctioned after (rounds): 5",
        "Builds per group per turn: 2",
        "Free Parking jackpot: on",
    ]
    by_key = {c.key: c for c in changes}
    assert by_key["start_cash"].preset_value == "1,500"
    assert by_key["builds_per_turn"].preset_value == "unlimited"
    assert by_key["free_parking_jackpot"].value == "on"


def test_table_changes_ignore_values_equal_to_the_preset():
    assert table_changes("world-classic", {"start_cash": 15000}) == []
    assert [c.key for c in table_changes("world-classic", {"salary_stops_minutes": None})] == [
        "salary_stops_minutes"
    ]
    assert table_changes("world-classic", {"salary_stops_minutes": None})[0].value == "never"


def test_pace_summary():
    rules = table_rules(preset="world-quick", options={}, pace="live")

    assert pace_summary(pace="live", turn_hours=None, rules=rules) == "Live · 45 s per turn"
    assert (
        pace_summary(pace="correspondence", turn_hours=72, rules=rules)
        == "Correspondence · 3 days per turn"
    )
    assert (
        pace_summary(pace="correspondence", turn_hours=1, rules=rules)
        == "Correspondence · 1 hour per turn"
    )


@pytest.mark.parametrize("zone", ["UTC", "Europe/Madrid", "America/Argentina/Buenos_Aires"])
def test_the_game_pages_deadline_is_in_the_readers_zone_as_the_date_filter_gives_it(zone):
    """The game page's deadline (page.context.time_left): its ISO time in the reader's time zone,
    as Django's ``date`` filter with "c" writes it."""
    from django.template.defaultfilters import date as date_filter
    from django.utils import timezone

    from games.views.page.context import time_left as _time_left

    deadline = timezone.now() + timedelta(minutes=3, microseconds=1234)
    with timezone.override(zone):
        iso = _time_left(deadline)["iso"]
        assert iso == date_filter(timezone.template_localtime(deadline), "c")
    assert datetime.fromisoformat(iso) == deadline
