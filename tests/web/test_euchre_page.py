"""Euchre in the browser: a whole hand by clicking, the score sheet, options
kept across a reload, the daily game resumed and ranked, four languages."""

from __future__ import annotations

import random
import re

import pytest

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CORNER = {"x": 8, "y": 24}  # overlapping cards: tap the visible corner, as a person would


def act_once(p, rng: random.Random) -> None:
    """Make one decision the way a person would: tap a highlighted card or a button."""
    page = p.page
    cards = page.locator(".hand button.legal")
    buttons = page.locator("button.action[data-action]")
    if cards.count():
        cards.nth(rng.randrange(cards.count())).click(position=CORNER)
    elif buttons.count():
        buttons.nth(rng.randrange(buttons.count())).click()
    else:
        raise AssertionError("nothing to do on the table")
    p.settle()


def play_until_dialog(p, rng: random.Random, limit: int = 200) -> str:
    """Play until a dialog (score sheet or match summary) opens; its class."""
    for _ in range(limit):
        dialog = p.page.locator("dialog[open]")
        if dialog.count():
            return dialog.get_attribute("class") or ""
        act_once(p, rng)
    raise AssertionError("no dialog after many moves")


def dismiss_sheets(p) -> int:
    """Close score sheets that opened before the person acted (a whole deal can
    pass without him when his partner goes alone); how many."""
    closed = 0
    while p.page.locator("dialog[open]").count():
        close_dialog(p)
        closed += 1
    return closed


def close_dialog(p) -> None:
    p.page.locator("dialog[open] button.primary, dialog[open] button.action").last.click()
    p.settle()


