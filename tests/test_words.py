"""config/words.py: Django's gettext, each message looked up once per language and kept."""

from __future__ import annotations

from django.utils import translation

from config import words


def test_the_words_are_djangos_in_the_active_language():
    for language in ("en", "es", "ca", "en"):
        with translation.override(language):
            for message in ("Mortgage", "Lift mortgage", "the bank", "no such message, kept as it is"):
                assert words.gettext(message) == translation.gettext(message)
    with translation.override("es"):
        assert words.gettext("Mortgage") != "Mortgage"  # (a catalogue that has it: the test can fail)


def test_a_word_is_looked_up_once_per_language(monkeypatch):
    asked = []
    real = translation.gettext
    monkeypatch.setattr(translation, "gettext", lambda m: asked.append((translation.get_language(), m)) or real(m))
    words.words.cache_clear()
    try:
        for _ in range(3):
            for language in ("es", "ca"):
                with translation.override(language):
                    words.gettext("Mortgage")
    finally:
        words.words.cache_clear()  # (nothing kept of the counting gettext)
    assert asked == [("es", "Mortgage"), ("ca", "Mortgage")]


def test_only_so_many_words_are_kept(monkeypatch):
    monkeypatch.setattr(words, "MAX_WORDS", 3)
    translate = words.keeper(lambda m: m.upper())
    for m in "abcdef":
        assert translate(m) == m.upper()
    calls = []
    counted = words.keeper(lambda m: calls.append(m) or m)
    for m in "abcdeabcde":
        counted(m)
    assert calls == list("abcde") + list("de")  # (the first three kept, the rest looked up again)


def test_kept_words_are_forgotten_when_the_catalogues_change(settings):
    before = words.words("es")
    settings.LOCALE_PATHS = [*settings.LOCALE_PATHS]
    assert words.words("es") is not before
