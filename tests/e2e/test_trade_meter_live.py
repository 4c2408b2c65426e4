"""The trade meter's progress in a browser (issue 30): while the estimate runs, the part that
polls its row shows the figures so far, said in words to be still refined ("Refining: 20
playouts so far, ±N points."), then the final figures replace them and the polling stops; in
the proposer's builder and beside the offer its receiver answers, at 1280 and 390 px.

The task's body (``meter_compute``, the real one, on the real database) runs in a thread of
the test with a small batch; its ``on_interim`` hook holds the playouts after the first
interim write until the browser has shown it, so the test sees both states for certain."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest
from django.db import connections

from games import meter, services
from games.engine import GameState
from games.models import Game, TradeMeter
from tests.e2e.axe import FAILING, axe_violations, describe
from tests.e2e.layout_helpers import DESKTOP, PHONE, page_width, width_id
from tests.e2e.test_keyboard import open_page
from tests.e2e.test_trade_meter import _meter_game, ask_meter
from tests.games.play_helpers import cheapest_deed, users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
SHOTS = Path("/work/shots/e")  # (also copied there when it exists: the helper's brief)


@pytest.fixture
def stepped_meter(monkeypatch):
    monkeypatch.setattr(meter, "METER_PLAYOUTS", 60)
    monkeypatch.setattr(meter, "METER_TARGET", None)
    monkeypatch.setattr(meter, "METER_BATCH", 20)
    monkeypatch.setattr(meter, "INTERIM_EVERY", 0)


class HeldCompute:
    """meter_compute in a thread, held after its first interim write until ``release``."""

    def __init__(self, meter_id: int):
        self.written = threading.Event()
        self.go_on = threading.Event()
        self.writes: list[int] = []
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(meter_id,), daemon=True)
        self.thread.start()

    def _hook(self, result: dict) -> None:
        self.writes.append(result["playouts"])
        if len(self.writes) == 1:
            self.written.set()
            assert self.go_on.wait(90), "the browser never showed the interim figures"

    def _run(self, meter_id: int) -> None:
        try:
            meter.meter_compute(meter_id=meter_id, on_interim=self._hook)
        except BaseException as e:  # (reported by finish())
            self.error = e
        finally:
            self.written.set()
            connections.close_all()

    def finish(self) -> None:
        self.go_on.set()
        self.thread.join(120)
        assert not self.thread.is_alive() and self.error is None, self.error


def _wait_for_row(exclude: set[int]) -> TradeMeter:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        row = TradeMeter.objects.exclude(pk__in=exclude).first()
        if row is not None:
            return row
        time.sleep(0.1)
    raise AssertionError("the meter's row was never made")


def _shot(page, artifacts, name: str) -> None:
    path = artifacts / name
    page.screenshot(path=str(path), full_page=True)
    if SHOTS.is_dir():
        shutil.copy(path, SHOTS / name)


def _listen(page, box: str) -> None:
    """Note what a screen reader is told: the box's aria-live as each swap lands in it. Set up
    while the box still says "pending", before the computation starts: under load a poll may
    bring the first figures before a listener set up after their write (CI, stop 34)."""
    page.evaluate("""(sel) => {
      const box = document.querySelector(sel);
      window.meterLive = [];
      new MutationObserver(() => {
        const say = box.querySelector("[data-meter-say]");
        window.meterLive.push([box.getAttribute("aria-live"), say ? say.getAttribute("data-meter-say") : null]);
      }).observe(box, {childList: true});
    }""", box)


def _interim_then_final(page, box: str, held: HeldCompute, artifacts, name: str, width: int,
                        compact: bool = False) -> None:
    try:
        _check_interim_then_final(page, box, held, artifacts, name, width, compact)
    finally:
        held.go_on.set()  # (a failed check leaves no playouts held, no connection open)
        held.thread.join(120)


def _check_interim_then_final(page, box: str, held: HeldCompute, artifacts, name: str, width: int,
                              compact: bool) -> None:
    assert held.written.wait(60)
    refining = page.locator(f"{box} .meter-refining")
    refining.wait_for(timeout=30000)
    # Held there: the part polls on and gets the same figures; those swaps are silent.
    page.wait_for_function("() => window.meterLive.filter(([, say]) => !(say || '').endsWith(' pending')).length >= 3",
                           timeout=15000)
    words = page.locator(f"{box} .meter-verdict").inner_text()
    assert "Trade meter so far:" in words and "Refining: 20 playouts so far, ±" in words
    assert ("Too close to call yet." in words) or ("Good for" in words) or ("Bad for" in words)
    if compact:
        assert page.locator(f"{box} .meter-compact").is_visible()
    else:
        assert "still being refined" in page.locator(f"{box} table.meter-table caption").inner_text()
    assert page.locator(box).first.get_attribute("aria-live") in ("polite", "off")
    found = axe_violations(page)
    assert not any(v["impact"] in FAILING for v in found), describe(found)
    page.locator(box).first.scroll_into_view_if_needed()
    _shot(page, artifacts, f"trade-meter-live-{name}-interim-{width}.png")
    assert page_width(page) <= width
    held.finish()
    assert held.writes == [20, 40]
    refining.wait_for(state="detached", timeout=30000)
    final = page.locator(f"{box} .meter-verdict").inner_text()
    assert final.startswith("Trade meter:") and "so far" not in final
    if not compact:
        assert "from 60 simulated games" in page.locator(f"{box} table.meter-table caption").inner_text()
    assert page.locator(box).first.get_attribute("aria-live") == "polite"
    # (The polls of the pending box before the first write are left out.)
    live = [entry for entry in page.evaluate("window.meterLive") if not (entry[1] or "").endswith(" pending")]
    says = [say.split(" ", 1)[1] for _, say in live]
    # The first figures heard, the same ones again silent, the final heard.
    assert live[0][0] == "polite" and says[0].startswith("refining"), live
    assert all(aria == "off" for aria, say in live[1:] if say == live[0][1]), live
    assert live[-1][0] == "polite" and says[-1] == "done", live
    assert any(aria == "off" for aria, _ in live), live
    # Final: the part asks no more.
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "trade-meter" in r.url or "meter" in r.url else None)
    page.wait_for_timeout(3500)
    assert asked == []
    _shot(page, artifacts, f"trade-meter-live-{name}-final-{width}.png")
    assert page_width(page) <= width


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=width_id)
def test_the_meter_shows_figures_so_far_then_the_final_ones(browser, site, artifacts, alice, bob,
                                                             stepped_meter, viewport):
    game = _meter_game(alice, bob)
    state = GameState.from_json(game.state)
    me, other = state.current, 1 - state.current
    mine, theirs = cheapest_deed(state, me), cheapest_deed(state, other)
    users = users_by_seat(game)
    names = [p.name for p in state.players]
    width = viewport["width"]

    # The proposer's builder.
    context, page = open_page(browser, site, users[me], game, viewport)
    try:
        ask_meter(page, mine, theirs)
        page.locator("#trade-meter .meter-pending").wait_for()  # (no worker: pending)
        row = _wait_for_row(set())
        _listen(page, "#trade-meter")
        held = HeldCompute(row.pk)
        _interim_then_final(page, "#trade-meter", held, artifacts, "builder", width)
        assert names[me] in page.locator("#trade-meter").inner_text()
    finally:
        context.close()

    # Another offer (a different trade: its own meter), answered by its receiver.
    services.game_submit_action(game=game, user=users[me], expected_version=game.version,
                                action={"type": "propose", "to": other, "give": {"squares": [mine], "cash": 1},
                                        "take": {"squares": [theirs]}})
    game = Game.objects.get(pk=game.pk)
    context, page = open_page(browser, site, users[other], game, viewport)
    try:
        page.locator(".offer .trade-meter .meter-pending").wait_for()
        second = _wait_for_row({row.pk})
        _listen(page, ".offer .trade-meter")
        held = HeldCompute(second.pk)
        _interim_then_final(page, ".offer .trade-meter", held, artifacts, "offer", width, compact=width < 1000)
        assert page.get_by_role("button", name="Accept").is_visible()
    finally:
        context.close()
    assert TradeMeter.objects.filter(status=TradeMeter.Status.DONE).count() == 2
