"""Court Piece computer players (Double Sar and Single Sar): expert rules and search.

Calling: the caller names his best suit among his first five cards (length first,
then honours) and passes to his partner only with no suit of two cards with an
honour; the partner must name one.  Change trump: the caller changes once he sees
a clearly longer or stronger suit among his thirteen cards.

Card play: second hand low, third hand high, the cheapest winning card last,
ruff with the cheapest trump unless an opponent after us has shown out of the suit
led, never trump a partner's trick that holds, throw off the lowest card of the
shortest plain suit.  In Double Sar the pile changes what a trick is worth: a
player who won the last trick captures the pile with the next, so we fight
hardest to complete our own pair and to break an opponent's streak, and do not
overtake a partner who is about to capture.

The rules (``decide``) decide from a ``Table`` built from the observation (the
bot) or from a sampled world for the seat to move (rollouts), holding only that
seat's knowledge.  Calling and changing trump are decided here; the card play is
written once, in the kernel (``courtpiece_kernel``, compiled at install): the bot
asks it on the table's masks (``choose_card``), the rollouts on a state's
(``kernel_action``, ``playout``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from tricktable import speedups
from tricktable.bots.base import note_trick, spare_partners_trick, strongest_play
from tricktable.bots.inference import CardReplay, first_card, weight_for
from tricktable.bots.playout import models_options
from tricktable.bots.search import SWITCH_Z, SearchGame, team_value
from tricktable.cards import TEN, mask_of, parse_card, rank_of
from tricktable.core.observation import Observation
from tricktable.core.protocol import DealState, GameSpec, GameState
from tricktable.games.courtpiece.actions import CALL, CHANGE, NEW_CARDS, PASS, REVEAL, action_text, parse_action
from tricktable.games.courtpiece.observation import CourtPieceObservation
from tricktable.games.courtpiece.rules import NEXT, NO_TRUMP, POWER, SUIT_OF, SUITS
from tricktable.games.courtpiece.scoring import SevenTricks, Tens
from tricktable.games.courtpiece.state import CALLING, PARTNER_CALLING, PLAYING, CourtPieceState, cards_in
from tricktable.games.courtpiece.tricks import Pile, SingleTricks
from tricktable.games.courtpiece.trump import Called, FirstVoid, HiddenCard
from tricktable.games.courtpiece.variants import Variant

if TYPE_CHECKING:
    from tricktable.bots import courtpiece_kernel as kernel
else:
    kernel = speedups.load("tricktable.bots.courtpiece_kernel")

PASS_BELOW = 7.0
CHANGE_MARGIN = 6.0


# -- what a seat knows ----------------------------------------------------------------
@dataclass
class Table:
    """What the seat to decide knows, from its observation (the bot) or from a
    sampled world for the seat to move (rollouts): only that seat's knowledge."""

    seat: int
    hand: int  # the cards it sees in its hand (the first five while trump is called)
    trump: int  # the trump in force, NO_TRUMP while none is set or it is hidden
    trick: list[tuple[int, int]]
    gone: int  # cards played so far
    voids: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # bit s: void in suit s
    pile: int = -1  # Double Sar, Be-Ranga: tricks in the pile (-1: no pile)
    open_seat: int = -1  # who won the last trick and may capture with the next
    tricks_played: int = 0
    phase: int = PLAYING  # a Phase value
    own_down: int = -1  # Hidden Trump, Mendikot: the card this seat put face down (-1: none or not his)
    trump_hidden: bool = False  # a card lies face down
    trump_by: int = -1
    after_reveal: bool = False  # this seat just asked to see trump
    trump_trick: int = 0  # Be-Ranga: the trick that set trump


def _seated(leader: int, cards: Sequence[int]) -> list[tuple[int, int]]:
    plays, seat = [], leader
    for c in cards:
        plays.append((seat, c))
        seat = NEXT[seat]
    return plays


