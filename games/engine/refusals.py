"""Why the engine refuses: a stable code and its parameters, and the words for each code.

An ``IllegalAction`` (or ``InvalidRules``) carries a ``Refusal``: ``code`` is a short snake_case
identifier that programs may match on and that never changes with the wording, ``params`` the
variable parts (player and square names as the state has them, amounts as plain numbers, a
nested refusal as a ``Refusal``). ``str()`` of a refusal is its English sentence, the same words
the engine has always given.

The engine knows no Django, yet the site shows refusals in the reader's language, as the game
log does (``events.describe``): ``refusal_text`` takes the translation functions as arguments.
Every message below is a literal ``gettext_noop(...)`` (or ``ngettext(...)`` / ``pgettext(...)``)
call so that Django's makemessages finds it here; each is one whole sentence with named
``{placeholders}`` so that a translator can reorder its parts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def gettext_noop(message: str) -> str:
    """Marks a message for makemessages; the translation happens in ``refusal_text``."""
    return message


class Plural:
    """A message with singular and plural forms, chosen by the number in ``params[count]``."""

    __slots__ = ("singular", "plural", "count")

    def __init__(self, singular: str, plural: str, count: str) -> None:
        self.singular, self.plural, self.count = singular, plural, count


def ngettext(singular: str, plural: str, count: str) -> Plural:
    """Marks a plural message (xgettext's ``ngettext:1,2`` keyword finds the pair); ``count`` names
    the parameter that chooses the form."""
    return Plural(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """Marks a word with a context (xgettext's ``pgettext:1c,2``)."""
    return message


# Each code the engine can raise, with its English words. The codes are stable: rewording a
# message keeps its code; a new refusal gets a new code (tests/games/test_refusal_codes.py checks
# that each has its Spanish and Catalan words).
MESSAGES: dict[str, str | Plural] = {
    # -- Whose move, and the turn (rules.apply, _turn_error, _decision_error) -----------------
    "not_your_turn": gettext_noop("it is {player}'s turn"),
    "decision_pending": gettext_noop("the game is waiting for a {decision} decision first"),
    "already_rolled": gettext_noop("you have already rolled: end your turn"),
    "roll_first": gettext_noop("roll first"),
    "no_such_decision": gettext_noop("there is no {decision} decision pending"),
    "decision_of_another": gettext_noop("the {decision} decision is {player}'s"),
    "not_waiting_for_player": gettext_noop("the game is not waiting for this player"),
    "game_over": gettext_noop("the game is over"),
    "player_out": gettext_noop("{player} is out of the game"),
    # -- Malformed actions (what programs may send) --------------------------------------------
    "malformed_action": gettext_noop("an action is a mapping with 'type' and 'player'"),
    "unknown_action": gettext_noop("unknown action {kind}"),
    "bad_player": gettext_noop("'player' must be a seat number of this game"),
    "bad_square": gettext_noop("'square' must be 0-39"),
    "not_a_whole_number": gettext_noop("'{key}' must be a whole number"),
    "bad_clock_minutes": gettext_noop("clock minutes must be a whole number >= 0, got {value}"),
    # -- A new game ----------------------------------------------------------------------------
    "seat_count": gettext_noop("this rule set seats {lo}-{hi} players, not {count}"),
    "duplicate_names": gettext_noop("player names must be different"),
    "bad_teams": gettext_noop("a team game needs two teams of two covering every seat"),
    "teams_not_allowed": gettext_noop("teams are only for team rule sets"),
    # -- Jail and the decisions of a square ----------------------------------------------------
    "not_in_jail": gettext_noop("you are not in jail"),
    "jail_exit_too_late": gettext_noop("jail can be left this way only at the start of the turn"),
    "fine_unaffordable": gettext_noop("not enough cash for the {fine} fine"),
    "no_jail_card": gettext_noop("you hold no jail card"),
    "price_unaffordable": gettext_noop("not enough cash: the price is {price}"),
    "bad_tax_choice": gettext_noop("choice must be 'flat' or 'percent'"),
    "bad_casino_numbers": gettext_noop("stake on 1 to 3 different numbers from 1 to 6"),
    "stake_unaffordable": gettext_noop("the stake is {stake}"),
    "bad_bus_choice": gettext_noop("choice must be 'first', 'second' or 'sum'"),
    "bad_destroy_target": gettext_noop("pick an opponent's property with buildings"),
    # -- Auctions ------------------------------------------------------------------------------
    "no_auction": gettext_noop("there is no auction under way"),
    "bidding_over_placing": gettext_noop("the bidding is over; the winner is placing the building"),
    "bidding_over": gettext_noop("the bidding is over"),
    "not_a_bidder": gettext_noop("you are not a bidder in this auction"),
    "passed": gettext_noop("you have passed; a pass is final"),
    "holds_highest_bid": gettext_noop("you already hold the highest bid"),
    "not_your_bid": gettext_noop("it is not your turn to bid"),
    "bid_too_low": gettext_noop("the lowest bid now is {low}"),
    "bid_above_cash": gettext_noop("a bid of {amount} is above your cash ({cash})"),
    "not_bidding": gettext_noop("you are not bidding in this auction"),
    "highest_bidder_cannot_pass": gettext_noop("you hold the highest bid and cannot pass"),
    # (RULES.md 15, maximum bids)
    "maximum_too_low": gettext_noop("a maximum must be at least the lowest bid now ({low})"),
    "maximum_above_cash": gettext_noop("a maximum of {amount} is above your cash ({cash})"),
    "no_maximum": gettext_noop("you have left no maximum to withdraw"),
    # -- Building (RULES.md 8) -----------------------------------------------------------------
    "debt_only": gettext_noop(
        "while you owe a debt you may only sell buildings, mortgage, trade or surrender"),
    "build_before_roll": gettext_noop("you may build only in your own turn, before rolling"),
    "building_auction_under_way": gettext_noop("a building auction is under way"),
    "building_being_placed": gettext_noop("the winner of the building auction is placing it"),
    "cannot_build_here": gettext_noop("{square} cannot take buildings"),
    "not_owner": gettext_noop("you do not own {square}"),
    "group_incomplete": gettext_noop("you need every deed of the group to build"),
    "group_mortgaged": gettext_noop("a deed of the group is mortgaged"),
    "top_level": gettext_noop("{square} already has the top level"),
    "needs_hotel": gettext_noop("{square} needs a hotel, not a house"),
    "needs_house": gettext_noop("{square} needs a house, not a hotel"),
    "hotel_needs_houses": ngettext("a hotel needs {n} house on every deed of the group",
                                   "a hotel needs {n} houses on every deed of the group", "n"),
    "build_evenly": gettext_noop("build evenly: another deed of the group has fewer buildings"),
    "build_limit": ngettext("only {n} build per group per turn",
                            "only {n} builds per group per turn", "n"),
    "no_hotels_left": gettext_noop("the bank has no hotels left"),
    "no_houses_left": gettext_noop("the bank has no houses left"),
    "building_unaffordable": gettext_noop("not enough cash: a building costs {cost}"),
    # -- Selling and mortgages (RULES.md 8, 9) -------------------------------------------------
    "money_timing": gettext_noop("only during your own turn or while you owe a debt"),
    "group_has_no_buildings": gettext_noop("the group has no buildings"),
    "no_buildings": gettext_noop("{square} has no buildings"),
    "sell_evenly": gettext_noop("sell evenly: another deed of the group has more buildings"),
    "hotel_break_short": ngettext(
        "the bank has fewer than {n} house to break the hotel: sell the whole group (sell_all)",
        "the bank has fewer than {n} houses to break the hotel: sell the whole group (sell_all)",
        "n"),
    "already_mortgaged": gettext_noop("{square} is already mortgaged"),
    "sell_buildings_first": gettext_noop("sell the group's buildings before mortgaging"),
    "not_mortgaged": gettext_noop("{square} is not mortgaged"),
    "unmortgage_unaffordable": gettext_noop("not enough cash: lifting the mortgage costs {cost}"),
    "no_transferred_mortgage": gettext_noop(
        "there is no transferred mortgage of yours to decide on that square"),
    "auction_own_not_allowed": gettext_noop("this rule set does not allow auctioning your own deeds"),
    "auction_own_timing": gettext_noop(
        "you may auction a deed of yours only in your own turn, with nothing pending"),
    # -- Trades (RULES.md 9) -------------------------------------------------------------------
    "bad_trade_side": gettext_noop("'{side}' must be a mapping with cash, squares and cards"),
    "trade_side_unknown_keys": gettext_noop("'{side}' has unknown keys: {keys}"),
    "bad_trade_cash": gettext_noop("'{side}.cash' must be a whole number >= 0"),
    "bad_trade_squares": gettext_noop("'{side}.squares' must be a list of squares 0-39"),
    "trade_square_twice": gettext_noop("'{side}.squares' lists a square twice"),
    "bad_trade_cards": gettext_noop("'{side}.cards' must be a number of jail cards"),
    "bad_trade_partner": gettext_noop("'to' must name another player"),
    "trade_partner_out": gettext_noop("trades are with another player still in the game"),
    "empty_trade": gettext_noop("an empty trade"),
    "not_a_deed": gettext_noop("{square} is not a deed"),
    "player_not_owner": gettext_noop("{player} does not own {square}"),
    "group_has_buildings": gettext_noop(
        "{square}'s group has buildings: sell them before trading its deeds"),
    "mortgaged_not_tradeable": gettext_noop(
        "{square} is mortgaged and mortgaged deeds cannot be traded here"),
    "trade_cash_short": gettext_noop("{player} has only {cash} in cash"),
    "trade_cards_short": ngettext("{player} holds only {n} jail card",
                                  "{player} holds only {n} jail cards", "n"),
    "unbalanced_trade": gettext_noop(
        "unbalanced trade: {give} against {take} (the larger side may be at most twice the smaller)"),
    "offer_waiting": gettext_noop("a trade offer is already waiting for an answer"),
    "transfer_first": gettext_noop("a transferred mortgage must be decided first"),
    "trade_not_your_turn": gettext_noop("only the player whose turn it is may propose trades"),
    "trade_before_roll": gettext_noop("trades are proposed before rolling"),
    "trade_not_now": gettext_noop("trades can't be proposed now"),
    "trade_limit": ngettext("at most {n} trade proposal per turn",
                            "at most {n} trade proposals per turn", "n"),
    "no_offer": gettext_noop("no trade offer is waiting for an answer"),
    "not_the_offer": gettext_noop("trade {trade} is not the offer waiting for an answer"),
    "accept_not_yours": gettext_noop("only the player the offer is made to may accept it"),
    "trade_no_longer_possible": gettext_noop("the trade is no longer possible: {reason}"),
    "reject_not_yours": gettext_noop("only the player the offer is made to may reject it"),
    "cancel_not_yours": gettext_noop("only the proposer may cancel an offer"),
    # -- Rule sets (ruleset.py's InvalidRules: the custom table's form) ------------------------
    "option_invalid": gettext_noop("option {key}: invalid value {value}"),
    "option_not_int": gettext_noop("option {key}: expected a whole number, got {value}"),
    "option_not_int_or_null": gettext_noop(
        "option {key}: expected a whole number or null, got {value}"),
    "option_too_small": gettext_noop("option {key}: must be at least {minimum}, got {value}"),
    "option_not_bool": gettext_noop("option {key}: expected true or false, got {value}"),
    "option_not_choice": gettext_noop("option {key}: expected one of {choices}, got {value}"),
    "option_not_fraction": gettext_noop(
        "option {key}: expected a fraction between 0 and 1, got {value}"),
    "option_not_int_or_price": gettext_noop(
        "option {key}: expected a whole number or 'price', got {value}"),
    "option_seats_shape": gettext_noop("option 'seats': expected [min, max], got {value}"),
    "option_seats_range": gettext_noop("option 'seats': need 2 <= min <= max <= 8, got {lo}-{hi}"),
    "unknown_preset": gettext_noop("unknown preset {preset}; expected one of {choices}"),
    "options_not_mapping": gettext_noop(
        "options must be a mapping of option keys to values, got {value}"),
    "unknown_option": gettext_noop("unknown option {key}"),
    "option_houses_before_hotel": gettext_noop(
        "option 'houses_before_hotel': at most 4 houses fit on a deed"),
    "option_deck_board": gettext_noop("option 'deck': deck {deck} does not fit the {board} board"),
    "option_casino_board": gettext_noop("option 'casino': the casino needs the world board"),
    "option_teams_seats": gettext_noop("option 'teams': team games are two teams of two (seats 4-4)"),
    "option_trade_mortgaged_teams": gettext_noop("option 'trade_mortgaged': 'teammates' needs teams"),
}

# Parameters by their meaning, for a page that words them: amounts of cash (with the currency
# sign), player names (the page may show a renamed player's current name), and the decision the
# game waits for (a word of its own to translate).
MONEY_PARAMS = frozenset({"amount", "cash", "cost", "fine", "give", "low", "price", "stake", "take"})
PLAYER_PARAMS = frozenset({"player"})

# The decision the game waits for, as the engine names it (its pending kind).
DECISIONS: dict[str, str] = {
    "buy": pgettext("decision", "buy"),
    "auction": pgettext("decision", "auction"),
    "building_auction": pgettext("decision", "building auction"),
    "debt": pgettext("decision", "debt"),
    "trade_response": pgettext("decision", "trade response"),
    "mortgage_transfer": pgettext("decision", "mortgage transfer"),
    "income_tax": pgettext("decision", "income tax"),
    "casino": pgettext("decision", "casino"),
    "bus": pgettext("decision", "bus"),
    "teleport": pgettext("decision", "teleport"),
    "destroy": pgettext("decision", "destroy"),
}


class Refusal:
    """One refusal: its ``code`` (a key of ``MESSAGES``) and ``params``. Truthy, so a predicate's
    ``err = a(...) or b(...)`` reads as before."""

    __slots__ = ("code", "params")

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return refusal_text(self)

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}, {self.params!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Refusal) and other.code == self.code
                and other.params == self.params)

    def __hash__(self) -> int:
        return hash(self.code)

    def as_json(self) -> dict[str, Any]:
        """``{"code": ..., "params": {...}}``, a nested refusal in the same shape."""
        return {"code": self.code,
                "params": {k: v.as_json() if isinstance(v, Refusal) else v
                           for k, v in self.params.items()}}


