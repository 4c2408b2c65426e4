"""The engine's refusals in the reader's language (games/refusals.py).

The engine refuses in English ("it is Ana's turn"); the site shows each refusal translated, from
a table of the engine's messages. These tests keep that table whole: every message the engine's
source can raise has an entry (read with ``ast``, so a new message fails here until it is
translated), every entry's words reach the catalogs in Spanish and Catalan, the refusals real
games produce are all recognised, and the pages and the move endpoint show them translated while
programs keep the English.
"""

from __future__ import annotations

import ast
import itertools
import json
import random
import re
from functools import partial
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games import refusals
from games.engine import (
    PRESET_NAMES,
    IllegalAction,
    InvalidRules,
    RuleSet,
    apply,
    legal_actions,
    new_game,
    set_clock,
    waiting_on,
)
from games.records import RECORD_FORMAT, RecordError, checkpoints, parse_record
from games.refusals import REFUSALS, Refusal, match_refusal, translate_refusal
from tests.games.play_helpers import start_game
from tests.games.test_i18n import LOCALE_DIR, read_po

ROOT = Path(settings.BASE_DIR)
ENGINE = ROOT / "games" / "engine"
# Every engine module is read for ``IllegalAction(...)`` and ``InvalidRules(...)`` (scenarios.py
# and simulate.py are command-line tools: their words never reach the site); the rules package
# also for the reasons its ``_..._error`` helpers and ``err = ...`` assignments gather.
TOOLS = {"scenarios.py", "simulate.py"}
ENGINE_SOURCES = sorted(p for p in ENGINE.rglob("*.py") if p.name not in TOOLS)
REASON_SOURCES = {"ruleset.py"} | {p.name for p in (ENGINE / "rules").glob("*.py")}
LANGUAGES = ["es", "ca"]
HTMX = {"HTTP_HX_REQUEST": "true"}
# Catalog entries whose translation may read exactly like the English (none so far: a word the
# languages share, "casino" say, would go here rather than loosen the check).
SAME_WORDS: frozenset[tuple[str | None, str]] = frozenset()


def english_of(message: str) -> str:
    """What the site shows in English: the engine's words, "(s)" made a proper plural."""
    return message.replace("(s)", "s")


# ---------------------------------------------------------------------------------------------
# The engine's source: every message it can raise has an entry
# ---------------------------------------------------------------------------------------------


class Unreadable(Exception):
    pass


def _texts(node: ast.expr, constants: dict[str, str], where: str) -> list[str]:
    """The messages an expression can make, each variable part as ``{}``. An expression this
    cannot read raises Unreadable: the scan then says where, rather than skip a message."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Constant) and node.value is None:
        return []
    if isinstance(node, ast.JoinedStr):
        options: list[list[str]] = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                options.append([part.value])
                continue
            assert isinstance(part, ast.FormattedValue)
            inner = part.value
            if (isinstance(inner, ast.IfExp) and isinstance(inner.body, ast.Constant)
                    and isinstance(inner.orelse, ast.Constant)):
                # {'hotel' if hotel else 'house'}: two messages, words and all.
                options.append([str(inner.body.value), str(inner.orelse.value)])
            else:
                options.append(["{}"])
        return ["".join(parts) for parts in itertools.product(*options)]
    if isinstance(node, ast.IfExp):
        return _texts(node.body, constants, where) + _texts(node.orelse, constants, where)
    if isinstance(node, ast.BoolOp):
        return [t for value in node.values for t in _texts(value, constants, where)]
    if isinstance(node, ast.Name):
        if node.id in constants:
            return [constants[node.id]]
        if node.id == "err":  # set from the helpers and assignments scanned below
            return []
    if isinstance(node, ast.Call) and getattr(node.func, "id", "").endswith("_error"):
        return []  # a helper, scanned on its own
    raise Unreadable(f"{where}: cannot read the message of {ast.unparse(node)!r}")


def engine_messages() -> dict[str, str]:
    """Every refusal in the engine's source: template ("{}" for variable parts) -> where."""
    found: dict[str, str] = {}
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in ENGINE_SOURCES}
    # (module constants of every file: one module may return a message another defines)
    constants = {
        target.id: node.value.value
        for tree in trees.values()
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    for path, tree in trees.items():
        sources: list[ast.expr] = []
        for node in ast.walk(tree):
            # raise IllegalAction("...") / InvalidRules(f"...")
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                if name in ("IllegalAction", "InvalidRules") and node.args:
                    sources.append(node.args[0])
            if path.name not in REASON_SOURCES:
                continue  # (the bots ask the helpers too, for reasons nobody reads)
            # the reasons of the ``_..._error`` helpers
            if isinstance(node, ast.FunctionDef) and node.name.endswith("_error"):
                sources += [
                    r.value for r in ast.walk(node) if isinstance(r, ast.Return) and r.value
                ]
            # err = f"..." in the actions that gather a reason before raising it
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "err" for t in node.targets
            ):
                sources.append(node.value)
        for source in sources:
            where = f"{path.relative_to(ROOT)}:{source.lineno}"
            for text in _texts(source, constants, where):
                found.setdefault(text, where)
    return found


