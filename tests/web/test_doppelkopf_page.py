"""Doppelkopf in the browser: a whole deal by clicking, with a reservation (a
solo) and an announcement, ending on the score sheet."""

from __future__ import annotations

import random

import pytest



DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CORNER = {"x": 8, "y": 24}  # overlapping cards: tap the visible corner, as a person would
ANNOUNCEMENTS = ("re", "kontra", "no 90", "no 60", "no 30", "schwarz")


@pytest.mark.parametrize("viewport, name", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_a_whole_deal_with_a_reservation_and_an_announcement(make_page, viewport, name):
    p = make_page(viewport=viewport)
    p.open("#/play/doppelkopf")
    page, rng = p.page, random.Random(name)
    game_id = page.evaluate("localStorage.getItem('tt.game.doppelkopf')")
    assert page.locator(".hand button.card").count() == 12
    reserved = announced = shot = False
    for _ in range(1000):
        if page.locator("dialog[open]").count():
            break
        solo = page.locator('button.action[data-action="solo queens"]')
        announce = page.locator(", ".join(f'button.action[data-action="{a}"]' for a in ANNOUNCEMENTS))
        decline = page.locator('button.action[data-action="decline"]')
        cards = page.locator(".hand button.legal")
        if solo.count() and not reserved:
            solo.click()
            reserved = True
        elif announce.count() and not announced:
            announce.first.click()
            announced = True
        elif decline.count():
            decline.click()
        elif cards.count():
            if not shot and page.locator(".trick .card").count() >= 2:
                p.shot(f"doppelkopf-table-{name}")
                shot = True
            cards.nth(rng.randrange(cards.count())).click(position=CORNER)
        elif announce.count():  # the computer players are playing; only an announcement out of turn is offered
            page.wait_for_timeout(50)
            continue
        else:
            raise AssertionError("nothing to do on the table")
        p.settle()
    assert reserved and announced
    assert page.locator("dialog[open] .score-sheet tr.line").count() >= 2
    p.shot(f"doppelkopf-sheet-{name}")
    deal = page.request.get(f"{p.server.url}/api/games/{game_id}").json()["view"]["match"]["previous_deal"]
    mine = [text for seat, text in deal["actions"] if seat == 0]
    assert "solo queens" in mine and (set(ANNOUNCEMENTS) & set(mine))
    page.locator("dialog[open] button.primary").click()
    p.settle()
    assert page.locator(".scorebar .seat-0 strong").inner_text() == str(sum(
        r["points"][0] for r in page.request.get(f"{p.server.url}/api/games/{game_id}").json()["view"]["match"]["results"]))
