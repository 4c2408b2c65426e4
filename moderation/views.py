"""The moderators' pages (the queue, a report, an account's history, the audit log) and the
players' (report, block, the game chat, the page a suspended account is sent to).

Function views in the healthchecks manner: ``@require_POST @login_required`` on every write,
which goes through moderation.services; each moderator page checks its rule first (403 for
players, the login page for visitors). Every form also works without JavaScript.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest, PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Q
from django.db.models.fields.json import KT
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.security import SecondFactorRequired, has_second_factor
from games import selectors as game_selectors
from games.models import Game, GameAction, Seat
from moderation import selectors, services
from moderation.forms import AccountActionForm, AppealForm, GameActionForm, ReportForm, ResolveForm
from moderation.models import AuditEntry, ChatMessage, Report, Sanction
from moderation.permissions import can, holds_moderator_role, protected_user_ids
from moderation.signals import SESSION_KEY

User = get_user_model()
SESSION_REFUSED = "moderation_refused_user"
QUEUE_PAGE = 30
LOG_PAGE = 50
CHAT_POLL_SECONDS = 5


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------

def _moderator(request: HttpRequest, rule: str = "moderation.view_queue", obj=None) -> None:
    """403 unless the signed-in user passes ``rule``; keeps the header's badge flag current."""
    allowed = can(rule, request.user, obj)
    if rule == "moderation.view_queue":
        request.session[SESSION_KEY] = allowed
    if not allowed:
        if holds_moderator_role(request.user) and not has_second_factor(request.user):
            # A moderator without a second factor gets the page that explains and links to its
            # setup (accounts.middleware.SecondFactorRequiredMiddleware), never the tools.
            raise SecondFactorRequired("a second factor is required")
        raise PermissionDenied("moderators only")


def _next(request: HttpRequest, default: str) -> str:
    """Where to go after the form: its ``next``, a path of this site, else ``default``. Read
    before anything is written: a ``next`` that is not such a path (another site, or "abc",
    which redirect() would take for a view's name) is a 400, and nothing changes."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if not target:
        return default
    if not target.startswith("/") or not url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        raise BadRequest("next is not a path of this site")
    return target


def _refused(request: HttpRequest, error: services.ModerationError) -> None:
    messages.error(request, error.localized())


def _report_or_none(request: HttpRequest, raw) -> Report | None:
    """The report an action cites: none, or one that exists (404); not a number is a 400."""
    if raw in (None, ""):
        return None
    report_id = _int(raw)
    if report_id is None:
        raise BadRequest("report is not a number")
    return get_object_or_404(Report, pk=report_id)


def _game_for(request: HttpRequest, game_id: int) -> tuple[Game, list[Seat], Seat | None]:
    """The game as the viewer may see it: the game page's own rule (games.selectors.visible_game)."""
    seen = game_selectors.visible_game(game_id=game_id, user=request.user)
    if seen is None:
        raise Http404("no such game")
    return seen


# ---------------------------------------------------------------------------------------------
# Moderators' pages
# ---------------------------------------------------------------------------------------------

@require_GET
@login_required
def queue(request: HttpRequest) -> HttpResponse:
    _moderator(request)
    state = request.GET.get("state", "")
    reason = request.GET.get("reason", "")
    kind = request.GET.get("kind", "")
    state = state if state in Report.State.values else ""
    reason = reason if reason in Report.Reason.values else ""
    kind = kind if kind in Report.Kind.values else ""
    page = Paginator(selectors.queue(state=state, reason=reason, kind=kind, viewer=request.user), QUEUE_PAGE).get_page(
        request.GET.get("page"))
    # Find an account by its username or display name, to act on it without a report.
    q = request.GET.get("q", "").strip()[:150]
    found = list(User.objects.filter(Q(username__icontains=q) | Q(display_name__icontains=q))
                 .order_by("username")[:20]) if q else []
    return render(request, "moderation/queue.html", {
        "page": page, "state": state, "reason": reason, "kind": kind, "q": q, "found": found,
        "states": Report.State.choices, "reasons": Report.Reason.choices, "kinds": Report.Kind.choices,
    })


