"""A table of friends in two browsers: the host creates a Euchre table, a
friend joins by its code, the host starts, and each plays from his own seat at
the bottom of his screen with the other's seat named where it sits."""

from __future__ import annotations

from tests.web.conftest import DESKTOP, PHONE
from tests.web.test_accessibility import violations
from tests.web.test_phone_table import CONTROL_SIZES, MIN_TAP

# The lobby's controls too: the code box, the invite link, the seats' moves.
LOBBY_CONTROLS = CONTROL_SIZES.replace("'button, select,", "'button, select, input,")


def create_table(p) -> str:
    """The host's new Euchre table from the home page: its code, read off the lobby."""
    page = p.page
    p.open("#/")
    page.locator("#friends-shortcut").click()  # from the top of the home page to the box below the games
    assert page.evaluate("document.activeElement.id") == "friends-game"
    p.shot(f"friends-home-{page.viewport_size['width']}")
    page.select_option("#friends-game", "euchre")
    assert page.locator("#friends-clock").input_value() == "30"  # the default turn clock
    page.locator("#friends-create").click()
    page.wait_for_selector("#table-code")
    return page.locator("#table-code").inner_text().strip()


def close_sheets(p) -> None:
    """Close the score sheets that opened (a deal can end without this person's
    card).  Unlike the single-player tests' ``dismiss_sheets`` it does not wait
    until this person may act: at a table of friends the next decision may be
    the other person's, whom this test moves only after this one."""
    page = p.page
    for _ in range(10):
        if not page.locator("dialog[open]").count():
            return
        page.locator("dialog[open] button.primary, dialog[open] button.action").last.click()
        page.wait_for_timeout(150)


def act_once(p) -> str | None:
    """The person's first offered decision, if it is his turn: a card, else the first button (pass, a call)."""
    page = p.page
    close_sheets(p)
    if page.locator("#main").get_attribute("data-busy") == "1":
        return None
    card = page.locator(".hand button.legal").first
    if card.count():
        played = card.get_attribute("data-card")
        card.click()
        return f"play {played}"
    button = page.locator("button.action[data-action]").first
    if button.count():
        action = button.get_attribute("data-action")
        button.click()
        return action
    return None


def test_two_friends_at_a_euchre_table(make_page):
    host = make_page(viewport=PHONE)
    friend = make_page(viewport=DESKTOP)
    code = create_table(host)
    assert len(code) == 6
    # The lobby: the code in large letters, the invite link, four seats in two partnerships.
    lobby = host.page
    assert lobby.locator(".code").evaluate("n => parseFloat(getComputedStyle(n).fontSize)") >= 36
    assert "#/join/" in lobby.locator("#invite-link").input_value()
    assert lobby.locator(".lobby-seats.teams .team").count() == 2
    assert lobby.locator(".lobby-seat.you").get_attribute("data-seat") == "0"
    host.shot("friends-lobby-host-390x844")

    # The friend types the code in small letters with a space; a look-alike code is refused before asking.
    friend.open("#/")
    friend.page.fill("#join-code", "0OIL1Z")
    friend.page.locator("#join-button").click()
    friend.page.wait_for_selector("#join-problem:has-text('6 letters')")
    friend.page.fill("#join-code", f"{code[:3].lower()} {code[3:].lower()}")
    friend.page.locator("#join-button").click()
    friend.page.wait_for_selector(".lobby-seat.you")
    assert friend.page.locator(".lobby-seat.you").get_attribute("data-seat") == "1"
    assert friend.page.locator("#start-table").count() == 0  # only the host starts
    assert "host" in friend.page.locator("#lobby-wait").inner_text().lower()
    friend.shot("friends-lobby-friend-desktop")

    # The host's lobby sees the friend within its 2 s poll; axe and finger-sized controls there.
    lobby.wait_for_selector('.lobby-seat.person[data-seat="1"]', timeout=5000)
    assert lobby.locator('.lobby-seat[data-seat="1"] .seat-who').inner_text() == "Friend"
    assert lobby.locator("#computer-1").count() == 1 and lobby.locator("#computer-0").count() == 0
    assert violations(lobby) == []
    small = [c for c in lobby.evaluate(LOBBY_CONTROLS) if c["height"] < MIN_TAP or c["width"] < MIN_TAP]
    assert small == []
    host.shot("friends-lobby-two-390x844")
    assert violations(friend.page) == []

    lobby.locator("#start-table").click()
    for p in (host, friend):
        p.page.wait_for_selector(".table", timeout=10000)
    # Each sees his own seat at the bottom, the other's where it sits from him:
    # seat 1 is the host's left (West); seat 0 is the friend's right (East).
    assert host.page.locator(".seat.south").get_attribute("data-seat") == "0"
    assert friend.page.locator(".seat.south").get_attribute("data-seat") == "1"
    assert host.page.locator('.seat.west[data-seat="1"] .who').inner_text().startswith("Friend")
    assert friend.page.locator('.seat.east[data-seat="0"] .who').inner_text().startswith("Host")
    assert friend.page.locator('.seat.north[data-seat="3"] .who').inner_text().startswith("Computer")
    # Each one's hand is his own seat's: five cards (six for a dealer ordered up), and not the other's.
    for p in (host, friend):
        p.page.wait_for_function("() => document.querySelectorAll('.hand button.card').length >= 5")
    hands = [set(p.page.eval_on_selector_all(".hand button.card", "ns => ns.map(n => n.dataset.card)")) for p in (host, friend)]
    assert all(len(h) in (5, 6) for h in hands) and not hands[0] & hands[1]

    played = {"host": [], "friend": []}
    for _ in range(200):
        if len(played["host"]) >= 2 and len(played["friend"]) >= 2:
            break
        for name, p in (("host", host), ("friend", friend)):
            if p.page.locator(".hand button.legal, button.action[data-action]").count():
                assert p.page.locator("#hint-button").count() == 0  # no hints with two people at the table
            action = act_once(p)
            if action and action.startswith("play "):
                played[name].append(action)
        host.page.wait_for_timeout(100)
    assert len(played["host"]) >= 2 and len(played["friend"]) >= 2, played
    host.shot("friends-table-host-390x844")
    friend.shot("friends-table-friend-desktop")


