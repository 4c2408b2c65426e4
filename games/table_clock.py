"""A table's clock options (RULES.md 16: ``time_bank_hours``, ``time_bank_increment_hours``,
``playing_hours``, ``count_weekends``, ``round_limit``) changed by its host while the table is
open, and never once its game started: the players agreed to a game on the clock it showed, and
the game's deadlines, banks and rule set (the round limit rides in it) were set from it at the
start. Refused with a clear message, nothing changed, for anyone but the host, a live table's
correspondence clocks, settings no decision could live with (games/clock.py) and a table whose
game started (a page drawn before the start, or a forged form)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.db import transaction
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from games import clock
from games.errors import GameError, NotAllowed
from games.forms import TableForm
from games.models import Table
from games.options import clock_refusal
from games.services import ROUND_LIMIT_MAX

CLOCK_FIELDS = ("time_bank_hours", "time_bank_increment_hours", "playing_hours", "count_weekends", "round_limit")


class ClockForm(forms.Form):
    """The clock options of the table form (the same fields, words and bounds)."""

    time_bank_hours = TableForm.base_fields["time_bank_hours"]
    time_bank_increment_hours = TableForm.base_fields["time_bank_increment_hours"]
    playing_hours = TableForm.base_fields["playing_hours"]
    count_weekends = TableForm.base_fields["count_weekends"]
    round_limit = TableForm.base_fields["round_limit"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for key in ("time_bank_hours", "time_bank_increment_hours"):
            if data.get(key) is None:
                data[key] = 0
        data["count_weekends"] = data.get("count_weekends") != "off"
        data["playing_hours"] = (data.get("playing_hours") or "").strip()
        return data


@transaction.atomic
def table_clock_set(*, table: Table, by, time_bank_hours: int, time_bank_increment_hours: int,
                    playing_hours: str, count_weekends: bool, round_limit: int | None) -> Table:
    """Set the clock options of ``table`` (open, ``by`` its host). Raises GameError or
    NotAllowed, nothing written, as the module says."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.host_id != by.pk:
        raise NotAllowed(_("only the host may change the table's clock"))
    if table.status != Table.Status.OPEN:
        raise GameError(_("the clock of a game that has started cannot change: its options are set before the start"))
    if round_limit is not None and (type(round_limit) is not int or not 1 <= round_limit <= ROUND_LIMIT_MAX):
        raise GameError(_("a round limit is a whole number of rounds from 1 to %(n)s"), n=ROUND_LIMIT_MAX)
    playing_hours = (playing_hours or "").strip()
    if table.pace != Table.Pace.CORRESPONDENCE:
        if time_bank_hours or time_bank_increment_hours or playing_hours or not count_weekends:
            raise GameError(_("time banks and playing hours are for correspondence tables"))
    else:
        try:
            if any(type(v) is not int for v in (time_bank_hours, time_bank_increment_hours)):
                raise clock.ClockError("whole hours", "hours_whole")
            clock.check(own=timedelta(hours=table.turn_hours or 24), bank=timedelta(hours=time_bank_hours),
                        increment=timedelta(hours=time_bank_increment_hours))
            hours = clock.table_hours(playing_hours, table.time_zone, bool(count_weekends))
        except clock.ClockError as e:
            raise GameError(clock_refusal(e)) from e
        playing_hours = hours.text if hours is not None and playing_hours else ""
    table.time_bank_hours, table.time_bank_increment_hours = time_bank_hours, time_bank_increment_hours
    table.playing_hours, table.count_weekends, table.round_limit = playing_hours, bool(count_weekends), round_limit
    table.save(update_fields=list(CLOCK_FIELDS))
    return table


def form_errors(form: ClockForm) -> str:
    """The form's refusals in one message (the table page shows messages above it)."""
    return " ".join(capfirst(str(e)) for errors in form.errors.values() for e in errors)
