"""Helpers for the Doppelkopf tests: explicit deals, steered random playouts.

They are fixtures (session scoped, so hypothesis tests may use them) because the
test directories are not packages."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable

import pytest

from tricktable.cards import COPY_OFFSET, card_text, parse_cards
from tricktable.core.protocol import Deal
from tricktable.games.doppelkopf import SPEC
from tricktable.games.doppelkopf import state as st
from tricktable.games.doppelkopf.rules import DECK, NORMAL, QC, TRUMP_MASK


def make_deal(hands: list[str], dealer: int = 3) -> Deal:
    """A deal from four hands written as text (copies get their ids in order)."""
    return SPEC.deal_from_json({"dealer": dealer, "hands": hands, "rest": ""})


def fill_deal(partial: list[str], dealer: int = 3, seed: int = 0) -> Deal:
    """A deal where each seat holds at least the cards written for it; the rest
    of the deck is spread over the seats at random (fixed by ``seed``)."""
    rng = random.Random(seed)
    left = Counter(c % COPY_OFFSET for c in DECK)
    hands = []
    for text in partial:
        cards = parse_cards(text)
        left.subtract(cards)
        hands.append(cards)
    assert all(n >= 0 for n in left.values()), "more than two copies of a card"
    rest = list(left.elements())
    rng.shuffle(rest)
    for hand in hands:
        while len(hand) < 12:
            hand.append(rest.pop())
    return make_deal([" ".join(card_text(c) for c in hand) for hand in hands], dealer)


def start(hands: list[str], dealer: int = 3, seed: int = 0, **options: Any) -> st.DoppelkopfState:
    """A deal from (possibly partial) hands, options by name."""
    return SPEC.new_deal(fill_deal(hands, dealer, seed), SPEC.normalize_options(options))


def advance(state: st.DoppelkopfState, rng: random.Random, until: Callable[[st.DoppelkopfState], bool]) -> st.DoppelkopfState:
    """Play random cards (never announcing) until ``until`` holds."""
    while not until(state):
        legal = [a for a in state.legal_actions() if a < 52]
        state.apply(rng.choice(legal))
    return state


def run(state: st.DoppelkopfState, *texts: str) -> st.DoppelkopfState:
    """Apply actions given as text, each by the seat to move."""
    for text in texts:
        state.act(state.to_move, text)
    return state


def shaped_deal(rng: random.Random, dealer: int, shape: str) -> Deal:
    """A random deal where some seat has a marriage or a poverty hand
    (``shape`` = "marriage", "poverty", "contested" — two poor hands, or a poor
    and a marriage hand — or "any")."""
    cards = list(DECK)
    rng.shuffle(cards)
    seat = rng.randrange(4)
    hands: list[list[int]] = [[], [], [], []]
    if shape == "contested":
        return _contested_deal(rng, dealer, cards)
    if shape == "marriage":
        hands[seat] = [QC, QC + COPY_OFFSET]
    elif shape == "poverty":
        trumps = [c for c in cards if TRUMP_MASK[NORMAL] >> (c % COPY_OFFSET) & 1]
        plain = [c for c in cards if not TRUMP_MASK[NORMAL] >> (c % COPY_OFFSET) & 1]
        count = rng.randint(0, 3)
        hands[seat] = trumps[:count] + plain[: 12 - count]
    rest = [c for c in cards if c not in hands[seat]]
    for s in range(4):
        while len(hands[s]) < 12:
            hands[s].append(rest.pop())
    return Deal(dealer, tuple(tuple(h) for h in hands))


def _contested_deal(rng: random.Random, dealer: int, cards: list[int]) -> Deal:
    is_trump = lambda c: TRUMP_MASK[NORMAL] >> (c % COPY_OFFSET) & 1  # noqa: E731
    trumps = [c for c in cards if is_trump(c) and c % COPY_OFFSET != QC]
    plain = [c for c in cards if not is_trump(c)]
    first, second = rng.sample(range(4), 2)
    hands: list[list[int]] = [[], [], [], []]
    count = rng.randint(2, 3)  # 22 plain cards: two poor hands need at least 9 + 9
    hands[first] = [trumps.pop() for _ in range(count)] + [plain.pop() for _ in range(12 - count)]
    if rng.random() < 0.3:
        hands[second] = [QC, QC + COPY_OFFSET]
    else:
        count = rng.randint(2, 3)
        hands[second] = [trumps.pop() for _ in range(count)] + [plain.pop() for _ in range(12 - count)]
    rest = [c for c in cards if not any(c in h for h in hands)]
    for s in range(4):
        while len(hands[s]) < 12:
            hands[s].append(rest.pop())
    return Deal(dealer, tuple(tuple(h) for h in hands))


@dataclass
class Policy:
    """How a steered random player decides: ``reserve`` picks the reservation
    ("random", "healthy", "marriage", "poverty" or a solo action), announcements
    are made with probability ``announce``, a poverty is accepted with
    probability ``accept``."""

    reserve: str | int = "random"
    announce: float = 0.2
    accept: float = 0.5

    def choose(self, state: st.DoppelkopfState, rng: random.Random) -> int:
        legal = state.legal_actions()
        phase = state.phase
        if phase == st.RESERVING:
            wanted = {"healthy": st.HEALTHY, "marriage": st.MARRIAGE, "poverty": st.POVERTY}.get(
                self.reserve, self.reserve)  # type: ignore[arg-type]
            if self.reserve == "random":
                return rng.choice(legal)
            if self.reserve == "contested":  # mostly poverty or marriage, at times a solo
                special = [a for a in legal if a in (st.MARRIAGE, st.POVERTY)]
                roll = rng.random()
                return rng.choice(special) if special and roll < 0.7 else st.HEALTHY if roll < 0.85 else rng.choice(legal)
            return wanted if wanted in legal else st.HEALTHY
        if phase == st.OFFERING:
            return st.ACCEPT if rng.random() < self.accept else st.DECLINE
        if phase == st.PLAYING and legal[0] >= 52 and rng.random() >= self.announce:
            return rng.choice(legal[1:])
        return rng.choice(legal)


    def step(self, state: st.DoppelkopfState, rng: random.Random) -> None:
        """One action: now and then a seat that is not to move announces (out of
        turn, as the rules allow), else the seat to move acts."""
        others = [s for s in range(4) if s != state.to_move and state.legal_actions_for(s)]
        if others and rng.random() < self.announce / 2:
            seat = rng.choice(others)
            state.apply_for(seat, state.legal_actions_for(seat)[0])
            return
        state.apply(self.choose(state, rng))


def play_out(state: st.DoppelkopfState, rng: random.Random, policy: Policy,
             stop: Callable[[st.DoppelkopfState], bool] = lambda s: False) -> st.DoppelkopfState:
    while not state.is_terminal() and not stop(state):
        policy.step(state, rng)
    return state


class Helpers:
    make_deal = staticmethod(make_deal)
    start = staticmethod(start)
    fill_deal = staticmethod(fill_deal)
    advance = staticmethod(advance)
    run = staticmethod(run)
    shaped_deal = staticmethod(shaped_deal)
    play_out = staticmethod(play_out)
    Policy = Policy


@pytest.fixture(scope="session")
def dk() -> type[Helpers]:
    return Helpers
