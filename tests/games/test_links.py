"""games/links.game_url: the game page's addresses, reversed once per process, are what
``reverse`` gives, under any script prefix."""

from __future__ import annotations

from django.urls import reverse, set_script_prefix

from games.links import deed_cards_path, game_url


def test_game_urls_are_what_reverse_gives():
    for name in ("games:game", "games:game_act", "games:game_log", "games:game_events", "games:game_trade_preview"):
        assert game_url(name, 7) == reverse(name, args=[7])
        assert game_url(name, "8") == reverse(name, args=[8])
    assert game_url("games:game_deed", 7, 39) == reverse("games:game_deed", args=[7, 39])
    assert deed_cards_path(7) + "39/" == reverse("games:game_deed", args=[7, 39])


def test_another_script_prefix_gets_its_own_addresses():
    plain = game_url("games:game_act", 3)
    try:
        set_script_prefix("/monopoly/")
        assert game_url("games:game_act", 3) == "/monopoly" + plain == reverse("games:game_act", args=[3])
    finally:
        set_script_prefix("/")
    assert game_url("games:game_act", 3) == plain
