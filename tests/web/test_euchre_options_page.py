"""Euchre's options in the browser (euchre.md "Options"): the Rules
dialog offers the game target, defend alone and the dealer's partner rule with
their labels; a game started with them carries them and shows its target."""

from __future__ import annotations

import pytest

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("viewport, name", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_rules_dialog_offers_the_euchre_options_and_the_game_keeps_them(make_page, viewport, name):
    p = make_page(viewport=viewport)
    p.open("#/play/euchre")
    page = p.page
    while page.locator("dialog[open]").count():
        page.locator("dialog[open] button.primary, dialog[open] button.action").last.click()
        p.settle()
    first_id = page.evaluate("localStorage.getItem('tt.game.euchre')")
    page.locator("#rules-button").click()
    for option in ("defend_alone", "dealers_partner_alone"):
        box = page.locator(f"#opt-{option}")
        assert not box.is_checked()
        box.check()
    page.locator("#opt-game_target").select_option("5")
    text = page.locator("dialog[open]").inner_text()
    assert "Defend alone" in text and "Dealer's partner must go alone" in text and "Points that win a game" in text
    p.shot(f"euchre-options-{name}")
    page.locator("#apply-options").click()
    page.wait_for_function("old => localStorage.getItem('tt.game.euchre') !== old", arg=first_id)
    p.settle()
    game_id = page.evaluate("localStorage.getItem('tt.game.euchre')")
    view = page.request.get(f"{p.server.url}/api/games/{game_id}").json()["view"]
    assert view["options"]["defend_alone"] is True and view["options"]["dealers_partner_alone"] is True
    assert view["match"]["target"] == 5
    assert "5" in page.locator(".scorebar .deal").inner_text()
    p.shot(f"euchre-options-table-{name}")
