"""Distributing unseen cards over hidden places, for world sampling.

A search bot sees its own cards and what was played; the remaining cards must be
spread over the other hands (and a kitty, a discard, a pile …) so that every
public fact holds: hand sizes, and which places may hold which cards (a player
who showed out of a suit holds none of it).  ``assign_cards`` draws such a
distribution at random.

>>> import random
>>> hands = assign_cards(random.Random(1), [0, 1, 2, 3], [2, 2], [0b0011, 0b1111])
>>> sorted(hands[0]), sorted(hands[1])
([0, 1], [2, 3])
"""

from __future__ import annotations

import random
from typing import Mapping, Sequence

from tricktable.core.errors import GameError

_FAST_TRIES = 20


SlotsOf = Mapping[int, Sequence[int]]
"""Per unseen card, the hidden places that may hold it."""


class SamplingError(GameError):
    """No distribution satisfies the constraints (the view is inconsistent)."""


def assign_cards(
    rng: random.Random, cards: Sequence[int], capacities: Sequence[int], allowed: Sequence[int]
) -> list[list[int]]:
    """Put every card into a slot of its capacity, only where ``allowed[slot]``
    (a card mask) contains it.  Raises ``SamplingError`` when impossible."""
    slots_of, width = _slots(cards, capacities, allowed)
    for _ in range(_FAST_TRIES):
        result = _greedy(rng, cards, capacities, slots_of, width)
        if result is not None:
            return result
    return _guided(rng, cards, capacities, slots_of)


def _slots(cards: Sequence[int], capacities: Sequence[int], allowed: Sequence[int]) -> tuple[SlotsOf, dict[int, int]]:
    """Per card the places that may hold it, and how many there are.  A search draws
    hundreds of worlds under the same constraints, so the last answer is kept (read
    and replaced whole: threads only ever miss it); constraints that cannot hold
    raise every time."""
    key = (tuple(cards), tuple(capacities), tuple(allowed))
    last = _LAST_SLOTS[0]
    if last is not None and last[0] == key:
        return last[1], last[2]
    if sum(capacities) != len(cards):
        raise SamplingError(f"{len(cards)} unseen cards for {sum(capacities)} hidden places")
    slots_of = {c: [s for s, mask in enumerate(allowed) if mask >> c & 1 and capacities[s]] for c in cards}
    if any(not slots for slots in slots_of.values()):
        raise SamplingError("an unseen card fits no hidden place")
    width = {c: len(slots) for c, slots in slots_of.items()}
    _LAST_SLOTS[0] = (key, slots_of, width)
    return slots_of, width


_LAST_SLOTS: list[tuple[tuple[tuple[int, ...], ...], SlotsOf, dict[int, int]] | None] = [None]


def _greedy(rng: random.Random, cards: Sequence[int], capacities: Sequence[int],
            slots_of: SlotsOf, width: Mapping[int, int]) -> list[list[int]] | None:
    """Most constrained cards first (``width``: how many places may hold each), each
    into an open slot drawn with weight its room left.  The draw is
    ``rng.choices(open slots, weights=room)`` written out (one ``rng.random()`` per
    card, the same slot for the same number), without the lists it builds: this loop
    is most of a world's sampling."""
    left = list(capacities)
    result: list[list[int]] = [[] for _ in capacities]
    order = list(cards)
    shuffle(rng, order)
    order.sort(key=width.__getitem__)
    draw = rng.random
    everywhere = sum(1 for room in capacities if room)  # a card any place may hold ...
    unplaced = len(order)  # ... has all the room left: one place per card still to place
    for c in order:
        slots = slots_of[c]
        if width[c] == everywhere:
            total = unplaced
        else:
            total = 0
            for s in slots:
                total += left[s]
            if not total:
                return None
        unplaced -= 1
        point, reached, slot = draw() * total, 0, -1
        for s in slots:
            if left[s]:
                slot = s
                reached += left[s]
                if reached > point:
                    break
        left[slot] -= 1
        result[slot].append(c)
    return result


_RANDBELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)``: the same draws and the same order, without a method call
    per card (CPython's ``random.shuffle`` over ``getrandbits``, written out; any other
    generator, or a Python whose ``Random`` draws otherwise, uses ``rng.shuffle``)."""
    if _RANDBELOW is None or getattr(type(rng), "_randbelow", None) is not _RANDBELOW:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _guided(rng: random.Random, cards: Sequence[int], capacities: Sequence[int], slots_of: SlotsOf) -> list[list[int]]:
    """Slow but sure: place each card only where the rest stays feasible (Hall)."""
    left = list(capacities)
    remaining = list(cards)
    rng.shuffle(remaining)
    result: list[list[int]] = [[] for _ in capacities]
    if not _feasible(remaining, left, slots_of):
        raise SamplingError("the view's constraints cannot all hold")
    while remaining:
        c = remaining.pop()
        options = [s for s in slots_of[c] if left[s]]
        rng.shuffle(options)
        for slot in options:
            left[slot] -= 1
            if _feasible(remaining, left, slots_of):
                result[slot].append(c)
                break
            left[slot] += 1
        else:  # pragma: no cover - excluded by the feasibility invariant
            raise SamplingError("the view's constraints cannot all hold")
    return result


def _feasible(cards: Sequence[int], left: Sequence[int], slots_of: SlotsOf) -> bool:
    n = len(left)
    need = [0] * (1 << n)
    for c in cards:
        bits = 0
        for s in slots_of[c]:
            if left[s]:
                bits |= 1 << s
        need[bits] += 1
    if need[0]:
        return False
    for subset in range(1, 1 << n):
        capacity = sum(left[s] for s in range(n) if subset >> s & 1)
        demand = sum(count for bits, count in enumerate(need) if count and bits & ~subset == 0)
        if demand > capacity:
            return False
    return True
