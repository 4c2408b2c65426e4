"""A table's rule set (``table_rules``) and the words for rule sets: preset names, option labels
and the list of a table's changes.

The lobby card, the table page and the create-table form all describe rules the same way, so
the wording lives here. Values come from the engine's RuleSet (RULES.md section 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.engine import PRESET_NAMES, PRESETS, RuleSet
from games.models import Table

# Correspondence defaults for thresholds counted in rounds (RULES.md 1, pace).
CORRESPONDENCE_ROUNDS = {"salary_stops_round": 40, "rent_tax_round": 50, "rent_tax_step_rounds": 3}


def table_rules(*, preset: str, options: dict[str, Any], pace: str) -> RuleSet:
    """The engine rule set of a table. On correspondence tables every threshold the presets give
    in minutes is counted in rounds instead (RULES.md 1, pace), unless the host set rounds."""
    rules = RuleSet.build(preset, options)
    if pace == Table.Pace.CORRESPONDENCE:
        # No clock runs on these tables, so minutes never apply: a threshold the host gave in
        # rounds replaces them, else the defaults in rounds do.
        changes: dict[str, Any] = {}
        if rules.salary_stops_minutes is not None:
            changes["salary_stops_minutes"] = None
            if rules.salary_stops_round is None:
                changes["salary_stops_round"] = CORRESPONDENCE_ROUNDS["salary_stops_round"]
        if rules.rent_tax_minutes is not None:
            changes["rent_tax_minutes"] = None
            if rules.rent_tax_round is None:
                changes["rent_tax_round"] = CORRESPONDENCE_ROUNDS["rent_tax_round"]
        if (rules.rent_tax_round is not None or "rent_tax_round" in changes) and rules.rent_tax_step_rounds is None:
            changes["rent_tax_step_rounds"] = CORRESPONDENCE_ROUNDS["rent_tax_step_rounds"]
        if changes:
            rules = rules.with_options(**changes)
    return rules


PRESET_LABELS = {
    "classic": _("Classic"),
    "classic-short": _("Classic, short game"),
    "world-classic": _("World classic"),
    "world-quick": _("World quick"),
    "world-duel": _("World duel (3 players)"),
    "world-teams": _("World teams (2 vs 2)"),
}
assert set(PRESET_LABELS) == set(PRESET_NAMES)

PRESET_BLURBS = {
    "classic": _("The board game as printed: last player standing wins."),
    "classic-short": _(
        "Two deeds each to start, hotels after three houses, ends at the second bankruptcy."
    ),
    "world-classic": _(
        "The online world board: casino, luck cards, salary stops and rent tax later on."
    ),
    "world-quick": _("World board with more cash, the speed die and a faster economy."),
    "world-duel": _("Exactly three players, every deed dealt at the start."),
    "world-teams": _("Two teams of two: no rent between teammates."),
}

# The options a host may change on a custom table (RULES.md 1), with their labels. Other keys
# can still show up in a rule set's changes (say from a game record); they get their raw key.
OPTION_LABELS: dict[str, Any] = {
    "start_cash": _("Start cash"),
    "turn_seconds": _("Seconds per turn (live)"),
    "salary_stops_minutes": _("Salary stops"),
    "salary_stops_round": _("Salary stops"),
    "rent_tax_minutes": _("Rent tax"),
    "rent_tax_round": _("Rent tax"),
    "rent_tax_step_rounds": _("Rent tax rises every"),
    "mortgage_expiry_rounds": _("Mortgages auctioned after (rounds)"),
    "even_building": _("Even building"),
    "builds_per_turn": _("Builds per group per turn"),
    "speed_die_from_round": _("Speed die from round"),
    "free_parking_jackpot": _("Free Parking jackpot"),
    # The percent sign is literal: tell makemessages this is no format string.
    # xgettext:no-python-format
    "income_tax_choice": _("Income tax: 10% of worth as a choice"),
    "deal_at_start": _("Deeds dealt at the start"),
    "houses_before_hotel": _("Houses before a hotel"),
    "seats": _("Seats"),
    "round_limit": _("Round limit"),
}

# How a null value of an option reads.
_NULL_WORDS = {
    "builds_per_turn": _("unlimited"),
    "mortgage_expiry_rounds": _("never"),
    "speed_die_from_round": _("off"),
    "salary_stops_minutes": _("never"),
    "salary_stops_round": _("never"),
    "rent_tax_minutes": _("never"),
    "rent_tax_round": _("never"),
    "time_limit_minutes": _("none"),
}

DEAL_LABELS = {
    "none": _("none"),
    "two_paid": _("two each, paid at the printed price"),
    "all_free": _("all, evenly, free"),
}


def format_value(key: str, value: Any) -> str:
    if value is None:
        return str(_NULL_WORDS.get(key, _("none")))
    if isinstance(value, bool):
        return str(_("on") if value else _("off"))
    if key == "salary_stops_minutes":
        return str(_("after %(n)s minutes") % {"n": value})
    if key == "salary_stops_round":
        return str(_("after round %(n)s") % {"n": value})
    if key == "rent_tax_minutes":
        return str(_("from minute %(n)s") % {"n": value})
    if key == "rent_tax_round":
        return str(_("from round %(n)s") % {"n": value})
    if key == "rent_tax_step_rounds":
        return str(ngettext("%(n)d round", "%(n)d rounds", value) % {"n": value})
    if key == "deal_at_start":
        return str(DEAL_LABELS.get(value, value))
    if isinstance(value, (list, tuple)) and key == "seats":
        lo, hi = value
        return f"{lo}" if lo == hi else f"{lo}\N{EN DASH}{hi}"
    if isinstance(value, int):
        return number_format(value, force_grouping=True)
    return str(value)


@dataclass(frozen=True)
class Change:
    """One option of a table that differs from its preset."""

    key: str
    label: str
    value: str
    preset_value: str

    def __str__(self) -> str:
        return f"{self.label}: {self.value}"


def describe_changes(preset: str, overrides: dict[str, Any]) -> list[Change]:
    """Every change from the preset, in the order of OPTION_LABELS, then any other key."""
    base = PRESETS[preset]
    order = {key: i for i, key in enumerate(OPTION_LABELS)}
    changes = []
    for key in sorted(overrides, key=lambda k: (order.get(k, len(order)), k)):
        changes.append(
            Change(
                key=key,
                label=str(OPTION_LABELS.get(key, key)),
                value=format_value(key, overrides[key]),
                preset_value=format_value(key, base.get(key)),
            )
        )
    return changes


def table_changes(preset: str, options: dict[str, Any]) -> list[Change]:
    """The host's changes of a table's preset (what its card lists before anyone joins).

    The options were validated when the table was created; a preset whose rules have since
    changed may refuse them, and then the raw options are listed rather than breaking a page.
    """
    try:
        overrides = RuleSet.build(preset, options).overrides()
    except ValueError:
        overrides = dict(options)
    return describe_changes(preset, overrides)


def pace_summary(*, pace: str, turn_hours: int | None, rules: RuleSet) -> str:
    if pace == "live":
        return str(_("Live · %(seconds)s s per turn") % {"seconds": rules.turn_seconds})
    hours = turn_hours or 24
    if hours % 24 == 0:
        days = hours // 24
        per = ngettext("%(n)d day", "%(n)d days", days) % {"n": days}
    else:
        per = ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours}
    return str(_("Correspondence · %(per)s per turn") % {"per": per})


def rule_highlights(rules: RuleSet) -> list[tuple[str, str]]:
    """The handful of numbers a player looks at before sitting down (effective rules)."""
    rows: list[tuple[str, str]] = [
        (str(_("Start cash")), format_value("start_cash", rules.start_cash)),
        (str(_("Salary")), format_value("salary", rules.salary)),
        (str(_("Houses before a hotel")), str(rules.houses_before_hotel)),
        (str(_("Even building")), format_value("even_building", rules.even_building)),
        (
            str(_("Builds per group per turn")),
            format_value("builds_per_turn", rules.builds_per_turn),
        ),
        (
            str(_("Mortgages auctioned after (rounds)")),
            format_value("mortgage_expiry_rounds", rules.mortgage_expiry_rounds),
        ),
        (
            str(_("Speed die from round")),
            format_value("speed_die_from_round", rules.speed_die_from_round),
        ),
    ]
    if rules.salary_stops_round is not None:
        rows.append(
            (str(_("Salary stops")), format_value("salary_stops_round", rules.salary_stops_round))
        )
    elif rules.salary_stops_minutes is not None:
        rows.append(
            (
                str(_("Salary stops")),
                format_value("salary_stops_minutes", rules.salary_stops_minutes),
            )
        )
    if rules.rent_tax_round is not None:
        rows.append((str(_("Rent tax")), format_value("rent_tax_round", rules.rent_tax_round)))
    elif rules.rent_tax_minutes is not None:
        rows.append((str(_("Rent tax")), format_value("rent_tax_minutes", rules.rent_tax_minutes)))
    if rules.free_parking_jackpot:
        rows.append((str(_("Free Parking jackpot")), str(_("on"))))
    if rules.income_tax_choice:
        rows.append((str(_("Income tax: 10% of worth as a choice")), str(_("on"))))
    if rules.deal_at_start != "none":
        rows.append(
            (str(_("Deeds dealt at the start")), format_value("deal_at_start", rules.deal_at_start))
        )
    return rows


# ---------------------------------------------------------------------------------------------
# Clocks for real life (RULES.md 16; games/clock.py does the arithmetic)
# ---------------------------------------------------------------------------------------------

CLOCK_REFUSALS = {
    "hours_range": _("playing hours run from 00:00 to 24:00"),
    "hours_empty": _("playing hours of zero length: no decision could ever be answered"),
    "hours_format": _("write playing hours as HH:MM-HH:MM, e.g. 08:00-22:00"),
    "zone": _("the table's time zone is unknown"),
    "own": _("a decision needs some time of its own"),
    "negative": _("a time bank and its increment cannot be negative"),
    "bank_max": _("a time bank is at most 30 days (720 hours)"),
    "increment_no_bank": _("an increment needs a time bank to add to"),
    "increment_max": _("the increment cannot be larger than the time bank"),
    "hours_whole": _("time banks are counted in whole hours"),
}


def clock_refusal(error) -> Any:
    """The words of a games.clock.ClockError for the table form and the services."""
    return CLOCK_REFUSALS.get(getattr(error, "code", ""), _("these clock settings are impossible"))


def duration_words(amount) -> str:
    """A clock's time as the game page shows it: "1 d 4 h", "3 h", "25 min" (whole minutes,
    rounded down; the largest two units)."""
    minutes = max(0, int(amount.total_seconds() // 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = []
    if days:
        parts.append(str(_("%(n)s d") % {"n": days}))
    if hours:
        parts.append(str(_("%(n)s h") % {"n": hours}))
    if mins and not days:
        parts.append(str(_("%(n)s min") % {"n": mins}))
    return " ".join(parts) or str(_("%(n)s min") % {"n": 0})


def clock_summary(table: Table) -> list[str]:
    """The clock options of a table (and its round limit), one line each, for its card and page
    (none when they are the defaults)."""
    lines: list[str] = []
    if table.round_limit is not None:
        lines.append(str(_("The game ends after round %(n)s, ranked by net worth")) % {"n": table.round_limit})
    if table.pace != Table.Pace.CORRESPONDENCE:
        return lines
    if table.time_bank_hours:
        from datetime import timedelta

        bank = duration_words(timedelta(hours=table.time_bank_hours))
        if table.time_bank_increment_hours:
            inc = duration_words(timedelta(hours=table.time_bank_increment_hours))
            words = _("Time bank %(bank)s, plus %(inc)s for each answer in time")
            lines.append(str(words) % {"bank": bank, "inc": inc})
        else:
            lines.append(str(_("Time bank %(bank)s") % {"bank": bank}))
    if table.playing_hours or not table.count_weekends:
        hours = table.playing_hours.replace("-", "\N{EN DASH}") if table.playing_hours else ""
        params = {"hours": hours, "zone": table.time_zone}
        if hours and table.count_weekends:
            lines.append(str(_("Clocks run %(hours)s (%(zone)s)")) % params)
        elif hours:
            lines.append(str(_("Clocks run %(hours)s on weekdays (%(zone)s)")) % params)
        else:
            lines.append(str(_("Clocks stop on weekends (%(zone)s)")) % params)
    return lines
