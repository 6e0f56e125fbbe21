"""What the others' decisions reveal: the weight of a sampled world.

A sampled world is a full deal on which the observation's public actions were
replayed (``GameSpec.sample_world``), so the hard facts hold in it by construction
(hand sizes, voids shown, a caller holding his suit).  Softer facts come from *how*
the others played: a seat that passed in Euchre seldom holds both bowers; a
Doppelkopf player who announced Re usually holds the trumps for it; a defender
who ducked a trick he could have won seldom held the winning card.

``likelihood`` measures that.  It replays the world's deal from its start and, at
every past decision of another seat that had a choice, asks the game's rules
policy (the rollout policy: the rules bot's decision function, on what that seat
knew there, so it follows the rules whenever they change) what it would have done
in this world.  A decision the rules agree with counts 1; one they do not counts a
floor (``Evidence``): people and other programs decide differently, so nothing is
ruled out.  The worlds' weights are the product of these factors.

What the hard constraints already say is not counted twice: a seat with one legal
action (a forced card, a void shown) reveals nothing here, and legality is the
game's; only the choice among legal actions is weighed.

Weights are tempered: bids and announcements (few, and telling) have a low floor;
card choices (many, and a weaker signal: the rules and a searching player often
differ on equivalent cards) a high one; and the product never goes below
``Evidence.min_weight``, so no single world dominates a search (``effective_size``
reports how many worlds a set of weights is worth).

Replaying every world's history in Python, with the rules policy at each decision,
cost about half of a search.  A game whose kernel models its card play supplies a
``CardReplay``: the bids, calls and the like before it are replayed as above, and
the card play is replayed on the kernel's masks, which reports where the rules'
card differs from the one played.  It computes the same weights (the tests compare
them with this reference replay in every game and option, compiled and pure).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, NamedTuple, Sequence

from tricktable.errors import GameError
from tricktable.core.observation import Observation
from tricktable.core.protocol import DealState, GameState

Policy = Callable[[GameState], int]


@dataclass(frozen=True)
class Evidence:
    """How much each kind of decision says (a game's part of inference: data only).

    ``bid_floor``: the factor of a bid, call, reservation or announcement the rules
    would not make in the world (or the rules' one that was not made); ``card_floor``:
    the same for a card choice; ``min_weight``: the smallest weight a world can get."""

    bid_floor: float = 0.2
    card_floor: float = 0.5
    min_weight: float = 0.01
    card_prefixes: tuple[str, ...] = ("play ",)
    """Action texts that are card choices (everything else is a bid or announcement)."""

    def floor(self, text: str) -> float:
        return self.card_floor if text.startswith(self.card_prefixes) else self.bid_floor

    def to_floor(self, weight: float) -> int:
        """How many more disagreements, of any kind, bring ``weight`` to ``min_weight``
        (each factor is at most the larger floor, and a smaller factor never gives a
        larger float product); -1 when none need to (floors of 1 or more, no minimum)."""
        floor = max(self.bid_floor, self.card_floor)
        if floor >= 1 or self.min_weight <= 0:
            return -1
        count = 0
        while weight > self.min_weight:
            weight *= floor
            count += 1
        return count


DEFAULT = Evidence()


class Decision(NamedTuple):
    """A past decision of ``seat`` with a choice: the ``state`` just before it (the
    replay's own, valid until the next decision is yielded), the ``action`` taken and
    its ``position`` in the history (a named tuple: one per decision per world)."""

    position: int
    seat: int
    action: int
    state: DealState


def decisions(world: GameState, me: int) -> Iterator[Decision]:
    """Every past decision of another seat than ``me`` that had a choice, replayed
    from the start of the world's deal.  Out-of-turn actions (a Doppelkopf
    announcement between cards) and the referee's are replayed but not yielded:
    the rules policy decides only for the seat to move."""
    if not isinstance(world, DealState):
        return
    yield from _replay(world.restarted(), world, me, len(world.history))


def _replay(state: DealState, world: DealState, me: int, end: int) -> Iterator[Decision]:
    """``decisions`` from ``state`` (the world's deal after its first ``len(state.history)``
    actions) up to history position ``end``; ``state`` follows the replay."""
    history, actors = world.history, world.actors
    for position in range(len(state.history), end):
        action, seat = history[position], actors[position]
        if seat != state.to_move:
            state.apply_for(seat, action)
            continue
        if seat != me:
            legal = state.legal_actions()
            if len(legal) > 1 and action in legal:
                yield Decision(position, seat, action, state)
        state.apply_any(action)


@dataclass(frozen=True)
class CardReplay:
    """A game's fast replay of its card play (its kernel), for ``likelihood``.

    ``start(world)``: the history position from which the kernel replays (the card
    play; earlier actions go through the reference replay), -1 where it models none
    of the world.  ``disagreements(state, world, me, limit)``: ``state`` is the replay at that
    position; the history positions from there at which another seat than ``me``
    did not take the action the rules policy gives there, in order, the first
    ``limit`` of them (-1: all; the weight is at its floor with that many: the rest of
    the replay is not needed); None where the kernel does not model the position
    (the reference replay goes on)."""

    start: Callable[[DealState], int]
    disagreements: Callable[[DealState, DealState, int, int], "list[int] | None"]
    whole: "Callable[[DealState, int, int], list[int] | None] | None" = None
    """Where the game replays the whole history from the world alone: ``whole(world,
    me, limit)`` is ``disagreements`` from the deal's start, without a state replayed
    (or restarted) through the game; None where it does not model the world (then
    ``start`` and ``disagreements`` as above)."""


CARD_ACTIONS = 52
"""Every game's actions below this are its cards (its ``ActionSpace``'s "play" range)."""


def first_card(world: DealState) -> int:
    """The history position of the first card played, -1 before it (a ``CardReplay.start``)."""
    for position, action in enumerate(world.history):
        if action < CARD_ACTIONS:
            return position
    return -1


Factors = dict[tuple[int, int, tuple[int, ...]], float]
"""A decision's factor by (its position in the history, the seat's hand then, the world's hidden
actions): everything that seat's view there depends on that differs between worlds
(the public actions are the same in all of them)."""


class _Weight:
    """A world's weight as its factors come in, in history order (``likelihood``)."""

    def __init__(self, world: DealState, evidence: Evidence):
        self.world, self.evidence, self.value = world, evidence, 1.0

    def times(self, factor: float) -> bool:
        """Multiply; True once the floor of the product is reached (the weight is final)."""
        self.value *= factor
        if self.value <= self.evidence.min_weight:
            self.value = self.evidence.min_weight
            return True
        return False

    def decisions(self, found: Iterable[Decision], policy: Policy, faces_down: tuple[int, ...],
                  factors: Factors | None) -> bool:
        """The factors of the reference replay's decisions; True once final."""
        for decision in found:
            key = (decision.position, decision.state.hands[decision.seat], faces_down)
            factor = factors.get(key) if factors is not None else None
            if factor is None:
                agrees = policy(decision.state) == decision.action
                factor = 1.0 if agrees else self.evidence.floor(self.world.action_text(decision.action))
                if factors is not None:
                    factors[key] = factor
            if factor != 1.0 and self.times(factor):
                return True
        return False

    def disagreements(self, positions: Iterable[int]) -> bool:
        """The floors of the decisions the rules did not take (a card replay's); True once final."""
        history, world, floor = self.world.history, self.world, self.evidence.floor
        for position in positions:
            if self.times(floor(world.action_text(history[position]))):
                return True
        return False


