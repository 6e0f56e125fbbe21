"""The protocol's contract, checked for every registered game, option preset and
legacy rules version by random play (in the spirit of OpenSpiel's ``random_sim_test``).

Each case plays ``CONTRACT_DEALS`` random deals (default 300 per game, shared
by its presets; raise it with the environment variable for a longer run) where
any seat may act whenever it has a legal action, in turn or out of turn, and
the referee acts when nobody can.  Along the way it checks:

* cards are conserved: no face is held or played more often than the deck has it;
* every legal action applies; an illegal one (in turn or out of turn) raises a
  ``GameError`` and changes nothing;
* every action lies in exactly one range of the game's declared action space;
* scores are zero-sum where the rules say so, and partners score alike;
* the record replays to the identical state (history, scores and every
  observation), also with the deal's cards written out instead of its seed;
* an observation leaks nothing: not the seed, and not which of two other seats
  holds which hand; a sampled world gives the observing seat the identical
  observation, and the worlds really differ from the true deal;
* an observation's ``legal`` is exactly the seat's ``legal_actions_for``;
* a sampled world's deal, restarted, replays its history to the same position.
"""

from __future__ import annotations

import json
import math
import os
import random
from collections import Counter
from typing import Any

import pytest

from tricktable.cards import face, parse_card
from tricktable.errors import GameError
from tricktable.core.protocol import Deal, DealState, GameSpec, GameState
from tricktable.catalog import replay
from tricktable.core.record import record_of
from tricktable.core.rng import derive_seed
from tricktable.catalog import ENTRIES, GameEntry, Seating

DEALS = int(os.environ.get("CONTRACT_DEALS", "300"))
CHECK_RATE = 0.05
"""The share of moments (besides the first and the last) at which the expensive
checks (illegal actions, sampled worlds) run."""


OPTION_CASES: dict[str, dict[str, dict[str, Any]]] = {
    "euchre": {
        "defend alone": {"defend_alone": True},
        "dealer's partner alone": {"dealers_partner_alone": True},
        "all options": {"defend_alone": True, "dealers_partner_alone": True, "farmers_hand": True,
                        "stick_the_dealer": False, "game_target": 5},
    },
    # Every Doppelkopf house rule at once, with and without nines (their superpigs differ).
    "doppelkopf": {
        "house all": {"schweinchen": True, "superschweinchen": True, "throwing_in": True, "bock": True,
                      "second_heart_ten": True},
        "house all without nines": {"schweinchen": True, "superschweinchen": True, "throwing_in": True,
                                    "bock": True, "without_nines": True},
        # The DDV tournament list (a match's rule: who deals, which deals count, who must play a
        # solo), with the DDV preset and with the DDV scoring on the standard rules.
        "ddv tournament list": {"preset": "ddv", "tournament_list": True},
        "ddv scoring tournament list": {"ddv_scoring": True, "tournament_list": True},
    },
}
"""Options that no preset switches on, played as cases of their own (``option:<name>``)."""


def cases() -> list[Any]:
    """Every game with its default options, each preset, each option case of
    ``OPTION_CASES`` and each older rules version it still replays
    (``GameSpec.legacy_rules``, as ``legacy:<version>``)."""
    out = []
    for game in ENTRIES:
        presets = [None, *game.spec.presets, *(f"option:{name}" for name in OPTION_CASES.get(game.name, {})),
                   *(f"legacy:{v}" for v in game.spec.legacy_rules)]
        for preset in presets:
            deals = math.ceil(DEALS / len(presets))
            out.append(pytest.param(game, preset, deals, id=f"{game.name}-{preset or 'default'}"))
    return out


def options_of(spec: GameSpec, preset: str | None) -> dict[str, Any]:
    if preset and preset.startswith("legacy:"):
        return spec.normalize_options(spec.legacy_rules[preset.removeprefix("legacy:")])
    if preset and preset.startswith("option:"):
        return spec.normalize_options(OPTION_CASES[spec.name][preset.removeprefix("option:")])
    return spec.normalize_options({"preset": preset} if preset else {})


# -- helpers on states ---------------------------------------------------------
def seat_actions(state: GameState) -> list[tuple[int, int]]:
    """Every (seat, action) a player may take now, in turn or out of turn."""
    return [(seat, action) for seat in range(4) for action in state.legal_actions_for(seat)]


def fingerprint(state: GameState) -> tuple[Any, ...]:
    return (list(state.history), state.to_move, tuple(json.dumps(state.view(s), sort_keys=True) for s in range(4)))


