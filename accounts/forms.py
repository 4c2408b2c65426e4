from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "language", "time_zone")
        widgets = {
            "time_zone": forms.TextInput(
                attrs={"list": "time-zones", "autocomplete": "off", "spellcheck": "false"}
            ),
        }


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
