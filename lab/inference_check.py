"""How much the inference weights tell (``tricktable-lab bench GAME --inference``).

Over ``positions`` positions from random deals played by the rules bot (the
``heuristic`` bot in every seat, a random point of each deal), sample ``worlds``
worlds for the seat to move and weigh them as search does (``SearchGame.weight``).
For every card another seat holds, does a world put it with its true holder?

* ``holder``: the share of the unseen cards a world puts with their true holder,
  averaged over the worlds weighted (``weighted``) and uniformly (``uniform``);
* ``top``: the same share over the most likely quarter of the worlds (by weight;
  ties broken by sampling order), against the uniform average: "how often the true
  holder is among the most likely worlds";
* ``hand_in_top`` / ``hand_uniform``: how often a world gives some other seat
  exactly its true hand, in the top quarter against all worlds;
* ``ess_share``: the effective number of worlds (``inference.effective_size``) over the worlds sampled, averaged.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter, defaultdict
from dataclasses import replace
from typing import Any

from lab.arena import deal_state
from tricktable.bots import make_bot
from tricktable.bots.inference import effective_size
from tricktable.bots.players import game_module, search_game
from tricktable.bots.search import Weight
from tricktable.cards import COPY_OFFSET, cards_of
from tricktable.errors import GameError
from tricktable.core.protocol import DealState, GameState
from tricktable.catalog import entry

TOP_SHARE = 4
"""The most likely ``1 / TOP_SHARE`` of the worlds are the "top" worlds."""


def holdings(state: GameState) -> list[Counter[int]]:
    """Each seat's cards now, as card faces (the two copies of a Doppelkopf card are one face)."""
    assert isinstance(state, DealState)
    return [Counter(c % COPY_OFFSET for c in cards_of(hand)) for hand in state.hands]


def position(game: str, index: int, seed: str, players: str = "heuristic") -> GameState:
    """A random point of a deal ``players`` (a bot name: the rules bot by default) play in every seat."""
    game_entry = entry(game)
    spec = game_entry.spec
    options = spec.normalize_options(game_entry.bot_options)
    state = deal_state(spec, f"{seed}/inference", index, options)
    bot = make_bot(players, seed=f"{seed}/{players}")
    rng = random.Random(f"{seed}/{index}")
    stop = rng.random()
    texts: list[tuple[int, str]] = []
    trial = state.clone()
    while not trial.is_terminal():
        if not trial.legal_actions():
            trial.apply_referee(trial.referee_actions()[0])
            texts.append((-1, ""))
            continue
        seat = trial.to_move
        text = bot.choose(trial.observe(seat))
        trial.act(seat, text)
        texts.append((seat, text))
    for seat, text in texts[: max(1, int(stop * len(texts)))]:
        if seat < 0:
            state.apply_referee(state.referee_actions()[0])
        else:
            state.act(seat, text)
    return state


def measure(game: str, positions: int = 100, worlds: int = 40, seed: str = "inference",
            weight: Weight | None = None, players: str = "heuristic") -> dict[str, Any]:
    """The figures of the module docstring, for ``positions`` positions of ``game``;
    ``weight``: another weighting to measure than the search bot's."""
    sums: defaultdict[str, float] = defaultdict(float)
    counted = 0
    cpu_ms: list[float] = []
    for index in range(positions):
        state = position(game, index, seed, players)
        if state.is_terminal():
            continue
        me = state.to_move
        obs = state.observe(me)
        game_search = search_game(game_module(game), obs)
        if weight is not None:
            game_search = replace(game_search, weight=weight)
        truth = holdings(state)
        others = [s for s in range(len(truth)) if s != me and truth[s]]
        unseen = sum(sum(truth[s].values()) for s in others)
        if not unseen or game_search.weight is None:
            continue
        rng = random.Random(f"{seed}/worlds/{index}")
        rows: list[tuple[float, float, float]] = []  # (weight, share placed right, any seat's hand exact)
        for _ in range(worlds):
            try:
                world = game_search.spec.sample_world(obs, rng)
            except GameError:
                continue
            start = time.process_time()
            likelihood = game_search.weight(world, obs, me)
            cpu_ms.append((time.process_time() - start) * 1000)
            held = holdings(world)
            right = sum(sum((held[s] & truth[s]).values()) for s in others)
            exact = float(any(held[s] == truth[s] for s in others))
            rows.append((likelihood, right / unseen, exact))
        if len(rows) < TOP_SHARE:
            continue
        counted += 1
        total = sum(w for w, _, _ in rows)
        top = sorted(range(len(rows)), key=lambda i: -rows[i][0])[: len(rows) // TOP_SHARE]
        sums["weighted"] += sum(w * r for w, r, _ in rows) / total
        sums["uniform"] += statistics.fmean(r for _, r, _ in rows)
        sums["top"] += statistics.fmean(rows[i][1] for i in top)
        sums["hand_in_top"] += statistics.fmean(rows[i][2] for i in top)
        sums["hand_uniform"] += statistics.fmean(e for _, _, e in rows)
        sums["ess_share"] += effective_size([w for w, _, _ in rows]) / len(rows)
    figures: dict[str, Any] = {key: round(value / counted, 4) if counted else None for key, value in sums.items()}
    return {"game": game, "players": players, "positions": counted, "worlds": worlds, **figures,
            "weight_cpu_ms": {"p50": round(statistics.median(cpu_ms), 3) if cpu_ms else None,
                              "p95": round(sorted(cpu_ms)[int(0.95 * (len(cpu_ms) - 1))], 3) if cpu_ms else None}}
