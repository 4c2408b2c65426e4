"""Who may do what, in one place: the ``rules`` package's predicates, checked by the services
(which refuse) and the views and templates (which hide what a person may not use).

Moderators are the members of the "Moderators" group (moderation/roles.py gives it its
explicit permissions; superusers have every permission). Object-level checks, such as "this moderator
may act on this account", are the rules below: a moderator never acts on another moderator,
on staff, or on themselves.
"""

from __future__ import annotations

import rules
from django.db.models import Q

from moderation.roles import MODERATORS_GROUP

__all__ = ["MODERATORS_GROUP", "can", "protected_user_ids", "protected_users"]


def _has(perm: str):
    @rules.predicate(name=f"has {perm}")
    def check(user) -> bool:
        return bool(user and user.is_authenticated and user.is_active and user.has_perm(perm))
    return check


@rules.predicate
def has_second_factor(user) -> bool:
    # Issue 31: a moderator's password alone acts on nobody (accounts/security.py).
    from accounts.security import has_second_factor as check

    return check(user)


holds_moderator_role = _has("moderation.access_moderation")
is_moderator = holds_moderator_role & has_second_factor
may_act_on_accounts = _has("moderation.act_on_accounts")
may_act_on_games = _has("moderation.act_on_games")
may_hide_messages = _has("moderation.hide_chat_messages")


@rules.predicate
def is_authenticated(user) -> bool:
    return bool(user and user.is_authenticated)


def protected_users():
    """The staff, superusers and moderators: no moderator acts on them, and reports about them
    are for staff (a queryset, to filter by)."""
    from django.contrib.auth import get_user_model

    perm = {"codename": "access_moderation", "content_type__app_label": "moderation"}
    protected = (Q(is_staff=True) | Q(is_superuser=True)
                 | Q(**{f"groups__permissions__{k}": v for k, v in perm.items()})
                 | Q(**{f"user_permissions__{k}": v for k, v in perm.items()}))
    return get_user_model().objects.filter(protected)


def protected_user_ids(ids) -> set[int]:
    """Of these accounts, the staff, superusers and moderators, on whom no moderator acts (one
    query, for a single account or for every author of a chat page)."""
    ids = {i for i in ids if i is not None}
    if not ids:
        return set()
    return set(protected_users().filter(pk__in=ids).values_list("pk", flat=True))


def is_protected_user(user) -> bool:
    return user.pk in protected_user_ids([user.pk])


@rules.predicate
def target_is_protected(user, target) -> bool:
    return target is None or is_protected_user(target)


@rules.predicate
def target_is_self(user, target) -> bool:
    return target is not None and target.pk == user.pk


@rules.predicate
def author_is_protected(user, message) -> bool:
    author = message.author
    return author is not None and (author.pk == user.pk or is_protected_user(author))


@rules.predicate
def report_is_about_self(user, report) -> bool:
    return report.target_id == user.pk


@rules.predicate
def report_is_free_or_mine(user, report) -> bool:
    return report.claimed_by_id is None or report.claimed_by_id == user.pk


@rules.predicate
def report_is_about_protected(user, report) -> bool:
    """A report about a moderator or staff: not for a moderator who is not staff (one
    moderator does not dismiss a report about another, issue 26)."""
    return report.target_id is not None and report.target_id in protected_user_ids([report.target_id])


@rules.predicate
def is_staff_member(user) -> bool:
    return bool(user and user.is_authenticated and (user.is_staff or user.is_superuser))


rules.add_rule("moderation.view_queue", is_moderator)
rules.add_rule("moderation.view_account", is_moderator)
rules.add_rule("moderation.act_on_user", is_moderator & may_act_on_accounts & ~target_is_self & ~target_is_protected)
rules.add_rule("moderation.act_on_game", is_moderator & may_act_on_games)
rules.add_rule("moderation.hide_messages", is_moderator & may_hide_messages)
rules.add_rule("moderation.hide_message", is_moderator & may_hide_messages & ~author_is_protected)
rules.add_rule("moderation.view_report", is_moderator & (is_staff_member | ~report_is_about_protected))
rules.add_rule("moderation.handle_report", is_moderator & (is_staff_member | ~report_is_about_protected)
               & ~report_is_about_self & report_is_free_or_mine)
# Players: reporting and blocking need an account (suspended accounts cannot sign in at all).
rules.add_rule("moderation.report", is_authenticated)
rules.add_rule("moderation.block", is_authenticated & ~target_is_self)


def can(name: str, user, obj=None) -> bool:
    return rules.test_rule(name, user, obj)