def table_from_state(state: CourtPieceState) -> Table:
    """The seat to move's table in a (sampled) world: its own hand and face-down
    card, and the public facts — the rollouts' fast path."""
    seat = state.turn
    gone, voids_t = _tally(state)
    voids = list(voids_t)
    trick = _seated(state.leader, state.trick)
    if trick:
        gone |= note_trick(voids, trick, SUIT_OF)
    on_pile = state.variant.has_pile
    playing = state.phase == PLAYING
    return Table(seat, state.hands[seat] if playing else state.first_five[seat], state.trump, trick, gone, voids,
                 state.pile if on_pile else -1, state.open_seat if on_pile else -1, len(state.tricks), state.phase,
                 state.down if seat == state.trump_by else -1, state.down >= 0, state.trump_by, state.must_trump,
                 state.trump_trick)


_LAST_TALLY: list[tuple[CourtPieceState | None, int, int, tuple[int, ...]]] = [(None, 0, 0, (0, 0, 0, 0))]
"""The (sampled) state last tallied, how many of its finished tricks, the cards in
them and the voids they showed.  A rollout asks after every card on the same
state, so only the tricks since the last call are added; one entry is enough (a
rollout plays one state to its end) and cheaper than a weak mapping.  The bot keeps
this itself and writes nothing on a state; the entry is read and replaced whole,
so bots in several threads only ever miss it."""


def _tally(state: CourtPieceState) -> tuple[int, tuple[int, ...]]:
    last, count, gone, voids_t = _LAST_TALLY[0]
    tricks = state.tricks
    if last is not state or count > len(tricks):
        count, gone, voids_t = 0, 0, (0, 0, 0, 0)
    if count < len(tricks):
        voids = list(voids_t)
        for leader, cards, _ in tricks[count:]:
            gone |= note_trick(voids, _seated(leader, cards), SUIT_OF)
        voids_t = tuple(voids)
    _LAST_TALLY[0] = (state, len(tricks), gone, voids_t)
    return gone, voids_t


def table_from_observation(obs: CourtPieceObservation) -> Table:
    voids = [0, 0, 0, 0]
    gone = 0
    for t in obs.tricks:
        gone |= note_trick(voids, t.cards, SUIT_OF)
    trick = list(obs.trick)
    if trick:
        gone |= note_trick(voids, trick, SUIT_OF)
    hidden = obs.hidden
    pile = obs.pile
    open_seat = pile.open_pair[0] if pile and pile.open_pair else -1
    return Table(obs.seat, mask_of(obs.hand), obs.trump if obs.trump is not None else NO_TRUMP, trick, gone, voids,
                 pile.pile if pile else -1, open_seat, len(obs.tricks), obs.phase,
                 hidden.hidden_card if hidden and hidden.hidden_card is not None else -1,
                 bool(hidden and hidden.trump_hidden), obs.trump_by if obs.trump_by is not None else -1,
                 bool(obs.actions) and obs.actions[-1] == (obs.seat, "reveal"), obs.trump_trick)


# -- card play (in the kernel) --------------------------------------------------------
def beats(trump: int, card: int, best: int) -> bool:
    if SUIT_OF[card] == SUIT_OF[best]:
        return POWER[trump][card] > POWER[trump][best]
    return SUIT_OF[card] == trump


# (seat, card) holding a trick so far: trick_winner(trump or table, trick)
trick_winner = partial(strongest_play, beats)

UNSEEN_DOWN = 0
"""``choose_card``'s stand-in for a card lying face down that this seat did not put
there: the kernel only asks whether one lies down (what it is, only its hider knows)."""


def choose_card(table: Table, legal: Sequence[int], card_rules: int = 0) -> int:
    """The rules' card (or ``REVEAL``, where ``legal`` offers it) for the table's seat:
    the kernel's card play (``courtpiece_kernel.choose_action``, the one copy of the
    family's card rules, the rollouts' too) on the table's masks, with ``card_rules``
    (the relatives' kernel bits: Be-Ranga's and Mendikot's card play)."""
    cards, may_reveal = 0, False
    for action in legal:
        if action < 52:
            cards |= 1 << action
        elif action == REVEAL:
            may_reveal = True
    trick = table.trick
    down = table.own_down if table.own_down >= 0 else (UNSEEN_DOWN if table.trump_hidden else -1)
    action = kernel.choose_action(table.seat, table.hand, cards, may_reveal, table.trump,
                                  trick[0][0] if trick else table.seat, [c for _, c in trick], table.gone,
                                  list(table.voids), table.pile, table.open_seat, table.tricks_played,
                                  table.trump_trick, down, table.trump_by, table.after_reveal, card_rules)
    return REVEAL if action == kernel.REVEAL else action


