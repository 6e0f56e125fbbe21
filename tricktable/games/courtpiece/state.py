"""The one state machine (one deal) of every Court Piece game — spec:
``shared/rules/court-piece.md``.

``CourtPieceState`` holds what the family shares: the deal in packets of 5-4-4,
calling trump from the first five cards (pass once to the partner, referee
timeouts, the random flip), the app's extras (new cards, change trump), following
suit, trick winners, scoring, views and notation.  What differs between the games
is the state's ``variant`` (``variants.py``): three small rule objects composed
per game — how trump is chosen (``trump.py``: called, a hidden card, the first
void), what a won trick is worth (``tricks.py``: one trick, or the pile) and how
a deal is decided (``scoring.py``: seven tricks, or the tens).  The state calls
them at fixed points and never asks which game it is.

The facts those parts keep are plain fields of the state, named and grouped
below, so a copy is one flat copy and every field has one writer: the trump
choice writes the trump fields (and the generic "must trump" / "trumps count
from" facts of a reveal), the trick value the pile fields, the scoring the tens.
Trump may stay ``NO_TRUMP`` during play: every rank table has a no-trump row.

Seats follow the room (0 South, 1 West, 2 North, 3 East); play goes to the right,
``NEXT[seat]``.  Actions are ints (``actions.py``):

>>> from tricktable.games.courtpiece import SINGLE_SAR
>>> state = SINGLE_SAR.new_deal(SINGLE_SAR.deal_from_seed("doc", 0, {}), SINGLE_SAR.normalize_options({}))
>>> state.to_move, state.legal_texts()  # a suit he holds among his first five cards (no spade)
(3, ['call C', 'call D', 'call H', 'pass to partner'])
>>> state.parse_action("change trump ♦") == CHANGE + 1, state.action_text(TIMEOUT)
(True, 'timeout')
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, ClassVar, Iterator, Mapping, Protocol, Sequence

from tricktable.cards import SUIT_LETTERS, card_text
from tricktable.errors import GameOver, IllegalAction, NotYourTurn
from tricktable.core.observation import Trick
from tricktable.core.protocol import Deal, GameSpec, ScoreLine
from tricktable.core.views import SeenActions, ViewKeepingState
from tricktable.core.rng import SeedStream, derive_seed
from tricktable.games.courtpiece import actions
from tricktable.games.courtpiece.actions import CALL, CHANGE, NEW_CARDS, PASS, TIMEOUT
from tricktable.games.courtpiece.observation import (
    PHASE_KEYS,
    CourtPieceObservation,
    CourtPieceResult,
    HiddenFacts,
    Outcome,
    PileFacts,
    Phase,
    VoidFacts,
)
from tricktable.games.courtpiece.rules import (
    CALL_SECONDS,
    FIRST_GAME_CALL_SECONDS,
    FIRST_PACKET,
    NEW_CARDS_DEAL,
    NEXT,
    NO_TRUMP,
    PACKETS,
    POWER,
    SUIT_MASKS,
    SUIT_OF,
)


CALLING, PARTNER_CALLING, PLAYING, DONE = (int(phase) for phase in Phase)
"""The phases as plain ints on the state: the interpreter compares exact ints much
faster than enum members, and the state compares its phase on every action."""
STOCK_SIZE = 52 - 4 * FIRST_PACKET


def _suit_tables() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``CARDS_IN[suit][bits]``: the cards of ``suit`` whose ranks are the 13-bit
    ``bits``, lowest first.  Listing a hand by suit from these tables is much
    faster than walking 52 bits (and than a cache, since hands rarely repeat)."""
    ranks: list[tuple[int, ...]] = [()] * 8192
    for bits in range(1, 8192):
        ranks[bits] = ((bits & -bits).bit_length() - 1,) + ranks[bits & (bits - 1)]
    return tuple(tuple(tuple(r + 13 * s for r in rs) for rs in ranks) for s in range(4))


