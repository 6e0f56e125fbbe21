"""On the page: the computer players' level (easy / normal / hard, normal
by default) and the hint, offered in ordinary games and never in the daily."""

from __future__ import annotations

from tests.web.test_euchre_page import dismiss_sheets


def game_of(p, game: str = "euchre") -> dict:
    game_id = p.page.evaluate(f"localStorage.getItem('tt.game.{game}')")
    return p.page.request.get(f"{p.server.url}/api/games/{game_id}").json()


def test_the_level_chosen_on_the_home_page_and_in_the_rules_dialog_reaches_new_games(make_page):
    p = make_page()
    p.open("#/")
    page = p.page
    assert page.locator("#home-level-normal").is_checked()  # the default
    page.locator("label[for=home-level-easy]").click()
    assert page.evaluate("localStorage.getItem('tt.level')") == "easy"
    page.locator("[data-game=euchre] a.primary").click()
    page.wait_for_selector(".table")
    p.settle()
    dismiss_sheets(p)
    assert game_of(p)["level"] == "easy"
    assert "Easy" in page.locator(".scorebar .deal").inner_text()
    page.locator("#rules-button").click()
    assert page.locator("#rules-level-easy").is_checked()
    page.locator("label[for=rules-level-normal]").click()
    first_id = page.evaluate("localStorage.getItem('tt.game.euchre')")
    page.locator("#apply-options").click()
    page.wait_for_function("old => localStorage.getItem('tt.game.euchre') !== old", arg=first_id)
    p.settle()
    dismiss_sheets(p)
    assert game_of(p)["level"] == "normal"


def test_a_hint_marks_the_suggested_action_and_lists_expected_points(make_page):
    p = make_page()
    p.open("#/play/euchre")
    dismiss_sheets(p)
    page = p.page
    page.locator("#hint-button").click()
    page.wait_for_selector(".hint-list li")
    state = game_of(p)
    suggested = page.locator(".hint-list li").first.get_attribute("data-action")
    assert suggested in state["view"]["legal"]
    assert page.locator(".hinted").count() == 1
    # Sorted by the value it shows; the best said so, the others in words against it.
    values = [float(v) for v in page.locator(".hint-list li").evaluate_all("rows => rows.map(r => r.dataset.value)")]
    assert values == sorted(values, reverse=True)
    words = page.locator(".hint-list .value").all_inner_texts()
    assert words[0].startswith("best")
    assert all(any(w in text for w in ("as good", "weaker", "mistake")) for text in words[1:])
    assert "best" in page.locator(".hinted .best-badge").inner_text()
    p.shot("euchre-hint-desktop")
    page.locator(".hinted").click(position={"x": 8, "y": 24} if suggested.startswith("play ") else None)
    p.settle()
    dismiss_sheets(p)
    assert game_of(p)["version"] > state["version"]
    assert page.locator(".hint-list").count() == 0  # a hint belongs to the position it was asked in


def test_no_hint_in_the_daily_game(make_page):
    p = make_page()
    p.open("#/daily/euchre")
    dismiss_sheets(p)
    assert p.page.locator(".table").count() == 1
    assert p.page.locator("#hint-button").count() == 0
