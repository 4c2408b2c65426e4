from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"

    def ready(self) -> None:
        # Anymail's tracking webhooks and allauth's e-mail confirmation (webhooks.py).
        from notifications import webhooks  # noqa: F401
