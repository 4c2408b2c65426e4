"""games/formats.py writes numbers as Django's number_format does, in the active language, and
keeps each integer written per language."""

from __future__ import annotations

from django.utils import translation
from django.utils.formats import number_format

from games import formats


def test_numbers_are_djangos_in_each_language_kept_per_language():
    for language in ("en", "es", "ca", "en"):
        with translation.override(language):
            for amount in (0, 7, 1500, -1500, 12345678, 10**12):
                assert formats.number(amount) == number_format(amount, force_grouping=True), (language, amount)
    with translation.override("en"):
        assert formats.money(1500) == "$1,500" and formats.cost(-50) == "−$50"
    with translation.override("es"):
        assert formats.money(1500) == "$1\xa0500"  # (Django's Spanish groups with a no-break space)
    # Not an int (a float equal to one): not the kept int's words.
    with translation.override("en"):
        formats.number(1500)
        assert formats.number(1500.5) == number_format(1500.5, force_grouping=True)
        assert formats.number(True) == number_format(True, force_grouping=True)


def test_kept_numbers_are_forgotten_when_the_formats_change(settings):
    with translation.override("en"):
        assert formats.number(1500) == "1,500"
        settings.THOUSAND_SEPARATOR = "'"
        settings.USE_THOUSAND_SEPARATOR = True
        assert formats.number(1500) == number_format(1500, force_grouping=True)