def test_an_invite_link_and_the_hosts_moves(make_page):
    host = make_page(viewport=DESKTOP)
    guest = make_page(viewport=PHONE)
    create_table(host)
    link = host.page.locator("#invite-link").input_value()
    token = link.split("#/join/")[1]
    # The invite as a query (?join=TOKEN) lands in the table's lobby, at the first free seat.
    guest.page.goto(f"{guest.server.url}/?speed=0.05&join={token}")
    guest.page.wait_for_selector(".lobby-seat.you")
    assert guest.page.locator(".lobby-seat.you").get_attribute("data-seat") == "1"
    assert "join=" not in guest.page.url
    # The host moves the guest across to be his partner; the guest's lobby follows.
    lobby = host.page
    lobby.wait_for_selector('.lobby-seat.person[data-seat="1"]', timeout=5000)
    lobby.select_option("#move-1", "2")
    lobby.wait_for_selector('.lobby-seat.person[data-seat="2"] #computer-2')
    guest.page.wait_for_selector('.lobby-seat.you[data-seat="2"]', timeout=5000)
    assert "Partner" in lobby.locator('.lobby-seat[data-seat="2"] .seat-number').inner_text()
    # ... then gives that seat to a computer player: the guest is no longer at the table.
    lobby.locator("#computer-2").click()
    lobby.wait_for_selector('.lobby-seat:not(.person)[data-seat="2"]')
    assert lobby.locator(".lobby-seat.person").count() == 1
    guest.page.wait_for_selector("#lobby-problem:has-text('no longer have a seat')", timeout=5000)
    # (The browser logs the table's 404 it was told: the one expected console error.)
    guest.errors[:] = [e for e in guest.errors if "status of 404" not in e]
    assert guest.errors == []


def test_the_turn_clock_plays_for_a_friend_who_does_not_and_everyone_sees_auto(make_page):
    host = make_page(viewport=DESKTOP)
    friend = make_page(viewport=DESKTOP)
    host.open("#/")
    host.page.select_option("#friends-game", "euchre")
    host.page.select_option("#friends-clock", "15")
    host.page.locator("#friends-create").click()
    code = host.page.locator("#table-code").inner_text().strip()
    friend.open("#/")
    friend.page.fill("#join-code", code)
    friend.page.locator("#join-button").click()
    friend.page.wait_for_selector(".lobby-seat.you")
    host.page.wait_for_selector('.lobby-seat.person[data-seat="1"]', timeout=5000)
    host.page.locator("#start-table").click()
    for p in (host, friend):
        p.page.wait_for_selector(".table", timeout=10000)
    # The host plays on; the friend never does: when it is his turn the host sees his
    # seat's clock, and once it ran out, his seat marked (auto), as the friend does his own.
    saw_clock = False
    for _ in range(600):
        if host.page.locator('.seat[data-seat="1"] .auto-mark').count():
            break
        saw_clock = saw_clock or host.page.locator('.seat[data-seat="1"] .seat-clock').count() > 0
        act_once(host)
        host.page.wait_for_timeout(100)
    assert host.page.locator('.seat[data-seat="1"] .auto-mark').inner_text() == "(auto)"
    assert saw_clock
    friend.page.wait_for_selector('.seat.south[data-seat="1"] .auto-mark', timeout=10000)
