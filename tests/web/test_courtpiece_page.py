"""Double Sar (and Single Sar) in the browser: calling trump against the
server's visible countdown, then a whole deal by clicking, to the score sheet."""

from __future__ import annotations

import random
import re
import time

import pytest



DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CORNER = {"x": 8, "y": 24}  # overlapping cards: tap the visible corner, as a person would


def play_deal(p, rng: random.Random, name: str, game: str) -> dict:
    """Play by clicking until the deal's score sheet; what was seen on the way."""
    page = p.page
    seen = {"countdown": False, "called": False, "shot": False}
    for _ in range(200):
        if page.locator("dialog[open]").count():
            return seen
        clock = page.locator(".prompt .countdown")
        calls = page.locator('button.action[data-action^="call "]')
        cards = page.locator(".hand button.legal")
        if calls.count():
            if clock.count():
                seen["countdown"] = True
                assert re.search(r"\d", clock.inner_text())
                p.shot(f"{game}-calling-{name}")
            calls.nth(rng.randrange(calls.count())).click()
            seen["called"] = True
        elif cards.count():
            if not seen["shot"] and page.locator(".trick .card").count() >= 2:
                p.shot(f"{game}-table-{name}")
                seen["shot"] = True
            cards.nth(rng.randrange(cards.count())).click(position=CORNER)
        else:
            page.locator("button.action[data-action]").first.click()  # pass to partner, change trump …
        p.settle()
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize("game, viewport, name", [
    ("double-sar", DESKTOP, "desktop"), ("double-sar", PHONE, "phone"),
    ("single-sar", DESKTOP, "desktop"), ("single-sar", PHONE, "phone")])
def test_a_whole_deal_by_clicking(make_page, game, viewport, name):
    p = make_page(viewport=viewport)
    page = p.page
    p.open(f"#/play/{game}")
    for _attempt in range(30):  # new games until the person calls trump in the first deal
        if page.locator('button.action[data-action^="call "]').count():
            break
        page.evaluate(f"localStorage.removeItem('tt.game.{game}')")
        page.reload()
        page.wait_for_selector("body[data-ready]")
        p.settle()
    seen = play_deal(p, random.Random(name), name, game)
    assert seen["called"] and seen["countdown"]
    assert page.locator("dialog[open] .score-sheet tr.line").count() >= 2
    p.shot(f"{game}-sheet-{name}")
    page.locator("dialog[open] button.primary").click()
    p.settle()
    game_id = page.evaluate(f"localStorage.getItem('tt.game.{game}')")
    match = page.request.get(f"{p.server.url}/api/games/{game_id}").json()["view"]["match"]
    assert int(page.locator(".scorebar .us strong").inner_text()) == match["team_points"][0]


@pytest.mark.parametrize("game", ["hidden-trump", "be-ranga", "mendikot"])
def test_the_relatives_play_a_deal_by_clicking(make_page, game):
    p = make_page(viewport=PHONE)
    p.open(f"#/play/{game}")
    play_deal(p, random.Random(game), "phone", game)
    assert p.page.locator("dialog[open] .score-sheet tr.line").count() >= 1
    p.shot(f"{game}-sheet-phone")


def test_when_the_countdown_runs_out_the_server_calls_time(make_page):
    """The page counts the server's seconds down and, at zero, asks the server,
    which applies the timeout itself (the choice passes to the partner)."""
    p = make_page()
    page = p.page
    page.clock.install()
    p.open("#/play/double-sar")
    for _attempt in range(30):
        if page.locator('button.action[data-action="pass to partner"]').count():
            break  # the person is the first caller (the partner may still call)
        page.evaluate("localStorage.removeItem('tt.game.double-sar')")
        page.reload()
        page.wait_for_selector("body[data-ready]")
        p.settle()
    game_id = page.evaluate("localStorage.getItem('tt.game.double-sar')")
    assert page.locator(".prompt .countdown").count() == 1
    page.evaluate("""() => { window.said = []; const south = document.querySelector('.seat.south .bubble');
        new MutationObserver(() => south.textContent && window.said.push(south.textContent))
            .observe(south, { childList: true, characterData: true, subtree: true }); }""")
    from sqlalchemy import update

    from tricktable.store import Store
    from tricktable.store.schema import games
    store = Store(p.server.database)
    with store.engine.begin() as db:  # the server's clock runs out too
        db.execute(update(games).where(games.c.id == game_id).values(deadline=0))
    store.close()
    for _ in range(100):  # let the page's (fake) time pass until it has asked the server and redrawn
        page.clock.run_for(1000)
        time.sleep(0.05)  # real time for the request itself
        if not page.locator('button.action[data-action="pass to partner"]').count():
            break
    assert not page.locator('button.action[data-action="pass to partner"]').count()
    for _ in range(40):  # the buttons go as the page asks; the step that tells it may come a little later
        if page.evaluate("window.said.length"):
            break
        page.clock.run_for(250)
        time.sleep(0.05)
    # The person is told, beside his own seat, where he looks for his turn.
    assert "Time ran out" in page.evaluate("window.said")
    # Only the page asked the server (this test did not), so the page made it happen.
    actions = page.request.get(f"{p.server.url}/api/games/{game_id}").json()["view"]["actions"]
    assert [0, "timeout"] in actions
