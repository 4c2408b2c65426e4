"""The host's channel page and panel, the test button, and a player's chat names (issue 29)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_ratelimit.decorators import ratelimit

from chats import services
from chats.forms import ChannelForm, IdentityForm
from chats.models import Channel, Identity
from games.links import table_path
from games.models import Table


def _hosted_table(request: HttpRequest, table_id: int) -> Table:
    """The table whose host is the viewer; 404 for everyone else (nobody learns more)."""
    table = Table.objects.filter(pk=table_id, host_id=request.user.pk).first()
    if table is None:
        raise Http404("No such table.")
    return table


def channel_context(table: Table, *, form: ChannelForm | None = None) -> dict:
    channel = Channel.objects.filter(table=table).first()
    form = form or ChannelForm(initial={"provider": "discord"})
    return {"table": table, "channel": channel, "form": form, "form_groups": form.groups(),
            "usable": table.pace == Table.Pace.CORRESPONDENCE,
            "closed": table.status in (Table.Status.FINISHED, Table.Status.CANCELLED)}


def _back(request: HttpRequest, table: Table) -> HttpResponse:
    if request.POST.get("back") == "table" and table.status == Table.Status.OPEN:
        return redirect(table_path(table.pk))
    return redirect(reverse("chats:channel", args=[table.pk]))


@require_http_methods(["GET", "HEAD"])
@login_required
def channel_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _hosted_table(request, table_id)
    return render(request, "chats/channel.html", channel_context(table))


@require_POST
@login_required
@ratelimit(key="user_or_ip", rate="20/h", method="POST", block=True)
def channel_connect(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _hosted_table(request, table_id)
    context = channel_context(table)
    if context["closed"] or not context["usable"]:
        messages.error(request, _("Group chats are for correspondence tables still in play."))
        return _back(request, table)
    form = ChannelForm(request.POST)
    if not form.is_valid():
        return render(request, "chats/channel.html", channel_context(table, form=form), status=400)
    provider, credentials, label = form.result
    services.channel_connect(table=table, by=request.user, provider=provider, credentials=credentials,
                             label=str(label))
    if form.generated_secret:
        messages.success(request, _("Connected. The signing secret, shown this once: %(secret)s") % {
            "secret": form.generated_secret})
    else:
        messages.success(request, _("Connected. Send a test message to check it."))
    return _back(request, table)


@require_POST
@login_required
@ratelimit(key="user_or_ip", rate="6/m", method="POST", block=True)
def channel_test(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _hosted_table(request, table_id)
    channel = Channel.objects.filter(table=table).first()
    if channel is None:
        messages.error(request, _("No channel is connected."))
        return _back(request, table)
    problem = services.channel_test(channel=channel)
    if problem is None:
        messages.success(request, _("The test message was sent."))
    else:
        messages.error(request, _("The test message did not go through: %(reason)s") % {"reason": problem})
    return _back(request, table)


@require_POST
@login_required
def channel_disconnect(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _hosted_table(request, table_id)
    if services.channel_disconnect(table=table):
        messages.success(request, _("The channel is disconnected."))
    return _back(request, table)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def identity(request: HttpRequest) -> HttpResponse:
    current = Identity.objects.filter(user=request.user).first()
    if request.method == "POST":
        form = IdentityForm(request.POST, instance=current)
        if form.is_valid():
            services.identity_set(user=request.user, **{k: form.cleaned_data[k] for k in form.Meta.fields})
            messages.success(request, _("Your chat names are saved."))
            return redirect(reverse("chats:identity"))
        return render(request, "chats/identity.html", {"form": form}, status=400)
    return render(request, "chats/identity.html", {"form": IdentityForm(instance=current)})
