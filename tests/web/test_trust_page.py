"""Trust in the browser: a new browser's daily is labelled practice; an
ordinary game shows its deal commitment at the start and verifies its deals
at the end with Web Crypto (and a tampered reveal fails); the identity moves
to another browser with a one-time code."""

from __future__ import annotations

import json
import random

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.test_euchre_page import dismiss_sheets
from tricktable.server.trust.identity import COOKIE

PHONE = {"width": 390, "height": 844}
CORNER = {"x": 8, "y": 24}


def play_to_the_end(p, rng: random.Random, limit: int = 1500) -> None:
    """Tap legal cards and buttons, closing score sheets, until the match
    summary opens.  A tap that misses because the table moved on (the next
    trick, a sheet) is simply tried again."""
    page = p.page
    for _ in range(limit):
        if page.locator("dialog[open] .match-summary").count():
            return
        if page.locator("dialog[open]").count():
            target, position = page.locator("dialog[open] button.primary, dialog[open] button.action").last, None
        elif page.locator(".hand button.legal").count():
            cards = page.locator(".hand button.legal")
            target, position = cards.nth(rng.randrange(max(1, cards.count()))), CORNER
        else:
            buttons = page.locator("button.action[data-action]")
            target, position = buttons.nth(rng.randrange(max(1, buttons.count()))), None
        try:
            target.click(position=position, timeout=3000)
        except PlaywrightTimeout:
            pass
        p.settle()
    raise AssertionError("the match did not end")


def open_fair_deal(p) -> None:
    """The "fair deal" control in the score bar opens its panel."""
    p.page.locator("#fair-deal").click()
    p.page.wait_for_selector("dialog[open] .fairness-panel")


def test_a_new_browsers_daily_is_labelled_practice(make_page):
    p = make_page(viewport=PHONE)
    p.open("#/daily/euchre")
    dismiss_sheets(p)
    assert "Practice" in p.page.locator("#fair-deal").inner_text()
    open_fair_deal(p)
    label = p.page.locator("#daily-kind")
    assert "Practice" in label.inner_text() and "practice-label" in label.get_attribute("class")
    assert p.page.locator("#commitment").inner_text().endswith("…")
    assert "fixed before you started" in p.page.locator(".fairness-panel").inner_text()
    p.shot("trust-daily-practice-phone")


def test_an_aged_identity_plays_a_ranked_daily(make_page):
    p = make_page()
    p.open("#/")
    p.age_identity()
    p.open("#/daily/doppelkopf")
    dismiss_sheets(p)
    open_fair_deal(p)
    assert "Ranked" in p.page.locator("#daily-kind").inner_text()


def test_the_commitment_is_shown_first_and_the_deals_verify_at_the_end(make_page):
    p = make_page()
    p.open("#/play/euchre", speed=0.01)
    page = p.page
    dismiss_sheets(p)  # (the first deal may be over already: his partner went alone)
    open_fair_deal(p)
    shown = page.locator("#commitment").inner_text().rstrip("…")
    game_id = page.evaluate("localStorage.getItem('tt.game.euchre')")
    remembered = json.loads(page.evaluate(f"localStorage.getItem('tt.fair.{game_id}')"))
    assert remembered["commitment"].startswith(shown) and len(shown) == 12
    state = page.request.get(f"{p.server.url}/api/games/{game_id}").json()
    assert state["fairness"]["commitment"] == remembered["commitment"] and state["fairness"]["server_seed"] is None
    assert state["fairness"]["client_seed"] == remembered["client_seed"]  # the page's own half
    p.shot("trust-commitment-desktop")
    page.locator("dialog[open] button.primary").click()
    play_to_the_end(p, random.Random(11))
    page.locator("dialog[open] button.primary, dialog[open] button.action").last.click()  # close the summary
    open_fair_deal(p)
    page.locator("#verify").click()
    page.wait_for_function("() => /Verified|NOT/.test(document.querySelector('#verify-result')?.textContent || '')")
    assert "Verified" in page.locator("#verify-result").inner_text()
    p.shot("trust-verified-desktop")

    # The same check fails when the revealed record is not what the seed gives.
    def tampered(route):
        route.fulfill(json=swap_cards(route.fetch().json()))

    page.route(f"**/api/games/{game_id}/record", tampered)
    page.locator("#verify").click()
    page.wait_for_function("() => document.querySelector('#verify-result')?.classList.contains('bad')")
    assert "deal 1" in page.locator("#verify-result").inner_text()