def _trade_context(report: Report) -> dict[str, Any]:
    """A collusion flag's figures and the game's log around the trade."""
    from games.board_words import localized_board
    from games.engine import GameState
    from games.views.page.log import log_entries

    details = report.details or {}
    if report.game is None or "seq" not in details:
        return {}
    state = GameState.from_json(report.game.state)
    names = [p.name for p in state.players]
    seq = details["seq"]
    users = {s.position: s.user for s in _seated_humans(report.game)}
    rows = list(GameAction.objects.filter(game_id=report.game_id, seq__gte=seq - 8, seq__lte=seq + 8)
                .order_by("-seq").values("seq", "seat", "source", "events", "created_at",
                                         reason=KT("action__reason")))
    return {
        "trade": report.trade, "names": names,
        "from_name": names[details["from_seat"]], "to_name": names[details["to_seat"]],
        "drained_name": names[details["drained_seat"]],
        "from_user": users.get(details["from_seat"]), "to_user": users.get(details["to_seat"]),
        "log": log_entries(rows, names, localized_board(state.board)), "trade_seq": seq,
    }


def _chat_around(message: ChatMessage) -> list[ChatMessage]:
    before = list(ChatMessage.objects.filter(game_id=message.game_id, id__lt=message.pk).order_by("-id")[:6])
    after = list(ChatMessage.objects.filter(game_id=message.game_id, id__gt=message.pk).order_by("id")[:6])
    return [*reversed(before), message, *after]


def _seated_humans(game: Game | None) -> list[Seat]:
    if game is None:
        return []
    return list(Seat.objects.filter(table_id=game.table_id, user__isnull=False).select_related("user"))


@require_GET
@login_required
def report_detail(request: HttpRequest, report_id: int) -> HttpResponse:
    _moderator(request)
    report = get_object_or_404(Report.objects.select_related(
        "reporter", "target", "claimed_by", "resolved_by", "message__author", "game__table", "sanction", "trade"),
        pk=report_id)
    _moderator(request, "moderation.view_report", report)
    target = report.target
    ctx = {
        "report": report,
        "may_handle": can("moderation.handle_report", request.user, report),
        "may_act": target is not None and can("moderation.act_on_user", request.user, target),
        "may_hide": report.message is not None and can("moderation.hide_message", request.user, report.message),
        "may_act_on_game": report.game is not None and can("moderation.act_on_game", request.user, report.game),
        "account_form": AccountActionForm(initial={"report": report.pk, "action": "mute", "duration": "1d"}),
        "game_form": GameActionForm(initial={"report": report.pk}),
        "resolve_form": ResolveForm(),
        "chat": _chat_around(report.message) if report.message else [],
        "seated": _seated_humans(report.game),
        "audit": list(report.audit.all()),
        "target_active": selectors.active_sanctions(user=target) if target else [],
    }
    if report.kind == Report.Kind.TRADE:
        ctx.update(_trade_context(report))
    return render(request, "moderation/report.html", ctx)


@require_POST
@login_required
def report_claim(request: HttpRequest, report_id: int) -> HttpResponse:
    _moderator(request)
    report = get_object_or_404(Report, pk=report_id)
    _moderator(request, "moderation.view_report", report)
    try:
        services.report_claim(moderator=request.user, report=report)
    except services.ModerationError as e:
        _refused(request, e)
    return redirect("moderation:report", report_id=report.pk)


@require_POST
@login_required
def report_resolve(request: HttpRequest, report_id: int) -> HttpResponse:
    _moderator(request)
    report = get_object_or_404(Report, pk=report_id)
    _moderator(request, "moderation.view_report", report)
    form = ResolveForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose an outcome and write a note."))
        return redirect("moderation:report", report_id=report.pk)
    try:
        services.report_resolve(moderator=request.user, report=report, outcome=form.cleaned_data["outcome"],
                                note=form.cleaned_data["note"])
    except services.ModerationError as e:
        _refused(request, e)
        return redirect("moderation:report", report_id=report.pk)
    messages.success(request, _("The report is resolved."))
    return redirect("moderation:queue")


@require_GET
@login_required
def account(request: HttpRequest, user_id: int) -> HttpResponse:
    """An account's moderation history: sanctions, moderator actions, reports against it."""
    _moderator(request)
    target = get_object_or_404(User, pk=user_id)
    return render(request, "moderation/account.html", {
        "target": target, "history": selectors.account_history(user=target),
        "may_act": can("moderation.act_on_user", request.user, target),
        "account_form": AccountActionForm(initial={"action": "warn"}),
    })


