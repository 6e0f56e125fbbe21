"""On the page: tricks you can follow (lead and winner marked, trick
history), a table that fits a phone, the settings, a failed request, the first
visit, the walk-through fixes, focus and announcements, plural labels."""

from __future__ import annotations

import json
import random
import re

import pytest
from playwright.sync_api import expect

from tests.web.conftest import DESKTOP, GAMES, PHONE, SMALL_PHONE
from tests.web.test_courtpiece_page import play_deal
from tests.web.test_euchre_page import CORNER, act_once, close_dialog, dismiss_sheets, play_until_dialog

VIEWPORTS = [SMALL_PHONE, PHONE, DESKTOP]
VIEWPORT_IDS = ["360x640", "390x844", "1280x800"]


def game_state(p, game: str) -> dict:
    game_id = p.page.evaluate(f"localStorage.getItem('tt.game.{game}')")
    return p.page.request.get(f"{p.server.url}/api/games/{game_id}").json()


def play_cards_until(p, rng: random.Random, done, limit: int = 300) -> None:
    """Tap legal cards / buttons (closing sheets) until ``done()`` holds."""
    for _ in range(limit):
        if done():
            return
        if p.page.locator("dialog[open]").count():
            close_dialog(p)
        else:
            act_once(p, rng)
    raise AssertionError("never got there")


def inside(box: dict, viewport: dict) -> bool:
    return box["x"] >= -1 and box["y"] >= -1 and box["x"] + box["width"] <= viewport["width"] + 1 \
        and box["y"] + box["height"] <= viewport["height"] + 1


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=VIEWPORT_IDS)
def test_a_complete_trick_marks_its_leader_and_winner_then_the_history_lists_every_trick(make_page, viewport):
    p = make_page(viewport=viewport)
    p.open("#/play/euchre", speed=1)  # real pauses: the complete trick stays for a second
    page, rng = p.page, random.Random(11)
    dismiss_sheets(p)
    seen = None
    for _ in range(60):
        if page.locator("dialog[open]").count():
            close_dialog(p)
            continue
        cards = page.locator(".hand button.legal")
        buttons = page.locator("button.action[data-action]")
        if cards.count():
            cards.first.click(position=CORNER)
        else:
            buttons.first.click()
        try:
            page.wait_for_selector(".trick .card.winner", timeout=4000)
        except Exception:  # noqa: BLE001 - no trick completed by this move
            p.settle()
            continue
        seen = page.evaluate("""() => ({
            winner: Number(document.querySelector('.trick .card.winner').closest('.slot').dataset.seat),
            leader: Number(document.querySelector('.trick .card.lead').closest('.slot').dataset.seat),
            cards: document.querySelectorAll('.trick .card').length,
            shown: [...document.querySelectorAll('.trick .card')].map((c) => c.dataset.card).sort(),
            badge: document.querySelector('.trick .win-badge')?.textContent})""")
        if viewport is PHONE:
            p.shot("euchre-trick-complete-phone")
        p.settle()
        break
    assert seen, "no trick was seen complete"
    tricks = game_state(p, "euchre")["view"]["tricks"] or game_state(p, "euchre")["view"]["match"]["previous_deal"]["tricks"]
    # The trick seen complete (at the test's speed a trick can pass unseen: the next one is taken).
    first = next(t for t in tricks if sorted(card for _, card in t["cards"]) == seen["shown"])
    assert (seen["leader"], seen["winner"]) == (first["leader"], first["winner"])
    assert seen["cards"] == len(first["cards"]) and seen["badge"] == "wins"
    # Play on to the end of the deal, then read the whole deal's history.
    play_until_dialog(p, rng)
    while page.locator("dialog[open]").count():
        close_dialog(p)
    deal = game_state(p, "euchre")["view"]
    tricks = deal["tricks"] if deal["tricks"] else deal["match"]["previous_deal"]["tricks"]
    page.locator("#trick-history").click()
    rows = page.locator("dialog[open] tr.history-row")
    assert rows.count() == len(tricks) >= 1
    names = ["You", "West", "Partner", "East"]
    for row, trick in zip(rows.all(), tricks):
        cells = row.locator("td")
        labels = [cells.nth(seat).locator(".card-chip").get_attribute("aria-label") for seat, _ in sorted(trick["cards"])]
        assert all(labels)
        assert "led" in cells.nth(trick["leader"]).get_attribute("class")
        assert "won" in cells.nth(trick["winner"]).get_attribute("class")
        assert cells.nth(4).inner_text() == names[trick["winner"]]
    if viewport is PHONE:
        p.shot("euchre-trick-history-phone")
    close_dialog(p)
    page.locator("#last-trick").click()
    text = page.locator("dialog[open] .last-trick").inner_text()
    assert f"Led by {names[tricks[-1]['leader']]}" in text and f"Won by {names[tricks[-1]['winner']]}" in text


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=VIEWPORT_IDS)
def test_doppelkopf_decisions_sit_on_the_felt_with_the_whole_hand_on_screen(make_page, viewport):
    p = make_page(viewport=viewport)
    page = p.page
    p.open("#/play/doppelkopf")
    decision = 'button.action[data-action="healthy"]'
    for _ in range(20):  # the person's reservation, not a sheet or a card
        if page.locator(decision).count():
            break
        page.evaluate("localStorage.removeItem('tt.game.doppelkopf')")
        page.reload()
        page.wait_for_selector("body[data-ready]")
        p.settle()
    page.locator("#more-actions").click()  # the reservations behind "Reservation…"
    p.shot(f"doppelkopf-reservations-{viewport['width']}x{viewport['height']}")
    buttons = page.locator("button.action[data-action]")
    assert buttons.count() >= 8  # healthy and the solos at least
    cards = page.locator(".hand button.card")
    assert cards.count() == 12
    for locator in [*buttons.all(), *cards.all()]:
        assert inside(locator.bounding_box(), viewport), locator.get_attribute("data-action") or locator.get_attribute("data-card")
    felt = page.locator(".felt").bounding_box()
    first = buttons.first.bounding_box()
    assert felt["y"] <= first["y"] and first["y"] + first["height"] <= felt["y"] + felt["height"]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= viewport["width"]
    p.shot(f"doppelkopf-decision-{viewport['width']}x{viewport['height']}")


