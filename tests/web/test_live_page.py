"""The table while the computer players think: their moves arrive one
by one over the live channel, the seat that thinks is highlighted and named,
the person's seat lights up and the prompt asks him only when it is his turn;
a second tab and a reload show the same game."""

from __future__ import annotations

import random
import re
import shutil
import tempfile
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.conftest import PHONE, SMALL_PHONE, Page
from tests.web.test_euchre_page import CORNER, act_once, close_dialog
from tests.harness import ServerProcess

SEATS = {"1": "West", "2": "Partner", "3": "East"}
SAMPLE = """() => ({
    prompt: document.querySelector('.prompt')?.textContent || '',
    south: !!document.querySelector('.seat.south.to-move'),
    thinking: [...document.querySelectorAll('.seat.thinking')].map(s => s.dataset.seat),
    choices: document.querySelectorAll('.hand button.legal, button.action[data-action]').length,
    dialog: !!document.querySelector('dialog[open]'),
    at: performance.now(),
})"""


def longest_silence_ms(samples: list[dict]) -> float:
    """The longest stretch in which the page neither asked the person, nor named a
    thinking player, nor showed a dialog (a card sliding in is named by the prompt
    of the player who thinks next)."""
    longest, since = 0.0, None
    for s in samples:
        silent = not (s["south"] or s["thinking"] or s["dialog"] or s["prompt"])
        if silent and since is None:
            since = s["at"]
        elif not silent and since is not None:
            longest, since = max(longest, s["at"] - since), None
    return longest


@pytest.fixture(scope="module")
def real_bots_server():
    """A server whose computer players are the real default-level ones, which
    take a noticeable moment to think."""
    folder = tempfile.mkdtemp(prefix="tricktable-live-web-")
    process = ServerProcess(f"sqlite:///{folder}/web.db", bot=None).start()
    yield process
    process.stop()
    shutil.rmtree(folder, ignore_errors=True)


def test_the_prompt_and_seat_highlight_follow_who_is_really_to_move(browser, real_bots_server):
    p = Page(browser, real_bots_server, viewport=PHONE)
    try:
        p.open("#/play/euchre", speed=0.3)
        page, rng = p.page, random.Random(1)
        samples = []
        for _ in range(12):
            if page.locator("dialog[open]").count():
                close_dialog(p)
                continue
            cards, buttons = page.locator(".hand button.legal"), page.locator("button.action[data-action]")
            if cards.count():
                cards.nth(rng.randrange(cards.count())).click(position=CORNER)
            elif buttons.count():
                buttons.nth(rng.randrange(buttons.count())).click()
            else:
                raise AssertionError("nothing to do")
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:  # sample until the person may act again
                sample = page.evaluate(SAMPLE)
                samples.append(sample)
                if sample["dialog"] or (sample["south"] and sample["choices"]):
                    break
                page.wait_for_timeout(40)
            p.settle()
        assert len(samples) > 20
        for s in samples:
            if s["dialog"]:
                continue
            if s["south"]:
                assert s["choices"] and not s["thinking"], s  # lit only when he can act
            else:
                assert "your turn" not in s["prompt"].lower() and "tap" not in s["prompt"].lower(), s
                assert s["prompt"] == "" or re.search("thinking|Won by|over", s["prompt"]), s
            for seat in s["thinking"]:
                assert s["prompt"].startswith(SEATS[seat]), s  # "West is thinking…" names the lit seat
        thinking = [s for s in samples if s["thinking"]]
        assert thinking, "no computer player was ever shown thinking"
        silence = longest_silence_ms(samples)
        print(f"{len(samples)} samples, {len(thinking)} with a thinking seat, longest silence {silence:.0f} ms")
        assert silence < 600  # no moment over 600 ms where nothing says who is thinking
        assert p.errors == []
    finally:
        p.close()


def tap_first_choice(page) -> None:
    """Tap the first highlighted card (or else button) as a person would: a card
    that moves or is redrawn under the finger is tapped again once it is still."""
    for _attempt in range(4):
        cards, buttons = page.locator(".hand button.legal"), page.locator("button.action[data-action]")
        try:
            (cards.first.click(position=CORNER, timeout=5000) if cards.count() else buttons.first.click(timeout=5000))
            return
        except PlaywrightTimeout:
            page.wait_for_timeout(200)
    raise AssertionError("the first choice never held still long enough to be tapped")


