"""Property tests over thousands of random deals of Hidden Trump, Be-Ranga and
Mendikot, for their option sets (shared/rules/court-piece.md, "Relatives").

Trick winners, trump, the pile, the tens, the end of a deal and the score are
recomputed here from the spec's words (and the documented decisions) out of the
public record, independently of the state machine.
"""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tricktable.cards import parse_card
from tricktable.core.rng import derive_seed
from tricktable.games.courtpiece import BE_RANGA, HIDDEN_TRUMP, MENDIKOT
from tricktable.games.courtpiece.actions import REVEAL

from .helpers import card_words, pile_counts
from .relatives_helpers import conserved, random_deal

ORDER = "2 3 4 5 6 7 8 9 10 J Q K A".split()
HOUSE_RULES = ("ace_on_ace", "trump_ace_cannot_seal", "no_pile_on_11_12")
COMBINATIONS = [dict(zip(HOUSE_RULES, bits)) for bits in itertools.product((False, True), repeat=3)]
NEW_CARDS = st.sampled_from(["person", "any seat", "off"])
HIDDEN_OPTIONS = st.fixed_dictionaries({"counting": st.sampled_from(["points", "kots"]), "new_cards": NEW_CARDS,
                                        "change_trump": st.booleans(), "first_game": st.booleans()})
BE_RANGA_OPTIONS = st.fixed_dictionaries({"counting": st.sampled_from(["points", "kots"]), "new_cards": NEW_CARDS})
MENDIKOT_OPTIONS = st.fixed_dictionaries({"new_cards": NEW_CARDS, "first_game": st.booleans()})
SEEDS = st.text(min_size=1, max_size=10)
FAMILY_TABLE = {"points": {"callers_won": 1, "others_won": 2, "callers_kot": 3, "goon_kot": 4},
                "kots": {"callers_won": 0, "others_won": 0, "callers_kot": 1, "goon_kot": 3}}
MENDIKOT_TABLE = {"won": 1, "mendikot": 2, "whitewash": 3}


# -- the spec restated ------------------------------------------------------------------
def seats_from(leader: int) -> list[int]:
    return [leader, (leader + 3) % 4, (leader + 2) % 4, (leader + 1) % 4]


def public_tricks(view) -> list[tuple[int, list[str], int | None]]:
    """(leader, cards, position of a reveal in it or None) per trick, from the public action list."""
    tricks, cards, reveal_at, leader = [], [], None, None
    for seat, text in view["actions"]:
        if text == "reveal":
            reveal_at = len(cards)
        elif text.startswith("play "):
            leader = seat if not cards else leader
            cards.append(text.split()[1])
            if len(cards) == 4:
                tricks.append((leader, cards, reveal_at))
                cards, reveal_at = [], None
    return tricks


def winner_of(leader: int, cards: list[str], is_trump) -> int:
    """A card of another suit wins only as a trump (``is_trump(i)``); else the highest of the led suit."""
    led = cards[0][-1]
    trumps = [i for i in range(4) if cards[i][-1] != led and is_trump(i)]
    pool = trumps or [i for i in range(4) if cards[i][-1] == led]
    best = max(pool, key=lambda i: ORDER.index(cards[i][:-1]))
    return seats_from(leader)[best]


def hidden_winners(state) -> list[int]:
    """Hidden Trump / Mendikot: only trumps played from the reveal on count."""
    view = state.view(0)
    trump = None if view["trump"] is None else view["trump"]
    winners, revealed = [], view["revealed_card"] is None  # an open trump (flip) counts from the start
    for leader, cards, reveal_at in public_tricks(view):
        start = 0 if revealed else (reveal_at if reveal_at is not None else 4)
        winners.append(winner_of(leader, cards, lambda i: trump is not None and cards[i][-1] == trump and i >= start))
        revealed = revealed or reveal_at is not None
    return winners


def be_ranga_trump(state) -> tuple[str | None, int]:
    """The first card that does not follow suit fixes trump: (suit, trick number)."""
    for number, (_, cards, _) in enumerate(public_tricks(state.view(0)), start=1):
        off = [c for c in cards if c[-1] != cards[0][-1]]
        if off:
            return off[0][-1], number
    return None, 0