def card_faces(wire: dict[str, Any]) -> list[str]:
    """The card texts a wire observation shows in its hand and on the table."""
    played = [text for trick in wire.get("tricks", []) for _, text in trick["cards"]]
    return [*wire["hand"], *played, *(text for _, text in wire.get("trick", []))]


def check_cards_conserved(spec: GameSpec, state: GameState) -> None:
    deck = Counter(face(c) for c in spec.deck)
    seen: Counter[int] = Counter()
    wire = [state.view(seat) for seat in range(4)]
    for seat in range(4):
        seen.update(face(c) for c in state.observe(seat).hand)
    seen.update(parse_card(text) for text in card_faces(wire[0])[len(wire[0]["hand"]):])
    assert not seen - deck, f"cards held or played more often than the deck has them: {seen - deck}"


def check_illegal_actions_change_nothing(state: GameState, known: set[int], rng: random.Random) -> None:
    before = fingerprint(state)
    for seat in range(4):
        allowed = set(state.legal_actions_for(seat))
        candidates = sorted(known - allowed)
        tries = rng.sample(candidates, min(3, len(candidates))) + [-7, 10**9]
        for action in tries:
            with pytest.raises(GameError):
                state.apply_for(seat, action)
            assert fingerprint(state) == before, f"illegal {action} for seat {seat} changed the state"
        with pytest.raises(GameError):
            state.act(seat, "no such action")
        assert fingerprint(state) == before


def check_observations(game: GameEntry, state: GameState, rng: random.Random, stats: Counter[str]) -> None:
    spec = game.spec
    for seat in range(4):
        obs = state.observe(seat)
        assert obs.seat == seat and obs.to_move == state.to_move and obs.terminal == state.is_terminal()
        assert list(obs.legal) == [state.action_text(a) for a in state.legal_actions_for(seat)]
        assert obs.to_json() == state.view(seat)
        if state.is_terminal():
            continue
        try:
            world = spec.sample_world(obs, rng)
        except GameError as error:  # a sampler may fail, but never on a real position
            pytest.fail(f"no world for seat {seat} of a real position: {error}")
        assert world.observe(seat) == obs, "a sampled world shows the seat something else"
        check_restarted(world, seat)
        stats["worlds"] += 1
        true_hands = [sorted(state.observe(s).hand) for s in range(4) if s != seat]
        stats["worlds that differ"] += [sorted(world.observe(s).hand) for s in range(4) if s != seat] != true_hands


def check_restarted(world: GameState, seat: int) -> None:
    """A deal state restarted (``DealState.restarted``: what inference replays the
    others' decisions on) takes its history again to the same position."""
    assert isinstance(world, DealState)
    again = world.restarted()
    for action, actor in zip(world.history, world.actors):
        if actor == again.to_move:
            again.apply_any(action)
        else:
            again.apply_for(actor, action)
    assert again.observe(seat) == world.observe(seat), "a restarted deal replays to another position"


def check_no_leak_at_the_deal(spec: GameSpec, deal: Deal, options: dict[str, Any]) -> None:
    """Swapping two other seats' hands changes nothing the seat sees."""
    state = spec.new_deal(deal, options)
    for seat in range(4):
        wire = json.dumps(state.view(seat))
        assert deal.seed is None or deal.seed not in wire, "the deal's seed is in an observation"
        others = [s for s in range(4) if s != seat]
        a, b = others[0], others[1]
        if len(deal.hands[a]) != len(deal.hands[b]):
            continue
        hands = list(deal.hands)
        hands[a], hands[b] = hands[b], hands[a]
        swapped = spec.new_deal(Deal(deal.dealer, tuple(hands), deal.rest, None), options)
        assert swapped.view(seat) == json.loads(wire), f"seat {seat} can tell seats {a} and {b} apart"


def check_scores(game: GameEntry, state: GameState) -> None:
    points = state.returns()
    assert len(points) == 4 and all(isinstance(p, int) for p in points)
    if game.zero_sum:
        assert sum(points) == 0, points
    if game.seating is Seating.PARTNERS_OPPOSITE:
        assert points[0] == points[2] and points[1] == points[3], points


def check_replay(state: GameState, deal: Deal | None = None) -> None:
    """The record replays identically; a deal's record also with its cards
    written out instead of its seed."""
    records = [record_of(state).to_json()]
    if deal is not None:
        explicit = Deal(deal.dealer, deal.hands, deal.rest, None)
        records.append({**records[0], "deal": explicit.to_json()})
    for record in records:
        again = replay(json.dumps(record))
        assert again.history == state.history and again.returns() == state.returns()
        assert [again.view(s) for s in range(4)] == [state.view(s) for s in range(4)]


