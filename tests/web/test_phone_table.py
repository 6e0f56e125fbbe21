"""The table on a phone: every card of a full hand wide enough to read and tap,
every control big enough for a finger, nothing covering the seats' tallies."""

from __future__ import annotations

import pytest

from tests.web.conftest import SMALL_PHONE, PHONE, seeded_game
from tests.web.test_euchre_page import dismiss_sheets

MIN_TAP = 44  # px: the smallest target a finger hits reliably

# For each card of the hand: the widest horizontal run of its own pixels that
# elementFromPoint finds on it (what is visible and tappable), scanned every pixel
# along several lines across its height.
VISIBLE_WIDTHS = """() => [...document.querySelectorAll('.hand button.card')].map((card) => {
  const box = card.getBoundingClientRect();
  let widest = 0;
  for (const f of [0.12, 0.25, 0.4, 0.6, 0.8]) {
    const y = box.top + box.height * f;
    let run = 0;
    for (let x = Math.floor(box.left); x <= box.right; x++) {
      const hit = document.elementFromPoint(x, y);
      if (hit && hit.closest('button.card') === card) { run++; widest = Math.max(widest, run); } else run = 0;
    }
  }
  return {card: card.dataset.card, width: widest, inView: box.top >= 0 && box.bottom <= innerHeight + 1};
})"""

# Every visible control (buttons, links styled as buttons, selects, the level
# choices): its size, and its text for a readable failure.
CONTROL_SIZES = """() => [...document.querySelectorAll(
    'button, select, a.action, a.more, a.tool, .level-choice, summary')].filter((node) => {
  const box = node.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && getComputedStyle(node).visibility !== 'hidden'
    && !node.closest('.hand');
}).map((node) => {
  const box = node.getBoundingClientRect();
  return {what: (node.id || node.className || node.tagName) + ' ' + (node.textContent || '').trim().slice(0, 30),
          width: Math.round(box.width), height: Math.round(box.height)};
})"""


def first_card_play(p, game: str) -> None:
    """From the start of a match to the person's first card, deciding anything before
    it with the first button offered (a call, "healthy")."""
    page = p.page
    for _ in range(30):
        dismiss_sheets(p)
        if page.locator(".hand button.legal").count():
            return
        buttons = page.locator("button.action[data-action]")
        healthy = page.locator('button.action[data-action="healthy"]')
        (healthy if healthy.count() else buttons.first).click()
        p.settle()
    raise AssertionError("no card to play")


@pytest.mark.parametrize("viewport", [SMALL_PHONE, PHONE], ids=["360x640", "390x844"])
@pytest.mark.parametrize("game, seed, size", [("double-sar", "phone hand 2", 13), ("doppelkopf", "phone hand 1", 12)])
def test_every_card_of_a_full_hand_is_wide_enough_to_tap(make_page, server, viewport, game, seed, size):
    p = make_page(viewport=viewport)
    p.open_game(game, seeded_game(server, game, seed))
    first_card_play(p, game)
    page = p.page
    assert page.locator(".hand button.card").count() == size
    p.shot(f"hand-{game}-{viewport['width']}x{viewport['height']}")
    widths = page.evaluate(VISIBLE_WIDTHS)
    narrow = [w for w in widths if w["width"] < MIN_TAP]
    assert not narrow, narrow
    assert all(w["inView"] for w in widths), widths
    # Unplayable cards are dimmed, not see-through: nothing shows through them.
    illegal = page.locator(".hand button.card.illegal")
    if illegal.count():
        assert illegal.first.evaluate("n => getComputedStyle(n).opacity") == "1"


@pytest.mark.parametrize("viewport", [SMALL_PHONE, PHONE], ids=["360x640", "390x844"])
def test_the_hint_marks_the_best_card_inside_its_own_card(make_page, server, viewport):
    p = make_page(viewport=viewport)
    p.open_game("double-sar", seeded_game(server, "double-sar", "phone hand 2"))
    first_card_play(p, "double-sar")
    page = p.page
    page.locator("#hint-button").click()
    page.wait_for_selector(".hint-list li")
    p.shot(f"hint-double-sar-{viewport['width']}x{viewport['height']}")
    values = [float(v) for v in page.locator(".hint-list li").evaluate_all("rows => rows.map(r => r.dataset.value)")]
    assert values == sorted(values, reverse=True)
    marked = page.locator(".hinted")
    assert marked.count() == 1
    # The mark is drawn inside the card (no outline over its neighbours) and its badge is on screen.
    assert marked.evaluate("n => getComputedStyle(n).outlineStyle") == "none" or "action" in marked.get_attribute("class")
    badge = page.locator(".hinted .best-badge").bounding_box()
    assert badge and badge["x"] >= 0 and badge["x"] + badge["width"] <= viewport["width"]


