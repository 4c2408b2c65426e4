"""Events in words: what the game log and notifications show.

An event is a small dict with an ``e`` kind and fields (seat numbers, squares, amounts). The
words are produced here, from the player names and the board, so stored events stay compact.

The engine knows no Django, yet the site shows the log in the reader's language: ``describe``
takes the translation function as an argument (English when none is given). Every sentence is
one whole message with named placeholders, so that a translator can reorder its parts, and
every message is written as a literal ``gettext("...")`` call, so that Django's makemessages
finds it here.
"""

from __future__ import annotations

from collections.abc import Callable

from .boards import Board
from .cards import card_text

BANK = -1


def _grouped(amount: int) -> str:
    return f"{amount:,}"


def _money(amount: int, currency: str = "$", number: Callable[[int], str] = _grouped) -> str:
    return f"{currency}{number(amount)}"


def _english(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


# Events only their own player may read while the game is on (RULES.md 15: a maximum bid is
# secret until its auction ends; a finished game's replay shows everything).
SECRET_EVENTS = frozenset({"max_bid"})


def visible_to(event: dict, seat: int | None) -> bool:
    """Whether the player at ``seat`` (None: a spectator) may read ``event`` while the game
    runs: every event but a secret one of another player."""
    return event.get("e") not in SECRET_EVENTS or (seat is not None and event.get("p") == seat)


def describe(event: dict, names: list[str], board: Board,
             gettext: Callable[[str], str] = _english,
             number: Callable[[int], str] = _grouped,
             ngettext: Callable[[str, str, int], str] = _english_plural) -> str:
    """One line of the game log for one event, through ``gettext`` and ``ngettext`` (the
    language's plural forms: "1 house", "2 houses"; English without them); amounts are written
    by ``number`` (English digit grouping without one: "1,500")."""
    e = event.get("e")

    def who(key: str = "p") -> str:
        i = event.get(key)
        if i is None or i == BANK:
            return gettext("the bank")
        return names[i] if 0 <= i < len(names) else gettext("seat {n}").format(n=i)

    def sq(key: str = "sq") -> str:
        i = event.get(key)
        return board.name_of(i) if isinstance(i, int) and 0 <= i < 40 else "?"

    def reason(why: str) -> str:
        # The engine's name for a payment's cause; an unknown one is shown as it is.
        match why:
            case "rent":
                return gettext("rent")
            case "tax":
                return gettext("tax")
            case "card":
                return gettext("card")
            case "jail fine":
                return gettext("jail fine")
            case "auction":
                return gettext("auction")
            case "repairs":
                return gettext("repairs")
            case "transfer fee":
                return gettext("transfer fee")
        return why

    def money(n: int) -> str:
        return _money(n, board.currency, number)

    def side(part: dict) -> str:
        # What one side of a trade gives (RULES.md 9): cash, deeds, jail cards.
        items = [money(part["cash"])] if part.get("cash") else []
        items += [board.name_of(i) for i in part.get("squares", ()) if isinstance(i, int) and 0 <= i < 40]
        cards = part.get("cards") or 0
        if cards == 1:
            items.append(gettext("a jail card"))
        elif cards:
            items.append(gettext("{n} jail cards").format(n=cards))
        if not items:
            return gettext("nothing")
        if len(items) == 1:
            return items[0]
        return gettext("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])

    amount = event.get("amount", 0)
    house, hotel = board.level_names
    match e:
        case "start":
            return gettext("The game starts; {who} plays first.").format(who=who("first"))
        case "first_roll":
            rolls = ", ".join(f"{names[int(k)]} {v}" for k, v in event["rolls"].items())
            return gettext("Rolling for the first turn: {rolls}.").format(rolls=rolls)
        case "dealt":
            if event.get("price"):
                return gettext("{who} is dealt {square} for {price}.").format(
                    who=who(), square=sq(), price=money(event["price"]))
            return gettext("{who} is dealt {square}.").format(who=who(), square=sq())
        case "turn":
            return gettext("Round {round}: {who}'s turn.").format(round=event["round"], who=who())
        case "roll":
            dice = " + ".join(str(d).upper() if isinstance(d, str) else str(d)
                              for d in event["dice"])
            if event.get("jail"):
                return gettext("{who} rolls {dice} (in jail).").format(who=who(), dice=dice)
            return gettext("{who} rolls {dice}.").format(who=who(), dice=dice)
        case "dice":
            return gettext("{who} throws {dice}.").format(
                who=who(), dice=" + ".join(map(str, event["dice"])))
        case "third_doubles":
            return gettext("{who} rolled doubles three times in a row.").format(who=who())
        case "move":
            return gettext("{who} moves to {square}.").format(who=who(), square=sq("to"))
        case "salary":
            return gettext("{who} collects {amount} salary.").format(
                who=who(), amount=money(amount))
        case "buy":
            return gettext("{who} buys {square} for {price}.").format(
                who=who(), square=sq(), price=money(event["price"]))
        case "decline":
            return gettext("{who} declines to buy {square}.").format(who=who(), square=sq())
        case "auction":
            parts = {"square": sq(), "price": money(event["opening"])}
            match event["what"]:
                case "expiry":
                    text = gettext("Auction of {square} (mortgage expired), opening at {price}.")
                case "own":
                    text = gettext("Auction of {square} (sold by its owner), opening at {price}.")
                case "building" if (house, hotel) == ("branch", "corporation"):
                    text = gettext("Auction of {square} (branch or corporation shortage), "
                                   "opening at {price}.")
                case "building" if (house, hotel) == ("house", "hotel"):
                    text = gettext("Auction of {square} (house or hotel shortage), "
                                   "opening at {price}.")
                case "building":
                    text = (f"Auction of {{square}} ({house} or {hotel} shortage), "
                            "opening at {price}.")
                case _:
                    text = gettext("Auction of {square}, opening at {price}.")
            return text.format(**parts)
        case "bid":
            if event.get("by") == "max":
                return gettext("{who} bids {amount} (by maximum).").format(who=who(), amount=money(amount))
            return gettext("{who} bids {amount}.").format(who=who(), amount=money(amount))
        case "pass":
            if event.get("by") == "max":
                return gettext("{who} passes (by maximum).").format(who=who())
            return gettext("{who} passes.").format(who=who())
        case "max_bid":
            # Secret (RULES.md 15): only its player is shown this (see visible_to).
            if amount:
                return gettext("{who} leaves a maximum bid of {amount}.").format(
                    who=who(), amount=money(amount))
            return gettext("{who} withdraws their maximum bid.").format(who=who())
        case "auction_won":
            return gettext("{who} wins the auction of {square} for {amount}.").format(
                who=who(), square=sq(), amount=money(amount))
        case "auction_unsold":
            return gettext("No bids for {square}.").format(square=sq())
        case "rent":
            parts = {"who": who(), "amount": money(amount), "owner": who("owner"), "square": sq()}
            if event.get("tax"):
                return gettext("{who} owes {amount} rent to {owner} for {square} "
                               "({tax} rent tax to the bank).").format(
                    tax=money(event["tax"]), **parts)
            return gettext("{who} owes {amount} rent to {owner} for {square}.").format(**parts)
        case "no_rent":
            match event.get("why"):
                case "mortgaged":
                    why = gettext("it is mortgaged")
                case "owner_in_jail":
                    why = gettext("its owner is in jail")
                case "teammate":
                    why = gettext("its owner is a teammate")
                case _:
                    why = ""
            return gettext("No rent on {square}: {why}.").format(square=sq(), why=why)
        case "pay":
            return gettext("{who} pays {amount} to {to} ({why}).").format(
                who=who(), amount=money(amount), to=who("to"), why=reason(event.get("why", "")))
        case "collect":
            return gettext("{who} collects {amount}.").format(who=who(), amount=money(amount))
        case "card":
            # Card texts are marked for translation in cards.py and translated here.
            return gettext("{who} draws: {card}").format(
                who=who(), card=gettext(card_text(event["card"])))
        case "reshuffle":
            match event["deck"]:
                case "chance":
                    return gettext("The chance deck is reshuffled.")
                case "chest":
                    return gettext("The chest deck is reshuffled.")
                case "luck":
                    return gettext("The luck deck is reshuffled.")
            return f"The {event['deck']} deck is reshuffled."
        case "deck_empty":
            match event["deck"]:
                case "chance":
                    return gettext("The chance deck is empty.")
                case "chest":
                    return gettext("The chest deck is empty.")
                case "luck":
                    return gettext("The luck deck is empty.")
            return f"The {event['deck']} deck is empty."
        case "jail":
            return gettext("{who} goes to jail.").format(who=who())
        case "leave_jail":
            match event.get("how"):
                case "fine":
                    text = gettext("{who} pays the fine and leaves jail.")
                case "card":
                    text = gettext("{who} uses a jail card and leaves jail.")
                case "doubles":
                    text = gettext("{who} rolls doubles and leaves jail.")
                case _:
                    text = gettext("{who} leaves and leaves jail.")
            return text.format(who=who())
        case "jail_fine_due":
            return gettext("{who} failed a third time and must pay the fine.").format(who=who())
        case "income_tax":
            parts = {"who": who(), "amount": money(amount)}
            match event["choice"]:
                case "flat":
                    return gettext("{who} pays income tax: {amount} (flat).").format(**parts)
                case "percent":
                    return gettext("{who} pays income tax: {amount} (percent).").format(**parts)
            return f"{parts['who']} pays income tax: {parts['amount']} ({event['choice']})."
        case "free_parking":
            return gettext("{who} takes the Free Parking pot of {amount}.").format(
                who=who(), amount=money(amount))
        case "casino":
            parts = {"who": who(), "numbers": ", ".join(map(str, event["numbers"])),
                     "die": event["die"], "won": money(event["won"]),
                     "pool": money(event.get("pool") or 0)}
            if event["won"] and event.get("pool"):
                text = gettext("{who} stakes on {numbers}; the die shows {die}: wins {won} "
                               "and the jackpot of {pool}.")
            elif event["won"]:
                text = gettext("{who} stakes on {numbers}; the die shows {die}: wins {won}.")
            elif event.get("pool"):
                # A losing stake can still draw the jackpot (RULES.md 11).
                text = gettext("{who} stakes on {numbers}; the die shows {die}: loses the stake "
                               "and the jackpot of {pool}.")
            else:
                text = gettext("{who} stakes on {numbers}; the die shows {die}: loses the stake.")
            return text.format(**parts)
        case "casino_skip":
            return gettext("{who} walks past the casino.").format(who=who())
        case "bus":
            match event["choice"]:
                case "first":
                    return gettext("{who} takes the bus (first).").format(who=who())
                case "second":
                    return gettext("{who} takes the bus (second).").format(who=who())
                case "sum":
                    return gettext("{who} takes the bus (sum).").format(who=who())
            return f"{who()} takes the bus ({event['choice']})."
        case "teleport":
            return gettext("{who} rolled a triple and jumps to {square}.").format(
                who=who(), square=sq())
        case "m1":
            return gettext("{who} moves on to {square} (Mr. Monopoly).").format(
                who=who(), square=sq("to"))
        case "m1_none":
            return gettext("{who} has nowhere to go on (Mr. Monopoly).").format(who=who())
        case "destroy":
            return gettext("{who} knocks a level off {square}.").format(who=who(), square=sq())
        case "destroy_none":
            return gettext("{who} finds no building to knock down.").format(who=who())
        case "build":
            lv = event["level"]
            parts = {"who": who(), "square": sq(), "n": lv}
            match (house, hotel, lv == 5):
                case ("house", "hotel", True):
                    text = gettext("{who} builds on {square}: now hotel.")
                case ("house", "hotel", False):
                    text = ngettext("{who} builds on {square}: now {n} house.",
                                    "{who} builds on {square}: now {n} houses.", lv)
                case ("branch", "corporation", True):
                    text = gettext("{who} builds on {square}: now corporation.")
                case ("branch", "corporation", False):
                    text = ngettext("{who} builds on {square}: now {n} branch.",
                                    "{who} builds on {square}: now {n} branches.", lv)
                case _:
                    level = hotel if lv == 5 else f"{lv} {house}" + ("" if lv == 1 else "s")
                    text = f"{{who}} builds on {{square}}: now {level}."
            return text.format(**parts)
        case "sell":
            return gettext("{who} sells a building on {square} for {amount}.").format(
                who=who(), square=sq(), amount=money(event["refund"]))
        case "shortage":
            match event["building"]:
                case "house":
                    return gettext("The bank is short of houses: it goes to auction.")
                case "hotel":
                    return gettext("The bank is short of hotels: it goes to auction.")
            return f"The bank is short of {event['building']}s: it goes to auction."
        case "mortgage":
            return gettext("{who} mortgages {square} for {amount}.").format(
                who=who(), square=sq(), amount=money(amount))
        case "unmortgage":
            return gettext("{who} lifts the mortgage on {square} for {amount}.").format(
                who=who(), square=sq(), amount=money(amount))
        case "keep_mortgaged":
            return gettext("{who} keeps {square} mortgaged and pays {amount}.").format(
                who=who(), square=sq(), amount=money(amount))
        case "expired":
            return gettext("The mortgage on {square} has expired: "
                           "the deed goes to auction.").format(square=sq())
        case "trade_proposed":
            if "give" in event and "take" in event:
                return gettext("{who} offers {to} a trade (#{trade}): {give} for {take}.").format(
                    who=who(), to=who("to"), trade=event["trade"], give=side(event["give"]),
                    take=side(event["take"]))
            return gettext("{who} offers {to} a trade (#{trade}).").format(
                who=who(), to=who("to"), trade=event["trade"])
        case "trade_accepted":
            # Events stored before the accepted trade carried its contents say only its number.
            if "give" in event and "take" in event and "proposer" in event:
                return gettext("Trade #{trade} is accepted: {proposer} gives {give}; {who} gives "
                               "{take}.").format(trade=event["trade"], proposer=who("proposer"), who=who(),
                                                 give=side(event["give"]), take=side(event["take"]))
            return gettext("Trade #{trade} is accepted.").format(trade=event["trade"])
        case "trade_rejected":
            return gettext("Trade #{trade} is rejected.").format(trade=event["trade"])
        case "trade_cancelled":
            return gettext("Trade #{trade} is withdrawn.").format(trade=event["trade"])
        case "debt":
            return gettext("{who} owes {amount} to {to} and must raise the money.").format(
                who=who(), amount=money(amount), to=who("to"))
        case "debt_settled":
            return gettext("{who} has paid the debt.").format(who=who())
        case "cannot_pay":
            return gettext("{who} cannot pay {amount}.").format(who=who(), amount=money(amount))
        case "bankrupt":
            if event.get("to") in (None, BANK):
                return gettext("{who} is bankrupt.").format(who=who())
            return gettext("{who} is bankrupt to {to}.").format(who=who(), to=who("to"))
        case "surrender":
            return gettext("{who} surrenders.").format(who=who())
        case "missed":
            return gettext("{who} missed a decision ({count} in a row).").format(
                who=who(), count=event["count"])
        case "timeout":
            return gettext("Time ran out for {who}: the default was applied.").format(who=who())
        case "time_up":
            return gettext("Time is up: the richest player wins.")
        case "round_limit":
            return gettext("Round {n} was the last: the game ends, ranked by net worth.").format(n=event["round"])
        case "note":
            if event.get("what") == "nudge":
                return gettext("{who} nudged {to}.").format(who=who("by"), to=who())
            return _note(event, who(), gettext)
        case "reseed":
            return gettext("From here on the dice and the cards are this game's own: fresh, not the old game's.")
        case "agreed_end":
            return gettext("Every player agreed to end the game in round {n}: net worth ranks them.").format(
                n=event["round"])
        case "game_over":
            return gettext("Game over: {who} wins.").format(who=who("winner"))
    return e or "?"


def _note(event: dict, who: str, gettext: Callable[[str], str]) -> str:
    """The log's line of a site note (RULES.md 16, rules/site.py)."""
    match event.get("what"):
        case "auto_vacation":
            return gettext("{who} takes a vacation day instead of a timeout.").format(who=who)
        case "back_from_bot":
            return gettext("{who} takes their seat back from the bot.").format(who=who)
        case "pause_cap":
            return gettext("The pause reached its length: the countdown to resume starts.")
        case "end_proposed":
            return gettext("{who} proposes to end the game, ranked by net worth.").format(who=who)
        case "end_agree":
            return gettext("{who} agrees to end the game.").format(who=who)
        case "end_decline":
            return gettext("{who} declines to end the game.").format(who=who)
        case "end_withdraw":
            return gettext("{who} withdraws the proposal to end the game.").format(who=who)
        case "end_lapsed":
            return gettext("The proposal to end the game lapsed: not every player agreed in time.")
    return "?"
