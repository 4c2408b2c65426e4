from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request: HttpRequest, user: Any, form: Any, commit: bool = True) -> Any:
        # A new account starts in the language the visitor was browsing in.
        language = translation.get_language() or settings.LANGUAGE_CODE
        supported = {code for code, _name in settings.LANGUAGES}
        user.language = language if language in supported else settings.LANGUAGE_CODE
        return super().save_user(request, user, form, commit=commit)

    def clean_username(self, username: str, shallow: bool = False) -> str:
        # Issue 26: a username is unique as names are compared (accounts/names.py), against
        # the other accounts' usernames and display names: the full-width "alice" is alice's.
        from django import forms
        from django.utils.translation import gettext as _

        from accounts.models import username_taken
        from accounts.validators import validate_visible_name

        username = super().clean_username(username, shallow=shallow)
        validate_visible_name(username)
        if not shallow and username_taken(username):
            raise forms.ValidationError(
                _("Another player has this name, or one that looks the same: choose another."))
        return username

    def pre_login(self, request: HttpRequest, user: Any, **kwargs: Any) -> HttpResponse | None:
        # A suspended or banned account does not get in (issue 11): it is told why and until
        # when, and may appeal, on the page the refusal leads to.
        from moderation.views import refuse_login

        refusal = refuse_login(request, user)
        if refusal is not None:
            return refusal
        return super().pre_login(request, user, **kwargs)

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        # Without django.contrib.sites, allauth's current_site is the request host; the
        # e-mails name the site by its configured name instead.
        context = {**context, "site_name": settings.SITE_NAME}
        super().send_mail(template_prefix, email, context)
