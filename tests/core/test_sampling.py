"""assign_cards: distributing unseen cards over hidden places."""

import random

import pytest

from tricktable.core.sampling import SamplingError, assign_cards


def test_every_card_lands_in_an_allowed_slot_of_the_right_size():
    rng = random.Random(3)
    cards = list(range(12))
    allowed = [0b000000111111, 0b111111111111, 0b111111000000]
    for _ in range(200):
        slots = assign_cards(rng, cards, [4, 4, 4], allowed)
        assert sorted(c for s in slots for c in s) == cards
        assert [len(s) for s in slots] == [4, 4, 4]
        for slot, mask in zip(slots, allowed):
            assert all(mask >> c & 1 for c in slot)


def test_tight_constraints_find_their_only_solution():
    # Cards 0-2 may go only to slot 0, the rest only to slot 1: one answer.
    slots = assign_cards(random.Random(0), list(range(6)), [3, 3], [0b000111, 0b111000])
    assert sorted(slots[0]) == [0, 1, 2] and sorted(slots[1]) == [3, 4, 5]


def test_impossible_constraints_raise():
    with pytest.raises(SamplingError):
        assign_cards(random.Random(0), [0, 1], [1, 1], [0b11, 0b00])
    with pytest.raises(SamplingError):
        assign_cards(random.Random(0), [0, 1, 2], [1, 1], [0b111, 0b111])


def test_the_kept_constraints_draw_what_fresh_ones_draw():
    """``assign_cards`` keeps the last constraints' places per card (a search draws
    hundreds of worlds under one set): the draws are those of a fresh computation."""
    from tricktable.core import sampling

    cards, capacities, allowed = list(range(20)), [7, 7, 6], [0b1111111111_1111111111, 0b1111100000_1111111111,
                                                              0b1111111111_0000011111]
    kept = [assign_cards(random.Random(k), cards, capacities, allowed) for k in range(30)]
    fresh = []
    for k in range(30):
        sampling._LAST_PLAN[0] = None
        fresh.append(assign_cards(random.Random(k), cards, capacities, allowed))
    assert kept == fresh
    assert len({tuple(map(tuple, hands)) for hands in kept}) == 30  # really random draws


def test_impossible_constraints_raise_every_time_after_possible_ones():
    assign_cards(random.Random(0), [0, 1], [1, 1], [0b11, 0b11])
    for _ in range(2):
        with pytest.raises(SamplingError):
            assign_cards(random.Random(0), [0, 1], [1, 1], [0b11, 0b00])
    assign_cards(random.Random(0), [0, 1], [1, 1], [0b11, 0b11])
    with pytest.raises(SamplingError):
        assign_cards(random.Random(0), [0, 1], [2, 1], [0b11, 0b11])


def test_the_written_out_shuffle_draws_as_random_shuffle():
    """``sampling.shuffle`` is ``random.shuffle`` without a method call per card: the same
    order and the same generator state after it (so every sampled world stays the same)."""
    from tricktable.core.sampling import shuffle

    for seed in range(100):
        for size in (0, 1, 2, 5, 13, 39, 52):
            ours, theirs = random.Random(seed), random.Random(seed)
            mine, reference = list(range(size)), list(range(size))
            shuffle(ours, mine)
            theirs.shuffle(reference)
            assert mine == reference and ours.random() == theirs.random()


def _reference_assign(rng: random.Random, cards: list[int], capacities: list[int],
                      allowed: list[int]) -> list[list[int]]:
    """``assign_cards`` spelled out with the library's own draws: ``rng.shuffle``, a
    stable sort by how many places may hold each card, ``rng.choices`` weighted by
    room left, 20 tries, then the exact fallback."""
    from tricktable.core import sampling

    slots_of = {c: [s for s, mask in enumerate(allowed) if mask >> c & 1 and capacities[s]] for c in cards}
    if sum(capacities) != len(cards) or not all(slots_of.values()):
        raise SamplingError("impossible")
    for _ in range(20):
        order = list(cards)
        rng.shuffle(order)
        order.sort(key=lambda c: len(slots_of[c]))
        left, result = list(capacities), [[] for _ in capacities]
        for c in order:
            open_slots = [s for s in slots_of[c] if left[s]]
            if not open_slots:
                break
            slot = rng.choices(open_slots, weights=[left[s] for s in open_slots])[0]
            left[slot] -= 1
            result[slot].append(c)
        else:
            return result
    return sampling._guided(rng, cards, capacities, slots_of)


def _random_constraints(rng: random.Random) -> tuple[list[int], list[int], list[int]]:
    """Unseen cards of a 48-card deck over 2-5 places, with voids (a place barred
    from a suit of 12) and single cards barred, sometimes more than can hold."""
    cards = sorted(rng.sample(range(48), rng.randint(2, 36)))
    places = rng.randint(2, 5)
    capacities = [0] * places
    for _ in cards:
        capacities[rng.randrange(places)] += 1
    allowed = []
    for _ in range(places):
        mask = (1 << 48) - 1
        for suit in range(4):
            if rng.random() < 0.25:
                mask &= ~(0xFFF << 12 * suit)
        if rng.random() < 0.3:
            mask &= ~(1 << rng.choice(cards))
        allowed.append(mask)
    return cards, capacities, allowed


def test_the_draws_are_those_of_shuffle_sort_and_choices():
    """The same worlds and the same generator state after, under constraints both
    loose and tight (the greedy tries failing, the fallback, impossible ones), kept
    from call to call or changing at every call."""
    outcomes = set()
    maker = random.Random(2026)
    constraints = [_random_constraints(maker) for _ in range(300)]
    for index, (cards, capacities, allowed) in enumerate(constraints):
        for seed in range(4):
            ours, theirs = random.Random(index * 10 + seed), random.Random(index * 10 + seed)
            try:
                mine = assign_cards(ours, cards, capacities, allowed)
            except SamplingError:
                mine = None
            try:
                reference = _reference_assign(theirs, cards, capacities, allowed)
            except SamplingError:
                reference = None
            assert mine == reference and ours.getstate() == theirs.getstate(), (cards, capacities, allowed)
            outcomes.add(mine is None)
    assert outcomes == {True, False}  # both possible and impossible constraints were met