def template(entry: Refusal) -> str:
    return re.sub(r"\{\w+\}", "{}", entry.english)


def test_every_message_the_engine_can_raise_has_an_entry():
    messages = engine_messages()
    templates = {template(entry) for entry in REFUSALS}

    # The scan reads the engine (about a hundred messages today), not nothing.
    assert len(messages) > 100
    missing = sorted(
        f"{where}: {text}" for text, where in messages.items() if text not in templates
    )
    assert missing == [], "engine messages without an entry in games/refusals.py"


def test_the_scan_reads_fstrings_helpers_and_constants():
    messages = engine_messages()

    assert "it is {}'s turn" in messages  # an f-string in IllegalAction(...)
    assert "{} needs a hotel, not a {}" in messages  # {'hotel' if ... else 'house'} expanded
    assert "{} needs a house, not a {}" in messages
    assert "not enough cash: a building costs {}" in messages  # a _build_error return
    assert "not enough cash: lifting the mortgage costs {}" in messages  # err = f"..."
    assert (  # a module constant returned by a helper
        "while you owe a debt you may only sell buildings, mortgage, trade or surrender" in messages
    )
    assert "option {}: expected a whole number or null, got {}" in messages  # ruleset.py


def test_the_scan_refuses_a_message_it_cannot_read():
    tree = ast.parse("raise IllegalAction(reason)")
    call = tree.body[0].exc

    with pytest.raises(Unreadable):
        _texts(call.args[0], {}, "x.py:1")


# ---------------------------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", REFUSALS, ids=lambda e: e.english[:50])
def test_each_entry_matches_its_sample_first(entry):
    found = match_refusal(entry.sample)

    assert found is not None and found[0] is entry, (entry.english, found and found[0].english)


def shown_in_english(message: str) -> str:
    """The engine's words as the English page shows them: each amount with the currency sign
    ("Ana has only $7 in cash", as the board and the players' panels write cash)."""
    entry, found = match_refusal(message)
    parts = re.split(r"\{(\w+)\}", entry.english)
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(part)
            continue
        slot, value = entry.slot(part), found.group(part)
        out.append(f"${int(value):,}" if slot.money else shown_in_english(value) if slot.nested else value)
    return english_of("".join(out))


@pytest.mark.parametrize("entry", REFUSALS, ids=lambda e: e.english[:50])
def test_in_english_the_site_shows_the_engines_words(entry):
    with translation.override("en"):
        assert translate_refusal(entry.sample) == shown_in_english(entry.sample)


