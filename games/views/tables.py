"""The tables half of the site: lobby, create a table, the table page, "My games".

Function views in the healthchecks manner: reads through games.selectors, every write through
games.services behind ``@require_POST @login_required``, errors shown with django messages.
Forms post and redirect, so everything works without JavaScript; with htmx the table page's
body is swapped in place (and polled, answering 204 while nothing changed).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from config.ratelimit import limit
from games import options, selectors, services
from games.engine import PRESET_NAMES, PRESETS
from games.errors import translate_refusal
from games.forms import InviteForm, TableForm, TeamForm
from games.links import absolute, game_path, invite_path, table_path
from games.models import Seat, Table
from games.options import PRESET_BLURBS, PRESET_LABELS, format_value
from moderation.selectors import lockout_refusal
from reach import waits as reach_waits

# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def form_address(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For the addresses the table pages' forms post to (urls_tables.py wraps each view): a
    person who opens one (a reload, or signing in after their session ended, which comes back to
    the address the form posted to) is sent to the form's page instead of an empty 405, and a
    post from someone signed out signs in and comes back to that page, not to this address.
    Posts from signed-in users go on to the view (and its require_POST and login_required)."""

    @wraps(view)
    def wrapped(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        if request.method == "POST" and request.user.is_authenticated:
            return view(request, **kwargs)
        if "table_id" in kwargs:
            code = request.POST.get("code", "") if request.method == "POST" else ""
            page = invite_path(code) if code else table_path(kwargs["table_id"])
        else:
            page = reverse("games:table_new")
        if request.method == "POST":
            return redirect_to_login(page)
        return redirect(page)

    return wrapped


def _error(request: HttpRequest, error: Exception) -> None:
    # A service's refusal may carry the engine's English (a rule set, a new game's seats).
    messages.error(request, capfirst(translate_refusal(error)))


def _locked_out(request: HttpRequest) -> bool:
    """A suspended or banned user neither opens nor joins tables (issue 11): told why."""
    refusal = lockout_refusal(user=request.user)
    if refusal is not None:
        messages.error(request, refusal)
    return refusal is not None


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


def _table_or_404(request: HttpRequest, table_id: int, *, code: str = "") -> Table:
    """A table the user may act on: one they may see, or reached with its invitation code."""
    table = selectors.visible_table(table_id=table_id, user=request.user, code=code)
    if table is None:
        raise Http404("No such table.")
    return table


def _stamp(page: selectors.TablePage) -> str:
    """A short digest of what the table page shows, for the htmx poll's "nothing changed"."""
    parts = [page.table.status, str(len(page.invitations))]
    parts += [f"{s.position}:{s.user_id}:{s.bot}:{s.team}:{s.kept_for_id}" for s in page.seats]
    return hashlib.sha1("|".join(parts).encode()).hexdigest()[:12]


def _table_context(request: HttpRequest, page: selectors.TablePage, *, code: str = "") -> dict:
    table = page.table
    invite_url = absolute(invite_path(table.invite_code)) if page.can_invite else ""
    return {
        "page": page,
        "table": table,
        "card": page.card,
        "blurb": PRESET_BLURBS.get(table.preset, ""),
        "code": code,
        "stamp": _stamp(page),
        "poll_url": invite_path(code) if code else table_path(table.pk),
        "invite_url": invite_url,
        "invite_form": InviteForm(),
        "bot_choices": [(value, label) for value, label in Seat.Bot.choices if value],
        "game_url": game_path(page.game.pk) if page.game else "",
    }


def _after_write(request: HttpRequest, table: Table, *, code: str = "") -> HttpResponse:
    """Where a table form lands: the table page, or with htmx its refreshed body."""
    if request.htmx:
        page = selectors.table_page(table_id=table.pk, user=request.user, code=code)
        if page is None:
            # (They left a private table they had come to by its link: it is no longer theirs to see.)
            return HttpResponseClientRedirect(reverse("games:lobby"))
        return render(
            request, "games/tables/_table_body.html", _table_context(request, page, code=code)
        )
    if code and selectors.visible_table(table_id=table.pk, user=request.user) is None:
        return redirect(invite_path(code))
    return redirect(table_path(table.pk))


def _to_game(request: HttpRequest, game_id: int) -> HttpResponse:
    """Send the user on to a started game's page."""
    target = game_path(game_id)
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


def _render_table(
    request: HttpRequest, page: selectors.TablePage, *, code: str = ""
) -> HttpResponse:
    if page.game is not None:
        return _to_game(request, page.game.pk)
    context = _table_context(request, page, code=code)
    if request.htmx:
        if request.GET.get("stamp") == context["stamp"]:
            return HttpResponse(status=204)
        return render(request, "games/tables/_table_body.html", context)
    return render(request, "games/table.html", context)


# ---------------------------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------------------------


@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    context = {
        "cards": selectors.lobby_tables(),
        "waiting": selectors.waiting_count(user=request.user)
        if request.user.is_authenticated
        else 0,
        "seated": selectors.seated_table_ids(user=request.user),
    }
    if request.htmx:
        return render(request, "games/tables/_lobby_list.html", context)
    # The latest games in progress, each one click from watching (the Watch page lists more).
    context["watching"] = selectors.watch_games(viewer=request.user, limit=selectors.LOBBY_WATCH_LIMIT)
    return render(request, "games/lobby.html", context)


@require_safe
def watch(request: HttpRequest) -> HttpResponse:
    """The live public games, to spectate (issue 12)."""
    return render(request, "games/watch.html", {"entries": selectors.watch_games(viewer=request.user)})


def _preset_table() -> list[dict]:
    """The presets' main numbers, shown beside the form (and read by its placeholders)."""
    rows = []
    for name in PRESET_NAMES:
        p = PRESETS[name]
        rows.append(
            {
                "name": name,
                "label": PRESET_LABELS[name],
                "blurb": PRESET_BLURBS[name],
                "seats": format_value("seats", p["seats"]),
                "start_cash": p["start_cash"],
                "start_cash_text": format_value("start_cash", p["start_cash"]),
                "turn_seconds": p["turn_seconds"],
                "salary_stops": p["salary_stops_minutes"],
                "rent_tax_from": p["rent_tax_minutes"],
                "mortgage_expiry_rounds": p["mortgage_expiry_rounds"],
                "builds_per_turn": p["builds_per_turn"],
                "speed_die_from_round": p["speed_die_from_round"],
                "houses_before_hotel": p["houses_before_hotel"],
                "even_building": p["even_building"],
            }
        )
    return rows


def _render_form(request: HttpRequest, form: TableForm, status: int = 200) -> HttpResponse:
    context = {
        "form": form,
        "presets": _preset_table(),
        "correspondence_rounds": options.CORRESPONDENCE_ROUNDS,
    }
    return render(request, "games/table_form.html", context, status=status)


@require_safe
@login_required
def table_new(request: HttpRequest) -> HttpResponse:
    return _render_form(request, TableForm())


@require_POST
@login_required
def table_create(request: HttpRequest) -> HttpResponse:
    if _locked_out(request):
        return redirect("games:lobby")
    form = TableForm(request.POST)
    if not form.is_valid():
        return _render_form(request, form)
    data = form.cleaned_data
    try:
        table = services.table_create(
            host=request.user,
            name=data["name"],
            preset=data["preset"],
            options=data["options"],
            pace=data["pace"],
            turn_hours=data["turn_hours"],
            seat_count=data["seat_count"],
            is_private=data["is_private"],
            absent_seat=data["absent_seat"],
            vacation_days=data["vacation_days"],
            pause_max_minutes=data["pause_max_minutes"],
            time_bank_hours=data["time_bank_hours"],
            time_bank_increment_hours=data["time_bank_increment_hours"],
            playing_hours=data["playing_hours"],
            count_weekends=data["count_weekends"],
            round_limit=data.get("round_limit"),
            advisor=data.get("advisor", False),
        )
    except services.GameError as e:
        form.add_error(None, capfirst(translate_refusal(e)))
        return _render_form(request, form)
    messages.success(
        request, _("Your table is open. Invite friends or add bots, then start the game.")
    )
    return redirect(table_path(table.pk))


@require_safe
def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    page = selectors.table_page(table_id=table_id, user=request.user)
    if page is None:
        raise Http404("No such table.")
    return _render_table(request, page)


@require_safe
@login_required
def table_invite(request: HttpRequest, code: str) -> HttpResponse:
    """The invitation link: anyone signed in who has it may see the table and sit down."""
    table = selectors.table_by_invite_code(code=code)
    if table is None:
        raise Http404("No table has this invitation link.")
    page = selectors.table_page(table_id=table.pk, user=request.user, code=code)
    return _render_table(request, page, code=code)


@require_safe
@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    board = selectors.dashboard(user=request.user)
    # Issue 29: how long each game has waited on the player (one query).
    waited = reach_waits.since_by_game(request.user)
    for entry in board.waiting:
        entry.waited_since = waited.get(entry.game.pk)
    return render(request, "games/my_games.html", {"board": board})


# ---------------------------------------------------------------------------------------------
# Writes
# ---------------------------------------------------------------------------------------------


@require_POST
@login_required
def table_join(request: HttpRequest, table_id: int) -> HttpResponse:
    code = request.POST.get("code", "")
    table = _table_or_404(request, table_id, code=code)
    if _locked_out(request):
        return _after_write(request, table, code=code)
    try:
        services.table_join(
            table=table, user=request.user, position=_int(request.POST.get("position"))
        )
    except services.GameError as e:
        _error(request, e)
    else:
        messages.success(
            request, _("You have a seat. The host starts the game when every seat is filled.")
        )
    return _after_write(request, table, code=code)


@require_POST
@login_required
def table_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table_or_404(request, table_id)
    is_host = table.host_id == request.user.pk
    try:
        services.table_leave(table=table, user=request.user)
    except services.GameError as e:
        _error(request, e)
        return _after_write(request, table)
    if is_host:
        messages.success(request, _("The table is cancelled."))
        if request.htmx:
            return HttpResponseClientRedirect(reverse("games:lobby"))
        return redirect("games:lobby")
    messages.success(request, _("You left the table."))
    return _after_write(request, table)


@require_POST
@login_required
def table_seat(request: HttpRequest, table_id: int) -> HttpResponse:
    """A seated player moves to another (empty) seat."""
    table = _table_or_404(request, table_id)
    position = _int(request.POST.get("position"))
    try:
        if position is None:
            raise services.GameError(gettext_lazy("choose a seat"))
        services.table_change_seat(table=table, user=request.user, position=position)
    except services.GameError as e:
        _error(request, e)
    return _after_write(request, table)


@require_POST
@login_required
def table_bot(request: HttpRequest, table_id: int) -> HttpResponse:
    """The host seats a bot in an empty seat, or removes one (an empty ``bot``)."""
    table = _table_or_404(request, table_id)
    position = _int(request.POST.get("position"))
    try:
        if position is None:
            raise services.GameError(gettext_lazy("choose a seat"))
        services.table_set_seat(
            table=table, by=request.user, position=position, bot=request.POST.get("bot", "")
        )
    except services.GameError as e:
        _error(request, e)
    return _after_write(request, table)


@require_POST
@login_required
def table_team(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table_or_404(request, table_id)
    form = TeamForm(request.POST)
    try:
        if not form.is_valid():
            raise services.GameError(gettext_lazy("choose team 1 or 2"))
        services.table_set_team(
            table=table,
            user=request.user,
            team=form.cleaned_data["team"],
            position=_int(request.POST.get("position")),
        )
    except services.GameError as e:
        _error(request, e)
    return _after_write(request, table)


@require_POST
@login_required
@limit("RATE_LIMIT_INVITATIONS")
def table_invite_email(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table_or_404(request, table_id)
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Enter a valid e-mail address."))
        return _after_write(request, table)
    try:
        invited = services.invitation_create(
            table=table, by=request.user, email=form.cleaned_data["email"]
        )
    except services.GameError as e:
        _error(request, e)
        return _after_write(request, table)
    email = invited.invitation.email
    if invited.status == services.Invited.SENT:
        messages.success(request, _("Invitation sent to %(email)s.") % {"email": email})
    elif invited.status == services.Invited.ALREADY:
        messages.info(
            request,
            _("%(email)s is already invited to this table: no second e-mail was sent.")
            % {"email": email},
        )
    else:
        messages.info(
            request,
            _(
                "%(email)s may now join this table, but no e-mail was sent: the address had an "
                "invitation in the last 24 hours. Send them the invitation link yourself."
            )
            % {"email": email},
        )
    return _after_write(request, table)


@require_POST
@login_required
def table_start(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table_or_404(request, table_id)
    try:
        game = services.table_start(table=table, by=request.user)
    except services.GameError as e:
        _error(request, e)
        return _after_write(request, table)
    return _to_game(request, game.pk)
