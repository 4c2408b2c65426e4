"""The names people write for others to read: display names and table names (issue 26).

A name is compared by its key, its NFKC case-folded form (Unicode's NFKC_Casefold, UAX #15 and
the Unicode standard's section 3.13): the full-width "admin", "ADMIN" and "admin" are one name, so a
player cannot take another's name or username by its full-width or upper-case look-alike.
Names hold no invisible characters: no controls, no format characters (the bidirectional
overrides and isolates such as U+202E, which reverse the text around the name on a page, the
zero-width joiners and spaces), no private-use, unassigned or surrogate code points, no line or
paragraph separators.
"""

from __future__ import annotations

import unicodedata

# Cc controls, Cf format (bidi controls, zero-width characters), Co private use, Cs surrogates,
# Cn unassigned, Zl and Zp line and paragraph separators.
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


def is_invisible(char: str) -> bool:
    return unicodedata.category(char) in INVISIBLE_CATEGORIES


def has_invisible(text: str) -> bool:
    return any(is_invisible(c) for c in text)


def without_invisible(text: str) -> str:
    """``text`` without its invisible characters (a table name loses them quietly)."""
    return "".join(c for c in text if not is_invisible(c))


def name_key(name: str) -> str:
    """The form two names are compared in: NFKC_Casefold, runs of spaces as one space."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name or "").casefold())
    return " ".join(folded.split())
