"""Property tests over thousands of random Court Piece deals, for every
combination of Double Sar's house rules (shared/rules/court-piece.md).

Trick winners, the pile, the end of the deal and the score are recomputed here
from the spec's words, independently of the state machine.
"""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tricktable.cards import card_text, parse_card
from tricktable.core.rng import derive_seed
from tricktable.games.courtpiece import DOUBLE_SAR, SINGLE_SAR
from tricktable.games.courtpiece.rules import DECK

from .helpers import card_words, pile_counts, random_deal

HOUSE_RULES = ("ace_on_ace", "trump_ace_cannot_seal", "no_pile_on_11_12")
COMBINATIONS = [dict(zip(HOUSE_RULES, bits)) for bits in itertools.product((False, True), repeat=3)]
EXTRAS = st.fixed_dictionaries({
    "counting": st.sampled_from(["points", "kots"]),
    "new_cards": st.sampled_from(["person", "any seat", "off"]),
    "change_trump": st.booleans(),
    "first_game": st.booleans(),
})
SEEDS = st.text(min_size=1, max_size=10)
TABLE = {"points": {"callers_won": 1, "others_won": 2, "callers_kot": 3, "goon_kot": 4},
         "kots": {"callers_won": 0, "others_won": 0, "callers_kot": 1, "goon_kot": 3}}


def conserved(state) -> None:
    """52 cards: the hands, the cards played; never twice; counted tricks + pile = tricks played."""
    played = [c for _, cards, _ in state.tricks for c in cards] + list(state.trick)
    held = [c for hand in state.hands for c in range(52) if hand >> c & 1]
    assert sorted(played + held) == sorted(DECK)
    pile = getattr(state, "pile", 0)
    assert sum(state.captured) + pile == len(state.tricks)


# -- the spec restated ---------------------------------------------------------------
def spec_winner(leader: int, cards: tuple[int, ...], trump: str) -> int:
    texts = [card_text(c) for c in cards]
    led = texts[0][-1]
    order = "2 3 4 5 6 7 8 9 10 J Q K A".split()

    def strength(text):
        if text[-1] == trump:
            return 100 + order.index(text[:-1])
        return order.index(text[:-1]) if text[-1] == led else -1

    best = max(range(4), key=lambda i: strength(texts[i]))
    return [leader, (leader + 3) % 4, (leader + 2) % 4, (leader + 1) % 4][best]


def spec_counts(state, pile_rules: dict | None) -> tuple[list[int], int]:
    """(tricks counted per team, the trick after which the deal ends)."""
    trump = "CDHS"[state.trump]
    won = []
    for leader, cards, winner in state.tricks:
        assert winner == spec_winner(leader, cards, trump)
        seats = [leader, (leader + 3) % 4, (leader + 2) % 4, (leader + 1) % 4]
        won.append((winner, card_text(cards[seats.index(winner)])))
    return pile_counts(won, pile_rules, trump)


def check_finished(state, pile_rules) -> None:
    if state.outcome == "new_cards":
        assert state.returns() == [0, 0, 0, 0] and not state.tricks
        return
    counted, end = spec_counts(state, pile_rules)
    assert counted == state.captured and end == len(state.tricks)
    winners = 0 if counted[0] > counted[1] else 1
    callers = state.caller % 2
    kot = counted[winners] == 13
    outcome = ("callers_kot" if kot else "callers_won") if winners == callers else ("goon_kot" if kot else "others_won")
    assert (state.outcome, state.winners) == (outcome, winners)
    points = TABLE[state.options["counting"]][outcome]
    assert state.returns() == [points if seat % 2 == winners else 0 for seat in range(4)]


@pytest.mark.parametrize("house_rules", COMBINATIONS, ids=lambda r: "+".join(k for k, v in r.items() if v) or "none")
@settings(max_examples=1000)
@given(SEEDS, st.integers(0, 3), EXTRAS, st.integers(0, 2**32))
def test_double_sar_cards_conserved_pile_accounted_scores_tabled(house_rules, seed, dealer, extras, rng_seed):
    options = {**extras, **house_rules}
    state = random_deal(DOUBLE_SAR, seed, dealer, options, rng_seed, check=conserved)
    assert state.is_terminal() and state.pile == 0
    check_finished(state, house_rules)


@settings(max_examples=2000)
@given(SEEDS, st.integers(0, 3), EXTRAS, st.integers(0, 2**32))
def test_single_sar_cards_conserved_tricks_counted_scores_tabled(seed, dealer, extras, rng_seed):
    state = random_deal(SINGLE_SAR, seed, dealer, extras, rng_seed, check=conserved)
    assert state.is_terminal()
    check_finished(state, None)


# -- views, records, sampled worlds --------------------------------------------------------
def check_views(state, seed_text: str) -> None:
    played = {c for _, cards, _ in state.tricks for c in cards} | set(state.trick)
    for seat in range(4):
        view = state.view(seat)
        visible = state.hands[seat] if view["all_dealt"] else state.first_five[seat]
        mine = {c for c in range(52) if visible >> c & 1}
        flip = {state.flip_card} if state.flip_card >= 0 else set()
        assert card_words(view) <= mine | played | flip, "a view names a card it may not know"
        assert {parse_card(c) for c in view["hand"]} == mine
        assert seed_text not in json.dumps(view)
        # Out of turn a seat may only ask for new cards (court-piece.md, "New cards").
        assert view["legal"] == (state.legal_texts() if state.to_move == seat else
                                 ["new cards"] if state.may_ask_new_cards(seat) else [])


@pytest.mark.parametrize("spec,house_rules", [(SINGLE_SAR, {})] + [(DOUBLE_SAR, r) for r in COMBINATIONS],
                         ids=["single-sar"] + ["double-sar:" + ("+".join(k for k, v in r.items() if v) or "none")
                                                for r in COMBINATIONS])
@settings(max_examples=250)
@given(SEEDS, st.integers(0, 3), EXTRAS, st.integers(0, 2**32), st.integers(0, 60))
def test_views_leak_nothing_at_any_moment(spec, house_rules, seed, dealer, extras, rng_seed, stop):
    """(Record replay and sampled worlds: tests/contract.)"""
    options = {**extras, **house_rules}
    state = random_deal(spec, seed, dealer, options, rng_seed, stop_after=stop)
    check_views(state, derive_seed("property", seed))