@pytest.mark.parametrize("viewport", [SMALL_PHONE, PHONE], ids=VIEWPORT_IDS[:2])
def test_thirteen_cards_fit_two_rows_on_a_phone(make_page, viewport):
    p = make_page(viewport=viewport)
    page = p.page
    p.open("#/play/double-sar")
    rng = random.Random(5)
    play_cards_until(p, rng, lambda: page.locator(".hand button.card").count() == 13 and not page.locator("dialog[open]").count())
    boxes = [c.bounding_box() for c in page.locator(".hand button.card").all()]
    assert all(inside(b, {"width": viewport["width"], "height": 10_000}) for b in boxes)
    # Two rows in the hand's order (the first row first), each card's corner at least 44 px wide.
    rows = sorted({round(b["y"]) for b in boxes})
    assert len(rows) == 2
    upper = [b for b in boxes if round(b["y"]) == rows[0]]
    lower = [b for b in boxes if round(b["y"]) == rows[1]]
    assert boxes == upper + lower and len(upper) - len(lower) in (0, 1)
    for row in (upper, lower):
        lefts = [b["x"] for b in row]
        assert lefts == sorted(lefts) and min(b2 - b1 for b1, b2 in zip(lefts, lefts[1:])) >= 44
    assert page.evaluate("document.scrollingElement.scrollWidth") <= viewport["width"]


def test_settings_are_remembered_and_change_the_table(make_page):
    p = make_page(auto_play=True)
    page = p.page
    p.open("#/")
    page.locator("#settings-button").click()
    page.locator("label[for=setting-pace-instant]").click()
    page.locator("label[for=setting-sort-suit]").click()
    page.locator("#setting-fourColour").check()
    page.locator("#setting-sound").check()
    page.locator("#save-settings").click()
    saved = json.loads(page.evaluate("localStorage.getItem('tt.settings')"))
    assert saved == {"pace": "instant", "sort": "suit", "fourColour": True, "autoPlay": True, "sound": True,
                     "muteReactions": False}
    p.open("#/play/euchre")
    rng = random.Random(2)
    play_cards_until(p, rng, lambda: bool(game_state(p, "euchre")["view"]["trump"]) and page.locator(".hand button.legal").count() > 0
                     and page.locator(".hand button.card").count() >= 4)
    view = game_state(p, "euchre")["view"]
    trump = view["trump"]
    left_bower = {"C": "JS", "S": "JC", "H": "JD", "D": "JH"}[trump]

    def is_trump(card: str) -> bool:
        return card[-1] == trump or card == left_bower

    def order() -> list[bool]:
        return [is_trump(c) for c in page.locator(".hand button.card").evaluate_all("cs => cs.map(c => c.dataset.card)")]

    by_suit = order()
    assert by_suit == sorted(by_suit)  # trumps last
    clubs = page.locator('.hand button.card[data-card$="C"] svg g[fill]')
    if clubs.count():
        assert clubs.first.get_attribute("fill") == "#13773a"  # green clubs
    page.locator("#settings-button").click()
    assert page.locator("#setting-pace-instant").is_checked() and page.locator("#setting-fourColour").is_checked()
    page.locator("label[for=setting-sort-trumps]").click()
    page.locator("#save-settings").click()
    first = order()
    assert first == sorted(first, reverse=True)  # trumps first


