"""``{{ name|bdi }}``: a user-written name isolated from the text beside it (accounts/names.py),
for a name inside a translated sentence (``{% blocktranslate with name=x|bdi %}``)."""

from __future__ import annotations

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from accounts import names

register = template.Library()


@register.filter(name="bdi")
def bdi(value) -> SafeString:
    return mark_safe(str(names.bdi(value)))  # (escaped by names.bdi)


@register.filter(name="bdi_join")
def bdi_join(values, separator: str = ", ") -> SafeString:
    return mark_safe(conditional_escape(separator).join(str(names.bdi(v)) for v in values))
