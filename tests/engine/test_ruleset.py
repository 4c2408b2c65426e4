"""Rule sets: presets as in RULES.md section 1, overrides validated with messages that name them."""

import pytest

from games.engine import PRESET_NAMES, InvalidRules, RuleSet


def test_every_preset_builds_with_the_table_values():
    r = {p: RuleSet.build(p) for p in PRESET_NAMES}
    assert (r["classic"].start_cash, r["world-quick"].start_cash, r["world-duel"].start_cash) == (1500, 17500, 25000)
    assert r["classic-short"].houses_before_hotel == 3 and r["classic-short"].end == "second_bankruptcy"
    assert r["world-duel"].seats == (3, 3) and r["world-duel"].sell_back == 0.75 and r["world-duel"].auction_own
    assert r["world-teams"].teams and r["world-teams"].trade_mortgaged == "teammates"
    assert r["world-quick"].even_building is False and r["world-quick"].speed_die_from_round == 8
    assert r["world-classic"].salary_stops_minutes == 46 and r["world-classic"].rent_tax_minutes == 61
    assert all(rules.overrides() == {} for rules in r.values())


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"start_cahs": 1000}, "unknown option 'start_cahs'"),
        ({"start_cash": -5}, "'start_cash'"),
        ({"start_cash": "lots"}, "'start_cash'"),
        ({"even_building": "yes"}, "'even_building'"),
        ({"auction_style": "dutch"}, "'auction_style'"),
        ({"sell_back": 1.5}, "'sell_back'"),
        ({"houses_before_hotel": 5}, "'houses_before_hotel'"),
        ({"casino": True}, "'casino'"),
        ({"deck": "world"}, "'deck'"),
        ({"seats": [1, 9]}, "'seats'"),
        ({"teams": True}, "'teams'"),
    ],
)
def test_a_bad_option_is_refused_with_its_name(options, message):
    with pytest.raises(InvalidRules) as err:
        RuleSet.build("classic", options)
    assert message in str(err.value)


def test_unknown_preset_is_refused():
    with pytest.raises(InvalidRules, match="unknown preset 'monopoly-deluxe'"):
        RuleSet.build("monopoly-deluxe")


def test_overrides_round_trip_through_json():
    rules = RuleSet.build("world-classic", {"start_cash": 20000, "speed_die_from_round": 3, "seats": "2-4"})
    assert rules.overrides() == {"start_cash": 20000, "speed_die_from_round": 3, "seats": [2, 4]}
    assert RuleSet.from_json(rules.to_json()) == rules