def _english(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _english_context(context: str, message: str) -> str:
    return message


def _plain(amount: int) -> str:
    return str(amount)


def refusal_text(refusal: Refusal, *,
                 gettext: Callable[[str], str] = _english,
                 ngettext: Callable[[str, str, int], str] = _english_plural,
                 pgettext: Callable[[str, str], str] = _english_context,
                 money: Callable[[int], str] = _plain,
                 names: Mapping[str, str] | None = None) -> str:
    """The refusal's sentence through the given translation functions (English without them).
    ``money`` words an amount (plain digits by default, as the engine always wrote them);
    ``names`` maps a player's name as the state has it to the name to show."""
    entry = MESSAGES[refusal.code]
    values: dict[str, Any] = {}
    for key, value in refusal.params.items():
        if isinstance(value, Refusal):
            value = refusal_text(value, gettext=gettext, ngettext=ngettext, pgettext=pgettext,
                                 money=money, names=names)
        elif key in MONEY_PARAMS and isinstance(value, int):
            value = money(value)
        elif key in PLAYER_PARAMS and names:
            value = names.get(value, value)
        elif key == "decision":
            word = DECISIONS.get(value)
            value = pgettext("decision", word) if word is not None else str(value).replace("_", " ")
        values[key] = value
    if isinstance(entry, Plural):
        text = ngettext(entry.singular, entry.plural, int(refusal.params[entry.count]))
    else:
        text = gettext(entry)
    return text.format(**values)
