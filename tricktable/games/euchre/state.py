"""The Euchre state machine (one hand) — spec: ``shared/rules/euchre.md``.

Seats 0..3 sit clockwise; partners are ``s`` and ``s + 2``; team = ``seat % 2``.
Phases: round 1 (order up or pass), round 2 (name a suit or pass), the maker's
alone decision, the defenders' defend-alone decision (option), the dealer's
discard, play.

Actions are ints from the ranges of ``ACTIONS`` (the one declaration of the
action space): a card id plays that card, ``DISCARD + card`` discards it, and
the bids are the single-action ranges.  Their notation:

>>> from tricktable.games.euchre import SPEC
>>> state = SPEC.new_deal(SPEC.deal_from_seed("doc", 0, {}), SPEC.normalize_options({}))
>>> [state.action_text(a) for a in state.legal_actions()]
['pass', 'order up']
>>> state.parse_action("call S") == CALL + 3
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping, Sequence

from tricktable.cards import SUIT_LETTERS, card_text, cards_of, parse_card, parse_suit, suit_of
from tricktable.core.actions import ActionRange, ActionSpace
from tricktable.errors import GameOver, IllegalAction, NotationError
from tricktable.core.notation import Notation
from tricktable.core.observation import Trick
from tricktable.core.protocol import TERMINAL, Deal, DealState, GameSpec, ScoreLine
from tricktable.games.euchre.observation import EuchreObservation, EuchreResult, Phase, UpCard
from tricktable.games.euchre.rules import (
    EFFECTIVE_SUIT,
    LOW_CARDS,
    NO_TRUMP,
    POWER,
    SCORE_TEXTS,
    SUIT_CARDS,
    TRICKS,
    Outcome,
    deal_score,
)

ACTIONS = ActionSpace(
    ActionRange("play", 0, 52),
    ActionRange("discard", 64, 52),
    ActionRange("pass", 128),
    ActionRange("order up", 129),
    ActionRange("call", 130, 4),
    ActionRange("alone", 134),
    ActionRange("with partner", 135),
    ActionRange("farmer's hand", 136),
    ActionRange("defend alone", 137),
)
DISCARD = ACTIONS["discard"].start
CALL = ACTIONS["call"].start
PASS, ORDER_UP, ALONE, WITH_PARTNER, FARMER, DEFEND_ALONE = (
    ACTIONS[name].start for name in ("pass", "order up", "alone", "with partner", "farmer's hand", "defend alone"))
HIDDEN_DISCARD_TEXT = "discard ?"

# The state keeps the phases' plain int values: comparing enum members in the
# hot loop made random play 10% slower.  Observations carry the ``Phase``.
ROUND1, ROUND2, ALONE_CHOICE, DEFEND_CHOICE, DISCARDING, PLAYING, DONE = (int(phase) for phase in Phase)

NEXT_ACTIVE = tuple(tuple(next(s % 4 for s in range(seat + 1, seat + 5) if not out >> (s % 4) & 1) if out != 15 else -1
                          for seat in range(4)) for out in range(16))
"""``NEXT_ACTIVE[out][seat]``: the next seat to the left that does not sit out,
``out`` being the mask of the seats sitting out."""


def bid_actions(phase: int, seat: int, dealer: int, turned_down: int, hand: int,
                options: Mapping[str, Any]) -> Sequence[int]:
    """The legal actions of ``seat`` (to move, holding ``hand``) in a phase before the
    card play: what they depend on besides the public facts is that hand alone (a
    bot's inference asks it for the hands of many sampled worlds)."""
    if phase == ROUND1:
        # Farmer's hand: a player dealt only nines and tens may ask for a redeal on
        # his first turn (round 1, before he bids; his hand is still the dealt one).
        return (PASS, ORDER_UP, FARMER) if options["farmers_hand"] and hand & ~LOW_CARDS == 0 else (PASS, ORDER_UP)
    if phase == ROUND2:
        calls = [CALL + s for s in range(4) if s != turned_down]
        if seat == dealer and options["stick_the_dealer"]:
            return calls
        return [PASS, *calls]
    if phase == ALONE_CHOICE:
        return (ALONE, WITH_PARTNER)
    if phase == DEFEND_CHOICE:
        return (PASS, DEFEND_ALONE)
    if phase == DISCARDING:
        return [DISCARD + c for c in cards_of(hand)]  # the dealer's turn
    return ()


def seen_text(seat: int, actor: int, action: int) -> str:
    """An action as ``seat`` reads it: the dealer's discard is face down to the others."""
    return HIDDEN_DISCARD_TEXT if DISCARD <= action < DISCARD + 52 and actor != seat else action_text(action)


class EuchreState(DealState):
    """One hand of Euchre, from the deal to the score."""

    DONE = DONE  # DealState's finished phase (to_move, is_terminal)

    def __init__(self, spec: GameSpec, deal: Deal, options: Mapping[str, Any]):
        super().__init__(spec, deal, options)
        self.dealt = tuple(self.hands)
        """The hands as dealt (``deal.hands`` as masks)."""
        self.up_card = deal.rest[0]
        self.phase = ROUND1
        self.turn = (self.dealer + 1) % 4
        self.passes = 0
        self.trump = NO_TRUMP
        self.turned_down = -1
        self.maker = -1
        self.alone = False
        self.sitting_out = -1  # the lone maker's partner
        self.lone_defender = -1
        self.out = 0  # mask of the seats sitting out (the lone maker's partner, the lone defender's)
        self.picked_up = False
        self.discard = -1
        self.leader = -1
        self.trick: list[int] = []  # cards of the current trick, in play order from the leader
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []  # (leader, cards, winner)
        self.tricks_won = [0, 0]
        self.outcome: Outcome | None = None  # set once the hand is over
        self.points = [0, 0]
        self._actors: list[int] = []

    # -- protocol ----------------------------------------------------------
    @property
    def to_move(self) -> int:
        return TERMINAL if self.phase == DONE else self.turn

    def legal_actions(self) -> Sequence[int]:
        if self.phase == PLAYING:
            return cards_of(self._playable())
        return bid_actions(self.phase, self.turn, self.dealer, self.turned_down, self.hands[self.turn], self.options)

    def apply(self, action: int) -> None:
        phase = self.phase
        if phase == PLAYING:
            if not (0 <= action < 52 and self._playable() >> action & 1):
                raise IllegalAction(self._why_not_playable(action))
            self._play(action)
        elif phase == DONE:
            raise GameOver("the hand is over")
        elif action not in self.legal_actions():
            raise IllegalAction(f"{self._describe(action)} is not allowed now ({Phase(phase).key})")
        else:
            self._bid(action)

    def returns(self) -> list[int]:
        return [self.points[seat % 2] for seat in range(4)]

    def breakdown(self) -> list[ScoreLine]:
        if self.phase != DONE:
            return []
        outcome = self.outcome
        assert outcome is not None  # set whenever the phase is DONE
        if self.maker < 0:
            return [ScoreLine(outcome.value, SCORE_TEXTS[outcome], 0)]
        makers = self.maker % 2
        lines = [ScoreLine("tricks", f"Makers' tricks: {self.tricks_won[makers]}", self.tricks_won[makers], team=makers)]
        winners = makers if self.points[makers] else 1 - makers
        lines.append(ScoreLine(outcome.value, SCORE_TEXTS[outcome], self.points[winners], team=winners))
        return lines

    def clone(self) -> "EuchreState":
        twin = object.__new__(EuchreState)
        twin.__dict__.update(self.__dict__)
        twin.hands = list(self.hands)
        twin.trick = list(self.trick)
        twin.tricks = list(self.tricks)
        twin.tricks_won = list(self.tricks_won)
        twin.points = list(self.points)
        twin._history = list(self._history)
        twin._actors = list(self._actors)
        return twin

    # -- notation ----------------------------------------------------------
    def action_text(self, action: int) -> str:
        return action_text(action)

    def parse_action(self, text: str) -> int:
        return parse_action(text)

    # -- bidding -----------------------------------------------------------
    def _record(self, action: int) -> None:
        self._history.append(action)
        self._actors.append(self.turn)

    def _bid(self, action: int) -> None:
        self._record(action)
        seat = self.turn
        if self.phase == DEFEND_CHOICE:
            self._decide_defence(action == DEFEND_ALONE)
        elif action == PASS:
            self.passes += 1
            if self.passes < 4:
                self.turn = (seat + 1) % 4
            elif self.phase == ROUND1:
                self.phase, self.passes, self.turned_down = ROUND2, 0, suit_of(self.up_card)
                self.turn = (self.dealer + 1) % 4
            else:
                self._finish(Outcome.THROWN_IN)
        elif action == ORDER_UP or CALL <= action < CALL + 4:
            self.trump = suit_of(self.up_card) if action == ORDER_UP else action - CALL
            self.maker = seat
            if action == ORDER_UP and self.options["dealers_partner_alone"] and seat == (self.dealer + 2) % 4:
                self._decide_alone(True)  # ordering up one's partner the dealer means going alone
            else:
                self.phase = ALONE_CHOICE
        elif action in (ALONE, WITH_PARTNER):
            self._decide_alone(action == ALONE)
        elif action == FARMER:
            self._finish(Outcome.FARMERS_HAND)
        else:  # a discard
            card = action - DISCARD
            self.hands[seat] &= ~(1 << card)
            self.discard = card
            self._start_play()

    def _decide_alone(self, alone: bool) -> None:
        self.alone = alone
        if not alone:
            self._pick_up()
            return
        self.sitting_out = (self.maker + 2) % 4
        self.out = 1 << self.sitting_out
        if self.options["defend_alone"]:
            # The defenders are asked in turn from the maker's left.
            self.phase, self.turn = DEFEND_CHOICE, (self.maker + 1) % 4
        else:
            self._pick_up()

    def _decide_defence(self, alone: bool) -> None:
        """Defend alone: the first defender to say so defends alone and his partner
        sits out; when both pass the hand goes on as a lone maker's."""
        if alone:
            self.lone_defender = self.turn
            self.out |= 1 << (self.turn + 2) % 4
            self._pick_up()
        elif self.turn == (self.maker + 1) % 4:
            self.turn = (self.maker + 3) % 4
        else:
            self._pick_up()

    def _pick_up(self) -> None:
        """After an order up the dealer takes the up-card and discards, unless he
        sits out; then play begins."""
        ordered_up = self.turned_down < 0
        if ordered_up and not self.out >> self.dealer & 1:
            self.hands[self.dealer] |= 1 << self.up_card
            self.picked_up = True
            self.phase, self.turn = DISCARDING, self.dealer
        else:
            self._start_play()

    def _start_play(self) -> None:
        """The first player from the dealer's left who does not sit out leads."""
        self.phase = PLAYING
        self.leader = self._next_active(self.dealer)
        self.turn = self.leader

    def _next_active(self, seat: int) -> int:
        return NEXT_ACTIVE[self.out][seat]

    # -- play ----------------------------------------------------------------
    def legal_actions_mask(self) -> int:
        """The cards the seat to move may play, as a mask (0 outside the card play)."""
        return self._playable() if self.phase == PLAYING else 0

    def _playable(self) -> int:
        hand = self.hands[self.turn]
        if not self.trick:
            return hand
        led = EFFECTIVE_SUIT[self.trump][self.trick[0]]
        following = hand & SUIT_CARDS[self.trump][led]
        return following or hand

    def _why_not_playable(self, action: int) -> str:
        if not 0 <= action < 52:
            return f"{self._describe(action)} is not allowed now: play a card"
        if not self.hands[self.turn] >> action & 1:
            return f"{card_text(action)} is not in your hand"
        led = EFFECTIVE_SUIT[self.trump][self.trick[0]]
        return f"you must follow {'trump' if led == self.trump else SUIT_LETTERS[led]}"

    def _play(self, card: int) -> None:
        self._record(card)
        self.hands[self.turn] &= ~(1 << card)
        trick = self.trick
        trick.append(card)
        if len(trick) < 4 - self.out.bit_count():  # the seats that do not sit out
            self.turn = self._next_active(self.turn)
            return
        winner = self._trick_winner(self.leader, trick)
        self.tricks.append((self.leader, tuple(trick), winner))
        self.tricks_won[winner % 2] += 1
        self.trick = []
        if len(self.tricks) == TRICKS:
            self._score()
        else:
            self.leader = self.turn = winner

    def seats_of_trick(self, leader: int, count: int) -> list[int]:
        seats = [leader]
        while len(seats) < count:
            seats.append(self._next_active(seats[-1]))
        return seats

    def _trick_winner(self, leader: int, cards: Sequence[int]) -> int:
        trump = self.trump
        effective, power = EFFECTIVE_SUIT[trump], POWER[trump]
        led = effective[cards[0]]
        best, best_index = -1, 0
        for index, c in enumerate(cards):
            suit = effective[c]
            if suit == trump or suit == led:
                if power[c] > best:
                    best, best_index = power[c], index
        return self.seats_of_trick(leader, len(cards))[best_index]

    def _score(self) -> None:
        makers = self.maker % 2
        outcome, makers_points, defenders_points = deal_score(self.tricks_won[makers], self.alone,
                                                              self.lone_defender >= 0)
        self.points[makers], self.points[1 - makers] = makers_points, defenders_points
        self.outcome = outcome
        self.phase = DONE

    def _finish(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.phase = DONE

    # -- observations --------------------------------------------------------
    def observe(self, seat: int) -> EuchreObservation:
        """What ``seat`` may know (see ``EuchreObservation``)."""
        actions = tuple((actor, seen_text(seat, actor, action)) for actor, action in zip(self._actors, self._history))
        to_move = self.to_move
        done = self.phase == DONE
        return EuchreObservation(
            game=self.spec.name,
            seat=seat,
            to_move=to_move,
            hand=cards_of(self.hands[seat]),
            actions=actions,
            legal=tuple(self.legal_texts_for(seat)),
            terminal=done,
            dealer=self.dealer,
            phase=Phase(self.phase),
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            up_card=self.up_card,
            up_card_status=self._up_card_status(),
            trump=self.trump if self.trump != NO_TRUMP else None,
            turned_down=self.turned_down if self.turned_down >= 0 else None,
            maker=self.maker if self.maker >= 0 else None,
            alone=self.alone,
            sitting_out=self.sitting_out if self.sitting_out >= 0 else None,
            lone_defender=self.lone_defender if self.lone_defender >= 0 else None,
            leader=self.leader if self.leader >= 0 else None,
            trick=self.plays_of_trick(self.leader, self.trick) if self.trick else (),
            tricks=tuple(Trick(leader, self.plays_of_trick(leader, cards), winner)
                         for leader, cards, winner in self.tricks),
            tricks_won=(self.tricks_won[0], self.tricks_won[1]),
            options=dict(self.options),
            discard=self.discard if seat == self.dealer and self.discard >= 0 else None,
            result=EuchreResult(self.outcome, (self.points[0], self.points[1]), tuple(self.breakdown()))
            if done and self.outcome is not None else None,
        )

    def _seen_last(self, seat: int) -> str:
        return seen_text(seat, self._actors[-1], self._history[-1])

    def _completed_by_last(self) -> Trick | None:
        # Only a card completes a trick, and it leaves the table empty as it does.
        if self.trick or not self.tricks or self._history[-1] not in ACTIONS["play"]:
            return None
        leader, cards, winner = self.tricks[-1]
        return Trick(leader, self.plays_of_trick(leader, cards), winner)

    def _up_card_status(self) -> UpCard:
        if self.phase == ROUND1:
            return UpCard.OFFERED
        if self.turned_down >= 0:
            return UpCard.TURNED_DOWN
        return UpCard.PICKED_UP if self.picked_up else UpCard.OUT_OF_PLAY

    def plays_of_trick(self, leader: int, cards: Sequence[int]) -> tuple[tuple[int, int], ...]:
        """(seat, card) of a trick's cards in play order."""
        return tuple(zip(self.seats_of_trick(leader, len(cards)), cards))


@lru_cache(maxsize=256)
def action_text(action: int) -> str:
    """The stable notation of a Euchre action (cached: inference asks it for every
    decision of every sampled world that the rules would have taken otherwise)."""
    if action in _PLAY:
        return f"play {card_text(action)}"
    if action in _DISCARD:
        return f"discard {card_text(action - DISCARD)}"
    if action in _CALL:
        return f"call {SUIT_LETTERS[action - CALL]}"
    if action in _BID_TEXTS:
        return _BID_TEXTS[action]
    raise NotationError(f"{action!r} is not a Euchre action")


_PLAY, _DISCARD, _CALL = ACTIONS["play"], ACTIONS["discard"], ACTIONS["call"]
_BID_TEXTS = {PASS: "pass", ORDER_UP: "order up", ALONE: "alone", WITH_PARTNER: "with partner",
              FARMER: "farmer's hand", DEFEND_ALONE: "defend alone"}


@lru_cache(maxsize=1024)
def parse_action(text: str) -> int:
    """The action a notation means; ``NotationError`` if it means none.  Cached: a
    search replays the same public actions on every world it samples."""
    return NOTATION.parse(text)


def _call(suit: str) -> int:
    return CALL + parse_suit(suit)


NOTATION = Notation(
    "Euchre",
    {"pass": PASS, "order up": ORDER_UP, "pick it up": ORDER_UP, "alone": ALONE, "go alone": ALONE,
     "with partner": WITH_PARTNER, "farmer's hand": FARMER, "farmer": FARMER, "defend alone": DEFEND_ALONE},
    {"play": parse_card, "discard": lambda card: DISCARD + parse_card(card), "call": _call, "name": _call},
    "pass, order up, call S, alone, with partner, defend alone, discard 9C, play JH",
)
