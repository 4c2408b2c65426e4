"""Fixtures of the moderation tests: moderators (members of the Moderators group the migration
creates), staff, a game between alice and bob, chat messages."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from accounts.models import User
from moderation import services
from moderation.models import ChatMessage
from moderation.permissions import MODERATORS_GROUP
from tests.factories import UserFactory, add_totp
from tests.games.play_helpers import start_game


def make_moderator(username: str, *, second_factor: bool = True) -> User:
    # Moderators must have a second factor (issue 31); second_factor=False makes one without.
    user = UserFactory(username=username, display_name=username.capitalize())
    if second_factor:
        add_totp(user)
    user.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    return User.objects.get(pk=user.pk)  # a fresh object: no stale permission cache


@pytest.fixture
def mod(db: None) -> User:
    return make_moderator("mona")


@pytest.fixture
def mod2(db: None) -> User:
    return make_moderator("max")


@pytest.fixture
def staff(db: None) -> User:
    """Staff of the admin, not a moderator: the moderators' pages are not theirs."""
    return UserFactory(username="stella", display_name="Stella", is_staff=True)


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob, pace="correspondence")


@pytest.fixture
def say(game):
    def post(user, text: str, *, on=None) -> ChatMessage:
        return services.chat_post(user=user, game=on or game, text=text, is_player=True)
    return post
