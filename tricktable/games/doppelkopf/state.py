"""The Doppelkopf state machine (one deal) — spec: ``shared/rules/doppelkopf.md``.

Seats 0..3 sit clockwise; the seat left of the dealer is ``dealer + 1``.
Phases: reservations (every seat speaks once, in turn from the dealer's left),
poverty (the poor player gives three cards, the others accept or decline in
turn, the taker returns three), play, done.

Actions are ints.  A face 0..51 plays that card: a double deck has two copies of
each face, and ``play QC`` is the same action whichever copy the player holds (the
state removes a held copy).  Other actions are the constants below; ``GIVE`` and
``RETURN`` carry three faces.  Notation: ``healthy``, ``marriage``, ``poverty``,
``solo clubs|spades|hearts|diamonds|queens|jacks|aces``, ``re``, ``kontra``,
``no 90``, ``no 60``, ``no 30``, ``schwarz``, ``play 10H``, ``give 9C 10D QD``,
``accept``, ``decline``, ``return AS KS 9H``.

**Announcements out of turn.**  The rules allow an announcement "at any moment
before that player's next card, also while it is not his turn": the seat to move
finds its announcement among its legal actions next to its cards, and every
other seat finds its own in ``legal_actions_for(seat)`` and makes it with
``apply_for(seat, action)``.  Announcing never passes the turn.  Each action
announces one level; "several at once" is several announcements in a row.  The
card-count limits (``MIN_CARDS``) are counted on the announcer's own hand, so a
player's chance ends with the card that takes his hand below the limit.

Teams are ``RE`` (0) and ``KONTRA`` (1).  A seat's view never shows another
hand, a hidden reservation ("Vorbehalt"), the poverty cards (except to giver
and taker) or a team that is not yet public; see ``view``.

>>> from tricktable.games.doppelkopf import SPEC
>>> state = SPEC.new_deal(SPEC.deal_from_seed("doc", 0, {}), SPEC.normalize_options({}))
>>> state.legal_texts()[:1], state.legal_texts()[-1]
(['healthy'], 'solo aces')
>>> state.parse_action("give QD 9c 10D") == state.parse_action("give 9C 10D QD")
True
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Protocol, Sequence, cast

from tricktable.cards import COPY_OFFSET, card_text, cards_of, face, mask_of, parse_cards
from tricktable.errors import GameOver, IllegalAction, NotationError, NotYourTurn
from tricktable.core.protocol import Deal, GameSpec, ScoreLine
from tricktable.core.views import SeenActions, ViewKeepingState
from tricktable.games.doppelkopf.actions import (
    ACCEPT,
    ANNOUNCE_KONTRA,
    ANNOUNCE_RE,
    DECLINE,
    GIVE,
    HEALTHY,
    MARRIAGE,
    NO_30,
    NO_60,
    NO_90,
    POVERTY,
    RETURN,
    SCHWARZ,
    SOLO,
    THROW_IN,
    TRIPLE_CODES,
    announcement_level,
    triple_code,
    triple_faces,
)
from tricktable.games.doppelkopf.rules import (
    AD,
    FACE_MASK,
    FACES,
    FOLLOW,
    HEALTHY_RANK,
    JC,
    KONTRA,
    MARRIAGE_RANK,
    MIN_CARDS,
    NORMAL,
    POINTS,
    POVERTY_MAX_TRUMPS,
    POVERTY_RANK,
    POWER,
    QC,
    RE,
    SOLO_NAMES,
    SOLO_RANK,
    SOLO_TABLE,
    SUIT,
    TEAM_NAMES,
    TH,
    THROW_IN_RANK,
    TRUMP,
    TRUMP_MASK,
    DealFacts,
    Settlement,
    face_mask,
    faces_of,
    settle,
)
from tricktable.games.doppelkopf import house

from tricktable.games.doppelkopf.ddv import settle_ddv
from tricktable.games.doppelkopf.observation import Trick
from tricktable.games.doppelkopf.tournament import TournamentDeal

if TYPE_CHECKING:
    from tricktable.games.doppelkopf.observation import DoppelkopfObservation, Situation


RESERVING, GIVING, OFFERING, RETURNING, PLAYING, DONE = range(6)
PHASE_NAMES = ("reservations", "poverty: give", "poverty: offer", "poverty: return", "play", "done")

HIDDEN_RESERVATION = "Vorbehalt"
HIDDEN_GIVE, HIDDEN_RETURN = "give ?", "return ?"

_WORDS = {
    "healthy": HEALTHY, "gesund": HEALTHY, "marriage": MARRIAGE, "hochzeit": MARRIAGE,
    "poverty": POVERTY, "armut": POVERTY, "re": ANNOUNCE_RE, "kontra": ANNOUNCE_KONTRA,
    "no 90": NO_90, "no 60": NO_60, "no 30": NO_30, "schwarz": SCHWARZ,
    "accept": ACCEPT, "decline": DECLINE, "throw in": THROW_IN, "schmeissen": THROW_IN,
}
_TEXTS = {value: text for text, value in _WORDS.items() if text not in ("gesund", "hochzeit", "armut", "schmeissen")}

_FOX_CAUGHT = tuple(f"Fox (A♦) caught in trick {number}" for number in range(13))
"""The extra's text by trick number (a settlement reads the tricks of every rollout)."""
_PLAY_TEXTS = {f: f"play {card_text(f)}" for f in FACES}
"""The text of each card's play (inference reads one for every card it weighs)."""