FAILED_REQUESTS = {
    # (what the network does with the action's request, the browser's own log line for it)
    "offline": (lambda route: route.abort("internetdisconnected"), "ERR_INTERNET_DISCONNECTED"),
    # held: never answered; api.js gives up after REQUEST_TIMEOUT_MS (15 s), as when offline
    "stalled": (lambda route: None, None),
}


@pytest.mark.parametrize("failure", FAILED_REQUESTS)
def test_a_failed_request_puts_the_card_back_with_a_message_and_a_retry(make_page, failure):
    handler, log_line = FAILED_REQUESTS[failure]
    p = make_page(viewport=PHONE)
    page = p.page
    p.open("#/play/euchre")
    rng = random.Random(4)
    play_cards_until(p, rng, lambda: page.locator(".hand button.legal").count() > 0 and not page.locator("dialog[open]").count())
    before = page.locator(".hand button.card").count()
    version = game_state(p, "euchre")["version"]
    page.route("**/actions", handler)
    card = page.locator(".hand button.legal").first
    played = card.get_attribute("data-card")
    card.click(position=CORNER)
    page.wait_for_selector(".notice #retry", timeout=30000)
    notice = page.locator(".notice").inner_text()
    assert "No connection" in notice and "back in your hand" in notice and "fetch" not in notice.lower()
    assert page.locator(".hand button.card").count() == before
    assert page.locator(f'.hand button.legal[data-card="{played}"]').count() >= 1
    assert game_state(p, "euchre")["version"] == version  # nothing reached the server
    p.shot(f"euchre-{failure}-phone")
    page.unroute("**/actions")
    page.locator("#retry").click()
    p.settle()
    assert game_state(p, "euchre")["version"] > version
    assert page.locator(".notice").inner_text() == ""
    if log_line:  # the browser's own log line for the aborted request is expected here, and only that
        assert [e for e in p.errors if log_line in e]
        p.errors[:] = [e for e in p.errors if log_line not in e]


def test_the_person_s_card_lands_before_the_server_answers(make_page):
    p = make_page()
    page = p.page
    p.open("#/play/euchre")
    rng = random.Random(8)
    play_cards_until(p, rng, lambda: page.locator(".hand button.legal").count() > 0 and not page.locator("dialog[open]").count())
    held = []
    page.route("**/actions", lambda route: held.append(route))  # the answer waits until the test lets it go
    card = page.locator(".hand button.legal").first
    played = card.get_attribute("data-card")
    page.evaluate("""() => {
        document.querySelector('.hand').addEventListener('click', () => (window.clicked = performance.now()), true);
        new MutationObserver(() => { if (!window.landed && document.querySelector('.trick .slot.south .card'))
            window.landed = performance.now(); }).observe(document.querySelector('.trick'), { subtree: true, childList: true });
    }""")
    card.click(position=CORNER)
    page.wait_for_selector(f'.trick .slot.south .card[data-card="{played}"]', timeout=2000)
    click_to_card = page.evaluate("window.landed - window.clicked")
    assert click_to_card >= 0  # shown while the answer is held back; the 50 ms target is scripts/latency.py's, not a timed test
    print(f"click to own card on the table: {click_to_card:.1f} ms")
    assert "Your turn" not in page.locator(".prompt").inner_text()
    assert not page.locator(".seat.south.to-move").count() and not page.locator(".hand button.legal").count()
    assert held
    held[0].continue_()
    page.unroute("**/actions")
    p.settle()


