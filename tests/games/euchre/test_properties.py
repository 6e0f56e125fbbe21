"""Property tests over thousands of random Euchre hands (shared/rules/euchre.md); the
protocol's own properties (replay, sampled worlds, no leak by hand) are in tests/contract."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tricktable.cards import card_text
from tricktable.catalog import replay
from tricktable.core.record import record_of
from tricktable.core.rng import derive_seed
from tricktable.games.euchre import SPEC
from tricktable.games.euchre.rules import DECK

OPTIONS = st.fixed_dictionaries({"stick_the_dealer": st.booleans(), "farmers_hand": st.booleans(),
                                  "defend_alone": st.booleans(), "dealers_partner_alone": st.booleans()})
SEEDS = st.text(min_size=1, max_size=12)


def random_hand(seed: str, dealer: int, options: dict, rng_seed: int, stop_after: int | None = None):
    # A derived seed is long enough that finding it in a view means a leak.
    deal = SPEC.deal_from_seed(derive_seed("property", seed), dealer, options)
    state = SPEC.new_deal(deal, SPEC.normalize_options(options))
    rng = random.Random(rng_seed)
    steps = 0
    while not state.is_terminal() and (stop_after is None or steps < stop_after):
        state.apply(rng.choice(state.legal_actions()))
        steps += 1
    return state


# An independent statement of the ranking, written from the spec's words.
def spec_rank(text: str, trump: str, led: str) -> int:
    rank, suit = text[:-1], text[-1]
    partner_suit = {"C": "S", "S": "C", "D": "H", "H": "D"}[trump]
    if rank == "J" and suit == trump:
        return 100
    if rank == "J" and suit == partner_suit:
        return 99
    order = ["9", "10", "J", "Q", "K", "A"]
    if suit == trump:
        return 90 + order.index(rank)
    if suit == led:
        return 10 + order.index(rank)
    return 0


def spec_suit(text: str, trump: str) -> str:
    partner_suit = {"C": "S", "S": "C", "D": "H", "H": "D"}[trump]
    return trump if text[:-1] == "J" and text[-1] == partner_suit else text[-1]


@settings(max_examples=3000)
@given(SEEDS, st.integers(0, 3), OPTIONS, st.integers(0, 2**32))
def test_cards_conserved_tricks_sized_winners_ranked_scores_tabled(seed, dealer, options, rng_seed):
    state = random_hand(seed, dealer, options, rng_seed)
    # 24 cards conserved: played + held + kitty (+ discard) is the deck, no duplicates.
    played = [c for _, cards, _ in state.tricks for c in cards]
    held = [c for h in state.hands for c in range(52) if h >> c & 1]
    kitty = list(state.deal.rest[1:]) + ([state.discard] if state.discard >= 0 else [])
    up = [] if state.picked_up else [state.up_card]
    assert sorted(played + held + kitty + up) == sorted(DECK)
    if state.maker < 0:
        assert state.returns() == [0, 0, 0, 0]
        return
    trump = "CDHS"[state.trump]
    for leader, cards, winner in state.tricks:
        sitting_out = {state.sitting_out} if state.alone else set()
        if state.lone_defender >= 0:
            sitting_out.add((state.lone_defender + 2) % 4)
        assert len(cards) == 4 - len(sitting_out)
        texts = [card_text(c) for c in cards]
        led = spec_suit(texts[0], trump)
        ranks = [spec_rank(t, trump, led) if spec_suit(t, trump) in (trump, led) else 0 for t in texts]
        seats = state.seats_of_trick(leader, len(cards))
        assert winner == seats[ranks.index(max(ranks))]
        assert not sitting_out & set(seats)
    makers = state.maker % 2
    won = state.tricks_won[makers]
    expected = {5: 4 if state.alone else 2, 4: 1, 3: 1}.get(won, 0)
    assert state.points[makers] == expected
    assert state.points[1 - makers] == ((4 if state.lone_defender >= 0 else 2) if won < 3 else 0)


def visible_cards(view: dict) -> set[str]:
    texts = set(view["hand"]) | {view["up_card"]}
    texts |= {c for t in view["tricks"] for _, c in t["cards"]} | {c for _, c in view["trick"]}
    if "discard" in view:
        texts.add(view["discard"])
    return texts


@settings(max_examples=2000)
@given(SEEDS, st.integers(0, 3), OPTIONS, st.integers(0, 2**32), st.integers(0, 30))
def test_views_never_contain_an_unseen_card(seed, dealer, options, rng_seed, stop_after):
    state = random_hand(seed, dealer, options, rng_seed, stop_after)
    for seat in range(4):
        view = state.view(seat)
        seen = {card_text(c) for c in state.deal.hands[seat]} | {card_text(state.up_card)}
        seen |= {card_text(c) for _, cards, _ in state.tricks for c in cards}
        seen |= {card_text(c) for c in state.trick}
        if seat == state.dealer and state.discard >= 0:
            seen.add(card_text(state.discard))
        assert visible_cards(view) <= seen
        text = repr(view)
        assert state.deal.seed not in text
        for other in range(4):
            if other != seat:
                unseen = {card_text(c) for c in range(52) if state.hands[other] >> c & 1} - seen
                assert not any(f"'{c}'" in text for c in unseen)
        if seat != state.dealer and state.discard >= 0:
            assert "discard" not in view and "discard ?" in [t for _, t in view["actions"]]


def test_a_corrupted_record_names_the_action_and_the_reason():
    import pytest

    from tricktable.errors import RecordError

    state = random_hand("corrupt", 0, {}, 7)
    data = record_of(state).to_json()
    plays = [i for i, text in enumerate(data["actions"]) if text.startswith("play")]
    data["actions"][plays[1]] = data["actions"][plays[0]]  # that card has left the hand
    with pytest.raises(RecordError, match="not in your hand") as error:
        replay(data)
    assert error.value.action_number == plays[1] + 1
    for broken, reason in [("{", "not JSON"), ('{"game": "chess"}', "unknown game"),
                           ('{"game": "euchre", "rules_version": "euchre-0"}', "rules"),
                           ({**record_of(state).to_json(), "actions": "pass"}, "list of strings"),
                           ({**record_of(state).to_json(), "deal": {"dealer": 0, "hands": ["9C"] * 4, "rest": ""}},
                            "deck")]:
        with pytest.raises(RecordError, match=reason):
            replay(broken)
