"""factory_boy factories shared by every test package."""

from __future__ import annotations

from typing import Any

import factory
from allauth.account.models import EmailAddress
from factory.django import DjangoModelFactory

from accounts.models import User

DEFAULT_PASSWORD = "correct-horse-battery-staple"


class UserFactory(DjangoModelFactory):
    """A user who can sign in: known password and a verified primary e-mail address."""

    class Meta:
        model = User
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    display_name = factory.LazyAttribute(lambda user: user.username.capitalize())
    password = factory.django.Password(DEFAULT_PASSWORD)

    @factory.post_generation
    def verified_email(obj: User, create: bool, extracted: Any, **kwargs: Any) -> None:
        # Pass verified_email=False to get a user whose address is still unconfirmed.
        if not create or not obj.email:
            return
        EmailAddress.objects.update_or_create(
            user=obj,
            email=obj.email,
            defaults={"verified": extracted is not False, "primary": True},
        )


def add_totp(user: User) -> str:
    """Give ``user`` an authenticator app (allauth.mfa's TOTP); returns its secret."""
    from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret

    secret = generate_totp_secret()
    TOTP.activate(user, secret)
    return secret


def totp_code(secret: str) -> str:
    """The code an authenticator app shows now for ``secret`` (allauth's own helper)."""
    from allauth.mfa.totp.internal import auth

    counters = list(auth.yield_hotp_counters_from_time())
    counter = counters[len(counters) // 2]  # the window's middle: now
    return auth.format_hotp_value(auth.hotp_value(secret, counter))