CARDS_IN = _suit_tables()
SUIT_SHIFT = (0, 13, 26, 39)


def cards_in(mask: int) -> tuple[int, ...]:
    """The cards of a 52-bit mask, lowest id first."""
    return (CARDS_IN[0][mask & 8191] + CARDS_IN[1][mask >> 13 & 8191]
            + CARDS_IN[2][mask >> 26 & 8191] + CARDS_IN[3][mask >> 39])


# _WINNER_KEY[trump][led][card]: the card's strength in a trick, -1 if it cannot win.
_WINNER_KEY = tuple(
    tuple(tuple(POWER[t][c] if SUIT_OF[c] in (t, led) else -1 for c in range(52)) for led in range(4))
    for t in range(5)
)
_BIT = tuple(1 << c for c in range(52))
SEAT_AFTER = tuple(tuple((leader + 3 * i) % 4 for i in range(4)) for leader in range(4))
"""``SEAT_AFTER[leader][i]``: who plays the ``i``-th card of a trick."""


def stock_order(deal: Deal) -> list[int]:
    """The undealt stock while trump is called, in the order it is dealt later
    (second packet from the caller round, then the third)."""
    seats = [NEXT[deal.dealer]]
    while len(seats) < 4:
        seats.append(NEXT[seats[-1]])
    stock: list[int] = []
    start = FIRST_PACKET
    for size in PACKETS[1:]:
        for seat in seats:
            stock += deal.hands[seat][start:start + size]
        start += size
    return stock


def flip_pick_of(deal: Deal) -> int:
    """Which stock position the dealer turns up after the partner's timeout: drawn
    from the deal's seed (an explicit deal uses its own text as the seed), so a
    record replays to the same flip."""
    seed = deal.seed if deal.seed is not None else json.dumps(deal.to_json(), sort_keys=True)
    return SeedStream(derive_seed(seed, "flip")).randbelow(STOCK_SIZE)


_SHARED = ("spec", "variant", "deal", "options", "dealer", "caller", "first_five", "flip_pick",
           "new_cards_allowed", "_play_actions", "_take", "_count_trick")
"""Fields a copy shares with its original: set once per deal, never written again."""
_COPIED = ("hands", "trick", "tricks", "captured", "points", "_history", "_actors", "captures", "tens")
"""The lists a copy gets its own of."""
_SCALARS = ("leader", "turn", "outcome", "winners", "phase", "trump", "trump_by", "flip_card", "changed_trump",
            "down", "revealed", "revealed_by", "revealed_trick", "must_trump", "trumps_from", "trump_trick",
            "pile", "open_seat", "open_card", "_seen", "_seen_tricks")
"""Plain values: a copy takes them as they are (the kept views are tuples)."""
_read_shared, _read_copied, _read_scalars = attrgetter(*_SHARED), attrgetter(*_COPIED), attrgetter(*_SCALARS)


