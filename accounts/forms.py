from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.validators import offered_time_zones


class ProfileForm(forms.ModelForm):
    """The settings form. The time zone is a list of the current zones, grouped by region
    (optgroups); a zone the account already has that the list lacks (an old alias) stays
    offered, first, so that saving the other settings keeps it. Any zone the machine knows is
    accepted (validators.validate_time_zone)."""

    class Meta:
        model = User
        fields = ("display_name", "language", "time_zone")
        widgets = {"time_zone": forms.Select()}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choices: list = [(region, list(zones)) for region, zones in offered_time_zones()]
        current = self.instance.time_zone if self.instance is not None else ""
        if current and not any(current == value for _r, zones in choices for value, _l in zones):
            choices.insert(0, (current, current))
        self.fields["time_zone"].widget.choices = choices
        self.fields["time_zone"].help_text = _("Deadlines and dates are shown in this zone's time.")


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
