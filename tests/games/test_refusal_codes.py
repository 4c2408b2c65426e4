"""The engine's refusals: a stable code with its parameters, worded in the reader's language.

The engine raises ``IllegalAction``/``InvalidRules`` carrying a ``Refusal`` (games/engine/
refusals.py: ``code``, ``params`` and the marked English message of each code); the site words it
through the catalogs (games/errors.py), the move endpoint gives programs the code and params.
These tests keep that whole: every code the engine's source raises has a message, every message
is translated in Spanish and Catalan (no fuzzy, no empty, not the English), the refusals real games
produce all speak both languages, and the pages, the move endpoint, the table form and the replay
upload show them translated, amounts with the currency sign.
"""

from __future__ import annotations

import ast
import json
import random
import string
from functools import partial
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games.engine import (
    PRESET_NAMES,
    REFUSAL_MESSAGES,
    IllegalAction,
    InvalidRules,
    Refusal,
    RuleSet,
    apply,
    legal_actions,
    new_game,
    refusal_text,
    set_clock,
    waiting_on,
)
from games.errors import SiteRefusal, translate_refusal
from games.records import RECORD_FORMAT, RecordError, checkpoints, parse_record
from tests.games.play_helpers import start_game
from tests.games.test_i18n import LOCALE_DIR, read_po

ROOT = Path(settings.BASE_DIR)
ENGINE = ROOT / "games" / "engine"
LANGUAGES = ["es", "ca"]
HTMX = {"HTTP_HX_REQUEST": "true"}
JSON = {"HTTP_ACCEPT": "application/json"}
# Catalog entries whose translation may read exactly like the English (none so far: a word the
# languages share, "casino" say, would go here rather than loosen the check).
SAME_WORDS: frozenset[str] = frozenset()


# ---------------------------------------------------------------------------------------------
# The engine's source: every code it raises has a message
# ---------------------------------------------------------------------------------------------


def _codes(node: ast.expr, where: str) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _codes(node.body, where) + _codes(node.orelse, where)
    if isinstance(node, ast.Name):
        return []  # a Refusal made elsewhere (``err``), itself scanned
    raise AssertionError(f"{where}: cannot read the code of {ast.unparse(node)!r}")


def engine_codes() -> dict[str, str]:
    """Every code in the engine's source (``Refusal(...)``, ``IllegalAction(...)``,
    ``InvalidRules(...)``): code -> where."""
    found: dict[str, str] = {}
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args:
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                if name in ("Refusal", "IllegalAction", "InvalidRules"):
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    for code in _codes(node.args[0], where):
                        found.setdefault(code, where)
    return found


def test_every_code_the_engine_raises_has_a_message():
    codes = engine_codes()

    assert len(codes) > 100  # the scan reads the engine, not nothing
    assert sorted(f"{where}: {code}" for code, where in codes.items() if code not in REFUSAL_MESSAGES) == []
    # and no message is left without a code that raises it
    assert sorted(set(REFUSAL_MESSAGES) - set(codes)) == []


def test_codes_are_short_snake_case():
    for code in REFUSAL_MESSAGES:
        assert code.isidentifier() and code == code.lower() and len(code) <= 32, code


def test_str_is_the_english_the_engine_always_gave():
    assert str(IllegalAction("not_your_turn", player="Ana")) == "it is Ana's turn"
    assert str(Refusal("bid_above_cash", amount=2000, cash=1500)) == "a bid of 2000 is above your cash (1500)"
    assert str(Refusal("decision_pending", decision="mortgage_transfer")) == (
        "the game is waiting for a mortgage transfer decision first")
    nested = Refusal("trade_no_longer_possible", reason=Refusal("trade_cash_short", player="Bob", cash=7))
    assert str(nested) == "the trade is no longer possible: Bob has only 7 in cash"
    assert str(Refusal("build_limit", n=1)) == "only 1 build per group per turn"
    assert str(Refusal("build_limit", n=2)) == "only 2 builds per group per turn"


def test_a_refusal_carries_its_code_and_params_as_json():
    e = IllegalAction("trade_no_longer_possible", reason=Refusal("not_owner", square="Boardwalk"))

    assert e.code == "trade_no_longer_possible"
    assert e.refusal.as_json() == {"code": "trade_no_longer_possible",
                                   "params": {"reason": {"code": "not_owner",
                                                         "params": {"square": "Boardwalk"}}}}
    json.dumps(e.refusal.as_json())


# ---------------------------------------------------------------------------------------------
# The catalogs: every message in Spanish and Catalan
# ---------------------------------------------------------------------------------------------