@pytest.mark.parametrize(("language", "message", "shown"), [
    ("en", "Nora has only 56 in cash", "Nora has only $56 in cash"),
    ("en", "a bid of 2000 is above your cash (1500)", "a bid of $2,000 is above your cash ($1,500)"),
    # In the reader's digit grouping (Django's formats: a no-break space in Spanish).
    ("es", "the lowest bid now is 1010", "ahora la puja mínima es $1\xa0010"),
    ("ca", "the lowest bid now is 1010", "ara la puja mínima és $1.010"),
    ("ca", "not enough cash: a building costs 200", "no tens prou diners: un edifici costa $200"),
    ("en", "the trade is no longer possible: Bob has only 7 in cash",
     "the trade is no longer possible: Bob has only $7 in cash"),
    # Counts are no amounts.
    ("en", "only 2 build(s) per group per turn", "only 2 builds per group per turn"),
])
def test_amounts_in_refusals_carry_the_currency_sign(language, message, shown):
    with translation.override(language):
        assert translate_refusal(message) == shown


def catalog_msgids() -> list[tuple[str | None, str]]:
    """What makemessages reads in games/refusals.py: (context, msgid) of every literal call."""
    tree = ast.parse((ROOT / "games" / "refusals.py").read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        args = [a.value for a in node.args if isinstance(a, ast.Constant)]
        if node.func.id in ("_", "ngettext_lazy"):
            out.append((None, args[0]))
        elif node.func.id == "pgettext_lazy":
            out.append((args[0], args[1]))
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_translated_in_the_catalog(language):
    msgids = catalog_msgids()
    catalog = {
        (m["msgctxt"], m["msgid"]): m
        for m in read_po(LOCALE_DIR / language / "LC_MESSAGES" / "django.po")[1:]
    }

    assert len(msgids) >= len(REFUSALS)
    for key in msgids:
        assert key in catalog, key
        entry = catalog[key]
        assert all(form.strip() for form in entry["msgstr"]), key
        assert "fuzzy" not in entry["flags"], key
        assert entry["msgstr"][0] != key[1] or key in SAME_WORDS, key


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("entry", REFUSALS, ids=lambda e: e.english[:50])
def test_each_entry_speaks_the_language_and_keeps_the_names(language, entry):
    with translation.override(language):
        text = translate_refusal(entry.sample)

    assert text and text != english_of(entry.sample)
    assert "%(" not in text and "{" not in text
    # Names and numbers are the engine's own: a square stays "Boardwalk", as the board says.
    for name in entry.names:
        slot = entry.slot(name)
        if slot.words is None and not slot.nested and name not in ("building",):
            assert slot.sample in text, (name, text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_decision_word_is_translated(language):
    for word in refusals.DECISION.words:
        message = f"there is no {word} decision pending"
        with translation.override(language):
            assert translate_refusal(message) != message


def test_plural_entries_follow_the_number():
    with translation.override("es"):
        assert translate_refusal("only 1 build(s) per group per turn") == (
            "solo se permite 1 construcción por grupo y turno"
        )
        assert translate_refusal("only 2 build(s) per group per turn") == (
            "solo se permiten 2 construcciones por grupo y turno"
        )
    with translation.override("ca"):
        assert translate_refusal("Ana holds only 1 jail card(s)") == (
            "Ana només té 1 carta per sortir de la Presó"
        )


def test_a_refusal_inside_a_refusal_is_translated_too():
    with translation.override("es"):
        message = "the trade is no longer possible: Bob does not own Park Place"
        assert translate_refusal(message) == (
            "el intercambio ya no es posible: Bob no es propietario de Park Place"
        )


def test_names_with_any_characters_are_kept():
    with translation.override("ca"):
        assert translate_refusal("it is O'Brien (2)'s turn") == "ara li toca a O'Brien (2)"
        assert translate_refusal("you do not own St. James Place") == "no tens St. James Place"


@pytest.mark.parametrize("message", [
    "a message the engine has never written",
    "the game is waiting for a land decision first",  # a decision without words of its own
    "only many build(s) per group per turn",  # not a number where one is expected
    "",
])
def test_an_unknown_message_comes_back_unchanged(message):
    with translation.override("es"):
        assert translate_refusal(message) == message


def test_the_exception_itself_may_be_passed():
    with translation.override("es"):
        assert translate_refusal(IllegalAction("roll first")) == "primero tira los dados"
        assert translate_refusal(InvalidRules("unknown option 'x'")) == "opción desconocida 'x'"


def test_a_translation_that_does_not_fit_falls_back_to_english(monkeypatch):
    broken = Refusal("the moon is {colour}", translation.gettext_lazy("%(shade)s moon"))
    monkeypatch.setattr(refusals, "REFUSALS", (broken,))

    assert translate_refusal("the moon is blue") == "the moon is blue"


# ---------------------------------------------------------------------------------------------
# Real refusals: games of every preset, probed with wrong moves at every step
# ---------------------------------------------------------------------------------------------


def _probes(state, seat: int, rng: random.Random) -> list[dict]:
    """Moves a confused or malicious player might send now, most of them illegal."""
    n = len(state.players)
    owned = [sq for sq in range(40) if state.owner[sq] == seat] or [1]
    others = [sq for sq in range(40) if state.owner[sq] not in (seat, -1)] or [3]
    squares = [rng.choice(owned), rng.choice(others), rng.randrange(40), 0, 5, 39]
    trade = state.next_trade - 1

    def side() -> dict:
        return {"cash": rng.choice([0, 10, 10**6]),
                "squares": rng.sample(squares, rng.randint(0, 2)),
                "cards": rng.choice([0, 0, 1, 3])}

    moves: list[dict] = [{"type": t} for t in (
        "roll", "end_turn", "buy", "decline", "pass", "pay_fine", "use_card", "casino_skip",
        "accept", "reject", "cancel")]
    moves += [{"type": t, "square": sq} for t in (
        "build", "sell", "sell_all", "mortgage", "unmortgage", "keep_mortgaged", "auction_own",
        "teleport", "destroy") for sq in squares]
    moves += [
        {"type": "bid", "amount": rng.choice([0, 1, 10, 10**6])},
        {"type": "bid", "amount": "x"},
        # RULES.md 15 (no maximum is ever accepted here: none to withdraw, none in range).
        {"type": "max_bid", "amount": 10**6},
        {"type": "max_bid", "amount": 0},
        {"type": "max_bid", "amount": -1},
        {"type": "income_tax", "choice": rng.choice(["flat", "percent", "half"])},
        {"type": "casino", "numbers": rng.choice([[1], [1, 1], [7], [1, 2, 3, 4]])},
        {"type": "bus", "choice": rng.choice(["first", "second", "sum", "both"])},
        {"type": "propose", "to": rng.randrange(n), "give": side(), "take": side()},
        {"type": "propose", "to": (seat + 1) % n, "give": {}, "take": {}},
        {"type": "propose", "to": (seat + 1) % n, "give": {"cash": 1, "houses": 2}},
        {"type": "propose", "to": (seat + 1) % n, "give": [1], "take": {"squares": [1, 1]}},
        {"type": "propose", "to": (seat + 1) % n, "give": {"cash": -1}, "take": {"cards": "x"}},
        {"type": "propose", "to": (seat + 1) % n, "give": {"squares": [40]}},
        {"type": "propose", "to": seat},
        {"type": "propose", "to": "bob"},
        {"type": "accept", "trade": trade + 5},
        {"type": "build", "square": 40},
        {"type": "build", "square": "x"},
        {"type": "fly"},
    ]
    if seat not in waiting_on(state):
        moves.append({"type": "timeout"})  # (a timeout would count as a missed decision)
    return [dict(m, player=seat) for m in moves]


def _advance(state, rng: random.Random) -> bool:
    """One legal move of a player the game waits on (no trades, no surrender)."""
    for seat in waiting_on(state):
        moves = [a for a in legal_actions(state, seat) if a["type"] not in ("propose", "surrender", "max_bid")]
        if not moves:
            continue
        move = dict(rng.choice(moves))
        if move["type"] == "bid":
            move["amount"] = move.pop("min")
            move.pop("max", None)
        if move["type"] == "casino":
            move["numbers"] = [rng.randint(1, 6)]
        apply(state, move, events=False)
        return True
    return False


def _refused(found: dict[str, str], how: str, call: partial) -> None:
    """Make the call, noting the engine's refusal if it refuses."""
    try:
        call()
    except (IllegalAction, InvalidRules) as e:
        found.setdefault(str(e), how)


def real_refusals() -> dict[str, str]:
    """The refusals the engine gives in games of every preset: message -> what was refused."""
    found: dict[str, str] = {}
    rng = random.Random(20240601)
    for preset in PRESET_NAMES:
        rules = RuleSet.build(preset)
        seats = 4 if rules.teams else max(rules.seats[0], 3)
        names = ["Ana María", "O'Brien", "Bob", "Zoë"][:seats]
        state, _events = new_game(rules, names, seed=rng.randrange(10**6))
        for _step in range(120):
            for seat in range(seats):
                for move in _probes(state, seat, rng):
                    # A refused move leaves the state as it was; an accepted one is a move.
                    try:
                        apply(state, move, events=False)
                    except IllegalAction as e:
                        found.setdefault(str(e), f"{preset}: {move}")
                    if state.over:
                        break
            if state.over or not _advance(state, rng):
                break
        # The engine's other refusals: malformed actions, the play clock, a game that cannot
        # start.
        for call in (
            partial(apply, state, "roll"),
            partial(apply, state, {"type": "roll", "player": 9}),
            partial(set_clock, state, -1),
            partial(new_game, rules, ["Ana"], seed=1),
            partial(new_game, rules, names[:1] * seats, seed=1),
            partial(new_game, rules, names, seed=1, teams=[[0, 1]]),
            partial(new_game, rules, names, seed=1, teams=[[0, 1], [2, 3]]),
        ):
            _refused(found, f"{preset}: {call.func.__name__}", call)
    for options in (
        {"houses_before_hotel": 5}, {"start_cash": -1}, {"start_cash": "x"},
        {"even_building": "yes"}, {"auction_style": "dutch"}, {"sell_back": 2},
        {"auction_opening": "half"}, {"seats": "x-y"}, {"seats": [1, 9]}, {"seats": "abc"},
        {"nonsense": 1}, {"casino": True}, {"deck": "world"}, {"teams": True},
        {"trade_mortgaged": "teammates"}, {"speed_die_from_round": 1.5}, [1],
    ):
        _refused(found, f"classic: {options}", partial(RuleSet.build, "classic", options))
    _refused(found, "an unknown preset", partial(RuleSet.build, "monopoly"))
    return found


def test_every_refusal_of_real_games_is_recognised_and_translated():
    found = real_refusals()
    unknown = sorted(f"{message!r} ({how})" for message, how in found.items()
                     if match_refusal(message) is None)
    entries = {match_refusal(message)[0].english for message in found if match_refusal(message)}

    assert unknown == []
    # The probes reach most kinds of refusal, not a handful.
    assert len(entries) > 70, sorted(entries)
    for language in LANGUAGES:
        with translation.override(language):
            same = [m for m in found if translate_refusal(m) == m]
        assert same == [], language


# ---------------------------------------------------------------------------------------------
# The site: the game page, the move endpoint, the table form and the replay upload
# ---------------------------------------------------------------------------------------------


def _speaks(user, language: str) -> None:
    user.language = language
    user.save(update_fields=["language"])


def _seats(game):
    by_seat = {s.position: s.user for s in game.table.seats.select_related("user")}
    mover = by_seat[game.current_seat]
    return mover, next(u for u in by_seat.values() if u.pk != mover.pk)


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob)


def act(client, game, *, headers=None, **fields):
    data = {"version": game.version, **fields}
    return client.post(reverse("games:game_act", args=[game.pk]), data, **(headers or {}))


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "refused", "turn"), [
    ("es", "Rechazado", "es el turno de {name}"),
    ("ca", "Rebutjat", "ara li toca a {name}"),
])
def test_an_out_of_turn_move_is_refused_in_the_players_language(
        client, game, language, refused, turn):
    mover, waiter = _seats(game)
    _speaks(waiter, language)
    client.force_login(waiter)

    response = act(client, game, type="roll", headers=HTMX)

    assert response.status_code == 400
    html = response.content.decode()
    assert f"{refused}: {turn.format(name=mover.display_name)}." in html
    assert "s turn" not in html