class CourtPieceState(ViewKeepingState[Trick]):
    """One deal of a Court Piece game, from the first packet to the score; the
    spec, deal, options, dealer, hands, history and its actors, ``to_move`` and
    the end come from core's ``DealState``, the views' kept texts and tricks
    (``seen_actions``, ``seen_tricks``) from ``ViewKeepingState``."""

    DONE = DONE

    __slots__ = _SHARED + _COPIED + _SCALARS
    """The state's fields as slots: with some forty fields a plain instance
    dictionary no longer shares its keys, and every field read in play costs a
    hashed look-up (measured: a random deal 10% slower than with slots)."""

    def __init__(self, spec: GameSpec, deal: Deal, options: Mapping[str, Any], *, variant: Variant,
                 flip_pick: int | None = None, new_cards_allowed: bool = True):
        super().__init__(spec, deal, options)
        self.variant = variant
        self.caller = NEXT[deal.dealer]
        self.first_five = [sum(map(_BIT.__getitem__, hand[:FIRST_PACKET])) for hand in deal.hands]
        self.flip_pick = flip_pick
        self.new_cards_allowed = new_cards_allowed
        self.leader = self.turn = self.caller
        self.trick: list[int] = []
        self.tricks: list[Played] = []
        self.captured = [0, 0]  # tricks that count, per team
        self.outcome = ""
        self.winners = -1
        self.points = [0, 0]
        # -- written by the trump choice -------------------------------------------
        self.trump = NO_TRUMP
        self.trump_by = -1  # the seat that named (or set, or put down) trump; -1 after a flip
        self.flip_card = -1
        self.changed_trump = False
        self.down = -1  # the card lying face down, -1 when there is none
        self.revealed = -1  # the face-down card once shown
        self.revealed_by = -1  # who asked to see it
        self.revealed_trick = 0  # the number of the trick it was shown in
        self.must_trump = False  # the seat to move asked to see trump: it must trump if it can
        self.trumps_from = 0  # in the current trick: the first position whose trumps count
        self.trump_trick = 0  # the number of the trick whose void set trump
        # -- written by the trick value ----------------------------------------------
        self.pile = 0  # tricks lying face down in the middle
        self.open_seat = -1  # who won the last trick, if that win can still start a pair
        self.open_card = -1  # the card it was won with
        self.captures: list[tuple[int, int, int]] = []  # (trick number, seat, tricks taken)
        # -- written by the scoring ------------------------------------------------
        self.tens = [0, 0]  # tens taken, per team
        self.phase = CALLING if self.variant.trump.calls_trump else PLAYING
        # The parts' calls on the hot path of play, bound once (a rollout plays 52 cards).
        self._play_actions = self.variant.trump.play_actions
        self._take = self.variant.tricks.take
        self._count_trick = self.variant.scoring.count_trick

    # -- protocol ----------------------------------------------------------
    @property
    def callers(self) -> int:
        """The calling team (the caller's); the other team is the dealing team."""
        return self.caller % 2

    def legal_actions(self) -> Sequence[int]:
        phase = self.phase
        if phase == PLAYING:
            cards = self._playable_cards()
            if self.tricks and self.down < 0:
                return cards  # nothing is offered after the first trick, unless a card lies face down
            extra = self._play_actions(self)
            if not self.tricks and self.may_ask_new_cards(self.turn):
                extra += (NEW_CARDS,)
            return cards + extra if extra else cards
        if phase == DONE:
            return ()
        calls = self.variant.trump.calls(self)
        if phase == CALLING:
            calls.append(PASS)
        if self.may_ask_new_cards(self.turn):
            calls.append(NEW_CARDS)
        return calls

    def legal_actions_for(self, seat: int) -> Sequence[int]:
        """The seat to move's legal actions; out of turn, new cards for a seat that
        may ask for them now."""
        if seat == self.to_move:
            return self.legal_actions()
        return (NEW_CARDS,) if self.may_ask_new_cards(seat) else ()

    def apply_for(self, seat: int, action: int) -> None:
        if seat == self.to_move:
            self.apply(action)
        elif self.phase == DONE:
            raise GameOver("the deal is over")
        elif action != NEW_CARDS:
            raise NotYourTurn(f"it is seat {self.to_move}'s turn, not seat {seat}'s "
                              "(out of turn only new cards may be asked for)")
        elif not self.may_ask_new_cards(seat):
            raise IllegalAction(self._why_no_new_cards(seat))
        else:
            self._record_by(NEW_CARDS, seat)
            self.finish(NEW_CARDS_DEAL, -1)

    def out_of_turn_history(self) -> Mapping[int, int]:
        """Only new cards is ever asked out of turn, and it ends the deal: so it
        can only be the last action, by a seat that was not to move."""
        if self.outcome == NEW_CARDS_DEAL and self._actors[-1] != self.turn:
            return {len(self._history) - 1: self._actors[-1]}
        return {}

    def referee_actions(self) -> Sequence[int]:
        return (TIMEOUT,) if self.phase in (CALLING, PARTNER_CALLING) else ()

    def apply(self, action: int) -> None:
        if self.phase == PLAYING and 0 <= action < 52:
            if not self._playable() >> action & 1:
                raise IllegalAction(self._why_not_playable(action))
            self._play(action, self.turn)
        elif self.phase == DONE:
            raise GameOver("the deal is over")
        elif action == TIMEOUT:
            raise IllegalAction("only the referee (the server's clock) can call time")
        elif action not in self.legal_actions():
            raise IllegalAction(self._why_not(action))
        else:
            self._record_by(action, self.turn)
            self._decide(action)

    def apply_referee(self, action: int) -> None:
        if action not in self.referee_actions():
            raise IllegalAction(f"{self._describe(action)} is not a referee action now")
        self._record_by(action, self.turn)
        self._time_out()

    def returns(self) -> list[int]:
        return [self.points[seat % 2] for seat in range(4)]

    def breakdown(self) -> list[ScoreLine]:
        if self.phase != DONE:
            return []
        texts = self.variant.scoring.texts
        if self.outcome == NEW_CARDS_DEAL:
            return [ScoreLine(NEW_CARDS_DEAL, texts[NEW_CARDS_DEAL], 0)]
        lines = [ScoreLine("tricks", f"Tricks counted: {self.captured[team]}", self.captured[team], team=team)
                 for team in (0, 1)]
        lines += self.variant.scoring.lines(self)
        lines.append(ScoreLine(self.outcome, texts[self.outcome], self.points[self.winners], team=self.winners))
        return lines

    def restarted(self) -> "CourtPieceState":
        return CourtPieceState(self.spec, self.deal, self.options, variant=self.variant, flip_pick=self.flip_pick,
                               new_cards_allowed=self.new_cards_allowed)

    def clone(self) -> "CourtPieceState":
        # One unpacking per group, in the order of ``_SHARED``, ``_SCALARS`` and
        # ``_COPIED`` (a loop of setattr on slots is three times slower); the
        # clone test checks that every slot is copied.
        twin = object.__new__(CourtPieceState)
        (twin.spec, twin.variant, twin.deal, twin.options, twin.dealer, twin.caller, twin.first_five, twin.flip_pick,
         twin.new_cards_allowed, twin._play_actions, twin._take, twin._count_trick) = _read_shared(self)
        (twin.leader, twin.turn, twin.outcome, twin.winners, twin.phase, twin.trump, twin.trump_by, twin.flip_card,
         twin.changed_trump, twin.down, twin.revealed, twin.revealed_by, twin.revealed_trick, twin.must_trump,
         twin.trumps_from, twin.trump_trick, twin.pile, twin.open_seat, twin.open_card, twin._seen,
         twin._seen_tricks) = _read_scalars(self)
        (twin.hands, twin.trick, twin.tricks, twin.captured, twin.points, twin._history, twin._actors, twin.captures,
         twin.tens) = map(list, _read_copied(self))
        return twin

    # -- notation ----------------------------------------------------------
    def action_text(self, action: int) -> str:
        return actions.action_text(action, self.variant.trump.face_down)

    def parse_action(self, text: str) -> int:
        return actions.parse_action(text, self.variant.trump.face_down)

    def _why_not(self, action: int) -> str:
        if CALL <= action < CALL + 4 and self.phase in (CALLING, PARTNER_CALLING):
            return (f"you hold no {SUIT_LETTERS[action - CALL]} among your first five cards: "
                    "trump is named from them")
        if action == NEW_CARDS:
            return self._why_no_new_cards(self.turn)
        return f"{self._describe(action)} is not allowed now ({PHASE_KEYS[self.phase]})"

    # -- calling -------------------------------------------------------------
    def may_ask_new_cards(self, seat: int) -> bool:
        """New cards: the person (``person_seat``; every seat with "any seat") may
        ask from the moment he sees his first five cards until he plays his own
        first card of the deal, in turn or out of turn; once per deal number,
        never in a daily game.  Records of the first rules versions (legacy
        option ``new_cards_on_turn``): only on his own turn while trump is called
        (Be-Ranga: on his own turn in the first trick while no trump is set)."""
        mode = self.options.get("new_cards", "off")
        if not self.new_cards_allowed or mode == "off" or self.phase == DONE:
            return False
        if mode != "any seat" and seat != int(self.options.get("person_seat", 0)):
            return False
        if self.options.get("new_cards_on_turn"):
            if self.phase == PLAYING:
                return (seat == self.turn and not self.variant.trump.calls_trump and not self.tricks
                        and self.trump == NO_TRUMP)
            return seat == self.turn
        return not self.tricks and seat not in SEAT_AFTER[self.leader][:len(self.trick)]

    def _why_no_new_cards(self, seat: int) -> str:
        mode = self.options.get("new_cards", "off")
        if not self.new_cards_allowed or mode == "off":
            return "new cards are not offered in this deal"
        if mode != "any seat" and seat != int(self.options.get("person_seat", 0)):
            return "only the person may ask for new cards"
        return "new cards only until your own first card of the deal"

    def may_change_trump(self) -> bool:
        """Change trump: the caller, once, after seeing all 13 cards, before the
        first card (he leads, so this is his turn); the trump choice says whether
        its game offers it at all."""
        return (not self.tricks and not self.changed_trump and self.turn == self.caller
                and bool(self.options.get("change_trump", True)) and self.variant.trump.may_change(self))

    def _decide(self, action: int) -> None:
        if action == PASS:
            self.phase, self.turn = PARTNER_CALLING, (self.caller + 2) % 4
        elif action == NEW_CARDS:
            self.finish(NEW_CARDS_DEAL, -1)
        elif CHANGE <= action < CHANGE + 4:
            self.trump, self.changed_trump = action - CHANGE, True
        else:
            self.variant.trump.decide(self, action)

    def _time_out(self) -> None:
        """The caller's time passes the choice to his partner; the partner's time
        makes the dealer turn up a random card of the undealt stock: its suit is
        trump, face up (so nothing is hidden even in Hidden Trump)."""
        if self.phase == CALLING:
            self.phase, self.turn = PARTNER_CALLING, (self.caller + 2) % 4
            return
        pick = self.flip_pick if self.flip_pick is not None else flip_pick_of(self.deal)
        self.flip_card = stock_order(self.deal)[pick]
        self.trump = SUIT_OF[self.flip_card]
        self.start_play()

    def start_play(self) -> None:
        """All 13 cards are dealt; the caller leads the first trick."""
        self.phase = PLAYING
        self.leader = self.turn = self.caller

    # -- play ------------------------------------------------------------------
    def _playable(self) -> int:
        """The cards the player to move may play: the led suit if he holds it, else
        anything (trumping is never compulsory, except right after asking to see
        a hidden trump)."""
        hand = self.hands[self.turn]
        if self.must_trump and hand & SUIT_MASKS[self.trump]:
            return hand & SUIT_MASKS[self.trump]
        trick = self.trick
        if trick:
            return (hand & SUIT_MASKS[SUIT_OF[trick[0]]]) or hand
        return hand

    def _playable_cards(self) -> tuple[int, ...]:
        """``cards_in(self._playable())``, with one table look-up when the seat
        must follow (or trump): the common case in play, worth a tenth of a
        random deal."""
        hand = self.hands[self.turn]
        if self.must_trump:
            trumps = hand >> SUIT_SHIFT[self.trump] & 8191
            if trumps:
                return CARDS_IN[self.trump][trumps]
        trick = self.trick
        if trick:
            led = SUIT_OF[trick[0]]
            following = hand >> SUIT_SHIFT[led] & 8191
            if following:
                return CARDS_IN[led][following]
        return cards_in(hand)

    def _why_not_playable(self, card: int) -> str:
        if not self.hands[self.turn] >> card & 1:
            return f"{card_text(card)} is not in your hand"
        if self.must_trump:
            return "you asked to see trump: you must play a trump"
        return f"you must follow {SUIT_LETTERS[SUIT_OF[self.trick[0]]]}"

    def _play(self, card: int, turn: int) -> None:
        trick = self.trick
        if self.trump == NO_TRUMP and trick:
            self.variant.trump.on_card(self, card, turn)
        self._history.append(card)
        self._actors.append(turn)
        self.hands[turn] ^= _BIT[card]
        if self.must_trump:
            self.must_trump = False
        trick.append(card)
        if len(trick) < 4:
            self.turn = NEXT[turn]
            return
        index = self._winning_index(trick)
        winner = SEAT_AFTER[self.leader][index]
        self.tricks.append((self.leader, tuple(trick), winner))
        self.trick = []
        if self.trumps_from:
            self.trumps_from = 0
        self._take(self, winner, trick[index])
        if self._count_trick(self):
            self.finish(*self.variant.scoring.resolve(self))
        else:
            self.leader = self.turn = winner

    def _winning_index(self, trick: list[int]) -> int:
        """Which card of a full trick wins — the highest trump, else the highest of
        the led suit; in the trick of a reveal only trumps played from the reveal
        on count (a trump-suit discard before it was a plain card)."""
        if self.trumps_from:
            led, power, first = SUIT_OF[trick[0]], POWER[self.trump], self.trumps_from
            best, index = -1, 0
            for i, c in enumerate(trick):
                suit = SUIT_OF[c]
                if (suit == led or (suit == self.trump and i >= first)) and power[c] > best:
                    best, index = power[c], i
            return index
        key = _WINNER_KEY[self.trump][SUIT_OF[trick[0]]]
        best, index = key[trick[0]], 0
        for i in (1, 2, 3):
            if key[trick[i]] > best:
                best, index = key[trick[i]], i
        return index

    def finish(self, outcome: str, winners: int) -> None:
        self.outcome, self.winners, self.phase = outcome, winners, DONE
        if winners >= 0:
            self.points[winners] = self.variant.scoring.scores[self.options.get("counting", "points")][outcome]

    # -- views ---------------------------------------------------------------
    @property
    def all_dealt(self) -> bool:
        """Whether the second and third packets are out: not while trump is called,
        nor after new cards threw the deal in before they were dealt (a game
        without calling deals all 13 at once)."""
        if not self.variant.trump.calls_trump:
            return True
        return self.phase == PLAYING or (self.phase == DONE and self.outcome != NEW_CARDS_DEAL)

    def _visible_hand(self, seat: int) -> int:
        return self.hands[seat] if self.all_dealt else self.first_five[seat]

    def observe(self, seat: int) -> CourtPieceObservation:
        """What ``seat`` may know: its own cards (only the first five while trump is
        called), every card played and who won each trick, the flip card, and
        what the variant's parts show.  Never another hand, the undealt stock,
        the deal's seed or the flip position."""
        variant = self.variant
        trump_choice = variant.trump
        done = self.phase == DONE
        calling = self.phase in (CALLING, PARTNER_CALLING)
        seconds = FIRST_GAME_CALL_SECONDS if self.options.get("first_game") else CALL_SECONDS
        return CourtPieceObservation(
            game=self.spec.name,
            seat=seat,
            to_move=self.to_move,
            hand=cards_in(self._visible_hand(seat)),
            actions=self.seen_actions(seat),
            legal=tuple(self.legal_texts_for(seat)),
            terminal=done,
            dealer=self.dealer,
            caller=self.caller,
            phase=Phase(self.phase),
            hand_sizes=tuple(self._visible_hand(s).bit_count() for s in range(4)),
            all_dealt=self.all_dealt,
            trump=self.trump if self.trump != NO_TRUMP else None,
            trump_by=self.trump_by if self.trump_by >= 0 else None,
            flip_card=self.flip_card if self.flip_card >= 0 else None,
            changed_trump=self.changed_trump,
            new_cards_allowed=self.new_cards_allowed,
            deadline_seconds=seconds if calling else None,
            leader=self.leader,
            trick=self._seated(self.leader, self.trick),
            tricks=self.seen_tricks(),
            captured=(self.captured[0], self.captured[1]),
            options=dict(self.options),
            pile=variant.tricks.facts(self),
            trump_facts=trump_choice.facts(self, seat),
            tens=variant.scoring.facts(self),
            result=CourtPieceResult(Outcome(self.outcome), self.winners if self.winners >= 0 else None,
                                    (self.points[0], self.points[1]), tuple(self.breakdown())) if done else None,
        )

    def _spell_seen(self, seat: int, facts: None, taken: Iterator[tuple[int, int]]) -> SeenActions:
        # A text depends on the action and on whether the seat took it, nothing else.
        seen_text = self.variant.trump.seen_text
        return tuple((actor, seen_text(self, seat, actor, action)) for actor, action in taken)

    def _trick_view(self, trick: tuple[int, tuple[int, ...], int]) -> Trick:
        leader, cards, winner = trick
        return Trick(leader, self._seated(leader, cards), winner)

    def rewrite_action(self, index: int, action: int) -> None:
        """Put ``action`` in place of the history's ``index``-th (a sampled world's
        own face-down card in place of the original's): the texts kept for the
        views are spelled again."""
        self._history[index] = action
        self.forget_seen()

    @staticmethod
    def _seated(leader: int, cards: Sequence[int]) -> tuple[tuple[int, int], ...]:
        return tuple((SEAT_AFTER[leader][i], c) for i, c in enumerate(cards))


