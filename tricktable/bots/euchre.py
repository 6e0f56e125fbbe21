"""Euchre computer players: expert rules (``heuristic``) and world-sampling search.

Both decide from a seat's observation.  The rules (``decide``, written once)
work on a small ``Table`` (masks and seats) that is built either from an
observation (the real bot) or from a sampled world's state for the seat to move
(rollouts inside search, a world the bot built itself); the ``Table`` of a state
holds only what that seat could know, so a rollout plays like the real bot would.

Bidding rules count a hand's strength in "points" for a trump suit (right bower
3, left bower 2.6, …, off aces 1, voids 0.6 with two trumps); about 7 points with
the partner's average help make three tricks likely.  Card play follows the
usual advice: second hand low, cheapest winning card, never trump a partner's
winning trick, makers pull trump with the top trump, throw off the lowest loser.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from tricktable import speedups
from tricktable.bots.base import note_trick, spare_partners_trick
from tricktable.bots.inference import CardReplay, weight_for
from tricktable.bots.playout import models_options
from tricktable.bots.search import SWITCH_Z, SearchGame, team_value
from tricktable.cards import ACE, JACK, KING, NINE, QUEEN, TEN, card, mask_of
from tricktable.core.observation import Observation
from tricktable.core.protocol import DealState, GameSpec, GameState
from tricktable.games.euchre.observation import EuchreObservation, Phase
from tricktable.games.euchre.rules import DECK_MASK, EFFECTIVE_SUIT, NO_TRUMP, POWER, SUIT_CARDS, SUITS, deal_score, same_colour
from tricktable.games.euchre.state import (
    ALONE,
    ALONE_CHOICE,
    CALL,
    DEFEND_ALONE,
    DEFEND_CHOICE,
    DISCARD,
    DISCARDING,
    NEXT_ACTIVE,
    FARMER,
    ORDER_UP,
    PASS,
    PLAYING,
    ROUND1,
    ROUND2,
    WITH_PARTNER,
    EuchreState,
    action_text,
    bid_actions,
    parse_action,
)

if TYPE_CHECKING:
    from tricktable.bots import euchre_kernel as kernel
else:
    kernel = speedups.load("tricktable.bots.euchre_kernel")



ORDER_THRESHOLD = 5.8
CALL_THRESHOLD = 5.8
ALONE_THRESHOLD = 3.7
"""``alone_tricks`` for a lone hand.  The strength targets ask for lone hands in at most
8 % of contracts, made at least 90 % of the time: at 3.5 the rules went alone in 11.5 % (98 %
made), at 3.7 in 5.9 % (all made), for −0.012 ± 0.003 points per deal against the 3.5
rules (2,000 duplicate deals); at 3.6 (7.5 %) search in all seats still went alone in
9 % (docs/strength.md, "Behaviour")."""
DEFEND_ALONE_THRESHOLD = 3.0
"""``alone_tricks`` a defender needs to defend alone against a lone maker: three
tricks of his own are a euchre worth 4 instead of 2, and the maker's trumps are
long, so only a hand with sure tricks (the right bower, aces) tries."""
LADDER_POINTS = (3.0, 2.6, 2.1, 1.7, 1.5, 1.3, 1.2)
"""Points of the trumps from the right bower down to the nine."""


def _ladder(trump: int) -> tuple[int, ...]:
    """The trumps of a suit, highest first."""
    return (card(JACK, trump), card(JACK, same_colour(trump)), *(card(r, trump) for r in (ACE, KING, QUEEN, TEN, NINE)))


TRUMP_LADDER = tuple(_ladder(t) for t in SUITS)
TRUMP_POINTS = tuple({c: p for c, p in zip(TRUMP_LADDER[t], LADDER_POINTS)} for t in SUITS)
OFF_ACE_POINTS = 1.0
GUARDED_KING_POINTS = 0.4
VOID_POINTS = 0.6


# -- the table as one seat sees it -------------------------------------------------
@dataclass
class Table:
    """What the seat to move knows, as masks and seats (see module docstring)."""

    phase: int  # a ``Phase`` value
    seat: int
    dealer: int
    hand: int
    up_card: int
    turned_down: int  # the suit turned down in round 1, or -1
    trump: int
    maker: int
    alone: bool
    out: int  # mask of the seats sitting out (a lone maker's partner, a lone defender's)
    trick: list[tuple[int, int]]  # (seat, card) in play order
    gone: int  # cards out of play that everybody saw (played, turned-down up-card)
    voids: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # per seat, bit s = void in suit s
    options: Mapping[str, Any] = field(default_factory=dict)

    def unseen(self) -> int:
        """Cards that may still be in another hand (or the kitty)."""
        return DECK_MASK & ~self.gone & ~self.hand

    def seats_after(self) -> list[int]:
        """Seats still to play to the current trick after this seat."""
        active = 4 - self.out.bit_count()
        seats: list[int] = []
        s = self.seat
        while len(self.trick) + 1 + len(seats) < active:
            s = (s + 1) % 4
            if not self.out >> s & 1:
                seats.append(s)
        return seats


def table_from_state(state: EuchreState) -> Table:
    """The acting seat's knowledge in a (sampled) state."""
    seat, trump = state.turn, state.trump
    tricks = [state.plays_of_trick(leader, cards) for leader, cards, _ in state.tricks]
    trick = list(state.plays_of_trick(state.leader, state.trick)) if state.trick else []
    discard = state.discard if seat == state.dealer else -1
    return _table(state.phase, seat, state.dealer, state.hands[seat], state.up_card, state.turned_down, trump,
                  state.maker, state.alone, state.out, tricks, trick, discard, state.options)


