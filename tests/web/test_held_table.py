"""The table between the computer players' moves, with the bots held
(``HeldBots``) so each moment is reached on purpose, not by racing them."""

from __future__ import annotations

import random

from tests.web.conftest import PHONE, HeldServer, Page
from tests.web.test_euchre_page import act_once

WEST_BIDS_FIRST, PERSON_BIDS_FIRST = "e2", "e1"  # Euchre match seeds: who opens deal 1


def open_game(browser, server: HeldServer, game: str, seed: str, viewport=PHONE) -> tuple[Page, str]:
    game_id = server.room.new_game(game, {}, seed=seed)["id"]
    p = Page(browser, server, viewport=viewport)
    p.context.add_init_script(f"localStorage.setItem('tt.game.{game}', '{game_id}')")
    return p, game_id


def test_leaving_a_table_while_a_computer_player_thinks_leaves_the_next_page_ready(browser, held_server):
    """The table marks the page busy while West thinks; the rules page opened
    meanwhile is not busy (a stopped table used to keep the mark, and the tests'
    own wait for the page, like a person's, never ended)."""
    p, _ = open_game(browser, held_server, "euchre", WEST_BIDS_FIRST)
    try:
        p.page.goto(f"{held_server.url}/?speed=0.05#/play/euchre")
        p.page.wait_for_selector(".seat.west.thinking")
        assert p.page.locator("#main").get_attribute("data-busy") == "1"
        p.open("#/rules/euchre")  # settles: the rules page is ready
        assert p.page.locator("#main").get_attribute("data-busy") is None
        held_server.bots.let_go()
        p.open("#/play/euchre")
        assert p.page.locator(".table").count() == 1
        assert p.errors == []
    finally:
        p.close()


def test_a_second_tab_does_not_wait_on_a_score_sheet_the_first_tab_closed(browser, held_server):
    """Two tabs of one game both show the deal's score sheet; the person closes
    it in the first tab and plays on there: the second tab closes its sheet and
    shows the same position as the first."""
    held_server.bots.let_go()
    p, game_id = open_game(browser, held_server, "euchre", PERSON_BIDS_FIRST)
    try:
        p.open("#/play/euchre")
        second = p.context.new_page()
        second.goto(p.page.url)
        second.wait_for_selector("body[data-ready]")
        rng = random.Random(4)
        while not p.page.locator("dialog[open] .score-sheet").count():
            act_once(p, rng)
        second.wait_for_selector("dialog[open] .score-sheet")
        p.page.locator("dialog[open] button.primary").click()
        p.settle()
        act_once(p, rng)  # the person's first move of deal 2, in the first tab
        version = held_server.version(game_id)
        second.wait_for_function("v => !document.querySelector('dialog[open]') &&"
                                 " Number(document.querySelector('#main').dataset.version) >= v", arg=version)
        assert "Deal 2" in second.locator(".scorebar").inner_text()
        second.close()
        # A forced last card may be auto-played by both tabs; the browser logs the loser's refusal.
        assert [e for e in p.errors if "status of 409" not in e] == []
    finally:
        p.close()
