"""The Jinja2 environment of the game page's hot partials (settings.TEMPLATES, "jinja2").

Autoescaped like Django's templates; ``_()`` and ``ngettext()`` are Django's own translations, in
the language active for the request; ``money`` and ``signed_money`` are the game page's filters.

A translation is markup, as Django's ``translate`` and ``blocktranslate`` treat the catalogue's
words (they are the site's own, not a user's): ``{{ _("...%(name)s...")|format(name=x) }}``
escapes ``x`` but not the sentence around it, so an apostrophe stays an apostrophe and the page
reads byte for byte as the Django templates drew it.

``p.name`` on a dict (the page's views are dicts: games/views/present.py) is its item, looked up
first (``SiteEnvironment.getattr``): Jinja2 tries the attribute first, and for a dict that raises
and catches an AttributeError at every access, about half of what an access cost (a move's
answer makes some 400 of them, issue 12). No template calls a dict's methods, and a key that is
missing still falls back to the attribute, so what a template draws is the same
(tests/test_jinja2_env.py).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext
from jinja2 import Environment
from markupsafe import Markup

from games import formats


class SiteEnvironment(Environment):
    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def environment(**options: Any) -> Environment:
    options.setdefault("autoescape", True)
    env = SiteEnvironment(extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(_gettext, _ngettext, newstyle=False)
    env.filters.update(money=formats.cost, signed_money=formats.signed_money)
    return env


def _gettext(message: str) -> Markup:
    return Markup(gettext(message))


def _ngettext(singular: str, plural: str, n: int) -> Markup:
    return Markup(ngettext(singular, plural, n))
