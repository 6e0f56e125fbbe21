"""The replay viewer on the page: "My games" lists the person's games, a
finished Doppelkopf or Double Sar match opens with all four hands face up,
steps forward and back by key and by button, shows the score sheet where a
deal ends; a share link opens it for anyone; a record file opens in it (and a
bad one is refused in words); the analysis display and "play on from here".

The analysis and play-on routes are built at the same time by another
engineer: until they are on this server, the tests of their display answer
those routes with ``stub_analysis_route`` / ``stub_play_on_route`` (Playwright
routes inside the test, named as stubs), built on the contract's shapes."""

from __future__ import annotations

import json
import random
import secrets
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from tricktable.catalog import get_spec
from tricktable.core.record import record_of
from tricktable.server.trust.fairness import commitment_of, match_seed
from tricktable.store import Store
from tests.harness import hand_over
from tests.web.conftest import PHONE, SMALL_PHONE, seeded_game

AXE = Axe()


CLIENT_SEED = "page-replay"


def finished_record(game: str, seed: int, server_seed: str = "page-replay-server-seed") -> dict:
    """A whole match of ``game`` played by random legal actions, dealt from
    ``server_seed`` and ``CLIENT_SEED`` as a fair game is: its record."""
    spec = get_spec(game)
    state = spec.new_match(match_seed(server_seed, CLIENT_SEED), spec.normalize_options({}))
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_any(rng.choice(list(state.legal_actions())))
    return record_of(state).to_json()


def finished_game(p, game: str, seed: int = 1) -> tuple[str, dict]:
    """A finished match of ``game`` stored as this profile's, with its seeds
    (so its record can be downloaded): its id and record."""
    server_seed = secrets.token_hex(16)  # (a commitment is used once in the server's database)
    record = finished_record(game, seed, server_seed)
    store = Store(p.server.database)
    try:
        row = store.create_game({**record, "level": "normal"}, "over", owner=p.identity(), server_seed=server_seed,
                                client_seed=CLIENT_SEED, commitment=commitment_of(server_seed))
    finally:
        store.close()
    return row.id, record


def viewer_page(make_page, **settings):
    """A page whose analysis routes answer "none" in the test (``stub_no_analysis_route``:
    a stub until the analysis engineer's routes are on this server; a missing
    route's 404 would be a console error)."""
    p = make_page(**settings)
    stub_no_analysis_route(p.page)
    return p


def stub_no_analysis_route(page) -> None:
    none = {"status": "none", "done": 0, "total": 0, "worlds": 0, "decisions": [], "deals": [], "accuracy": None}
    for path in ("**/api/games/*/analysis", "**/api/shared/*/analysis"):
        page.route(path, lambda route: route.fulfill(status=200, json=none))


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
    p = viewer_page(make_page)
    game_id, record = finished_game(p, game)
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
    # On to the first card played: one card fewer in the hands, and it lies on the table.
    played = next(i for i, action in enumerate(record["actions"]) if action.startswith("play "))
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
    p = viewer_page(make_page, viewport=PHONE)
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
    stranger = viewer_page(make_page)
    stranger.page.goto(link.replace("#/", "?speed=0.05#/"))
    stranger.page.wait_for_selector(".replay[data-position]")
    players = stranger.page.locator(".replay-players").inner_text()
    assert players.startswith("Zeitreisende") and "#replay-share" not in stranger.page.content()
    assert stranger.page.locator("#replay-share").count() == 0
    token = link.split("#/shared/")[1]
    stranger.page.goto(f"{p.server.url}/?speed=0.05&replay={token}")
    stranger.page.wait_for_selector(".replay[data-position]")
    stranger.page.keyboard.press("End")
    assert stranger.page.locator("#replay-sheet .score-sheet").count() == 1


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


