"""The replay viewer on the page: "My games" lists the person's games, a
finished Doppelkopf or Double Sar match opens with all four hands face up,
steps forward and back by key and by button, shows the score sheet where a
deal ends; a share link opens it for anyone; a record file opens in it (and a
bad one is refused in words); the real analysis of a finished game shown in
it, and "play on from here" from the person's own game, a share link and a
record file."""

from __future__ import annotations

import json
import math
import random
import re
import secrets
from pathlib import Path

import pytest
from playwright.sync_api import expect
from sqlalchemy import update
from axe_playwright_python.sync_playwright import Axe

from tricktable.catalog import get_spec
from tricktable.core.record import record_of
from tricktable.server.play.room import Room
from tricktable.server.trust.days import previous_day, utc_day
from tricktable.server.trust.fairness import commitment_of, match_seed
from tricktable.store import Store
from tricktable.store.schema import games
from tests.harness import hand_over
from tests.web.conftest import PHONE, SCREENSHOTS, SMALL_PHONE, seeded_game

AXE = Axe()


CLIENT_SEED = "page-replay"


def finished_record(game: str, seed: int, server_seed: str = "page-replay-server-seed",
                    options: dict | None = None) -> dict:
    """A whole match of ``game`` (with ``options``) played by random legal
    actions, dealt from ``server_seed`` and ``CLIENT_SEED`` as a fair game is:
    its record."""
    spec = get_spec(game)
    state = spec.new_match(match_seed(server_seed, CLIENT_SEED), spec.normalize_options(options or {}))
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_any(rng.choice(list(state.legal_actions())))
    return record_of(state).to_json()


def finished_game(p, game: str, seed: int = 1, options: dict | None = None,
                  server_seed: str | None = None) -> tuple[str, dict]:
    """A finished match of ``game`` stored as this profile's, with its seeds
    (so its record can be downloaded): its id and record.  ``server_seed``:
    the same cards every run (one test's own: a commitment is used once in the
    server's database), else new ones."""
    server_seed = server_seed or secrets.token_hex(16)
    record = finished_record(game, seed, server_seed, options)
    store = Store(p.server.database)
    try:
        row = store.create_game({**record, "level": "normal"}, "over", owner=p.identity(), server_seed=server_seed,
                                client_seed=CLIENT_SEED, commitment=commitment_of(server_seed))
    finally:
        store.close()
    return row.id, record


def position(page) -> int:
    return int(page.locator(".replay").get_attribute("data-position"))


def hand_sizes(page) -> list[int]:
    return [page.locator(f'.replay-seat[data-seat="{seat}"] .open-hand .card').count() for seat in range(4)]


def open_from_history(p, game_id: str, shot: str | None = None) -> None:
    p.open("#/")
    if shot:
        p.shot(shot)
    p.page.locator("#my-games").click()
    p.page.wait_for_selector(f'.history-entry[data-id="{game_id}"]')
    p.page.locator(f'.history-entry[data-id="{game_id}"] a.action').click()
    p.page.wait_for_selector(".replay[data-position]")


