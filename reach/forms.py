from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from reach.models import WARNING_HOURS


def _hours_label(h: int) -> str:
    return ngettext_lazy("%(n)s hour before", "%(n)s hours before", h) % {"n": h}


class ReachForm(forms.Form):
    warnings = forms.TypedMultipleChoiceField(
        label=_("Warn me before a deadline"), required=False, coerce=int,
        choices=[(h, _hours_label(h)) for h in WARNING_HOURS], widget=forms.CheckboxSelectMultiple)
    email = forms.BooleanField(label=_("By e-mail"), required=False)
    push = forms.BooleanField(label=_("In this browser and my other devices (push, where turned on)"), required=False)
    bell = forms.BooleanField(label=_("In the bell on the site"), required=False)
    quiet_start = forms.TimeField(label=_("Quiet from"), required=False,
                                  widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    quiet_end = forms.TimeField(label=_("Quiet until"), required=False,
                                widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))

    def clean(self):
        data = super().clean()
        start, end = data.get("quiet_start"), data.get("quiet_end")
        if (start is None) != (end is None):
            raise forms.ValidationError(_("Give both the start and the end of your quiet hours, or neither."))
        if start is not None and start == end:
            raise forms.ValidationError(_("Quiet hours must end at another time than they start."))
        return data
