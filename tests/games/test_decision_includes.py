"""The pending decision's forms: one include per kind of decision, chosen by the presenter
(page/decision.py: Choices.kinds), so decision.html holds no list of action names."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template.loader import get_template

from games.views.page.decision import Choices

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "jinja2" / "games" / "partials"


@pytest.mark.parametrize(
    ("choices", "kinds"),
    [
        (Choices(types={"roll"}), ["turn"]),
        (Choices(types={"buy", "decline"}, buy={"sq": 1, "name": "x", "price": 60}), ["turn"]),
        (Choices(types={"bid", "pass"}, bid={"min": 10, "max": 99}), ["auction"]),
        # RULES.md 15: a maximum alone (its holder is not the one asked to bid now).
        (Choices(types={"max_bid"}, max_bid={"min": 10, "max": 99, "held": 0, "can_set": True}),
         ["auction"]),
        (Choices(types={"casino_skip"}), ["casino"]),
        (Choices(types={"casino", "casino_skip"}, casino=True), ["casino"]),
        (Choices(types={"income_tax"}, income_tax={"flat": 200, "percent": 150}), ["income_tax"]),
        (Choices(types={"teleport"}, teleport=[{"sq": 3, "name": "x"}]), ["pick_square"]),
        (Choices(types={"sell", "mortgage", "surrender"}, debt={"short": 50}), ["debt"]),
        (Choices(types={"roll", "bid"}, bid={"min": 1, "max": 2}), ["turn", "auction"]),
        (Choices(), []),
    ],
)
def test_the_presenter_chooses_one_include_per_kind_of_decision(choices, kinds):
    assert choices.kinds == kinds
    assert choices.templates == [f"games/partials/decisions/{k}.html" for k in kinds]


def test_every_kind_has_its_template_and_decision_html_names_no_action():
    every = Choices(
        types={"roll", "bid", "casino_skip", "income_tax"}, bid={"min": 1, "max": 2},
        income_tax={"flat": 1, "percent": 1}, bus=[{"choice": "first", "steps": 1}],
        teleport=[{"sq": 1, "name": "x"}], transfers=[{"sq": 1}], placements=[{"sq": 1}],
        debt={"short": 1},
    )
    assert len(every.kinds) == 9
    for name in every.templates:
        get_template(name)  # raises if missing or broken
    get_template("games/partials/decisions/offer.html")
    source = (TEMPLATES / "decision.html").read_text()
    assert '" in t' not in source and "choices.templates" in source