# -- the analysis and play-on displays, against stubs of their routes -----------------------
def stub_analysis(replay_body: dict, status: str = "done") -> dict:
    """An analysis of the contract's shape for the person's decisions of the
    first deal: each decision's chosen action loses its index modulo 3 points
    against a made-up best one, so the test knows the three biggest mistakes."""
    decisions = []
    frames = replay_body["frames"]
    for frame in frames:
        if frame.get("seat") == 0 and frame["deal"] == 0 and "action" in frame:
            index, lost = frame["action"], float(frame["action"] % 3)
            decisions.append({"index": index, "deal": 0, "seat": 0, "chosen": frame["text"], "best": "best move",
                              "value": 1.0 - lost, "best_value": 1.0, "lost": lost,
                              "ranked": [{"action": "best move", "value": 1.0}, {"action": frame["text"], "value": 1.0 - lost}]
                              if lost else [{"action": frame["text"], "value": 1.0}]})
    mistakes = [d["index"] for d in sorted(decisions, key=lambda d: (-d["lost"], d["index"])) if d["lost"] > 0][:3]
    return {"status": status, "done": len(decisions), "total": len(decisions), "worlds": 8, "decisions": decisions,
            "deals": [{"deal": 0, "lost": sum(d["lost"] for d in decisions), "accuracy": 62.5, "mistakes": mistakes}],
            "accuracy": 71.25}


def stub_analysis_route(page, body: dict, calls: list[str]) -> None:
    """GET and POST of the analysis route, answered in the test (a stub until
    the analysis engineer's route is on this server): none, then queued after
    the POST, running, and done."""
    states = iter([{"status": "running", "done": 1, "total": 2}, stub_analysis(body)])
    current = {"value": {"status": "none", "done": 0, "total": 0}}

    def answer(route):
        calls.append(route.request.method)
        if route.request.method == "POST":
            current["value"] = {"status": "queued", "done": 0, "total": 2}
            route.fulfill(status=202, json=current["value"])
            return
        shown = current["value"]
        if shown["status"] in ("queued", "running"):
            current["value"] = next(states, shown)
        route.fulfill(status=200, json=shown)

    page.route("**/api/games/*/analysis", answer)


def test_the_analysis_display_and_play_on_against_stubs_of_their_routes(make_page):
    p = make_page()
    game_id, _record = finished_game(p, "doppelkopf", seed=4)
    page = p.page
    body = page.context.request.get(f"{p.server.url}/api/games/{game_id}/replay").json()
    calls: list[str] = []
    stub_analysis_route(page, body, calls)
    open_from_history(p, game_id)
    page.locator("#analyse").click()
    page.wait_for_selector("#accuracy")
    assert calls[:2] == ["GET", "POST"] and calls.count("GET") >= 3
    assert "71.25" not in page.locator("#accuracy").inner_text() and "71" in page.locator("#accuracy").inner_text()
    analysis = stub_analysis(body)
    mine = analysis["decisions"]
    assert page.locator("#loss-bar .loss").count() == len(mine)
    bar = page.locator("#loss-bar .loss").first.bounding_box()
    assert bar["width"] >= 44 and bar["height"] >= 44
    assert page.locator("#loss-bar .loss.lost").count() == sum(1 for d in mine if d["lost"] > 0.05)
    assert page.locator("#value-graph polyline").count() == 1
    assert page.locator("#mistakes li").count() == 3
    worst = analysis["deals"][0]["mistakes"][0]
    page.locator("#mistakes li a").first.click()
    frame = body["frames"][position(page)]
    assert frame["at"] == worst and page.locator("#ranked li.chosen").count() == 1
    assert page.locator("#ranked li").first.inner_text().startswith("best move")
    p.shot("replay-analysis-desktop")
    assert AXE.run(page).response["violations"] == []

    # Play on from here: the route is answered in the test (a stub) with a real new game of this profile.
    new_id = seeded_game(p.server, "doppelkopf", "play-on-stub")
    store = Store(p.server.database)
    try:
        hand_over(store, new_id, p.identity())
    finally:
        store.close()
    sent: list[dict] = []

    def stub_play_on_route(route):
        sent.append(route.request.post_data_json)
        route.fulfill(status=201, json={"id": new_id, "game": "doppelkopf"})

    page.route("**/api/games/*/play-on", stub_play_on_route)
    page.keyboard.press("ArrowRight")
    at = body["frames"][position(page)]["at"]
    page.locator("#replay-play-on").click()
    page.wait_for_function("() => location.hash === '#/play/doppelkopf'")
    page.wait_for_selector(".table")
    assert sent == [{"at": at}]
    assert page.evaluate("() => localStorage.getItem('tt.game.doppelkopf')") == new_id


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


@pytest.mark.parametrize("locale, lang", [("hi-IN", "hi"), ("th-TH", "th"), ("de-DE", "de")])
def test_my_games_and_the_viewer_fit_a_small_phone_in_every_language(make_page, locale, lang):
    p = viewer_page(make_page, viewport=SMALL_PHONE, locale=locale)
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
