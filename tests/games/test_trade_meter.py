"""The trade meter (issue 30, games/meter.py): the table option ``advisor`` (off by default,
refused on tables that may be rated), each side's win chance without and with a trade for the
two players of the trade (the proposer in the builder, the receiver when answering: the same
estimate), never for spectators or the other players, computed by the task from the public
position only."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import meter, services
from games.engine import MIN_PLAYOUTS, GameState, public_position
from games.errors import GameError
from games.forms import TableForm
from games.models import Game, GameAction, TradeMeter
from tests.games.play_helpers import cheapest_deed, play_until, start_game, users_by_seat

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def small_meter(monkeypatch):
    """A few playouts, no stopping rule: the tests check what is shown, not the estimate."""
    monkeypatch.setattr(meter, "METER_PLAYOUTS", 24)
    monkeypatch.setattr(meter, "METER_TARGET", None)


def _form(**fields):
    data = {"preset": "classic", "pace": "correspondence", "turn_hours": "24", **fields}
    return TableForm(data)


# ---------------------------------------------------------------------------------------------
# The option
# ---------------------------------------------------------------------------------------------


def test_the_meter_is_off_by_default(alice):
    table = services.table_create(host=alice, name="t", preset="classic-short")
    assert table.advisor is False
    assert not meter.meter_on(table)


def test_the_form_refuses_the_meter_on_a_table_that_may_be_rated():
    form = _form(advisor="on")
    assert not form.is_valid()
    assert "only for unrated tables" in " ".join(form.errors["advisor"])
    form = _form(preset="world-classic", advisor="on")
    assert not form.is_valid() and "advisor" in form.errors


def test_the_form_takes_the_meter_on_an_unrated_preset_or_a_custom_table():
    form = _form(preset="classic-short", advisor="on")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["advisor"] is True
    form = _form(advisor="on", start_cash="2000")  # a custom rule: never rated
    assert form.is_valid(), form.errors
    form = _form()
    assert form.is_valid() and form.cleaned_data["advisor"] is False


def test_the_service_refuses_a_forged_option(alice):
    with pytest.raises(GameError, match="only for unrated tables"):
        services.table_create(host=alice, name="t", preset="classic", advisor=True)
    with pytest.raises(GameError, match="on or off"):
        services.table_create(host=alice, name="t", preset="classic-short", advisor="yes")
    table = services.table_create(host=alice, name="t", preset="classic", options={"start_cash": 2000},
                                  advisor=True)
    assert meter.meter_on(table)


def test_the_create_page_saves_the_option(client, alice):
    client.force_login(alice)
    response = client.post(reverse("games:table_create"), {"preset": "classic-short", "pace": "live",
                                                            "advisor": "on"})
    assert response.status_code == 302
    assert alice.hosted_tables.get().advisor is True
    response = client.post(reverse("games:table_create"), {"preset": "classic", "pace": "live", "advisor": "on"})
    assert response.status_code == 200 and "only for unrated tables" in response.content.decode()
    assert alice.hosted_tables.count() == 1


def test_the_table_page_and_the_lobby_say_the_table_has_the_meter(client, alice):
    table = services.table_create(host=alice, name="Meter table", preset="classic-short", advisor=True)
    plain = services.table_create(host=alice, name="Plain table", preset="classic-short")
    client.force_login(alice)
    assert "trade meter" in client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "trade meter" not in client.get(reverse("games:table", args=[plain.pk])).content.decode()
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert lobby.count('class="badge badge-meter"') == 1


def test_a_table_made_rated_by_hand_shows_no_meter(alice):
    table = services.table_create(host=alice, name="t", preset="classic-short", advisor=True)
    table.preset = "classic"  # (a row changed by hand: still never on a rated table)
    assert not meter.meter_on(table)


# ---------------------------------------------------------------------------------------------
# The meter in a game
# ---------------------------------------------------------------------------------------------


def _meter_game(*users):
    game = start_game(*users, preset="classic-short")  # (two deeds dealt to each player)
    table = game.table
    table.advisor = True
    table.save(update_fields=["advisor"])

    def ready(state):
        return state.pending() == "roll" and all(cheapest_deed(state, p) is not None for p in range(len(users)))

    return play_until(game, ready)


def _fields(game, me, other, mine, theirs):
    return {"version": game.version, "type": "propose", "to": other, "give_cash": 0, "give_squares": [mine],
            "take_cash": 0, "take_squares": [theirs]}


def test_both_sides_of_a_trade_see_the_same_meter_and_nobody_else(client, alice, bob, charlie, small_meter,
                                                                   django_capture_on_commit_callbacks, celery_eager):
    game = _meter_game(alice, bob, charlie)
    state = GameState.from_json(game.state)
    users = users_by_seat(game)
    me = state.current
    other = (me + 1) % 3
    third = (me + 2) % 3
    mine, theirs = cheapest_deed(state, me), cheapest_deed(state, other)
    url = reverse("games:game_trade_meter", args=[game.pk])
    before = (game.version, GameAction.objects.filter(game=game).count())

    # The proposer's game page offers the meter; the builder asks for it.
    client.force_login(users[me])
    assert url in client.get(reverse("games:game", args=[game.pk])).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.get(url, _fields(game, me, other, mine, theirs), **HTMX)
    assert response.status_code == 200
    assert "Simulating" in response.content.decode()  # drawn before the task ran: it polls
    row = TradeMeter.objects.get()
    assert row.status == TradeMeter.Status.DONE and row.asked_by == me
    shown = client.get(url, {"key": row.key}, **HTMX).content.decode()
    names = [p.name for p in state.players]
    assert "Trade meter:" in shown and names[me] in shown and names[other] in shown
    assert names[third] not in shown
    assert "Without the trade" in shown and "With the trade" in shown
    # Asking again (a double click, a second tab) reads the same row: no second estimate.
    with django_capture_on_commit_callbacks(execute=True) as queued:
        client.get(url, _fields(game, me, other, mine, theirs), **HTMX)
    assert TradeMeter.objects.count() == 1 and not queued
    # The meter changed nothing of the game.
    game.refresh_from_db()
    assert (game.version, GameAction.objects.filter(game=game).count()) == before

    # The trade sent: its receiver sees the same estimate beside the offer, without a new one.
    services.game_submit_action(game=game, user=users[me], expected_version=game.version,
                                action={"type": "propose", "to": other, "give": {"squares": [mine]},
                                        "take": {"squares": [theirs]}})
    game.refresh_from_db()
    trade = GameState.from_json(game.state).stack[-1]["trade"]
    client.force_login(users[other])
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert f"{url}?trade={trade}" in page
    with django_capture_on_commit_callbacks(execute=True) as queued:
        answer = client.get(url, {"trade": trade}, **HTMX).content.decode()
    assert TradeMeter.objects.count() == 1 and not queued
    assert _figures(answer) == _figures(shown)
    # The proposer sees it beside the offer too.
    client.force_login(users[me])
    assert _figures(client.get(url, {"trade": trade}, **HTMX).content.decode()) == _figures(shown)

    # The third player and a spectator see neither the meter nor its address.
    client.force_login(users[third])
    assert url not in client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert client.get(url, {"trade": trade}, **HTMX).status_code == 404
    assert client.get(url, {"key": row.key}, **HTMX).status_code == 404
    dave = get_user_model().objects.create_user(username="dave", email="dave@example.com", password="x")
    client.force_login(dave)
    watch = client.get(reverse("games:game", args=[game.pk]))
    assert watch.status_code == 200 and url not in watch.content.decode()
    assert client.get(url, {"trade": trade}, **HTMX).status_code == 404
    assert client.get(url, {"key": row.key}, **HTMX).status_code == 404


def _figures(html: str) -> str:
    start = html.index("<table")
    return html[start:html.index("</table>")]


def test_a_table_without_the_option_has_no_meter(client, alice, bob):
    game = start_game(alice, bob, preset="classic-short")
    url = reverse("games:game_trade_meter", args=[game.pk])
    client.force_login(alice)
    assert url not in client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert client.get(url, {"trade": 1}, **HTMX).status_code == 404
    assert TradeMeter.objects.count() == 0


def test_bad_requests_get_words_and_change_nothing(client, alice, bob, small_meter,
                                                   django_capture_on_commit_callbacks, celery_eager):
    game = _meter_game(alice, bob)
    state = GameState.from_json(game.state)
    users = users_by_seat(game)
    me, other = state.current, 1 - state.current
    mine, theirs = cheapest_deed(state, me), cheapest_deed(state, other)
    url = reverse("games:game_trade_meter", args=[game.pk])
    client.force_login(users[me])
    fields = _fields(game, me, other, mine, theirs)
    bad = client.get(url, {**fields, "give_cash": "lots"}, **HTMX)
    assert bad.status_code == 400 and "whole number" in bad.content.decode()
    forged = client.get(url, {**fields, "give_squares": [theirs]}, **HTMX)  # not mine to give
    assert forged.status_code == 409 and "trade-verdict is-refused" in forged.content.decode()
    empty = client.get(url, {**fields, "give_squares": [], "take_squares": []}, **HTMX)
    assert empty.status_code == 409
    assert client.get(url, {"trade": 99}, **HTMX).status_code == 409  # no such offer waits
    assert client.get(url, {"key": "0" * 64}, **HTMX).status_code == 404
    assert client.get(url, {**fields, "type": "roll"}, **HTMX).status_code == 404
    assert TradeMeter.objects.count() == 0
    # Without JavaScript: the part on a page of its own.
    with django_capture_on_commit_callbacks(execute=True):
        page = client.get(url, fields)
    assert page.status_code == 200 and "<html" in page.content.decode() and "Back to the game" in page.content.decode()


def test_a_newer_meter_drops_the_players_waiting_one(client, alice, bob):
    game = _meter_game(alice, bob)
    state = GameState.from_json(game.state)
    users = users_by_seat(game)
    me, other = state.current, 1 - state.current
    mine, theirs = cheapest_deed(state, me), cheapest_deed(state, other)
    url = reverse("games:game_trade_meter", args=[game.pk])
    client.force_login(users[me])
    client.get(url, _fields(game, me, other, mine, theirs), **HTMX)  # (no worker: stays pending)
    first = TradeMeter.objects.get()
    client.get(url, {**_fields(game, me, other, mine, theirs), "give_cash": 1}, **HTMX)
    second = TradeMeter.objects.get()
    assert second.pk != first.pk and second.status == TradeMeter.Status.PENDING
    assert meter.meter_compute(meter_id=first.pk) is None  # its task finds nothing to do


def test_the_part_shows_the_figures_so_far_then_the_final_ones(client, alice, bob, charlie, monkeypatch):
    """Progress (issue 30): the task writes its figures so far into the row after a batch; the
    part (polled) shows them in words as still being refined and keeps polling; the final
    figures replace them and the polling stops. Still only for the trade's two players."""
    monkeypatch.setattr(meter, "METER_PLAYOUTS", 60)
    monkeypatch.setattr(meter, "METER_TARGET", None)
    monkeypatch.setattr(meter, "METER_BATCH", 20)
    monkeypatch.setattr(meter, "INTERIM_EVERY", 0)
    game = _meter_game(alice, bob, charlie)
    state = GameState.from_json(game.state)
    users = users_by_seat(game)
    me, other, third = state.current, (state.current + 1) % 3, (state.current + 2) % 3
    url = reverse("games:game_trade_meter", args=[game.pk])
    client.force_login(users[me])
    first = client.get(url, _fields(game, me, other, cheapest_deed(state, me), cheapest_deed(state, other)), **HTMX)
    # (No worker here: nothing so far. It asks again sooner before its first figures.)
    assert "Simulating" in first.content.decode() and 'hx-trigger="load delay:750ms"' in first.content.decode()
    row = TradeMeter.objects.get()
    parts = []

    def between_batches(written):
        # Read back from the database while the playouts run (the next batch waits on this).
        stored = TradeMeter.objects.get(pk=row.pk)
        assert stored.status == TradeMeter.Status.PENDING and stored.result == written
        sides = {tuple(s["seats"]) for s in written["sides"]}
        assert sides == {(0,), (1,), (2,)} and written["interim"] is True
        parts.append(client.get(url, {"key": row.key}, **HTMX).content.decode())
        client.force_login(users[third])
        assert client.get(url, {"key": row.key}, **HTMX).status_code == 404  # not in the trade
        client.force_login(users[me])

    done = meter.meter_compute(meter_id=row.pk, on_interim=between_batches)
    assert len(parts) == 2  # after 20 and 40 playouts (60: the final)
    names = [p.name for p in state.players]
    for n, part in zip((20, 40), parts, strict=True):
        assert f"Refining: {n} playouts so far, ±" in part and "Trade meter so far:" in part
        assert names[me] in part and names[other] in part and names[third] not in part
        assert "Without the trade" in part and 'hx-trigger="load delay:1500ms"' in part  # it polls on
        view = meter.meter_view(TradeMeter(key=row.key, position=row.position, status="pending",
                                           result={**done.result, "playouts": n}), names=names)
        assert view["refining"] and view["within"] >= 1
    assert done.status == TradeMeter.Status.DONE and done.result["playouts"] == 60
    assert "interim" not in done.result
    final = client.get(url, {"key": row.key}, **HTMX).content.decode()
    assert "Trade meter:" in final and "Refining" not in final and "so far" not in final
    assert "hx-trigger" not in final  # final: the part stops asking
    assert "from 60 simulated games" in final


