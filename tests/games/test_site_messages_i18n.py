"""The site's own refusals in the reader's language (games/services/, the table and game views).

The engine's refusals are worded from their codes (games/errors.py); the site's own ("this game is over", "the
table is full", a page drawn before the last move) are gettext messages from the start. These
tests read the sources for every such message and check that both catalogs translate it, drive
real refusals through the views in Spanish and Catalan, and check that programs keep the
English ``error`` with the translation in ``message``.
"""

from __future__ import annotations

import ast
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games import services
from games.engine import IllegalAction
from games.errors import SiteRefusal, translate_refusal
from games.models import Game
from games.views.play import NOT_A_PLAYER
from games.views.play_forms import FormError
from tests.games.play_helpers import start_game, users_by_seat

ROOT = Path(settings.BASE_DIR)
# Where the site raises its own refusals, and the exceptions that carry them.
SOURCES = (*sorted(str(p.relative_to(ROOT)) for p in (ROOT / "games/services").glob("*.py")),
           "games/views/tables.py", "games/views/play_forms.py")
REFUSALS = {"GameError", "NotAllowed", "StaleVersion", "FormError"}
GETTEXT = {"_", "gettext", "gettext_lazy"}
LANGUAGES = ["es", "ca"]
HTMX = {"HTTP_HX_REQUEST": "true"}
JSON = {"HTTP_ACCEPT": "application/json"}
# A move from a page drawn before the last move: what the page flashes.
STALE = {
    "en": "The game has moved on since your page was drawn; here is the current position.",
    "es": "La partida ha avanzado desde que se mostró tu página; aquí tienes la posición actual.",
    "ca": "La partida ha avançat des que es va mostrar la teva pàgina; aquí tens la posició "
          "actual.",
}


# ---------------------------------------------------------------------------------------------
# The sources: every site refusal is a gettext message, and both catalogs translate it
# ---------------------------------------------------------------------------------------------


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _messages(node: ast.expr, where: str) -> list[str]:
    """The gettext messages an exception's first argument can be; an engine's message passed
    on (``GameError(e)``) gives none. Anything else (a bare string, an f-string) fails."""
    if isinstance(node, ast.IfExp):
        return _messages(node.body, where) + _messages(node.orelse, where)
    if isinstance(node, ast.Call) and _name(node.func) in GETTEXT:
        (arg,) = node.args
        assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), where
        return [arg.value]
    if isinstance(node, ast.Name) and node.id == "e":
        return []  # an engine refusal passed on, worded from its code (games/errors.py)
    if isinstance(node, ast.Call) and _name(node.func) == "clock_refusal":
        # RULES.md 16: a clock refused by games/clock.py, worded from its code (games/options.py).
        from games.options import CLOCK_REFUSALS, clock_refusal

        with translation.override(None):
            return [str(words) for words in CLOCK_REFUSALS.values()] + [str(clock_refusal(None))]
    raise AssertionError(f"{where}: a site refusal that is not a gettext message")


def site_messages() -> dict[str, str]:
    """Every message the site refuses with, and where it is raised."""
    found: dict[str, str] = {}
    for source in SOURCES:
        tree = ast.parse((ROOT / source).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) in REFUSALS and node.args:
                where = f"{source}:{node.lineno}"
                for message in _messages(node.args[0], where):
                    found.setdefault(message, where)
    return found


# Messages outside those calls: the answer to a move by someone without a seat, and the name a
# table gets when the host leaves it empty.
OTHER_MESSAGES = [NOT_A_PLAYER, "%(name)s's table"]


