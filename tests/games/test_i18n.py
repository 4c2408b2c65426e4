"""The site speaks English, Spanish and Catalan: a signed-in player's own language, else the
browser's. The game log is made by the engine, which knows no Django: it takes the site's
gettext. The catalogs under locale/ are complete, and their compiled .mo files (committed, as
CI has no gettext tools) match the .po sources."""

from __future__ import annotations

import ast
import gettext as gnu_gettext
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games.engine import CARDS, describe, load_board
from tests.games.play_helpers import play_until, start_game, users_by_seat

LOCALE_DIR = Path(settings.LOCALE_PATHS[0])
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
NAMES = ["Alice", "Bob", "Charlie"]
NOTE_KINDS = ("auto_vacation", "back_from_bot", "pause_cap", "end_proposed", "end_agree", "end_decline",
              "end_withdraw", "end_lapsed")

# What a player sees of each language: a decision button, a line of the log, the lobby's
# heading, the table page's rules heading and the watcher's mark.
WORDS = {
    "en": {
        "roll": "Roll the dice",
        "log": "The game starts; {first} plays first.",
        "lobby": "Open tables",
        "rules": "Rules",
        "watching": "watching",
    },
    "es": {
        "roll": "Tirar los dados",
        "log": "Empieza la partida; {first} juega primero.",
        "lobby": "Mesas abiertas",
        "rules": "Reglas",
        "watching": "como espectador",
    },
    "ca": {
        "roll": "Tirar els daus",
        "log": "Comença la partida; {first} juga primer.",
        "lobby": "Taules obertes",
        "rules": "Regles",
        "watching": "com a espectador",
    },
}