# -- the rule parts' interfaces --------------------------------------------------
# The state consults its variant's parts and the parts write the state's fields, so
# both sides' types are declared here: each part sees a deal only as the few
# fields it reads and writes (``TrumpTable``, ``TrickTable``, ``ScoreTable``).  The
# parts themselves (``trump.py``, ``tricks.py``, ``scoring.py``) import this module
# and nothing imports them but the variants (``variants.py``).


class FamilySpec(Protocol):
    """What the family's modules use of the spec that made a state (``spec.py``)."""

    @property
    def name(self) -> str: ...

    @property
    def variant(self) -> Variant: ...

    def new_deal(self, deal: Deal, options: Mapping[str, Any], *, flip_pick: int | None = None,
                 new_cards_allowed: bool = True) -> CourtPieceState: ...


Played = tuple[int, tuple[int, ...], int]
"""A finished trick: (leader, cards, winner)."""


class TrumpTable(Protocol):
    """What a trump choice reads and writes of a deal: the trump fields, and
    the hands and the trick it looks at (a hidden card leaves and rejoins a hand)."""

    hands: list[int]
    first_five: list[int]
    caller: int
    turn: int
    trick: list[int]
    tricks: list[Played]
    trump: int
    trump_by: int
    changed_trump: bool
    down: int
    revealed: int
    revealed_by: int
    revealed_trick: int
    must_trump: bool
    trumps_from: int
    trump_trick: int

    @property
    def options(self) -> Mapping[str, Any]: ...

    def start_play(self) -> None: ...

    def may_change_trump(self) -> bool: ...

    def action_text(self, action: int) -> str: ...


