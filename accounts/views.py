from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from accounts import export, services
from accounts.forms import DeleteAccountForm, ProfileForm
from accounts.models import DataExport, User


def _render_profile(request: HttpRequest, form: ProfileForm) -> HttpResponse:
    ctx = {"form": form}
    return render(request, "accounts/profile.html", ctx)


@require_safe
@login_required
def profile(request: HttpRequest) -> HttpResponse:
    return _render_profile(request, ProfileForm(instance=request.user))


@require_POST
@login_required
def profile_update(request: HttpRequest) -> HttpResponse:
    # Validate on an unsaved copy so that a refused form leaves request.user as it was.
    form = ProfileForm(request.POST, instance=User.objects.get(pk=request.user.pk))
    if not form.is_valid():
        return _render_profile(request, form)
    services.user_update_profile(
        user=request.user,
        display_name=form.cleaned_data["display_name"],
        language=form.cleaned_data["language"],
        time_zone=form.cleaned_data["time_zone"],
    )
    messages.success(request, _("Your settings have been saved."))
    return redirect("accounts:profile")


@require_safe
@login_required
def account_delete_confirm(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/delete.html", {"form": DeleteAccountForm()})


@require_POST
@login_required
def account_delete(request: HttpRequest) -> HttpResponse:
    form = DeleteAccountForm(request.POST)
    if form.is_valid():
        try:
            services.user_delete(user=request.user, password=form.cleaned_data["password"])
        except ValidationError as e:
            form.add_error("password", e)
        else:
            logout(request)
            messages.success(request, _("Your account has been deleted. Goodbye!"))
            return redirect("games:lobby")
    return render(request, "accounts/delete.html", {"form": form})


# ---------------------------------------------------------------------------------------------
# "Download my data" (issue 31)
# ---------------------------------------------------------------------------------------------

@require_safe
@login_required
def data_export(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/data.html", {"hours": settings.DATA_EXPORT_MAX_AGE // 3600})


@require_POST
@login_required
def data_export_request(request: HttpRequest) -> HttpResponse:
    if services.data_export_request(user=request.user):
        messages.success(request, _("Your data is being gathered. We will e-mail you a link to download it."))
    else:
        messages.error(request, _("You asked for your data a few minutes ago: its link is on its way to your "
                                  "inbox. You can ask again in a few minutes."))
    return redirect("accounts:data")


@require_safe
@login_required
def data_download(request: HttpRequest, token: str) -> HttpResponse:
    """The ZIP, for its owner only, while the signed link is a day old at most."""
    try:
        named = export.read_token(token)
    except signing.SignatureExpired:
        return _link_refused(request, _("This download link has expired: links last a day. Ask for a new one."))
    except signing.BadSignature:
        return _link_refused(request, _("This download link is not valid. Ask for a new one."))
    made = DataExport.objects.filter(pk=named.get("export"), user_id=request.user.pk).first()
    if named.get("user") != request.user.pk or made is None:
        # Someone else's link, or one replaced by a newer export: nothing to show.
        return _link_refused(request, _("This download link is not yours, or a newer export replaced it."))
    response = HttpResponse(bytes(made.content), content_type="application/zip")
    stamp = made.created_at.strftime("%Y-%m-%d")
    response["Content-Disposition"] = f'attachment; filename="{settings.SITE_NAME.lower()}-data-{stamp}.zip"'
    response["Cache-Control"] = "private, no-store"
    return response


def _link_refused(request: HttpRequest, reason: str) -> HttpResponse:
    return render(request, "accounts/data.html", {"hours": settings.DATA_EXPORT_MAX_AGE // 3600,
                                                  "link_error": reason}, status=404)


# ---------------------------------------------------------------------------------------------
# Where you are signed in (issue 31)
# ---------------------------------------------------------------------------------------------

@login_required
def sessions(request: HttpRequest) -> HttpResponse:
    """allauth.usersessions' list, after making sure this session is on it: one signed in before
    the list existed (or by other means than allauth's sign-in) is recorded on the first visit,
    so that it shows, and "sign out everywhere else" can tell it from the others."""
    import time

    from allauth.usersessions.models import UserSession
    from allauth.usersessions.views import list_usersessions

    from accounts.middleware import SEEN_KEY

    key = request.session.session_key
    if not key or not UserSession.objects.filter(session_key=key).exists():
        UserSession.objects.create_from_request(request)
        request.session[SEEN_KEY] = time.time()
    return list_usersessions(request)
