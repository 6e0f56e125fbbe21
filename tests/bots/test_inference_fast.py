"""Inference's fast card replay (the cost of inference): a game's kernel
replays the card play of a sampled world on masks (``inference.CardReplay``), and
the weights it gives are those of the reference replay (every action through
``GameState.apply``, the rules policy at each decision), in every game and in the
presets and options that change the card play or what a seat knows — compiled
(the kernels ``make install`` builds) and pure Python.

Positions are deals part way through, each action the policy's or a random legal
one (so the others' decisions often differ from the rules), seen by a random seat;
worlds are sampled for that seat as search samples them."""

from __future__ import annotations

import importlib
import random
from types import ModuleType, SimpleNamespace
from typing import Any, Callable

import pytest

from tricktable import speedups
from tricktable.bots import inference
from tricktable.bots.players import game_module, search_game
from tricktable.core.protocol import DealState, GameState
from tricktable.catalog import entry

EXACT = inference.Evidence(min_weight=0.0)
"""No floor on the product: every disagreement shows in the weight."""

Feature = Callable[[Any], bool]
"""A fact of a sampled world (as it stands) that a case must meet in some of the worlds replayed."""

ANY: Feature = lambda world: True
CASES: list[tuple[str, dict[str, Any], Feature]] = [
    ("double-sar", {}, ANY),
    ("double-sar", {"ace_on_ace": True, "counting": "kots"}, ANY),
    ("double-sar", {"trump_ace_cannot_seal": True, "no_pile_on_11_12": True}, ANY),
    ("double-sar", {"new_cards": "any seat"}, ANY),
    ("double-sar", {"new_cards_on_turn": True, "call_any_suit": True}, ANY),  # rules version 1
    ("single-sar", {}, ANY),
    ("single-sar", {"change_trump": False}, ANY),
    ("hidden-trump", {}, lambda world: world.revealed >= 0),  # face down, then shown in the card play
    ("be-ranga", {}, lambda world: world.trump_trick > 0),  # a void set trump
    ("be-ranga", {"new_cards_on_turn": True, "new_cards": "any seat"}, lambda world: world.trump_trick > 0),
    ("mendikot", {}, lambda world: world.down >= 0),  # still face down
    ("euchre", {}, ANY),
    ("euchre", {"defend_alone": True}, lambda world: world.lone_defender >= 0),
    ("euchre", {"dealers_partner_alone": True, "stick_the_dealer": False}, lambda world: world.alone),
    ("euchre", {"farmers_hand": True}, ANY),
    ("doppelkopf", {}, lambda world: world.announced != 0),  # announcements, in turn or out of turn
    ("doppelkopf", {}, lambda world: world.partner >= 0),  # a marriage decided in the card play (or a poverty)
    ("doppelkopf", {"preset": "ddv"}, lambda world: world.lone),  # solos
    ("doppelkopf", {"preset": "house"}, lambda world: world.pigs >= 0),  # pigs held, the second 10♥
    ("doppelkopf", {"schweinchen": True, "superschweinchen": True}, lambda world: world.pigs >= 0),
    ("doppelkopf", {"without_nines": True, "bock": True, "throwing_in": True}, ANY),
    ("doppelkopf", {"tournament_list": True, "soloist_leads": True}, ANY),
]
"""Every game with its bots' options, the options that change its card play or what
is offered in it (the pile's house rules, new cards in the first trick, lone hands
and defenders, the first rules version's legacy options), and the phases of its own
(the card face down, trump set by a void)."""


KERNELS = {"tricktable.bots.courtpiece": "tricktable.bots.courtpiece_kernel",
           "tricktable.bots.euchre": "tricktable.bots.euchre_kernel",
           "tricktable.bots.doppelkopf": "tricktable.bots.doppelkopf_kernel"}
"""The bots modules whose ``kernel`` the card replays run, and the kernel's module
(the relatives play Court Piece's)."""


def _cards(module: ModuleType) -> inference.CardReplay:
    cards = getattr(module, "CARDS", None)
    if cards is None:
        cards = getattr(module, "cp").CARDS
    assert isinstance(cards, inference.CardReplay)
    return cards


def _positions(game: str, options: dict[str, Any], count: int, seed: str) -> list[tuple[GameState, int]]:
    """(state part way through a deal, mostly in its card play; a seat that observes it):
    each action the policy's or a random legal one (never new cards)."""
    spec = entry(game).spec
    rng = random.Random(seed)
    policy = search_game(game_module(game), SimpleNamespace(game=game)).policy
    options = spec.normalize_options({**entry(game).bot_options, **options})
    found: list[tuple[GameState, int]] = []
    for index in range(count):
        deal = spec.deal_from_seed(f"inference-fast-{seed}-{index}", index % 4, options)
        state = spec.new_deal(deal, options)
        while not state.is_terminal():
            legal = state.legal_actions()
            if not legal:
                state.apply_referee(state.referee_actions()[0])
                continue
            kept = [a for a in legal if state.action_text(a) != "new cards"] or list(legal)
            state.apply(policy(state) if rng.random() < 0.6 else rng.choice(kept))
        assert isinstance(state, DealState)
        first = next((i for i, a in enumerate(state.history) if a < 52), 1)  # the first card
        if len(state.history) <= first:
            continue  # over before the card play (thrown in)
        cut = rng.randrange(1, len(state.history)) if rng.random() < 0.1 else rng.randrange(first, len(state.history))
        position = spec.new_deal(deal, options)
        for action, seat in zip(state.history[:cut], state.actors[:cut]):
            if action in position.referee_actions():
                position.apply_referee(action)
            else:
                position.apply_for(seat, action)
        found.append((position, rng.randrange(4)))
    return found


