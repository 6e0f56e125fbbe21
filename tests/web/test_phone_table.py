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
    # The hand comes first in the tab order; the announcements (Doppelkopf) after it.
    assert page.evaluate("""() => [...document.querySelectorAll('.actions button')].every((b) =>
        document.querySelector('.hand').compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING)""")
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


def seed_where_the_person_calls(game: str = "double-sar", call: str = "call ") -> str:
    """A match seed whose first decision is the person's call of trump (in
    Hidden Trump: the card he hides, ``call`` "hide ")."""
    from tricktable.catalog import get_spec

    spec = get_spec(game)
    options = spec.normalize_options({})
    for number in range(200):
        seed = f"the person calls {number}"
        state = spec.new_match(seed, options)
        if state.to_move == 0 and any(str(a).startswith(call) for a in state.observe(0).legal):
            return seed
    raise AssertionError("no seed lets the person call first")


def test_the_calling_clock_counts_down_on_the_seat_and_the_how_to_explains_it(make_page, server):
    p = make_page(viewport=PHONE, first_visit=True)
    p.open_game("double-sar", seeded_game(server, "double-sar", seed_where_the_person_calls()))
    page = p.page
    page.wait_for_selector("dialog[open] .howto")
    assert "20 seconds" in page.locator("#howto-clock").inner_text()
    p.shot("howto-double-sar-390x844")
    page.locator("#howto-ok").click()
    p.settle()
    page.wait_for_selector(".seat.south .seat-clock")
    clock = page.locator(".seat.south .seat-clock")
    assert "s" in clock.inner_text() and any(ch.isdigit() for ch in clock.inner_text())
    assert clock.is_visible()
    p.shot("calling-clock-390x844")


def test_the_page_installs_and_says_plainly_when_it_is_offline(make_page):
    p = make_page(viewport=PHONE, service_workers="allow")
    p.open("#/")
    page = p.page
    manifest = page.request.get(f"{p.server.url}/manifest.json").json()
    assert manifest["display"] == "fullscreen" and manifest["start_url"] == "./"
    for icon in manifest["icons"]:
        response = page.request.get(f"{p.server.url}/{icon['src']}")
        assert response.ok and response.headers["content-type"].startswith(icon["type"]), icon
    assert page.locator("link[rel=manifest]").count() == 1
    worker = page.request.get(f"{p.server.url}/sw.js")
    assert worker.ok and "javascript" in worker.headers["content-type"]
    # Every file of the page is in the worker's cache list (a new script must be added there).
    import re
    from pathlib import Path

    web = Path(__file__).resolve().parents[2] / "tricktable" / "web"
    listed = set(re.findall(r'"([\w./-]+\.(?:js|json|css|html|svg|png))"', worker.text()))
    scripts = {str(f.relative_to(web)) for f in web.rglob("*.js") if f.name != "sw.js"}
    assert scripts <= listed, scripts - listed
    assert all((web / name).exists() for name in listed)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_function("() => caches.has('tricktable-v1')")
    page.wait_for_function("() => caches.open('tricktable-v1').then((c) => c.match('offline.html')).then(Boolean)")
    p.context.set_offline(True)
    try:
        page.goto(f"{p.server.url}/?from=home-screen")
        assert "No connection" in page.locator("h1").inner_text()
        assert page.locator("a.action[href='./']").count() == 1
        p.shot("offline-390x844")
    finally:
        p.context.set_offline(False)
    p.errors.clear()  # the failed network requests while offline are the point here


def test_a_fresh_identitys_daily_explains_practice_before_it_starts(make_page):
    p = make_page(viewport=PHONE)
    p.open("#/daily/euchre")
    page = p.page
    page.wait_for_selector("dialog[open] .daily-intro")
    text = page.locator("dialog[open] .daily-intro").inner_text()
    assert "8 deals" in text and "Normal" in text
    assert "Practice" in page.locator("#daily-intro-kind").inner_text()
    assert "yesterday's deals" in page.locator("#daily-intro-why").inner_text() or "not ranked" in text
    assert "come back tomorrow" in text
    p.shot("daily-intro-practice-390x844")
    page.locator("dialog[open] button.primary").click()
    p.settle()
    # Once per attempt: a reload goes straight to the table.
    page.reload()
    page.wait_for_selector("body[data-ready]")
    p.settle()
    assert not page.locator("dialog[open] .daily-intro").count()


