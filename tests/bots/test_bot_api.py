"""The bot API an outsider uses (docs/bots.md): one way to make a bot, a search
with a fixed number of worlds that plays the same however slow the machine,
and a bot restricted to some of the legal actions."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tricktable.bots import make_bot
from tricktable.bots import search as search_module
from tricktable.catalog import get_spec
from tricktable.errors import GameError

DOC = Path(__file__).resolve().parents[2] / "docs" / "bots.md"


def observation_with_a_choice(game: str = "euchre", seed: str = "api"):
    spec = get_spec(game)
    state = spec.new_match(seed, spec.normalize_options({}))
    rng = random.Random(seed)
    while True:
        obs = state.observe(state.to_move)
        if len(obs.legal) >= 3 and any(text.startswith("play ") for text in obs.legal):
            return obs
        state.act(state.to_move, rng.choice(obs.legal))


def crawling_clock(monkeypatch) -> None:
    """A machine so loaded that every look at the clock finds a second gone."""
    now = [0.0]

    def later() -> float:
        now[0] += 1.0
        return now[0]

    monkeypatch.setattr(search_module.time, "perf_counter", later)


def test_a_search_with_fixed_worlds_plays_the_same_on_a_crawling_machine(monkeypatch):
    obs = observation_with_a_choice()
    fixed = make_bot("search", seed="same", worlds=300)
    quick = fixed.choose(obs), fixed.ranked(obs)
    crawling_clock(monkeypatch)
    assert (fixed.choose(obs), fixed.ranked(obs)) == quick
    assert sum(entry["worlds"] for entry in quick[1]) >= 300  # every world sampled, none cut by the clock


def test_a_budgeted_search_is_stopped_by_the_clock(monkeypatch):
    obs = observation_with_a_choice()
    budgeted = make_bot("search", seed="same", budget_ms=250)
    crawling_clock(monkeypatch)
    assert sum(entry["worlds"] for entry in budgeted.ranked(obs)) < 300  # the hard stop came first


def test_a_search_needs_a_world():
    with pytest.raises(GameError):
        make_bot("search", worlds=0)


@pytest.mark.parametrize("name, settings", [("random", {}), ("easy", {}), ("heuristic", {}),
                                            ("search", {"worlds": 60}), ("search-noinfer", {"worlds": 60})])
def test_a_bot_restricted_to_some_actions_chooses_among_them(name, settings):
    obs = observation_with_a_choice("doppelkopf", "among")
    bot = make_bot(name, seed="among", **settings)
    for among in ([obs.legal[-1]], list(obs.legal[1:3])):
        assert bot.choose(obs, among) in among
    with pytest.raises(GameError):
        bot.choose(obs, ["play XX"])


def test_the_ten_lines_of_docs_bots_play_a_match_against_another_engine(capsys):
    code = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S).group(1)
    assert len(code.strip().splitlines()) <= 12
    rng = random.Random(3)
    engine_calls = []

    def other_engine(observation: dict) -> str:
        engine_calls.append(observation["seat"])
        return rng.choice(observation["legal"])

    exec(code.replace("worlds=400", "worlds=40"), {"other_engine": other_engine})
    returns = eval(capsys.readouterr().out)
    assert len(returns) == 4 and returns[0] == returns[2] and returns[1] == returns[3]  # partners share
    assert engine_calls and set(engine_calls) <= {1, 3}
