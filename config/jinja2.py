"""The Jinja2 environment of the game page's hot partials (settings.TEMPLATES, "jinja2").

Autoescaped like Django's templates; ``_()`` and ``ngettext()`` are Django's own translations, in
the language active for the request; ``money`` and ``signed_money`` are the game page's filters.

A translation is markup, as Django's ``translate`` and ``blocktranslate`` treat the catalogue's
words (they are the site's own, not a user's): ``{{ _("...%(name)s...")|format(name=x) }}``
escapes ``x`` but not the sentence around it, so an apostrophe stays an apostrophe and the page
reads byte for byte as the Django templates drew it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext
from jinja2 import Environment
from markupsafe import Markup

from games import formats


def environment(**options: Any) -> Environment:
    options.setdefault("autoescape", True)
    env = Environment(extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(_gettext, _ngettext, newstyle=False)
    env.filters.update(money=formats.cost, signed_money=formats.signed_money)
    return env


def _gettext(message: str) -> Markup:
    return Markup(gettext(message))


def _ngettext(singular: str, plural: str, n: int) -> Markup:
    return Markup(ngettext(singular, plural, n))