def test_interim_writes_are_spaced_and_stop_for_a_dropped_row(alice, bob, monkeypatch):
    monkeypatch.setattr(meter, "METER_PLAYOUTS", 60)
    monkeypatch.setattr(meter, "METER_TARGET", None)
    monkeypatch.setattr(meter, "METER_BATCH", 10)
    game = _meter_game(alice, bob)
    state = _offer_state(game)
    row = meter.meter_request(game=game, seat=state.current, state=state)
    written = []
    monkeypatch.setattr(meter, "INTERIM_EVERY", 3600)  # the first batch only, then the final
    done = meter.meter_compute(meter_id=row.pk, on_interim=written.append)
    assert [w["playouts"] for w in written] == [10] and done.result["playouts"] == 60
    # A row dropped while its playouts run (a newer meter of the player): they stop at the next
    # write, and nothing is written.
    TradeMeter.objects.filter(pk=row.pk).update(status=TradeMeter.Status.PENDING, result=None)
    monkeypatch.setattr(meter, "INTERIM_EVERY", 0)
    calls = []

    def drop(result):
        calls.append(result["playouts"])
        TradeMeter.objects.filter(pk=row.pk).delete()

    assert meter.meter_compute(meter_id=row.pk, on_interim=drop) is None
    assert calls == [10] and not TradeMeter.objects.exists()