def table_from_observation(obs: EuchreObservation) -> Table:
    """The observing seat's knowledge."""
    trump = obs.trump if obs.trump is not None else NO_TRUMP
    turned_down = obs.turned_down if obs.turned_down is not None else -1
    maker = obs.maker if obs.maker is not None else -1
    out = 0
    if obs.sitting_out is not None:
        out |= 1 << obs.sitting_out
    if obs.lone_defender is not None:
        out |= 1 << (obs.lone_defender + 2) % 4  # the lone defender's partner sits out
    discard = obs.discard if obs.discard is not None else -1
    return _table(obs.phase, obs.seat, obs.dealer, mask_of(obs.hand), obs.up_card, turned_down, trump, maker,
                  obs.alone, out, [t.cards for t in obs.tricks], list(obs.trick), discard, obs.options)


def _table(phase: int, seat: int, dealer: int, hand: int, up: int, turned_down: int, trump: int, maker: int,
           alone: bool, out: int, tricks: Sequence[Sequence[tuple[int, int]]], trick: list[tuple[int, int]],
           discard: int, options: Mapping[str, Any]) -> Table:
    voids = [0, 0, 0, 0]
    gone = 0
    if phase == PLAYING:
        for plays in tricks:
            gone |= note_trick(voids, plays, EFFECTIVE_SUIT[trump])
        if trick:
            gone |= note_trick(voids, trick, EFFECTIVE_SUIT[trump])
    if turned_down >= 0:
        gone |= 1 << up
    if discard >= 0:
        gone |= 1 << discard
    return Table(phase, seat, dealer, hand, up, turned_down, trump, maker, alone, out, trick, gone, voids, options)


