from django.apps import AppConfig


class ModerationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"

    def ready(self) -> None:
        # The rules of who may do what (rules package predicates) and the signal that remembers
        # a moderator's role in the session for the header's badge.
        from moderation import permissions, signals  # noqa: F401
