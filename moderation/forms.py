from __future__ import annotations

import secrets
from datetime import timedelta

from django import forms
from django.utils.translation import gettext_lazy as _

from moderation.models import CHAT_MAX_LENGTH, Report
from moderation.services import REASON_MAX_LENGTH, REPORT_TEXT_MAX_LENGTH

DURATIONS = {
    "1h": timedelta(hours=1), "1d": timedelta(days=1), "3d": timedelta(days=3), "7d": timedelta(days=7),
    "30d": timedelta(days=30), "365d": timedelta(days=365),
}
DURATION_CHOICES = [
    ("", _("— (warnings and bans)")), ("1h", _("1 hour")), ("1d", _("1 day")), ("3d", _("3 days")),
    ("7d", _("7 days")), ("30d", _("30 days")), ("365d", _("1 year")),
]


class AccountActionForm(forms.Form):
    ACTIONS = [
        ("warn", _("Warn")), ("mute", _("Mute in chat")), ("suspend", _("Suspend")), ("ban", _("Ban")),
        ("lift", _("Lift mute, suspension or ban")), ("rename", _("Reset display name")),
    ]
    action = forms.ChoiceField(label=_("Action"), choices=ACTIONS)
    duration = forms.ChoiceField(label=_("For"), choices=DURATION_CHOICES, required=False)
    reason = forms.CharField(label=_("Reason (the player sees it)"), max_length=REASON_MAX_LENGTH,
                             widget=forms.Textarea(attrs={"rows": 2}))
    report = forms.IntegerField(required=False, widget=forms.HiddenInput)
    # This form's own key (moderation.services: an action is done once per key).
    key = forms.CharField(min_length=16, max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("key", secrets.token_urlsafe(24))

    def duration_value(self) -> timedelta | None:
        return DURATIONS.get(self.cleaned_data.get("duration") or "")


class GameActionForm(forms.Form):
    action = forms.ChoiceField(label=_("Action"), choices=[
        ("remove", _("Remove the player from the game (forfeit)")), ("close", _("Close the game (ended, unrated)"))])
    user = forms.IntegerField(required=False, widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX_LENGTH,
                             widget=forms.Textarea(attrs={"rows": 2}))
    report = forms.IntegerField(required=False, widget=forms.HiddenInput)


class ResolveForm(forms.Form):
    outcome = forms.ChoiceField(label=_("Outcome"), choices=Report.Outcome.choices)
    note = forms.CharField(label=_("Note"), max_length=REASON_MAX_LENGTH, widget=forms.Textarea(attrs={"rows": 2}))


class ReportForm(forms.Form):
    reason = forms.ChoiceField(label=_("Reason"), choices=[
        (value, label) for value, label in Report.Reason.choices if value in Report.PLAYER_REASONS])
    text = forms.CharField(label=_("What happened? (optional)"), required=False, max_length=REPORT_TEXT_MAX_LENGTH,
                           widget=forms.Textarea(attrs={"rows": 3}))
    target = forms.IntegerField(required=False, widget=forms.HiddenInput)
    game = forms.IntegerField(required=False, widget=forms.HiddenInput)
    message = forms.IntegerField(required=False, widget=forms.HiddenInput)


class AppealForm(forms.Form):
    text = forms.CharField(label=_("Why should the sanction be lifted?"), max_length=REPORT_TEXT_MAX_LENGTH,
                           widget=forms.Textarea(attrs={"rows": 4}))


class ChatForm(forms.Form):
    # The length is checked by the service too; the form's own limit only guides the browser.
    text = forms.CharField(label=_("Message"), max_length=CHAT_MAX_LENGTH * 4, strip=False)
