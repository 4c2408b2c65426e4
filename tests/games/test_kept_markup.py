"""page_html.Kept, the markup the game page keeps by what it shows (the squares of a move's answer,
the players' deeds): given again for the same key, drawn afresh once a setting has changed (the
words, the numbers' formats and the templates all come from the settings)."""

from __future__ import annotations

from django.test import override_settings
from django.utils.safestring import mark_safe

from games.views.page import draw as page_html
from games.views.page import parts as move_parts


def test_a_kept_piece_is_drawn_once_per_key_until_a_setting_changes():
    kept = page_html.Kept()
    drawn = []

    def draw(text):
        def again():
            drawn.append(text)
            return mark_safe(text)
        return again

    assert kept.get(("a",), draw("<i>a</i>")) == "<i>a</i>"
    assert kept.get(("a",), draw("<i>other</i>")) == "<i>a</i>"
    assert kept.get(("b",), draw("<i>b</i>")) == "<i>b</i>"
    assert drawn == ["<i>a</i>", "<i>b</i>"]
    with override_settings(NUMBER_GROUPING=2):
        assert kept.get(("a",), draw("<i>a, drawn again</i>")) == "<i>a, drawn again</i>"
    # (Leaving the override is a change too.)
    assert kept.get(("a",), draw("<i>a, once more</i>")) == "<i>a, once more</i>"
    assert len(drawn) == 4


def test_a_full_kept_store_starts_again():
    kept = page_html.Kept(size=2)
    for key in ("a", "b", "c"):
        kept.get((key,), lambda key=key: mark_safe(key))
    calls = []
    kept.get(("a",), lambda: calls.append("a") or mark_safe("a"))
    assert calls == ["a"]  # (a and b were forgotten when c came)


def test_the_page_keeps_are_all_forgotten_on_a_setting_change():
    stores = [move_parts._SQUARES_KEPT, page_html._DEEDS_KEPT]
    for store in stores:
        store.get(("test-key",), lambda: mark_safe("x"))
    with override_settings(NUMBER_GROUPING=2):
        for store in stores:
            calls = []
            store.get(("test-key",), lambda calls=calls: calls.append(1) or mark_safe("y"))
            assert calls == [1]
