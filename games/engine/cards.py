"""Luck cards of RULES.md section 5: ids, the words shown to players, and what each does.

Effects are data: ``(effect, argument...)``; the rules module interprets them.
"""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """Mark a card's words for translation without translating them here.

    The engine stays free of Django: Django's makemessages finds the texts by this name, and
    the site translates them when it shows a card (``events.describe`` takes its gettext).
    """
    return message


# (id, text, effect)
CHANCE = (
    ("advance_to_boardwalk", gettext_noop("Advance to Boardwalk."), ("move_to", 39)),
    ("advance_to_go", gettext_noop("Advance to GO. Collect your salary."), ("move_to", 0)),
    ("advance_to_illinois", gettext_noop("Advance to Illinois Avenue. If you pass GO, collect your salary."), ("move_to", 24)),
    ("advance_to_st_charles", gettext_noop("Advance to St. Charles Place. If you pass GO, collect your salary."), ("move_to", 11)),
    ("nearest_railroad_1", gettext_noop("Advance to the nearest Railroad. If owned, pay the owner twice the rent; if unowned, you may buy it."), ("nearest", "railroad", "double")),
    ("nearest_railroad_2", gettext_noop("Advance to the nearest Railroad. If owned, pay the owner twice the rent; if unowned, you may buy it."), ("nearest", "railroad", "double")),
    ("nearest_utility", gettext_noop("Advance to the nearest Utility. If owned, throw the dice and pay the owner 10 times the amount thrown; if unowned, you may buy it."), ("nearest", "utility", "ten_times")),
    ("dividend_50", gettext_noop("Bank pays you a dividend of $50."), ("collect", 50)),
    ("jail_free_chance", gettext_noop("Get Out of Jail Free. Keep this card until needed, or trade it."), ("jail_card",)),
    ("back_3", gettext_noop("Go back 3 spaces."), ("back", 3)),
    ("go_to_jail_chance", gettext_noop("Go to Jail. Go directly to Jail, do not pass GO, do not collect your salary."), ("go_to_jail",)),
    ("general_repairs", gettext_noop("Make general repairs on all your property: pay $25 per house and $100 per hotel."), ("repairs", 25, 100)),
    ("speeding_fine_15", gettext_noop("Speeding fine: pay $15."), ("pay", 15)),
    ("trip_to_reading", gettext_noop("Take a trip to Reading Railroad. If you pass GO, collect your salary."), ("move_to", 5)),
    ("chairman_pay_each_50", gettext_noop("You have been elected Chairman of the Board: pay each player $50."), ("pay_each", 50)),
    ("building_loan_150", gettext_noop("Your building loan matures: collect $150."), ("collect", 150)),
)
CHEST = (
    ("advance_to_go_cc", gettext_noop("Advance to GO. Collect your salary."), ("move_to", 0)),
    ("bank_error_200", gettext_noop("Bank error in your favour: collect $200."), ("collect", 200)),
    ("doctor_fee_50", gettext_noop("Doctor's fee: pay $50."), ("pay", 50)),
    ("stock_sale_50", gettext_noop("From the sale of stock you get $50."), ("collect", 50)),
    ("jail_free_cc", gettext_noop("Get Out of Jail Free. Keep this card until needed, or trade it."), ("jail_card",)),
    ("go_to_jail_cc", gettext_noop("Go to Jail. Go directly to Jail, do not pass GO, do not collect your salary."), ("go_to_jail",)),
    ("holiday_fund_100", gettext_noop("Holiday fund matures: receive $100."), ("collect", 100)),
    ("tax_refund_20", gettext_noop("Income tax refund: collect $20."), ("collect", 20)),
    ("birthday_collect_10_each", gettext_noop("It is your birthday: collect $10 from every player."), ("collect_each", 10)),
    ("life_insurance_100", gettext_noop("Life insurance matures: collect $100."), ("collect", 100)),
    ("hospital_fees_100", gettext_noop("Pay hospital fees of $100."), ("pay", 100)),
    ("school_fees_50", gettext_noop("Pay school fees of $50."), ("pay", 50)),
    ("consultancy_25", gettext_noop("Receive a $25 consultancy fee."), ("collect", 25)),
    ("street_repairs", gettext_noop("You are assessed for street repairs: $40 per house, $115 per hotel."), ("repairs", 40, 115)),
    ("beauty_contest_10", gettext_noop("You have won second prize in a beauty contest: collect $10."), ("collect", 10)),
    ("inherit_100", gettext_noop("You inherit $100."), ("collect", 100)),
)
LUCK = (
    ("w_advance_to_start", gettext_noop("Advance to Start. Collect your salary and the landing bonus."), ("move_to", 0)),
    ("w_go_to_jail", gettext_noop("Go to Jail. Do not pass Start."), ("go_to_jail",)),
    ("w_go_to_casino", gettext_noop("Go to the Casino. If you pass Start, collect your salary."), ("move_to", 20)),
    ("w_advance_to_24", gettext_noop("Advance to square 24. If you pass Start, collect your salary."), ("move_to", 24)),
    ("w_advance_to_11", gettext_noop("Advance to square 11. If you pass Start, collect your salary."), ("move_to", 11)),
    ("w_advance_to_39", gettext_noop("Advance to square 39."), ("move_to", 39)),
    ("w_nearest_finance", gettext_noop("Advance to the nearest finance company: pay the usual rent, or buy it if unowned."), ("nearest", "railroad", "usual")),
    ("w_nearest_industry", gettext_noop("Advance to the nearest industrial company: throw the dice for the usual rent, or buy it if unowned."), ("nearest", "utility", "usual")),
    ("w_back_3", gettext_noop("Go back 3 squares."), ("back", 3)),
    ("w_collect_500", gettext_noop("Collect $500."), ("collect", 500)),
    ("w_collect_1000", gettext_noop("Collect $1,000."), ("collect", 1000)),
    ("w_collect_2000", gettext_noop("Collect $2,000."), ("collect", 2000)),
    ("w_pay_500", gettext_noop("Pay $500."), ("pay", 500)),
    ("w_pay_1000", gettext_noop("Pay $1,000."), ("pay", 1000)),
    ("w_pay_1500", gettext_noop("Pay $1,500."), ("pay", 1500)),
    ("w_collect_500_each", gettext_noop("Collect $500 from every player."), ("collect_each", 500)),
    ("w_pay_500_each", gettext_noop("Pay every player $500."), ("pay_each", 500)),
    ("w_repairs_small", gettext_noop("Repairs: pay $250 per branch and $1,000 per corporation."), ("repairs", 250, 1000)),
    ("w_repairs_large", gettext_noop("Repairs: pay $400 per branch and $1,150 per corporation."), ("repairs", 400, 1150)),
    ("w_jail_free", gettext_noop("Get Out of Jail Free. Keep this card until needed, or trade it."), ("jail_card",)),
)
DESTROY = (("w_destroy_building", gettext_noop("Pick one opponent's property with buildings: it loses one level."), ("destroy",)),)

# deck option -> {deck name: cards in the rule book's order}
DECKS: dict[str, dict[str, tuple]] = {
    "classic": {"chance": CHANCE, "chest": CHEST},
    "world": {"luck": LUCK},
    "world_duel": {"luck": LUCK + DESTROY},
}
CARDS: dict[str, tuple[str, str, tuple]] = {}
for _deck in (("chance", CHANCE), ("chest", CHEST), ("luck", LUCK + DESTROY)):
    for _id, _text, _effect in _deck[1]:
        CARDS[_id] = (_deck[0], _text, _effect)
JAIL_CARDS = frozenset(cid for cid, (_, _, eff) in CARDS.items() if eff[0] == "jail_card")


def deck_order(deck_option: str) -> dict[str, list[str]]:
    """Every deck of a rule set, in the rule book's order."""
    return {name: [c[0] for c in cards] for name, cards in DECKS[deck_option].items()}


def card_deck(card_id: str) -> str:
    return CARDS[card_id][0]


def card_text(card_id: str) -> str:
    return CARDS[card_id][1]


def card_effect(card_id: str) -> tuple:
    return CARDS[card_id][2]
