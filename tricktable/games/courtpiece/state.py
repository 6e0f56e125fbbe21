"""The Court Piece family state machine (one deal) — spec: ``shared/rules/court-piece.md``.

``CourtPieceState`` holds everything the games of the family share: the deal in
packets of 5-4-4, calling trump from the first five cards (pass once to the
partner, referee timeouts, the random flip), the app's extras (new cards, change
trump), following suit, trick winners, the end of a deal at 7 tricks, kot and goon
kot, scoring, views and notation.  How a won trick *counts* is the one thing a game
adds: ``SingleSarState`` counts it at once; ``DoubleSarState`` (``pile.py``) puts
it on the pile.  Relatives (issue 7) plug in through the same hooks:
``_take_trick`` (what a trick is worth), ``_start`` (a game without calling starts
in play), ``_calls`` and ``_decide`` (new calling actions such as a face-down
trump card), ``_seen_text`` (an action other seats see masked),
``_playable`` and ``_winning_index`` (Hidden Trump's reveal), ``_capture_blocked``
(Be-Ranga's early tricks), ``_resolve`` (Mendikot's tens) and the class attributes
``CAN_CHANGE_TRUMP``, ``SCORES``, ``SWEEPS``, ``TEXTS`` and ``PHASE_NAMES``.  Trump may stay
``NO_TRUMP`` during play: every rank table has a no-trump row.

Seats follow the room (0 South, 1 West, 2 North, 3 East); play goes to the right,
``NEXT[seat]``.  Actions are ints: a card id plays that card, the rest are the
constants below.  Their notation:

>>> from tricktable.games.courtpiece import SINGLE_SAR
>>> state = SINGLE_SAR.new_deal(SINGLE_SAR.deal_from_seed("doc", 0, {}), SINGLE_SAR.normalize_options({}))
>>> state.to_move, state.legal_texts()
(3, ['call C', 'call D', 'call H', 'call S', 'pass to partner'])
>>> state.parse_action("change trump ♦") == CHANGE + 1, state.action_text(TIMEOUT)
(True, 'timeout')
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from tricktable.cards import SUIT_LETTERS, card_text, parse_card, parse_suit
from tricktable.core.errors import GameOver, IllegalAction, NotationError
from tricktable.core.protocol import TERMINAL, Deal, GameState, ScoreLine
from tricktable.core.rng import SeedStream, derive_seed
from tricktable.games.courtpiece.rules import (
    CALL_SECONDS,
    FIRST_GAME_CALL_SECONDS,
    FIRST_PACKET,
    KOTS,
    NEW_CARDS_DEAL,
    NEXT,
    NO_TRUMP,
    PACKETS,
    POWER,
    SCORE_TEXTS,
    SUIT_OF,
    TRICKS,
    SCORE_TABLE,
    TRICKS_TO_WIN,
    outcome_of,
)

if TYPE_CHECKING:
    from tricktable.games.courtpiece.spec import CourtPieceSpec

CALL, CHANGE = 64, 68  # + suit
PASS, NEW_CARDS, TIMEOUT = 72, 73, 74

CALLING, PARTNER_CALLING, PLAYING, DONE = range(4)
PHASE_NAMES = ("calling", "partner calling", "play", "done")
STOCK_SIZE = 52 - 4 * FIRST_PACKET

_WORDS = {"pass to partner": PASS, "pass": PASS, "new cards": NEW_CARDS, "timeout": TIMEOUT}


def _suit_tables() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``CARDS_IN[suit][bits]``: the cards of ``suit`` whose ranks are the 13-bit
    ``bits``, lowest first.  Listing a hand by suit from these tables is much
    faster than walking 52 bits (and than a cache, since hands rarely repeat)."""
    ranks: list[tuple[int, ...]] = [()] * 8192
    for bits in range(1, 8192):
        ranks[bits] = ((bits & -bits).bit_length() - 1,) + ranks[bits & (bits - 1)]
    return tuple(tuple(tuple(r + 13 * s for r in rs) for rs in ranks) for s in range(4))


CARDS_IN = _suit_tables()


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
_SUIT_MASKS = tuple(8191 << 13 * s for s in range(4))
_SEAT_AFTER = tuple(tuple((leader + 3 * i) % 4 for i in range(4)) for leader in range(4))
"""``_SEAT_AFTER[leader][i]``: who plays the ``i``-th card of a trick."""


