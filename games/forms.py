"""Forms of the tables half: create a table, invite by e-mail.

The create-table form turns the host's choices into the rule-set overrides the engine knows
(RULES.md 1) and lets the engine validate them: ``InvalidRules`` names the option, and the form
shows the message on that option's field.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from games import clock, meter
from games.aids.pause import PAUSE_MAX_MINUTES_DEFAULT, PAUSE_MAX_MINUTES_MAX
from games.engine import PRESET_NAMES, PRESETS, InvalidRules
from games.errors import translate_refusal
from games.models import Table
from games.options import CORRESPONDENCE_ROUNDS, PRESET_LABELS, clock_refusal, table_rules

TURN_HOUR_CHOICES = [
    (1, _("1 hour")),
    (12, _("12 hours")),
    (24, _("24 hours")),
    (72, _("3 days")),
]
assert tuple(h for h, _label in TURN_HOUR_CHOICES) == Table.TURN_HOURS

# The clock module's bound on a bank (RULES.md 16), in the form's hours.
BANK_MAX_HOURS = int(clock.BANK_MAX.total_seconds()) // 3600

# Three-way switches for on/off rules: blank keeps the preset's value.
TRI_STATE = [("", _("As the preset")), ("on", _("On")), ("off", _("Off"))]
DEAL_CHOICES = [
    ("", _("As the preset")),
    ("none", _("None")),
    ("two_paid", _("Two each, paid at the printed price")),
    ("all_free", _("All of them, evenly, free")),
]

# Which form field shows an error about which engine option.
_FIELD_OF_OPTION = {
    "start_cash": "start_cash",
    "turn_seconds": "turn_seconds",
    "salary_stops_minutes": "salary_stops",
    "salary_stops_round": "salary_stops",
    "rent_tax_minutes": "rent_tax_from",
    "rent_tax_round": "rent_tax_from",
    "rent_tax_step_rounds": "rent_tax_from",
    "mortgage_expiry_rounds": "mortgage_expiry_rounds",
    "even_building": "even_building",
    "builds_per_turn": "builds_per_turn",
    "speed_die_from_round": "speed_die_from_round",
    "free_parking_jackpot": "free_parking_jackpot",
    "income_tax_choice": "income_tax_choice",
    "deal_at_start": "deal_at_start",
    "houses_before_hotel": "houses_before_hotel",
    "seats": "seat_count",
}
# The custom fields, in the order the form shows them (the template loops over these).
CUSTOM_FIELDS = (
    "start_cash",
    "turn_seconds",
    "salary_stops",
    "rent_tax_from",
    "mortgage_expiry_rounds",
    "even_building",
    "builds_per_turn",
    "speed_die_from_round",
    "houses_before_hotel",
    "free_parking_jackpot",
    "income_tax_choice",
    "deal_at_start",
)


def _number(**kwargs: Any) -> forms.IntegerField:
    # No lower bound here: the engine checks every value and its message names the option.
    return forms.IntegerField(required=False, min_value=-1_000_000, max_value=10_000_000, **kwargs)


# RULES.md 15: the vacation allowance of a correspondence table, in days.
VACATION_DAYS_DEFAULT = 7
VACATION_DAYS_MAX = 60

class TableForm(forms.Form):
    name = forms.CharField(
        label=_("Table name"),
        max_length=80,
        required=False,
        help_text=_("Optional. Leave it empty for “<your name>'s table”."),
    )
    preset = forms.ChoiceField(
        label=_("Rules"),
        choices=[(p, PRESET_LABELS[p]) for p in PRESET_NAMES],
        initial="classic",
    )
    seat_count = forms.TypedChoiceField(
        label=_("Seats"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", _("The most allowed"))] + [(n, str(n)) for n in range(2, 9)],
        help_text=_("Classic seats 2 to 8, world 2 to 5, duel exactly 3, teams exactly 4."),
    )
    is_private = forms.BooleanField(
        label=_("Private table"),
        required=False,
        help_text=_("Not listed in the lobby: only people with the invitation link can join."),
    )
    pace = forms.ChoiceField(
        label=_("Pace"),
        choices=Table.Pace.choices,
        initial=Table.Pace.CORRESPONDENCE,
        widget=forms.RadioSelect,
    )
    turn_hours = forms.TypedChoiceField(
        label=_("Time per turn (correspondence)"),
        choices=TURN_HOUR_CHOICES,
        coerce=int,
        initial=24,
        required=False,
        empty_value=None,
        help_text=_("Live tables use the rules' timer in seconds instead."),
    )

    # RULES.md 15, vacation (games/aids/vacation.py).
    vacation_days = forms.IntegerField(
        label=_("Vacation days per player (correspondence)"),
        min_value=0,
        max_value=VACATION_DAYS_MAX,
        initial=VACATION_DAYS_DEFAULT,
        required=False,  # (missing: the default)
        help_text=_("Whole days each player may take off during the game, their clock frozen; 0: none."),
    )

    # RULES.md 16, pause length (games/aids/pause.py).
    pause_max_minutes = forms.IntegerField(
        label=_("Longest pause in minutes (live)"),
        min_value=1,
        max_value=PAUSE_MAX_MINUTES_MAX,
        initial=PAUSE_MAX_MINUTES_DEFAULT,
        required=False,  # (missing: the default)
        help_text=_("Then the countdown to resume starts by itself, as if everyone had confirmed."),
    )

    # RULES.md 16, clocks for real life (games/clock.py); correspondence tables only.
    time_bank_hours = forms.IntegerField(
        label=_("Time bank in hours (correspondence)"),
        min_value=0,
        max_value=BANK_MAX_HOURS,
        initial=0,
        required=False,  # (missing: none)
        help_text=_("Extra time each player may use once a decision's own time is gone; 0: none, at most 720."),
    )
    time_bank_increment_hours = forms.IntegerField(
        label=_("Hours added to the bank per answer in time"),
        min_value=0,
        max_value=BANK_MAX_HOURS,
        initial=0,
        required=False,
        help_text=_("Each decision answered within its own time adds this to the bank, never above its start."),
    )
    playing_hours = forms.CharField(
        label=_("Playing hours (correspondence)"),
        max_length=11,
        required=False,
        help_text=_("Clocks run only between these hours of the table's time zone, e.g. 08:00-22:00; "
                    "empty: every hour."),
    )
    count_weekends = forms.ChoiceField(
        label=_("Weekends"),
        choices=[("on", _("Clocks run on weekends too")), ("off", _("Clocks stop on Saturdays and Sundays"))],
        initial="on",
        required=False,  # (missing: on)
        help_text=_("Counted in the table's time zone, which is yours."),
    )

    round_limit = forms.IntegerField(
        label=_("Round limit"),
        min_value=1,
        max_value=1000,
        required=False,  # (empty: none)
        help_text=_("The game ends when this round is over and the richest player wins; empty: no limit."),
    )

    # Issue 30, the trade meter (games/meter.py): a site option, refused on tables that may be rated.
    advisor = forms.BooleanField(
        label=_("Trade meter"),
        required=False,
        help_text=_("The trade builder and each offer show both players' chances to win without and "
                    "with the trade, by simulation. Unrated tables only: a preset that isn't rated, or "
                    "a custom rule."),
    )

    absent_seat = forms.ChoiceField(
        label=_("When a player leaves for good"),
        choices=Table.AbsentSeat.choices,
        initial=Table.AbsentSeat.OUT,
        required=False,  # (missing: out, the default)
        widget=forms.RadioSelect,
        help_text=_("A player who misses three turns in a row or deletes their account during the "
                    "game: their seat is forfeited, or a strategy bot plays it to the end."),
    )

    # Custom rules (RULES.md 1, custom table). Blank keeps the preset's value.
    start_cash = _number(label=_("Start cash"))
    turn_seconds = _number(
        label=_("Seconds per turn"),
        help_text=_("Live tables only."),
    )
    salary_stops = _number(
        label=_("Salary stops after"),
        help_text=_("Minutes on live tables, rounds on correspondence tables; 0: never."),
    )
    rent_tax_from = _number(
        label=_("Rent tax from"),
        help_text=_("Minutes on live tables, rounds on correspondence tables; 0: never."),
    )
    mortgage_expiry_rounds = _number(
        label=_("Mortgages auctioned after (rounds)"),
        help_text=_("0: never."),
    )
    even_building = forms.ChoiceField(label=_("Even building"), choices=TRI_STATE, required=False)
    builds_per_turn = _number(
        label=_("Builds per colour group per turn"), help_text=_("0: unlimited.")
    )
    speed_die_from_round = _number(label=_("Speed die from round"), help_text=_("0: no speed die."))
    houses_before_hotel = _number(label=_("Houses before a hotel"), help_text=_("1 to 4."))
    free_parking_jackpot = forms.ChoiceField(
        label=_("Free Parking jackpot"),
        choices=TRI_STATE,
        required=False,
        help_text=_(
            "House rule: taxes and fines go to a pot that whoever lands on Free Parking takes."
        ),
    )
    income_tax_choice = forms.ChoiceField(
        label=_("Income tax: 10% of worth as a choice"),
        choices=TRI_STATE,
        required=False,
    )
    deal_at_start = forms.ChoiceField(
        label=_("Deeds dealt at the start"), choices=DEAL_CHOICES, required=False
    )

    def custom_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in CUSTOM_FIELDS]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        preset = data.get("preset")
        pace = data.get("pace")
        if not preset or not pace:
            return data
        if pace == Table.Pace.CORRESPONDENCE and data.get("turn_hours") is None:
            data["turn_hours"] = 24
        data["absent_seat"] = data.get("absent_seat") or Table.AbsentSeat.OUT
        if data.get("vacation_days") is None:
            data["vacation_days"] = VACATION_DAYS_DEFAULT
        if data.get("pause_max_minutes") is None:
            data["pause_max_minutes"] = PAUSE_MAX_MINUTES_DEFAULT
        self._clock(data, pace)
        options = self._options(preset, pace)
        if self.errors:
            return data
        # Each option on its own first, so that every bad box gets its message at once; then
        # all of them together (the engine also checks how options fit with each other).
        for key, value in options.items():
            self._engine_check(preset, {key: value}, pace)
        rules = None if self.errors else self._engine_check(preset, options, pace)
        if rules is None:
            return data
        lo, hi = rules.seats
        seats = data.get("seat_count")
        if seats is not None and not lo <= seats <= hi:
            self.add_error(
                "seat_count", _("These rules seat %(lo)s to %(hi)s players.") % {"lo": lo, "hi": hi}
            )
        data["options"] = options
        refusal = meter.advisor_refusal(preset=preset, options=options) if data.get("advisor") else None
        if refusal is not None:
            self.add_error("advisor", capfirst(refusal) + ".")
        return data

    def _clock(self, data: dict[str, Any], pace: str) -> None:
        """RULES.md 16: the clock options, refused on their own field when no decision could
        live with them (games/clock.py checks them; the service checks again)."""
        for key in ("time_bank_hours", "time_bank_increment_hours"):
            if data.get(key) is None:
                data[key] = 0
        data["count_weekends"] = data.get("count_weekends") != "off"
        data["playing_hours"] = (data.get("playing_hours") or "").strip()
        if pace != Table.Pace.CORRESPONDENCE:
            return
        try:
            clock.check(own=timedelta(hours=data.get("turn_hours") or 24),
                        bank=timedelta(hours=data["time_bank_hours"]),
                        increment=timedelta(hours=data["time_bank_increment_hours"]))
        except clock.ClockError as e:
            field = "time_bank_hours" if e.code == "bank_max" else "time_bank_increment_hours"
            self.add_error(field, capfirst(clock_refusal(e)) + ".")
        if data["playing_hours"]:
            try:
                clock.PlayingHours.parse(data["playing_hours"], "UTC")
            except clock.ClockError as e:
                self.add_error("playing_hours", capfirst(clock_refusal(e)) + ".")

    def _engine_check(self, preset: str, options: dict[str, Any], pace: str):
        """The rule set, or None after putting the engine's refusal on the field it names."""
        try:
            return table_rules(preset=preset, options=options, pace=pace)
        except InvalidRules as e:
            field = _FIELD_OF_OPTION.get(e.params.get("option"))
            if field is None or field not in self.errors:
                self.add_error(field, translate_refusal(e))
            return None

    def _options(self, preset: str, pace: str) -> dict[str, Any]:
        """The engine overrides the host asked for, leaving out what equals the preset."""
        data = self.cleaned_data
        base = PRESETS[preset]
        live = pace == Table.Pace.LIVE
        options: dict[str, Any] = {}

        def zero_is_none(value: int) -> int | None:
            return None if value == 0 else value

        if data.get("start_cash") is not None:
            options["start_cash"] = data["start_cash"]
        if data.get("turn_seconds") is not None:
            if live:
                options["turn_seconds"] = data["turn_seconds"]
            else:
                self.add_error(
                    "turn_seconds", _("Correspondence tables give hours per turn, not seconds.")
                )
        for field, minutes_key, round_key in (
            ("salary_stops", "salary_stops_minutes", "salary_stops_round"),
            ("rent_tax_from", "rent_tax_minutes", "rent_tax_round"),
        ):
            value = data.get(field)
            if value is None:
                continue
            if live:
                options[minutes_key] = zero_is_none(value)
            elif value == 0:
                # No threshold: the preset's minutes must not be turned into default rounds.
                options[minutes_key] = None
            elif base[minutes_key] is None or value != CORRESPONDENCE_ROUNDS[round_key]:
                options[round_key] = value
        for key in ("mortgage_expiry_rounds", "builds_per_turn", "speed_die_from_round"):
            if data.get(key) is not None:
                options[key] = zero_is_none(data[key])
        if data.get("houses_before_hotel") is not None:
            options["houses_before_hotel"] = data["houses_before_hotel"]
        for key in ("even_building", "free_parking_jackpot", "income_tax_choice"):
            if data.get(key):
                options[key] = data[key] == "on"
        if data.get("deal_at_start"):
            options["deal_at_start"] = data["deal_at_start"]
        return {key: value for key, value in options.items() if base.get(key, object()) != value}


class InviteForm(forms.Form):
    email = forms.EmailField(label=_("E-mail address"), max_length=254)


class TeamForm(forms.Form):
    team = forms.TypedChoiceField(choices=[(0, _("Team 1")), (1, _("Team 2"))], coerce=int)