@pytest.mark.django_db
def test_a_build_the_rules_refuse_is_explained_in_spanish(client, game):
    mover, _waiter = _seats(game)
    _speaks(mover, "es")
    client.force_login(mover)

    boardwalk = act(client, game, type="build", square="39", headers=HTMX).content.decode()
    railroad = act(client, game, type="build", square="5", headers=HTMX).content.decode()

    # Square names stay the board's, as the page and the log show them.
    assert "Rechazado: no eres propietario de Boardwalk." in boardwalk
    assert "you do not own" not in boardwalk
    assert "Rechazado: en Reading Railroad no se puede construir." in railroad
    assert "cannot take buildings" not in railroad


@pytest.mark.django_db
def test_without_javascript_the_refusal_is_flashed_in_catalan(client, game):
    mover, waiter = _seats(game)
    _speaks(waiter, "ca")
    client.force_login(waiter)

    response = act(client, game, type="end_turn")
    page = client.get(response["Location"]).content.decode()

    assert response.status_code == 302
    assert f"Rebutjat: ara li toca a {mover.display_name}." in page
    assert "s turn" not in page


@pytest.mark.django_db
def test_programs_keep_the_english_error_and_get_the_translation_beside_it(client, game):
    mover, waiter = _seats(game)
    _speaks(waiter, "es")
    client.force_login(waiter)

    response = act(client, game, type="roll", headers={"HTTP_ACCEPT": "application/json"})

    assert response.status_code == 400
    assert response.json() == {
        "error": f"Refused: it is {mover.display_name}'s turn.",
        "message": f"Rechazado: es el turno de {mover.display_name}.",
    }