# -- calling -------------------------------------------------------------------------
def suit_points(cards: Sequence[int], suit: int) -> float:
    """A suit's worth as trump: 3 points a card, ace 3, king 2, queen 1, jack 0.5
    (``courtpiece_kernel.twice_suit_points``, which Be-Ranga's trump setting shares)."""
    return kernel.twice_suit_points(mask_of(cards), suit) / 2


def best_suit(cards: Sequence[int]) -> tuple[int, float]:
    """The suit worth most as trump (the first on a tie) and its points."""
    hand = mask_of(cards)
    return max(((s, kernel.twice_suit_points(hand, s) / 2) for s in SUITS), key=lambda item: item[1])


def call_action(cards: Sequence[int], may_pass: bool) -> int:
    suit, points = best_suit(cards)
    return PASS if may_pass and points < PASS_BELOW else CALL + suit


def change_choice(cards: Sequence[int], trump: int) -> int | None:
    suit, points = best_suit(cards)
    return suit if suit != trump and points >= suit_points(cards, trump) + CHANGE_MARGIN else None


# -- the rules: one decision for the seat to move ----------------------------------------
def decide(table: Table, legal: Sequence[int]) -> int:
    """The rules' action for Double Sar and Single Sar (the one set of expert
    rules, for the bot and the rollouts); ``legal`` without new cards."""
    if len(legal) == 1:
        return legal[0]
    if table.phase in (CALLING, PARTNER_CALLING):
        return call_action(cards_in(table.hand), PASS in legal)
    if not table.trick and any(CHANGE <= a < CHANGE + 4 for a in legal):
        change = change_choice(cards_in(table.hand), table.trump)
        if change is not None:
            return CHANGE + change
    return choose_card(table, legal)


def heuristic_action(state: GameState) -> int:
    """The rules' action for the seat to move in a (sampled) state; used by rollouts
    and inference (in the kernel where it models the position, ``kernel_action``)."""
    assert isinstance(state, CourtPieceState)
    fast = kernel_action(state, 0)
    return fast if fast >= 0 else decide(table_from_state(state), bot_legal(state.legal_actions()))


def heuristic_text(obs: Observation) -> str:
    """The rules' action for an observation (the ``heuristic`` bot)."""
    assert isinstance(obs, CourtPieceObservation)
    legal = bot_actions(obs)
    if len(legal) == 1:
        return legal[0]
    return action_text(decide(table_from_observation(obs), [parse_action(t) for t in legal]))


def bot_legal(legal: Sequence[int]) -> Sequence[int]:
    """The legal actions a computer player considers: never new cards (a
    person's privilege), unless it is all there is."""
    kept = [a for a in legal if a != NEW_CARDS]
    return kept if kept else legal


def bot_actions(obs: CourtPieceObservation) -> list[str]:
    """``bot_legal`` on an observation's texts."""
    legal = [t for t in obs.legal if t != "new cards"]
    return legal or list(obs.legal)


def played_mask(obs: CourtPieceObservation) -> int:
    """Every card played so far (finished tricks and the current one)."""
    return mask_of(c for t in obs.tricks for _, c in t.cards) | mask_of(c for _, c in obs.trick)


def distinct_actions(obs: Observation, rules: str | None = None, tens_apart: bool = False) -> list[str]:
    """``bot_actions`` with each set of equivalent cards tried once: two cards of a suit
    with every card between them already played win and lose alike.  The set is tried
    as the rules' card (``rules``, by default ``heuristic_text``) where it holds it, so
    search always has the rules' action to beat by ``switch_z`` standard errors (the
    rules play the higher of two such cards in about one card decision in a hundred,
    third hand high; tried as the lower one, search lost its default and played its
    best mean with no bar), else as its lowest card; and no trump on a trick the partner
    holds in last seat (``sparing_partner``)."""
    assert isinstance(obs, CourtPieceObservation)
    legal = bot_actions(obs)
    default = heuristic_text(obs) if rules is None else rules
    gone = played_mask(obs)
    playable = mask_of(parse_card(t.split()[1]) for t in legal if t.startswith("play "))
    default_set = _lowest_equivalent(parse_card(default.split()[1]), gone, playable, tens_apart) \
        if default.startswith("play ") else -1
    kept = []
    for text in legal:
        if text.startswith("play "):
            c = parse_card(text.split()[1])
            lowest = _lowest_equivalent(c, gone, playable, tens_apart)
            if text != default and (lowest == default_set or lowest != c):
                continue  # tried as the rules' card, or as the lowest of its set
        kept.append(text)
    return sparing_partner(obs, kept)


