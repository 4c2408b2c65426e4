"""Cheap moves (issue 12): the page's own move answer holds only what the move changed, as htmx
partials (games/views/page/parts.py), and HTML answers are compressed."""

from __future__ import annotations

import gzip
import json
import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.engine import GameState, legal_actions
from games.models import Game
from games.views.page.decision import choices_for
from tests.games.parts_helpers import marks_of, parts_headers
from tests.games.play_helpers import autoplay, choose, next_move, start_game, users_by_seat

pytestmark = pytest.mark.django_db
# Each out-of-band swap: (target, swap style), as htmx 2 reads hx-swap-oob: "true" swaps the
# element in place of the one with its id; a style alone applies to the element with its id; a
# style and a selector, to what the selector matches.
TAG = re.compile(r"<[a-z]+\b([^>]*)>")


def _targets(html: str) -> list[tuple[str, str]]:
    out = []
    for attrs in TAG.findall(html):
        oob = re.search(r'hx-swap-oob="([^"]+)"', attrs)
        if oob is None:
            continue
        value, element = oob.group(1), re.search(r'\bid="([^"]+)"', attrs)
        if ":" in value:
            style, _, target = value.partition(":")
            out.append((target, style))
        else:
            out.append((f"#{element.group(1)}", "outerHTML" if value == "true" else value))
    return out


def _login_mover(client, game: Game) -> None:
    client.force_login(users_by_seat(game)[next_move(game)[0]])


def _parts(client, game: Game) -> dict[str, str]:
    """The page's script's headers, with the marks of the page the (signed-in) player sees."""
    return parts_headers(client.get(reverse("games:game", args=[game.pk]), HTTP_HX_REQUEST="true").content.decode())


def _post_move(client, game: Game, **headers):
    _seat, move = next_move(game)
    fields = {"version": game.version, **{k: v for k, v in move.items() if k != "player"}}
    return client.post(reverse("games:game_act", args=[game.pk]), fields, **headers)


def test_a_roll_answers_with_the_changed_parts_only(client, alice, bob):
    game = start_game(alice, bob)
    before = GameState.from_json(game.state)
    mover = before.current
    _login_mover(client, game)
    full = client.get(reverse("games:game", args=[game.pk]), HTTP_HX_REQUEST="true").content

    response = _post_move(client, game, **_parts(client, game))

    assert response.status_code == 200
    html = response.content.decode()
    targets = _targets(html)
    # Everything is a partial: no #game, nothing for htmx's own swap.
    assert 'id="game"' not in html and response["HX-Reswap"] == "none"
    assert html.count("hx-swap-oob=") == len(targets)
    after = GameState.from_json(Game.objects.get(pk=game.pk).state)
    moved = json.loads(response["HX-Trigger"])["game:moved"]
    # The new version, and the marks of the page as it is now (what the next request sends).
    assert moved["version"] == game.version + 1
    game.refresh_from_db()
    assert moved["marks"] == marks_of(client.get(reverse("games:game", args=[game.pk]), HTTP_HX_REQUEST="true")
                                      .content.decode())
    squares = {t for t, _swap in targets if t.startswith("#sq-")}
    # The token left its square and arrived on another: those two squares (more only if the
    # landing square is offered to buy, or the pool changed), never the whole board.
    start, end = before.players[mover].pos, after.players[mover].pos
    assert f"#sq-{start}" in squares and f"#sq-{end}" in squares
    assert len(squares) <= 4
    assert html.count('class="sq ') == len(squares)
    assert ("#decision", "outerHTML") in targets
    assert ("#log-list", "afterbegin") in targets
    # The mover's card (position, maybe cash) changed; the other player's did not.
    cards = [t for t, _swap in targets if t.startswith("#player-")]
    assert cards == [f"#player-{mover}"]
    assert len(response.content) * 3 < len(full)


