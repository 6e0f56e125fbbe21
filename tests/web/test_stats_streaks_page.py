"""The statistics page counts the Court Piece streak bonuses one's team won,
in every language."""

from __future__ import annotations

from tests.web.conftest import PHONE, SCREENSHOTS
from tests.web.test_stats_page import finish_matches, overflows, violations

WORDS = {"en": "Streak bonuses your team won", "de": "Serienboni deines Teams", "hi": "लगातार जीत बोनस",
         "th": "โบนัสชนะติดกัน"}


def test_the_streak_bonuses_a_team_won_are_counted_and_translated(make_page):
    p = make_page(viewport=PHONE)
    p.open("#/")
    # Random play to 31 points: "streak-3" gives the person's team a bonus, "streak-5" the other team.
    finish_matches(p, "single-sar", ["streak-3", "streak-5"], {"target_points": 31})
    p.open("#/stats/single-sar")
    page = p.page
    page.wait_for_selector('.counters tr[data-counter="streaks"]')
    row = page.locator('.counters tr[data-counter="streaks"]')
    assert row.locator("td").first.inner_text() == "1"
    for lang, words in WORDS.items():
        page.select_option("#lang-select", lang)
        page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
        page.wait_for_selector('.counters tr[data-counter="streaks"]')
        assert words in row.locator("th").inner_text()
        assert not overflows(page) and "stats." not in page.locator("#stats").inner_text()
    page.select_option("#lang-select", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.locator(".counters").scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "stats-streaks-390x844.png"))
    assert violations(page) == [] and p.errors == []
