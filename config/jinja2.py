"""The Jinja2 environment of the game page's hot partials (settings.TEMPLATES, "jinja2").

Autoescaped like Django's templates; ``_()`` and ``ngettext()`` are Django's own translations, in
the language active for the request; ``money`` and ``signed_money`` are the game page's filters.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext
from jinja2 import Environment

from games import formats


def environment(**options: Any) -> Environment:
    options.setdefault("autoescape", True)
    env = Environment(extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(gettext, ngettext, newstyle=False)
    env.filters.update(money=formats.cost, signed_money=formats.signed_money)
    return env
