"""The board data's generic names (corners, decks, taxes, railroads, utilities, colour groups)
in the reader's language: every one has an entry in games/board_words.py and a translation,
and the pages draw the board, the log and the replay from the localized copy."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import translation

from games.board_words import GROUPS, SQUARES, board_word, localized_board
from games.engine import load_board
from games.engine.boards import BOARD_NAMES, DATA
from tests.games.play_helpers import autoplay, play_until

# The squares whose names are proper names, the same in every language: the classic board's
# streets and the world board's companies (their kinds say so).
PROPER_KINDS = {"street"}


def generic_names() -> set[str]:
    names = set()
    for board in BOARD_NAMES:
        data = json.loads((DATA / f"{board}.json").read_text(encoding="utf-8"))
        for square in data["squares"]:
            if square["kind"] in PROPER_KINDS:
                continue
            if board == "world" and square["kind"] in ("railroad", "utility"):
                continue  # brand names (Orbis Capital, Voltmark Works)
            names.add(square["name"])
        names.update(g["name"] for g in data["groups"].values())
    return names


def test_every_generic_name_of_every_board_has_an_entry():
    with translation.override("en"):
        entries = {str(w) for w in (*SQUARES, *GROUPS)}
    assert sorted(generic_names() - entries) == []


@pytest.mark.parametrize("language", ["es", "ca"])
def test_every_generic_name_is_translated(language):
    with translation.override(language):
        same = sorted(n for n in generic_names() if board_word(n) == n)

    # "Casino" is Spanish and Catalan too; every other name has words of its own.
    assert same == ["Casino"]


@pytest.mark.parametrize(("language", "go", "chance", "brown"), [
    ("en", "GO", "Chance", "Brown"),
    ("es", "SALIDA", "Suerte", "Marrón"),
    ("ca", "SORTIDA", "Sort", "Marró"),
])
def test_localized_board_names_squares_and_groups(language, go, chance, brown):
    board = load_board("classic")
    with translation.override(language):
        shown = localized_board(board)

    assert shown.name_of(0) == go
    assert shown.name_of(7) == chance
    assert shown.group_info["brown"]["name"] == brown
    # A street keeps its name, and the rules' data is the engine's.
    assert shown.name_of(39) == "Boardwalk"
    assert shown.price == board.price and shown.groups == board.groups
    # The engine's own board is untouched.
    assert board.name_of(0) == "GO"


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "english", "words"), [
    ("es", ["Community Chest", "Free Parking", "Go to Jail", "Electric Company", "Light blue",
            "Strategy bot"], ["Caja de Comunidad", "Parking gratuito", "Ve a la Cárcel",
                               "Compañía de Electricidad", "Azul claro", "Bot estratega 3"]),
    ("ca", ["Community Chest", "Free Parking", "Go to Jail", "Electric Company", "Light blue",
            "Strategy bot"], ["Caixa de la Comunitat", "Aparcament gratuït", "Ves a la Presó",
                               "Companyia Elèctrica", "Blau clar", "Bot estratègic 3"]),
])
def test_game_page_and_log_show_no_english_board_words(client, alice, bob, language, english, words):
    from games import services
    from games.models import Seat

    table = services.table_create(host=alice, name="Mesa", preset="classic", pace="live",
                                  turn_hours=24, seat_count=3, is_private=False)
    services.table_join(table=table, user=bob)
    services.table_set_seat(table=table, by=alice, position=2, bot=Seat.Bot.STRATEGY)
    # Played on until a light-blue deed is owned (its group's name is on its owner's card):
    # the seed is random, and some games have none after 60 actions.
    game = play_until(autoplay(services.table_start(table=table, by=alice), 60),
                      lambda st: any(st.owner[sq] >= 0 for sq in st.board.groups["light_blue"]))
    alice.language = language
    alice.save(update_fields=["language"])
    client.force_login(alice)

    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    log = client.get(reverse("games:game_log", args=[game.pk])).content.decode()

    for word in english:
        assert word not in page, word
    for word in words:
        assert word in page, word
    assert "Strategy bot" not in log


@pytest.mark.parametrize(("language", "one", "many"), [
    ("en", "is over after 1 round.", "is over after 3 rounds."),
    ("es", "ha terminado tras 1 ronda.", "ha terminado tras 3 rondas."),
    ("ca", "ha acabat després de 1 ronda.", "ha acabat després de 3 rondes."),
])
def test_the_game_over_email_counts_its_rounds_in_the_plural_they_need(language, one, many):
    from types import SimpleNamespace

    from django.template.loader import render_to_string

    def text(rounds: int, template: str) -> str:
        context = {"user": SimpleNamespace(public_name="Ann"), "you_won": False, "winner": "Bob",
                   "table": SimpleNamespace(name="Mesa"), "game": SimpleNamespace(round=rounds),
                   "game_url": "http://x/", "site_name": "Monopoly"}
        with translation.override(language):
            return " ".join(render_to_string(template, context).split())

    for template in ("emails/game_over.txt", "emails/game_over.html"):
        assert one in text(1, template).replace("</strong>", "")
        assert many in text(3, template).replace("</strong>", "")
