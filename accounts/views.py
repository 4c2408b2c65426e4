from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from accounts import services
from accounts.forms import DeleteAccountForm, ProfileForm
from accounts.models import User


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
