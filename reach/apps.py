from django.apps import AppConfig


class ReachConfig(AppConfig):
    """Issue 29: the game finds its players where they already are (calendars, warnings before
    a deadline, nudges, quiet hours, the next game waiting, private notes)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "reach"