# One event of every kind the log describes, with each variant that has its own sentence.
EVENTS = [
    {"e": "start", "first": 1},
    {"e": "first_roll", "rolls": {"0": 7, "1": 9}},
    {"e": "dealt", "p": 0, "sq": 1},
    {"e": "dealt", "p": 0, "sq": 1, "price": 60},
    {"e": "turn", "p": 0, "round": 2},
    {"e": "roll", "p": 0, "dice": [3, 4]},
    {"e": "roll", "p": 0, "dice": [3, 4], "jail": True},
    {"e": "dice", "p": 0, "dice": [2, 5]},
    {"e": "third_doubles", "p": 0},
    {"e": "move", "p": 0, "to": 5},
    {"e": "salary", "p": 0, "amount": 200},
    {"e": "buy", "p": 0, "sq": 39, "price": 400},
    {"e": "decline", "p": 0, "sq": 39},
    *(
        {"e": "auction", "sq": 39, "what": w, "opening": 1}
        for w in ("deed", "expiry", "own", "building")
    ),
    {"e": "bid", "p": 1, "amount": 10},
    {"e": "pass", "p": 1},
    {"e": "bid", "p": 1, "amount": 11, "by": "max"},
    {"e": "pass", "p": 1, "by": "max"},
    {"e": "max_bid", "p": 1, "amount": 40},
    {"e": "max_bid", "p": 1, "amount": 0},
    {"e": "auction_won", "p": 1, "sq": 39, "amount": 10},
    {"e": "auction_unsold", "sq": 39},
    {"e": "rent", "p": 0, "owner": 1, "sq": 39, "amount": 50},
    {"e": "rent", "p": 0, "owner": 1, "sq": 39, "amount": 50, "tax": 5},
    *({"e": "no_rent", "sq": 39, "why": w} for w in ("mortgaged", "owner_in_jail", "teammate")),
    *(
        {"e": "pay", "p": 0, "to": -1, "amount": 5, "why": w}
        for w in ("rent", "tax", "card", "jail fine", "auction", "repairs", "transfer fee")
    ),
    {"e": "collect", "p": 0, "amount": 50},
    {"e": "card", "p": 0, "card": "advance_to_boardwalk"},
    *(
        {"e": k, "deck": d}
        for k in ("reshuffle", "deck_empty")
        for d in ("chance", "chest", "luck")
    ),
    {"e": "jail", "p": 0},
    *({"e": "leave_jail", "p": 0, "how": h} for h in ("fine", "card", "doubles", None)),
    {"e": "jail_fine_due", "p": 0},
    *({"e": "income_tax", "p": 0, "amount": 200, "choice": c} for c in ("flat", "percent")),
    {"e": "free_parking", "p": 0, "amount": 300},
    *(
        {"e": "casino", "p": 0, "numbers": [1, 2], "die": 2, "won": won, "pool": pool}
        for won in (0, 3000)
        for pool in (0, 500)
    ),
    {"e": "casino_skip", "p": 0},
    *({"e": "bus", "p": 0, "choice": c} for c in ("first", "second", "sum")),
    {"e": "teleport", "p": 0, "sq": 5},
    {"e": "m1", "p": 0, "to": 6},
    {"e": "m1_none", "p": 0},
    {"e": "destroy", "p": 0, "sq": 1},
    {"e": "destroy_none", "p": 0},
    {"e": "build", "p": 0, "sq": 1, "level": 2},
    {"e": "build", "p": 0, "sq": 1, "level": 5},
    {"e": "sell", "p": 0, "sq": 1, "refund": 25},
    *({"e": "shortage", "building": b} for b in ("house", "hotel")),
    {"e": "mortgage", "p": 0, "sq": 1, "amount": 30},
    {"e": "unmortgage", "p": 0, "sq": 1, "amount": 33},
    {"e": "keep_mortgaged", "p": 0, "sq": 1, "amount": 3},
    {"e": "expired", "sq": 1},
    {"e": "trade_proposed", "p": 0, "to": 1, "trade": 4},
    {"e": "trade_proposed", "p": 0, "to": 1, "trade": 4, "give": {"cash": 200, "squares": [1, 3], "cards": 1},
     "take": {"cash": 0, "squares": [], "cards": 0}},
    {"e": "trade_accepted", "p": 1, "proposer": 0, "trade": 4, "give": {"cash": 0, "squares": [39], "cards": 0},
     "take": {"cash": 0, "squares": [], "cards": 2}},
    *({"e": k, "trade": 4} for k in ("trade_accepted", "trade_rejected", "trade_cancelled")),
    {"e": "debt", "p": 0, "to": 1, "amount": 100},
    {"e": "debt_settled", "p": 0},
    {"e": "cannot_pay", "p": 0, "amount": 100},
    {"e": "bankrupt", "p": 0},
    {"e": "bankrupt", "p": 0, "to": 1},
    {"e": "surrender", "p": 0},
    {"e": "missed", "p": 0, "count": 2},
    {"e": "timeout", "p": 0},
    {"e": "time_up"},
    {"e": "game_over", "winner": 1},
    # The site's notes (games/engine/rules/site.py's NOTES; tests/engine/test_site_actions.py
    # holds this list to it), the nudge naming two seats (issue 29).
    *({"e": "note", "p": 0, "what": what} for what in NOTE_KINDS),
    {"e": "note", "p": 1, "what": "nudge", "by": 0},
    {"e": "move", "p": -1, "to": 3},
    {"e": "move", "p": 7, "to": 3},
]


# ---------------------------------------------------------------------------------------------
# The catalogs
# ---------------------------------------------------------------------------------------------


def read_po(path: Path) -> list[dict]:
    """The entries of a .po file as makemessages writes it (header first): msgctxt, msgid,
    msgid_plural, msgstr (a list: one form, or one per plural form) and flags."""
    entries: list[dict] = []
    entry: dict | None = None
    field: str | None = None
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if entry is not None:
                entries.append(entry)
            entry, field = None, None
            continue
        if entry is None:
            entry = {
                "msgctxt": None,
                "msgid": "",
                "msgid_plural": None,
                "msgstr": [],
                "flags": set(),
            }
        if line.startswith("#,"):
            entry["flags"].update(f.strip() for f in line[2:].split(","))
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            if field == "msgstr":
                entry["msgstr"][-1] += ast.literal_eval(line)
            else:
                entry[field] += ast.literal_eval(line)
        else:
            key, text = line.split(" ", 1)
            if key.startswith("msgstr"):
                field = "msgstr"
                entry["msgstr"].append(ast.literal_eval(text))
            else:
                field = key
                entry[key] = ast.literal_eval(text)
    return entries


