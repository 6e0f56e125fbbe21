"""The host's controls on the page: the hint setting in the lobby, and during
the match the seats' dialog (a person's seat given to a computer player, a
computer player's seat opened to a newcomer who joins by code)."""

from __future__ import annotations

import time
from pathlib import Path

from tests.web.conftest import DESKTOP, PHONE, SMALL_PHONE
from tests.web.test_accessibility import violations
from tests.web.test_friends_page import LOBBY_CONTROLS
from tests.web.test_phone_table import MIN_TAP
from tests.web.seating import call, started_table

SCREENS = Path(__file__).resolve().parents[2] / "build" / "screens-host"


def shot(p, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    p.page.screenshot(path=str(SCREENS / f"{name}.png"))


def small_controls(p) -> list[dict]:
    """The controls smaller than a finger (inputs too: the lobby's switch, the invite link)."""
    return [c for c in p.page.evaluate(LOBBY_CONTROLS) if c["height"] < MIN_TAP or c["width"] < MIN_TAP]


def open_table_with_stream(p, table_id: str) -> None:
    """The table's card table, once its live stream has answered (a change after it reaches the page).
    (Not ``open``: that would wait until the person may act.)"""
    with p.page.expect_response(lambda response: "/events?" in response.url, timeout=15000):
        p.page.goto(f"{p.server.url}/?speed=0.05#/table/{table_id}")
    p.page.wait_for_selector(".table")


def play_by_api_until_turn_of(p_by_seat: dict[int, object], game_id: str, seat: int, timeout: float = 30) -> None:
    """The other people play their first legal action by the API until it is ``seat``'s turn."""
    deadline = time.monotonic() + timeout
    watcher = p_by_seat[seat]
    while time.monotonic() < deadline:
        state = call(watcher, "GET", f"/api/games/{game_id}")
        mover = state["view"]["to_move"]
        if state["thinking"] is None and mover == seat:
            return
        if state["thinking"] is None and mover in p_by_seat:
            mine = call(p_by_seat[mover], "GET", f"/api/games/{game_id}")
            p_by_seat[mover].context.request.post(f"{watcher.server.url}/api/games/{game_id}/actions",
                                                  data={"action": mine["view"]["legal"][0], "version": mine["version"]})
        else:
            time.sleep(0.05)
    raise TimeoutError(f"seat {seat}'s turn did not come")


def test_the_host_allows_hints_in_the_lobby_and_his_friend_gets_the_hint(make_page):
    host = make_page(viewport=PHONE)
    friend = make_page(viewport=DESKTOP)
    host.open("#/")
    friend.open("#/")
    table = call(host, "POST", "/api/tables", {"game": "euchre", "level": "easy", "clock": 0})
    call(friend, "POST", f"/api/tables/{table['code']}/join", {})
    host.open(f"#/table/{table['id']}")
    friend.open(f"#/table/{table['id']}")
    friend.page.wait_for_selector(".lobby-facts:has-text('No hints')")
    assert not friend.page.locator("#hints-allowed").count()  # the host's choice alone
    assert not host.page.locator("#hints-allowed").is_checked()  # off at a table of more than one person

    host.page.get_by_label("Allow hints (the suggested move)").check()
    host.page.wait_for_function("() => document.querySelector('#hints-allowed')?.checked")
    assert call(host, "GET", f"/api/tables/{table['id']}")["hints"] is True
    friend.page.wait_for_selector(".lobby-facts:has-text('Hints allowed')", timeout=5000)
    assert small_controls(host) == []
    assert violations(host.page) == []
    shot(host, "lobby-hints-host-390x844")
    shot(friend, "lobby-hints-friend-desktop")

    host.page.locator("#start-table").click()
    host.page.wait_for_selector(".table", timeout=15000)
    game_id = call(host, "GET", f"/api/tables/{table['id']}")["game_id"]
    play_by_api_until_turn_of({0: host, 1: friend}, game_id, 1)
    friend.page.wait_for_selector(".table .hand button.legal, .table button.action[data-action]", timeout=15000)
    friend.settle()
    friend.page.wait_for_selector("#hint-button")


def test_the_host_gives_his_friends_seat_to_a_computer_player(make_page):
    host = make_page(viewport=DESKTOP)
    friend = make_page(viewport=PHONE)
    other = make_page(viewport=SMALL_PHONE)  # a friend who stays: his page names the seat anew, unasked
    table, _game = started_table(host, friend, other)
    for p in (host, friend, other):
        open_table_with_stream(p, table["id"])
    assert other.page.locator(".table .seat[data-seat='1'] .who").inner_text() == "Friend"
    assert not friend.page.locator("#host-seats-button").count()  # the host's tool alone

    host.page.locator("#host-seats-button").click()
    dialog = host.page.locator("dialog[open] .host-seats")
    dialog.wait_for()
    assert dialog.locator("[data-seat='0'] button").count() == 0  # the host keeps his own seat
    dialog.locator("#host-computer-1").click()
    host.page.wait_for_selector("#confirm-computer-1:focus")  # a second, deliberate step: it is for good
    assert "null" not in dialog.inner_text()
    assert small_controls(host) == []
    assert violations(host.page) == []
    shot(host, "host-remove-confirm-desktop")
    dialog.locator("#confirm-computer-1").click()

    dialog.locator("[data-seat='1'] .seat-who:has-text('Computer')").wait_for()
    assert dialog.locator("#host-open-1").count() == 1  # now a computer player's seat, which may be opened
    assert host.page.locator(".table .seat[data-seat='1'] .who").inner_text() == "Computer"
    other.page.wait_for_selector(".table .seat[data-seat='1'] .who:text-is('Computer')", timeout=5000)
    friend.page.wait_for_selector("#toast.show:has-text('gave your seat to a computer player')", timeout=10000)
    friend.page.wait_for_function("() => document.querySelector('#main').dataset.page === 'home'", timeout=10000)


def test_the_host_opens_a_seat_and_a_newcomer_joins_by_code(make_page):
    host = make_page(viewport=PHONE)
    newcomer = make_page(viewport=SMALL_PHONE)
    host.open("#/")
    newcomer.open("#/")
    host.page.select_option("#friends-game", "euchre")
    host.page.select_option("#friends-clock", "0")
    assert not host.page.locator("#friends-hints").is_checked()  # off unless the host allows them
    host.page.get_by_label("Allow hints (the suggested move)").check()
    host.page.locator("#friends-box").scroll_into_view_if_needed()
    shot(host, "home-friends-create-390x844")
    host.page.locator("#friends-create").click()  # (the page keeps the invite token for the dialog)
    host.page.locator("#start-table").click()
    host.page.wait_for_selector(".table #host-seats-button", timeout=15000)
    table_id = host.page.evaluate("location.hash").split("/")[-1]
    assert call(host, "GET", f"/api/tables/{table_id}")["hints"] is True

    host.page.locator("#host-seats-button").click()
    host.page.locator("dialog[open] #host-open-2").click()
    host.page.wait_for_selector("dialog[open] #host-open #host-code")
    assert host.page.locator("dialog[open] [data-seat='2'] .seat-who").inner_text() == "Open for a newcomer"
    assert "#/join/" in host.page.locator("dialog[open] #invite-link").input_value()
    assert small_controls(host) == []
    assert violations(host.page) == []
    shot(host, "host-open-seat-390x844")
    host.page.set_viewport_size(SMALL_PHONE)
    shot(host, "host-open-seat-360x640")

    code = host.page.locator("dialog[open] #host-code").inner_text().strip()
    newcomer.page.locator("#join-code").fill(code)
    newcomer.page.locator("#join-button").click()
    newcomer.page.wait_for_selector(".table .seat.south[data-seat='2']", timeout=15000)  # his own seat, at the bottom
    assert newcomer.page.locator(".table .seat[data-seat='0'] .who").inner_text() == "Host"
    # The host's dialog (and the table behind it) name the newcomer's seat within a look or two.
    host.page.wait_for_selector("dialog[open] [data-seat='2'] .seat-who:has-text('Friend')", timeout=10000)
    assert host.page.locator(".table .seat[data-seat='2'] .who").inner_text() == "Friend"
    assert not host.page.locator("dialog[open] #host-open").count()  # no seat open any more
    host.page.set_viewport_size(PHONE)
    host.page.locator("#host-seats-close").click()
    shot(host, "host-newcomer-seated-390x844")
    shot(newcomer, "newcomer-seated-360x640")


def test_the_lobby_names_the_seat_across_north_where_teams_are_not_fixed(make_page):
    host = make_page(viewport=PHONE)
    host.open("#/")
    for game, across in (("doppelkopf", "North"), ("euchre", "Partner")):
        table = call(host, "POST", "/api/tables", {"game": game, "level": "easy"})
        host.open(f"#/table/{table['id']}")
        assert host.page.locator(".lobby-seat[data-seat='2'] .seat-number").inner_text() == f"Seat 3 · {across}"


def test_a_watchers_page_names_a_seat_anew_when_it_changes_hands(make_page):
    host = make_page(viewport=DESKTOP)
    friend = make_page(viewport=DESKTOP)
    watcher = make_page(viewport=SMALL_PHONE)
    watcher.open("#/")
    table, _game = started_table(host, friend)
    with watcher.page.expect_response(lambda response: "/events?" in response.url, timeout=15000):
        watcher.page.goto(f"{watcher.server.url}/?speed=0.05#/watch/{table['watch']}")
    seat = watcher.page.locator(".table .seat[data-seat='1'] .who")
    assert seat.inner_text() == "Player"
    # A watcher has no team of his own: the tricks are told by team number, not as "us" and "them".
    assert watcher.page.locator(".facts", has_text="Tricks").inner_text().split("Tricks")[1].strip() \
        == "Team 1 0 – Team 2 0"
    call(host, "POST", f"/api/tables/{table['id']}/computer", {"seat": 1})
    watcher.page.wait_for_selector(".table .seat[data-seat='1'] .who:text-is('Computer')", timeout=5000)
    shot(watcher, "watcher-seat-given-to-computer-360x640")