def _hidden(obs: Any) -> tuple[int, ...]:
    return tuple(i for i, (_, text) in enumerate(obs.actions) if text.endswith("?"))


def _compare(game: str, options: dict[str, Any], feature: Feature, seed: str) -> tuple[int, int, int]:
    """For sampled worlds of many positions: the fast replay's disagreements are the
    reference's (at the same history positions), and the weights are equal, with and
    without the cache of factors and with the default and an unfloored evidence.
    Returns (worlds the kernel replayed, those with a disagreement in its part, those
    with the ``feature``)."""
    module = game_module(game)
    cards = _cards(module)
    spec = entry(game).spec
    policy = search_game(module, SimpleNamespace(game=game)).policy
    rng = random.Random(seed)
    replayed = differing = featured = 0
    for state, me in _positions(game, options, 40, seed):
        obs = state.observe(me)
        hidden = _hidden(obs)
        fast_cache: inference.Factors = {}
        slow_cache: inference.Factors = {}
        for _ in range(6):
            world = spec.sample_world(obs, rng)
            assert isinstance(world, DealState)
            start = cards.start(world)
            if 0 <= start < len(world.history):
                replay = world.restarted()
                for _ in inference._replay(replay, world, me, start):
                    pass
                fast = cards.disagreements(replay, world, me, -1)
                if fast is not None:
                    reference = [d.position for d in inference.decisions(world, me)
                                 if d.position >= start and policy(d.state) != d.action]
                    assert fast == reference, (game, options, world.history, me)
                    again = world.restarted()  # a kernel's replay may leave its state behind
                    for _ in inference._replay(again, world, me, start):
                        pass
                    assert cards.disagreements(again, world, me, 2) == reference[:2]  # enough for a floor
                    replayed += 1
                    differing += bool(fast)
                    featured += feature(world)
            for evidence in (inference.DEFAULT, EXACT):
                reference_weight = inference.likelihood(world, me, policy, evidence, hidden)
                assert inference.likelihood(world, me, policy, evidence, hidden, cards=cards) == reference_weight
            assert (inference.likelihood(world, me, policy, inference.DEFAULT, hidden, fast_cache, cards)
                    == inference.likelihood(world, me, policy, inference.DEFAULT, hidden, slow_cache))
    return replayed, differing, featured


@pytest.fixture(params=["compiled", "pure"])
def kernel(request, monkeypatch) -> str:
    """Run a test with the compiled kernels (which must be built and fresh, and in
    use) and again with their pure-Python source."""
    for bots_name, name in KERNELS.items():
        bots, source = importlib.import_module(bots_name), importlib.import_module(name)
        if request.param == "compiled":
            fresh, why = speedups.compiled_is_fresh(name)
            assert fresh, why
            assert bots.kernel is not source, speedups.status()
        else:
            if hasattr(bots, "install_tables"):
                bots.install_tables(source)
            monkeypatch.setattr(bots, "kernel", source)
    return str(request.param)


@pytest.mark.parametrize("game, options, feature", CASES)
def test_the_kernels_card_replay_weighs_every_world_as_the_reference_replay(game, options, feature, kernel):
    replayed, differing, featured = _compare(game, options, feature, f"{game}-{sorted(options.items())}")
    assert replayed >= 120  # the kernel replayed the card play of most worlds
    assert differing >= replayed // 4  # and found the others' choices the rules would not make
    assert featured >= 5  # in the phase or under the option the case is about


def test_euchre_bidding_template_tells_a_view_before_the_discard_from_one_after_it(kernel):
    """Euchre replays the bids of an observation's worlds from one template per public
    history (``euchre._Bidding``).  A seat that watched the dealer pick up sees the same
    bids before his discard and after it, face down: the worlds after it have one more
    decision to weigh (the discard), whether or not the template of the view before it
    is still the last one kept."""
    from tricktable.bots import euchre
    from tricktable.games.euchre.state import DISCARDING

    spec, policy, cards = entry("euchre").spec, euchre.heuristic_action, euchre.CARDS
    options = spec.normalize_options(entry("euchre").bot_options)
    rng = random.Random("discard")
    compared = discards_weighed = 0
    for index in range(200):
        state = spec.new_deal(spec.deal_from_seed(f"template-discard-{index}", index % 4, options), options)
        while not state.is_terminal() and state.phase != DISCARDING:
            state.apply(policy(state) if rng.random() < 0.5 else rng.choice(list(state.legal_actions())))
        if state.phase != DISCARDING:
            continue
        me = (state.dealer + 1 + rng.randrange(3)) % 4  # not the dealer
        before = state.observe(me)
        state.apply(policy(state))
        after = state.observe(me)
        for obs in (before, after, before, after):
            for _ in range(3):
                world = spec.sample_world(obs, rng)
                reference = inference.likelihood(world, me, policy, EXACT, _hidden(obs))
                assert inference.likelihood(world, me, policy, EXACT, _hidden(obs), cards=cards) == reference
                compared += 1
                discards_weighed += obs is after and policy(_before_discard(world)) != world.history[-1]
    assert compared >= 300 and discards_weighed >= 10


def _before_discard(world: DealState) -> DealState:
    """The world just before its last action (the dealer's discard)."""
    state = world.restarted()
    for action in world.history[:-1]:
        state.apply(action)
    return state