@pytest.mark.parametrize("ranked", [False, True], ids=["practice", "ranked"])
def test_the_daily_summary_says_who_won_and_when_the_next_daily_starts(make_page, ranked):
    p = make_page(viewport=PHONE)
    p.open("#/")
    shown = p.page.evaluate("""(ranked) => import('./js/sheets.js').then(async (m) => {
        const state = {game: 'euchre', level: 'normal', daily: {day: '2026-01-01', score: 5, ranked},
          view: {terminal: true, match: {results: [{number: 1, counts: true, points: [7, 2]}], totals: [7, 2],
                 team_points: [7, 2], daily_score: 5}}};
        const box = await m.matchSummary({newGame() {}}, state);
        document.body.append(box);
        return {outcome: box.querySelector('#outcome')?.textContent, next: box.querySelector('#next-daily')?.textContent,
                nickname: Boolean(box.querySelector('#nickname, .nickname')), practice: Boolean(box.querySelector('#practice-note'))};
    })""", ranked)
    assert shown["outcome"] and "won" in shown["outcome"]
    assert "next daily starts in" in shown["next"]
    assert shown["practice"] is (not ranked)
    assert shown["nickname"] is ranked  # a nickname only where it can be used


OVERLAPS = """() => {
  const boxes = (selector) => [...document.querySelectorAll(selector)].filter((n) => n.offsetParent !== null)
    .map((n) => ({what: selector + ' ' + (n.textContent || '').trim().slice(0, 20), box: n.getBoundingClientRect()}));
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const bubbles = boxes('.seat .bubble');
  const others = [...boxes('.seat .tally'), ...boxes('.seat .name'), ...boxes('.seat .backs'), ...boxes('#prompt'),
                  ...boxes('.actions button'), ...boxes('.trick .card'), ...boxes('.hand button.card')];
  return {bubbles: bubbles.length, overlaps: bubbles.flatMap((b) => others.filter((o) => hit(b.box, o.box))
    .map((o) => b.what + ' covers ' + o.what))};
}"""


def seed_where_others_speak_first() -> str:
    from tricktable.catalog import get_spec

    spec = get_spec("doppelkopf")
    options = spec.normalize_options({})
    for number in range(100):
        seed = f"others speak first {number}"
        if spec.new_match(seed, options).to_move == 1:  # West, North and East before the person
            return seed
    raise AssertionError("no seed")


@pytest.mark.parametrize("viewport", [SMALL_PHONE, PHONE, {"width": 1280, "height": 800}], ids=["360x640", "390x844", "desktop"])
def test_bubbles_cover_nothing_and_go_when_their_moment_is_over(make_page, server, viewport):
    p = make_page(viewport=viewport)
    p.open_game("doppelkopf", seeded_game(server, "doppelkopf", seed_where_others_speak_first()))
    page = p.page
    page.wait_for_selector('button.action[data-action="healthy"]')
    found = page.evaluate(OVERLAPS)
    p.shot(f"bubbles-doppelkopf-{viewport['width']}x{viewport['height']}")
    assert found["bubbles"] >= 1 and not found["overlaps"], found
    page.locator('button.action[data-action="healthy"]').click()
    p.settle()
    dismiss_sheets(p)
    if page.locator(".hand button.legal").count():
        # His card to play: his own "healthy" is over.
        assert page.locator(".seat.south .bubble").inner_text() == ""
        found = page.evaluate(OVERLAPS)
        assert not found["overlaps"], found


