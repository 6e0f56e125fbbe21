"""A friend whose turn clock runs out while his page has no live stream (a
phone that lost it): a computer player decides for him in its own time, which
may be after the one load the page makes at the clock's zero.  The page keeps
asking until it has that decision, and then marks his seat "(auto)"."""

from __future__ import annotations

import re
import time

from tests.web.conftest import PHONE, Page
from tests.web.seating import call, started_table

FRIEND = 1


def until_the_friends_turn(server, host: Page, game_id: str, timeout: float = 60) -> None:
    """The host plays his first legal action by the API and the held computer
    players one decision at a time (never one more: the next would be the one
    made for the friend) until it is the friend's turn."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = call(host, "GET", f"/api/games/{game_id}")
        mover, version = state["view"]["to_move"], state["version"]
        if mover == FRIEND and state["thinking"] is None:
            return
        if mover == 0 and state["thinking"] is None:
            call(host, "POST", f"/api/games/{game_id}/actions",
                 {"action": state["view"]["legal"][0], "version": version})
        elif state["thinking"] is not None:
            server.bots.release()
            server.wait_for_version(game_id, version + 1)
    raise TimeoutError("the friend's turn did not come")


def test_a_friends_page_without_its_stream_waits_for_the_decision_made_for_him(browser, held_server):
    host = Page(browser, held_server)
    friend = Page(browser, held_server, viewport=PHONE)
    try:
        friend.page.route(re.compile(r"/events\?"), lambda route: route.abort())
        table, game = started_table(host, friend, clock=15)
        friend.page.goto(f"{held_server.url}/?speed=0.05#/table/{table['id']}")
        friend.page.wait_for_selector(".table")
        until_the_friends_turn(held_server, host, game["id"])
        friend.page.wait_for_selector(".prompt .countdown", timeout=10000)  # his page knows it is his turn

        asked = len(held_server.bots.asked)
        deadline = time.monotonic() + 30
        while len(held_server.bots.asked) == asked:  # his clock ran out: a computer player is deciding for him
            assert time.monotonic() < deadline, "nobody was asked to decide for the friend"
            time.sleep(0.1)
        time.sleep(2)  # his page's clock reached zero meanwhile, and its load found the decision not made yet
        mark = friend.page.locator(f'.seat.south[data-seat="{FRIEND}"] .auto-mark')
        assert mark.count() == 0

        held_server.bots.release()
        mark.wait_for(timeout=10000)
        assert mark.inner_text() == "(auto)"
        friend.shot("friend-auto-without-stream-390x844")
    finally:
        friend.errors[:] = [e for e in friend.errors if "net::ERR_FAILED" not in e]  # the browser logs the lost stream
        errors = host.errors + friend.errors
        host.close()
        friend.close()
    assert not errors, f"console errors: {errors}"