class TrickTable(Protocol):
    """What a trick value reads and writes of a deal: the pile fields and the
    tricks each team has taken."""

    tricks: list[Played]
    trump: int
    trump_trick: int
    captured: list[int]
    pile: int
    open_seat: int
    open_card: int
    captures: list[tuple[int, int, int]]

    @property
    def options(self) -> Mapping[str, Any]: ...


class ScoreTable(Protocol):
    """What a scoring reads (and, for the tens, writes) of a deal."""

    tricks: list[Played]
    captured: list[int]
    tens: list[int]

    @property
    def callers(self) -> int: ...


@dataclass(frozen=True)
class TrumpChoice:
    """The family's defaults; each way of choosing trump overrides what it changes."""

    calls_trump = True
    """A calling phase comes before play (the first five cards, pass, timeouts)."""
    face_down = False
    """The game has the face-down card's actions and notation."""

    def calls(self, state: TrumpTable) -> list[int]:
        """The ways to name trump for the seat to move while trump is called."""
        return []

    def decide(self, state: TrumpTable, action: int) -> None:
        """Apply one of this choice's own (already validated) actions."""
        raise IllegalAction(f"{state.action_text(action)!r} is not an action of this game")

    def play_actions(self, state: TrumpTable) -> tuple[int, ...]:
        """The actions besides a card for the seat to move in play; the state asks
        only during the first trick or while a card lies face down."""
        return ()

    def may_change(self, state: TrumpTable) -> bool:
        """Whether the game offers change trump at all at this point."""
        return False

    def on_card(self, state: TrumpTable, card: int, seat: int) -> None:
        """``seat`` plays ``card`` to a started trick while no trump is in force."""

    def seen_text(self, state: TrumpTable, seat: int, actor: int, action: int) -> str:
        """How ``seat`` reads ``actor``'s action."""
        return state.action_text(action)

    def facts(self, state: TrumpTable, seat: int) -> HiddenFacts | VoidFacts | None:
        """This choice's public facts (and the seat's own secrets)."""
        return None

    def sample_world(self, spec: FamilySpec, obs: CourtPieceObservation, rng: random.Random) -> CourtPieceState:
        """A world consistent with ``obs`` (see ``sampling.py``)."""
        raise NotImplementedError


