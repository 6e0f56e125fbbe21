"""Doppelkopf house rules in the browser: the Rules dialog offers them (the "house rules"
preset fills them in), and a bock deal shows "Bock ×2" on the table and its multiplier on
the score sheet.  Screenshots in build/screenshots/."""

from __future__ import annotations

import random
import time

import pytest

from tests.web.conftest import unfold

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CORNER = {"x": 8, "y": 24}  # overlapping cards: tap the visible corner, as a person would
HOUSE_OPTIONS = ("schweinchen", "superschweinchen", "throwing_in", "bock", "without_nines")


@pytest.mark.parametrize("viewport, name", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_the_rules_dialog_offers_the_house_rules(make_page, viewport, name):
    p = make_page(viewport=viewport)
    p.open("#/play/doppelkopf")
    page = p.page
    page.locator("#rules-button").click()
    page.locator("#opt-schweinchen").wait_for()  # the dialog reads the catalog first
    for option in HOUSE_OPTIONS:
        assert page.locator(f"#opt-{option}").count() == 1, option
    superpigs = page.locator("#opt-superschweinchen")
    assert superpigs.is_disabled()  # it needs Schweinchen, which the standard rules leave off
    page.locator("#preset").select_option("house")
    assert page.locator("#opt-schweinchen").is_checked() and page.locator("#opt-second_heart_ten").is_checked()
    superpigs.check()
    page.locator("#opt-schweinchen").uncheck()
    assert superpigs.is_disabled() and not superpigs.is_checked()
    page.locator("#opt-schweinchen").check()
    assert superpigs.is_enabled() and not superpigs.is_checked()
    assert page.locator("#opt-poverty").is_checked() and not page.locator("#opt-bock").is_checked()
    page.locator("#opt-bock").check()
    assert page.locator("#preset").input_value() == ""  # now the person's own choice
    page.locator("#opt-bock").scroll_into_view_if_needed()
    p.shot(f"doppelkopf-house-rules-{name}")
    before = page.evaluate("localStorage.getItem('tt.game.doppelkopf')")
    page.locator("#apply-options").click()
    # The new game starts once the server answered (on a loaded machine after the click returned).
    page.wait_for_function("old => localStorage.getItem('tt.game.doppelkopf') !== old", arg=before)
    p.settle()
    game_id = page.evaluate("localStorage.getItem('tt.game.doppelkopf')")
    view = page.request.get(f"{p.server.url}/api/games/{game_id}").json()["view"]
    assert view["options"]["schweinchen"] and view["options"]["bock"] and view["options"]["second_heart_ten"]


STALL_SECONDS = 90  # nothing for the person to do this long: the table hangs
PLAY_SECONDS = 600  # a generous bound for a few deals on a loaded machine


def test_a_lost_solo_makes_the_next_deal_a_bock_deal(make_page):
    """The person plays an aces solo whenever he may and plays random cards: a lost solo
    makes the next four deals bock (spec "House rules", Bock rounds)."""
    p = make_page(viewport=DESKTOP)
    p.open("#/")
    p.page.evaluate("localStorage.setItem('tt.options.doppelkopf', JSON.stringify({bock: true}))")
    p.open("#/play/doppelkopf")
    p.page.wait_for_selector(".table")
    p.settle()
    page, rng = p.page, random.Random("bock")
    assert match_view(p)["options"]["bock"]
    person = Person(p, rng, reservation="solo aces")
    # Bounded by time, not by steps: a step waits on three computer players, whose
    # pace is the machine's.  The table follows "Play again" to a new match, and so
    # does this loop (a match of eight deals may hold no lost solo of his).
    while not (match_view(p)["match"].get("bock", 1) > 1 and page.locator(".hand button.legal").count()
               and not page.locator("dialog[open]").count()):
        person.step("no bock deal came")
    facts = page.locator("body").inner_text()
    assert "Bock ×2" in facts or "Bock ×4" in facts
    assert "Bock deals to come" in facts
    p.shot("doppelkopf-bock-table-desktop")
    page.set_viewport_size(PHONE)
    p.settle()
    p.shot("doppelkopf-bock-table-phone")
    # Play the bock deal out: its score sheet names the multiplier.
    page.set_viewport_size(DESKTOP)
    person.reservation = "healthy"
    while not page.locator("dialog[open] .score-sheet").count():
        person.step("the bock deal did not end")
    sheet = page.locator("dialog[open] .score-sheet").inner_text()
    assert "Bock ×" in sheet and "points count" in sheet
    p.shot("doppelkopf-bock-sheet-desktop")


def match_view(p) -> dict:
    """The server's view of the match the table shows now (its id changes with "Play again")."""
    return match_state(p)["view"]


def match_state(p) -> dict:
    game_id = p.page.evaluate("localStorage.getItem('tt.game.doppelkopf')")
    return p.page.request.get(f"{p.server.url}/api/games/{game_id}").json()


class Person:
    """Acts on whatever the table offers: closes a dialog with its main button, makes
    ``reservation`` when he may, declines a poverty, plays a random legal card."""

    def __init__(self, p, rng: random.Random, reservation: str) -> None:
        self.p, self.rng, self.reservation = p, rng, reservation
        self.deadline = time.monotonic() + PLAY_SECONDS
        self.last_act = time.monotonic()

    def step(self, failure: str) -> None:
        if time.monotonic() > self.deadline:
            pytest.fail(f"{failure} in {PLAY_SECONDS} s: {self.situation()}")
        if not self.act():
            if time.monotonic() - self.last_act > STALL_SECONDS:
                pytest.fail(f"{failure}: nothing to do for {STALL_SECONDS} s: {self.situation()}")
            self.p.page.wait_for_timeout(50)
            return
        self.last_act = time.monotonic()
        self.p.settle()

    def act(self) -> bool:
        page = self.p.page
        if page.locator("dialog[open]").count():
            page.locator("dialog[open] button.primary").click()
            return True
        for action in (self.reservation, "decline"):
            unfold(page, action)
            button = page.locator(f'button.action[data-action="{action}"]')
            if button.count():
                button.click()
                return True
        cards = page.locator(".hand button.legal")
        if cards.count():
            cards.nth(self.rng.randrange(cards.count())).click(position=CORNER)
            return True
        return False

    def situation(self) -> str:
        """What the server and the page show, for a failure message."""
        page = self.p.page
        state = match_state(self.p)
        view = state["view"]
        shown = page.evaluate("""() => ({busy: document.querySelector('#main')?.dataset.busy,
            prompt: document.querySelector('#prompt')?.textContent,
            notice: document.querySelector('.notice')?.textContent,
            buttons: [...document.querySelectorAll('button.action')].map((b) => b.dataset.action || b.id)})""")
        return (f"server: phase {view.get('phase')!r}, to move {view.get('to_move')}, legal {view.get('legal')}, "
                f"version {state.get('version')}; page: {shown}")