def test_figures_so_far_get_a_verdict_only_once_they_allow_one(alice, bob):
    game = _meter_game(alice, bob)
    state = _offer_state(game)
    me, other = state.current, 1 - state.current
    names = ["Ann", "Ben"]

    def shown(d_me, d_other, status="pending", playouts=MIN_PLAYOUTS):
        def side(seat, d):
            return {"seats": [seat], "now": [0.5, 0.4, 0.6], "after": [0.5, 0.4, 0.6], "delta": list(d)}

        result = {"playouts": playouts, "interim": True, "sides": sorted([side(me, d_me), side(other, d_other)],
                                                                     key=lambda s: s["seats"])}
        return meter.meter_view(TradeMeter(key="k", position=state.to_json(), status=status, result=result),
                                names=names)

    close = shown((0.01, -0.05, 0.07), (-0.01, -0.07, 0.05))
    assert close["refining"] and close["verdict"] is None and close["within"] == 6
    sure = shown((0.08, 0.03, 0.13), (-0.08, -0.13, -0.03))
    assert sure["refining"] and sure["verdict"] == f"Good for {names[me]}." and sure["within"] == 5
    # The same figures from fewer playouts than the engine's stopping rule waits for: no verdict.
    early = shown((0.08, 0.03, 0.13), (-0.08, -0.13, -0.03), playouts=MIN_PLAYOUTS - 1)
    assert early["refining"] and early["verdict"] is None
    final = shown((0.01, -0.02, 0.04), (-0.01, -0.04, 0.02), status="done")
    assert not final["refining"] and final["verdict"] == "Fair."
    assert meter.meter_view(TradeMeter(key="k", position=state.to_json(), status="pending", result=None),
                            names=names) == {"status": "pending", "key": "k", "refining": False}


