"""The replay viewer with a finished game's analysis, for a whole Doppelkopf
match (the person alone, seat 0) and a Double Sar match of a table (the person
at seat 3, drawn at the bottom, his team first on the score sheets): stepping by action and by trick with the
keyboard's arrows moves the current decision with it (its bar, its ranked
actions, the graph's marker); the bar of points lost per decision, the graph of
the expected score and the three biggest mistakes say what the analysis says.
Screenshots on a 390×844 phone and a desktop go to ``build/screens-analysis/``.

The analysis is made here by the analysis's own functions (``decisions_of``,
the hint's search, ``judged``) on a few worlds, and stored as the server stores
one: a real analysis of a whole Doppelkopf match takes tens of seconds, and the
server's own analysis path has its page test (tests/web/test_replay_page.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from tricktable.bots import levels
from tricktable.bots.levels import hard_hint
from tricktable.server.play.analysis import decisions_of, deals_of, judged
from tricktable.server.trust.fairness import commitment_of
from tricktable.store import Store
from tests.web.conftest import DESKTOP, PHONE
from tests.web.test_replay_page import CLIENT_SEED, finished_record, js_round, position, shown_points

AXE = Axe()
SCREENS = Path(__file__).resolve().parents[2] / "build" / "screens-analysis"
WORLDS = 4
"""Worlds per decision of the analysis made here (the hint's own search, fewer worlds: seconds for a match)."""
SEATS = 4


def analysed_game(p, game: str, seat: int, seed: int) -> tuple[str, dict, list[dict]]:
    """A finished match of ``game`` with ``p``'s person at ``seat`` (seat 0:
    his own game; another: a table's match, hosted by someone else), and the
    done analysis of his seat: its id, record and decisions."""
    server_seed = f"analysis-page-{game}-{seat}-{seed}"
    record = finished_record(game, seed, server_seed)
    decisions = [judged(d, hard_hint(d.observation, d.seed), WORLDS) for d in decisions_of(record, seat)]
    me = p.identity()
    seats = None if seat == 0 else tuple(me if s == seat else None for s in range(SEATS))
    store = Store(p.server.database)
    try:
        row = store.create_game({**record, "level": "normal"}, "over", owner=me if seat == 0 else "a-host",
                                seats=seats, server_seed=server_seed, client_seed=CLIENT_SEED,
                                commitment=commitment_of(server_seed))
        assert store.queue_analysis(row.id, len(decisions), "page-test", 0.0, seat=seat)
        assert store.save_analysis(row.id, "page-test", "done", decisions, None, seat=seat)
    finally:
        store.close()
    return row.id, record, decisions


@pytest.fixture(autouse=True)
def few_worlds(monkeypatch):
    """The hint's search here on ``WORLDS`` worlds (``hard_hint`` reads ``hint_worlds``)."""
    monkeypatch.setattr(levels, "hint_worlds", lambda obs: WORLDS)


def points_text(value: float) -> str:
    """Points as the page writes them (replay.js: formatPoints, at most two decimals)."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def own_decision_at(page, frames: list[dict], decisions: list[dict]) -> dict | None:
    """The person's decision the viewer's current frame is taken at, if any."""
    frame = frames[position(page)]
    return next((d for d in decisions if d["index"] == frame["at"] and d["deal"] == frame["deal"]), None)


def graph_points(page) -> list[tuple[float, float]]:
    text = page.locator("#value-graph polyline").get_attribute("points")
    return [tuple(map(float, point.split(","))) for point in text.split()]  # type: ignore[misc]


def check_deal_panel(page, frames: list[dict], decisions: list[dict]) -> None:
    """The analysis panel of the current frame's deal against the analysis."""
    deal = frames[position(page)]["deal"]
    mine = sorted((d for d in decisions if d["deal"] == deal), key=lambda d: d["index"])
    facts = next(d for d in deals_of(decisions) if d["deal"] == deal)
    assert page.locator("#loss-bar .loss").count() == len(mine)
    # Each bar as tall as its loss, against the deal's largest (at least half a point), 4 % the least.
    most = max(0.5, *(d["lost"] for d in mine))
    heights = page.locator("#loss-bar .loss").evaluate_all("bars => bars.map(b => b.style.getPropertyValue('--h'))")
    assert heights == [f"{max(4, js_round(d['lost'] / most * 100))}%" for d in mine]
    labels = page.locator("#loss-bar .loss").evaluate_all("bars => bars.map(b => b.getAttribute('aria-label'))")
    assert all(label for label in labels)
    # The graph: one point per decision, higher for a higher expected score, left to right.
    points = graph_points(page)
    assert len(points) == len(mine) and [x for x, _ in points] == sorted(x for x, _ in points)
    for (_, y_a), a in zip(points, mine):
        for (_, y_b), b in zip(points, mine):
            if a["value"] > b["value"] + 1e-9:
                assert y_a < y_b
    # The biggest mistakes: at most three, most lost first, each its decision's words (none: said so).
    assert len(facts["mistakes"]) <= 3
    items = page.locator("#mistakes li").all_inner_texts()
    if not facts["mistakes"]:
        assert not items and page.locator("#mistakes p").count() == 1
    assert len(items) == len(facts["mistakes"])
    worst = [next(d for d in decisions if d["index"] == i) for i in facts["mistakes"]]
    assert [d["lost"] for d in worst] == sorted((d["lost"] for d in mine if d["lost"] > 0), reverse=True)[:3]
    for text, d in zip(items, worst):
        assert points_text(d["lost"]) in text and points_text(d["lost"]) in page.locator("#mistakes").inner_text()


def check_current(page, frames: list[dict], decisions: list[dict]) -> bool:
    """The current decision's bar, ranked actions and graph marker, if the
    frame is one of the person's decisions (else none of them); whether it was."""
    decision = own_decision_at(page, frames, decisions)
    if decision is None:
        assert page.locator("#loss-bar .loss.current").count() == 0 and page.locator("#ranked").count() == 0
        return False
    assert page.locator("#loss-bar .loss.current").count() == 1
    shown = [shown_points(text) for text in page.locator("#ranked li .num").all_inner_texts()]
    assert all(abs(a - b["value"]) < 0.006 for a, b in zip(shown, decision["ranked"], strict=True))
    assert page.locator("#ranked li.chosen").count() == 1
    marker = float(page.locator("#value-graph line.now").get_attribute("x1")) if page.locator(
        "#value-graph line.now").count() else None
    mine = sorted((d for d in decisions if d["deal"] == decision["deal"]), key=lambda d: d["index"])
    if len(mine) > 1:
        assert marker == graph_points(page)[mine.index(decision)][0]
    return True


@pytest.mark.parametrize("game, seat, seed", [("doppelkopf", 0, 5), ("double-sar", 3, 4)])
def test_stepping_through_an_analysed_game_by_action_and_by_trick(make_page, game, seat, seed):
    p = make_page(viewport=DESKTOP)
    game_id, record, decisions = analysed_game(p, game, seat, seed)
    page = p.page
    body = page.context.request.get(f"{p.server.url}/api/games/{game_id}/replay").json()
    assert body["seat"] == seat
    frames = body["frames"]
    p.open("#/games")  # a table's match is in the person's own list too
    page.locator(f'.history-entry[data-id="{game_id}"] a.action').click()
    page.wait_for_selector("#accuracy")
    # His own seat at the bottom, named as himself.
    assert page.locator(".replay-seat.south").get_attribute("data-seat") == str(seat)
    assert page.locator(".replay-seat.south .name").inner_text().startswith("You")
    across = "North" if game == "doppelkopf" else "Partner"  # (Doppelkopf's teams change from deal to deal)
    assert page.locator(".replay-players").inner_text().startswith(f"You · West · {across} · East")

    # By action: the right arrow walks every frame up to the person's second decision,
    # the panel following (a decision's own bar, ranked actions and marker, or none).
    second = sorted(decisions, key=lambda d: d["index"])[1]
    seen = 0
    while frames[position(page)]["at"] < second["index"] or own_decision_at(page, frames, decisions) is None:
        page.keyboard.press("ArrowRight")
        seen += check_current(page, frames, decisions)
    assert seen >= 1 and own_decision_at(page, frames, decisions) == second
    check_deal_panel(page, frames, decisions)
    page.keyboard.press("ArrowLeft")
    assert own_decision_at(page, frames, decisions) != second or frames[position(page)]["at"] == second["index"]

    # By trick: the down arrow lands on tricks' ends (four cards on the table) or a deal's edge.
    for _ in range(5):
        before = position(page)
        page.keyboard.press("ArrowDown")
        assert position(page) > before
        frame = frames[position(page)]
        assert page.locator(".trick .card").count() == 4 or frame.get("end") or frame.get("action") is None
        check_current(page, frames, decisions)
    page.keyboard.press("ArrowUp")
    check_current(page, frames, decisions)
    page.keyboard.press("End")  # the last deal's sheet: his team is "Us", wherever he sits
    heads = page.locator("#replay-sheet table.sheet thead th").all_inner_texts()
    if game != "doppelkopf":
        assert heads[1:] == (["Them", "Us"] if seat % 2 else ["Us", "Them"])
    page.keyboard.press("Home")

    # The deal of most mistakes (then decisions): its figures, and each of its biggest mistakes opens its decision.
    deal = max(deals_of(decisions), key=lambda d: (len(d["mistakes"]),
                                                   sum(1 for e in decisions if e["deal"] == d["deal"])))
    assert len(deal["mistakes"]) == 3
    page.select_option("#replay-deal", str(deal["deal"]))
    check_deal_panel(page, frames, decisions)
    assert f"{js_round(deal['accuracy'])}%" in page.locator("#deal-accuracy").inner_text()
    for n, index in enumerate(deal["mistakes"]):
        page.locator("#mistakes li a").nth(n).click()
        assert frames[position(page)]["at"] == index and check_current(page, frames, decisions)
    page.locator("#mistakes li a").first.click()
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{game}-desktop.png"), full_page=True)
    assert AXE.run(page).response["violations"] == []

    page.set_viewport_size(PHONE)
    page.locator("#mistakes li a").first.click()
    page.screenshot(path=str(SCREENS / f"{game}-phone.png"), full_page=True)
    page.locator(".replay-felt").screenshot(path=str(SCREENS / f"{game}-phone-table.png"))
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    for control in page.locator(".replay-controls button, #loss-bar .loss, #mistakes li a").all():
        box = control.bounding_box()
        assert box["height"] >= 44 and (box["width"] >= 44 or control.evaluate("e => e.tagName") == "A")
    assert AXE.run(page).response["violations"] == []
    assert p.errors == []