@pytest.mark.parametrize("viewport, name", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_play_a_whole_hand_by_clicking(make_page, viewport, name):
    p = make_page(viewport=viewport)
    p.open("#/play/euchre")
    page = p.page
    assert page.locator(".hand button.card").count() in (5, 6)  # 6: the dealer picked up
    p.shot(f"euchre-table-{name}")
    rng = random.Random(name)
    tricks_seen = False
    while not page.locator("dialog[open]").count():
        if page.locator(".trick .card").count() and not tricks_seen:
            p.shot(f"euchre-trick-{name}")
            tricks_seen = True
        act_once(p, rng)
    sheet = page.locator("dialog[open] .score-sheet")
    assert sheet.count() == 1
    assert page.locator("dialog[open] tr.line").count() >= 1
    # Each column's lines add up to its "this deal" row (the makers' trick
    # count is shown in words, not as points).
    sums = [0, 0]
    for row in page.locator("dialog[open] tr.line").all():
        cells = row.locator("td.num").all_inner_texts()
        sums = [total + int(cell or 0) for total, cell in zip(sums, cells)]
    assert sums == [int(x) for x in page.locator("dialog[open] tr.sum td").all_inner_texts()]
    p.shot(f"euchre-sheet-{name}")
    # The sheets' "this deal" rows add up to what the score bar shows after
    # them (two sheets in a row when the person sat out a whole deal).
    totals, sheets = [0, 0], 0
    while page.locator("dialog[open] .score-sheet").count():
        sheets += 1
        row = [int(x) for x in page.locator("dialog[open] tr.sum td").all_inner_texts()]
        totals = [a + b for a, b in zip(totals, row)]
        close_dialog(p)
    us = int(page.locator(".scorebar .us strong").inner_text())
    them = int(page.locator(".scorebar .them strong").inner_text())
    assert [us, them] == totals
    assert int(re.search(r"\d+", page.locator(".scorebar .deal").inner_text()).group()) == sheets + 1
    # The last trick of the finished hand is one click away.
    page.locator("#last-trick").click()
    assert page.locator("dialog[open] .trick .card").count() in (3, 4)
    close_dialog(p)


def test_keyboard_plays_and_illegal_cards_are_disabled(make_page):
    p = make_page(reduced_motion="reduce")
    p.open("#/play/euchre")
    page, rng = p.page, random.Random(3)
    while not page.locator(".hand button.legal").count():
        if page.locator("dialog[open]").count():
            close_dialog(p)
        else:
            act_once(p, rng)
    before = page.locator(".hand button.card").count()
    illegal = page.locator(".hand button.card[disabled]").count()
    legal = page.locator(".hand button.legal").count()
    assert legal + illegal == before and legal >= 1
    page.locator(".hand button.legal").first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    p.settle()
    assert page.locator(".hand button.card").count() == before - 1


def test_options_survive_a_reload_and_start_a_new_game(make_page):
    p = make_page()
    p.open("#/play/euchre")
    dismiss_sheets(p)
    page = p.page
    first_id = page.evaluate("localStorage.getItem('tt.game.euchre')")
    page.locator("#rules-button").click()
    box = page.locator("#opt-stick_the_dealer")
    assert box.is_checked()
    box.uncheck()
    page.locator("#apply-options").click()
    page.wait_for_function("old => localStorage.getItem('tt.game.euchre') !== old", arg=first_id)
    p.settle()
    dismiss_sheets(p)
    second_id = page.evaluate("localStorage.getItem('tt.game.euchre')")
    assert second_id != first_id
    page.reload()
    page.wait_for_selector("body[data-ready]")
    p.settle()
    assert page.evaluate("localStorage.getItem('tt.game.euchre')") == second_id  # resumed, not restarted
    page.locator("#rules-button").click()
    assert not page.locator("#opt-stick_the_dealer").is_checked()
    view = page.request.get(f"{p.server.url}/api/games/{second_id}").json()["view"]
    assert view["options"]["stick_the_dealer"] is False
    page.locator("#standard-rules").click()
    assert page.locator("#opt-stick_the_dealer").is_checked()


def test_daily_resumes_after_reload_and_reaches_the_leaderboard(make_page):
    p = make_page()
    p.open("#/")
    p.age_identity()  # issued before today began, so this attempt is ranked
    p.open("#/daily/euchre", speed=0.01)
    page, rng = p.page, random.Random(7)
    # Before the first move the daily says what it is: eight deals, Normal, ranked.
    page.wait_for_selector("dialog[open] .daily-intro")
    assert "8 deals" in page.locator("#daily-deals").inner_text()
    assert "Ranked" in page.locator("#daily-intro-kind").inner_text()
    close_dialog(p)
    passed_by = dismiss_sheets(p)
    act_once(p, rng)
    hand = page.locator(".hand button.card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    p.settle()
    assert page.locator(".hand button.card").evaluate_all("cards => cards.map(c => c.dataset.card)") == hand
    daily = page.request.post(f"{p.server.url}/api/daily/euchre").json()  # the page's identity cookie
    deals = passed_by
    while True:
        kind = play_until_dialog(p, rng, limit=400)
        if "sheet-dialog" in kind and page.locator("dialog[open] .match-summary").count():
            break
        deals += 1
        close_dialog(p)
    assert deals == 8  # eight score sheets, then the summary
    assert page.locator("#outcome").inner_text()  # who won, in words
    assert "next daily" in page.locator("#next-daily").inner_text()
    score_text = page.locator("#daily-score").inner_text()
    score = int(re.search(r"-?\d+", score_text).group())
    final = page.request.get(f"{p.server.url}/api/games/{daily['id']}").json()
    assert final["daily"]["score"] == score
    # A nickname with markup is refused; a plain one is saved and ranked.
    page.fill("#nickname", "<b>x</b>")
    page.locator("form.nickname button").click()
    page.wait_for_selector("#toast.show")
    page.fill("#nickname", "Tester")
    page.locator("form.nickname button").click()
    page.wait_for_function("() => document.querySelector('dialog[open] .leaderboard tr.you')?.textContent.includes('Tester')")
    row = page.locator("dialog[open] .leaderboard tr.you").inner_text()
    assert "Tester" in row and str(score) in row
    p.shot("euchre-daily-summary-desktop")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    p.settle()
    assert page.locator(".table").count() == 1 and not page.locator(".hand button.legal").count()
    p.open("#/")
    page.wait_for_selector(".game-card[data-game=euchre] .leaderboard tr.you")
    assert "Tester" in page.locator(".game-card[data-game=euchre] .leaderboard tr.you").inner_text()


@pytest.mark.parametrize("locale, lang, sample", [("hi-IN", "hi", "नया खेल"), ("th-TH", "th", "เกมใหม่")])
def test_the_page_speaks_hindi_and_thai(make_page, locale, lang, sample):
    p = make_page(locale=locale, viewport=PHONE)
    p.open("#/")
    page = p.page
    assert page.evaluate("document.documentElement.lang") == lang
    assert sample in page.locator(".game-card[data-game=euchre]").inner_text()
    p.shot(f"home-{lang}-phone")
    p.open("#/play/euchre")
    page.wait_for_selector(".table")
    assert page.locator("#rules-button").inner_text() != "Rules"
    p.shot(f"euchre-table-{lang}-phone")
    p.open("#/rules/euchre")
    page.wait_for_selector(".rules-text h3")
    assert page.locator(".rules-text h3").count() >= 4
    assert page.evaluate("document.documentElement.lang") == lang
    p.shot(f"euchre-rules-{lang}-phone")


def test_the_language_choice_is_remembered(make_page):
    p = make_page(locale="en-US")
    p.open("#/")
    page = p.page
    page.select_option("#lang-select", "de")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    assert "Neues Spiel" in page.locator(".game-card[data-game=euchre]").inner_text()
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.locator("#lang-select").input_value() == "de"
