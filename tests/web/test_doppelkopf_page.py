"""Doppelkopf in the browser: a whole deal by clicking, with a reservation (a
solo) and an announcement, ending on the score sheet."""

from __future__ import annotations

import random

import pytest

from tricktable.catalog import get_spec
from tests.web.conftest import seeded_game, unfold

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CORNER = {"x": 8, "y": 24}  # overlapping cards: tap the visible corner, as a person would


def seed_where_the_person_speaks_first() -> str:
    """A match seed whose first deal asks the person first for her reservation
    (she sits on the dealer's left).  Her queens solo then outranks whatever the
    computer players reserve, she plays it alone as Re and leads the first
    trick with twelve cards: the rules offer her Re, and nobody else can use
    Re's announcements up.  (In a deal where a computer player speaks before
    her, his solo wins; she is Kontra, and her two partners may announce up to
    schwarz before her first card, leaving her nothing to announce: 2 to 4 in
    1,000 random deals with the random players.)  Searched by the deal alone, so no
    change to the computer players can move her seat."""
    spec = get_spec("doppelkopf")
    options = spec.normalize_options({})
    for number in range(100):
        seed = f"the person speaks first {number}"
        if spec.new_match(seed, options).to_move == 0:
            return seed
    raise AssertionError("no seed lets the person speak first")


@pytest.mark.parametrize("viewport, name", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_a_whole_deal_with_a_reservation_and_an_announcement(make_page, server, viewport, name):
    game_id = seeded_game(server, "doppelkopf", seed_where_the_person_speaks_first())
    p = make_page(viewport=viewport)
    p.open_game("doppelkopf", game_id)
    page, rng = p.page, random.Random(name)
    assert page.locator(".hand button.card").count() == 12
    assert page.locator('button.action.primary[data-action="healthy"]').count() == 1
    assert page.locator('button.action[data-action^="solo "]').count() == 0  # behind "Reservation…"
    unfold(page, "solo queens")
    solo = page.locator('button.action[data-action="solo queens"]')
    assert solo.count() == 1, "the queens solo is not offered in the reservation"
    solo.click()
    p.settle()
    re = page.locator('button.action[data-action="re"]')
    assert re.count() == 1, "Re is not offered to the soloist before her first card"
    re.click()
    p.settle()
    shot = False
    for _ in range(100):
        if page.locator("dialog[open]").count():
            break
        cards = page.locator(".hand button.legal")
        assert cards.count(), "nothing to do on the table"
        if not shot and page.locator(".trick .card").count() >= 2:
            p.shot(f"doppelkopf-table-{name}")
            shot = True
        cards.nth(rng.randrange(cards.count())).click(position=CORNER)
        p.settle()
    assert page.locator("dialog[open] .score-sheet tr.line").count() >= 2
    p.shot(f"doppelkopf-sheet-{name}")
    deal = page.request.get(f"{p.server.url}/api/games/{game_id}").json()["view"]["match"]["previous_deal"]
    assert (deal["contract"], deal["declarer"], deal["announcements"].get("re")) == ("solo queens", 0, "re")
    mine = [text for seat, text in deal["actions"] if seat == 0]
    assert mine[:2] == ["solo queens", "re"] and len(mine) == 14  # and her twelve cards, by clicking
    page.locator("dialog[open] button.primary").click()
    p.settle()
    assert page.locator(".scorebar .seat-0 strong").inner_text() == str(sum(
        r["points"][0] for r in page.request.get(f"{p.server.url}/api/games/{game_id}").json()["view"]["match"]["results"]))