# ---------------------------------------------------------------------------------------------
# Fairness: what every player knows, nothing else
# ---------------------------------------------------------------------------------------------


def _offer_state(game: Game) -> GameState:
    state = GameState.from_json(game.state)
    me, other = state.current, 1 - state.current
    return meter.proposed_position(state, me=me, other=other, give={"squares": [cheapest_deed(state, me)]},
                                   take={"squares": [cheapest_deed(state, other)]})


def test_the_meter_ignores_the_games_seed_and_its_hidden_card_order(alice, bob, small_meter):
    game = _meter_game(alice, bob)
    state = _offer_state(game)
    other = state.copy()
    other.rng = 987654321  # another future: another generator, the face-down cards in another order
    for pile in other.decks.values():
        random.Random(5).shuffle(pile)
    assert meter.meter_key(game.pk, state) == meter.meter_key(game.pk, other)
    a = meter.meter_request(game=game, seat=state.current, state=state)
    b = meter.meter_request(game=game, seat=state.current, state=other)
    assert a.pk == b.pk
    # Computed from each: the same figures (the seed is the key's, the deck order the public one).
    done = meter.meter_compute(meter_id=a.pk).result
    a.status, a.position = TradeMeter.Status.PENDING, {**other.to_json(), "rng": 0}
    TradeMeter.objects.filter(pk=a.pk).update(status=a.status, position=a.position, result=None)
    assert meter.meter_compute(meter_id=a.pk).result == done


