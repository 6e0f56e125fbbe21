"""Doppelkopf: one expert decision per test, and the bots' properties."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from lab.arena import arena
from tricktable.bots import doppelkopf as db
from tricktable.bots import make_bot
from tricktable.cards import card_text, parse_card, parse_cards
from tricktable.core.observation import Observation
from tricktable.core.rng import derive_seed
from tricktable.games.doppelkopf import SPEC
from tricktable.games.doppelkopf.observation import Contract, Phase, Situation, seen_mask
from tricktable.games.doppelkopf.rules import NORMAL


def table(seat: int, hand: str, trick: list[tuple[int, str]], partners: set[int], played: str = "") -> Situation:
    """A play situation of a normal game; ``played`` lists earlier cards (none led a plain suit)."""
    faces = parse_cards(hand)
    plays = tuple((s, parse_card(c)) for s, c in trick)
    seen = seen_mask([f for _, f in plays] + parse_cards(played) + faces)
    return Situation(seat, Phase.PLAYING, Contract.NORMAL, NORMAL, tuple(sorted(faces)), plays, seen, 0,
                     frozenset(partners))


def play(t: Situation) -> str:
    legal = sorted(set(t.hand))
    if t.trick:
        led = db.SUIT[NORMAL][t.trick[0][1]]
        legal = [f for f in legal if db.SUIT[NORMAL][f] == led] or legal
    return card_text(db.choose_card(t, legal))


def test_do_not_lose_the_fox_to_the_other_team():
    # West (an opponent) leads 9D; East, also an opponent, plays after us.
    assert play(table(2, "AD 10D 9C", [(1, "9D")], partners={0})) == "10D"


def test_grease_a_trick_the_partner_surely_wins():
    # Partner led the first 10H (of two equal cards the first wins): it holds.
    assert play(table(2, "AD 9D QD AC", [(0, "10H"), (1, "9D")], partners={0})) == "AD"


def test_do_not_grease_a_trick_of_an_unknown_player():
    assert play(table(2, "AD 9D QD AC", [(0, "10H"), (1, "9D")], partners=set())) == "9D"


def test_lead_a_black_ace_while_the_suit_is_fresh():
    assert play(table(0, "AC 9C 10H QD 9S", [], partners=set())) == "AC"


def test_announce_with_a_strong_hand_only():
    assert db.should_announce(parse_cards("10H 10H QC QS QH JD AD 9D 9C AS 9H KS"), NORMAL)
    assert not db.should_announce(parse_cards("10H JD AD 9D KD 9C AC AS 9S KH 9H KS"), NORMAL)


def test_marriage_with_both_queens_of_clubs():
    hand = parse_cards("QC QC 9D KD 9C AC AS 9S KH 9H KS 10S")
    assert db.reservation(hand, ["healthy", "marriage", "solo clubs"]) == "marriage"


def test_silent_solo_with_both_queens_of_clubs_and_a_dominant_hand():
    # Rules file, Reservations: both Q♣ and "gesund" is a silent solo.
    hand = parse_cards("QC QC QS QS QH 10H JC JD AD 10D KD AS")  # eleven trumps, six top ones
    assert db.reservation(hand, ["healthy", "marriage", "solo clubs"]) == "healthy"


def test_announce_no_90_only_with_a_dominant_hand_after_our_announcement():
    dominant = parse_cards("10H 10H QC QS QS QH JD AD 10D KD 9C KS")
    ordinary = parse_cards("10H QC QS QH JD AD 9D 9C AS 9H KS 10S")
    assert db.should_announce_no_90(dominant, NORMAL)
    assert not db.should_announce_no_90(ordinary, NORMAL)
    strong = table(0, "10H 10H QC QS QS QH JD AD 10D KD 9C KS", [], set())
    assert db.choose_text(strong, ["no 90", "play 10H", "play QC"]) == "no 90"
    weak = table(0, "10H QC QS QH JD AD 9D 9C AS 9H KS 10S", [], set())
    assert db.choose_text(weak, ["no 90", "play 9H"]) == "play 9H"


def test_healthy_with_an_ordinary_hand():
    hand = parse_cards("QC JD 9D KD 9C AC AS 9S KH 9H KS 10S")
    assert db.reservation(hand, ["healthy", "solo clubs", "solo queens"]) == "healthy"


def test_accept_poverty_only_with_many_high_trumps():
    assert db.should_accept(parse_cards("10H QC QS QH JD JH AD 9C AS 9S KH KS"))
    assert not db.should_accept(parse_cards("JD JH AD 10D KD 9D 9C AS 9S KH KS 10S"))


def random_view(seed: int, steps: int) -> Observation | None:
    options = SPEC.normalize_options({})
    state = SPEC.new_deal(SPEC.deal_from_seed(derive_seed("dk", seed), seed % 4, options), options)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            return None
        state.apply(rng.choice(list(state.legal_actions())))
    return None if state.is_terminal() else state.observe(state.to_move)


@settings(max_examples=60)
@given(st.integers(0, 10**6), st.integers(0, 60))
def test_heuristic_never_produces_an_illegal_action(seed, steps):
    view = random_view(seed, steps)
    if view is not None:
        assert make_bot("heuristic").choose(view) in view.legal


@settings(max_examples=6)
@given(st.integers(0, 10**6), st.integers(0, 60))
def test_search_never_produces_an_illegal_action(seed, steps):
    view = random_view(seed, steps)
    if view is not None:
        assert make_bot("search", budget_ms=15).choose(view) in view.legal


def test_rotation_arena_of_a_deterministic_bot_against_itself_is_zero():
    result = arena("doppelkopf", "heuristic", "heuristic", 4, "rotate")
    assert result["deals"] == 4 and result["mean_diff"] == 0


def _poverty_deals(count: int):
    """Deals of seeds where some seat may declare poverty, up to its exchange."""
    from tricktable.games.doppelkopf import state as dks

    options = SPEC.normalize_options({})
    index = 0
    while count:
        index += 1
        state = SPEC.new_deal(SPEC.deal_from_seed(f"poor/{index}", index % 4, options), options)
        poor = next((s for s in range(4) if dks.POVERTY in state.reservation_options(s)), None)
        if poor is None:
            continue
        while state.phase == dks.RESERVING:
            state.apply(dks.POVERTY if state.to_move == poor else dks.HEALTHY)
        count -= 1
        yield state


def test_the_rollout_policy_gives_and_returns_the_poverty_cards_as_the_rules_texts_do():
    """doppelkopf.md, "Poverty": the rollout policy decides the exchange on the action
    ints (``heuristic_action``); its choice is the rules' choice among the texts."""
    from tricktable.games.doppelkopf import state as dks

    exchanges = 0
    for state in _poverty_deals(12):
        while state.phase in (dks.GIVING, dks.OFFERING, dks.RETURNING):
            legal = state.legal_actions()
            if state.phase != dks.OFFERING and len(legal) > 1:
                texts = [state.action_text(a) for a in legal]
                rules = db.choose_text(state.situation(state.to_move), texts)
                assert db.heuristic_action(state) == state.parse_action(rules)
                exchanges += 1
            state.apply(dks.ACCEPT if state.phase == dks.OFFERING else db.heuristic_action(state))
    assert exchanges >= 12