@dataclass(frozen=True)
class TrickValue(ABC):
    """What the state asks of a trick value."""

    is_pile: ClassVar[bool] = False
    """Won tricks go onto the pile (its facts are public)."""

    @abstractmethod
    def take(self, state: TrickTable, winner: int, card: int) -> None:
        """``winner`` won the last finished trick with ``card``."""

    def facts(self, state: TrickTable) -> PileFacts | None:
        """This value's public facts."""
        return None


@dataclass(frozen=True)
class Scoring(ABC):
    """What the state and the match ask of a scoring."""

    scores: Mapping[str, Mapping[str, int]]
    """What the winners score, per counting mode and outcome."""
    texts: Mapping[str, str]
    """The score sheet's words for each outcome."""
    sweeps: frozenset[str]
    """Outcomes that send the next deal to the dealer's partner when the callers
    make them, and that reset the streaks."""
    streak_bonus: bool
    """Whether seven deals won in a row earn a bonus."""

    @abstractmethod
    def count_trick(self, state: ScoreTable) -> bool:
        """Count the trick just finished; True when the deal is over."""

    @abstractmethod
    def resolve(self, state: ScoreTable) -> tuple[str, int]:
        """(outcome, winning team) of a finished deal."""

    def lines(self, state: ScoreTable) -> list[ScoreLine]:
        """The score sheet's lines between the tricks and the result."""
        return []

    def facts(self, state: ScoreTable) -> tuple[int, int] | None:
        """This scoring's public facts (the tens each team took)."""
        return None


@dataclass(frozen=True)
class Variant:
    """One game's rules: the parts the state consults."""

    trump: TrumpChoice
    tricks: TrickValue
    scoring: Scoring

    @property
    def has_pile(self) -> bool:
        """Won tricks go onto the pile (its facts are public)."""
        return self.tricks.is_pile