@pytest.mark.django_db
def test_an_english_program_gets_the_same_error_as_before(client, game):
    mover, waiter = _seats(game)
    client.force_login(waiter)

    response = act(client, game, type="roll", headers={"HTTP_ACCEPT": "application/json"})

    body = response.json()
    assert body["error"] == body["message"] == f"Refused: it is {mover.display_name}'s turn."


@pytest.mark.django_db
def test_the_custom_table_form_shows_the_rule_sets_refusal_in_spanish(client, alice):
    _speaks(alice, "es")
    client.force_login(alice)

    response = client.post(reverse("games:table_create"), {
        "preset": "classic", "pace": "live", "houses_before_hotel": "5", "start_cash": "-5",
    })

    errors = response.context["form"].errors
    assert errors["houses_before_hotel"] == [
        "opción 'houses_before_hotel': en un título caben como máximo 4 casas"
    ]
    assert errors["start_cash"] == ["opción 'start_cash': debe ser como mínimo 0 y es -5"]


def test_a_refused_record_names_the_engines_reason_in_catalan():
    record = {"format": RECORD_FORMAT, "rules": RuleSet.build("classic").to_json(),
              "names": ["Ana", "Bob"], "seed": 7, "teams": None,
              "actions": [{"type": "build", "player": 0, "square": 39}]}

    with translation.override("ca"), pytest.raises(RecordError) as refused:
        checkpoints(parse_record(json.dumps(record).encode()))

    assert "no tens Boardwalk" in str(refused.value)


@pytest.mark.django_db
def test_a_trade_beyond_ones_cash_is_refused_with_the_currency_sign(client, game):
    mover, _waiter = _seats(game)
    client.force_login(mover)
    seat = game.table.seats.get(user=mover).position
    cash = game.state["players"][seat]["cash"]

    response = act(client, game, type="propose", to=str(1 - seat), give_cash=str(cash + 1),
                   headers=HTMX)

    assert response.status_code == 400
    assert f"Refused: {mover.display_name} has only ${cash:,} in cash." in response.content.decode()