NORMAL_GAME, SILENT_SOLO, MARRIAGE_GAME, POVERTY_GAME, SOLO_GAME = (
    "normal", "silent solo", "marriage", "poverty", "solo")


def remove_face(hand: int, card_face: int) -> tuple[int, int]:
    """Take one copy of a face out of an id mask: (new mask, id removed)."""
    if hand >> card_face & 1:
        return hand & ~(1 << card_face), card_face
    return hand & ~(1 << (card_face + COPY_OFFSET)), card_face + COPY_OFFSET


class Observer(Protocol):
    """How a deal's views are built (``views.py``): the spec that made the state (``spec.py``)
    builds them, so that the state, below the views, does not import them."""

    def observation(self, state: DoppelkopfState, seat: int) -> DoppelkopfObservation: ...

    def situation(self, state: DoppelkopfState, seat: int) -> Situation: ...


class DoppelkopfState(ViewKeepingState[Trick]):
    """One deal of Doppelkopf, from the reservations to the settlement."""

    DONE = DONE

    def __init__(self, spec: GameSpec, deal: Deal, options: Mapping[str, Any],
                 tournament: TournamentDeal | None = None):
        super().__init__(spec, deal, options)
        self.counts = [len(hand) for hand in deal.hands]
        self.phase = RESERVING
        self.turn = (self.dealer + 1) % 4
        self.reservations: list[int | None] = [None, None, None, None]
        self.contract = ""  # one of the *_GAME names once reservations are settled
        self.solo = -1  # index into SOLO_NAMES in a solo
        self.table = NORMAL
        self.declarer = -1  # soloist, marriage or poverty player
        self.partner = -1  # poverty taker or marriage partner
        self.team = [KONTRA] * 4
        self.lone = False
        self.marriage_pending = False
        self.decided_in = 0  # marriage: the trick that decided the partner
        self.tricks_total = house.hand_size(self.options)
        # By how many cards every announcement's card count is lowered (without nines, a marriage).
        self.lowering = house.announcement_lowering(self.options)
        self.pigs = self.superpigs = -1  # house rules: the seat holding both ♦A (both ♦9 / ♦K)
        self.pigs_shown = self.superpigs_shown = False
        self.given: tuple[int, ...] = ()
        self.returned: tuple[int, ...] = ()
        self.declined: list[int] = []
        self.levels = [-1, -1]
        self.closed = [False, False]  # per team: a late reply allows it no further announcement
        self.queens_played = [0, 0, 0, 0]  # per seat, Q♣ played (public team evidence)
        self.announced = 0  # bit s: seat s has announced (its team is public)
        self.played = 0  # the ids of every card played so far
        self.led_suits = 0  # bit s: a finished trick was led with plain suit s
        self.leader = -1
        self.trick: list[int] = []
        self.tricks: list[tuple[int, tuple[int, ...], int, int]] = []  # (leader, faces, winner, points)
        self.won_points = [0, 0, 0, 0]
        self.won_tricks = [0, 0, 0, 0]
        self.outcome = ""
        self.settlement: Settlement | None = None
        self._out_of_turn: dict[int, int] = {}  # history index -> seat that was not to move
        self._legal: Sequence[int] | None = None
        self._playable_mask = 0  # valid while ``_legal`` is
        self.tournament = tournament  # the tournament list's facts (tournament.py), None without it
        self.compulsory = False  # the solo played is the soloist's compulsory solo
        if tournament is not None and tournament.forced is not None:
            self.turn = tournament.forced  # vorgeführt: only he speaks, and he must play a solo

    # -- protocol ----------------------------------------------------------
    def legal_actions(self) -> Sequence[int]:
        legal = self._legal
        if legal is None:
            if self.phase == PLAYING:
                # The hot path of every playout: inline, cached until the next action.
                self._playable_mask = playable = self._playable()
                legal = faces_of(playable)
                announcement = self.next_announcement(self.turn)
                if announcement >= 0:
                    legal = (announcement, *legal)
            else:
                legal = self._compute_legal()
            self._legal = legal
        return legal

    def _compute_legal(self) -> Sequence[int]:
        phase = self.phase
        if phase == RESERVING:
            return self.reservation_options(self.turn)
        if phase == GIVING:
            return self._give_options()
        if phase == OFFERING:
            return (ACCEPT, DECLINE)
        if phase == RETURNING:
            return self._return_options()
        return ()

    def apply(self, action: int) -> None:
        phase = self.phase
        if phase == PLAYING:
            if 0 <= action < 52:
                playable = self._playable_mask if self._legal is not None else self._playable()
                if not playable >> action & 1:
                    raise IllegalAction(self._why_not_playable(action))
                self._history.append(action)
                self._actors.append(self.turn)  # DealState._record_by, inlined on the hot path
                self._legal = None
                self._play(action)
                return
            if not ANNOUNCE_RE <= action <= SCHWARZ or action != self.next_announcement(self.turn):
                raise IllegalAction(self._why_not_announcement(action, self.turn))
            self._record_turn(action)
            self._announce(self.turn, action)
            return
        if phase == DONE:
            raise GameOver("the deal is over")
        if action not in self.legal_actions():
            raise IllegalAction(f"{self._describe(action)} is not allowed now ({PHASE_NAMES[phase]})")
        self._record_turn(action)
        if phase == RESERVING:
            self._reserve(action)
        elif phase == GIVING:
            self._give(action)
        elif phase == OFFERING:
            self._answer_offer(action)
        else:
            self._return(action)

    def legal_actions_for(self, seat: int) -> Sequence[int]:
        """The seat to move's legal actions; any other seat's announcement, if it
        may make one now (out of turn, before its next card)."""
        if seat == self.to_move:
            return self.legal_actions()
        announcement = self.next_announcement(seat) if self.phase == PLAYING else -1
        return (announcement,) if announcement >= 0 else ()

    def apply_for(self, seat: int, action: int) -> None:
        if seat == self.to_move:
            self.apply(action)
            return
        if self.phase == DONE:
            raise GameOver("the deal is over")
        if not ANNOUNCE_RE <= action <= SCHWARZ:
            raise NotYourTurn(f"it is seat {self.to_move}'s turn, not seat {seat}'s "
                              "(out of turn only an announcement may be made)")
        if self.phase != PLAYING:
            raise IllegalAction(f"{self._describe(action)} is not allowed now: announcements begin with the play")
        if action != self.next_announcement(seat):
            raise IllegalAction(self._why_not_announcement(action, seat))
        self._out_of_turn[len(self._history)] = seat
        self._record_by(action, seat)
        self._legal = None  # the seat to move's own announcement may have changed
        self._announce(seat, action)

    def out_of_turn_history(self) -> Mapping[int, int]:
        return self._out_of_turn

    def returns(self) -> list[int]:
        return list(self.settlement.seat_points) if self.settlement else [0, 0, 0, 0]

    def restarted(self) -> "DoppelkopfState":
        return DoppelkopfState(self.spec, self.deal, self.options, self.tournament)

    def clone(self) -> "DoppelkopfState":
        twin = object.__new__(DoppelkopfState)
        twin.__dict__.update(self.__dict__)
        # Every list a deal changes, copied one by one (search clones a state per rollout).
        twin.hands, twin.counts, twin.reservations = self.hands[:], self.counts[:], self.reservations[:]
        twin.team, twin.declined, twin.levels, twin.closed = self.team[:], self.declined[:], self.levels[:], self.closed[:]
        twin.queens_played, twin.trick, twin.tricks = self.queens_played[:], self.trick[:], self.tricks[:]
        twin.won_points, twin.won_tricks = self.won_points[:], self.won_tricks[:]
        twin._history, twin._actors = self._history[:], self._actors[:]
        twin._out_of_turn = dict(self._out_of_turn)
        return twin

    def _record_turn(self, action: int) -> None:
        self._record_by(action, self.turn)
        self._legal = None

    # -- notation ----------------------------------------------------------
    def action_text(self, action: int) -> str:
        played = _PLAY_TEXTS.get(action)
        if played is not None:
            return played
        if action in _TEXTS:
            return _TEXTS[action]
        if SOLO <= action < SOLO + len(SOLO_NAMES):
            return f"solo {SOLO_NAMES[action - SOLO]}"
        for verb, base in (("give", GIVE), ("return", RETURN)):
            if base <= action < base + TRIPLE_CODES and all(f in FACES for f in triple_faces(action - base)):
                return f"{verb} " + " ".join(card_text(f) for f in triple_faces(action - base))
        raise NotationError(f"{action!r} is not a Doppelkopf action")

    def parse_action(self, text: str) -> int:
        return parse_action(text)

    # -- reservations --------------------------------------------------------
    def reservation_options(self, seat: int) -> tuple[int, ...]:
        """The reservations ``seat``'s hand allows (its legal actions when it is to speak)."""
        if self.tournament is not None and self.tournament.forced == seat:
            return tuple(range(SOLO, SOLO + len(SOLO_NAMES)))
        options = [HEALTHY]
        if self.queens_of_clubs(seat) == 2:
            options.append(MARRIAGE)
        if self.options["poverty"] and self._trump_count(seat, NORMAL) <= POVERTY_MAX_TRUMPS:
            options.append(POVERTY)
        if self.options["throwing_in"] and house.can_throw_in(self.hands[seat], self.options):
            options.append(THROW_IN)
        return (*options, *range(SOLO, SOLO + len(SOLO_NAMES)))

    def queens_of_clubs(self, seat: int) -> int:
        hand = self.hands[seat]
        return (hand >> QC & 1) + (hand >> (QC + COPY_OFFSET) & 1)

    def forget_legal(self) -> None:
        """The hands were rewritten (a sampled world): list the legal actions anew."""
        self._legal = None

    def _trump_count(self, seat: int, table: int) -> int:
        hand, trumps = self.hands[seat], TRUMP_MASK[table]
        return (hand & trumps).bit_count() + (hand >> COPY_OFFSET & trumps).bit_count()

    def _reserve(self, action: int) -> None:
        self.reservations[self.turn] = action
        self.turn = (self.turn + 1) % 4
        if self.turn == (self.dealer + 1) % 4 or (self.tournament is not None and self.tournament.forced is not None):
            self._settle_reservations()

    def winning_reservation(self) -> int:
        """The seat whose reservation plays (-1: all healthy).  Solo > poverty >
        marriage; between equals the earlier seat in turn order."""
        best_seat, best_rank = -1, 0
        for offset in range(1, 5):
            seat = (self.dealer + offset) % 4
            rank = reservation_rank(self.reservations[seat])
            if rank > best_rank:
                best_seat, best_rank = seat, rank
        return best_seat

    def _settle_reservations(self) -> None:
        seat = self.winning_reservation()
        self.turn = self.leader = (self.dealer + 1) % 4
        self.phase = PLAYING
        if seat < 0:
            self.start_normal()
            house.find_pigs(self)
            return
        self.declarer = seat
        self.team = [KONTRA] * 4
        self.team[seat] = RE
        reservation = self.reservations[seat]
        assert reservation is not None  # the winning seat has spoken
        if reservation == MARRIAGE:
            self.contract, self.marriage_pending = MARRIAGE_GAME, True
        elif reservation == POVERTY:
            self.contract, self.phase, self.turn = POVERTY_GAME, GIVING, seat
            return  # pigs are decided after the exchange
        elif reservation == THROW_IN:
            # The same dealer deals again (same deal number), as after a poverty all declined.
            self.outcome, self.phase = "thrown_in", DONE
            return
        else:
            self.contract, self.lone = SOLO_GAME, True
            self.solo = reservation - SOLO
            self.table = SOLO_TABLE[self.solo]
            # A player's first solo in the tournament list is his compulsory solo, and he leads it.
            self.compulsory = self.tournament is not None and self.tournament.owes(seat)
            if self.options["soloist_leads"] or self.compulsory:
                self.turn = self.leader = seat
        house.find_pigs(self)

    def start_normal(self) -> None:
        """Re = the Q♣ holders; both Q♣ in one hand is a silent solo."""
        self.contract = NORMAL_GAME
        self.team = [RE if self.queens_of_clubs(s) else KONTRA for s in range(4)]
        if self.team.count(RE) == 1:
            self.contract, self.lone = SILENT_SOLO, True
            self.declarer = self.team.index(RE)

    # -- poverty -----------------------------------------------------------------
    def _give_options(self) -> list[int]:
        """Three cards holding every trump of the poor hand: its trumps and plain cards to make three."""
        trumps = TRUMP_MASK[NORMAL]
        faces = [face(c) for c in cards_of(self.hands[self.turn])]
        held = [f for f in faces if trumps >> f & 1]
        if len(held) > 3:
            return []
        plain = sorted(f for f in faces if not trumps >> f & 1)
        codes = {triple_code(held + list(rest)) for rest in combinations(plain, 3 - len(held))}
        return [GIVE + code for code in sorted(codes)]

    def _return_options(self) -> list[int]:
        return [RETURN + code for code in triple_codes(self.hands[self.turn])]

    def _take_three(self, seat: int, code: int) -> tuple[int, ...]:
        """Remove three faces (a held copy of each) from a hand; their ids."""
        moved = []
        hand = self.hands[seat]
        for card_face in triple_faces(code):
            hand, card_id = remove_face(hand, card_face)
            moved.append(card_id)
        self.hands[seat] = hand
        self.counts[seat] -= 3
        return tuple(moved)

    def _give(self, action: int) -> None:
        # The three cards leave the poor hand face down; nobody holds them until one accepts.
        self.given = self._take_three(self.turn, action - GIVE)
        self.phase, self.turn = OFFERING, (self.declarer + 1) % 4

    def _answer_offer(self, action: int) -> None:
        seat = self.turn
        if action == ACCEPT:
            self.partner = seat
            self.team[seat] = RE
            self.hands[seat] |= mask_of(self.given)
            self.counts[seat] += 3
            self.phase = RETURNING
            return
        self.declined.append(seat)
        self.turn = (seat + 1) % 4
        if self.turn == self.declarer:
            # Everybody declined: the same dealer deals again (same deal number).
            self.outcome = "thrown_in"
            self.phase = DONE

    def _return(self, action: int) -> None:
        self.returned = self._take_three(self.turn, action - RETURN)
        self.hands[self.declarer] |= mask_of(self.returned)
        self.counts[self.declarer] += 3
        self.phase = PLAYING
        self.turn = self.leader = (self.dealer + 1) % 4
        house.find_pigs(self)

    # -- announcements -------------------------------------------------------------
    def next_announcement(self, seat: int) -> int:
        """The one announcement ``seat`` may make now, or -1.  Levels go one at a
        time; each needs a number of cards still in hand (spec "Announcements")."""
        action, need = self.announcement_chance(seat)
        return action if self.counts[seat] >= need else -1

    def announcement_chances(self) -> list[int]:
        """``announcement_chance`` of every seat, flat: (announcement, cards needed) per seat."""
        if self.marriage_pending:
            return [-1, 0, -1, 0, -1, 0, -1, 0]
        chances = self._team_chance(RE), self._team_chance(KONTRA)
        team = self.team
        return [*chances[team[0]], *chances[team[1]], *chances[team[2]], *chances[team[3]]]

    def announcement_chance(self, seat: int) -> tuple[int, int]:
        """The announcement ``seat``'s team may make next and the cards ``seat`` must
        still hold for it ((-1, 0): none).  Only an announcement or the marriage's
        decision changes it (a fast playout asks again then, and counts the cards itself)."""
        if self.marriage_pending:
            return -1, 0
        return self._team_chance(self.team[seat])

    def _team_chance(self, team: int) -> tuple[int, int]:
        level = self.levels[team] + 1
        if level > 4 or self.closed[team]:
            return -1, 0
        # Only a first Re/Kontra that replies needs ``_cards_needed``; the hot path skips the call.
        need = MIN_CARDS[level] - self.lowering if level or self.levels[1 - team] < 0 else self._cards_needed(team, 0)
        if level == 0:
            return ANNOUNCE_RE if team == RE else ANNOUNCE_KONTRA, need
        return ANNOUNCE_KONTRA + level, need

    def _cards_needed(self, team: int, level: int) -> int:
        need = MIN_CARDS[level] - self.lowering
        other = self.levels[1 - team]
        if level == 0 and other >= 0:
            # A reply: one card fewer than the announcement replied to needed.
            need = min(need, MIN_CARDS[other] - self.lowering - 1)
        return need

    def _why_not_announcement(self, action: int, seat: int) -> str:
        if not ANNOUNCE_RE <= action <= SCHWARZ:
            return f"{self._describe(action)} is not allowed now: play a card or announce"
        if self.marriage_pending:
            return "nobody may announce before the marriage partner is found"
        allowed = self.next_announcement(seat)
        if allowed >= 0:
            return f"{self._describe(action)} is not allowed now; your team's next announcement is {self._describe(allowed)}"
        if self.closed[self.team[seat]]:
            return f"{self._describe(action)} is not allowed: after a late reply your team may announce no more"
        level = self.levels[self.team[seat]] + 1
        if level > 4:
            return f"{self._describe(action)} is not allowed: your team has announced everything"
        return (f"{self._describe(action)} is not allowed: it needs {self._cards_needed(self.team[seat], level)} "
                f"cards in your hand, you hold {self.counts[seat]}")

    def _announce(self, seat: int, action: int) -> None:
        team = self.team[seat]
        level = announcement_level(action)
        self.levels[team] = level
        self.announced |= 1 << seat
        if level == 0 and self.counts[seat] < MIN_CARDS[0] - self.lowering:
            self.closed[team] = True  # a late reply (spec "Announcements")

    # -- play ----------------------------------------------------------------
    def _playable(self) -> int:
        hand = self.hands[self.turn]
        faces = (hand | hand >> COPY_OFFSET) & FACE_MASK  # face_mask, inlined on the hot path
        trick = self.trick
        if not trick:
            return faces
        following = faces & FOLLOW[self.table][SUIT[self.table][trick[0]]]
        return following or faces

    def _why_not_playable(self, action: int) -> str:
        if action not in FACES:
            return f"{self._describe(action)} is not allowed now: play a card"
        if not face_mask(self.hands[self.turn]) >> action & 1:
            return f"{card_text(action)} is not in your hand"
        led = SUIT[self.table][self.trick[0]]
        return f"you must follow {'trump' if led == TRUMP else 'CDHS'[led]}"

    def _play(self, card_face: int) -> None:
        seat = self.turn
        hand = self.hands[seat]
        bit = 1 << card_face
        if not hand & bit:
            bit <<= COPY_OFFSET
        self.hands[seat] = hand ^ bit
        self.played |= bit
        self.counts[seat] -= 1
        if card_face == QC:
            self.queens_played[seat] += 1
        if self.pigs >= 0:
            house.note_play(self, seat, card_face)
        trick = self.trick
        trick.append(card_face)
        if len(trick) < 4:
            self.turn = (seat + 1) & 3
            return
        self._finish_trick()

    def trick_winner(self, leader: int, cards: Sequence[int], last: bool) -> int:
        """Highest trump, else highest of the led suit; of two identical cards
        the first wins, except that with the "second 10♥" option the second
        10♥ beats the first (not in the last trick, and only where 10♥ is trump)."""
        table = self.table
        suit, power = SUIT[table], POWER[table]
        led = suit[cards[0]]
        second_ten = self.options["second_heart_ten"] and not last and suit[TH] == TRUMP
        best, best_index = -1, 0
        for index, c in enumerate(cards):
            s = suit[c]
            if s == TRUMP or s == led:
                p = power[c]
                if p > best or (p == best and second_ten and c == TH):
                    best, best_index = p, index
        return (leader + best_index) & 3

    def _finish_trick(self) -> None:
        cards = tuple(self.trick)
        number = len(self.tricks) + 1
        winner = self.trick_winner(self.leader, cards, number == self.tricks_total)
        points = POINTS[cards[0]] + POINTS[cards[1]] + POINTS[cards[2]] + POINTS[cards[3]]
        self.tricks.append((self.leader, cards, winner, points))
        led = SUIT[self.table][cards[0]]
        if led != TRUMP:
            self.led_suits |= 1 << led
        self.won_points[winner] += points
        self.won_tricks[winner] += 1
        self.trick = []
        if self.marriage_pending:
            self.decide_marriage(winner, number)
        if number == self.tricks_total:
            self.score()
        else:
            self.leader = self.turn = winner

    def decide_marriage(self, winner: int, number: int) -> None:
        """After trick ``number`` (won by ``winner``) while the marriage is pending:
        the first other player to win one of the first three tricks marries;
        if none does, the marriage player plays alone (scored as a solo)."""
        if winner != self.declarer:
            self.partner = winner
            self.team[winner] = RE
        elif number < 3:
            return
        else:
            self.lone = True
        self.marriage_pending = False
        self.decided_in = number
        # Decided in trick n: every card count drops by n - 1 (a marriage turned solo after trick 3: by 2).
        self.lowering += number - 1

    # -- scoring ---------------------------------------------------------------
    def facts(self) -> DealFacts:
        team = self.team
        points, tricks = [0, 0], [0, 0]
        for seat in range(4):
            points[team[seat]] += self.won_points[seat]
            tricks[team[seat]] += self.won_tricks[seat]
        return DealFacts(tuple(team), self.lone, (points[0], points[1]), (tricks[0], tricks[1]),
                         (self.levels[0], self.levels[1]), self._extras(),
                         told_wins=not self.options["winner_doppelkopf_1"])

    def _extras(self) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        """Fox caught, Karlchen, Doppelkopf tricks — per team (none in solos)."""
        extras: tuple[list[tuple[str, str]], list[tuple[str, str]]] = ([], [])
        if self.lone:
            return extras
        team, last = self.team, self.tricks_total
        foxes = self.pigs < 0  # a pig is no fox (house rules): with pigs held, both ♦A are pigs
        # Every fast playout's settlement reads this: the tricks that score nothing pass one test.
        for number, (leader, cards, winner, points) in enumerate(self.tricks, start=1):
            if points < 40 and number != last and not (foxes and AD in cards):
                continue
            side = team[winner]
            if foxes and AD in cards:
                for index, c in enumerate(cards):
                    if c == AD and team[(leader + index) & 3] != side:
                        extras[side].append(("fox", _FOX_CAUGHT[number]))
            if points >= 40:
                extras[side].append(("doppelkopf", f"Doppelkopf: trick {number} worth {points}"))
            if number == last:
                self._karlchen(leader, cards, winner, extras[side])
        return extras

    def _karlchen(self, leader: int, cards: tuple[int, ...], winner: int, out: list[tuple[str, str]]) -> None:
        if JC not in cards:
            return
        side = self.team[winner]
        if cards[(winner - leader) & 3] == JC:
            out.append(("karlchen", "Karlchen (J♣) won the last trick"))
        if self.options["karlchen_only_by_winning"]:
            return
        for index, c in enumerate(cards):
            if c == JC and self.team[(leader + index) & 3] != side:
                out.append(("karlchen_caught", "Opposing Karlchen (J♣) caught in the last trick"))

    def score(self, facts: DealFacts | None = None) -> None:
        """Settle the finished card play (a fast playout that played the cards on its own
        data fills in the tricks and calls this once, with the ``facts`` it read)."""
        facts = facts if facts is not None else self.facts()
        self.settlement = settle_ddv(facts) if self.options["ddv_scoring"] else settle(facts)
        winner = self.settlement.winner
        self.outcome = "nobody_won" if winner is None else f"{TEAM_NAMES[winner]}_won"
        self.phase = DONE

    def breakdown(self) -> list[ScoreLine]:
        """Every scoring line of the deal (``team`` 0 = Re, 1 = Kontra), then the
        deal value and each seat's game points."""
        if self.phase != DONE:
            return []
        if self.settlement is None:
            if self.contract:
                return [ScoreLine("thrown_in", "Poverty declined by all: the same dealer deals again", 0)]
            # Who threw in reads from the reservations; a seat line would be a seat's points on the sheet.
            return [ScoreLine("thrown_in_cards", "Thrown in (five nines or five kings): the same dealer deals again", 0)]
        facts = self.facts()
        lines = [ScoreLine("card_points", f"{TEAM_NAMES[t].capitalize()} card points", facts.card_points[t], team=t)
                 for t in (RE, KONTRA)]
        lines += [ScoreLine(key, text, points, team=team) for key, text, points, team in self.settlement.lines]
        winner = self.settlement.winner
        side = RE if winner is None else winner
        lines.append(ScoreLine("value", "Deal value" + ("" if winner is not None else " (nobody won: extras only)"),
                               self.settlement.value, team=side))
        lines += [ScoreLine("seat", f"Seat {seat}", p, seat=seat) for seat, p in enumerate(self.settlement.seat_points)]
        return lines

    # -- views ---------------------------------------------------------------------
    def observe(self, seat: int) -> DoppelkopfObservation:
        return cast(Observer, self.spec).observation(self, seat)

    def situation(self, seat: int) -> Situation:
        """What ``seat`` knows that the card play rules need, fast (search
        rollouts call it on every card); equal to ``Situation.of(observe(seat))``."""
        return cast(Observer, self.spec).situation(self, seat)

    def _seen_facts(self) -> tuple[int, int, int]:
        """What a text depends on besides its action, actor and seat: the
        reservation that plays (shown once the reservations are over) and the
        poverty's two players (who alone read the cards given and returned)."""
        winner = self.winning_reservation() if self.phase != RESERVING else -1
        return winner, self.declarer, self.partner

    def _spell_seen(self, seat: int, facts: tuple[int, int, int],
                    taken: Iterator[tuple[int, int]]) -> SeenActions:
        winner, declarer, partner = facts
        insider = seat == declarer or seat == partner
        action_text = self.action_text
        out = []
        for actor, action in taken:
            if HEALTHY < action < ANNOUNCE_RE and actor != seat and actor != winner:
                text = HIDDEN_RESERVATION
            elif action >= RETURN:
                text = action_text(action) if insider else HIDDEN_RETURN
            elif action >= GIVE:
                text = action_text(action) if insider else HIDDEN_GIVE
            else:
                text = action_text(action)
            out.append((actor, text))
        return tuple(out)

    def _trick_view(self, trick: tuple[int, tuple[int, ...], int, int]) -> Trick:
        leader, cards, winner, points = trick
        return Trick(leader, seated(leader, cards), winner, points)