def test_a_second_tab_and_a_reload_show_the_game_where_it_is(make_page):
    p = make_page(viewport=SMALL_PHONE)
    p.open("#/play/euchre")
    page = p.page
    second = p.context.new_page()  # same device: same stored game
    second.goto(page.url)
    second.wait_for_selector("body[data-ready]")
    for _ in range(6):
        if page.locator("dialog[open]").count():
            close_dialog(p)
            continue
        tap_first_choice(page)
        p.settle()
    game_id = page.evaluate("localStorage.getItem('tt.game.euchre')")
    state = page.request.get(f"{p.server.url}/api/games/{game_id}").json()
    hand = sorted(state["view"]["hand"])
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:  # the second tab shows each step too, sheets included
        if second.locator("dialog[open]").count():
            second.locator("dialog[open] button").last.click()
        shown = sorted(second.locator(".hand button.card").evaluate_all("cs => cs.map(c => c.dataset.card)"))
        if shown == hand and second.locator("#main").get_attribute("data-version") == str(state["version"]):
            break
        second.wait_for_timeout(100)
    assert shown == hand and second.locator("#main").get_attribute("data-version") == str(state["version"])
    page.reload()
    page.wait_for_selector("body[data-ready]")
    p.settle()
    shown = sorted(page.locator(".hand button.card").evaluate_all("cs => cs.map(c => c.dataset.card)"))
    assert shown == hand or page.locator("dialog[open]").count()
    assert re.search(r"\d", page.locator(".scorebar").inner_text())
    second.close()
    # Two tabs of one game may both act (the second auto-plays a forced card); the
    # browser logs the loser's refused request itself, and the page reloads the game.
    p.errors[:] = [e for e in p.errors if "status of 409" not in e]



def test_after_a_deal_ends_the_page_shows_its_sheet_and_its_last_trick_from_the_frames_it_got(make_page):
    """Step frames carry the previous deal only where their step ended a deal
   : the page shows that deal's score sheet, and after the person
    has played on into the next deal (frames without it), its last trick and
    trick history still show, kept from that frame; the page asks the server
    for no whole game meanwhile."""
    p = make_page(viewport=PHONE)
    page = p.page
    p.open("#/play/euchre")
    loads: list[str] = []
    page.on("request", lambda r: r.method == "GET" and re.search(r"/api/games/[^/?]+$", r.url) and loads.append(r.url))
    rng = random.Random("deal-end")
    for _ in range(200):  # up to the first deal's score sheet
        if page.locator("dialog[open] .score-sheet").count():
            break
        if page.locator("dialog[open]").count():
            close_dialog(p)
        else:
            act_once(p, rng)
    sheet = page.locator("dialog[open] .score-sheet")
    assert sheet.count() and sheet.locator("table.sheet").count() and "Match total" in sheet.locator(".totals").inner_text()
    # The bar above the sheet counts the finished deal too (it showed the score before it).
    bar = [page.locator(f".scorebar .score.{team} strong").inner_text() for team in ("us", "them")]
    assert sheet.locator(".totals").inner_text().endswith(f"Us {bar[0]} · Them {bar[1]}")
    p.shot("euchre-deal-over-sheet-phone")
    ended = int(page.locator("#main").get_attribute("data-version")) + 1  # (the screen is one step before the sheet's)
    while page.locator("dialog[open]").count():
        close_dialog(p)
    if int(page.locator("#main").get_attribute("data-version")) == ended:
        # He bids first in the new deal: a pass, answered by a frame without the previous deal.
        page.locator('button.action[data-action="pass"]').click()
        p.settle()
        while page.locator("dialog[open]").count():
            close_dialog(p)
    game_id = page.evaluate("localStorage.getItem('tt.game.euchre')")
    whole = page.request.get(f"{p.server.url}/api/games/{game_id}").json()
    assert whole["version"] == int(page.locator("#main").get_attribute("data-version")) > ended
    # His turn comes before the new deal's first trick is complete: its last trick is the previous deal's.
    assert whole["view"]["match"]["deal_number"] >= 2 and not whole["view"]["tricks"]
    last = whole["view"]["match"]["previous_deal"]["tricks"][-1]
    names = ["You", "West", "Partner", "East"]
    page.locator("#last-trick").click()
    text = page.locator("dialog[open] .last-trick").inner_text()
    assert f"Led by {names[last['leader']]}" in text and f"Won by {names[last['winner']]}" in text
    p.shot("euchre-last-trick-next-deal-phone")
    close_dialog(p)
    page.locator("#trick-history").click()
    assert page.locator("dialog[open] tr.history-row").count() == len(whole["view"]["match"]["previous_deal"]["tricks"])
    close_dialog(p)
    assert not loads, loads  # all from the frames the page got