GAMES = ["euchre", "doppelkopf", "double-sar", "single-sar", "hidden-trump", "be-ranga", "mendikot"]
LANDSCAPE = {"width": 740, "height": 360}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("viewport, lang", [(SMALL_PHONE, "en"), (PHONE, "de"), (SMALL_PHONE, "hi"), (PHONE, "th"), (LANDSCAPE, "en")],
                         ids=["360x640-en", "390x844-de", "360x640-hi", "390x844-th", "landscape-en"])
def test_every_game_mid_trick_fits_the_phone(make_page, server, game, viewport, lang):
    """Each game in card play: every card of the hand wide enough to tap and on screen,
    no bubble over a tally, nothing wider than the screen (a screenshot each)."""
    p = make_page(viewport=viewport, locale={"en": "en-US", "de": "de-DE", "hi": "hi-IN", "th": "th-TH"}[lang])
    p.open_game(game, seeded_game(server, game, f"mid trick {game}"))
    first_card_play(p, game)
    page = p.page
    if page.locator(".trick .card").count() == 0:  # he leads: play one card, to the next card of his
        page.locator(".hand button.legal").first.click(position={"x": 8, "y": 24})
        p.settle()
        first_card_play(p, game)
    name = f"mid-trick-{game}-{lang}-{viewport['width']}x{viewport['height']}"
    p.shot(name)
    widths = page.evaluate(VISIBLE_WIDTHS)
    assert all(w["width"] >= MIN_TAP for w in widths), widths
    if viewport is not LANDSCAPE:  # a landscape phone scrolls to its hand
        assert all(w["inView"] for w in widths), widths
    assert page.evaluate("document.scrollingElement.scrollWidth") <= viewport["width"]
    assert not page.evaluate(OVERLAPS)["overlaps"]


def test_the_home_page_says_when_todays_dailies_are_practice(make_page):
    p = make_page(viewport=PHONE)
    p.open("#/")
    assert "come back tomorrow" in p.page.locator("#home-practice").inner_text()
    p.age_identity()
    p.page.reload()
    p.page.wait_for_selector("body[data-ready]")
    assert p.page.locator("#home-practice").count() == 0


@pytest.mark.parametrize("lang", ["en", "de", "hi", "th"])
def test_doppelkopfs_reservation_on_a_small_phone_in_every_language(make_page, server, lang):
    p = make_page(viewport=SMALL_PHONE, locale={"en": "en-US", "de": "de-DE", "hi": "hi-IN", "th": "th-TH"}[lang])
    p.open_game("doppelkopf", seeded_game(server, "doppelkopf", seed_where_others_speak_first()))
    page = p.page
    page.wait_for_selector('button.action.primary[data-action="healthy"]')
    assert page.locator("#more-actions").count() == 1
    page.locator("#more-actions").click()
    p.shot(f"reservation-doppelkopf-{lang}-360x640")
    small = [c for c in page.evaluate(CONTROL_SIZES) if c["width"] < MIN_TAP or c["height"] < MIN_TAP]
    assert not small, small
    assert not page.evaluate(OVERLAPS)["overlaps"]
    widths = page.evaluate(VISIBLE_WIDTHS)
    assert all(w["inView"] for w in widths), widths
    assert page.evaluate("document.scrollingElement.scrollWidth") <= SMALL_PHONE["width"]


# Every button and the whole hand of a decision inside the screen, nothing to scroll.
IN_VIEW = """() => {
  const outside = (n) => { const b = n.getBoundingClientRect();
    return b.top < -1 || b.left < -1 || b.bottom > innerHeight + 1 || b.right > innerWidth + 1; };
  const named = (n) => (n.id || n.dataset.action || n.dataset.card || n.className) + '';
  return {buttons: [...document.querySelectorAll('.actions button')].length,
          outside: [...document.querySelectorAll('.actions button, .hand button.card, .seat .name')].filter(outside).map(named),
          scrolls: document.scrollingElement.scrollHeight > innerHeight + 1 || document.scrollingElement.scrollWidth > innerWidth + 1};
}"""


