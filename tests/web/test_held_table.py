"""The table between the computer players' moves, with the bots held
(``HeldBots``) so each moment is reached on purpose, not by racing them."""

from __future__ import annotations

import random

import pytest

from tests.web.conftest import PHONE, HeldServer, Page
from tests.web.test_euchre_page import CORNER, close_dialog
from tests.web.test_live_page import tap_first_choice

WEST_BIDS_FIRST, PERSON_BIDS_FIRST = "e2", "e1"  # Euchre match seeds: who opens deal 1


def open_game(browser, server: HeldServer, game: str, seed: str, viewport=PHONE) -> tuple[Page, str]:
    p = Page(browser, server, viewport=viewport)
    game_id = server.room.new_game(game, {}, seed=seed, owner=p.identity())["id"]
    p.context.add_init_script(f"localStorage.setItem('tt.game.{game}', '{game_id}')")
    return p, game_id


def tap(page, rng: random.Random) -> None:
    """A legal card, else a call or bid (never "new cards": the deal would start over)."""
    cards = page.locator(".hand button.legal")
    if cards.count():
        cards.nth(rng.randrange(cards.count())).click(position=CORNER)
        return
    buttons = page.locator("button.action[data-action]:not([data-action='new cards'])")
    buttons.nth(rng.randrange(buttons.count())).click()


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
        p.page.bring_to_front()  # the person looks at the first tab
        while not p.page.locator("dialog[open] .score-sheet").count():
            tap_first_choice(p.page)
            p.settle()
        second.wait_for_selector("dialog[open] .score-sheet")
        p.page.locator("dialog[open] button.primary").click()
        p.settle()
        tap_first_choice(p.page)  # the person's first move of deal 2, in the first tab
        p.settle()
        version = held_server.version(game_id)
        second.wait_for_function("v => !document.querySelector('dialog[open]') &&"
                                 " Number(document.querySelector('#main').dataset.version) >= v", arg=version)
        assert "Deal 2" in second.locator(".scorebar").inner_text()
        second.close()
        # A forced last card may be auto-played by both tabs; the browser logs the loser's refusal.
        assert [e for e in p.errors if "status of 409" not in e] == []
    finally:
        p.close()


@pytest.mark.parametrize("game, seed", [("euchre", PERSON_BIDS_FIRST), ("double-sar", "d1")])
def test_a_complete_trick_gathers_towards_its_winner_or_the_pile(browser, held_server, game, seed):
    """The complete trick gathers towards its winner (Double Sar: onto the
    pile).  Shown slowly (?speed=8: the gather takes 2.6 s) so that the screenshot
    catches it half way; the cards are still there, moving, and fading."""
    held_server.bots.let_go()
    p, _ = open_game(browser, held_server, game, seed)
    try:
        page = p.page
        p.open(f"#/play/{game}", speed=8)
        rng = random.Random(5)
        while not page.locator(".trick.gather").count():
            if page.locator("dialog[open]").count():
                close_dialog(p)
            choices = page.locator(".hand button.legal, button.action[data-action]")
            if choices.count() and not page.locator("#main[data-busy='1']").count():
                tap(page, rng)
            page.wait_for_timeout(100)
        towards = "pile" if game == "double-sar" else None
        if towards:
            assert page.locator(".trick.gather.to-pile").count()
        page.wait_for_timeout(900)  # about a third of the way
        # Each card: how far it has come (its transform's shift) and how far it goes (--dx, --dy).
        moving = page.evaluate("""() => [...document.querySelectorAll('.trick .card')].map(c => {
            const style = getComputedStyle(c), m = new DOMMatrix(style.transform);
            return {shift: [m.m41, m.m42], goal: [parseFloat(style.getPropertyValue('--dx')),
                    parseFloat(style.getPropertyValue('--dy'))], opacity: Number(style.opacity)}; })""")
        assert len(moving) == 4, moving
        for card in moving:
            assert 0 < card["opacity"] < 1, card  # fading, not gone
            for shift, goal in zip(card["shift"], card["goal"]):
                assert abs(shift) < abs(goal) + 1 and (abs(goal) < 2 or shift * goal > 0), card  # on its way
        p.shot(f"{game}-gather-phone")
        assert p.errors == []
    finally:
        p.close()


def test_the_last_forced_card_plays_itself(browser, held_server):
    """Settings, auto-play (on by default): when the person's one card left is his
    only choice, the page plays it after a moment, without a tap."""
    held_server.bots.let_go()
    p, game_id = open_game(browser, held_server, "euchre", PERSON_BIDS_FIRST)
    p.context.add_init_script("localStorage.removeItem('tt.settings')")  # the defaults
    try:
        page = p.page
        p.open("#/play/euchre")
        while not (page.locator(".hand button.card").count() == 1 and page.locator(".hand button.legal").count()):
            tap_first_choice(page)
            p.settle()
        last = page.locator(".hand button.legal").get_attribute("data-card")
        page.wait_for_function("() => !document.querySelector('.hand button.card')")  # nobody taps
        page.wait_for_selector("dialog[open] .score-sheet")  # the deal ended with it
        finished = held_server.room.load(game_id, p.identity())["view"]["match"]["previous_deal"]
        assert [a for a in finished["actions"] if a[0] == 0][-1] == [0, f"play {last}"]
        assert p.errors == []
    finally:
        p.close()