@require_POST
@login_required
def account_act(request: HttpRequest, user_id: int) -> HttpResponse:
    _moderator(request)
    target = get_object_or_404(User, pk=user_id)
    form = AccountActionForm(request.POST)
    back = _next(request, reverse("moderation:account", args=[target.pk]))
    if not form.is_valid():
        if "key" in form.errors:  # (a form not drawn by the site's page)
            messages.error(request, _("This form is out of date: reload the page."))
        else:
            messages.error(request, _("Choose an action and give a reason."))
        return redirect(back)
    data = form.cleaned_data
    report = _report_or_none(request, data.get("report"))
    action = data["action"]
    key = data["key"]
    try:
        if action == "lift":
            services.sanction_lift(moderator=request.user, user=target, reason=data["reason"], report=report,
                                   key=key)
        elif action == "rename":
            services.user_reset_display_name(moderator=request.user, user=target, reason=data["reason"],
                                             report=report, key=key)
        else:
            services.sanction_create(moderator=request.user, user=target, kind=action, reason=data["reason"],
                                     duration=form.duration_value(), report=report, key=key)
    except services.ModerationError as e:
        _refused(request, e)
        return redirect(back)
    messages.success(request, _("Done: %(action)s (%(name)s).") % {
        "action": dict(form.fields["action"].choices)[action], "name": target.public_name})
    return redirect(back)


@require_POST
@login_required
def game_act(request: HttpRequest, game_id: int) -> HttpResponse:
    _moderator(request)
    game = get_object_or_404(Game.objects.select_related("table"), pk=game_id)
    form = GameActionForm(request.POST)
    back = _next(request, reverse("games:game", args=[game.pk]))
    if not form.is_valid():
        messages.error(request, _("Choose an action and give a reason."))
        return redirect(back)
    data = form.cleaned_data
    report = _report_or_none(request, data.get("report"))
    try:
        if data["action"] == "close":
            services.game_close(moderator=request.user, game=game, reason=data["reason"], report=report)
        else:
            seat = Seat.objects.filter(table_id=game.table_id, user_id=data.get("user")).select_related("user").first()
            if seat is None:
                messages.error(request, _("Choose a player of this game."))
                return redirect(back)
            services.game_remove_player(moderator=request.user, game=game, user=seat.user, reason=data["reason"],
                                        report=report)
    except services.ModerationError as e:
        _refused(request, e)
        return redirect(back)
    messages.success(request, _("Done."))
    return redirect(back)


@require_POST
@login_required
def message_hide(request: HttpRequest, message_id: int) -> HttpResponse:
    _moderator(request)
    message = get_object_or_404(ChatMessage.objects.select_related("author", "game"), pk=message_id)
    back = _next(request, reverse("games:game", args=[message.game_id]))
    hidden = request.POST.get("hidden", "1") != "0"
    # From the chat panel (htmx) the answer is the redrawn panel, with a refusal in it.
    in_panel = bool(request.htmx) and not request.POST.get("next")
    report = _report_or_none(request, request.POST.get("report"))
    try:
        services.message_set_hidden(moderator=request.user, message=message, hidden=hidden,
                                    reason=request.POST.get("reason", ""), report=report)
    except services.ModerationError as e:
        if in_panel:
            return chat_panel_response(request, message.game_id, error=e.localized(), status=400)
        _refused(request, e)
    else:
        if in_panel:
            return chat_panel_response(request, message.game_id)
        messages.success(request, _("The message is hidden.") if hidden else _("The message is shown again."))
    return redirect(back)


@require_GET
@login_required
def audit_log(request: HttpRequest) -> HttpResponse:
    """Every moderator action, newest first. Read-only: nothing here changes an entry."""
    _moderator(request)
    qs = AuditEntry.objects.select_related("moderator", "target", "game__table")
    action = request.GET.get("action", "")
    if action in AuditEntry.Action.values:
        qs = qs.filter(action=action)
    page = Paginator(qs, LOG_PAGE).get_page(request.GET.get("page"))
    return render(request, "moderation/log.html", {"page": page, "action": action,
                                                   "actions": AuditEntry.Action.choices})