def family_outcome(counted, callers) -> tuple[str, int]:
    winners = 0 if counted[0] > counted[1] else 1
    kot = counted[winners] == 13
    if winners == callers:
        return ("callers_kot" if kot else "callers_won"), winners
    return ("goon_kot" if kot else "others_won"), winners


def check_single_sar_end(state, winners: list[int]) -> None:
    counted, end = [0, 0], 13
    for number, winner in enumerate(winners, start=1):
        counted[winner % 2] += 1
        if max(counted) >= 7 and min(counted) > 0:
            end = number
            break
    assert counted == state.captured and len(state.tricks) == end


def check_score(state, outcome: str, winners: int, points: int) -> None:
    assert (state.outcome, state.winners) == (outcome, winners)
    assert state.returns() == [points if seat % 2 == winners else 0 for seat in range(4)]


def thrown_in(state) -> bool:
    if state.outcome == "new_cards":
        assert state.returns() == [0, 0, 0, 0]
        return True
    return False


# -- rule checks along the way ----------------------------------------------------------
def hidden_rules(state) -> None:
    """After every action: cards conserved; ``reveal`` only for a player who cannot
    follow (or holds nothing but the face-down card); after it, trump if able."""
    conserved(state)
    if state.is_terminal():
        return
    seat, hand = state.to_move, state.hands[state.to_move]
    legal = state.legal_actions()
    if REVEAL in legal:
        led = state.trick[0] // 13 if state.trick else None
        assert not hand or (led is not None and not any(hand >> c & 1 for c in range(led * 13, led * 13 + 13)))
    if state.history and state.history[-1] == REVEAL:
        trumps = [c for c in range(52) if hand >> c & 1 and c // 13 == state.trump]
        plays = [a for a in legal if a < 52]
        assert plays == trumps if trumps else plays
        assert state.view(seat)["revealed_by"] == seat


@settings(max_examples=2000)
@given(SEEDS, st.integers(0, 3), HIDDEN_OPTIONS, st.integers(0, 2**32))
def test_hidden_trump_deals_conserve_cards_follow_the_reveal_and_score_single_sar(seed, dealer, options, rng_seed):
    state = random_deal(HIDDEN_TRUMP, seed, dealer, options, rng_seed, check=hidden_rules)
    if thrown_in(state):
        return
    winners = hidden_winners(state)
    assert winners == [w for _, _, w in state.tricks]
    check_single_sar_end(state, winners)
    outcome, team = family_outcome(state.captured, state.caller % 2)
    check_score(state, outcome, team, FAMILY_TABLE[options["counting"]][outcome])


@settings(max_examples=2000)
@given(SEEDS, st.integers(0, 3), MENDIKOT_OPTIONS, st.integers(0, 2**32))
def test_mendikot_deals_play_out_and_tens_decide(seed, dealer, options, rng_seed):
    state = random_deal(MENDIKOT, seed, dealer, options, rng_seed, check=hidden_rules)
    if thrown_in(state):
        return
    winners = hidden_winners(state)
    assert winners == [w for _, _, w in state.tricks] and len(winners) == 13
    tens, tricks = [0, 0], [0, 0]
    for (_, cards, _), winner in zip(public_tricks(state.view(1)), winners):
        tricks[winner % 2] += 1
        tens[winner % 2] += sum(c.startswith("10") for c in cards)
    assert tens == state.tens and tricks == state.captured and sum(tens) == 4
    team = (0 if tens[0] > tens[1] else 1) if tens[0] != tens[1] else (0 if tricks[0] >= 7 else 1)
    outcome = "whitewash" if tricks[team] == 13 else "mendikot" if tens[team] == 4 else "won"
    check_score(state, outcome, team, MENDIKOT_TABLE[outcome])
    keys = [line.key for line in state.breakdown()]
    assert keys == ["tricks", "tricks", "tens", "tens", outcome]


@pytest.mark.parametrize("house_rules", COMBINATIONS, ids=lambda r: "+".join(k for k, v in r.items() if v) or "none")
@settings(max_examples=1000)
@given(SEEDS, st.integers(0, 3), BE_RANGA_OPTIONS, st.integers(0, 2**32))
def test_be_ranga_deals_set_trump_by_the_first_discard_and_pile_up(house_rules, seed, dealer, options, rng_seed):
    state = random_deal(BE_RANGA, seed, dealer, {**options, **house_rules}, rng_seed, check=conserved)
    if thrown_in(state):
        return
    trump, trump_trick = be_ranga_trump(state)
    assert state.view(2)["trump"] == trump and (state.view(2)["trump_trick"] or 0) == trump_trick
    won = []
    for number, (leader, cards, _) in enumerate(public_tricks(state.view(3)), start=1):
        # The trump-setting card and every card of its suit after it count as trumps.
        winner = winner_of(leader, cards, lambda i: cards[i][-1] == trump and number >= trump_trick)
        assert winner == state.tricks[number - 1][2]
        won.append((winner, cards[seats_from(leader).index(winner)]))
    # No capture before the trick after the trump-setting trick.
    counted, end = pile_counts(won, house_rules, trump, lambda number: bool(trump_trick) and number > trump_trick)
    assert counted == state.captured and end == len(state.tricks) == len(won) and state.pile == 0
    outcome, team = family_outcome(counted, state.caller % 2)
    check_score(state, outcome, team, FAMILY_TABLE[options["counting"]][outcome])


# -- views, records, sampled worlds ---------------------------------------------------------
def check_views(state, seed_text: str) -> None:
    """Nobody sees another hand, the seed, or the face-down card (but its owner)."""
    played = {c for _, cards, _ in state.tricks for c in cards} | set(state.trick)
    flip = {state.flip_card} if state.flip_card >= 0 else set()
    revealed = {state.revealed} if getattr(state, "revealed", -1) >= 0 else set()
    down = getattr(state, "down", -1)
    for seat in range(4):
        view = state.view(seat)
        visible = state.hands[seat] if view["all_dealt"] else state.first_five[seat]
        mine = {c for c in range(52) if visible >> c & 1}
        own_down = {down} if down >= 0 and seat == state.trump_by else set()
        assert card_words(view) <= mine | played | flip | revealed | own_down, "a view names a card it may not know"
        assert {parse_card(c) for c in view["hand"]} == mine
        assert seed_text not in json.dumps(view)
        # Out of turn a seat may only ask for new cards (court-piece.md, "New cards").
        assert view["legal"] == (state.legal_texts() if state.to_move == seat else
                                 ["new cards"] if state.may_ask_new_cards(seat) else [])
        if down >= 0 and seat != state.trump_by:
            assert view["trump"] is None and view["hidden_card"] is None
            assert all(text in ("hide ?", "change trump ?") for actor, text in view["actions"]
                       if actor == state.trump_by and text.split()[0] in ("hide", "change"))


CASES = ([("hidden-trump", HIDDEN_TRUMP, HIDDEN_OPTIONS, {}), ("mendikot", MENDIKOT, MENDIKOT_OPTIONS, {})]
         + [("be-ranga:" + ("+".join(k for k, v in r.items() if v) or "none"), BE_RANGA, BE_RANGA_OPTIONS, r)
            for r in COMBINATIONS[::3]])


@pytest.mark.parametrize("name,spec,strategy,house_rules", CASES, ids=[c[0] for c in CASES])
@settings(max_examples=300)
@given(data=st.data(), seed=SEEDS, dealer=st.integers(0, 3), rng_seed=st.integers(0, 2**32), stop=st.integers(0, 60))
def test_views_leak_nothing_at_any_moment(name, spec, strategy, house_rules, data, seed, dealer, rng_seed, stop):
    """(Record replay and sampled worlds: tests/contract.)"""
    options = {**data.draw(strategy), **house_rules}
    state = random_deal(spec, seed, dealer, options, rng_seed, stop_after=stop)
    check_views(state, derive_seed("relatives", seed))