def _lowest_equivalent(c: int, gone: int, playable: int, tens_apart: bool) -> int:
    """The lowest card of ``playable`` equivalent to ``c``: down the suit past played
    cards, as long as the next live card is playable too (and, ``tens_apart``, neither
    of the two is a ten)."""
    lowest = below = c
    while not (tens_apart and rank_of(lowest) == TEN):
        below -= 1
        while below >= 0 and SUIT_OF[below] == SUIT_OF[c] and gone >> below & 1:
            below -= 1
        if below < 0 or SUIT_OF[below] != SUIT_OF[c] or not playable >> below & 1:
            return lowest
        if tens_apart and rank_of(below) == TEN:
            return lowest
        lowest = below
    return lowest


def sparing_partner(obs: CourtPieceObservation, legal: list[str]) -> list[str]:
    """``spare_partners_trick`` where trump is open to all (not while it lies face
    down, nor in Be-Ranga's trick that sets it), unless winning the trick would capture
    the pile for this seat itself (Double Sar, Be-Ranga)."""
    hidden, pile, trick = obs.hidden, obs.pile, obs.trick
    trump = obs.trump
    if (not trick or trump is None or (hidden and hidden.trump_hidden) or obs.trump_trick == len(obs.tricks) + 1
            or (pile and pile.open_pair and pile.open_pair.seat == obs.seat) or SUIT_OF[trick[0][1]] == trump):
        return legal
    trumps = [t for t in legal if t.startswith("play ") and SUIT_OF[parse_card(t.split()[1])] == trump]
    return spare_partners_trick(legal, obs.seat, trick_winner(trump, trick)[0], len(trick) == 3, trumps)


# -- fast playout (rollouts) --------------------------------------------------------
PLAYOUT_OPTIONS = frozenset({"counting", "target_points", "target_kots", "new_cards", "person_seat", "change_trump",
                             "first_game", "ace_on_ace", "trump_ace_cannot_seal", "no_pile_on_11_12",
                             "new_cards_on_turn", "call_any_suit"})
"""The options the fast playout follows: the pile's house rules (kernel rule bits),
the counting (the game's own scoring applies it); the others only change the
calling, which is over when it starts, or when new cards may be asked (the bots
never ask) — the first rules version's legacy options among them, so a search
under ``--rules-version GAME-1`` runs in the kernel too.  Any other option away
from its default keeps the rollout in the real game."""


def playout(state: GameState, seat: int, card_rules: int) -> float | None:
    """Finish the card play in the compiled kernel (``courtpiece_kernel``: the
    rules' card choice on masks, with ``card_rules``, the game's own card rules as
    kernel bits), then score with the game's own scoring on the tricks (and tens)
    each team counts.  The state keeps only that result (captured tricks, tens,
    outcome, points), not the cards.  None while trump is called, at the first lead
    while a change of trump is on offer (the rules decide it in Python), for a
    variant the kernel does not model or under options it does not follow: the
    rollout then goes on through ``GameState.apply``."""
    assert isinstance(state, CourtPieceState)
    rules = _rules_for_cards(state)
    if rules < 0:
        return None
    kernel.play_deal(state.hands, state.trump, state.leader, state.trick, state.tricks, state.captured, state.tens,
                     state.pile, state.open_seat, state.open_card, state.trump_trick, state.down, state.trump_by,
                     state.must_trump, state.trumps_from, rules | card_rules)
    state.finish(*state.variant.scoring.resolve(state))
    return team_value(state, seat)


HOUSE_RULES = (("ace_on_ace", kernel.ACE_ON_ACE), ("trump_ace_cannot_seal", kernel.TRUMP_ACE_CANNOT_SEAL),
               ("no_pile_on_11_12", kernel.NO_PILE_ON_11_12))