def check_action_space(spec: GameSpec, action: int) -> None:
    ranges = spec.actions.ranges_of(action)
    assert len(ranges) == 1, f"action {action} is in {[r.name for r in ranges]}, not in exactly one declared range"


# -- the random play ----------------------------------------------------------------
def play_deal(game: GameEntry, options: dict[str, Any], index: int, known: set[int], stats: Counter[str]) -> None:
    spec = game.spec
    rng = random.Random(f"{game.name}/{index}")
    deal = spec.deal_from_seed(derive_seed("contract", game.name, index), index % 4, options)
    assert sorted(face(c) for c in deal.all_cards()) == sorted(face(c) for c in spec.deck)
    check_no_leak_at_the_deal(spec, deal, options)
    state = spec.new_deal(deal, options)
    has_space = getattr(spec, "actions", None) is not None
    step = 0
    while not state.is_terminal():
        choices = seat_actions(state)
        if step == 0 or rng.random() < CHECK_RATE:
            check_cards_conserved(spec, state)
            check_illegal_actions_change_nothing(state, known, rng)
            check_observations(game, state, rng, stats)
        if choices:
            seat, action = rng.choice(choices)
            known.add(action)
            stats["out of turn"] += seat != state.to_move
            state.apply_for(seat, action)
        else:
            referee = state.referee_actions()
            assert referee, "nobody can act in a position that is not over"
            action = rng.choice(list(referee))
            state.apply_referee(action)
        if has_space:
            check_action_space(spec, action)
        step += 1
    assert not any(state.legal_actions_for(seat) for seat in range(4))
    check_scores(game, state)
    check_observations(game, state, rng, stats)
    check_replay(state, deal)


@pytest.mark.parametrize(("game", "preset", "deals"), cases())
def test_random_play_keeps_the_contract(game: GameEntry, preset: str | None, deals: int) -> None:
    options = options_of(game.spec, preset)
    known: set[int] = set()
    stats: Counter[str] = Counter()
    for index in range(deals):
        play_deal(game, options, index, known, stats)
    # The samplers really redraw the hidden cards (else the equal observations prove nothing).
    assert stats["worlds that differ"] > stats["worlds"] // 4, stats


def match_cases() -> list[Any]:
    """Every game with its default options, and each of its ``OPTION_CASES`` (bock rounds
    are a match's rule)."""
    return [pytest.param(game, name, id=f"{game.name}-{name or 'default'}")
            for game in ENTRIES for name in (None, *OPTION_CASES.get(game.name, {}))]


@pytest.mark.parametrize(("game", "option_set"), match_cases())
def test_a_random_match_replays_and_its_observations_are_consistent(game: GameEntry, option_set: str | None) -> None:
    spec = game.spec
    rng = random.Random(game.name)
    options = spec.normalize_options(OPTION_CASES[game.name][option_set] if option_set else {})
    match = spec.new_match(derive_seed("contract match", game.name), options)
    whole = bool(options.get("tournament_list"))  # the list decides the match's end: play all of it
    stats: Counter[str] = Counter()
    for step in range(4000 if whole else 600):
        if match.is_terminal():
            break
        choices = seat_actions(match)
        if choices:
            match.apply_for(*rng.choice(choices))
        else:
            match.apply_referee(rng.choice(list(match.referee_actions())))
        if step % 97 == 0:
            for seat in range(4):
                obs = match.observe(seat)
                assert obs.match is not None and obs.to_json() == match.view(seat)
                assert list(obs.legal) == [match.action_text(a) for a in match.legal_actions_for(seat)]
            if whole and not match.is_terminal():
                check_cards_conserved(spec, match.current)
                check_observations(game, match.current, rng, stats)
    if whole:
        assert match.is_terminal()
    if option_set:
        check_scores(game, match)  # bock multiplies every seat's points alike
    check_replay(match)


@pytest.mark.parametrize("game", ENTRIES, ids=[g.name for g in ENTRIES])
def test_the_action_space_is_declared_without_overlaps(game: GameEntry) -> None:
    space = getattr(game.spec, "actions", None)
    if space is None:
        pytest.xfail(f"{game.name} declares no action space yet")
    names = [r.name for r in space.ranges]
    assert len(names) == len(set(names)), names
    assert space.overlaps() == []
