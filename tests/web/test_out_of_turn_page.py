"""Doppelkopf announcements out of turn on the page (doppelkopf.md, Announcements:
"at any moment before that player's next card, also while it is not his turn").

The computer players are held (``HeldBots``): each test decides which bot moves
when, and makes a bot's move land between the person's tap and the arrival of
his request at the server, the race a real table loses now and then.  Nothing
here waits on a bot's speed, so every run takes the same path."""

from __future__ import annotations

import time

import pytest

from tests.web.conftest import PHONE, SMALL_PHONE, HeldServer, Page
from tests.web.test_euchre_page import CORNER

# Seeds whose first deal the person (South, seat 0) opens holding one club queen:
# "s0": his partner is West; "s1": his partner is East, West plays for Kontra.
PARTNER_WEST, PARTNER_EAST = "s0", "s1"
REFUSED_BY_BROWSER = "status of 409"  # the browser logs a refused request itself


def open_held_game(browser, server: HeldServer, seed: str, viewport) -> tuple[Page, str]:
    """The page on a new Doppelkopf match dealt from ``seed``, after the three
    computer players' "healthy" and the person's first card (leading trick 1);
    West is asked for his move and held."""
    p = Page(browser, server, viewport=viewport)
    game_id = server.room.new_game("doppelkopf", {}, seed=seed, owner=p.identity())["id"]
    p.context.add_init_script(f"localStorage.setItem('tt.game.doppelkopf', '{game_id}')")
    p.open("#/play/doppelkopf", speed=0.05)
    p.page.locator('button.action[data-action="healthy"]').click()
    server.bots.release(count=3)  # West, North, East: healthy
    first_card = p.page.locator(".hand button.legal").first
    first_card.wait_for()
    first_card.click(position=CORNER)
    server.wait_for_version(game_id, 6)  # 4 reservations and the card
    return p, game_id


def held_on_west(server: HeldServer, decisions: int) -> None:
    """Wait until the bots' ``decisions``-th decision has begun and it is West's."""
    deadline = time.monotonic() + 20
    while len(server.bots.asked) < decisions:
        assert time.monotonic() < deadline, "West was never asked to move"
        time.sleep(0.02)
    assert len(server.bots.asked) == decisions and server.bots.asked[-1].seat == 1


@pytest.mark.parametrize("viewport", [PHONE, SMALL_PHONE], ids=["390x844", "360x640"])
def test_the_person_answers_a_bots_kontra_even_when_the_bot_moves_first(browser, held_server, viewport):
    """West says Kontra and is held on his card; the person taps Re while West
    thinks.  West's card is stored after the tap and before the request arrives
    (409 for the version the page knew); the page sends Re again at the new
    version, because it is still allowed, and it is stored."""
    server = held_server
    p, game_id = open_held_game(browser, server, PARTNER_EAST, viewport)
    try:
        page = p.page
        server.bots.release("kontra")
        held_on_west(server, 5)  # 3 reservations, West's Kontra, West's card
        re_button = page.locator('button.action[data-action="re"]')
        re_button.wait_for()
        assert not page.locator(".seat.south.to-move").count()  # offered although it is West's turn

        raced = []

        def west_moves_first(route):
            if not raced:
                raced.append(route.request.post_data_json)
                server.bots.release()  # West's card is stored first
                server.wait_for_version(game_id, 8)
            route.continue_()

        page.route("**/api/games/*/actions", west_moves_first)
        re_button.click()
        page.locator(".seat.south .bubble", has_text="Re").wait_for()
        assert raced and raced[0] == {"action": "re", "version": 7}
        server.wait_for_version(game_id, 9)
        actions = server.actions(game_id)
        assert actions[-3:] == [[1, "kontra"], [1, actions[-2][1]], [0, "re"]] and actions[-2][1].startswith("play ")
        assert not page.locator(".notice.shown").count()
        p.shot(f"out-of-turn-re-{viewport['width']}")
        assert [e for e in p.errors if REFUSED_BY_BROWSER not in e] == []
    finally:
        p.close()


def test_an_announcement_overtaken_by_the_partners_is_refused_in_plain_words(browser, held_server):
    """The person taps Re while his partner West thinks; West's own Re is stored
    first, so the person's team's next announcement would be "no 90": the page
    does not store anything for him and says plainly that it is too late, and why."""
    server = held_server
    p, game_id = open_held_game(browser, server, PARTNER_WEST, PHONE)
    try:
        page = p.page
        held_on_west(server, 4)  # 3 reservations, West's move
        re_button = page.locator('button.action[data-action="re"]')
        re_button.wait_for()

        def partner_says_re_first(route):
            server.bots.release("re")
            server.wait_for_version(game_id, 7)
            route.continue_()

        page.route("**/api/games/*/actions", partner_says_re_first, times=1)
        re_button.click()
        notice = page.locator(".notice.shown")
        notice.wait_for()
        assert notice.inner_text() == "Too late for “Re”: West moved first (Re), so it is no longer allowed."
        assert not notice.locator("#retry").count()  # trying again cannot help
        assert [0, "re"] not in server.actions(game_id)
        assert not page.locator('button.action[data-action="re"]').count()
        p.shot("out-of-turn-too-late")
        assert [e for e in p.errors if REFUSED_BY_BROWSER not in e] == []
    finally:
        p.close()
