"""The site header on a phone (390 px): since the notification bell joined the header, "Sign
out" fell to a row of its own. Now the account's controls (bell, avatar, "Sign out") share the
brand's row and the page links have the row below, in English, Spanish and Catalan alike;
nothing overlaps and nothing leaves the screen."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from tests.e2e.layout_helpers import DESKTOP, PHONE, page_width, width_id

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# The top of each control of the header's navigation, and the header's height.
NAV_JS = """(selector) => {
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    out.push({text: el.textContent.trim().slice(0, 20), top: Math.round(r.top), bottom: Math.round(r.bottom),
              left: Math.round(r.left), right: Math.round(r.right)});
  }
  return out;
}"""


WATCH = {"en": "Watch", "es": "Mirar", "ca": "Mirar"}
RATINGS = {"en": "Ratings", "es": "Puntuaciones", "ca": "Puntuacions"}


def one_row(boxes: list[dict]) -> bool:
    first = boxes[0]
    return all(b["top"] < first["bottom"] and b["bottom"] > first["top"] for b in boxes)


def overlap(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


@pytest.mark.parametrize("language", ["en", "es", "ca"])
@pytest.mark.parametrize("viewport", [PHONE, {"width": 360, "height": 800}, DESKTOP], ids=width_id)
def test_the_header_keeps_sign_out_on_the_row_of_the_other_links(browser, site, artifacts, alice, viewport, language):
    alice.language = language
    alice.save(update_fields=["language"])
    client = Client()
    client.force_login(alice)
    context = browser.new_context(viewport=viewport, is_mobile=viewport["width"] < 600)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": site,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(site + "/")
        page.screenshot(path=str(artifacts / f"header-{viewport['width']}-{language}.png"))
        assert page.locator(".site-nav form button").is_visible()
        account = page.evaluate(NAV_JS, ".nav-account > a, .nav-account > form > button")
        links = page.evaluate(NAV_JS, ".site-nav > a")
        brand = page.evaluate(NAV_JS, ".brand")
        assert len(account) == 3 and one_row(account), account
        # Every page link is there on a phone too (issue 26 item 31: Watch and Ratings were hidden),
        # on one row, or two where the words are long (Catalan's "Les meves partides").
        assert [b["text"] for b in links][2:] == [w[language] for w in (WATCH, RATINGS)], links
        assert len({b["top"] for b in links}) <= (2 if viewport["width"] < 600 else 1), links
        if viewport["width"] < 600:
            assert one_row(brand + account), (brand, account)
        else:
            assert one_row(brand + links + account), (brand, links, account)
        boxes = brand + links + account
        for i, a in enumerate(boxes):
            assert a["left"] >= 0 and a["right"] <= viewport["width"], a
            for b in boxes[i + 1:]:
                assert not overlap(a, b), (a, b)
        assert page_width(page) <= viewport["width"]
    finally:
        context.close()
