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