# ---------------------------------------------------------------------------------------------
# Players: report, block, appeal
# ---------------------------------------------------------------------------------------------

def _int(raw) -> int | None:
    try:
        return int(raw) if raw not in (None, "") else None
    except (TypeError, ValueError):
        return None


def _report_subject(request: HttpRequest, data) -> dict[str, Any]:
    """What the report is about, checked: a message or a game the reporter may see, a user."""
    subject: dict[str, Any] = {"target": None, "game": None, "message": None}
    message_id, game_id, target_id = _int(data.get("message")), _int(data.get("game")), _int(data.get("target"))
    if message_id is not None:
        message = get_object_or_404(ChatMessage.objects.select_related("author"), pk=message_id, hidden_at=None)
        game_id = message.game_id
        subject["message"] = message
        subject["target"] = message.author
    if game_id is not None:
        game, _seats, _me = _game_for(request, game_id)
        subject["game"] = game
    if target_id is not None and subject["message"] is None:
        subject["target"] = get_object_or_404(User, pk=target_id, is_active=True)
    if not any(subject.values()):
        raise Http404("nothing to report")
    return subject


@require_http_methods(["GET", "POST"])
@login_required
def report_new(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else request.GET
    subject = _report_subject(request, data)
    game = subject["game"]
    back = _next(request, reverse("games:game", args=[game.pk]) if game else reverse("games:lobby"))
    if request.method == "POST":
        form = ReportForm(request.POST)
        if form.is_valid():
            try:
                services.report_create(reporter=request.user, reason=form.cleaned_data["reason"],
                                       text=form.cleaned_data["text"], **subject)
            except services.ModerationError as e:
                form.add_error(None, e.localized())
            else:
                messages.success(request, _("Thank you: the moderators have your report."))
                return redirect(back)
        status = 400
    else:
        form = ReportForm(initial={"target": data.get("target"), "game": data.get("game"),
                                   "message": data.get("message")})
        status = 200
    return render(request, "moderation/report_form.html", {"form": form, "back": back, **subject},
                  status=status)


@require_GET
@login_required
def blocks(request: HttpRequest) -> HttpResponse:
    rows = request.user.blocks.select_related("blocked").order_by("-created_at")
    return render(request, "moderation/blocks.html", {"blocks": rows})


@require_POST
@login_required
def block(request: HttpRequest, user_id: int) -> HttpResponse:
    other = get_object_or_404(User, pk=user_id)
    back = _next(request, reverse("moderation:blocks"))
    if request.POST.get("unblock"):
        services.block_delete(user=request.user, blocked=other)
        messages.success(request, _("You no longer block %(name)s.") % {"name": other.public_name})
    else:
        try:
            services.block_create(user=request.user, blocked=other)
        except services.ModerationError as e:
            _refused(request, e)
        else:
            messages.success(request, _("You block %(name)s: you will not see their chat messages nor get their "
                                        "invitations.") % {"name": other.public_name})
    return redirect(back)


def refuse_login(request: HttpRequest, user) -> HttpResponse | None:
    """allauth's pre_login hook (accounts/adapters.py): a suspended or banned account is sent to
    the page that says why and until when, instead of being signed in."""
    sanction = selectors.lockout(user=user)
    if sanction is None:
        return None
    # The password was right: the session may now send this account's one appeal.
    request.session[SESSION_REFUSED] = user.pk
    return redirect("moderation:suspended")


@require_http_methods(["GET", "POST"])
def suspended(request: HttpRequest) -> HttpResponse:
    user_id = request.session.get(SESSION_REFUSED)
    user = User.objects.filter(pk=user_id).first() if user_id else None
    sanction = selectors.lockout(user=user) if user else None
    if sanction is None:
        request.session.pop(SESSION_REFUSED, None)
        return redirect("account_login")
    appealed = Report.objects.filter(kind=Report.Kind.APPEAL, sanction=sanction).exists()
    form = AppealForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.appeal_create(user=user, sanction=sanction, text=form.cleaned_data["text"])
            except services.ModerationError as e:
                form.add_error(None, e.localized())
            else:
                messages.success(request, _("Your appeal is with the moderators."))
                return redirect("moderation:suspended")
        status = 400
    return render(request, "moderation/suspended.html", {
        "sanction": sanction, "sentence": selectors.sanction_sentence(sanction), "appealed": appealed,
        "form": form}, status=status)


# ---------------------------------------------------------------------------------------------
# Game chat
# ---------------------------------------------------------------------------------------------

def _chat_context(request: HttpRequest, game: Game, me: Seat | None, seats: list[Seat], *,
                  error: str | None = None) -> dict[str, Any]:
    moderator = request.user.is_authenticated and can("moderation.view_queue", request.user)
    lines = selectors.chat_messages(game_id=game.pk, viewer=request.user, moderator=moderator)
    read_only = selectors.spectators_read_only(table_id=game.table_id)
    refusal = services.chat_refusal(user=request.user, game=game, is_player=me is not None, read_only=read_only) \
        if request.user.is_authenticated else _("Sign in to write in the chat.")
    return {
        "game": game, "table": game.table, "lines": lines, "stamp": selectors.chat_stamp(game_id=game.pk),
        "refusal": refusal, "error": error, "is_moderator": moderator,
        "is_host": request.user.is_authenticated and game.table.host_id == request.user.pk,
        "read_only": read_only,
        "players": [s for s in seats if s.user_id and s.user_id != request.user.pk],
        "seated": [s for s in seats if s.user_id],
        "poll_seconds": CHAT_POLL_SECONDS, "max_length": services.CHAT_MAX_LENGTH,
        "can_hide": _hideable(request.user, lines) if moderator else set(),
        "warnings": selectors.recent_warnings(user=request.user),
    }


def _hideable(user, lines: list[ChatMessage]) -> set[int]:
    """The messages this moderator may hide: the rule "moderation.hide_message" for a whole
    page at once (one query for the protected authors, not two per message)."""
    if not can("moderation.hide_messages", user):
        return set()
    protected = protected_user_ids({m.author_id for m in lines})
    return {m.pk for m in lines if m.author_id != user.pk and m.author_id not in protected}


def chat_panel_response(request: HttpRequest, game_id: int, *, error: str | None = None,
                        status: int = 200) -> HttpResponse:
    game, seats, me = _game_for(request, game_id)
    ctx = _chat_context(request, game, me, seats, error=error)
    if request.htmx:
        return render(request, "moderation/chat/panel.html", ctx, status=status)
    if error:
        messages.error(request, error)
    return redirect("moderation:chat", game_id=game_id)


@require_GET
def chat(request: HttpRequest, game_id: int) -> HttpResponse:
    """The chat: the panel for the game page (htmx), its lines for the poll (204 while nothing
    changed), or a page of its own without JavaScript."""
    game, seats, me = _game_for(request, game_id)
    if request.htmx and request.GET.get("part") == "lines":
        if request.GET.get("stamp") == selectors.chat_stamp(game_id=game.pk):
            return HttpResponse(status=204)
        return render(request, "moderation/chat/lines.html", _chat_context(request, game, me, seats))
    ctx = _chat_context(request, game, me, seats)
    if request.htmx:
        return render(request, "moderation/chat/panel.html", ctx)
    return render(request, "moderation/chat/page.html", ctx)


@require_POST
@login_required
def chat_post(request: HttpRequest, game_id: int) -> HttpResponse:
    game, _seats, me = _game_for(request, game_id)
    try:
        services.chat_post(user=request.user, game=game, text=request.POST.get("text", ""), is_player=me is not None)
    except services.NotPermitted as e:
        return chat_panel_response(request, game_id, error=e.localized(), status=403)
    except services.ModerationError as e:
        return chat_panel_response(request, game_id, error=e.localized(), status=400)
    return chat_panel_response(request, game_id)


@require_POST
@login_required
def chat_settings(request: HttpRequest, game_id: int) -> HttpResponse:
    game, _seats, _me = _game_for(request, game_id)
    try:
        services.chat_set_spectators_read_only(by=request.user, table=game.table,
                                               read_only=request.POST.get("read_only") == "1")
    except services.ModerationError as e:
        return chat_panel_response(request, game_id, error=e.localized(), status=403)
    return chat_panel_response(request, game_id)


@require_GET
@login_required
def standing(request: HttpRequest) -> HttpResponse:
    """A player's own record: warnings and restrictions, with their reasons."""
    sanctions = list(Sanction.objects.filter(user=request.user))
    return render(request, "moderation/standing.html", {"sanctions": sanctions})