def test_the_stored_position_keeps_no_generator_and_the_key_no_maximum_bid(alice, bob):
    game = _meter_game(alice, bob)
    state = _offer_state(game)
    row = meter.meter_request(game=game, seat=state.current, state=state)
    assert row.position["rng"] == 0
    pub = public_position(state)
    assert all("max" not in frame for frame in pub.stack)


# ---------------------------------------------------------------------------------------------
# The verdict
# ---------------------------------------------------------------------------------------------


def _result(d0, d1, d2=(0.0, -0.01, 0.01)):
    def side(seat, d):
        return {"seats": [seat], "now": [0.3, 0.25, 0.35], "after": [0.3, 0.25, 0.35], "delta": list(d)}

    return {"playouts": 100, "sides": [side(0, d0), side(1, d1), side(2, d2)]}


@pytest.mark.parametrize(("d0", "d1", "words"), [
    ((0.0, -0.02, 0.02), (0.01, -0.01, 0.03), "Fair."),
    ((0.08, 0.05, 0.11), (-0.06, -0.09, -0.03), "Good for Ann."),
    ((-0.06, -0.09, -0.03), (0.08, 0.05, 0.11), "Good for Ben."),
    ((0.05, 0.02, 0.08), (0.04, 0.01, 0.07), "Good for both of you, at the other players' expense."),
    ((-0.05, -0.08, -0.02), (-0.04, -0.07, -0.01), "Bad for both of you: the other players gain."),
    ((-0.05, -0.08, -0.02), (0.0, -0.03, 0.03), "Bad for Ann."),
    # Sure, but within FAIR_POINTS: fair.
    ((0.015, 0.005, 0.025), (-0.015, -0.025, -0.005), "Fair."),
])
def test_the_verdict_in_words(d0, d1, words):
    assert meter.verdict(_result(d0, d1), proposer=0, receiver=1, names=["Ann", "Ben", "Cy"]) == words
