"""The host's form for a table's clock options on the table page (games/table_clock.py): while
the table is open only; once its game started the service refuses, saying why."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import services, table_clock
from games.errors import translate_refusal
from games.views.tables import _after_write, _table_or_404


@login_required
@require_POST
def table_clock_view(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table_or_404(request, table_id)
    form = table_clock.ClockForm(request.POST)
    if not form.is_valid():
        messages.error(request, table_clock.form_errors(form))
        return _after_write(request, table)
    try:
        table_clock.table_clock_set(table=table, by=request.user, **{
            k: form.cleaned_data[k] for k in table_clock.CLOCK_FIELDS})
    except services.GameError as e:
        messages.error(request, capfirst(translate_refusal(e)) + ".")
        return _after_write(request, table)
    messages.success(request, _("The table's clock is changed."))
    return _after_write(request, table)