def test_the_scan_finds_the_site_refusals():
    messages = site_messages()

    assert len(messages) >= 35
    for message in ("this game is over", "the table is full", "only the host may start the game",
                    "the game has moved on since your page was drawn; here is the current position",
                    "this rule set seats %(lo)s to %(hi)s players", "choose a seat",
                    "Unknown action “%(type)s”."):
        assert message in messages


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_site_message_is_translated_in_the_compiled_catalog(language):
    untranslated = []
    with translation.override(language):
        for message in [*site_messages(), *OTHER_MESSAGES]:
            text = translation.gettext(message)
            if not text.strip() or text == message:
                untranslated.append(message)

    assert untranslated == []


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "expected"), [
    ("es", "estas reglas admiten de 3 a 3 jugadores"),
    ("ca", "aquestes regles admeten de 3 a 3 jugadors"),
])
def test_a_site_refusal_is_english_as_a_string_and_translated_when_localized(language, expected):
    with pytest.raises(services.GameError) as refused:
        services.table_create(host=None, name="x", preset="world-duel", seat_count=5)

    with translation.override(language):
        assert str(refused.value) == "this rule set seats 3 to 3 players"
        assert refused.value.localized() == expected
        assert translate_refusal(refused.value) == expected


def test_a_form_refusal_translates_its_lazy_field_name_too():
    refused = FormError(translation.gettext_lazy("%(field)s is missing."),
                        field=translation.gettext_lazy("The square"))

    with translation.override("es"):
        assert str(refused) == "The square is missing."
        assert refused.localized() != str(refused)
        assert "The square" not in refused.localized()


def test_an_engine_refusal_passed_on_is_worded_from_its_code():
    refused = SiteRefusal(IllegalAction("game_over"))

    with translation.override("ca"):
        assert str(refused) == "the game is over"
        assert refused.localized() == "la partida s'ha acabat"


# ---------------------------------------------------------------------------------------------
# The pages and the move endpoint
# ---------------------------------------------------------------------------------------------


def _speaks(user, language: str) -> None:
    user.language = language
    user.save(update_fields=["language"])


def _act(client, game: Game, *, version: int | None = None, headers=None, **fields):
    data = {"version": game.version if version is None else version, **fields}
    return client.post(reverse("games:game_act", args=[game.pk]), data, **(headers or {}))


def _mover(game: Game):
    return users_by_seat(game)[game.waiting_seats[0]]


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob)


@pytest.fixture
def finished(game):
    """A game that ended with a surrender; the loser still has a seat and a page."""
    loser = _mover(game)
    services.game_submit_action(game=game, user=loser, action={"type": "surrender"},
                                expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game, loser


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "over"), [
    ("es", "Rechazado: esta partida ha terminado."),
    ("ca", "Rebutjat: aquesta partida s'ha acabat."),
])
def test_a_move_on_a_finished_game_is_refused_in_the_players_language(
        client, finished, language, over):
    game, loser = finished
    _speaks(loser, language)
    client.force_login(loser)

    response = _act(client, game, type="roll", headers=HTMX)

    assert response.status_code == 400
    html = unescape(response.content.decode())
    assert over in html
    assert "this game is over" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_stale_page_is_told_in_the_players_language_without_javascript(client, game, language):
    mover = _mover(game)
    _speaks(mover, language)
    client.force_login(mover)

    response = _act(client, game, version=game.version - 1, type="roll")
    page = unescape(client.get(response["Location"]).content.decode())

    assert response.status_code == 302
    assert STALE[language] in page
    assert "moved on" not in page


@pytest.mark.django_db
def test_programs_keep_the_english_error_of_a_site_refusal_beside_the_translation(client, game):
    mover = _mover(game)
    _speaks(mover, "es")
    client.force_login(mover)

    stale = _act(client, game, version=game.version - 1, type="roll", headers=JSON)
    malformed = _act(client, game, type="no_such_move", headers=JSON)

    assert stale.status_code == 409
    assert stale.json() == {
        "error": STALE["en"],
        "message": STALE["es"],
        "version": game.version,
    }
    assert malformed.status_code == 400
    body = malformed.json()
    assert body["error"] == "Unknown action “no_such_move”."
    assert body["message"] != body["error"] and "no_such_move" in body["message"]