"""The pile's house rules as the kernel's rule bits."""


def kernel_rules(state: CourtPieceState) -> int:
    """The variant's trump choice, trick value and end of deal as the kernel's rule
    bits (a trump called, put face down, or set by the first void; one trick or the
    pile; seven tricks or the tens), with the pile's house rules in force; -1 for a
    variant it does not model or under options it does not follow (``PLAYOUT_OPTIONS``).

    Every rollout and every rollout decision asks, and the worlds of one search share
    their variant and options: the answer is kept for the last (variant, options)
    seen, compared by value (a plain tuple of the options' items, so an options
    mapping changed in place is never answered from the cache)."""
    variant, items = state.variant, tuple(state.options.items())
    last = _LAST_RULES[0]
    if last[0] is variant and last[1] == items:
        return last[2]
    rules = _rules_of(variant, state.spec, state.options)
    _LAST_RULES[0] = (variant, items, rules)
    return rules


_LAST_RULES: list[tuple[Variant | None, tuple[tuple[str, Any], ...], int]] = [(None, (), -1)]
"""(variant, options' items, ``kernel_rules``) last computed; read and replaced whole,
so searches in several threads only ever miss it."""


def _rules_of(variant: Variant, spec: GameSpec, options: Mapping[str, Any]) -> int:
    if not models_options(spec, options, PLAYOUT_OPTIONS):
        return -1
    rules = _VARIANT_RULES.get(id(variant))
    if rules is None:
        rules = _VARIANT_RULES[id(variant)] = _variant_rules(variant)
    if rules >= 0 and rules & kernel.PILE:
        for name, bit in HOUSE_RULES:
            if options.get(name):
                rules |= bit
    return rules


_VARIANT_RULES: dict[int, int] = {}
"""``_variant_rules`` by the variant's id (the variants are module constants, never freed)."""


def _variant_rules(variant: Variant) -> int:
    choice = type(variant.trump)
    if choice is FirstVoid:
        rules = kernel.FIRST_VOID
    elif choice is Called or choice is HiddenCard:
        rules = 0
    else:
        return -1
    scoring = type(variant.scoring)
    if scoring is SevenTricks:
        rules |= kernel.SEVEN_TRICKS
    elif scoring is Tens:
        rules |= kernel.TENS
    else:
        return -1
    tricks = variant.tricks
    if type(tricks) is SingleTricks:
        return rules
    if type(tricks) is not Pile:
        return -1
    return rules | kernel.PILE | (kernel.WAIT_FOR_TRUMP if tricks.wait_for_trump else 0)


# -- search ------------------------------------------------------------------------
def kernel_action(state: CourtPieceState, card_rules: int) -> int:
    """The rules' card (or reveal) for the seat to move, from the kernel with
    ``card_rules`` (as ``playout``); -1 where the kernel does not model the position."""
    rules = _rules_for_cards(state)
    if rules < 0:
        return -1
    action = kernel.decide(state.hands, state.trump, state.leader, state.trick, state.tricks,
                           state.pile, state.open_seat, state.trump_trick, state.down, state.trump_by,
                           state.must_trump, rules | card_rules)
    return REVEAL if action == kernel.REVEAL else action


# -- inference: the card play replayed in the kernel ------------------------------------
def after_first_card(world: DealState) -> int:
    """Where the kernel's replay of a world starts: after the first card (the first
    lead, which may change trump, is the rules' in Python, as ``kernel_action`` says)."""
    first = first_card(world)
    return first + 1 if first >= 0 else -1


def card_disagreements(state: DealState, world: DealState, me: int, limit: int,
                       card_rules: Mapping[str, int]) -> list[int] | None:
    """The history positions from ``state`` on at which another seat than ``me`` did not
    play the rules' card (``kernel.disagreements``, with the game's ``card_rules`` as
    in its policy; at most ``limit``); None where the kernel does not model the position."""
    assert isinstance(state, CourtPieceState)
    rules = modelled_rules(state)
    if rules < 0:
        return None
    start = len(state.history)
    differ = kernel.disagreements(state.hands, state.trump, state.leader, state.trick, state.tricks, state.pile,
                                  state.open_seat, state.open_card, state.trump_trick, state.down,
                                  state.trump_by, state.must_trump, state.trumps_from,
                                  rules | card_rules.get(state.spec.name, 0), world.history[start:], REVEAL, me,
                                  limit)
    return None if differ is None else [start + i for i in differ]


