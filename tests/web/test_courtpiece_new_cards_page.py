"""Court Piece "new cards" out of turn on the page (court-piece.md: new cards is offered
from the first five cards until the person's own first card of the deal, also while a
computer player is calling).

The computer players are held (``HeldBots``): East, the caller, is still thinking when
the person asks, so the test does not depend on a bot's speed."""

from __future__ import annotations

import time

import pytest

from tests.web.conftest import DESKTOP, PHONE, HeldServer, Page

EAST_CALLS = "n0"  # a Double Sar seed whose first deal East (seat 3) calls


def wait_until_asked(server: HeldServer, decisions: int) -> None:
    deadline = time.monotonic() + 20
    while len(server.bots.asked) < decisions:
        assert time.monotonic() < deadline, "no computer player was asked to move"
        time.sleep(0.02)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390x844", "1280x800"])
def test_new_cards_may_be_asked_while_the_caller_thinks(browser, held_server, viewport):
    server = held_server
    p = Page(browser, server, viewport=viewport)
    person = p.identity()
    game_id = server.room.new_game("double-sar", {}, seed=EAST_CALLS, owner=person)["id"]
    assert server.room.load(game_id, person)["view"]["to_move"] == 3
    p.context.add_init_script(f"localStorage.setItem('tt.game.double-sar', '{game_id}')")
    # Not Page.open: its settle waits for the person's turn, and East holds it.
    p.page.goto(f"{server.url}/?speed=0.05#/play/double-sar")
    wait_until_asked(server, 1)
    assert server.bots.asked[-1].seat == 3
    page = p.page
    page.get_by_text("East is thinking… You may still ask for new cards.").wait_for()
    first_hand = page.locator(".hand").inner_text()
    name = f"courtpiece-new-cards-out-of-turn-{viewport['width']}"
    p.shot(name)
    page.locator("button.action", has_text="New cards").click()
    server.wait_for_version(game_id, 2)
    page.get_by_text("New cards: dealt again").wait_for()
    p.shot(f"{name}-dealt-again")
    view = server.room.load(game_id, person)["view"]
    assert view["match"]["deal_number"] == 1 and view["match"]["results"][0]["lines"]
    assert page.locator(".hand").inner_text() != first_hand
    assert not p.errors
