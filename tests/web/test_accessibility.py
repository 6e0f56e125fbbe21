"""axe-core (from the axe-playwright-python package) finds no violation on the
home page, every rules page, every game's table and the table's dialogs."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.web.conftest import DESKTOP, GAMES, SMALL_PHONE
from tests.web.test_euchre_page import dismiss_sheets

AXE = Axe()


def violations(page) -> list[str]:
    """Each violation with the elements it was found on, for a readable failure."""
    results = AXE.run(page)
    return [f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"]]


@pytest.mark.parametrize("viewport", [DESKTOP, SMALL_PHONE], ids=["desktop", "phone"])
def test_home_and_every_rules_page(make_page, viewport):
    p = make_page(viewport=viewport)
    p.open("#/")
    p.page.wait_for_selector(".game-card .leaderboard, .game-card .mini-board:empty", state="attached")
    assert violations(p.page) == []
    for game in GAMES:
        p.page.evaluate(f"location.hash = '#/rules/{game}'")
        p.page.wait_for_selector(".rules-text h3, .rules-text h2")
        assert violations(p.page) == [], game


@pytest.mark.parametrize("game", GAMES)
def test_every_game_table(make_page, game):
    p = make_page(viewport=SMALL_PHONE)
    p.open(f"#/play/{game}")
    dismiss_sheets(p)
    assert p.page.locator(".table").count() == 1
    assert violations(p.page) == [], game


def test_the_first_visit_help_settings_and_trick_dialogs(make_page):
    p = make_page(first_visit=True)
    p.open("#/play/euchre")
    page = p.page
    page.wait_for_selector("dialog[open] .howto")
    assert violations(page) == []
    page.locator("#howto-ok").click()
    p.settle()
    dismiss_sheets(p)
    for opener in ("#settings-button", "#trick-history", "#last-trick", "#rules-button"):
        page.locator(opener).click()
        page.wait_for_selector("dialog[open]")
        assert violations(page) == [], opener
        page.keyboard.press("Escape")
        page.wait_for_selector("dialog[open]", state="detached")
