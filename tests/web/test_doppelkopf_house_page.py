"""Doppelkopf house rules in the browser: the Rules dialog offers them (the "house rules"
preset fills them in), and a bock deal shows "Bock ×2" on the table and its multiplier on
the score sheet.  Screenshots in build/screenshots/."""

from __future__ import annotations

import random

import pytest

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CORNER = {"x": 8, "y": 24}  # overlapping cards: tap the visible corner, as a person would
HOUSE_OPTIONS = ("schweinchen", "superschweinchen", "throwing_in", "bock", "without_nines")


@pytest.mark.parametrize("viewport, name", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_the_rules_dialog_offers_the_house_rules(make_page, viewport, name):
    p = make_page(viewport=viewport)
    p.open("#/play/doppelkopf")
    page = p.page
    page.locator("#rules-button").click()
    page.locator("#opt-schweinchen").wait_for()  # the dialog reads the catalog first
    for option in HOUSE_OPTIONS:
        assert page.locator(f"#opt-{option}").count() == 1, option
    superpigs = page.locator("#opt-superschweinchen")
    assert superpigs.is_disabled()  # it needs Schweinchen, which the standard rules leave off
    page.locator("#preset").select_option("house")
    assert page.locator("#opt-schweinchen").is_checked() and page.locator("#opt-second_heart_ten").is_checked()
    superpigs.check()
    page.locator("#opt-schweinchen").uncheck()
    assert superpigs.is_disabled() and not superpigs.is_checked()
    page.locator("#opt-schweinchen").check()
    assert superpigs.is_enabled() and not superpigs.is_checked()
    assert page.locator("#opt-poverty").is_checked() and not page.locator("#opt-bock").is_checked()
    page.locator("#opt-bock").check()
    assert page.locator("#preset").input_value() == ""  # now the person's own choice
    page.locator("#opt-bock").scroll_into_view_if_needed()
    p.shot(f"doppelkopf-house-rules-{name}")
    before = page.evaluate("localStorage.getItem('tt.game.doppelkopf')")
    page.locator("#apply-options").click()
    # The new game starts once the server answered (on a loaded machine after the click returned).
    page.wait_for_function("old => localStorage.getItem('tt.game.doppelkopf') !== old", arg=before)
    p.settle()
    game_id = page.evaluate("localStorage.getItem('tt.game.doppelkopf')")
    view = page.request.get(f"{p.server.url}/api/games/{game_id}").json()["view"]
    assert view["options"]["schweinchen"] and view["options"]["bock"] and view["options"]["second_heart_ten"]


def test_a_lost_solo_makes_the_next_deal_a_bock_deal(make_page):
    """The person plays an aces solo whenever he may and plays random cards: a lost solo
    makes the next four deals bock (spec "House rules", Bock rounds)."""
    p = make_page(viewport=DESKTOP)
    p.open("#/")
    p.page.evaluate("localStorage.setItem('tt.options.doppelkopf', JSON.stringify({bock: true}))")
    p.open("#/play/doppelkopf")
    p.page.wait_for_selector(".table")
    p.settle()
    page, rng = p.page, random.Random("bock")
    game_id = page.evaluate("localStorage.getItem('tt.game.doppelkopf')")
    api = f"{p.server.url}/api/games/{game_id}"
    assert page.request.get(api).json()["view"]["options"]["bock"]
    sheet_seen = False
    for _ in range(4000):
        match = page.request.get(api).json()["view"]["match"]
        if match.get("bock", 1) > 1 and page.locator(".hand button.legal").count() and not page.locator("dialog[open]").count():
            break
        if page.locator("dialog[open]").count():
            if page.locator("dialog[open] .score-sheet").count() and match.get("bock", 1) > 1 and not sheet_seen:
                sheet_seen = True
            page.locator("dialog[open] button.primary").click()
        elif page.locator('button.action[data-action="solo aces"]').count():
            page.locator('button.action[data-action="solo aces"]').click()
        elif page.locator('button.action[data-action="decline"]').count():
            page.locator('button.action[data-action="decline"]').click()
        elif page.locator(".hand button.legal").count():
            cards = page.locator(".hand button.legal")
            cards.nth(rng.randrange(cards.count())).click(position=CORNER)
        else:
            page.wait_for_timeout(50)
            continue
        p.settle()
    else:
        pytest.fail("no bock deal came")
    facts = page.locator("body").inner_text()
    assert "Bock ×2" in facts or "Bock ×4" in facts
    assert "Bock deals to come" in facts
    p.shot("doppelkopf-bock-table-desktop")
    page.set_viewport_size(PHONE)
    p.settle()
    p.shot("doppelkopf-bock-table-phone")
    # Play the bock deal out: its score sheet names the multiplier.
    page.set_viewport_size(DESKTOP)
    for _ in range(2000):
        if page.locator("dialog[open] .score-sheet").count():
            break
        cards = page.locator(".hand button.legal")
        if cards.count():
            cards.nth(rng.randrange(cards.count())).click(position=CORNER)
        elif page.locator('button.action[data-action="decline"]').count():
            page.locator('button.action[data-action="decline"]').click()
        elif page.locator('button.action[data-action="healthy"]').count():
            page.locator('button.action[data-action="healthy"]').click()
        else:
            page.wait_for_timeout(50)
            continue
        p.settle()
    sheet = page.locator("dialog[open] .score-sheet").inner_text()
    assert "Bock ×" in sheet and "points count" in sheet
    p.shot("doppelkopf-bock-sheet-desktop")