@pytest.mark.parametrize("game", ["doppelkopf", "double-sar"])
def test_the_viewer_steps_through_a_finished_game_with_every_hand_face_up(make_page, game):
    p = make_page()
    # The same cards every run: with new ones, a Court Piece deal was now and then thrown in for
    # new cards before its first trick was complete, and the steps below need that trick.
    game_id, record = finished_game(p, game, server_seed=f"replay-steps-{game}")
    open_from_history(p, game_id)
    page = p.page
    start = hand_sizes(page)
    assert all(size > 0 for size in start), start
    labels = page.locator(".open-hand .card").evaluate_all("cards => cards.map(c => c.getAttribute('aria-label'))")
    assert all(" of " in label for label in labels)  # every card named: face up, none hidden
    p.shot(f"replay-{game}-desktop")
    page.keyboard.press("ArrowRight")
    assert position(page) == 1
    page.keyboard.press("ArrowLeft")
    assert position(page) == 0 and hand_sizes(page) == start
    # On to the first card played (the first trick of these cards is played whole): one card fewer
    # in the hands, and it lies on the table.
    actions = record["actions"]
    played = next(i for i, action in enumerate(actions) if action.startswith("play "))
    assert all(action.startswith("play ") for action in actions[played:played + 4])
    for _ in range(played):
        page.keyboard.press("ArrowRight")
    before = hand_sizes(page)
    page.locator("#replay-next").click()
    assert position(page) == played + 1 and sum(hand_sizes(page)) == sum(before) - 1
    assert page.locator(".trick .card").count() == 1
    page.keyboard.press("ArrowDown")  # a whole trick on
    after_trick = position(page)
    assert after_trick > played + 1 and page.locator(".trick .card").count() == 4
    p.shot(f"replay-{game}-trick-desktop")
    page.locator("#replay-prev-trick").click()
    assert position(page) < after_trick
    page.keyboard.press("End")
    total = len(record["actions"])
    assert f"action {total} of {total}" in page.locator("#replay-where").inner_text()
    assert page.locator("#replay-sheet .score-sheet").count() == 1 and page.locator("#replay-sheet table.sheet").count() >= 1
    assert page.locator("#replay-next").is_disabled()
    p.shot(f"replay-{game}-sheet-desktop")
    page.keyboard.press("Home")
    assert position(page) == 0 and page.locator("#replay-sheet .score-sheet").count() == 0
    with page.expect_download() as download:
        page.locator("#replay-download").click()
    saved = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert saved["actions"] == record["actions"] and saved["seed"] == record["seed"] and len(saved["deals"]) > 1
    page.select_option("#replay-deal", "1")
    assert page.locator("#replay-where strong").inner_text() == "Deal 2 dealt"
    for button in page.locator(".replay-controls button").all():
        box = button.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
    assert AXE.run(page).response["violations"] == []


def test_the_viewer_on_a_phone_and_its_share_link_for_a_stranger(make_page):
    p = make_page(viewport=PHONE)
    assert p.page.context.request.put(f"{p.server.url}/api/nickname", data=json.dumps({"nickname": "Zeitreisende"}),
                                      headers={"Content-Type": "application/json"}).ok
    game_id, _record = finished_game(p, "doppelkopf", seed=2)
    open_from_history(p, game_id, shot="home-my-games-phone")
    page = p.page
    p.shot("replay-doppelkopf-phone")
    page.keyboard.press("ArrowDown")
    p.shot("replay-doppelkopf-trick-phone")
    page.keyboard.press("Home")
    for button in page.locator(".replay-controls button, .replay-buttons .action").all():
        box = button.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.locator("#replay-share").click()
    page.wait_for_selector(".replay[data-shared]")
    link = page.locator(".replay").get_attribute("data-shared")
    assert "#/shared/" in link
    stranger = make_page()
    stranger.page.goto(link.replace("#/", "?speed=0.05#/"))
    stranger.page.wait_for_selector(".replay[data-position]")
    players = stranger.page.locator(".replay-players").inner_text()
    assert players.startswith("Zeitreisende") and "#replay-share" not in stranger.page.content()
    assert stranger.page.locator("#replay-share").count() == 0
    token = link.split("#/shared/")[1]
    fetched = []
    stranger.page.on("request", lambda request: fetched.append(request.url) if re.search(r"/api/shared/[^/]+/replay$", request.url) else None)
    stranger.page.goto(f"{p.server.url}/?speed=0.05&replay={token}")
    stranger.page.wait_for_selector("body[data-ready] .replay[data-position]")
    stranger.page.keyboard.press("End")
    expect(stranger.page.locator("#replay-sheet .score-sheet")).to_have_count(1)
    # The ?replay= link is routed once: one fetch, one viewer (a second would answer the keys too).
    assert len(fetched) == 1, fetched
    assert stranger.page.locator(".replay").count() == 1


def test_a_record_file_opens_in_the_viewer_and_a_bad_one_is_refused(make_page):
    p = make_page()
    p.open("#/games")
    page = p.page
    record = finished_record("double-sar", 3)
    page.locator("#record-text").fill(json.dumps({**record, "actions": record["actions"][:5] + ["play XX"]}))
    page.locator("#record-open").click()
    page.wait_for_selector("#record-problem:not(:empty)")
    assert "action 6" in page.locator("#record-problem").inner_text()
    p.errors[:] = [e for e in p.errors if "status of 422" not in e]  # the refused record is the point here
    page.locator("#record-text").fill("{not json")
    page.locator("#record-open").click()
    page.wait_for_function("() => document.querySelector('#record-problem').textContent.includes('JSON')")
    page.locator("#record-text").fill(json.dumps(record))
    page.locator("#record-open").click()
    page.wait_for_selector(".replay[data-position]")
    assert page.locator("#replay-download").count() == 0 and page.locator("#replay-share").count() == 0
    page.keyboard.press("End")
    assert page.locator("#replay-sheet .score-sheet").count() == 1


