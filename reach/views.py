"""The pages of issue 29: the settings (warnings, channels, quiet hours, the calendar's secret
URL), the calendar feed, the "next game waiting" control, nudges and private notes."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from markupsafe import Markup, escape

from accounts.names import bdi
from games import selectors
from games.links import absolute, game_path
from reach import calendar, choices, notes, nudges, panel, waits
from reach.forms import ReachForm
from reach.models import Reach

# ---------------------------------------------------------------------------------------------
# Settings and the calendar feed
# ---------------------------------------------------------------------------------------------


def _feed_url(row: Reach) -> str:
    return absolute(reverse("reach:calendar", args=[row.calendar_token])) if row.calendar_token else ""


@require_http_methods(["GET", "POST"])
@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
    row = choices.of(request.user.pk)
    if request.method == "POST":
        form = ReachForm(request.POST)
        if form.is_valid():
            d = form.cleaned_data
            choices.save(user=request.user, warnings=d["warnings"], email=d["email"], push=d["push"],
                         bell=d["bell"], quiet_start=d["quiet_start"], quiet_end=d["quiet_end"])
            messages.success(request, _("Your reminder settings have been saved."))
            return redirect("reach:settings")
        status = 400
    else:
        form = ReachForm(initial={"warnings": row.warning_hours, "email": row.email, "push": row.push,
                                  "bell": row.bell, "quiet_start": row.quiet_start, "quiet_end": row.quiet_end})
        status = 200
    return render(request, "reach/settings.html", {"form": form, "feed_url": _feed_url(row)}, status=status)


@require_POST
@login_required
def calendar_reset(request: HttpRequest) -> HttpResponse:
    had = choices.of(request.user.pk).calendar_token
    choices.calendar_reset(user=request.user)
    if had:
        messages.success(request, _("Your calendar has a new address: the old one no longer works."))
    else:
        messages.success(request, _("Your calendar address is ready: add it to your calendar app."))
    return redirect("reach:settings")


@require_safe
@never_cache
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """The feed, for calendar apps: no login, the secret in the URL is the key."""
    row = Reach.objects.select_related("user").filter(calendar_token=token).first() if token else None
    if row is None or not row.user.is_active:
        raise Http404
    response = HttpResponse(calendar.feed(user=row.user), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="monopoly.ics"'
    return response


# ---------------------------------------------------------------------------------------------
# The next game waiting
# ---------------------------------------------------------------------------------------------


@require_safe
@login_required
def next_game(request: HttpRequest) -> HttpResponse:
    raw = request.GET.get("after", "")
    after = int(raw) if raw.isdigit() and len(raw) < 12 else None
    game_id = waits.next_game(request.user, after=after)
    if game_id is None:
        messages.info(request, _("No game is waiting on you."))
        return redirect("games:my_games")
    return redirect(game_path(game_id))


# ---------------------------------------------------------------------------------------------
# Nudges and notes, from the game page's panel (htmx, or plain forms)
# ---------------------------------------------------------------------------------------------


def _game(request: HttpRequest, game_id: int):
    found = selectors.visible_game(game_id=game_id, user=request.user)
    if found is None:
        raise Http404
    return found


def _answer(request: HttpRequest, found, *, status: int = 200, error: str = "", done: str = "") -> HttpResponse:
    if request.htmx:
        ctx = panel.context(user=request.user, game=found.game, seats=found.seats, me=found.me)
        ctx.update(error=error, done=done)
        return render(request, "reach/_game_panel.html", ctx, status=status)
    if error:
        messages.error(request, error)
    elif done:
        messages.success(request, done)
    return redirect(game_path(found.game.pk))


@require_POST
@login_required
def nudge(request: HttpRequest, game_id: int) -> HttpResponse:
    found = _game(request, game_id)
    raw = request.POST.get("seat", "")
    if not raw.isdigit() or len(raw) > 2:
        return _answer(request, found, status=400, error=_("Choose a player to nudge."))
    try:
        n = nudges.nudge_send(game=found.game, user=request.user, to_seat=int(raw), now=timezone.now())
    except nudges.NudgeRefused as e:
        return _answer(request, found, status=403 if e.code == "spectator" else 400, error=e.message)
    name = next((s.label for s in found.seats if s.position == n.to_seat), "")
    # (The name isolated, <bdi>: issue 26; the sentence itself escaped.)
    return _answer(request, found, done=Markup(escape(_("You nudged %(name)s."))) % {"name": bdi(name)})


@require_POST
@login_required
def note_save(request: HttpRequest, game_id: int) -> HttpResponse:
    found = _game(request, game_id)
    if found.me is None:
        return _note_answer(request, found, status=403, text=_("Only the players of this game have notes here."))
    try:
        notes.note_save(game_id=found.game.pk, seat=found.me.position, text=request.POST.get("text", ""))
    except notes.NoteRefused as e:
        return _note_answer(request, found, status=400, text=str(e))
    when = timezone.localtime().strftime("%H:%M")
    return _note_answer(request, found, text=_("Saved at %(time)s. Only you can see these notes.") % {"time": when})


def _note_answer(request: HttpRequest, found, *, text: str, status: int = 200) -> HttpResponse:
    if request.htmx:
        return render(request, "reach/_note_status.html", {"text": text, "error": status != 200}, status=status)
    if status != 200:
        messages.error(request, text)
    else:
        messages.success(request, text)
    return redirect(game_path(found.game.pk))


@require_POST
@login_required
def note_reveal(request: HttpRequest, game_id: int) -> HttpResponse:
    found = _game(request, game_id)
    if found.me is None:
        return _answer(request, found, status=403, error=_("Only the players of this game have notes here."))
    value = request.POST.get("reveal", "")
    if value not in ("0", "1"):
        return _answer(request, found, status=400, error=_("Choose whether to show your notes in the replay."))
    notes.note_reveal(game_id=found.game.pk, seat=found.me.position, reveal=value == "1")
    done = (_("Your notes will be shown in the replay once the game is over.") if value == "1"
            else _("Your notes stay private, in the replay too."))
    return _answer(request, found, done=done)
