"""Short labels of the board's squares, for boards too small to print the full names (phones).

The board data (games/engine/data/*.json) has no abbreviations, so the site derives one from
each square's name: at most 5 characters, enough to tell the squares of a board apart on a
square about 30 px wide ("Medit" would not fit a 360 px screen, "Med" does). The rules:

* words that say what kind of square it is rather than which one are dropped ("Avenue",
  "Railroad", "Works"...): the colour band or the icon already says that;
* a name of two words or more becomes its initials ("New York" N.Y., "B. & O." B&O), except
  after "St." ("St. James" St.Ja);
* a word in two capitalised parts keeps its first part when it is 3 to 5 letters long
  ("FreshCart" Fresh, "JetStreamer" Jet);
* a word of 5 letters or fewer stays whole; a longer one is cut after a consonant, at 4
  letters if it can, else 3, else 5 ("Baltic" Balt, "Illinois" Ill, "Oriental" Orien).

A few names read badly by those rules and are spelt out in ``OVERRIDES``. Labels are computed
once per name (the board redraws on every move).
"""

from __future__ import annotations

import re
from functools import lru_cache

MAX_LENGTH = 5

# Words that name the kind of square, not the square.
FILLER = frozenset({
    "avenue", "place", "gardens", "railroad", "company", "works", "industries", "capital", "bank",
    "finance", "air", "line", "community", "tax",
    # The same in the Spanish and Catalan names of the generic squares (games/board_words.py).
    "ferrocarril", "compañía", "companyia", "de",
})
VOWELS = frozenset("aeiou")

# Where the rules give a label that misleads or reads badly.
OVERRIDES = {
    "Boardwalk": "Board",  # not "Boar"
    "Pennsylvania Railroad": "PRR",  # else "Penn", as Pennsylvania Avenue
    "Moda Nova": "Moda",
    # The generic squares' Spanish and Catalan names (games/board_words.py).
    "Ferrocarril Pennsylvania": "PRR",
    "Caja de Comunidad": "Caja",
    "Caixa de la Comunitat": "Caixa",
    "Impuesto sobre la renta": "Renta",
    "Impost sobre la renda": "Renda",
    "Impuesto de lujo": "Lujo",
    "Impost de luxe": "Luxe",
    "Companyia d'Aigües": "Aigua",
    "Parking gratuito": "Park",
    "Aparcament gratuït": "Aparc",
}

_CAMEL = re.compile(r"[A-Z][a-z]+")


def _word(word: str) -> str:
    """One word cut to at most MAX_LENGTH characters."""
    parts = _CAMEL.findall(word)
    if len(parts) > 1 and 3 <= len(parts[0]) <= MAX_LENGTH:
        return parts[0]
    if len(word) <= MAX_LENGTH:
        return word
    for n in (4, 3, 5):
        if word[n - 1].lower() not in VOWELS:
            return word[:n]
    return word[:4]


@lru_cache(maxsize=512)
def short_label(name: str) -> str:
    """The square's short label: 1 to MAX_LENGTH characters, never empty for a non-empty name."""
    name = name.strip()
    if name in OVERRIDES:
        return OVERRIDES[name]
    words = [w for w in name.split() if w.lower().strip(".") not in FILLER] or name.split()
    if not words:
        return "?"
    if len(words) == 1:
        return _word(words[0])
    if words[0].rstrip(".").lower() == "st":
        return ("St." + words[1][:2]) if len(words[1]) > 1 else "St." + words[1]
    if all(len(w.rstrip(".")) <= 1 for w in words):  # "B. & O."
        return "".join(w.rstrip(".") for w in words)[:MAX_LENGTH]
    initials = [w[0].upper() for w in words if w[0].isalnum()]
    if len(initials) == 2:
        return f"{initials[0]}.{initials[1]}."
    return "".join(initials)[:MAX_LENGTH] or name[:MAX_LENGTH]
