from django.apps import AppConfig


class ModerationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"

    def ready(self) -> None:
        # The rules of who may do what (rules package predicates) and the signal that remembers
        # a moderator's role in the session for the header's badge.
        from django.db.models.signals import post_migrate

        from moderation import permissions, signals  # noqa: F401
        from moderation.roles import on_post_migrate

        # After auth's own post_migrate (which creates the permissions): this app comes later.
        post_migrate.connect(on_post_migrate, sender=self, dispatch_uid="moderation-moderators-group")