def _catalog(language: str) -> dict[tuple[str | None, str], dict]:
    return {(m["msgctxt"], m["msgid"]): m
            for m in read_po(LOCALE_DIR / language / "LC_MESSAGES" / "django.po")[1:]}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_code_has_its_translation(language):
    catalog = _catalog(language)

    for code, message in REFUSAL_MESSAGES.items():
        msgid = message if isinstance(message, str) else message.singular
        entry = catalog.get((None, msgid))
        assert entry is not None, (code, msgid)
        if not isinstance(message, str):
            assert entry["msgid_plural"] == message.plural, code
        assert all(form.strip() for form in entry["msgstr"]), code
        assert "fuzzy" not in entry["flags"], code
        assert entry["msgstr"][0] != msgid or msgid in SAME_WORDS, code


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_decision_word_is_translated(language):
    for kind in ("buy", "auction", "building_auction", "debt", "trade_response", "mortgage_transfer",
                 "income_tax", "casino", "bus", "teleport", "destroy"):
        refusal = Refusal("no_such_decision", decision=kind)
        with translation.override(language):
            text = translate_refusal(refusal)
        assert text != str(refusal), (language, kind)


# Parameters of each kind, to word every message.
SAMPLE = {"player": "Ana", "square": "Boardwalk", "decision": "buy", "kind": "'fly'", "key": "'start_cash'",
          "option": "start_cash", "value": "'abc'", "side": "give", "keys": "price", "trade": "7",
          "reason": Refusal("trade_cash_short", player="Bob", cash=7), "choices": "open, rotating",
          "preset": "'monopoly'", "deck": "'world'", "board": "classic", "lo": 2, "hi": 8, "count": 9,
          "minimum": 0, "n": 3, "amount": 2000, "cash": 1500, "cost": 150, "fine": 50, "give": 600,
          "take": 200, "low": 1010, "price": 400, "stake": 100}


def _sample(code: str) -> Refusal:
    message = REFUSAL_MESSAGES[code]
    texts = [message] if isinstance(message, str) else [message.singular, message.plural]
    names = {f for t in texts for _lit, f, _spec, _conv in string.Formatter().parse(t) if f}
    return Refusal(code, **{name: SAMPLE[name] for name in names})


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("code", sorted(REFUSAL_MESSAGES))
def test_each_code_speaks_the_language_and_keeps_the_names(language, code):
    refusal = _sample(code)
    with translation.override(language):
        text = translate_refusal(refusal)

    assert text and text != str(refusal)
    assert "{" not in text and "%(" not in text
    for name in ("player", "square"):
        if name in refusal.params:
            assert refusal.params[name] in text, (name, text)  # names stay the board's and players'


@pytest.mark.parametrize(("language", "refusal", "shown"), [
    ("en", Refusal("trade_cash_short", player="Nora", cash=56), "Nora has only $56 in cash"),
    ("en", Refusal("bid_above_cash", amount=2000, cash=1500), "a bid of $2,000 is above your cash ($1,500)"),
    ("es", Refusal("bid_too_low", low=1010), "ahora la puja mínima es $1\xa0010"),
    ("es", Refusal("bid_above_cash", amount=2000, cash=1500),
     "una puja de $2\xa0000 supera tu dinero ($1\xa0500)"),
    ("ca", Refusal("building_unaffordable", cost=200), "no tens prou diners: un edifici costa $200"),
    ("en", Refusal("trade_no_longer_possible", reason=Refusal("trade_cash_short", player="Bob", cash=7)),
     "the trade is no longer possible: Bob has only $7 in cash"),
    # Counts are no amounts.
    ("en", Refusal("build_limit", n=2), "only 2 builds per group per turn"),
    ("es", Refusal("build_limit", n=1), "solo se permite 1 construcción por grupo y turno"),
    ("es", Refusal("build_limit", n=2), "solo se permiten 2 construcciones por grupo y turno"),
    ("ca", Refusal("trade_cards_short", player="Ana", n=1), "Ana només té 1 carta per sortir de la Presó"),
    ("es", Refusal("trade_no_longer_possible", reason=Refusal("player_not_owner", player="Bob", square="Park Place")),
     "el intercambio ya no es posible: Bob no es propietario de Park Place"),
    ("ca", Refusal("not_your_turn", player="O'Brien (2)"), "ara li toca a O'Brien (2)"),
])
def test_amounts_carry_the_currency_sign_and_numbers_their_forms(language, refusal, shown):
    with translation.override(language):
        assert translate_refusal(refusal) == shown


def test_the_exception_itself_may_be_passed_and_a_renamed_player_shows_the_new_name():
    with translation.override("es"):
        assert translate_refusal(IllegalAction("roll_first")) == "primero tira los dados"
        assert translate_refusal(InvalidRules("unknown_option", key="'x'", option="x")) == "opción desconocida 'x'"
        assert translate_refusal(SiteRefusal(IllegalAction("not_your_turn", player="Ana")),
                                 names={"Ana": "Ana B."}) == "es el turno de Ana B."


