"""Shared pieces of the Court Piece family's bot tests: tables, explicit deals, random views."""

from __future__ import annotations

import random
from typing import Any

from tricktable.bots import relatives as rb
from tricktable.bots.courtpiece import Table
from tricktable.cards import card_text, parse_card, parse_cards
from tricktable.core.observation import Observation
from tricktable.core.rng import derive_seed
from tricktable.games.courtpiece import BE_RANGA, HIDDEN_TRUMP, MENDIKOT
from tricktable.games.courtpiece.actions import REVEAL
from tricktable.games.courtpiece.rules import NO_TRUMP
from tricktable.games.courtpiece.state import CourtPieceState

SPECS = {"hidden-trump": HIDDEN_TRUMP, "be-ranga": BE_RANGA, "mendikot": MENDIKOT}


def table(seat: int, hand: str, trick: list[tuple[int, str]], trump: int = NO_TRUMP, played: str = "",
          pile: int = -1, open_seat: int = -1, tricks_played: int = 0,
          voids: dict[int, int] | None = None) -> Table:
    """What ``seat`` knows: its hand, the trick so far, the cards played before."""
    gone = 0
    for c in parse_cards(played) + [parse_card(t) for _, t in trick]:
        gone |= 1 << c
    void_masks = [0, 0, 0, 0]
    for s, suit in (voids or {}).items():
        void_masks[s] |= 1 << suit
    return Table(seat, sum(1 << c for c in parse_cards(hand)), trump, [(s, parse_card(t)) for s, t in trick], gone,
                 void_masks, pile, open_seat, tricks_played)


def legal_of(t: Table) -> list[int]:
    legal = [c for c in range(52) if t.hand >> c & 1]
    if t.trick:
        led = t.trick[0][1] // 13
        legal = [c for c in legal if c // 13 == led] or legal
    return legal


def face_down(t: Table, hider: int, card: str = "") -> Table:
    """``t`` while ``hider``'s card lies face down (trump hidden); ``card``: that card,
    when ``t``'s seat is the hider and knows it."""
    t.trump_hidden, t.trump_by, t.own_down = True, hider, parse_card(card) if card else -1
    return t


def decide(t: Table, game: str, legal: list[int] | None = None, reveal: bool = False) -> str:
    """The relative's rules (``relatives.decide``: the kernel's card play) for ``t``'s
    seat among ``legal`` (default: the cards it may play), with "reveal" offered when
    ``reveal``: a card's text, or "reveal"."""
    actions = list(legal_of(t) if legal is None else legal) + ([REVEAL] if reveal else [])
    choice = rb.decide(t, actions, game)
    return "reveal" if choice == REVEAL else card_text(choice)


def new_state(game: str, hands: list[str], dealer: int = 0, **options: Any) -> CourtPieceState:
    """An explicit deal (each hand lists its first five cards first); new cards off."""
    spec = SPECS[game]
    deal = spec.deal_from_json({"dealer": dealer, "hands": hands, "rest": ""})
    return spec.new_deal(deal, spec.normalize_options({"new_cards": "off", **options}))


def play(state: CourtPieceState, *texts: str) -> None:
    for text in texts:
        state.act(state.to_move, text if " " in text or text == "reveal" else f"play {text}")


def client_view(state: CourtPieceState) -> Observation:
    """The observation of the seat to move (all a bot is handed)."""
    return state.observe(state.to_move)


def random_state(game: str, seed: int, steps: int) -> CourtPieceState:
    """A deal after ``steps`` random actions (new cards offered to every seat, the
    referee's timeout now and then, so flips happen too)."""
    spec = SPECS[game]
    options = spec.normalize_options({"new_cards": "any seat"})
    state = spec.new_deal(spec.deal_from_seed(derive_seed("bots-relatives", seed), seed % 4, options), options)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        referee = state.referee_actions()
        if referee and rng.random() < 0.15:
            state.apply_referee(referee[0])
            continue
        legal = [a for a in state.legal_actions() if state.action_text(a) != "new cards"]
        state.apply(rng.choice(legal))
    return state
