"""Doppelkopf poverty in the browser: choosing three cards to give, and (as the
taker) three to return.  Known seeds put the person in each situation with the
rule-based computer players, so these games are started with those."""

from __future__ import annotations

import shutil
import tempfile

import pytest

from tests.web.conftest import seeded_game, unfold
from tricktable.bots import make_bot
from tricktable.catalog import get_spec
from tests.harness import ServerProcess



@pytest.fixture(scope="module")
def heuristic_server():
    folder = tempfile.mkdtemp(prefix="tricktable-poverty-")
    process = ServerProcess(f"sqlite:///{folder}/web.db", bot="heuristic").start()
    yield process
    process.stop()
    shutil.rmtree(folder, ignore_errors=True)


def seed_where(situation: str, reply) -> str:
    """A seed whose first deal, with the rule-based players, brings the person to
    ``situation`` (a phase) when answering with ``reply(view)``; searched, so a
    change to the computer players cannot silently stop the test covering it."""
    spec = get_spec("doppelkopf")
    options = spec.normalize_options({})
    for number in range(6000):
        seed = f"{situation}-{number}"
        match = spec.new_match(seed, options)
        bots = {s: make_bot("heuristic", seed=f"{seed}/doppelkopf/seat{s}") for s in (1, 2, 3)}
        for _ in range(4):
            while match.to_move in bots:
                match.act(match.to_move, bots[match.to_move].choose(match.observe(match.to_move)))
            view = match.view(0)
            if view["phase"] == situation and view["to_move"] == 0:
                return seed
            answer = reply(view)
            if answer is None:
                break
            match.act(0, answer)
    raise AssertionError(f"no seed reaches {situation!r}")


def choose_cards(p, game_id: str, verb: str) -> str:
    """Select the cards of the first legal give/return by clicking them; confirm."""
    page = p.page
    legal = page.request.get(f"{p.server.url}/api/games/{game_id}").json()["view"]["legal"]
    action = next(a for a in legal if a.startswith(verb + " "))
    confirm = page.locator("#confirm-selection")
    assert confirm.is_disabled()  # nothing chosen yet
    for card in action.split()[1:]:
        page.locator(f'.hand button.selectable[data-card="{card}"]:not(.chosen)').first.click(position={"x": 8, "y": 24})
    assert page.locator(".hand button.chosen").count() == 3
    confirm.click()
    p.settle()
    return action


def open_game(make_page, server, game_id: str):
    p = make_page()
    p.server = server
    p.open_game("doppelkopf", game_id)
    return p


def actions_of_person(p, game_id: str) -> list[str]:
    view = p.page.request.get(f"{p.server.url}/api/games/{game_id}").json()["view"]
    return [text for seat, text in view["actions"] if seat == 0]


def test_giving_three_cards_in_a_poverty(make_page, heuristic_server):
    seed = seed_where("poverty: give", lambda v: "poverty" if "poverty" in v["legal"] else None)
    game_id = seeded_game(heuristic_server, "doppelkopf", seed)
    p = open_game(make_page, heuristic_server, game_id)
    unfold(p.page, "poverty")  # behind "Reservation…"
    p.page.locator('button.action[data-action="poverty"]').click()
    p.settle()
    given = choose_cards(p, game_id, "give")
    assert given in actions_of_person(p, game_id)
    p.shot("doppelkopf-poverty-desktop")


def test_taking_a_poverty_and_returning_three_cards(make_page, heuristic_server):
    seed = seed_where("poverty: return", lambda v: next((a for a in ("healthy", "accept") if a in v["legal"]), None))
    game_id = seeded_game(heuristic_server, "doppelkopf", seed)
    p = open_game(make_page, heuristic_server, game_id)
    for _ in range(3):  # say healthy, then take the poverty when it is offered
        legal = p.page.request.get(f"{p.server.url}/api/games/{game_id}").json()["view"]["legal"]
        if any(a.startswith("return ") for a in legal):
            break
        answer = next(a for a in ("healthy", "accept") if a in legal)
        p.page.locator(f'button.action[data-action="{answer}"]').click()
        p.settle()
    returned = choose_cards(p, game_id, "return")
    assert returned in actions_of_person(p, game_id)