# -- the analysis and play on from here ---------------------------------------------------------
SHORT_MATCH = {"target_points": 5}
"""Double Sar to 5 points, the smallest target its options allow: the real analysis
of a default match (10 points, about 40 decisions of the person, more in
Doppelkopf's 8 deals) takes tens of seconds on a loaded 2-core machine, this one's
20 or so decisions a few seconds (Court Piece's searches are the cheapest here,
docs/performance.md)."""
ANALYSIS_WAIT_MS = 120_000
"""Long enough for the analysis of ``SHORT_MATCH`` however loaded the machine is."""


def js_round(value: float) -> int:
    """``Math.round``: halves go up (Python's ``round`` goes to the even one)."""
    return math.floor(value + 0.5)


def shown_points(text: str) -> float:
    """A value as the page writes it (replay.js: formatPoints) read back."""
    return float(text.replace("−", "-").replace(",", ""))


def whole_page_shot(p, name: str) -> None:
    """A screenshot of the whole page, the analysis below the table included."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    p.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def new_game_of(page, game: str, old: str | None) -> str:
    """After "Play on from here": the table of the new game is open; its id."""
    page.wait_for_function("game => location.hash === '#/play/' + game", arg=game)
    page.wait_for_selector(".table")
    new_id = page.evaluate("game => localStorage.getItem('tt.game.' + game)", game)
    assert new_id and new_id != old
    return new_id


def assert_practice_copy(p, new_id: str, record: dict, at: int, copy_of: str | None) -> None:
    """The game made by playing on: ``p``'s, its record starting with the first
    ``at`` actions of ``record``, a copy that is neither ranked nor a daily and
    has no deal commitment."""
    state = p.page.context.request.get(f"{p.server.url}/api/games/{new_id}").json()
    assert state["copy_of"]["game"] == copy_of and state["copy_of"]["at"] == at
    assert state["daily"] is None and state["fairness"] is None and state["hints"] is True
    store = Store(p.server.database)
    try:
        row = store.load(new_id)
    finally:
        store.close()
    assert row is not None and row.owner == p.identity()
    assert row.record["actions"][:at] == record["actions"][:at] and row.record["seed"] == record["seed"]
    assert row.daily_day is None and not row.counts_on_leaderboard and not row.record["daily"]


def test_the_real_analysis_of_a_finished_game_and_play_on_from_a_mistake(make_page):
    """The Analyse button starts the server's real analysis; the page shows its
    progress, then the figures of ``GET /api/games/{id}/analysis``.  A short
    Double Sar match (``SHORT_MATCH``), not a whole Doppelkopf one: its
    analysis takes seconds, not tens of seconds on this loaded machine."""
    p = make_page()
    # (Dealt the same every run: 29 decisions of the person in 3 deals, the first a deal of 12,
    # more loss bars than a phone's width shows.)
    game_id, record = finished_game(p, "double-sar", seed=4, options=SHORT_MATCH, server_seed="replay-analysis-4")
    page = p.page
    body = page.context.request.get(f"{p.server.url}/api/games/{game_id}/replay").json()
    open_from_history(p, game_id)
    page.locator("#analyse").click()
    page.wait_for_selector("#analysis-progress")  # queued or running: the progress, in words and as a bar
    assert page.locator("#analysis progress").count() == 1
    page.locator("#analysis").screenshot(path=str(SCREENSHOTS / "replay-analysis-progress-desktop.png"))
    page.wait_for_selector("#accuracy", timeout=ANALYSIS_WAIT_MS)
    analysis = page.context.request.get(f"{p.server.url}/api/games/{game_id}/analysis").json()
    assert analysis["status"] == "done" and analysis["done"] == analysis["total"] == len(analysis["decisions"]) > 0
    assert f"{js_round(analysis['accuracy'])}%" in page.locator("#accuracy").inner_text()
    # The deal of most decisions: its loss bars, graph, accuracy and mistakes are the analysis's.
    mine_in = {d["deal"]: sorted((e for e in analysis["decisions"] if e["deal"] == d["deal"]), key=lambda e: e["index"])
               for d in analysis["deals"]}
    deal = max(analysis["deals"], key=lambda d: len(mine_in[d["deal"]]))
    mine = mine_in[deal["deal"]]
    assert deal["mistakes"] and len(mine) * 46 > PHONE["width"]
    page.select_option("#replay-deal", str(deal["deal"]))
    deal_text = page.locator("#deal-accuracy").inner_text()
    assert f"{js_round(deal['accuracy'])}%" in deal_text
    assert abs(float(re.search(r"([\d.]+) points? lost", deal_text).group(1)) - deal["lost"]) < 0.006
    assert page.locator("#loss-bar .loss").count() == len(mine)
    assert page.locator("#loss-bar .loss.lost").count() == sum(1 for d in mine if d["lost"] > 0.05)
    bar = page.locator("#loss-bar .loss").first.bounding_box()
    assert bar["width"] >= 44 and bar["height"] >= 44
    assert len(page.locator("#value-graph polyline").get_attribute("points").split()) == len(mine)
    assert page.locator("#mistakes li").count() == len(deal["mistakes"])
    page.locator("#mistakes li a").first.click()
    worst = next(d for d in mine if d["index"] == deal["mistakes"][0])
    assert worst["lost"] == max(d["lost"] for d in mine) > 0
    assert body["frames"][position(page)]["at"] == worst["index"]
    assert page.locator("#loss-bar .loss.current").count() == 1
    rows = page.locator("#ranked li")
    assert rows.count() == len(worst["ranked"]) and page.locator("#ranked li.chosen").count() == 1
    shown = [shown_points(text) for text in page.locator("#ranked li .num").all_inner_texts()]
    assert all(abs(a - b["value"]) < 0.006 for a, b in zip(shown, worst["ranked"], strict=True))
    assert page.locator("#ranked li").first.locator(".tag.best").count() == 1
    whole_page_shot(p, "replay-analysis-desktop")
    assert AXE.run(page).response["violations"] == []
    page.set_viewport_size(PHONE)
    page.locator("#loss-bar .loss").last.click()  # the deal's last decision: its bar scrolled into sight
    whole_page_shot(p, "replay-analysis-phone")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    box, current = (page.locator(s).bounding_box() for s in ("#loss-bar", "#loss-bar .loss.current"))
    assert box["x"] <= current["x"] and current["x"] + current["width"] <= box["x"] + box["width"] + 1

    # Play on from the worst mistake: a practice copy of the position, at the same level.
    page.locator("#mistakes li a").first.click()
    at = worst["index"]
    assert body["frames"][position(page)]["at"] == at
    page.locator("#replay-play-on").click()
    new_id = new_game_of(page, "double-sar", game_id)
    assert_practice_copy(p, new_id, record, at, game_id)
    assert page.context.request.get(f"{p.server.url}/api/games/{new_id}").json()["level"] == "normal"
    assert "Practice" in page.locator("#fair-deal").inner_text()  # the table says what it is
    page.locator("#fair-deal").click()
    assert f"first {at} actions" in page.locator("#copy-of").inner_text()
    p.shot("play-on-practice-phone")
    assert AXE.run(page).response["violations"] == []
    page.keyboard.press("Escape")

    # A share link's holder reads the same analysis, and cannot start one.
    token = page.context.request.post(f"{p.server.url}/api/games/{game_id}/share").json()["token"]
    stranger = make_page()
    stranger.open(f"#/shared/{token}")
    stranger.page.wait_for_selector("#accuracy")
    assert f"{js_round(analysis['accuracy'])}%" in stranger.page.locator("#accuracy").inner_text()
    assert stranger.page.locator("#analyse").count() == 0


def test_play_on_from_a_share_link_and_from_a_record_file(make_page, tmp_path):
    owner = make_page()
    game_id, record = finished_game(owner, "double-sar", seed=7, options=SHORT_MATCH)
    request = owner.page.context.request
    token = request.post(f"{owner.server.url}/api/games/{game_id}/share").json()["token"]
    frames = request.get(f"{owner.server.url}/api/shared/{token}/replay").json()["frames"]
    stranger = make_page(viewport=PHONE)
    page = stranger.page
    stranger.open(f"#/shared/{token}")
    page.wait_for_selector("#analysis .empty")  # the owner never asked for one: said so, no console error
    for _ in range(3):
        page.keyboard.press("ArrowDown")
    at = frames[position(page)]["at"]
    assert 0 < at < len(record["actions"])
    page.locator("#replay-play-on").click()
    from_link = new_game_of(page, "double-sar", None)
    assert_practice_copy(stranger, from_link, record, at, None)

    # The record file as the owner downloaded it (with its seeds and deals), opened from "My games".
    saved = tmp_path / "tricktable-double-sar.json"
    saved.write_text(json.dumps(request.get(f"{owner.server.url}/api/games/{game_id}/record").json()), encoding="utf-8")
    stranger.open("#/games")
    page.set_input_files("#record-file", str(saved))
    page.locator("#record-open").click()
    page.wait_for_selector(".replay[data-position]")
    assert page.locator("#analysis").is_hidden()  # a file has no analysis to ask for
    page.keyboard.press("End")
    for _ in range(3):  # three tricks before the end: the person still has cards to play
        page.keyboard.press("ArrowUp")
    at = frames[position(page)]["at"]
    assert 0 < at < len(record["actions"])
    page.locator("#replay-play-on").click()
    from_file = new_game_of(page, "double-sar", from_link)
    assert_practice_copy(stranger, from_file, record, at, None)


def test_an_unfinished_game_in_my_games_resumes_at_its_table(make_page):
    p = make_page()
    game_id = seeded_game(p.server, "euchre", "resume-from-history")
    p.open("#/")
    store = Store(p.server.database)
    try:
        hand_over(store, game_id, p.identity())
    finally:
        store.close()
    p.open("#/games")
    entry = p.page.locator(f'.history-entry[data-id="{game_id}"]')
    assert "In progress" in entry.inner_text()
    entry.locator("button.action").click()
    p.page.wait_for_function("() => location.hash === '#/play/euchre'")
    p.page.wait_for_selector(".table")
    assert p.page.evaluate("() => localStorage.getItem('tt.game.euchre')") == game_id


def test_an_unfinished_daily_of_an_earlier_day_resumes_at_its_own_table(make_page):
    """Resume opens that day's attempt, never today's daily (nor starts one)."""
    p = make_page()
    p.open("#/")
    store = Store(p.server.database)
    try:
        old = Room(store).daily_game("euchre", p.identity())["id"]
        yesterday = previous_day(utc_day())
        with store.engine.begin() as db:
            db.execute(update(games).where(games.c.id == old).values(daily_day=yesterday))
    finally:
        store.close()
    p.open("#/games")
    page = p.page
    entry = page.locator(f'.history-entry[data-id="{old}"]')
    assert "In progress" in entry.inner_text() and yesterday in entry.inner_text()
    with page.expect_response(lambda answer: answer.url.endswith(f"/api/games/{old}") and answer.ok):
        entry.locator("button.action").click()
    page.wait_for_function("id => location.hash === '#/daily/euchre/' + id", arg=old)
    page.wait_for_selector(".table")
    store = Store(p.server.database)
    try:
        assert store.find_daily("euchre", utc_day(), p.identity()) is None  # today's daily never asked for
    finally:
        store.close()
    assert page.evaluate("() => localStorage.getItem('tt.game.euchre')") is None  # not taken for the ordinary game
    page.reload()  # the address keeps that attempt
    page.wait_for_selector(".table")
    assert page.evaluate("() => location.hash") == f"#/daily/euchre/{old}"


@pytest.mark.parametrize("locale, lang", [("hi-IN", "hi"), ("th-TH", "th"), ("de-DE", "de")])
def test_my_games_and_the_viewer_fit_a_small_phone_in_every_language(make_page, locale, lang):
    p = make_page(viewport=SMALL_PHONE, locale=locale)
    game_id, _record = finished_game(p, "double-sar", seed=6)
    p.open("#/games")
    page = p.page
    assert page.evaluate("() => document.documentElement.lang") == lang
    p.shot(f"my-games-{lang}-small-phone")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    assert AXE.run(page).response["violations"] == []
    page.locator(f'.history-entry[data-id="{game_id}"] a.action').click()
    page.wait_for_selector(".replay[data-position]")
    page.keyboard.press("End")
    p.shot(f"replay-double-sar-{lang}-small-phone")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    assert AXE.run(page).response["violations"] == []
