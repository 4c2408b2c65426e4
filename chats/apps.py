from django.apps import AppConfig


class ChatsConfig(AppConfig):
    """Group chats (issue 29): a table's channel (Discord, Slack, Telegram, a signed webhook)
    and one status post per game there, edited in place."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "chats"
    verbose_name = "Group chats"

    def ready(self) -> None:
        # httpx logs every request's URL at INFO: Discord's webhook token and Telegram's bot
        # token are in the path. The filter blanks them before any handler sees the line.
        from chats.safety import install_log_redaction

        install_log_redaction()