def test_a_translation_that_does_not_fit_falls_back_to_english(monkeypatch):
    def broken(message):
        return "{shade} moon" if message == "roll first" else message

    monkeypatch.setattr("games.errors.gettext", broken)

    assert translate_refusal(IllegalAction("roll_first")) == "roll first"


def test_english_without_translation_functions_is_the_plain_sentence():
    assert refusal_text(Refusal("bid_too_low", low=1010)) == "the lowest bid now is 1010"
    assert refusal_text(Refusal("bid_too_low", low=1010), money=lambda n: f"${n:,}") == (
        "the lowest bid now is $1,010")


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


def _refused(found: dict, how: str, call: partial) -> None:
    try:
        call()
    except (IllegalAction, InvalidRules) as e:
        found.setdefault(e.code, (e, how))


def real_refusals() -> dict[str, tuple[Exception, str]]:
    """The refusals the engine gives in games of every preset: code -> (one of them, how)."""
    found: dict[str, tuple[Exception, str]] = {}
    rng = random.Random(20240601)
    for preset in PRESET_NAMES:
        rules = RuleSet.build(preset)
        seats = 4 if rules.teams else max(rules.seats[0], 3)
        names = ["Ana María", "O'Brien", "Bob", "Zoë"][:seats]
        state, _events = new_game(rules, names, seed=rng.randrange(10**6))
        for _step in range(120):
            for seat in range(seats):
                for move in _probes(state, seat, rng):
                    _refused(found, f"{preset}: {move}", partial(apply, state, move, events=False))
                    if state.over:
                        break
            if state.over or not _advance(state, rng):
                break
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


def test_every_refusal_of_real_games_has_a_code_and_speaks_both_languages():
    found = real_refusals()

    assert len(found) > 70, sorted(found)  # the probes reach most kinds of refusal
    for code, (error, how) in found.items():
        assert code in REFUSAL_MESSAGES, how
        assert str(error) == str(error.refusal)
        json.dumps(error.refusal.as_json())
        for language in LANGUAGES:
            with translation.override(language):
                assert translate_refusal(error) != str(error), (language, code, how)


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
def test_an_out_of_turn_move_is_refused_in_the_players_language(client, game, language, refused, turn):
    mover, waiter = _seats(game)
    _speaks(waiter, language)
    client.force_login(waiter)

    response = act(client, game, type="roll", headers=HTMX)

    assert response.status_code == 400
    html = response.content.decode()
    assert f"{refused}: {turn.format(name='<bdi>' + mover.display_name + '</bdi>')}." in html
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
def test_programs_get_the_code_and_params_the_english_and_the_translation(client, game):
    mover, waiter = _seats(game)
    _speaks(waiter, "es")
    client.force_login(waiter)

    response = act(client, game, type="roll", headers=JSON)

    assert response.status_code == 400
    assert response.json() == {
        "error": f"Refused: it is {mover.display_name}'s turn.",
        "message": f"Rechazado: es el turno de {mover.display_name}.",
        "code": "not_your_turn",
        "params": {"player": mover.display_name},
    }


@pytest.mark.django_db
def test_a_refused_amount_reaches_programs_as_a_number(client, game):
    mover, _waiter = _seats(game)
    _speaks(mover, "es")
    client.force_login(mover)
    seat = game.table.seats.get(user=mover).position
    cash = game.state["players"][seat]["cash"]

    response = act(client, game, type="propose", to=str(1 - seat), give_cash=str(cash + 1), headers=JSON)

    body = response.json()
    assert response.status_code == 400
    assert body["code"] == "trade_cash_short"
    assert body["params"] == {"player": mover.display_name, "cash": cash}
    # (Amounts in the reader's digit grouping: a no-break space in Spanish.)
    assert body["message"] == f"Rechazado: {mover.display_name} solo tiene ${cash:,} de dinero.".replace(",", "\xa0")


@pytest.mark.django_db
def test_the_site_s_own_refusals_carry_no_engine_code(client, game):
    _mover, waiter = _seats(game)
    client.force_login(waiter)

    response = act(client, game, version=game.version, type="timeout", headers=JSON)

    assert response.status_code == 400
    assert "code" not in response.json()


@pytest.mark.django_db
def test_an_english_program_gets_the_same_error_as_before(client, game):
    mover, waiter = _seats(game)
    client.force_login(waiter)

    response = act(client, game, type="roll", headers=JSON)

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

    response = act(client, game, type="propose", to=str(1 - seat), give_cash=str(cash + 1), headers=HTMX)

    assert response.status_code == 400
    assert f"Refused: <bdi>{mover.display_name}</bdi> has only ${cash:,} in cash." in response.content.decode()
