"""Play again at a table of friends: at the match's end the host's summary
offers "Play again", his friend's says it waits for the host, and once the
host plays again both pages move into the new match."""

from __future__ import annotations

import time

from tests.web.conftest import DESKTOP, PHONE
from tests.web.test_accessibility import violations
from tests.web.test_phone_table import CONTROL_SIZES, MIN_TAP
from tests.web.seating import call, started_table



def play_until_over(people: dict[int, object], game_id: str, timeout: float = 60.0) -> None:
    """Each person plays his first legal action at his turns until the match is over."""
    deadline = time.monotonic() + timeout
    anyone = next(iter(people.values()))
    while time.monotonic() < deadline:
        state = call(anyone, "GET", f"/api/games/{game_id}")
        if state["view"]["terminal"]:
            return
        mover = state["view"]["to_move"]
        if state["thinking"] is None and mover in people:
            mine = call(people[mover], "GET", f"/api/games/{game_id}")
            people[mover].context.request.post(f"{anyone.server.url}/api/games/{game_id}/actions",
                                               data={"action": mine["view"]["legal"][0], "version": mine["version"]})
        else:
            time.sleep(0.05)
    raise TimeoutError("the match did not end")


def test_the_host_plays_again_and_both_pages_follow(make_page):
    host = make_page(viewport=PHONE)
    friend = make_page(viewport=DESKTOP)
    table, game = started_table(host, friend, options={"game_target": 5})
    play_until_over({0: host, 1: friend}, game["id"])

    for p in (host, friend):
        p.open(f"#/table/{table['id']}")
        p.page.wait_for_selector("dialog[open] .match-summary", timeout=15000)
    host.page.wait_for_selector("dialog[open] #play-again")
    assert not host.page.locator("#waiting-host").count()
    friend.page.wait_for_selector("dialog[open] #waiting-host:has-text('Waiting for the host')")
    assert not friend.page.locator("#play-again").count()
    host.shot("tables-again-host-390x844")
    friend.shot("tables-again-friend-desktop")
    for p in (host, friend):
        assert violations(p.page) == []
    small = [c for c in host.page.evaluate(CONTROL_SIZES) if c["height"] < MIN_TAP or c["width"] < MIN_TAP]
    assert small == [], small

    followed: list[str] = []
    friend.page.on("request", lambda request: followed.append(request.url))
    host.page.locator("#play-again").click()
    next_id = ""
    for _ in range(100):
        next_id = call(host, "GET", f"/api/tables/{table['id']}")["game_id"]
        if next_id != game["id"]:
            break
        time.sleep(0.05)
    assert next_id != game["id"]
    for p in (host, friend):  # the new match's table, its cards dealt, no summary over it
        p.page.wait_for_function("() => !document.querySelector('dialog[open]') && document.querySelector('.hand button.card')",
                                 timeout=15000)
    assert any(f"/api/games/{next_id}" in url for url in followed)
    friend.shot("tables-again-followed-desktop")


def test_a_removed_friends_page_says_so_and_goes_home(make_page):
    host = make_page(viewport=DESKTOP)
    friend = make_page(viewport=PHONE)
    table, _game = started_table(host, friend)
    friend.page.goto(f"{friend.server.url}/?speed=0.05#/table/{table['id']}")
    friend.page.wait_for_selector(".table", timeout=15000)
    friend.page.wait_for_timeout(500)  # (its stream open)
    call(host, "POST", f"/api/tables/{table['id']}/computer", {"seat": 1})
    friend.page.wait_for_selector("#toast.show:has-text('gave your seat to a computer player')", timeout=10000)
    friend.page.wait_for_function("() => document.querySelector('#main').dataset.page === 'home'", timeout=10000)
    friend.shot("tables-removed-390x844")
