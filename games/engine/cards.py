"""Luck cards of RULES.md section 5: ids, the words shown to players, and what each does.

Effects are data: ``(effect, argument...)``; the rules module interprets them.
"""

from __future__ import annotations

# (id, text, effect)
CHANCE = (
    ("advance_to_boardwalk", "Advance to Boardwalk.", ("move_to", 39)),
    ("advance_to_go", "Advance to GO. Collect your salary.", ("move_to", 0)),
    ("advance_to_illinois", "Advance to Illinois Avenue. If you pass GO, collect your salary.", ("move_to", 24)),
    ("advance_to_st_charles", "Advance to St. Charles Place. If you pass GO, collect your salary.", ("move_to", 11)),
    ("nearest_railroad_1", "Advance to the nearest Railroad. If owned, pay the owner twice the rent; if unowned, you may buy it.", ("nearest", "railroad", "double")),
    ("nearest_railroad_2", "Advance to the nearest Railroad. If owned, pay the owner twice the rent; if unowned, you may buy it.", ("nearest", "railroad", "double")),
    ("nearest_utility", "Advance to the nearest Utility. If owned, throw the dice and pay the owner 10 times the amount thrown; if unowned, you may buy it.", ("nearest", "utility", "ten_times")),
    ("dividend_50", "Bank pays you a dividend of $50.", ("collect", 50)),
    ("jail_free_chance", "Get Out of Jail Free. Keep this card until needed, or trade it.", ("jail_card",)),
    ("back_3", "Go back 3 spaces.", ("back", 3)),
    ("go_to_jail_chance", "Go to Jail. Go directly to Jail, do not pass GO, do not collect your salary.", ("go_to_jail",)),
    ("general_repairs", "Make general repairs on all your property: pay $25 per house and $100 per hotel.", ("repairs", 25, 100)),
    ("speeding_fine_15", "Speeding fine: pay $15.", ("pay", 15)),
    ("trip_to_reading", "Take a trip to Reading Railroad. If you pass GO, collect your salary.", ("move_to", 5)),
    ("chairman_pay_each_50", "You have been elected Chairman of the Board: pay each player $50.", ("pay_each", 50)),
    ("building_loan_150", "Your building loan matures: collect $150.", ("collect", 150)),
)
CHEST = (
    ("advance_to_go_cc", "Advance to GO. Collect your salary.", ("move_to", 0)),
    ("bank_error_200", "Bank error in your favour: collect $200.", ("collect", 200)),
    ("doctor_fee_50", "Doctor's fee: pay $50.", ("pay", 50)),
    ("stock_sale_50", "From the sale of stock you get $50.", ("collect", 50)),
    ("jail_free_cc", "Get Out of Jail Free. Keep this card until needed, or trade it.", ("jail_card",)),
    ("go_to_jail_cc", "Go to Jail. Go directly to Jail, do not pass GO, do not collect your salary.", ("go_to_jail",)),
    ("holiday_fund_100", "Holiday fund matures: receive $100.", ("collect", 100)),
    ("tax_refund_20", "Income tax refund: collect $20.", ("collect", 20)),
    ("birthday_collect_10_each", "It is your birthday: collect $10 from every player.", ("collect_each", 10)),
    ("life_insurance_100", "Life insurance matures: collect $100.", ("collect", 100)),
    ("hospital_fees_100", "Pay hospital fees of $100.", ("pay", 100)),
    ("school_fees_50", "Pay school fees of $50.", ("pay", 50)),
    ("consultancy_25", "Receive a $25 consultancy fee.", ("collect", 25)),
    ("street_repairs", "You are assessed for street repairs: $40 per house, $115 per hotel.", ("repairs", 40, 115)),
    ("beauty_contest_10", "You have won second prize in a beauty contest: collect $10.", ("collect", 10)),
    ("inherit_100", "You inherit $100.", ("collect", 100)),
)
LUCK = (
    ("w_advance_to_start", "Advance to Start. Collect your salary and the landing bonus.", ("move_to", 0)),
    ("w_go_to_jail", "Go to Jail. Do not pass Start.", ("go_to_jail",)),
    ("w_go_to_casino", "Go to the Casino. If you pass Start, collect your salary.", ("move_to", 20)),
    ("w_advance_to_24", "Advance to square 24. If you pass Start, collect your salary.", ("move_to", 24)),
    ("w_advance_to_11", "Advance to square 11. If you pass Start, collect your salary.", ("move_to", 11)),
    ("w_advance_to_39", "Advance to square 39.", ("move_to", 39)),
    ("w_nearest_finance", "Advance to the nearest finance company: pay the usual rent, or buy it if unowned.", ("nearest", "railroad", "usual")),
    ("w_nearest_industry", "Advance to the nearest industrial company: throw the dice for the usual rent, or buy it if unowned.", ("nearest", "utility", "usual")),
    ("w_back_3", "Go back 3 squares.", ("back", 3)),
    ("w_collect_500", "Collect $500.", ("collect", 500)),
    ("w_collect_1000", "Collect $1,000.", ("collect", 1000)),
    ("w_collect_2000", "Collect $2,000.", ("collect", 2000)),
    ("w_pay_500", "Pay $500.", ("pay", 500)),
    ("w_pay_1000", "Pay $1,000.", ("pay", 1000)),
    ("w_pay_1500", "Pay $1,500.", ("pay", 1500)),
    ("w_collect_500_each", "Collect $500 from every player.", ("collect_each", 500)),
    ("w_pay_500_each", "Pay every player $500.", ("pay_each", 500)),
    ("w_repairs_small", "Repairs: pay $250 per branch and $1,000 per corporation.", ("repairs", 250, 1000)),
    ("w_repairs_large", "Repairs: pay $400 per branch and $1,150 per corporation.", ("repairs", 400, 1150)),
    ("w_jail_free", "Get Out of Jail Free. Keep this card until needed, or trade it.", ("jail_card",)),
)
DESTROY = (("w_destroy_building", "Pick one opponent's property with buildings: it loses one level.", ("destroy",)),)

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
