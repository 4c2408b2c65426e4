"""The hot partials' Jinja2 environment (config/jinja2.py) looks a dict's items up before its
attributes: every partial the game page draws reads the same as with Jinja2's own lookup."""

from __future__ import annotations

import jinja2
import pytest
from django.template import engines
from django.urls import reverse

from config.jinja2 import SiteEnvironment
from games.views.page import parts
from tests.games.play_helpers import autoplay, start_game, users_by_seat

pytestmark = pytest.mark.django_db


def _plain_twin(env: SiteEnvironment) -> jinja2.Environment:
    twin = jinja2.Environment(loader=env.loader, autoescape=env.autoescape, extensions=["jinja2.ext.i18n"])
    twin.install_gettext_callables(env.globals["gettext"], env.globals["ngettext"], newstyle=False)
    twin.filters.update({name: env.filters[name] for name in ("money", "signed_money", "bdi", "bdi_join")})
    return twin


def test_a_dicts_items_come_first_and_anything_else_as_before():
    env = engines["jinja2"].env
    assert isinstance(env, SiteEnvironment)
    template = env.from_string("{{ d.name }}|{{ d.missing }}|{{ o.real }}|{{ d.keys is defined }}")

    class Thing:
        real = "attribute"

    assert template.render(d={"name": "Ann"}, o=Thing()) == "Ann||attribute|True"


def test_a_templates_globals_are_the_environments_overlaid_with_its_own_and_its_own_stay_its():
    env = engines["jinja2"].env
    mine = env.from_string("{{ gettext('Mortgage') }}|{{ who }}", globals={"who": "mine"})
    other = env.from_string("{{ who is defined }}|{{ range(2)|list }}")

    assert type(mine.globals) is dict and mine.globals["gettext"] is env.globals["gettext"]
    assert mine.render() == "Mortgage|mine" and mine.render(who="given") == "Mortgage|given"
    assert other.render() == "False|[0, 1]"  # (one template's globals are not the environment's)
    assert "who" not in env.globals


@pytest.mark.parametrize("preset", ["classic", "world-classic"])
def test_every_partial_of_the_game_page_reads_as_with_jinjas_own_lookup(client, alice, bob, monkeypatch, preset):
    env = engines["jinja2"].env
    twin = _plain_twin(env)
    drawn = []
    real = parts._render

    def both(name, context):
        ours = real(name, context)
        # (The CSRF token is masked once per answer: the same hidden field in both.)
        assert str(ours) == twin.get_template(name).render(context), name
        drawn.append(name)
        return ours

    monkeypatch.setattr(parts, "_render", both)
    game = start_game(alice, bob, preset=preset)
    for _ in range(12):
        for user in users_by_seat(game).values():
            client.force_login(user)
            assert client.get(reverse("games:game", args=[game.pk])).status_code == 200
        game = autoplay(game, 7)
    # (The page's own part, which includes the #game fragment and every panel.)
    assert parts.PAGE in drawn


def test_words_are_the_active_languages():
    from django.utils import translation

    env = engines["jinja2"].env
    template = env.from_string('{{ _("Cash") }}|{% include "games/partials/log/more.html" %}')
    drawn = {}
    for language in ("en", "es", "ca", "en"):
        with translation.override(language):
            drawn.setdefault(language, template.render(url="/x/"))
            # The same words as Django's gettext gives, in the template and in its include.
            assert drawn[language].startswith(translation.gettext("Cash") + "|")
            assert translation.gettext("Older moves") in drawn[language]
    assert len(set(drawn.values())) == 3