def test_a_transfer_code_moves_the_identity_to_another_browser(make_page):
    old, new = make_page(), make_page(viewport=PHONE)
    old.open("#/")
    old.page.locator(".identity-panel summary").click()
    old.page.locator("#transfer-make").click()
    code = old.page.locator("#transfer-shown").inner_text()
    old.shot("trust-transfer-code-desktop")
    new.open("#/")
    new.page.locator(".identity-panel summary").click()
    new.page.fill("#transfer-code", code)
    new.page.locator("form.transfer button").click()
    new.page.wait_for_function("() => document.querySelector('#transfer-out')?.textContent.startsWith('Done')")

    def cookie(p):
        return next(c["value"] for c in p.context.cookies() if c["name"] == COOKIE)

    assert cookie(new) == cookie(old)
    new.page.fill("#transfer-code", code)
    new.page.locator("form.transfer button").click()  # used up
    new.page.wait_for_function("() => document.querySelector('#transfer-out')?.textContent.includes('used or expired')")
    new.shot("trust-transfer-used-phone")
    # The browser logs the refused request itself; that one was expected.
    new.errors[:] = [e for e in new.errors if "status of 404" not in e]


def test_the_browser_check_deals_every_game_family_again(make_page):
    """The page's verify code for Euchre, Doppelkopf and the Court Piece
    family, on games played to the end through the API from the same browser."""
    p = make_page()
    p.open("#/")
    request, rng = p.page.request, random.Random(5)
    for game in ("doppelkopf", "double-sar", "mendikot"):
        offer = request.post(f"{p.server.url}/api/commitments").json()
        state = request.post(f"{p.server.url}/api/games", data={
            "game": game, "fairness": {"nonce": offer["nonce"], "client_seed": "browser-check"}}).json()
        while not state["view"]["terminal"]:
            game_url = f"{p.server.url}/api/games/{state['id']}"
            if state["view"]["to_move"] != 0 or not state["view"]["legal"]:
                p.page.wait_for_timeout(20)  # the computer players move in the background
                state = request.get(game_url).json()
                continue
            answer = request.post(f"{game_url}/actions", data={
                "action": rng.choice(state["view"]["legal"]), "version": state["version"]})
            state = answer.json() if answer.ok else request.get(game_url).json()  # 409: a timeout came first
        outcome = p.page.evaluate("id => import('./js/fairness.js').then((m) => m.verifyGame(id))", state["id"])
        assert outcome["ok"] and outcome["deals"] >= 1, (game, outcome)
        # A record whose deal is not the seed's is caught for this family too.
        p.page.route(f"**/api/games/{state['id']}/record", lambda route: route.fulfill(json=swap_cards(route.fetch().json())))
        outcome = p.page.evaluate("id => import('./js/fairness.js').then((m) => m.verifyGame(id))", state["id"])
        assert not outcome["ok"] and any("deal 1" in problem for problem in outcome["problems"]), (game, outcome)


def swap_cards(record: dict) -> dict:
    hands = record["deals"][0]["hands"]
    first, second = hands[0].split(), hands[3].split()
    other = next(j for j, card in enumerate(second) if card != first[-1])  # Doppelkopf has two of each card
    first[-1], second[other] = second[other], first[-1]
    hands[0], hands[3] = " ".join(first), " ".join(second)
    return record