def test_focus_returns_to_the_hand_and_computer_players_are_announced(make_page):
    p = make_page()
    page = p.page
    p.open("#/play/euchre")
    rng = random.Random(9)
    for _ in range(40):
        if page.locator("dialog[open]").count():
            close_dialog(p)
            continue
        if page.locator(".hand button.legal").count() and page.locator("#announcer").inner_text().startswith(("West", "East", "Partner")) \
                and page.evaluate("document.activeElement.closest('.hand') !== null"):
            break
        act_once(p, rng)
    assert page.evaluate("document.activeElement.matches('.hand button.legal')")
    assert re.match(r"^(West|East|Partner)( plays |: )", page.locator("#announcer").inner_text())
    assert page.locator("#announcer").get_attribute("aria-live") == "polite"


def test_the_first_visit_shows_how_to_play_once(make_page):
    p = make_page(first_visit=True, viewport=PHONE)
    page = p.page
    p.open("#/play/mendikot")
    page.wait_for_selector("dialog[open] .howto")
    text = page.locator("dialog[open] .howto").inner_text()
    assert "How to play Mendikot" in text and "tens" in text  # the rules file's opening line
    p.shot("mendikot-how-to-play-phone")
    page.locator("#howto-ok").click()
    p.settle()
    page.reload()
    page.wait_for_selector("body[data-ready]")
    p.settle()
    assert not page.locator("dialog[open] .howto").count()


def test_the_home_page_on_a_phone_shows_every_game_without_a_long_scroll(make_page):
    p = make_page(viewport=PHONE)
    p.open("#/")
    page = p.page
    assert page.locator(".game-card").count() == len(GAMES)
    assert page.locator("#home-level-normal").is_checked()  # the default level
    last = page.locator(".game-card").last.bounding_box()
    assert last["y"] + last["height"] <= 1.5 * PHONE["height"]
    p.shot("home-phone")


def test_a_rules_page_states_the_calling_time_and_options_speak_the_language(make_page):
    p = make_page(locale="de-DE")
    page = p.page
    p.open("#/rules/double-sar")
    assert "10 Sekunden" in page.locator(".rules-text").inner_text() and "20 Sekunden" in page.locator(".rules-text").inner_text()
    p.open("#/play/double-sar")
    dismiss_sheets(p)
    page.locator("#rules-button").click()
    # The dialog is built after the rules' options arrive: wait for them, then compare.
    expect(page.locator("#opt-counting option")).to_have_text(["Punkte", "Kots"])
    expect(page.locator("#opt-new_cards option")).to_have_text(["nur du", "jeder Spieler", "niemand (aus)"])
    assert page.locator("#preset").input_value() == "standard"
    page.locator("#preset").select_option("all house rules")
    page.locator("#opt-counting").select_option(json.dumps("kots"))
    page.locator("#opt-target_kots").select_option("3")
    assert page.locator("#preset").input_value() == ""  # own choice now
    page.locator("#opt-counting").select_option(json.dumps("points"))
    page.locator("#opt-target_kots").select_option("2")
    assert page.locator("#preset").input_value() == "all house rules"
    page.locator("#opt-counting").select_option(json.dumps("kots"))
    page.locator("#opt-target_kots").select_option("3")
    page.locator("#apply-options").click()
    p.settle()
    dismiss_sheets(p)
    expect(page.locator(".scorebar .deal")).to_contain_text("Spiel bis 3 Kots", timeout=15000)  # the new game's bar
    page.reload()
    page.wait_for_selector("body[data-ready]")
    p.settle()
    dismiss_sheets(p)
    page.locator("#rules-button").click()
    assert page.locator("#opt-counting").input_value() == json.dumps("kots")
    page.locator("#opt-counting").select_option(json.dumps("points"))
    page.locator("#opt-target_kots").select_option("2")
    assert page.locator("#preset").input_value() == "all house rules"