def modelled_rules(state: CourtPieceState) -> int:
    """``kernel_rules`` from the first trick's second card on (where inference's replay
    in the kernel starts; ``playout`` and ``kernel_action`` take the first lead too when
    no change of trump is on offer), under options it follows; else -1."""
    if state.phase != PLAYING or not (state.tricks or state.trick):
        return -1
    return kernel_rules(state)


def _rules_for_cards(state: CourtPieceState) -> int:
    """``modelled_rules``, and at the first lead too when the rules have only a card to
    choose: no change of trump on offer (new cards may be: the bots never ask)."""
    if state.phase == PLAYING and not (state.tricks or state.trick):
        if any(action >= 52 and action != NEW_CARDS for action in state.legal_actions()):
            return -1
        return kernel_rules(state)
    return modelled_rules(state)


def card_replay(card_rules: Mapping[str, int]) -> CardReplay:
    """The family's ``CardReplay`` for a policy that plays ``kernel_action`` with
    ``card_rules`` by game."""
    return CardReplay(after_first_card, partial(card_disagreements, card_rules=card_rules))


def _spec() -> GameSpec:
    from tricktable.games.courtpiece import DOUBLE_SAR

    return DOUBLE_SAR


CARDS = card_replay({})
"""Double Sar's and Single Sar's card play for inference, in the kernel."""

CHANGE_SWITCH_Z = 2.0
"""Standard errors of its paired advantage an action needs to replace the rules' change of
trump (keeping trump, or changing to another suit).  At the first lead search weighs a
dozen cards and the changes on some 25 worlds, and the best of them often clears one
standard error by luck: in 300 Double Sar deals search left 16 of the rules' 121 changes,
and played out with search in every seat those departures lost -0.68 ± 0.26 points
(docs/strength.md).  A change the rules do not make keeps ``SWITCH_Z``: those
gained +0.42 ± 0.15."""


def switch_z(obs: Observation, action: str, default: str) -> float:
    """``SearchGame.switch_z`` for the family: ``CHANGE_SWITCH_Z`` for leaving the rules'
    change of trump, ``SWITCH_Z`` for every other departure from the rules."""
    return CHANGE_SWITCH_Z if default.startswith("change trump") and action != default else SWITCH_Z


SEARCH = SearchGame(_spec(), heuristic_action, team_value, weight=weight_for(heuristic_action, cards=CARDS),
                    rules=heuristic_text,
                    playout=partial(playout, card_rules=0), switch_z=switch_z)
"""The spec in ``SEARCH`` is only a default: ``search_game`` picks the observation's game."""

ROLLOUTS_PER_MS = 3.8
"""Rollouts per millisecond of budget on the 2-core machine for ``search`` (worlds weighed
by inference: the arena's measure of it; no level plays it), so that a 250 ms budget
costs at most about 230 ms CPU at p95.  With world sampling kept per observation and
inference replayed in the kernel, the 30 bench decisions at 2.8 gave p95 167 ms (Double
Sar) and 152 ms (Single Sar) on a loaded machine (load average 12-14), 197 / 205 ms at
3.8; before the kernel the rate was 1.5."""
ROLLOUTS_PER_MS_WITHOUT_INFERENCE = 6.5
"""The same without inference's weight (``search-noinfer``: the normal level at 50 ms and
the hard level at 250 ms): about 50 ms CPU at p95 at 50 ms (14 / 18 ms at 2.8, 51 / 53 ms
at 7.0, the same decisions and load).  Today's kernels spend far less: hard's 250 ms costs
31–37 ms CPU p50 and 54–74 ms p95 (docs/strength.md)."""


def search_game(obs: Observation) -> SearchGame:
    from tricktable.games.courtpiece import FAMILY

    return replace(SEARCH, spec=FAMILY[obs.game])


def worlds_for(budget_ms: float, actions: int = 1, inference: bool = True) -> int:
    rate = ROLLOUTS_PER_MS if inference else ROLLOUTS_PER_MS_WITHOUT_INFERENCE
    return max(3, int(budget_ms * rate / max(1, actions)))