def stock_order(deal: Deal) -> list[int]:
    """The undealt stock while trump is called, in the order it is dealt later
    (second packet from the caller round, then the third)."""
    seats = [NEXT[deal.dealer]]
    while len(seats) < 4:
        seats.append(NEXT[seats[-1]])
    stock, start = [], FIRST_PACKET
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


class CourtPieceState(GameState):
    """One deal of a Court Piece game, from the first packet to the score."""

    CAN_CHANGE_TRUMP = True
    PHASE_NAMES = PHASE_NAMES
    SWEEPS = KOTS
    """Outcomes that send the next deal to the dealer's partner when the callers
    make them (the kot; Mendikot's mendikot and whitewash)."""
    SCORES = SCORE_TABLE
    """What the winners score, per counting mode and outcome (Mendikot has its own)."""
    TEXTS = SCORE_TEXTS
    """The score sheet's words for each outcome."""

    def __init__(self, spec: "CourtPieceSpec", deal: Deal, options: Mapping[str, Any], *, flip_pick: int | None = None,
                 new_cards_allowed: bool = True):
        self.spec = spec
        self.deal = deal
        self.options = dict(options)
        self.dealer = deal.dealer
        self.caller = NEXT[deal.dealer]
        self.hands = [sum(map(_BIT.__getitem__, hand)) for hand in deal.hands]
        self.first_five = [sum(map(_BIT.__getitem__, hand[:FIRST_PACKET])) for hand in deal.hands]
        self.flip_pick = flip_pick
        self.new_cards_allowed = new_cards_allowed
        self.trump = NO_TRUMP
        self.trump_by = -1  # the seat that named trump; -1 after a flip
        self.flip_card = -1
        self.changed_trump = False
        self.leader = self.turn = self.caller
        self.trick: list[int] = []
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []  # (leader, cards, winner)
        self.captured = [0, 0]  # tricks that count, per team
        self.outcome = ""
        self.winners = -1
        self.points = [0, 0]
        self._history: list[int] = []
        self._actors: list[int] = []
        self._start()

    def _start(self) -> None:
        """Hook: the first phase (Be-Ranga would deal all 13 and start play)."""
        self.phase, self.turn = CALLING, self.caller

    # -- protocol ----------------------------------------------------------
    @property
    def to_move(self) -> int:
        return TERMINAL if self.phase == DONE else self.turn

    @property
    def history(self) -> list[int]:
        return self._history

    def is_terminal(self) -> bool:
        return self.phase == DONE

    @property
    def callers(self) -> int:
        """The calling team (the caller's); the other team is the dealing team."""
        return self.caller % 2

    def legal_actions(self) -> Sequence[int]:
        if self.phase == PLAYING:
            if not self.trick and self._may_change_trump():
                return cards_in(self._playable()) + tuple(CHANGE + s for s in range(4) if s != self.trump)
            return cards_in(self._playable())
        if self.phase == DONE:
            return ()
        calls = self._calls()
        if self.phase == CALLING:
            calls.append(PASS)
        if self._may_ask_new_cards():
            calls.append(NEW_CARDS)
        return calls

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
            raise IllegalAction(f"{self._describe(action)} is not allowed now ({self.PHASE_NAMES[self.phase]})")
        else:
            self._record(action)
            self._decide(action)

    def apply_referee(self, action: int) -> None:
        if action not in self.referee_actions():
            raise IllegalAction(f"{self._describe(action)} is not a referee action now")
        self._record(action)
        self._time_out()

    def returns(self) -> list[int]:
        return [self.points[seat % 2] for seat in range(4)]

    def breakdown(self) -> list[ScoreLine]:
        if self.phase != DONE:
            return []
        if self.outcome == NEW_CARDS_DEAL:
            return [ScoreLine(NEW_CARDS_DEAL, self.TEXTS[NEW_CARDS_DEAL], 0)]
        lines = [ScoreLine("tricks", f"Tricks counted: {self.captured[team]}", self.captured[team], team=team)
                 for team in (0, 1)]
        lines.append(ScoreLine(self.outcome, self.TEXTS[self.outcome], self.points[self.winners], team=self.winners))
        return lines

    def clone(self) -> "CourtPieceState":
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        for name in ("hands", "trick", "tricks", "captured", "points", "_history", "_actors"):
            setattr(twin, name, list(getattr(self, name)))
        return twin

    # -- notation ----------------------------------------------------------
    def action_text(self, action: int) -> str:
        if 0 <= action < 52:
            return f"play {card_text(action)}"
        if CALL <= action < CALL + 4:
            return f"call {SUIT_LETTERS[action - CALL]}"
        if CHANGE <= action < CHANGE + 4:
            return f"change trump {SUIT_LETTERS[action - CHANGE]}"
        for text, value in (("pass to partner", PASS), ("new cards", NEW_CARDS), ("timeout", TIMEOUT)):
            if action == value:
                return text
        raise NotationError(f"{action!r} is not a Court Piece action")

    def parse_action(self, text: str) -> int:
        words = " ".join(text.lower().split())
        if words in _WORDS:
            return _WORDS[words]
        verb, _, rest = words.partition(" ")
        if verb == "play" and rest:
            return parse_card(rest)
        if verb == "call" and rest:
            return CALL + parse_suit(rest)
        if words.startswith("change trump "):
            return CHANGE + parse_suit(words[len("change trump "):])
        raise NotationError(
            f"{text!r} is not a Court Piece action (try: call H, pass to partner, new cards, "
            "change trump D, play QS)"
        )

    # -- calling -------------------------------------------------------------
    def _record(self, action: int) -> None:
        self._history.append(action)
        self._actors.append(self.turn)

    def _calls(self) -> list[int]:
        """Hook: the ways to name trump (Hidden Trump puts one of the first five cards face down)."""
        return [CALL + s for s in range(4)]

    def _may_ask_new_cards(self) -> bool:
        """New cards: the person (``person_seat``; every seat with "any seat") may
        ask on his calling turn, once per deal number, never in a daily game."""
        mode = self.options.get("new_cards", "off")
        if not self.new_cards_allowed or mode == "off":
            return False
        return mode == "any seat" or self.turn == self.options.get("person_seat", 0)

    def _decide(self, action: int) -> None:
        if CALL <= action < CALL + 4:
            self.trump, self.trump_by = action - CALL, self.turn
            self._start_play()
        elif action == PASS:
            self._to_partner()
        elif action == NEW_CARDS:
            self._finish(NEW_CARDS_DEAL, -1)
        else:  # change trump
            self.trump, self.changed_trump = action - CHANGE, True

    def _to_partner(self) -> None:
        self.phase, self.turn = PARTNER_CALLING, (self.caller + 2) % 4

    def _time_out(self) -> None:
        """The caller's time passes the choice to his partner; the partner's time
        makes the dealer turn up a random card of the undealt stock: its suit is trump."""
        if self.phase == CALLING:
            self._to_partner()
            return
        pick = self.flip_pick if self.flip_pick is not None else flip_pick_of(self.deal)
        self.flip_card = stock_order(self.deal)[pick]
        self.trump = SUIT_OF[self.flip_card]
        self._start_play()

    def _start_play(self) -> None:
        """All 13 cards are dealt; the caller leads the first trick."""
        self.phase = PLAYING
        self.leader = self.turn = self.caller

    def _may_change_trump(self) -> bool:
        """Change trump: the caller, once, after seeing all 13 cards, before the
        first card (he leads, so this is his turn)."""
        return (self.CAN_CHANGE_TRUMP and not self.tricks and not self.changed_trump
                and self.turn == self.caller and self.options.get("change_trump", True))

    # -- play ------------------------------------------------------------------
    def _playable(self) -> int:
        """The cards the player to move may play: the led suit if he holds it, else
        anything (trumping is never compulsory).  A hook for Hidden Trump's
        "must trump after asking to see it"."""
        hand = self.hands[self.turn]
        trick = self.trick
        if trick:
            return (hand & _SUIT_MASKS[SUIT_OF[trick[0]]]) or hand
        return hand

    def _why_not_playable(self, card: int) -> str:
        if not self.hands[self.turn] >> card & 1:
            return f"{card_text(card)} is not in your hand"
        return f"you must follow {SUIT_LETTERS[SUIT_OF[self.trick[0]]]}"

    def _play(self, card: int, turn: int) -> None:
        self._history.append(card)
        self._actors.append(turn)
        self.hands[turn] ^= 1 << card
        trick = self.trick
        trick.append(card)
        if len(trick) < 4:
            self.turn = NEXT[turn]
            return
        index = self._winning_index(trick)
        winner = _SEAT_AFTER[self.leader][index]
        self.tricks.append((self.leader, tuple(trick), winner))
        self.trick = []
        self._take_trick(winner, trick[index])
        if self._deal_over():
            self._resolve()
        else:
            self.leader = self.turn = winner

    def _winning_index(self, trick: list[int]) -> int:
        """Hook: which card of a full trick wins — the highest trump, else the highest
        of the led suit (Hidden Trump: only trumps played after the reveal count)."""
        key = _WINNER_KEY[self.trump][SUIT_OF[trick[0]]]
        best, index = key[trick[0]], 0
        for i in (1, 2, 3):
            if key[trick[i]] > best:
                best, index = key[trick[i]], i
        return index

    def _take_trick(self, winner: int, card: int) -> None:
        """Hook: what a won trick is worth; ``card`` is the card that won it."""
        raise NotImplementedError

    def _deal_over(self) -> bool:
        """7 counted tricks end the deal, unless the other team has none yet."""
        a, b = self.captured
        return len(self.tricks) == TRICKS or (a >= TRICKS_TO_WIN and b > 0) or (b >= TRICKS_TO_WIN and a > 0)

    def _resolve(self) -> None:
        """Hook: outcome and winners of a finished deal (Mendikot counts tens)."""
        outcome, winners = outcome_of(self.captured, self.callers)
        self._finish(outcome, winners)

    def _finish(self, outcome: str, winners: int) -> None:
        self.outcome, self.winners, self.phase = outcome, winners, DONE
        if winners >= 0:
            self.points[winners] = self.SCORES[self.options.get("counting", "points")][outcome]

    # -- views ---------------------------------------------------------------
    @property
    def all_dealt(self) -> bool:
        """Whether the second and third packets are out: not while trump is called,
        nor after new cards threw the deal in before they were dealt."""
        return self.phase == PLAYING or (self.phase == DONE and self.outcome != NEW_CARDS_DEAL)

    def _visible_hand(self, seat: int) -> int:
        return self.hands[seat] if self.all_dealt else self.first_five[seat]

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know: its own cards (only the first five while trump is
        called), every card played and who won each trick, the flip card.  Never
        another hand, the undealt stock, the deal's seed or the flip position."""
        to_move = self.to_move
        calling = self.phase in (CALLING, PARTNER_CALLING)
        seconds = FIRST_GAME_CALL_SECONDS if self.options.get("first_game") else CALL_SECONDS
        view: dict[str, Any] = {
            "game": self.spec.name,
            "seat": seat,
            "dealer": self.dealer,
            "caller": self.caller,
            "phase": self.PHASE_NAMES[self.phase],
            "to_move": to_move,
            "hand": [card_text(c) for c in cards_in(self._visible_hand(seat))],
            "hand_sizes": [self._visible_hand(s).bit_count() for s in range(4)],
            "all_dealt": self.all_dealt,
            "trump": SUIT_LETTERS[self.trump] if self.trump != NO_TRUMP else None,
            "trump_by": self.trump_by if self.trump_by >= 0 else None,
            "flip_card": card_text(self.flip_card) if self.flip_card >= 0 else None,
            "changed_trump": self.changed_trump,
            "new_cards_allowed": self.new_cards_allowed,
            "deadline_seconds": seconds if calling else None,
            "leader": self.leader,
            "trick": self._seated(self.leader, self.trick),
            "tricks": [{"leader": leader, "cards": self._seated(leader, cards), "winner": winner}
                       for leader, cards, winner in self.tricks],
            "captured": list(self.captured),
            "actions": [[actor, self._seen_text(seat, actor, a)] for actor, a in zip(self._actors, self._history)],
            "legal": self.legal_texts() if to_move == seat else [],
            "terminal": self.phase == DONE,
            "options": dict(self.options),
        }
        view.update(self._extra_view())
        if self.phase == DONE:
            view["result"] = {
                "outcome": self.outcome,
                "winners": self.winners if self.winners >= 0 else None,
                "points": list(self.points),
                "lines": [line.to_json() for line in self.breakdown()],
            }
        return view

    def _seen_text(self, seat: int, actor: int, action: int) -> str:
        """Hook: how ``seat`` sees ``actor``'s action (Hidden Trump's face-down card reads ``?``)."""
        return self.action_text(action)

    def _extra_view(self) -> dict[str, Any]:
        """Hook: a game's own public facts (the pile)."""
        return {}

    @staticmethod
    def _seated(leader: int, cards: Sequence[int]) -> list[list[Any]]:
        return [[_SEAT_AFTER[leader][i], card_text(c)] for i, c in enumerate(cards)]


class SingleSarState(CourtPieceState):
    """Single Sar: every trick counts for its winner's team at once."""

    def _take_trick(self, winner: int, card: int) -> None:
        self.captured[winner % 2] += 1
