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

import re
import unicodedata

from markupsafe import Markup, escape

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


def isolated(text: str, names) -> Markup:
    """``text`` as markup, each of ``names`` in it in a ``<bdi>`` (the HTML isolate): a name
    written right to left, or holding a direction mark from before issue 26, cannot reorder the
    words beside it. The rest is escaped."""
    present = sorted({n for n in names if n and n in text}, key=len, reverse=True)
    if not present:
        return escape(text)
    # Longest first: "Bobby" is one name, not "Bob" and a "by". (re keeps compiled patterns.)
    pattern = re.compile("|".join(re.escape(n) for n in present))
    out, last = [], 0
    for match in pattern.finditer(text):
        out.append(escape(text[last:match.start()]))
        out.append(Markup("<bdi>%s</bdi>") % match.group())
        last = match.end()
    out.append(escape(text[last:]))
    return Markup("").join(out)


def bdi(name) -> Markup:
    """A name as an isolated piece of markup, for a name inside a sentence of the catalogue."""
    return Markup("<bdi>%s</bdi>") % ("" if name is None else name)