def seated(leader: int, cards: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """The cards of a trick as (seat, face), from its leader on."""
    return tuple(((leader + index) % 4, c) for index, c in enumerate(cards))


def triple_codes(hand: int) -> list[int]:
    """The ``triple_code`` of every three cards of a hand (id mask), each once, in
    ascending order (a taker's return options; a search's rollouts and inference ask at
    every exchange): the triples of distinct faces, then those with a face held twice."""
    held = faces_of(face_mask(hand))
    codes = [(a << 12) | (b << 6) | c for a, b, c in combinations(held, 3)]
    pairs = faces_of(hand & hand >> COPY_OFFSET & FACE_MASK)
    if pairs:
        for pair in pairs:
            for other in held:
                if other != pair:
                    codes.append((pair << 12) | (pair << 6) | other if pair < other
                                 else (other << 12) | (pair << 6) | pair)
        codes.sort()
    return codes


@lru_cache(maxsize=1024)
def parse_action(text: str) -> int:
    """The action a text means (the same in every deal).  Cached: a search replays the
    same public actions on every world it samples."""
    words = " ".join(text.lower().split())
    if words in _WORDS:
        return _WORDS[words]
    verb, _, rest = words.partition(" ")
    if verb == "solo" and rest in SOLO_NAMES:
        return SOLO + SOLO_NAMES.index(rest)
    if verb == "play" and rest:
        (played,) = _deck_faces(rest, 1)
        return played
    if verb in ("give", "return") and rest:
        return (GIVE if verb == "give" else RETURN) + triple_code(_deck_faces(rest, 3))
    raise NotationError(
        f"{text!r} is not a Doppelkopf action (try: healthy, marriage, poverty, solo queens, re, kontra, "
        "no 90, schwarz, play 10H, give 9C 10D QD, accept, decline, return AS KS 9H)"
    )


def reservation_rank(action: int | None) -> int:
    """Precedence of a reservation (healthy or not yet spoken: 0)."""
    if action is None or action == HEALTHY:
        return HEALTHY_RANK
    if action == MARRIAGE:
        return MARRIAGE_RANK
    if action == THROW_IN:
        return THROW_IN_RANK
    return POVERTY_RANK if action == POVERTY else SOLO_RANK


def _deck_faces(text: str, how_many: int) -> list[int]:
    faces = parse_cards(text)
    if len(faces) != how_many:
        raise NotationError(f"{text!r}: name exactly {how_many} card{'s' if how_many > 1 else ''}")
    for f in faces:
        if f not in FACES:
            raise NotationError(f"{card_text(f)} is not in the Doppelkopf deck (A 10 K Q J 9)")
    return faces
