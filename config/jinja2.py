"""The Jinja2 environment of the game page's hot partials (settings.TEMPLATES, "jinja2").

Autoescaped like Django's templates; ``_()`` and ``ngettext()`` are Django's own translations, in
the language active for the request; ``money`` and ``signed_money`` are the game page's filters,
``signed`` a rating's change (ratings); ``bdi`` and ``bdi_join`` isolate user-written names
(accounts/names.py).

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

A template's globals are one dict (``SiteEnvironment.make_globals``), not Jinja2's ChainMap of
its own over the environment's: every render copies them into its context, and iterating the
ChainMap in Python was two thirds of what a small partial cost (19 us of 26; a move's answer
draws about seven: in-process 0.26 ms a move, bench/move_cpu.py). What a template reads is the
same; the environment's globals are all set before any template loads, as Jinja2 asks.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext
from jinja2 import Environment
from markupsafe import Markup, escape

from accounts import names
from games import formats
from ratings.templatetags.ratings_tags import signed


class SiteEnvironment(Environment):
    def make_globals(self, d: dict[str, Any] | None) -> dict[str, Any]:
        # The environment's globals overlaid with the template's own, as one dict (see above).
        return {**self.globals, **(d or {})}

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
    env.filters.update(money=formats.cost, signed_money=formats.signed_money, bdi=names.bdi, bdi_join=_bdi_join,
                       signed=signed)
    return env


def _bdi_join(values, separator: str = ", ") -> Markup:
    """Names, each isolated (accounts/names.py), joined: for names inside a sentence."""
    return Markup(escape(separator)).join(names.bdi(v) for v in values)


def _gettext(message: str) -> Markup:
    return Markup(gettext(message))


def _ngettext(singular: str, plural: str, n: int) -> Markup:
    return Markup(ngettext(singular, plural, n))