def test_without_the_page_script_the_move_answers_with_the_whole_fragment(client, alice, bob):
    game = start_game(alice, bob)
    _login_mover(client, game)

    response = _post_move(client, game, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert html.lstrip().startswith('<div id="game"') and "hx-swap-oob" not in html


def test_a_move_that_ends_the_game_answers_with_the_whole_fragment(client, alice, bob):
    game = start_game(alice, bob)
    seat = game.waiting_seats[0]
    client.force_login(users_by_seat(game)[seat])

    response = client.post(reverse("games:game_act", args=[game.pk]),
                           {"version": game.version, "type": "surrender", "confirm": "yes"}, **_parts(client, game))

    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="game"' in html and "game-over-banner" in html and "hx-swap-oob" not in html


def test_the_log_keeps_its_first_page_after_a_move(client, alice, bob):
    game = autoplay(start_game(alice, bob), 30)
    assert game.state["seq"] + 1 > 20  # the page shows 20 entries and "Older moves"
    _login_mover(client, game)

    response = _post_move(client, game, **_parts(client, game))

    targets = _targets(response.content.decode())
    added = Game.objects.get(pk=game.pk).state["seq"] - game.state["seq"]
    assert added >= 1
    assert ("#log-list", "afterbegin") in targets
    # The entries pushed past the first page go (by their ids), with any older ones the player
    # fetched, and the link to older ones comes back below the first page.
    first = game.state["seq"] - 19  # (the oldest entry the page showed)
    gone = {(f"#log-{seq}", "delete") for seq in range(first, first + added)}
    assert gone <= set(targets)
    assert ("#log-list .log-older, #log-more", "delete") in targets
    assert ("#log-list", "beforeend") in targets


def test_a_refused_move_still_answers_with_the_whole_fragment(client, alice, bob):
    game = start_game(alice, bob)
    seat, _move = next_move(game)
    client.force_login(users_by_seat(game)[seat])

    response = client.post(reverse("games:game_act", args=[game.pk]),
                           {"version": game.version - 1, "type": "roll"}, **_parts(client, game))

    assert response.status_code == 409
    assert 'id="game"' in response.content.decode()


def test_a_cheap_move_reads_no_more_than_the_full_answer(client, alice, bob):
    game = start_game(alice, bob)
    _login_mover(client, game)
    headers = _parts(client, game)
    with CaptureQueriesContext(connection) as cheap:
        assert _post_move(client, game, **headers).status_code == 200
    game = Game.objects.get(pk=game.pk)
    _login_mover(client, game)
    with CaptureQueriesContext(connection) as full:
        assert _post_move(client, game, HTTP_HX_REQUEST="true").status_code == 200

    assert len(cheap.captured_queries) <= len(full.captured_queries)


def test_html_answers_are_gzipped_and_event_streams_are_not(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)

    response = client.get(reverse("games:game", args=[game.pk]), HTTP_ACCEPT_ENCODING="gzip, br")

    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    html = gzip.decompress(response.content).decode()
    assert 'id="game"' in html
    # The CSRF token in the forms differs in every answer (masked anew): BREACH learns nothing.
    again = gzip.decompress(client.get(reverse("games:game", args=[game.pk]),
                                       HTTP_ACCEPT_ENCODING="gzip").content).decode()
    token = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
    assert token.search(html).group(1) != token.search(again).group(1)


# ---------------------------------------------------------------------------------------------
# The parts are what changed: held to the markup itself
# ---------------------------------------------------------------------------------------------

# A square, a player's card; in a move's answer with hx-swap-oob after the id, which ends the tag.
SQUARE = re.compile(r'<li class="sq .*?</li>', re.S)
CARD = re.compile(r'<article class="player.*?</article>', re.S)
OOB = re.compile(r' hx-swap-oob="true"')
ID = re.compile(r' id="((?:sq|player)-\d+)"')
ENTRY = re.compile(r'<li class="log-entry".*?</li>', re.S)
MORE = re.compile(r'<li class="log-more" id="log-more"(?: hx-swap-oob="true")?>.*?</li>', re.S)
MANAGE = ("build", "mortgage", "unmortgage", "sell")


def _pick(state: GameState, seat: int, rng: random.Random) -> dict | None:
    """The simple player's move, or now and then a build or a mortgage: squares change owner,
    houses, mortgage and rent along the way."""
    legal = [a for a in legal_actions(state, seat) if a["type"] in MANAGE]
    if legal and rng.random() < 0.5:
        return {k: v for k, v in rng.choice(legal).items() if k not in ("player", "min", "max")}
    return choose(state, seat)


def _fields(move: dict) -> dict:
    return {k: v for k, v in move.items() if not isinstance(v, (dict, list))}


@pytest.mark.parametrize("preset", ["classic", "world-quick"])
def test_a_moves_parts_hold_every_square_and_card_whose_markup_changed(client, alice, bob, preset):
    """Over a game's moves, the mover's page before and after each move (the whole fragment,
    as a full render draws it): every square and player card whose markup differs is in the
    move's answer, drawn exactly as the full render draws it now. (parts.py compares the
    views, reduced to what the markup shows of them: this holds that reduction to the markup.)"""
    rng = random.Random(preset)
    game = start_game(alice, bob, preset=preset)
    users = users_by_seat(game)
    url = reverse("games:game", args=[game.pk])
    checked = 0
    for _ in range(70):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = GameState.from_json(game.state)
        seat = game.waiting_seats[0]
        move = _pick(state, seat, rng)
        assert move is not None
        client.force_login(users[seat])
        before = client.get(url, HTTP_HX_REQUEST="true").content.decode()

        answer = client.post(reverse("games:game_act", args=[game.pk]), {"version": game.version, **_fields(move)},
                             **parts_headers(before))

        assert answer.status_code == 200, answer.content[:300]
        html = answer.content.decode()
        if 'id="game"' in html:
            break  # the game ended: the whole fragment went
        after = client.get(url, HTTP_HX_REQUEST="true").content.decode()
        for pattern in (SQUARE, CARD):
            old, new = pattern.findall(before), pattern.findall(after)
            sent = {}
            for part in pattern.findall(html):
                assert OOB.search(part), part[:80]
                sent[ID.search(part).group(1)] = OOB.sub("", part, count=1)
            drawn = {ID.search(b).group(1): b for b in new}
            changed = {ID.search(b).group(1) for a, b in zip(old, new, strict=True) if a != b}
            assert changed <= set(sent), (move, changed - set(sent))
            for where, part in sent.items():
                assert part == drawn[where], (move, where)
        # The log: the entries the move wrote on top, as the full render draws its first ones,
        # and the link to older entries pointing where the full render's does.
        added = ENTRY.findall(html)
        assert added and added == ENTRY.findall(after)[: len(added)], move
        if MORE.search(html):
            assert [OOB.sub("", m, count=1) for m in MORE.findall(html)] == MORE.findall(after), move
        checked += 1
    assert checked >= 40


def _builder_of(html: str) -> dict | None:
    """The trade builder's drawn version, whether it is open, and the give-cash field's max."""
    found = re.search(r'<details class="panel trade-builder" id="trade"[^>]*>', html)
    if found is None:
        return None
    tag = found.group(0)
    cash = re.search(r'id="give-cash" name="give_cash" min="0" max="(\d+)"', html)
    return {"version": int(re.search(r'data-version="(\d+)"', tag).group(1)), "open": " open" in tag,
            "cash_max": int(cash.group(1)) if cash else None,
            "refresh": re.search(r'data-refresh="([^"]+)"', tag).group(1).replace("&amp;", "&")}


def test_the_trade_builder_is_not_redrawn_for_its_contents_but_drawn_afresh_when_opened(client, alice, bob):
    """A move that changes the mover's cash leaves the (closed) builder as it was drawn; opened,
    the page's script fetches the tools slot alone, from the builder's data-refresh address, and
    gets it open, with the cash as it is now."""
    game = start_game(alice, bob)
    page_url = reverse("games:game", args=[game.pk])
    for _ in range(80):
        game.refresh_from_db()
        mover = next_move(game)[0]
        client.force_login(users_by_seat(game)[mover])
        before = _builder_of(client.get(page_url, HTTP_HX_REQUEST="true").content.decode())
        old = GameState.from_json(game.state)
        response = _post_move(client, game, **_parts(client, game))
        assert response.status_code == 200
        game.refresh_from_db()
        state = GameState.from_json(game.state)
        after = _builder_of(client.get(page_url, HTTP_HX_REQUEST="true").content.decode())
        # (The same debt and manage panel: what else the tools slot shows did not change.)
        same_tools = [(c.debt, c.manage) for c in (choices_for(old, mover), choices_for(state, mover))]
        if (before and after and next_move(game)[0] == mover and state.players[mover].cash != old.players[mover].cash
                and same_tools[0] == same_tools[1]):
            cash = old.players[mover].cash
            break
    else:
        raise AssertionError("no move changed the cash of a player who could trade before and after it")

    assert "#game-tools" not in dict(_targets(response.content.decode()))
    assert before["cash_max"] == cash and after["cash_max"] == state.players[mover].cash
    assert before["version"] == game.version - 1 and not before["open"]
    fresh = client.get(before["refresh"], HTTP_HX_REQUEST="true")
    assert fresh.status_code == 200
    html = fresh.content.decode()
    assert 'id="game"' not in html and 'class="centre' not in html
    drawn = _builder_of(html)
    assert drawn == {**after, "open": True}
    # Without htmx (no script), the address is the page with the builder open.
    plain = client.get(before["refresh"])
    assert plain.status_code == 200 and _builder_of(plain.content.decode())["open"]


def test_a_move_from_a_page_that_missed_moves_gets_every_part_it_lacks(client, alice, bob):
    """Marks older than the move's version (a program that read the version elsewhere): the
    answer still holds every part that differs from what that page shows, the log entries it
    missed too, and applied to it gives the fresh page."""
    from tests.games.parts_helpers import apply_parts, canonical, differences, game_of, parse

    game = start_game(alice, bob)
    mover = next_move(game)[0]
    client.force_login(users_by_seat(game)[mover])
    url = reverse("games:game", args=[game.pk])
    page = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    # The other player plays their turn; the first player's page hears nothing of it.
    for _ in range(60):
        game = autoplay(game, 1)
        if next_move(game)[0] == mover and game.state["current"] == mover and game.state["seq"] > 8:
            break
    assert next_move(game)[0] == mover

    response = _post_move(client, game, **parts_headers(page))

    html = response.content.decode()
    assert response.status_code == 200 and response["HX-Reswap"] == "none", html[:200]
    fresh = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    applied, want = canonical(game_of(apply_parts(page, html))), canonical(game_of(parse(fresh)))
    assert applied == want, differences(applied, want)



def test_the_position_a_move_wrote_shows_as_the_position_read_again(rf, alice, bob):
    """A move's answer shows the position the service wrote (context.game_page's ``written``), not
    a copy read again from the row: the same marks and markup, each player under their current
    display name."""
    from django_htmx.middleware import HtmxDetails

    from games import services
    from games.views.page import parts
    from games.views.page.context import game_page

    game = start_game(alice, bob)
    seat, move = next_move(game)
    user = users_by_seat(game)[seat]
    for person in (alice, bob):
        person.display_name = f"{person.username.title()} Renamed"
        person.save(update_fields=["display_name"])
    sub = services.game_submit_action(game=game, user=user, action=move, expected_version=game.version)
    request = rf.get("/", HTTP_HX_REQUEST="true")
    request.user, request.htmx = user, HtmxDetails(request)
    me = next(s for s in sub.seats if s.user_id == user.pk)

    read = game_page(request, sub.game, sub.seats, me, parts=True)
    shown = game_page(request, sub.game, sub.seats, me, parts=True, written=sub.state)

    assert shown.marks == read.marks
    # (Each page masks the CSRF token afresh: one field for both.)
    shown.csrf_input = read.csrf_input
    assert parts.part_html(parts.CENTRE, shown) == parts.part_html(parts.CENTRE, read)
    def cards(page):
        return "".join(parts.part_html(part, page, p=p) for part, p in zip(parts.PLAYERS, page.players, strict=False))

    assert cards(shown) == cards(read)
    assert "Alice Renamed" in cards(shown) and "Bob Renamed" in cards(shown)
