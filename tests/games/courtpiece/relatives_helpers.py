"""Shared pieces of the relatives' tests: explicit deals and random play."""

from __future__ import annotations

from typing import Any

from tricktable.games.courtpiece import BE_RANGA, HIDDEN_TRUMP, MENDIKOT
from tricktable.games.courtpiece.rules import DECK
from tricktable.games.courtpiece.state import CourtPieceState

from .helpers import random_deal as family_random_deal

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
    """The family's random playout, with this suite's own seed label and timeouts."""
    return family_random_deal(spec, seed, dealer, options, rng_seed, stop_after, check,
                              seed_label="relatives", referee_rate=0.2)


def conserved(state) -> None:
    """52 cards: hands, the face-down card, the cards played; never twice; counted
    tricks + pile = tricks played."""
    played = [c for _, cards, _ in state.tricks for c in cards] + list(state.trick)
    held = [c for hand in state.hands for c in range(52) if hand >> c & 1]
    down = [state.down] if getattr(state, "down", -1) >= 0 else []
    assert sorted(played + held + down) == sorted(DECK)
    assert sum(state.captured) + getattr(state, "pile", 0) == len(state.tricks)