def placeholders(text: str, flags: set[str]) -> list[str]:
    found = []
    if "python-format" in flags:
        found += re.findall(r"%\(\w+\)[sd]|%%", text)
    if "python-brace-format" in flags:
        found += re.findall(r"\{\w*\}", text)
    return sorted(found)


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalog_has_every_message_translated_and_nothing_fuzzy(language):
    entries = read_po(LOCALE_DIR / language / "LC_MESSAGES" / "django.po")
    header, messages = entries[0], entries[1:]

    assert header["msgid"] == "" and "fuzzy" not in header["flags"]
    assert f"Language: {language}\n" in header["msgstr"][0]
    assert len(messages) > 500
    untranslated = [m["msgid"] for m in messages if not all(m["msgstr"])]
    fuzzy = [m["msgid"] for m in messages if "fuzzy" in m["flags"]]
    assert untranslated == []
    assert fuzzy == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalog_keeps_every_placeholder_and_plural_form(language):
    messages = read_po(LOCALE_DIR / language / "LC_MESSAGES" / "django.po")[1:]
    plural_count = {"es": 3, "ca": 2}[language]

    for m in messages:
        flags = m["flags"]
        if m["msgid_plural"] is None:
            assert placeholders(m["msgstr"][0], flags) == placeholders(m["msgid"], flags), m[
                "msgid"
            ]
        else:
            assert len(m["msgstr"]) == plural_count, m["msgid"]
            for form in m["msgstr"][1:]:
                assert placeholders(form, flags) == placeholders(m["msgid_plural"], flags), m[
                    "msgid"
                ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalog_matches_its_source(language):
    """The committed .mo is compiled from the committed .po (the site reads only the .mo)."""
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    with (folder / "django.mo").open("rb") as f:
        compiled = gnu_gettext.GNUTranslations(f)
    expected = {}
    for m in read_po(folder / "django.po")[1:]:
        key = m["msgid"] if m["msgctxt"] is None else f"{m['msgctxt']}\x04{m['msgid']}"
        if m["msgid_plural"] is None:
            expected[key] = m["msgstr"][0]
        else:
            for n, form in enumerate(m["msgstr"]):
                expected[(key, n)] = form

    catalog = {k: v for k, v in compiled._catalog.items() if k != ""}
    assert catalog == expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_log_sentence_and_card_is_in_the_catalog(language):
    messages = {
        m["msgid"] for m in read_po(LOCALE_DIR / language / "LC_MESSAGES" / "django.po")[1:]
    }
    asked: set[str] = set()

    def recording_gettext(message: str) -> str:
        asked.add(message)
        return message

    def recording_ngettext(singular: str, plural: str, n: int) -> str:
        asked.add(singular)
        return singular if n == 1 else plural

    for board in ("classic", "world"):
        for event in EVENTS:
            describe(event, NAMES, load_board(board), gettext=recording_gettext, ngettext=recording_ngettext)
    card_texts = {text for _deck, text, _effect in CARDS.values()}

    assert sorted(asked - messages) == []
    assert sorted(card_texts - messages) == []


# ---------------------------------------------------------------------------------------------
# describe(): English by default, the reader's language through the site's gettext
# ---------------------------------------------------------------------------------------------


def test_describe_without_gettext_is_english():
    board = load_board("classic")

    assert (
        describe({"e": "buy", "p": 0, "sq": 39, "price": 400}, NAMES, board)
        == "Alice buys Boardwalk for $400."
    )
    assert describe({"e": "card", "p": 1, "card": "advance_to_go"}, NAMES, board) == (
        "Bob draws: Advance to GO. Collect your salary."
    )
    assert describe({"e": "build", "p": 0, "sq": 39, "level": 2}, NAMES, board) == (
        "Alice builds on Boardwalk: now 2 houses."
    )
    assert describe({"e": "build", "p": 0, "sq": 39, "level": 1}, NAMES, board) == (
        "Alice builds on Boardwalk: now 1 house."
    )
    assert describe(
        {"e": "pay", "p": 0, "to": -1, "amount": 50, "why": "jail fine"}, NAMES, board
    ) == ("Alice pays $50 to the bank (jail fine).")


@pytest.mark.parametrize(
    ("language", "bought", "card", "paid"),
    [
        (
            "es",
            "Alice compra Boardwalk por $400.",
            "Bob saca una carta: Avanza hasta la Salida. Cobra tu salario.",
            "Alice paga $50 a la banca (multa de la Cárcel).",
        ),
        (
            "ca",
            "Alice compra Boardwalk per $400.",
            "Bob treu una carta: Avança fins a la Sortida. Cobra el teu salari.",
            "Alice paga $50 a la banca (multa de la Presó).",
        ),
    ],
)
def test_describe_with_django_gettext_speaks_the_active_language(language, bought, card, paid):
    board = load_board("classic")

    with translation.override(language):
        lines = [
            describe(e, NAMES, board, gettext=translation.gettext)
            for e in (
                {"e": "buy", "p": 0, "sq": 39, "price": 400},
                {"e": "card", "p": 1, "card": "advance_to_go"},
                {"e": "pay", "p": 0, "to": -1, "amount": 50, "why": "jail fine"},
            )
        ]

    assert lines == [bought, card, paid]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_log_sentence_fills_its_placeholders(language):
    """A translation that named a placeholder the engine does not pass would raise here."""
    with translation.override(language):
        for board in ("classic", "world"):
            for event in EVENTS:
                line = describe(event, NAMES, load_board(board), gettext=translation.gettext,
                                ngettext=translation.ngettext)
                assert line and "{" not in line, (event, line)


@pytest.mark.parametrize(("language", "one", "two"), [
    ("en", "Alice builds on Boardwalk: now 1 house.", "Alice builds on Boardwalk: now 2 houses."),
    ("es", "Alice construye en Boardwalk: ahora tiene 1 casa.", "Alice construye en Boardwalk: ahora tiene 2 casas."),
    ("ca", "Alice construeix a Boardwalk: ara hi té 1 casa.", "Alice construeix a Boardwalk: ara hi té 2 cases."),
])
def test_buildings_in_the_log_use_the_languages_plural_forms(language, one, two):
    """Issue 26 item 20: not "1 house(s)" in every language."""
    board = load_board("classic")
    with translation.override(language):
        lines = [describe({"e": "build", "p": 0, "sq": 39, "level": n}, NAMES, board,
                          gettext=translation.gettext, ngettext=translation.ngettext) for n in (1, 2)]
    assert lines == [one, two]
    assert not any("(s)" in line or "/es" in line for line in lines)


# ---------------------------------------------------------------------------------------------
# The pages
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def game_to_roll(alice, bob):
    """A classic game between Alice and Bob, waiting for a roll."""
    return play_until(start_game(alice, bob), lambda s: s.pending() == "roll")


def first_player(game) -> str:
    """The name of the player the opening roll chose (the log's first sentences say it)."""
    for row in game.actions.order_by("seq"):
        for event in row.events:
            if event.get("e") == "start":
                return game.state["players"][event["first"]]["name"]
    raise AssertionError("the log has no start event")


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "es", "ca"])
def test_game_page_speaks_the_signed_in_players_language(client, game_to_roll, language):
    seat = game_to_roll.state["current"]
    player = users_by_seat(game_to_roll)[seat]
    player.language = language
    player.save(update_fields=["language"])
    client.force_login(player)

    # A browser asking for another language does not override the player's own choice.
    html = client.get(
        reverse("games:game", args=[game_to_roll.pk]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()

    words = WORDS[language]
    assert f'<html lang="{language}"' in html
    assert words["roll"] in html
    # (The player's name is isolated on the page: <bdi>, issue 26.)
    assert words["log"].format(first=f"<bdi>{first_player(game_to_roll)}</bdi>") in html
    for other in {"en", "es", "ca"} - {language}:
        assert WORDS[other]["roll"] not in html


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_lobby_and_table_page_speak_the_signed_in_users_language(
    client, alice, make_table, language
):
    alice.language = language
    alice.save(update_fields=["language"])
    table = make_table(alice, name="Mesa")
    client.force_login(alice)

    lobby = client.get(reverse("games:lobby")).content.decode()
    table_page = client.get(reverse("games:table", args=[table.pk])).content.decode()

    assert WORDS[language]["lobby"] in lobby
    assert WORDS["en"]["lobby"] not in lobby
    assert f">{WORDS[language]['rules']}<" in table_page
    assert f">{WORDS['en']['rules']}<" not in table_page


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_anonymous_visitor_gets_the_browsers_language(client, game_to_roll, language):
    lobby = client.get(
        reverse("games:lobby"), HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5"
    ).content.decode()
    game = client.get(
        reverse("games:game", args=[game_to_roll.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()

    assert f'<html lang="{language}"' in lobby
    assert WORDS[language]["lobby"] in lobby
    assert WORDS[language]["watching"] in game
    assert WORDS[language]["roll"] not in game  # a watcher has no buttons
    assert WORDS[language]["log"].format(first=f"<bdi>{first_player(game_to_roll)}</bdi>") in game