@pytest.mark.django_db
def test_a_program_on_a_finished_game_gets_the_english_error(client, finished):
    game, loser = finished
    _speaks(loser, "ca")
    client.force_login(loser)

    response = _act(client, game, type="roll", headers=JSON)

    assert response.status_code == 400
    assert response.json() == {"error": "Refused: this game is over.",
                               "message": "Rebutjat: aquesta partida s'ha acabat."}


@pytest.mark.django_db
def test_a_non_player_program_gets_the_english_error_and_the_translation(client, game, charlie):
    _speaks(charlie, "ca")
    client.force_login(charlie)

    json_answer = _act(client, game, type="roll", headers=JSON)
    page_answer = _act(client, game, type="roll")

    assert json_answer.status_code == 403 and page_answer.status_code == 403
    assert json_answer.json() == {
        "error": "Only the players of this game may make moves.",
        "message": "Només els jugadors d'aquesta partida poden fer jugades.",
    }
    # A person gets the site's 403 page, in their language, saying why.
    page = page_answer.content.decode()
    assert page_answer["Content-Type"].startswith("text/html") and 'class="site-header"' in page
    assert "Només els jugadors d'aquesta partida poden fer jugades." in unescape(page)


def _flashed(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "full"), [
    ("es", "La mesa está completa"),
    ("ca", "La taula és plena"),
])
def test_joining_a_full_table_is_refused_in_the_users_language(
        client, alice, bob, charlie, make_table, language, full):
    table = make_table(alice, seat_count=2)
    services.table_join(table=table, user=bob)
    _speaks(charlie, language)
    client.force_login(charlie)

    response = client.post(reverse("games:table_join", args=[table.pk]), follow=True)

    assert _flashed(response) == [full]
    assert "The table is full" not in unescape(response.content.decode())


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "closed"), [
    ("es", "Esta mesa ya no está abierta"),
    ("ca", "Aquesta taula ja no és oberta"),
])
def test_an_invitation_to_a_started_game_is_refused_in_the_users_language(
        client, alice, bob, charlie, game, language, closed):
    table = game.table
    _speaks(charlie, language)
    client.force_login(charlie)

    response = client.post(reverse("games:table_join", args=[table.pk]),
                           {"code": table.invite_code}, follow=True)

    assert closed in _flashed(response)
    assert not table.seats.filter(user=charlie).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "refused"), [
    ("es", "Solo el anfitrión puede invitar"),
    ("ca", "Només l'amfitrió pot convidar"),
])
def test_an_invitation_by_someone_without_a_seat_is_refused_in_their_language(
        client, alice, charlie, make_table, language, refused):
    table = make_table(alice)
    _speaks(charlie, language)
    client.force_login(charlie)

    response = client.post(reverse("games:table_invite_email", args=[table.pk]),
                           {"email": "dana@example.com"}, follow=True)

    assert _flashed(response) == [refused]
    assert not table.invitations.exists()


@pytest.mark.django_db
def test_starting_with_an_empty_seat_is_refused_in_catalan(client, alice, make_table):
    table = make_table(alice, seat_count=3)
    _speaks(alice, "ca")
    client.force_login(alice)

    response = client.post(reverse("games:table_start", args=[table.pk]), follow=True)

    assert _flashed(response) == [
        "Tots els seients han d'estar ocupats (afegeix bots als seients lliures)"]


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "name"), [("en", "Alice's table"), ("es", "Mesa de Alice"),
                                                 ("ca", "Taula de Alice")])
def test_a_table_left_without_a_name_is_named_in_the_hosts_language(client, alice, language, name):
    _speaks(alice, language)
    client.force_login(alice)

    client.post(reverse("games:table_create"), {"preset": "classic", "pace": "correspondence",
                                                "turn_hours": "24", "name": ""})

    assert alice.hosted_tables.get().name == name
