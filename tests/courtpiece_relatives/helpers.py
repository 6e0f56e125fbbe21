"""Shared pieces of the relatives' tests: explicit deals and random play."""

from __future__ import annotations

import random
from typing import Any

from tricktable.cards import parse_card
from tricktable.core.rng import derive_seed
from tricktable.games.courtpiece import BE_RANGA, HIDDEN_TRUMP, MENDIKOT
from tricktable.games.courtpiece.rules import DECK
from tricktable.games.courtpiece.state import CourtPieceState

SPECS = {"hidden-trump": HIDDEN_TRUMP, "be-ranga": BE_RANGA, "mendikot": MENDIKOT}


def deal_of(hands: list[str], dealer: int = 0) -> dict[str, Any]:
    """An explicit deal; each hand lists its first five cards first."""
    return {"dealer": dealer, "hands": hands, "rest": ""}


def new_state(game: str, hands: list[str], dealer: int = 0, **options: Any) -> CourtPieceState:
    spec = SPECS[game]
    return spec.new_deal(spec.deal_from_json(deal_of(hands, dealer)), spec.normalize_options(options))


def play(state: CourtPieceState, *texts: str) -> None:
    """Each text is played by the seat to move."""
    for text in texts:
        state.act(state.to_move, text if " " in text or text == "reveal" else f"play {text}")


def random_deal(spec, seed: str, dealer: int, options: dict, rng_seed: int, stop_after=None, check=None):
    """Play a seeded deal with random actions; the referee times out now and then."""
    # A derived seed is long enough that finding it in a view would mean a leak.
    deal = spec.deal_from_seed(derive_seed("relatives", seed), dealer, options)
    state = spec.new_deal(deal, spec.normalize_options(options))
    rng = random.Random(rng_seed)
    steps = 0
    while not state.is_terminal() and (stop_after is None or steps < stop_after):
        referee = state.referee_actions()
        if referee and rng.random() < 0.2:
            state.apply_referee(rng.choice(referee))
        else:
            state.apply(rng.choice(state.legal_actions()))
        steps += 1
        if check:
            check(state)
    return state


def conserved(state) -> None:
    """52 cards: hands, the face-down card, the cards played; never twice; counted
    tricks + pile = tricks played."""
    played = [c for _, cards, _ in state.tricks for c in cards] + list(state.trick)
    held = [c for hand in state.hands for c in range(52) if hand >> c & 1]
    down = [state.down] if getattr(state, "down", -1) >= 0 else []
    assert sorted(played + held + down) == sorted(DECK)
    assert sum(state.captured) + getattr(state, "pile", 0) == len(state.tricks)


def card_words(value) -> set[int]:
    """Every card named anywhere in a JSON value."""
    if isinstance(value, dict):
        return set().union(*(card_words(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(card_words(v) for v in value)) if value else set()
    found = set()
    if isinstance(value, str):
        for word in value.split():
            try:
                found.add(parse_card(word))
            except ValueError:
                pass
    return found
