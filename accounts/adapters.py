from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context as allauth_context
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
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

    def get_login_redirect_url(self, request: HttpRequest) -> str:
        # A moderator or staff member without a second factor is sent to its setup (issue 31).
        from django.urls import reverse

        from accounts.security import lacks_required_factor

        if lacks_required_factor(request.user):
            return reverse("mfa_index")
        return super().get_login_redirect_url(request)

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        # Without django.contrib.sites, allauth's current_site is the request host; the
        # e-mails name the site by its configured name instead.
        from django.urls import reverse

        from games.links import absolute

        context = {"site_name": settings.SITE_NAME, "login_url": absolute(reverse("account_login")),
                   "connections_url": absolute(reverse("socialaccount_connections")), **context}
        if allauth_context.request is None:
            # Outside a request (a Celery task, a signal from the shell): the same templates,
            # without the request-derived site allauth would look up.
            msg = self.render_mail(template_prefix, email, {"email": email, "current_site": None, **context})
            msg.send()
            return
        super().send_mail(template_prefix, email, context)


class SocialAccountAdapter(DefaultSocialAccountAdapter):
    """Discord and Google sign-in (issue 31)."""

    def authenticate_by_email(self, sociallogin: Any) -> tuple[Any, str] | None:
        # A provider's address joins an existing account only when both sides verified it: the
        # provider (its own flag) and this site (a confirmed EmailAddress). Otherwise allauth
        # goes on to sign-up, which finds the address taken: it answers as for a new address (no
        # enumeration) and mails the address's owner to sign in and link the provider from the
        # linked accounts page (templates/account/email/account_already_exists_message.txt).
        from allauth.account.models import EmailAddress

        for address in sociallogin.email_addresses:
            if not address.verified or not self.can_authenticate_by_email(sociallogin, address.email):
                continue
            ours = (EmailAddress.objects.filter(email__iexact=address.email, verified=True)
                    .select_related("user").first())
            if ours is not None and ours.user.is_active:
                return ours.user, address.email
        return None

    def populate_user(self, request: HttpRequest, sociallogin: Any, data: dict[str, Any]) -> Any:
        # Nothing else is taken from the provider than what sign-up needs.
        user = super().populate_user(request, sociallogin, data)
        language = translation.get_language() or settings.LANGUAGE_CODE
        supported = {code for code, _name in settings.LANGUAGES}
        user.language = language if language in supported else settings.LANGUAGE_CODE
        return user


def discord_user_id(user: Any) -> str | None:
    """The Discord user id of a linked Discord account, for the group-chat mentions of a game;
    None once the player unlinks it (allauth deletes the SocialAccount row)."""
    from allauth.socialaccount.models import SocialAccount

    account = SocialAccount.objects.filter(user_id=user.pk, provider="discord").only("uid").first()
    return account.uid if account is not None else None
