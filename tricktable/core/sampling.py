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
from operator import itemgetter
from typing import Mapping, Sequence, TypeVar

from tricktable.errors import GameError

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
    plan = _plan(cards, capacities, allowed)
    for _ in range(_FAST_TRIES):
        result = _greedy(rng, capacities, plan)
        if result is not None:
            return result
    return _guided(rng, cards, capacities, plan.slots_of)


class _Plan:
    """What every world drawn under one set of constraints shares: per card the
    places that may hold it (``slots_of``), ``_greedy``'s per-card entries
    ``(width, slots, card)`` in the callers' card order (``width``: how many places
    may hold the card), how many cards fit some places only (``constrained``: the
    rest fit every place with room), and one place number per unit of capacity, in
    order (``seats``)."""

    __slots__ = ("key", "slots_of", "entries", "constrained", "one_width", "seats")

    def __init__(self, key: tuple[tuple[int, ...], ...], cards: Sequence[int], capacities: Sequence[int],
                 allowed: Sequence[int]):
        if sum(capacities) != len(cards):
            raise SamplingError(f"{len(cards)} unseen cards for {sum(capacities)} hidden places")
        slots_of = {c: [s for s, mask in enumerate(allowed) if mask >> c & 1 and capacities[s]] for c in cards}
        if any(not slots for slots in slots_of.values()):
            raise SamplingError("an unseen card fits no hidden place")
        self.key = key
        self.slots_of: SlotsOf = slots_of
        self.entries = [(len(slots_of[c]), slots_of[c], c) for c in cards]
        everywhere = sum(1 for room in capacities if room)
        self.constrained = sum(1 for width, _, _ in self.entries if width < everywhere)
        # Sorting by width changes nothing when every card has the same width.
        self.one_width = len({width for width, _, _ in self.entries}) <= 1
        self.seats = [s for s, room in enumerate(capacities) for _ in range(room)]


def _plan(cards: Sequence[int], capacities: Sequence[int], allowed: Sequence[int]) -> _Plan:
    """The constraints' ``_Plan``.  A search draws hundreds of worlds under the same
    constraints, so the last one is kept (read and replaced whole: threads only ever
    miss it); constraints that cannot hold raise every time."""
    key = (tuple(cards), tuple(capacities), tuple(allowed))
    last = _LAST_PLAN[0]
    if last is not None and last.key == key:
        return last
    plan = _Plan(key, cards, capacities, allowed)
    _LAST_PLAN[0] = plan
    return plan


_LAST_PLAN: list[_Plan | None] = [None]

_BY_WIDTH = itemgetter(0)


def _greedy(rng: random.Random, capacities: Sequence[int], plan: _Plan) -> list[list[int]] | None:
    """Most constrained cards first (a stable sort of the shuffled cards by width),
    each into an open slot drawn with weight its room left: ``rng.choices(open
    slots, weights=room)`` written out (one ``rng.random()`` per card, the same slot
    for the same number), without the lists it builds.  The plan's entries are
    shuffled in place of the cards (the same draws give the same order), so the
    loop reads no table per card.

    The cards that fit every place come last (the widest): their open slots are all
    places with room, whose room adds up to the cards still to place, ``unplaced``.
    The slot whose running room first exceeds ``random() * unplaced`` is then
    ``seats[int(random() * unplaced)]``, ``seats`` holding one place number per unit
    of room left, in order (the running room is whole, so it exceeds the point
    exactly when it exceeds its whole part; and ``random() * n < n``)."""
    left = list(capacities)
    seats = plan.seats.copy()
    result: list[list[int]] = [[] for _ in capacities]
    order = plan.entries.copy()
    shuffle(rng, order)
    if not plan.one_width:
        order.sort(key=_BY_WIDTH)
    draw = rng.random
    constrained = plan.constrained
    for _, slots, c in order[:constrained]:
        total = 0
        for s in slots:
            total += left[s]
        if not total:
            return None
        point, reached, slot = draw() * total, 0, -1
        for s in slots:
            room = left[s]
            if room:
                slot = s
                reached += room
                if reached > point:
                    break
        left[slot] -= 1
        seats.remove(slot)  # one unit of its room: the seats stay in order
        result[slot].append(c)
    unplaced = len(seats)
    pick = seats.pop
    for _, _, c in order[constrained:]:
        result[pick(int(draw() * unplaced))].append(c)
        unplaced -= 1
    return result


_RANDBELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)

_Item = TypeVar("_Item")


def shuffle(rng: random.Random, items: list[_Item]) -> None:
    """``rng.shuffle(items)``: the same draws and the same order, without a method call
    per item (CPython's ``random.shuffle`` over ``getrandbits``, written out; any other
    generator, or a Python whose ``Random`` draws otherwise, uses ``rng.shuffle``)."""
    if _RANDBELOW is None or getattr(type(rng), "_randbelow", None) is not _RANDBELOW:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i, bits in _shuffle_steps(len(items)):
        j = getrandbits(bits)  # _randbelow(i + 1): draws of i + 1's bit length until one is ≤ i
        while j > i:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def _shuffle_steps(size: int) -> list[tuple[int, int]]:
    """``shuffle``'s positions from the last down to 1, each with the bit length of
    how many items it draws among (worked out once per size)."""
    steps = _STEPS.get(size)
    if steps is None:
        steps = _STEPS[size] = [(i, (i + 1).bit_length()) for i in range(size - 1, 0, -1)]
    return steps


_STEPS: dict[int, list[tuple[int, int]]] = {}


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