@pytest.mark.parametrize("viewport", [SMALL_PHONE, PHONE], ids=["360x640", "390x844"])
def test_every_visible_control_is_big_enough_for_a_finger(make_page, server, viewport):
    p = make_page(viewport=viewport)
    p.open("#/")
    page = p.page
    page.wait_for_selector(".game-card .leaderboard, .game-card .mini-board:empty", state="attached")
    small = [c for c in page.evaluate(CONTROL_SIZES) if c["width"] < MIN_TAP or c["height"] < MIN_TAP]
    assert not small, ("home", small)
    p.shot(f"home-{viewport['width']}x{viewport['height']}")
    for game, seed in (("doppelkopf", "phone hand 1"), ("double-sar", "phone hand 2")):
        p.open_game(game, seeded_game(server, game, seed))
        dismiss_sheets(p)
        header = page.locator("header.top").bounding_box()
        assert header["height"] < 2 * MIN_TAP  # one line
        small = [c for c in page.evaluate(CONTROL_SIZES) if c["width"] < MIN_TAP or c["height"] < MIN_TAP]
        assert not small, (game, small)
        first_card_play(p, game)
        page.locator("#hint-button").click()
        page.wait_for_selector(".hint-list li")
        small = [c for c in page.evaluate(CONTROL_SIZES) if c["width"] < MIN_TAP or c["height"] < MIN_TAP]
        assert not small, (game, small)
    page.locator("#fair-deal").click()
    page.wait_for_selector("dialog[open] .fairness-panel")
    p.shot(f"fair-panel-{viewport['width']}x{viewport['height']}")
    small = [c for c in page.evaluate(CONTROL_SIZES) if c["width"] < MIN_TAP or c["height"] < MIN_TAP]
    assert not small, ("fair deal", small)
    # Nothing in the panel is cut off: every line ends inside the dialog.
    assert page.evaluate("() => { const d = document.querySelector('dialog[open]'); return d.scrollWidth <= d.clientWidth; }")


def test_the_default_pace_brings_the_turn_back_quickly(make_page):
    """After the person's card as second of four, at normal pace: the two cards after
    his, the complete trick shown and gathered, one computer player's card of the
    next trick before his (on average 1.5), with 0.3 s left for their thinking:
    within 2.2 s.  Slow and fast stay in the settings."""
    p = make_page()
    p.open("#/")
    pacing = p.page.evaluate("import('./js/table.js').then((m) => m.PACING)")
    paces = p.page.evaluate("import('./js/settings.js').then((m) => m.PACES)")
    pauses = 2 * pacing["CARD_GAP_MS"] + pacing["TRICK_SHOWN_MS"] + pacing["GATHER_MS"] + 0.5 * pacing["CARD_GAP_MS"]
    assert pauses + 300 <= 2200, pacing
    assert pacing["CARD_GAP_MS"] >= 300 and pacing["TRICK_SHOWN_MS"] >= 600  # every card still seen
    assert paces["normal"] == 1 and paces["slow"] > 1 > paces["fast"] > 0


def test_be_rangas_sheet_speaks_of_the_first_leaders_team(make_page):
    p = make_page()
    p.open("#/")
    for lang in ("en", "de", "hi", "th"):
        p.page.select_option("#lang-select", lang)
        p.page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
        texts = p.page.evaluate("""() => import('./js/games/index.js').then((m) => ['callers_won', 'callers_kot', 'others_won']
            .map((key) => m.renderer('be-ranga').lineText('be-ranga', {key, points: 0, text: key})))""")
        assert all(not t.startswith("callers") for t in texts), texts
        if lang == "en":
            assert texts[0] == "The first leader's team won the deal" and not any("aller" in t for t in texts)
    p.page.select_option("#lang-select", "en")
