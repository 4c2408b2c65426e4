"""The engine's refusals in the reader's language.

The rules engine knows no Django: when it refuses an action it raises ``IllegalAction`` (or
``InvalidRules`` for a rule set) with a message in English, often with names, numbers and
square names in it ("it is Ana's turn", "not enough cash: a building costs 150"). The site
shows these to people, so here each message the engine can produce has an entry: its English
words with ``{slot}`` for each variable part (from which a regular expression is made) and the
same sentence as a gettext message with ``%(slot)s`` placeholders, in the catalogs under
locale/.

``translate_refusal`` gives the message in the active language. A message without an entry
(a new one in the engine) comes back unchanged, in English: it never raises. Square and player
names stay as they are, as the board and the log show them.

The site's own refusals (a table that is full, a page drawn before the last move) are
``SiteRefusal`` exceptions: their words are gettext messages from the start, so they need no
entry here; ``translate_refusal`` gives them in the active language too.

Programs keep getting the English (the JSON ``error`` of a move, ``str()`` of a refusal);
tests/games/test_refusals.py reads the engine's source and fails when a message it can raise has
no entry.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

from games.formats import money


@dataclass(frozen=True)
class Slot:
    """A variable part of an engine message: what it matches, an example the tests use, and
    how it is passed to the translation."""

    pattern: str = r".+?"
    sample: str = "Boardwalk"
    number: bool = False  # passed as an int (plural forms and %(n)d need one)
    money: bool = False  # an amount: shown with the currency sign, as the rest of the page does
    # Known words with their translations: only these match, and each is translated.
    words: Mapping[str, Promise] | None = None
    nested: bool = False  # itself an engine message, translated in turn


TEXT = Slot()  # a square's name, or other words the translation keeps as they are
NAME = Slot(sample="Ana")  # a player's name
OPTION = Slot(sample="'start_cash'")  # a rule set's option, quoted
NUMBER = Slot(r"-?\d+", "7", number=True)
MONEY = Slot(r"-?\d+", "7", money=True)  # an amount of cash: "Nora has only $56 in cash"
VALUE = Slot(r".+?", "'abc'")  # a value as the engine quotes it (repr)
REASON = Slot(r".+", "Bob has only 7 in cash", nested=True)
SIDE = Slot(r"give|take", "give")


def _words(words: dict[str, Promise]) -> Slot:
    return Slot("|".join(re.escape(w) for w in words), next(iter(words)), words=words)


# The decision the game waits for, as the engine names it (its pending kind, "_" as " ").
DECISION = _words({
    "buy": pgettext_lazy("decision", "buy"),
    "auction": pgettext_lazy("decision", "auction"),
    "building auction": pgettext_lazy("decision", "building auction"),
    "debt": pgettext_lazy("decision", "debt"),
    "trade response": pgettext_lazy("decision", "trade response"),
    "mortgage transfer": pgettext_lazy("decision", "mortgage transfer"),
    "income tax": pgettext_lazy("decision", "income tax"),
    "casino": pgettext_lazy("decision", "casino"),
    "bus": pgettext_lazy("decision", "bus"),
    "teleport": pgettext_lazy("decision", "teleport"),
    "destroy": pgettext_lazy("decision", "destroy"),
})


# The slot of a part by its name, unless the entry says otherwise.
_SLOT_OF_NAME = {"name": NAME, "player": NAME, "key": OPTION}


@dataclass(frozen=True)
class Refusal:
    """One engine message: ``english`` as the engine writes it, ``{slot}`` for each variable
    part (see ``slot``), and its translatable ``text``."""

    english: str
    text: Promise
    slots: Mapping[str, Slot] = field(default_factory=dict)
    regex: re.Pattern = field(init=False, repr=False)

    def __post_init__(self) -> None:
        parts = re.split(r"\{(\w+)\}", self.english)
        pattern = "".join(
            re.escape(part) if i % 2 == 0 else f"(?P<{part}>{self.slot(part).pattern})"
            for i, part in enumerate(parts)
        )
        object.__setattr__(self, "regex", re.compile(pattern, re.DOTALL))

    def slot(self, name: str) -> Slot:
        return self.slots.get(name) or _SLOT_OF_NAME.get(name, TEXT)

    @property
    def names(self) -> list[str]:
        return re.findall(r"\{(\w+)\}", self.english)

    @property
    def sample(self) -> str:
        """The engine's message with each slot's example (what the tests feed in)."""
        return re.sub(r"\{(\w+)\}", lambda m: self.slot(m.group(1)).sample, self.english)

    def render(self, match: re.Match, names: Mapping[str, str] | None = None) -> str:
        values: dict[str, Any] = {}
        for name, value in match.groupdict().items():
            slot = self.slot(name)
            if slot.money:
                values[name] = money(int(value))
            elif slot.number:
                values[name] = int(value)
            elif slot.words is not None:
                values[name] = str(slot.words[value])
            elif slot.nested:
                values[name] = translate_refusal(value, names=names)
            elif slot is NAME and names:
                values[name] = names.get(value, value)
            else:
                values[name] = value
        return str(self.text % values)


def refusal(english: str, text: Promise, **slots: Slot) -> Refusal:
    return Refusal(english, text, slots)


# First match wins: an entry whose words another entry's slot could swallow comes first
# ("the group has no buildings" before "{square} has no buildings").
REFUSALS: tuple[Refusal, ...] = (
    # Another refusal inside: first, or "{player} has only {cash} in cash" would take it whole.
    refusal("the trade is no longer possible: {reason}",
            _("the trade is no longer possible: %(reason)s"), reason=REASON),
    # -- Whose move, and the turn (rules.apply, _require_turn, _decision) ---------------------
    refusal("it is {name}'s turn", _("it is %(name)s's turn")),
    refusal("the game is waiting for a {decision} decision first",
            _("the game is waiting for a %(decision)s decision first"), decision=DECISION),
    refusal("you have already rolled: end your turn", _("you have already rolled: end your turn")),
    refusal("roll first", _("roll first")),
    refusal("there is no {decision} decision pending",
            _("there is no %(decision)s decision pending"), decision=DECISION),
    refusal("the {decision} decision is {name}'s", _("the %(decision)s decision is %(name)s's"),
            decision=DECISION),
    refusal("the game is not waiting for this player",
            _("the game is not waiting for this player")),
    refusal("the game is over", _("the game is over")),
    refusal("{name} is out of the game", _("%(name)s is out of the game")),
    # -- Malformed actions (what programs may send) --------------------------------------------
    refusal("an action is a mapping with 'type' and 'player'",
            _("an action is a mapping with 'type' and 'player'")),
    refusal("unknown action {kind}", _("unknown action %(kind)s"), kind=VALUE),
    refusal("'player' must be a seat number of this game",
            _("'player' must be a seat number of this game")),
    refusal("'square' must be 0-39", _("'square' must be 0-39")),
    refusal("'{key}' must be a whole number", _("'%(key)s' must be a whole number"),
            key=Slot(r"\w+", "amount")),
    refusal("clock minutes must be a whole number >= 0, got {value}",
            _("clock minutes must be a whole number >= 0, got %(value)s"), value=VALUE),
    # -- A new game --------------------------------------------------------------------------
    refusal("this rule set seats {lo}-{hi} players, not {count}",
            _("this rule set seats %(lo)s-%(hi)s players, not %(count)s"),
            lo=NUMBER, hi=NUMBER, count=NUMBER),
    refusal("player names must be different", _("player names must be different")),
    refusal("a team game needs two teams of two covering every seat",
            _("a team game needs two teams of two covering every seat")),
    refusal("teams are only for team rule sets", _("teams are only for team rule sets")),
    # -- Jail and the decisions of a square ----------------------------------------------------
    refusal("you are not in jail", _("you are not in jail")),
    refusal("jail can be left this way only at the start of the turn",
            _("jail can be left this way only at the start of the turn")),
    refusal("not enough cash for the {fine} fine", _("not enough cash for the %(fine)s fine"),
            fine=MONEY),
    refusal("you hold no jail card", _("you hold no jail card")),
    refusal("not enough cash: the price is {price}", _("not enough cash: the price is %(price)s"),
            price=MONEY),
    refusal("choice must be 'flat' or 'percent'", _("choice must be 'flat' or 'percent'")),
    refusal("stake on 1 to 3 different numbers from 1 to 6",
            _("stake on 1 to 3 different numbers from 1 to 6")),
    refusal("the stake is {stake}", _("the stake is %(stake)s"), stake=MONEY),
    refusal("choice must be 'first', 'second' or 'sum'",
            _("choice must be 'first', 'second' or 'sum'")),
    refusal("pick an opponent's property with buildings",
            _("pick an opponent's property with buildings")),
    # -- Auctions ------------------------------------------------------------------------------
    refusal("there is no auction under way", _("there is no auction under way")),
    refusal("the bidding is over; the winner is placing the building",
            _("the bidding is over; the winner is placing the building")),
    refusal("the bidding is over", _("the bidding is over")),
    refusal("you are not a bidder in this auction", _("you are not a bidder in this auction")),
    refusal("you have passed; a pass is final", _("you have passed; a pass is final")),
    refusal("you already hold the highest bid", _("you already hold the highest bid")),
    refusal("it is not your turn to bid", _("it is not your turn to bid")),
    refusal("the lowest bid now is {low}", _("the lowest bid now is %(low)s"), low=MONEY),
    refusal("a bid of {amount} is above your cash ({cash})",
            _("a bid of %(amount)s is above your cash (%(cash)s)"), amount=MONEY, cash=MONEY),
    refusal("you are not bidding in this auction", _("you are not bidding in this auction")),
    # (RULES.md 15, maximum bids)
    refusal("a maximum must be at least the lowest bid now ({low})",
            _("a maximum must be at least the lowest bid now (%(low)s)"), low=MONEY),
    refusal("a maximum of {amount} is above your cash ({cash})",
            _("a maximum of %(amount)s is above your cash (%(cash)s)"), amount=MONEY, cash=MONEY),
    refusal("you have left no maximum to withdraw", _("you have left no maximum to withdraw")),
    refusal("you hold the highest bid and cannot pass",
            _("you hold the highest bid and cannot pass")),
    # -- Building ------------------------------------------------------------------------------
    refusal("while you owe a debt you may only sell buildings, mortgage, trade or surrender",
            _("while you owe a debt you may only sell buildings, mortgage, trade or surrender")),
    refusal("you may build only in your own turn, before rolling",
            _("you may build only in your own turn, before rolling")),
    refusal("a building auction is under way", _("a building auction is under way")),
    refusal("the winner of the building auction is placing it",
            _("the winner of the building auction is placing it")),
    refusal("{square} cannot take buildings", _("%(square)s cannot take buildings")),
    refusal("you do not own {square}", _("you do not own %(square)s")),
    refusal("you need every deed of the group to build",
            _("you need every deed of the group to build")),
    refusal("a deed of the group is mortgaged", _("a deed of the group is mortgaged")),
    refusal("{square} already has the top level", _("%(square)s already has the top level")),
    refusal("{square} needs a hotel, not a {building}", _("%(square)s needs a hotel, not a house"),
            building=Slot("house", "house")),
    refusal("{square} needs a house, not a {building}", _("%(square)s needs a house, not a hotel"),
            building=Slot("hotel", "hotel")),
    refusal("a hotel needs {n} houses on every deed of the group",
            ngettext_lazy("a hotel needs %(n)d house on every deed of the group",
                          "a hotel needs %(n)d houses on every deed of the group", "n"),
            n=NUMBER),
    refusal("build evenly: another deed of the group has fewer buildings",
            _("build evenly: another deed of the group has fewer buildings")),
    refusal("only {n} build(s) per group per turn",
            ngettext_lazy("only %(n)d build per group per turn",
                          "only %(n)d builds per group per turn", "n"),
            n=NUMBER),
    refusal("the bank has no hotels left", _("the bank has no hotels left")),
    refusal("the bank has no houses left", _("the bank has no houses left")),
    refusal("not enough cash: a building costs {cost}",
            _("not enough cash: a building costs %(cost)s"), cost=MONEY),
    # -- Selling and mortgages -----------------------------------------------------------------
    refusal("only during your own turn or while you owe a debt",
            _("only during your own turn or while you owe a debt")),
    refusal("the group has no buildings", _("the group has no buildings")),
    refusal("{square} has no buildings", _("%(square)s has no buildings")),
    refusal("sell evenly: another deed of the group has more buildings",
            _("sell evenly: another deed of the group has more buildings")),
    refusal("the bank has fewer than {n} houses to break the hotel: sell the whole group "
            "(sell_all)",
            ngettext_lazy("the bank has fewer than %(n)d house to break the hotel: sell the "
                          "whole group (sell_all)",
                          "the bank has fewer than %(n)d houses to break the hotel: sell the "
                          "whole group (sell_all)", "n"),
            n=NUMBER),
    refusal("{square} is already mortgaged", _("%(square)s is already mortgaged")),
    refusal("sell the group's buildings before mortgaging",
            _("sell the group's buildings before mortgaging")),
    refusal("{square} is not mortgaged", _("%(square)s is not mortgaged")),
    refusal("not enough cash: lifting the mortgage costs {cost}",
            _("not enough cash: lifting the mortgage costs %(cost)s"), cost=MONEY),
    refusal("there is no transferred mortgage of yours to decide on that square",
            _("there is no transferred mortgage of yours to decide on that square")),
    refusal("this rule set does not allow auctioning your own deeds",
            _("this rule set does not allow auctioning your own deeds")),
    refusal("you may auction a deed of yours only in your own turn, with nothing pending",
            _("you may auction a deed of yours only in your own turn, with nothing pending")),
    # -- Trades --------------------------------------------------------------------------------
    refusal("'{side}' must be a mapping with cash, squares and cards",
            _("'%(side)s' must be a mapping with cash, squares and cards"), side=SIDE),
    refusal("'{side}' has unknown keys: {keys}", _("'%(side)s' has unknown keys: %(keys)s"),
            side=SIDE, keys=Slot(r".+", "price")),
    refusal("'{side}.cash' must be a whole number >= 0",
            _("'%(side)s.cash' must be a whole number >= 0"), side=SIDE),
    refusal("'{side}.squares' must be a list of squares 0-39",
            _("'%(side)s.squares' must be a list of squares 0-39"), side=SIDE),
    refusal("'{side}.squares' lists a square twice", _("'%(side)s.squares' lists a square twice"),
            side=SIDE),
    refusal("'{side}.cards' must be a number of jail cards",
            _("'%(side)s.cards' must be a number of jail cards"), side=SIDE),
    refusal("'to' must name another player", _("'to' must name another player")),
    refusal("trades are with another player still in the game",
            _("trades are with another player still in the game")),
    refusal("an empty trade", _("an empty trade")),
    refusal("{square} is not a deed", _("%(square)s is not a deed")),
    refusal("{player} does not own {square}", _("%(player)s does not own %(square)s")),
    refusal("{square}'s group has buildings: sell them before trading its deeds",
            _("%(square)s's group has buildings: sell them before trading its deeds")),
    refusal("{square} is mortgaged and mortgaged deeds cannot be traded here",
            _("%(square)s is mortgaged and mortgaged deeds cannot be traded here")),
    refusal("{player} has only {cash} in cash", _("%(player)s has only %(cash)s in cash"),
            cash=MONEY),
    refusal("{player} holds only {n} jail card(s)",
            ngettext_lazy("%(player)s holds only %(n)d jail card",
                          "%(player)s holds only %(n)d jail cards", "n"),
            n=NUMBER),
    refusal("unbalanced trade: {give} against {take} (the larger side may be at most twice the "
            "smaller)",
            _("unbalanced trade: %(give)s against %(take)s (the larger side may be at most "
              "twice the smaller)"),
            give=MONEY, take=MONEY),
    refusal("a trade offer is already waiting for an answer",
            _("a trade offer is already waiting for an answer")),
    refusal("a transferred mortgage must be decided first",
            _("a transferred mortgage must be decided first")),
    refusal("only the player whose turn it is may propose trades",
            _("only the player whose turn it is may propose trades")),
    refusal("trades are proposed before rolling", _("trades are proposed before rolling")),
    refusal("trades can't be proposed now", _("trades can't be proposed now")),
    refusal("at most {n} trade proposals per turn",
            ngettext_lazy("at most %(n)d trade proposal per turn",
                          "at most %(n)d trade proposals per turn", "n"),
            n=NUMBER),
    refusal("no trade offer is waiting for an answer",
            _("no trade offer is waiting for an answer")),
    refusal("trade {trade} is not the offer waiting for an answer",
            _("trade %(trade)s is not the offer waiting for an answer"), trade=VALUE),
    refusal("only the player the offer is made to may accept it",
            _("only the player the offer is made to may accept it")),
    refusal("only the player the offer is made to may reject it",
            _("only the player the offer is made to may reject it")),
    refusal("only the proposer may cancel an offer", _("only the proposer may cancel an offer")),
    # -- Rule sets (ruleset.py's InvalidRules: the custom table's form) ------------------------
    refusal("option {key}: invalid value {value}", _("option %(key)s: invalid value %(value)s"),
            value=VALUE),
    refusal("option {key}: expected a whole number, got {value}",
            _("option %(key)s: expected a whole number, got %(value)s"), value=VALUE),
    refusal("option {key}: expected a whole number or null, got {value}",
            _("option %(key)s: expected a whole number or null, got %(value)s"), value=VALUE),
    refusal("option {key}: must be at least {minimum}, got {value}",
            _("option %(key)s: must be at least %(minimum)s, got %(value)s"),
            minimum=NUMBER, value=NUMBER),
    refusal("option {key}: expected true or false, got {value}",
            _("option %(key)s: expected true or false, got %(value)s"), value=VALUE),
    refusal("option {key}: expected one of {choices}, got {value}",
            _("option %(key)s: expected one of %(choices)s, got %(value)s"),
            choices=Slot(r".+?", "open, rotating"), value=VALUE),
    refusal("option {key}: expected a fraction between 0 and 1, got {value}",
            _("option %(key)s: expected a fraction between 0 and 1, got %(value)s"), value=VALUE),
    refusal("option {key}: expected a whole number or 'price', got {value}",
            _("option %(key)s: expected a whole number or 'price', got %(value)s"), value=VALUE),
    refusal("option 'seats': expected [min, max], got {value}",
            _("option 'seats': expected [min, max], got %(value)s"), value=VALUE),
    refusal("option 'seats': need 2 <= min <= max <= 8, got {lo}-{hi}",
            _("option 'seats': need 2 <= min <= max <= 8, got %(lo)s-%(hi)s"),
            lo=NUMBER, hi=NUMBER),
    refusal("unknown preset {preset}; expected one of {choices}",
            _("unknown preset %(preset)s; expected one of %(choices)s"),
            preset=VALUE, choices=Slot(r".+", "classic, world")),
    refusal("options must be a mapping of option keys to values, got {value}",
            _("options must be a mapping of option keys to values, got %(value)s"), value=VALUE),
    refusal("unknown option {key}", _("unknown option %(key)s"), key=VALUE),
    refusal("option 'houses_before_hotel': at most 4 houses fit on a deed",
            _("option 'houses_before_hotel': at most 4 houses fit on a deed")),
    refusal("option 'deck': deck {deck} does not fit the {board} board",
            _("option 'deck': deck %(deck)s does not fit the %(board)s board"),
            deck=VALUE, board=Slot(r"\w+", "classic")),
    refusal("option 'casino': the casino needs the world board",
            _("option 'casino': the casino needs the world board")),
    refusal("option 'teams': team games are two teams of two (seats 4-4)",
            _("option 'teams': team games are two teams of two (seats 4-4)")),
    refusal("option 'trade_mortgaged': 'teammates' needs teams",
            _("option 'trade_mortgaged': 'teammates' needs teams")),
)


def match_refusal(message: str) -> tuple[Refusal, re.Match] | None:
    """The entry of an engine message and the match of its words, or None."""
    for entry in REFUSALS:
        found = entry.regex.fullmatch(message)
        if found is not None:
            return entry, found
    return None


class SiteRefusal(Exception):
    """A refusal in the site's own words: a ``gettext_lazy`` message, its ``%(name)s``
    placeholders filled from ``params`` (which may be lazy too). ``str()`` is the English, what
    programs match on and logs show; ``localized()`` the active language. A plain string
    (an engine's refusal passed on) is kept as it is and translated by ``translate_refusal``."""

    def __init__(self, message: str | Promise, /, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.params = params

    def _render(self) -> str:
        text = str(self.message)
        if not self.params:
            return text
        return text % {k: str(v) if isinstance(v, Promise) else v for k, v in self.params.items()}

    def __str__(self) -> str:
        with translation.override(None):  # no catalog: every message as its msgid, English
            return self._render()

    def localized(self) -> str:
        """The refusal in the active language."""
        if isinstance(self.message, Promise):
            try:
                return self._render()
            except (KeyError, ValueError, TypeError):
                return str(self)  # a translation whose placeholders do not fit
        return translate_refusal(self._render())


def translate_refusal(message: object, *, names: Mapping[str, str] | None = None) -> str:
    """An engine refusal (a message or the exception itself) or a ``SiteRefusal`` in the active
    language; anything else without an entry comes back as it is. ``names`` maps a player's name
    as the engine's state has it to the name the page shows now (selectors.live_names)."""
    if isinstance(message, SiteRefusal):
        if names and not isinstance(message.message, Promise):
            return translate_refusal(message._render(), names=names)  # an engine's, passed on
        return message.localized()
    text = str(message)
    found = match_refusal(text)
    if found is None:
        return text
    entry, match = found
    try:
        return entry.render(match, names)
    except (KeyError, ValueError, TypeError):
        # A catalog entry whose placeholders do not fit: the English beats an error page.
        return text