def test_new_cards_deal_again_without_a_deal_0_sheet_and_with_a_fresh_countdown(make_page):
    p = make_page(viewport=PHONE)
    page = p.page
    p.open("#/play/double-sar")
    for _ in range(30):
        # New cards is offered until the person's first card, out of turn and in trick 1
        # too (court-piece.md): wait for a deal he calls first, on his own clock (not as the
        # partner after a pass: the deal dealt again is the caller's to call).
        if (page.locator('button.action[data-action="new cards"]').count()
                and "pass to partner" in game_state(p, "double-sar")["view"]["legal"]):
            break
        page.evaluate("localStorage.removeItem('tt.game.double-sar')")
        page.reload()
        page.wait_for_selector("body[data-ready]")
        p.settle()
    else:
        pytest.fail("the person was never the caller in 30 new games")
    before = page.locator(".hand button.card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    page.wait_for_timeout(2500)  # let the first countdown run a little
    old = int(re.search(r"\d+", page.locator(".prompt .countdown").inner_text()).group())
    page.locator('button.action[data-action="new cards"]').click()
    p.settle()
    assert not page.locator("dialog[open]").count()
    assert "dealt again" in page.locator(".seat.south .bubble").inner_text()
    assert page.locator(".hand button.card").evaluate_all("cs => cs.map(c => c.dataset.card)") != before
    assert page.locator(".prompt .countdown").count() == 1
    seconds = int(re.search(r"\d+", page.locator(".prompt .countdown").inner_text()).group())
    server_seconds = game_state(p, "double-sar")["deadline_in"]
    # A new clock (10 s in the device's first game, else 20 s), not the old one's remainder.
    assert seconds > old and abs(seconds - server_seconds) <= 2, (old, seconds, server_seconds)
    assert "Deal 1" in page.locator(".scorebar .deal").inner_text()


def test_play_again_after_a_match_keeps_the_level_and_the_options(make_page):
    p = make_page(viewport=PHONE)
    page = p.page
    p.open("#/")
    page.evaluate("localStorage.setItem('tt.level', 'easy');"
                  "localStorage.setItem('tt.options.mendikot', JSON.stringify({target_points: 3}))")
    p.open("#/play/mendikot")
    page.wait_for_selector(".table")
    p.settle()
    first = game_state(p, "mendikot")
    assert first["level"] == "easy" and first["view"]["options"]["target_points"] == 3
    page.evaluate("localStorage.setItem('tt.level', 'hard')")  # the home page's choice changed meanwhile
    rng = random.Random(3)
    for _ in range(20):
        play_deal(p, rng, "phone", "mendikot")
        if page.locator("dialog[open] .match-summary").count():
            break
        close_dialog(p)
    summary = page.locator("dialog[open] .match-summary")
    assert summary.count() == 1
    assert re.search(r"Match points: us \d+ – them \d+", summary.inner_text())
    assert page.locator("#outcome").inner_text() in ("Your team won the match!", "The other team won the match.")
    p.shot("mendikot-match-summary-phone")
    page.locator("#play-again").click()
    page.wait_for_function("old => localStorage.getItem('tt.game.mendikot') !== old", arg=first["id"])
    p.settle()
    again = game_state(p, "mendikot")
    assert again["level"] == "easy" and again["view"]["options"]["target_points"] == 3


@pytest.mark.parametrize("lang, one, two", [("en", "1 card", "2 cards"), ("de", "1 Karte", "2 Karten"),
                                            ("hi", "1 पत्ता", "2 पत्ते"), ("th", "ไพ่ 1 ใบ", "ไพ่ 2 ใบ")])
def test_card_counts_read_naturally_in_every_language(make_page, lang, one, two):
    p = make_page()
    p.open("#/")
    words = p.page.evaluate("""async (lang) => {
        const i18n = await import('./js/i18n.js');
        await i18n.setLanguage(lang);
        return [i18n.tn('table.cards_left', 1), i18n.tn('table.cards_left', 2)];
    }""", lang)
    assert words == [one, two]


def test_reduced_motion_shows_no_sliding_cards(make_page):
    p = make_page(reduced_motion="reduce")
    page = p.page
    p.open("#/play/euchre", speed=1)
    page.evaluate("""() => { window.slid = 0; new MutationObserver((changes) => { for (const c of changes)
        if (c.target.className && /enter-|gather/.test(String(c.target.className))) window.slid++; })
        .observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class'], childList: true }); }""")
    rng = random.Random(6)
    for _ in range(6):
        if page.locator("dialog[open]").count():
            close_dialog(p)
        else:
            act_once(p, rng)
    assert page.evaluate("window.slid") == 0
    assert page.evaluate("document.querySelectorAll('.trick [class*=enter-]').length") == 0


@pytest.mark.parametrize("game", GAMES)
def test_every_game_mid_trick_screenshot(make_page, game):
    """Screenshots of each game's table with cards on the table, to look at."""
    p = make_page(viewport=PHONE)
    page = p.page
    p.open(f"#/play/{game}")
    rng = random.Random(game)
    play_cards_until(p, rng, lambda: page.locator(".trick .card").count() >= 2 and page.locator(".hand button.legal").count() > 0
                     and not page.locator("dialog[open]").count())
    assert page.locator(".seat.south.to-move").count() == 1
    p.shot(f"{game}-midtrick-phone")