# -- card play ----------------------------------------------------------------------
def trick_winner(trump: int, trick: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """The (seat, card) that holds ``trick`` so far."""
    return trick[kernel.winning_index(trump, [c for _, c in trick])]


def choose_card(table: Table, legal: Sequence[int]) -> int:
    """The card-play rules (``euchre_kernel.choose_card``, on ints: the fast playout
    calls them on its own masks) for a ``Table``: second hand low, cheapest winning
    card, never trump a partner's safe trick, makers pull trump with the top trump,
    throw off the lowest loser."""
    trick = table.trick
    return kernel.choose_card(table.trump, table.seat, table.hand, table.gone, table.voids, table.maker, table.out,
                              [s for s, _ in trick], [c for _, c in trick], list(legal))


# -- bidding ----------------------------------------------------------------------
def _ladder_sums(trump: int) -> dict[int, float]:
    """The trumps' points of every set of trumps, keyed by its card mask, added in the
    order of the card ids (the order the card-by-card sum added them in: the same
    float to the last bit)."""
    ladder = TRUMP_LADDER[trump]
    sums: dict[int, float] = {}
    for subset in range(1 << len(ladder)):
        held = sorted(c for i, c in enumerate(ladder) if subset >> i & 1)
        sums[sum(1 << c for c in held)] = sum((TRUMP_POINTS[trump][c] for c in held), 0.0)
    return sums


LADDER_SUMS = tuple(_ladder_sums(t) for t in SUITS)
SUIT_ACES = tuple(1 << card(ACE, s) for s in SUITS)
SUIT_KINGS = tuple(1 << card(KING, s) for s in SUITS)
PLAIN_ACES = tuple(sum(SUIT_ACES[s] for s in SUITS if s != trump) for trump in SUITS)
"""By trump, the aces of the other suits (no ace changes suit)."""


def install_tables(module: ModuleType) -> None:
    """Give a kernel module (compiled or pure) the game's own tables, and the bidding
    rules' points and thresholds: the rules themselves (``hand_points``,
    ``should_order``, ``call_choice``, ``should_go_alone``, ``best_discard`` …) are the
    kernel's, on masks (inference asks them for every sampled world's bids)."""
    module.install(EFFECTIVE_SUIT, POWER, SUIT_CARDS, DECK_MASK, KING)
    module.install_bidding([dict(sums) for sums in LADDER_SUMS], [dict(points) for points in TRUMP_POINTS],
                           [list(ladder) for ladder in TRUMP_LADDER], list(SUIT_ACES), list(SUIT_KINGS),
                           list(PLAIN_ACES), [VOID_POINTS, OFF_ACE_POINTS, GUARDED_KING_POINTS],
                           [ORDER_THRESHOLD, CALL_THRESHOLD, ALONE_THRESHOLD, DEFEND_ALONE_THRESHOLD])


install_tables(kernel)


def must_go_alone(options: Mapping[str, Any], seat: int, dealer: int) -> bool:
    """Option "dealer's partner must go alone": ordering up the partner the dealer
    in round 1 means going alone."""
    return bool(options.get("dealers_partner_alone")) and (dealer - seat) % 4 == 2


# -- the rules: one decision for the seat to move -------------------------------------
def decide(table: Table, legal: Sequence[int]) -> int:
    """The rules' action (the one set of expert rules, for the bot and rollouts)."""
    if len(legal) == 1:
        return legal[0]
    if table.phase == PLAYING:
        return choose_card(table, legal)
    return bid(table.phase, table.seat, table.dealer, table.up_card, table.turned_down, table.trump, table.options,
               table.hand, legal)


def bid(phase: int, seat: int, dealer: int, up_card: int, turned_down: int, trump: int, options: Mapping[str, Any],
        hand: int, legal: Sequence[int]) -> int:
    """The rules' action before the card play (``decide``): of the seat's knowledge only
    its ``hand`` is not public (inference asks it for the hands of many worlds)."""
    if phase == ROUND1:
        if FARMER in legal:
            return FARMER
        alone = must_go_alone(options, seat, dealer)
        return ORDER_UP if kernel.should_order(hand, up_card, seat, dealer, alone) else PASS
    if phase == ROUND2:
        suit = kernel.call_choice(hand, turned_down, PASS not in legal)
        return PASS if suit < 0 else CALL + suit
    if phase == ALONE_CHOICE:
        up = up_card if turned_down < 0 else -1
        return ALONE if kernel.should_go_alone(hand, trump, seat, dealer, up) else WITH_PARTNER
    if phase == DEFEND_CHOICE:
        return DEFEND_ALONE if kernel.should_defend_alone(hand, trump) else PASS
    if phase == DISCARDING:
        return DISCARD + kernel.best_discard(hand, trump)
    raise ValueError(f"no decision in phase {Phase(phase).key!r}")


def heuristic_action(state: GameState) -> int:
    """The rules' action for the seat to move in a (sampled) state; used by rollouts."""
    assert isinstance(state, EuchreState)
    return decide(table_from_state(state), state.legal_actions())


def heuristic_text(obs: Observation) -> str:
    """The rules' action for an observation (the ``heuristic`` bot)."""
    assert isinstance(obs, EuchreObservation)
    if len(obs.legal) == 1:
        return obs.legal[0]
    return action_text(decide(table_from_observation(obs), [parse_action(text) for text in obs.legal]))


seat_value = team_value


# -- exact solving of the end of a hand --------------------------------------------------
SOLVE_TRICKS = 3
"""Rollouts solve exactly (all hands open) once this many tricks or fewer remain; the
rules play the tricks before.  Neither more nor fewer measured stronger: four gained
nothing at the normal level; two, +0.042 ± 0.022 points per deal at the hard level on the
500 deals it was picked on, was then −0.0040 ± 0.0099 against three at the normal level
on 2,000 other duplicate deals, deal by deal (docs/strength.md)."""


def solved_value(state: GameState, seat: int) -> float | None:
    """The deal's value for ``seat`` with best play by all from here, once
    ``SOLVE_TRICKS`` or fewer tricks remain; None before that (the rollout goes on)."""
    assert isinstance(state, EuchreState)
    if state.phase != PLAYING or len(state.tricks) < 5 - SOLVE_TRICKS:
        return None
    return exact_value(state, seat)


def exact_value(state: EuchreState, seat: int) -> float:
    """The deal's value for ``seat`` with best play by all from here, however many
    tricks remain (every hand open)."""
    return _finished_value(state, seat, solve_from=len(state.tricks))


def first_card(state: EuchreState) -> int:
    """The history position of the first card played (the history's length before it):
    every action from there on is a card."""
    return len(state.history) - len(state.tricks) * (4 - state.out.bit_count()) - len(state.trick)


def _finished_value(state: EuchreState, seat: int, card: int = -1, solve_from: int = -1) -> float:
    """``seat``'s value of the hand finished on masks (``euchre_kernel.finish``): the
    cards played so far replayed (and ``card``, if one is given, played next), the
    rules' cards until ``solve_from`` tricks are done (-1: until ``SOLVE_TRICKS``
    remain), then best play by all."""
    if solve_from < 0:
        solve_from = 5 - SOLVE_TRICKS
    trump, out, maker, dealer, discard = state.trump, state.out, state.maker, state.dealer, state.discard
    played = state.history[first_card(state):]
    if card >= 0:
        played.append(card)
    public = 1 << state.up_card if state.turned_down >= 0 else 0
    dealer_only = 1 << discard if discard >= 0 else 0  # only the dealer saw his discard
    numbering = _SOLVER_CARDS[trump]
    makers_tricks = kernel.finish(trump, maker, out, dealer, list(state.hands), public, dealer_only,
                                  NEXT_ACTIVE[out][dealer], played, solve_from, FOLLOWING[out], numbering.bits,
                                  numbering.block_of)
    return deal_value(makers_tricks, state.alone, state.lone_defender >= 0, maker % 2, seat)


@lru_cache(maxsize=None)
def deal_value(makers_tricks: int, alone: bool, defended_alone: bool, makers: int, seat: int) -> float:
    """``team_value`` of a finished deal from the makers' tricks (the game's score table;
    a few hundred arguments in all, kept)."""
    _, maker_points, defender_points = deal_score(makers_tricks, alone, defended_alone)
    return float(maker_points - defender_points if seat % 2 == makers else defender_points - maker_points)


@dataclass(frozen=True)
class SolverCards:
    """The solver's numbering of the cards for one trump: each effective suit is a
    block of eight bits, its cards in order of power, the trumps' block highest."""

    block_of: list[int]  # bit -> the mask of its block
    bits: list[int]  # card id -> bit, -1 for cards outside the deck (``euchre_kernel.solver_bits``)

    @classmethod
    def for_trump(cls, trump: int) -> "SolverCards":
        effective, power = EFFECTIVE_SUIT[trump], POWER[trump]
        plain = [s for s in SUITS if s != trump]
        bit: dict[int, int] = {}
        for suit in SUITS:
            block = 3 if suit == trump else plain.index(suit)
            cards = sorted((c for c in range(52) if effective[c] == suit), key=lambda c: power[c])
            bit.update({c: 8 * block + i for i, c in enumerate(cards)})
        return cls([0xFF << (8 * (b // 8)) for b in range(32)], [bit.get(c, -1) for c in range(52)])


_SOLVER_CARDS = {t: SolverCards.for_trump(t) for t in SUITS}
FOLLOWING = [list(following) for following in NEXT_ACTIVE]
"""``NEXT_ACTIVE`` as the kernel's lists."""


# -- fast playout (rollouts) --------------------------------------------------------
PLAYOUT_OPTIONS = frozenset({"stick_the_dealer", "farmers_hand", "game_target", "dealers_partner_alone",
                             "defend_alone"})
"""The options the fast playout follows: all but "defend alone" only change the
bidding (or the match), which is over when it starts; a lone defender is in the
seats sitting out and the score.  Any other option away from its default keeps
the rollout in the real game (``models_options``)."""


def playout(state: GameState, seat: int) -> float | None:
    """Finish the card play of a sampled world on masks (``_finished_value``: the
    rules' cards, the solver for the last tricks).  None before the card play
    (bidding goes through the game) or under options it does not model."""
    assert isinstance(state, EuchreState)
    if state.phase != PLAYING or not models_options(state.spec, state.options, PLAYOUT_OPTIONS):
        return None
    return _finished_value(state, seat)


def trial(world: GameState, seat: int, action: int) -> float | None:
    """``seat`` (to move) plays the card ``action`` in a sampled world and the hand is
    finished on masks (``_finished_value``), the world left as it is: ``playout`` after
    the card, without a clone or ``apply``.  None before the card play or under options
    the playout does not model."""
    assert isinstance(world, EuchreState)
    if world.phase != PLAYING or not models_options(world.spec, world.options, PLAYOUT_OPTIONS):
        return None
    if seat != world.turn or not 0 <= action < 52 or not world.legal_actions_mask() >> action & 1:
        return None  # the game says why it is not allowed
    return _finished_value(world, seat, action)


def distinct_actions(obs: Observation) -> list[str]:
    """The candidates search tries: every legal action, but search never trumps a trick
    its partner holds in last seat (``spare_partners_trick``).  A bid where the rules
    pass and a lone hand where they play with the partner are candidates, held to
    higher bars (``switch_z``)."""
    assert isinstance(obs, EuchreObservation)
    if obs.phase == Phase.PLAYING and obs.trick:
        return _sparing_partner(obs)
    return list(obs.legal)


def _sparing_partner(obs: EuchreObservation) -> list[str]:
    """``spare_partners_trick`` on the observation: no trump on a plain-suit trick the
    partner holds in last seat."""
    table = table_from_observation(obs)
    trump, effective = table.trump, EFFECTIVE_SUIT[table.trump]
    holder = trick_winner(trump, table.trick)[0]
    led_trump = effective[table.trick[0][1]] == trump
    trumps = [] if led_trump else [t for t in obs.legal if effective[parse_action(t)] == trump]
    return spare_partners_trick(obs.legal, obs.seat, holder, not table.seats_after(), trumps)


# -- inference: the whole history replayed without the game ---------------------------
BidDecision = tuple[int, int, int, int, int, Mapping[str, Any], bool]
"""A decision before the card play of another seat than the observer's: its history
position, the seat, the phase, the suit turned down, the trump, the options, and
whether the seat (the dealer) holds the up-card then besides his dealt hand."""


class _Bidding:
    """The decisions before the first card of one public history, as every world
    sampled for one observation replays them: what the legal actions
    (``state.bid_actions``) and the rules' bid (``bid``) read there besides the seat's
    hand is public, the same in each world, so the history is replayed through the
    game once (on the first world) and each world asks the rules with its hands."""

    def __init__(self, key: tuple[Any, ...], world: EuchreState, me: int, end: int):
        self.key, self.options = key, world.options
        self.decisions: list[BidDecision] = []
        state = world.restarted()
        assert isinstance(state, EuchreState)
        history, actors = world.history, world.actors
        for position in range(end):
            seat = actors[position]
            if seat != me:
                holds_up = state.picked_up and seat == state.dealer
                self.decisions.append((position, seat, state.phase, state.turned_down, state.trump, state.options,
                                       holds_up))
            state.apply(history[position])


_BIDDING: list[_Bidding | None] = [None]
"""The public history last replayed for inference and its ``_Bidding``: one entry,
read and replaced whole (threads only ever miss it)."""


def _bidding(world: EuchreState, me: int, end: int) -> _Bidding:
    """The ``_Bidding`` of ``world``'s first ``end`` actions seen by ``me``: keyed by
    what every world of one observation shares (the actions but the dealer's discard,
    which is each world's own and the last action before the first card)."""
    history = world.history
    bids = end - 1 if world.discard >= 0 else end
    key = (me, world.dealer, world.up_card, end, tuple(history[:bids]))
    bidding = _BIDDING[0]
    if bidding is None or bidding.key != key or (bidding.options is not world.options
                                                 and bidding.options != world.options):
        bidding = _Bidding(key, world, me, end)
        _BIDDING[0] = bidding
    return bidding


def bid_disagreements(world: EuchreState, me: int, end: int, hands: list[int], limit: int) -> list[int] | None:
    """The positions before ``end`` (the first card) at which another seat than ``me``
    with a choice did not bid as the rules would with its hand in ``world`` (``hands``:
    as dealt), at most ``limit`` of them; None where the reference replay would stop
    (an action the world's hands do not allow)."""
    history, dealer, up = world.history, world.dealer, world.up_card
    differ: list[int] = []
    for position, seat, phase, turned_down, trump, options, holds_up in _bidding(world, me, end).decisions:
        hand = hands[seat] | 1 << up if holds_up else hands[seat]
        legal = bid_actions(phase, seat, dealer, turned_down, hand, options)
        action = history[position]
        if action not in legal:
            return None
        if len(legal) > 1 and bid(phase, seat, dealer, up, turned_down, trump, options, hand, legal) != action:
            differ.append(position)
            if len(differ) == limit:
                break  # enough to bring the weight to its floor
    return differ


def whole_disagreements(world: DealState, me: int, limit: int) -> list[int] | None:
    """The history positions at which another seat than ``me`` did not take the
    rules' action, in order (at most ``limit``; -1: all), from the deal's start and
    without replaying it through the game: the bids with ``bid_disagreements``, the
    cards in the kernel (``kernel.disagreements``) from the world's hands at the first
    lead.  None under options the kernel does not follow, or where the reference replay
    would stop in the bidding (it goes on from there)."""
    assert isinstance(world, EuchreState)
    if not models_options(world.spec, world.options, PLAYOUT_OPTIONS):
        return None
    history = world.history
    end = first_card(world)
    hands = list(world.dealt)  # the bids' hands
    differ = bid_disagreements(world, me, end, hands, limit)
    if differ is None or end == len(history) or len(differ) == limit:
        return differ
    dealer, up, discard, out = world.dealer, world.up_card, world.discard, world.out
    if world.picked_up:
        hands[dealer] |= 1 << up
    if discard >= 0:
        hands[dealer] &= ~(1 << discard)
    public = 1 << up if world.turned_down >= 0 else 0
    dealer_only = 1 << discard if discard >= 0 else 0
    cards = kernel.disagreements(world.trump, world.maker, out, dealer, hands, public, dealer_only,
                                 NEXT_ACTIVE[out][dealer], history[end:], me, FOLLOWING[out],
                                 limit - len(differ) if limit >= 0 else -1)
    return None if cards is None else differ + [end + i for i in cards]


def _from_the_deal(world: DealState) -> int:
    """``CardReplay.start``: Euchre's replay is the whole history (-1 without any)."""
    return 0 if world.history else -1


def _from_the_start(state: DealState, world: DealState, me: int, limit: int) -> list[int] | None:
    """``CardReplay.disagreements`` from the deal's start (``state``): ``whole_disagreements``."""
    return whole_disagreements(world, me, limit)


CARDS = CardReplay(_from_the_deal, _from_the_start, whole_disagreements)
"""Euchre's whole history for inference: the bids without the game, the cards in the kernel."""


# -- search ----------------------------------------------------------------------
def _spec() -> GameSpec:
    from tricktable.games.euchre import SPEC

    return SPEC


_PASS = action_text(PASS)
BID_SWITCH_Z = 2.0
"""Standard errors of its paired advantage a bid (order up, call) needs where the rules
pass.  Rollouts see the partner's cards, so a marginal order looks better than it is:
with any bid at ``SWITCH_Z`` (one standard error) search in all seats was euchred in
15.7 % of contracts, and when only the rules' bids were allowed the orders and calls they
would not have made had been euchred in 32 of 70 (418 deals).  At two standard errors:
euchred 12.4 % at the normal level (1,000 deals) and 14.9 % ± 1.7 at the hard level
(457 deals), +0.029 ± 0.018 points per deal against the normal level without it (540
duplicate deals; docs/strength.md)."""


def makes_trump_where_the_rules_pass(obs: Observation, action: str, default: str) -> bool:
    """``action`` orders up or names trump where the rules' ``default`` is to pass."""
    bidding = isinstance(obs, EuchreObservation) and obs.phase in (Phase.ROUND1, Phase.ROUND2)
    return bidding and default == _PASS and action != _PASS


LONE_SWITCH_Z = 3.0
"""Standard errors of its paired advantage a lone hand needs where the rules play with the
partner.  The strength targets want lone hands in at most 8 % of contracts, made at least
90 % of the time.  Left to the rules they were 5 % and the choice cost points:
letting search weigh it at ``SWITCH_Z`` gained +0.036 ± 0.005 points per deal at the normal
level (2,000 duplicate deals) but went alone in 17.0 % of contracts (96.5 % made; 1,000
deals).  The higher bar keeps the lone hands search is surest of (docs/strength.md)."""
_ALONE = action_text(ALONE)


def goes_alone_where_the_rules_do_not(obs: Observation, action: str, default: str) -> bool:
    """``action`` is a lone hand where the rules' ``default`` plays with the partner."""
    return (isinstance(obs, EuchreObservation) and obs.phase == Phase.ALONE_CHOICE
            and action == _ALONE and default != _ALONE)


def switch_z(obs: Observation, action: str, default: str) -> float:
    """``SearchGame.switch_z``: ``BID_SWITCH_Z`` for making trump where the rules pass,
    ``LONE_SWITCH_Z`` for a lone hand where they play with the partner, ``SWITCH_Z`` for
    every other departure from the rules."""
    if makes_trump_where_the_rules_pass(obs, action, default):
        return BID_SWITCH_Z
    if goes_alone_where_the_rules_do_not(obs, action, default):
        return LONE_SWITCH_Z
    return SWITCH_Z


DEALER_EUCHRE_RISK = 0.3
"""The largest share of the (weighted) worlds in which the dealer's pick-up where the
rules pass may be euchred.  Search at the hard level in all seats (main, seeds
diag-s9a/b, 238 contracts with a choice, each rollout's estimate against the deal's result) judged
its contracts' risk about right (rollouts euchred in 15 % of the worlds, real 17 %),
bids the rules would not make included (the dealer's partner's orders: 21 % and 15 %;
round 2: 38 % and 33 %), but for one: the dealer picking up, mostly two small trumps
after three passes, where the rules pass: rollouts 38 %, real 58 % (7 of 12), −0.75
points per contract against −0.11 estimated, at 5 to 17 standard errors of advantage
over passing, which no ``BID_SWITCH_Z`` would stop (docs/strength.md)."""


BID_EUCHRE_RISK = 0.4
"""The same for every other bid where the rules pass.  Such bids are the hard level's
euchres above the rules' own: at 250 ms (main at 72a58dc, seeds behave-s14a/b, 987 contracts
with a choice) search's 156 departures were euchred 35 % of the time (its rollouts: 30 %)
against 11 % for the rules' bids (the same calibration).  Those its worlds
euchre 40 % of the time or more are round-2 calls that lose less than passing would
(rollouts −0.30 against −0.61 points), a defence the euchred-rate target
(≤ 15 % of contracts) does not leave room for: with the veto the hard level was euchred in
14.4 % of 2,000 contracts against 15.2 % on the same deals (docs/strength.md)."""


def weights_where(values: Sequence[tuple[float, float]], holds: Callable[[float], bool]) -> tuple[float, float]:
    """The weight of the worlds whose value ``holds`` and the total weight of all of
    them, from a candidate's ``(weight, value)`` pairs: the two sums a veto compares."""
    return sum(weight for weight, value in values if holds(value)), sum(weight for weight, _ in values)


def vetoes_a_risky_bid(obs: Observation, action: str, default: str, values: Sequence[tuple[float, float]]) -> bool:
    """``SearchGame.veto``: a bid where the rules pass, when its makers are euchred (the
    only deal a maker's side ends below zero) in ``DEALER_EUCHRE_RISK`` (the dealer's
    pick-up) or ``BID_EUCHRE_RISK`` (any other) of the worlds or more."""
    assert isinstance(obs, EuchreObservation)
    if not makes_trump_where_the_rules_pass(obs, action, default):
        return False
    dealer_picks_up = obs.phase == Phase.ROUND1 and obs.seat == obs.dealer
    risk = DEALER_EUCHRE_RISK if dealer_picks_up else BID_EUCHRE_RISK
    euchred, total = weights_where(values, lambda value: value < 0)
    return total > 0 and euchred >= risk * total


LONE_MARCH_SHARE = 0.6
"""The smallest share of the (weighted) worlds in which a lone hand the rules would not
play must march (take all five tricks: the only outcome in which going alone scores more
than the partner's help).  See ``LONE_SWITCH_Z``: no bar on the advantage alone brought
search's lone hands below 11.6 % of contracts (five standard errors); the march share
picks the surest (docs/strength.md)."""
LONE_MARCH = float(deal_score(5, True)[1])
"""``seat_value`` of a lone march for the maker (the score table's, 4)."""


def vetoes_an_unsure_lone_hand(obs: Observation, action: str, default: str,
                               values: Sequence[tuple[float, float]]) -> bool:
    """A lone hand where the rules play with the partner, unless it marches in
    ``LONE_MARCH_SHARE`` of the worlds or more."""
    if not goes_alone_where_the_rules_do_not(obs, action, default):
        return False
    marches, total = weights_where(values, lambda value: value >= LONE_MARCH)
    return total <= 0 or marches < LONE_MARCH_SHARE * total


def veto(obs: Observation, action: str, default: str, values: Sequence[tuple[float, float]]) -> bool:
    """``SearchGame.veto``: a risky bid, an unsure lone hand."""
    return (vetoes_a_risky_bid(obs, action, default, values)
            or vetoes_an_unsure_lone_hand(obs, action, default, values))


SEARCH = SearchGame(_spec(), heuristic_action, seat_value, solved_value, weight_for(heuristic_action, cards=CARDS),
                    heuristic_text, playout, trial, switch_z, veto)

WORLDS_PER_MS = 7.0
"""Sampled worlds per millisecond of budget, so that a budget costs at most about that much
CPU at p95 on the 2-core machine, as in Court Piece (``courtpiece.ROLLOUTS_PER_MS``).
``tricktable-lab timing euchre --bot search --deals 4 --no-hard-stop`` at four world
counts in one run (docs/strength.md), CPU ms p50 / p95:
200 worlds 16.2 / 24.0, 350 worlds 24.8 / 39.9, 1,000 worlds 74.5 / 108.6, 1,750 worlds
127.1 / 195.2 (wall = CPU, max 203.5): the normal level (50 ms) searches 350 worlds and
hard (250 ms) 1,750, within 250 ms wall at p95.  An earlier 4.0 (set on a loaded machine,
before later speed-ups of the kernels) bought 24 ms at p95 for a 50 ms budget.  With 190
worlds or more search passes the first seat's JS JC AD 9H 10D under a turned 9S to call
clubs ("next"), which the rules order up; passing measured better, and the scenario tests
say so."""
WORLDS_PER_MS_WITHOUT_INFERENCE = 9.0
"""The same without inference's weight (the ``search-noinfer`` bot, Euchre's normal level
before inference was measured stronger; no level plays it now): 350 worlds 17.7 / 35.9 ms,
600 worlds 31.3 / 62.7 ms (CPU p50 / p95, the same timing), so 450 at 50 ms."""


def worlds_for(budget_ms: float, actions: int = 2, inference: bool = True) -> int:
    return max(4, int(budget_ms * (WORLDS_PER_MS if inference else WORLDS_PER_MS_WITHOUT_INFERENCE)))