def likelihood(world: GameState, me: int, policy: Policy, evidence: Evidence = DEFAULT,
               hidden: Sequence[int] = (), factors: Factors | None = None, cards: CardReplay | None = None) -> float:
    """How well ``world`` explains the others' past decisions under the rules
    ``policy``: the product of 1 (agreed) or the decision's floor (did not), at
    least ``evidence.min_weight``.  ``factors`` caches each decision's factor across
    the worlds of one observation; ``hidden``: the history positions the observer
    sees face down (their actions in the world are part of the key).  ``cards``: the
    game's fast replay of the card play (the same weight).  A world whose history the
    replay cannot follow weighs what its decisions so far say."""
    if not isinstance(world, DealState):
        return 1.0
    history = world.history
    faces_down = tuple(history[j] for j in hidden)  # all of them: a key more specific than needed
    weight = _Weight(world, evidence)
    if cards is not None and cards.whole is not None:
        differ = cards.whole(world, me, evidence.to_floor(weight.value))
        if differ is not None:
            weight.disagreements(differ)
            return weight.value
    state = world.restarted()
    end = len(history)
    start = cards.start(world) if cards is not None else -1
    try:
        if cards is not None and 0 <= start < end:
            if weight.decisions(_replay(state, world, me, start), policy, faces_down, factors):
                return weight.value
            differ = cards.disagreements(state, world, me, evidence.to_floor(weight.value))
            if differ is not None:
                weight.disagreements(differ)
                return weight.value
        weight.decisions(_replay(state, world, me, end), policy, faces_down, factors)
    except GameError:
        pass
    return weight.value


def weight_for(policy: Policy, evidence: Evidence = DEFAULT,
               cards: CardReplay | None = None) -> Callable[[GameState, Observation, int], float]:
    """A ``SearchGame.weight``: ``likelihood`` of a world under ``policy`` (with the
    game's fast ``cards`` replay where it has one), the decisions' factors cached for
    the observation being searched (the last one seen)."""
    cache: list[tuple[Observation, tuple[int, ...], Factors]] = []

    def weight(world: GameState, obs: Observation, me: int) -> float:
        entry = cache[0] if cache else None
        if entry is None or entry[0] is not obs:
            hidden = tuple(i for i, (_, text) in enumerate(obs.actions) if text.endswith("?"))
            entry = (obs, hidden, {})
            cache[:] = [entry]  # one reference swapped whole: a thread sees one observation's cache
        _, hidden, factors = entry
        return likelihood(world, me, policy, evidence, hidden, factors, cards)

    return weight


def effective_size(weights: Sequence[float]) -> float:
    """How many equally weighted worlds ``weights`` are worth (Kish's effective sample
    size: (Σw)² / Σw²); the number of worlds when all weigh the same.

    >>> effective_size([1.0, 1.0, 1.0, 1.0]), round(effective_size([1.0, 0.01, 0.01, 0.01]), 2)
    (4.0, 1.06)
    """
    squares = sum(w * w for w in weights)
    return sum(weights) ** 2 / squares if squares else 0.0
