"""Events in words: what the game log and notifications show.

An event is a small dict with an ``e`` kind and fields (seat numbers, squares, amounts). The
words are produced here, from the player names and the board, so stored events stay compact.
"""

from __future__ import annotations

from .boards import Board
from .cards import card_text

BANK = -1


def _money(amount: int) -> str:
    return f"${amount:,}"


def describe(event: dict, names: list[str], board: Board) -> str:
    """One line of English for one event."""
    e = event.get("e")

    def who(key: str = "p") -> str:
        i = event.get(key)
        if i is None or i == BANK:
            return "the bank"
        return names[i] if 0 <= i < len(names) else f"seat {i}"

    def sq(key: str = "sq") -> str:
        i = event.get(key)
        return board.name_of(i) if isinstance(i, int) and 0 <= i < 40 else "?"

    amount = event.get("amount", 0)
    house, hotel = board.level_names
    match e:
        case "start":
            return f"The game starts; {who('first')} plays first."
        case "first_roll":
            rolls = ", ".join(f"{names[int(k)]} {v}" for k, v in event["rolls"].items())
            return f"Rolling for the first turn: {rolls}."
        case "dealt":
            paid = f" for {_money(event['price'])}" if event.get("price") else ""
            return f"{who()} is dealt {sq()}{paid}."
        case "turn":
            return f"Round {event['round']}: {who()}'s turn."
        case "roll":
            dice = " + ".join(str(d).upper() if isinstance(d, str) else str(d) for d in event["dice"])
            return f"{who()} rolls {dice}{' (in jail)' if event.get('jail') else ''}."
        case "dice":
            return f"{who()} throws {' + '.join(map(str, event['dice']))}."
        case "third_doubles":
            return f"{who()} rolled doubles three times in a row."
        case "move":
            return f"{who()} moves to {sq('to')}."
        case "salary":
            return f"{who()} collects {_money(amount)} salary."
        case "buy":
            return f"{who()} buys {sq()} for {_money(event['price'])}."
        case "decline":
            return f"{who()} declines to buy {sq()}."
        case "auction":
            kinds = {"deed": "", "expiry": " (mortgage expired)", "own": " (sold by its owner)",
                     "building": f" ({house} or {hotel} shortage)"}
            return f"Auction of {sq()}{kinds.get(event['what'], '')}, opening at {_money(event['opening'])}."
        case "bid":
            return f"{who()} bids {_money(amount)}."
        case "pass":
            return f"{who()} passes."
        case "auction_won":
            return f"{who()} wins the auction of {sq()} for {_money(amount)}."
        case "auction_unsold":
            return f"No bids for {sq()}."
        case "rent":
            tax = f" ({_money(event['tax'])} rent tax to the bank)" if event.get("tax") else ""
            return f"{who()} owes {_money(amount)} rent to {who('owner')} for {sq()}{tax}."
        case "no_rent":
            why = {"mortgaged": "it is mortgaged", "owner_in_jail": "its owner is in jail",
                   "teammate": "its owner is a teammate"}.get(event.get("why"), "")
            return f"No rent on {sq()}: {why}."
        case "pay":
            return f"{who()} pays {_money(amount)} to {who('to')} ({event.get('why', '')})."
        case "collect":
            return f"{who()} collects {_money(amount)}."
        case "card":
            return f"{who()} draws: {card_text(event['card'])}"
        case "reshuffle":
            return f"The {event['deck']} deck is reshuffled."
        case "deck_empty":
            return f"The {event['deck']} deck is empty."
        case "jail":
            return f"{who()} goes to jail."
        case "leave_jail":
            how = {"fine": "pays the fine", "card": "uses a jail card", "doubles": "rolls doubles"}
            return f"{who()} {how.get(event.get('how'), 'leaves')} and leaves jail."
        case "jail_fine_due":
            return f"{who()} failed a third time and must pay the fine."
        case "income_tax":
            return f"{who()} pays income tax: {_money(amount)} ({event['choice']})."
        case "free_parking":
            return f"{who()} takes the Free Parking pot of {_money(amount)}."
        case "casino":
            nums = ", ".join(map(str, event["numbers"]))
            won = f"wins {_money(event['won'])}" if event["won"] else "loses the stake"
            pool = f" and the jackpot of {_money(event['pool'])}" if event.get("pool") else ""
            return f"{who()} stakes on {nums}; the die shows {event['die']}: {won}{pool}."
        case "casino_skip":
            return f"{who()} walks past the casino."
        case "bus":
            return f"{who()} takes the bus ({event['choice']})."
        case "teleport":
            return f"{who()} rolled a triple and jumps to {sq()}."
        case "m1":
            return f"{who()} moves on to {sq('to')} (Mr. Monopoly)."
        case "m1_none":
            return f"{who()} has nowhere to go on (Mr. Monopoly)."
        case "destroy":
            return f"{who()} knocks a level off {sq()}."
        case "destroy_none":
            return f"{who()} finds no building to knock down."
        case "build":
            lv = event["level"]
            return f"{who()} builds on {sq()}: now {hotel if lv == 5 else f'{lv} {house}(s)'}."
        case "sell":
            return f"{who()} sells a building on {sq()} for {_money(event['refund'])}."
        case "shortage":
            return f"The bank is short of {event['building']}s: it goes to auction."
        case "mortgage":
            return f"{who()} mortgages {sq()} for {_money(amount)}."
        case "unmortgage":
            return f"{who()} lifts the mortgage on {sq()} for {_money(amount)}."
        case "keep_mortgaged":
            return f"{who()} keeps {sq()} mortgaged and pays {_money(amount)}."
        case "expired":
            return f"The mortgage on {sq()} has expired: the deed goes to auction."
        case "trade_proposed":
            return f"{who()} offers {who('to')} a trade (#{event['trade']})."
        case "trade_accepted":
            return f"Trade #{event['trade']} is accepted."
        case "trade_rejected":
            return f"Trade #{event['trade']} is rejected."
        case "trade_cancelled":
            return f"Trade #{event['trade']} is withdrawn."
        case "debt":
            return f"{who()} owes {_money(amount)} to {who('to')} and must raise the money."
        case "debt_settled":
            return f"{who()} has paid the debt."
        case "cannot_pay":
            return f"{who()} cannot pay {_money(amount)}."
        case "bankrupt":
            return f"{who()} is bankrupt{'' if event.get('to') in (None, BANK) else ' to ' + who('to')}."
        case "surrender":
            return f"{who()} surrenders."
        case "missed":
            return f"{who()} missed a decision ({event['count']} in a row)."
        case "timeout":
            return f"Time ran out for {who()}: the default was applied."
        case "time_up":
            return "Time is up: the richest player wins."
        case "game_over":
            return f"Game over: {who('winner')} wins."
    return e or "?"