def euchres_call_of_trump(p) -> None:
    """Round two of the bidding: every computer player passes, so does the person."""
    p.page.locator('button.action[data-action="pass"]').click()
    p.settle()
    p.page.wait_for_selector('button.action[data-action^="call "]')


def doppelkopfs_reservations(p) -> None:
    p.page.wait_for_selector('button.action[data-action="healthy"]')
    p.page.locator("#more-actions").click()


def hidden_trumps_other_cards_to_hide(p) -> None:
    """The person calls by hiding a card, sees all 13 and may hide another instead."""
    page = p.page
    page.locator(".hand button.legal").first.click(position={"x": 8, "y": 24})
    p.settle()
    page.wait_for_selector("#more-actions")
    page.locator("#more-actions").click()
    page.wait_for_selector("button.action.short")


@pytest.mark.parametrize("viewport", [{"width": 740, "height": 360}, {"width": 844, "height": 390}], ids=["740x360", "844x390"])
@pytest.mark.parametrize("game, seed, reach, at_least", [
    ("euchre", "e1", euchres_call_of_trump, 4),
    ("doppelkopf", "phone hand 1", doppelkopfs_reservations, 7),
    ("hidden-trump", "hide ", hidden_trumps_other_cards_to_hide, 9)], ids=["euchre", "doppelkopf", "court-piece"])
def test_a_sideways_phone_shows_the_longest_decision_and_the_hand_without_scrolling(browser, held_server, viewport, game,
                                                                                     seed, reach, at_least):
    """Each game family's decision with the most buttons (Euchre's call in round
    two, Doppelkopf's reservations unfolded, Hidden Trump's cards to hide instead)."""
    from tests.web.test_held_table import open_game

    held_server.bots.let_go()  # they pass, say "healthy", play their first card
    if game == "hidden-trump":
        seed = seed_where_the_person_calls(game, seed)
    p, _ = open_game(browser, held_server, game, seed, viewport=viewport)
    try:
        p.open(f"#/play/{game}")
        reach(p)
        p.page.wait_for_timeout(100)  # the layout after the unfolding
        p.shot(f"sideways-{game}-{viewport['width']}x{viewport['height']}")
        found = p.page.evaluate(IN_VIEW)
        assert found["buttons"] >= at_least and not found["outside"] and not found["scrolls"], found
        assert not p.page.evaluate(OVERLAPS)["overlaps"]  # the seats' words cover neither prompt nor buttons
        small = [c for c in p.page.evaluate(CONTROL_SIZES) if c["width"] < MIN_TAP or c["height"] < MIN_TAP]
        assert not small, small
        assert all(w["width"] >= MIN_TAP for w in p.page.evaluate(VISIBLE_WIDTHS))
        assert p.errors == []
    finally:
        p.close()


def test_a_long_match_summary_on_a_small_phone_shows_its_heading_and_its_buttons(make_page):
    """Fifteen deals: the summary opens at its heading, the table scrolls, the buttons stay."""
    p = make_page(viewport=SMALL_PHONE, locale="th-TH")
    p.open("#/")
    p.page.evaluate("""() => import('./js/sheets.js').then((m) => {
        const results = Array.from({length: 15}, (_, i) => ({number: i + 1, counts: true, points: [i % 2, 1 - i % 2]}));
        m.showMatchSummary({newGame() {}}, {game: 'double-sar', level: 'normal',
          view: {terminal: true, match: {results, totals: [7, 8], team_points: [7, 8]}}});
    })""")
    p.page.wait_for_selector("dialog[open] #play-again")
    inside = """(selector) => { const b = document.querySelector(selector).getBoundingClientRect();
        return b.top >= 0 && b.bottom <= innerHeight; }"""
    assert p.page.evaluate("() => document.querySelector('dialog[open]').scrollHeight > innerHeight")  # it does scroll
    assert p.page.evaluate(inside, "dialog[open] h2") and p.page.evaluate(inside, "dialog[open] #play-again")
    p.shot("long-summary-th-360x640")
